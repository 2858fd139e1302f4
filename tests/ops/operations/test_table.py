"""Every row of the operator table (cellonnx/ops/operations/): the class, called as MindSpore code calls it,
gives what its functional twin gives on the same inputs. The twin is evaluated here from the row's expression
with the call's arguments and the primitive's attributes (not through the compiled ``__call__``), so the
test checks the constructor (signature, defaults, attribute set-up), the argument binding and the class
plumbing; a new row is tested as soon as it has inputs: the MindSpore fixture cases
(tests/fixtures/mindspore/operations_cases.py), the extra cases below, or float tensors when every call
parameter is a tensor name."""
from __future__ import annotations

import importlib.util
import inspect
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from cellonnx.ops import operations as P
from tests.fixtures.gen_common import make_inputs

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "mindspore"


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"cases_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


OC = _load(FIXTURES / "operations_cases.py")
f32, pos, i32, param = OC.f32, OC.pos, OC.i32, OC.param
T = ms.Tensor


def c(make: Any, inputs: list, call: Any = None) -> dict[str, Any]:
    return {"make": make, "inputs": inputs, "call": call or (lambda p, *xs: p(*xs))}


def _hook(g: Any) -> Any:
    return g * 2


EXTRA: dict[str, dict[str, Any]] = {
    "FlashAttentionScore": c(lambda: ops.FlashAttentionScore(4, scale_value=0.5, sparse_mode=2),
                             [f32(2, 3, 8), f32(2, 3, 4), f32(2, 3, 4)]),
    "PromptFlashAttention": c(lambda: ops.PromptFlashAttention(4, 0.5, num_key_value_heads=2),
                              [f32(2, 3, 8), f32(2, 5, 4), f32(2, 5, 4)]),
    "IncreFlashAttention": c(lambda: ops.IncreFlashAttention(4, num_key_value_heads=2),
                             [f32(2, 1, 8), f32(2, 5, 4), f32(2, 5, 4)],
                             lambda p, q, k, v: p(q, [k], [v], actual_seq_lengths=[5, 3])),
    "PagedAttention": c(lambda: ops.PagedAttention(4, 0.5, 2),
                        [f32(2, 4, 2), f32(4, 2, 2, 2), f32(4, 2, 2, 2)],
                        lambda p, q, k, v: p(q, k, v, T([[2, 0], [3, 1]], ms.int32), T([3, 4], ms.int32))),
    "PagedAttentionMask": c(lambda: ops.PagedAttentionMask(4, 0.5, 2),
                            [f32(2, 4, 2), f32(4, 2, 2, 2), f32(4, 2, 2, 2), f32(2, 4, 1, 4)],
                            lambda p, q, k, v, a: p(q, k, v, T([[2, 0], [3, 1]], ms.int32),
                                                    T([3, 4], ms.int32), alibi_mask=a)),
    "ReshapeAndCache": c(lambda: ops.ReshapeAndCache(),
                         [f32(3, 2, 2), f32(3, 2, 2), param(f32(4, 2, 2, 2)), param(f32(4, 2, 2, 2))],
                         lambda p, k, v, kc, vc: p(k, v, kc, vc, T([5, 0, 2], ms.int32))),
    "ExtractImagePatches": c(lambda: ops.ExtractImagePatches([1, 1, 2, 2], [1, 1, 1, 2], [1, 1, 1, 1],
                                                             "SAME"), [f32(1, 2, 4, 5)]),
    "ExtractVolumePatches": c(lambda: ops.ExtractVolumePatches(2, 1, "VALID"), [f32(1, 2, 3, 3, 3)]),
    "Dilation2D": c(lambda: ops.Dilation2D(1, 1), [f32(1, 2, 4, 4), f32(2, 2, 2)]),
    "FractionalMaxPool": c(lambda: ops.FractionalMaxPool([1.0, 1.5, 1.4, 1.0], seed=3), [f32(1, 5, 6, 2)]),
    "FractionalAvgPool": c(lambda: ops.FractionalAvgPool([1.0, 1.5, 1.4, 1.0], True, True),
                           [f32(1, 5, 6, 2)]),
    "ResizeArea": c(lambda: ops.ResizeArea(True), [f32(1, 4, 5, 2)], lambda p, x: p(x, T([3, 2], ms.int32))),
    "ScaleAndTranslate": c(lambda: ops.ScaleAndTranslate("triangle"), [f32(1, 4, 5, 2)],
                           lambda p, x: p(x, T([3, 6], ms.int32), T([0.7, 1.2], ms.float32),
                                          T([0.5, 0.0], ms.float32))),
    "EditDistance": c(lambda: ops.EditDistance(False), [],
                      lambda p: p(T([[0, 0], [0, 1]], ms.int64), T([1.0, 2.0], ms.float32),
                                  T([1, 2], ms.int64), T([[0, 1]], ms.int64), T([2.0], ms.float32),
                                  T([1, 2], ms.int64))),
    "NoRepeatNGram": c(lambda: ops.NoRepeatNGram(2), [f32(1, 1, 4)],
                       lambda p, x: p(T([[[1, 2, 1, 0, 1]]], ms.int32), x)),
    "ComputeAccidentalHits": c(lambda: ops.ComputeAccidentalHits(2), [],
                               lambda p: p(T([[1, 2], [0, 4]], ms.int64), T([0, 2, 1, 2], ms.int64))),
    "MatrixSolveLs": c(lambda: ops.MatrixSolveLs(), [f32(4, 3), f32(4, 2)],
                       lambda p, a, b: p(a, b, T(0.1, ms.float64))),
    "ExtractGlimpse": c(lambda: ops.ExtractGlimpse(True, True, False, "zero"), [f32(2, 5, 6, 2), f32(2, 2)],
                        lambda p, x, o: p(x, T([3, 2], ms.int32), o)),
    "DeformableOffsets": c(lambda: ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2)),
                           [f32(1, 2, 4, 4), f32(1, 12, 3, 3)]),
    "SparseSlice": c(lambda: ops.SparseSlice(), [f32(3)],
                     lambda p, v: p(T([[0, 1], [1, 2], [2, 0]], ms.int64), v, T([3, 3], ms.int64),
                                    T([0, 1], ms.int64), T([2, 2], ms.int64))),
    "SampleDistortedBoundingBoxV2": c(lambda: ops.SampleDistortedBoundingBoxV2(seed=3), [],
                                      lambda p: p(T([20, 16, 3], ms.int32),
                                                  T([[[0.1, 0.2, 0.6, 0.7]]], ms.float32),
                                                  T([0.3], ms.float32))),
    "FusedAdaFactor": c(lambda: ops.FusedAdaFactor(True, True, True),
                        [f32(2, 3), param(pos(2, 3)), param(f32(2, 3)), param(pos(2)), param(pos(3)),
                         param(pos(2, 3))],
                        lambda p, g, *s: p((1e-30, 1e-3), 1.0, 0.9, 0.8, 0.01, 0.03, g, *s)),
    "FusedAdaFactorWithGlobalNorm": c(lambda: ops.FusedAdaFactorWithGlobalNorm(),
                                      [f32(4), param(pos(4)), param(f32(4)), param(pos(1)), param(pos(1)),
                                       param(pos(4))],
                                      lambda p, g, *s: p((1e-30, 1e-3), 1.0, 0.9, 0.8, 0.01, 0.03, g, *s,
                                                         T(2.0, ms.float32))),
    "DepthwiseConv2dNative": c(lambda: ops.DepthwiseConv2dNative(1, 2), [f32(1, 2, 4, 4), f32(1, 2, 2, 2)]),
    "MatrixLogarithm": c(lambda: ops.MatrixLogarithm(), [], lambda p: p(T([[2 + 1j, 0.5], [0.2, 3 - 1j]],
                                                                           ms.complex64))),
    "RaggedRange": c(lambda: ops.RaggedRange(ms.int64), [],
                     lambda p: p(T([0, 2], ms.int32), T([3, 7], ms.int32), T([1, 2], ms.int32))),
    "RNNTLoss": c(lambda: ops.RNNTLoss(), [f32(1, 2, 3, 5)],
                  lambda p, a: p(a, T([[1, 2]], ms.int32), T([2], ms.int32), T([2], ms.int32))),
    "CombinedNonMaxSuppression": c(lambda: ops.CombinedNonMaxSuppression(), [f32(1, 4, 1, 4), f32(1, 4, 2)],
                                   lambda p, b, s: p(b, s, T(2, ms.int32), T(3, ms.int32), T(0.5, ms.float32),
                                                     T(0.0, ms.float32))),
    "ROIAlign": c(lambda: ops.ROIAlign(2, 2, 0.5), [f32(1, 2, 5, 5)],
                  lambda p, x: p(x, T([[0, 0.5, 0.5, 3.0, 3.5]], ms.float32))),
    "TransposeView": c(lambda: ops.TransposeView(), [f32(2, 3, 4)], lambda p, x: p(x, (1, 2, 0))),
    "TransposeExtView": c(lambda: ops.TransposeExtView(), [f32(2, 3, 4)], lambda p, x: p(x, 0, 2)),
    "Expand": c(lambda: ops.Expand(), [f32(3, 1)], lambda p, x: p(x, T([2, 3, 4], ms.int64))),
    "ParallelConcat": c(lambda: ops.ParallelConcat(), [f32(1, 3), f32(1, 3)], lambda p, a, b: p((a, b))),
    "SplitV": c(lambda: ops.SplitV((1, -1, 2), 1, 3), [f32(2, 6)]),
    "GatherV2": c(lambda: ops.GatherV2(), [f32(4, 3)], lambda p, x: p(x, T([3, 0], ms.int32), 0)),
    "SparseGatherV2": c(lambda: ops.SparseGatherV2(), [f32(4, 3)], lambda p, x: p(x, T([1, 1], ms.int32), 0)),
    "MaskedSelect": c(lambda: ops.MaskedSelect(), [f32(3, 4)], lambda p, x: p(x, x > 0)),
    "ScatterNonAliasingAdd": c(lambda: ops.ScatterNonAliasingAdd(), [param(f32(4, 3)), f32(2, 3)],
                               lambda p, x, u: p(x, T([[0], [2]], ms.int32), u)),
    "InplaceIndexAdd": c(lambda: ops.InplaceIndexAdd(0), [param(f32(4, 3)), f32(2, 3)],
                         lambda p, x, u: p(x, T([3, 1], ms.int32), u)),
    "Fills": c(lambda: ops.Fills(), [f32(2, 3)], lambda p, x: p(x, 2.5)),
    "ScalarCast": c(lambda: ops.ScalarCast(), [], lambda p: p(3.7, ms.int64)),
    "DynamicShape": c(lambda: ops.DynamicShape(), [f32(2, 3)]),
    "LogSoftmaxExt": c(lambda: ops.LogSoftmaxExt(), [f32(2, 3)], lambda p, x: p(x, 0)),
    "StandardNormal": c(lambda: ops.StandardNormal(seed=2), [], lambda p: p((2, 3))),
    "UniformReal": c(lambda: ops.UniformReal(seed=3), [], lambda p: p((2, 3))),
    "UniformInt": c(lambda: ops.UniformInt(seed=4), [], lambda p: p((2, 3), T(1, ms.int32), T(5, ms.int32))),
    "Bernoulli": c(lambda: ops.Bernoulli(seed=5), [f32(2, 3)], lambda p, x: p(x, 0.3)),
    "LARSUpdate": c(lambda: ops.LARSUpdate(use_clip=True), [f32(2, 3), f32(2, 3)],
                    lambda p, w, g: p(w, g, T(4.0), T(2.0), 0.01, 0.1)),
    "SparseApplyFtrlV2": c(lambda: ops.SparseApplyFtrlV2(0.1, 0.05, 0.02, 0.01, -0.5),
                           [param(f32(4, 3)), param(pos(4, 3)), param(f32(4, 3)), f32(2, 3)],
                           lambda p, v, a, lin, g: p(v, a, lin, g, T([3, 0], ms.int32))),
    "FusedCastAdamWeightDecay": c(lambda: ops.FusedCastAdamWeightDecay(),
                                  [param(f32(2, 3)), param(f32(2, 3)), param(pos(2, 3)), f32(2, 3)],
                                  lambda p, v, m, s, g: p(v, m, s, 0.01, 0.9, 0.999, 1e-8, 0.1, g)),
    "FusedWeightScaleApplyMomentum": c(lambda: ops.FusedWeightScaleApplyMomentum(),
                                       [param(f32(2, 3)), param(f32(2, 3)), f32(2, 3)],
                                       lambda p, v, a, g: p(0.01, 0.5, v, a, 0.1, g, 0.9)),
    "Print": c(lambda: ops.Print(), [f32(2, 2)], lambda p, x: p("x:", x)),
    "Assert": c(lambda: ops.Assert(), [f32(2, 2)], lambda p, x: p(T(True), [x])),
    "ScalarSummary": c(lambda: ops.ScalarSummary(), [f32(1)], lambda p, x: p("loss", x)),
    "ImageSummary": c(lambda: ops.ImageSummary(), [f32(1, 3, 2, 2)], lambda p, x: p("image", x)),
    "TensorSummary": c(lambda: ops.TensorSummary(), [f32(2, 2)], lambda p, x: p("t", x)),
    "HistogramSummary": c(lambda: ops.HistogramSummary(), [f32(2, 2)], lambda p, x: p("h", x)),
    "TensorDump": c(lambda: ops.TensorDump(), [f32(2, 2)], lambda p, x: p("dumped", x)),
    "HookBackward": c(lambda: ops.HookBackward(_hook), [f32(2, 2), f32(2, 2)]),
    "InsertGradientOf": c(lambda: ops.InsertGradientOf(_hook), [f32(2, 2)]),
    "DumpGradient": c(lambda: ops.DumpGradient(), [f32(2, 2)], lambda p, x: p("grad", x, "out")),
    "Morph": c(lambda: ops.Morph(lambda a, b: a * b, None, None), [f32(2, 2), f32(2, 2)]),
    "UpdateState": c(lambda: ops.UpdateState(), [f32(2, 2), f32(2)]),
    "StopGradient": c(lambda: ops.StopGradient(), [f32(2, 2)]),
    "MoveTo": c(lambda: ops.MoveTo(), [f32(2, 2)], lambda p, x: p(x, "CPU")),
    "Partial": c(lambda: ops.Partial(), [f32(2, 2)], lambda p, a: p(ops.add, a)),
    "PyFunc": c(lambda: ops.PyFunc(lambda a, b: (a + b, a * b), [ms.float32] * 2, [(2, 2)] * 2,
                                   [ms.float32] * 2, [(2, 2)] * 2), [f32(2, 2), f32(2, 2)]),
    "Pack": c(lambda: ops.Pack(1), [f32(2, 3), f32(2, 3)], lambda p, a, b: p((a, b))),
    "Unpack": c(lambda: ops.Unpack(1), [f32(2, 3)]),
    "IdentityN": c(lambda: ops.IdentityN(), [f32(2, 3), f32(3)], lambda p, a, b: p([a, b])),
    "MaxPoolWithArgmax": c(lambda: ops.MaxPoolWithArgmax(2, 2, "same"), [f32(1, 2, 5, 5)]),
    "Dropout": c(lambda: ops.Dropout(0.7), [f32(3, 4)]),
    "Dropout2D": c(lambda: ops.Dropout2D(0.6), [f32(2, 3, 2, 2)]),
    "Dropout3D": c(lambda: ops.Dropout3D(0.6), [f32(2, 3, 2, 2, 2)]),
    "StandardLaplace": c(lambda: ops.StandardLaplace(seed=2), [], lambda p: p((2, 3))),
    "Gamma": c(lambda: ops.Gamma(seed=3), [], lambda p: p((2,), T([1.0, 2.0]), T([1.0, 0.5]))),
    "RandomGamma": c(lambda: ops.RandomGamma(seed=3), [], lambda p: p((2,), T([1.0, 2.0]))),
    "Poisson": c(lambda: ops.Poisson(seed=4), [], lambda p: p((2,), T([1.0, 3.0]))),
    "RandomPoisson": c(lambda: ops.RandomPoisson(seed=4), [], lambda p: p((2,), T([1.0, 3.0]))),
    "Multinomial": c(lambda: ops.Multinomial(seed=5), [], lambda p: p(T([[0.2, 0.3, 0.5]]), 4)),
    "MultinomialWithReplacement": c(lambda: ops.MultinomialWithReplacement(3, True), [],
                                    lambda p: p(T([[0.2, 0.5, 1.0]]), T(5, ms.int64), T(0, ms.int64))),
    "RandomCategorical": c(lambda: ops.RandomCategorical(), [], lambda p: p(T([[0.0, 1.0, 2.0]]), 4, 7)),
    "Randperm": c(lambda: ops.Randperm(max_length=5), [], lambda p: p(T([3], ms.int32))),
    "RandpermV2": c(lambda: ops.RandpermV2(seed=3), [], lambda p: p(T(4, ms.int64))),
    "UniformCandidateSampler": c(lambda: ops.UniformCandidateSampler(1, 3, True, 5, seed=1), [],
                                 lambda p: p(T([[1], [3]], ms.int64))),
    "LogUniformCandidateSampler": c(lambda: ops.LogUniformCandidateSampler(1, 3, True, 5, seed=1), [],
                                    lambda p: p(T([[1], [3]], ms.int64))),
    "RandomShuffle": c(lambda: ops.RandomShuffle(seed=1), [f32(4, 3)]),
    "RandomChoiceWithMask": c(lambda: ops.RandomChoiceWithMask(count=3, seed=1), [f32(4, 3)],
                              lambda p, x: p(x > 0)),
    "LogNormalReverse": c(lambda: ops.LogNormalReverse(), [f32(2, 3)]),
    "Cauchy": c(lambda: ops.Cauchy((2, 3), 1.0, 0.5), [], lambda p: p()),
    "TruncatedNormal": c(lambda: ops.TruncatedNormal(seed=2), [], lambda p: p((2, 3))),
    "ParameterizedTruncatedNormal": c(lambda: ops.ParameterizedTruncatedNormal(seed=2), [],
                                      lambda p: p((2, 3), T([0.0, 1.0]), T([1.0, 0.5]), T([-1.0, 0.0]),
                                                  T([2.0, 1.5]))),
    # unseeded by design: an empty draw compares the class with its twin
    "NonDeterministicInts": c(lambda: ops.NonDeterministicInts(ms.int32), [], lambda p: p((0, 3))),
    "NonMaxSuppressionV3": c(lambda: ops.NonMaxSuppressionV3(), [f32(6, 4), f32(6)],
                             lambda p, b, s: p(b, s, T(4, ms.int32), T(0.4), T(-1.0))),
    "BasicLSTMCell": c(lambda: ops.BasicLSTMCell(), [f32(2, 3), f32(2, 4), f32(2, 4), f32(7, 16), f32(16)]),
    "DynamicRNN": c(lambda: ops.DynamicRNN(), [f32(2, 3, 4), f32(9, 20), f32(20), f32(1, 3, 5), f32(1, 3, 5)],
                    lambda p, x, w, b, h, cc: p(x, w, b, None, h, cc)),
    "DynamicGRUV2": c(lambda: ops.DynamicGRUV2(gate_order="zrh"),
                      [f32(2, 3, 4), f32(4, 15), f32(5, 15), f32(15), f32(15), f32(3, 5)],
                      lambda p, x, wi, wh, bi, bh, h: p(x, wi, wh, bi, bh, None, h)),
    "Custom": c(lambda: ops.Custom(lambda a, b: a * b + 1, out_shape=lambda a, b: a, out_dtype=ms.float32),
                [f32(2, 2), f32(2, 2)]),
}

_TENSOR_NAMES = {"input", "x", "input_x", "other", "y", "x1", "x2", "logits", "exponent"}


def _default(row: Any) -> dict[str, Any] | None:
    params = [p for p in inspect.signature(getattr(P, row.name).__call__).parameters.values()][1:]
    required = [p for p in inspect.signature(getattr(P,
                                                     row.name)).parameters.values() if p.default is p.empty]
    if required or not params or any(p.name not in _TENSOR_NAMES for p in params):
        return None
    n = sum(p.default is p.empty for p in params)
    return c(lambda: getattr(P, row.name)(), [pos(2, 3)] * n)


def _case(row: Any) -> dict[str, Any] | None:
    if row.name in EXTRA:
        return EXTRA[row.name]
    fixtures = [k for k in sorted(CASES) if k == row.name or k.startswith(row.name + "/")]
    if fixtures:
        return CASES[fixtures[0]]
    return _default(row)


CASES = OC.build(ms, ops)
ROW_NAMES = [row.name for row in P.ROWS]


def test_every_row_has_a_case() -> None:
    missing = [row.name for row in P.ROWS if _case(row) is None]
    assert not missing, f"rows without inputs to test them (add a case to this file): {missing}"


def test_every_function_a_row_names_exists() -> None:
    """A row's functions are looked up on cellonnx.ops when it is called: each must be there."""
    missing = {row.name: names for row in P.ROWS
               if (names := sorted(n for n in getattr(P, row.name).ops_names if not hasattr(ops, n)))}
    assert not missing, f"rows calling functions cellonnx.ops does not have: {missing}"


def test_rows_are_the_classes() -> None:
    assert len(set(ROW_NAMES)) == len(ROW_NAMES)
    for row in P.ROWS:
        cls = getattr(P, row.name)
        assert cls.row is row and getattr(ops, row.name) is cls and issubclass(cls, ops.Primitive)


class _Recorder:
    """Stands in for the primitive in a case's call: records the arguments."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.args, self.kwargs = args, kwargs
        return self

    def __getitem__(self, index: Any) -> Any:  # cases that pick one output
        return self


def _inputs(name: str, specs: list) -> list[Any]:
    values = make_inputs([s[:4] for s in specs], np.random.default_rng(zlib.crc32(name.encode())))
    return [ms.Parameter(T(v), name=f"p{i}") if len(s) > 4 else T(v) for i, (s, v) in enumerate(zip(specs,
                                                                                                    values))]


def _flatten(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _flatten(o)]
    return [out]


def _run(row: Any, case: dict[str, Any], twin: bool) -> tuple[list[Any], list[ms.Tensor]]:
    ms.set_seed(7)
    tensors = _inputs(row.name, case["inputs"])
    prim = case["make"]()
    recorder = _Recorder()
    case["call"](recorder, *tensors)
    args, kwargs = recorder.args, recorder.kwargs
    if twin:
        bound = inspect.signature(type(prim).__call__).bind(prim, *args, **kwargs)
        bound.apply_defaults()
        scope = {**prim.attrs, **bound.arguments}
        out = eval(row.twin, type(prim).twin_namespace(), scope)
    else:
        out = prim(*args, **kwargs)
    return _flatten(out), [t for t in tensors if isinstance(t, ms.Parameter)]


@pytest.mark.parametrize("name", ROW_NAMES)
def test_class_matches_its_twin(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # TensorDump / DumpGradient write files
    row = getattr(P, name).row
    case = _case(row)
    got, got_params = _run(row, case, twin=False)
    want, want_params = _run(row, case, twin=True)
    assert len(got) == len(want), f"{name}: {len(got)} outputs, the twin {len(want)}"
    for i, (g, w) in enumerate(zip(got + got_params, want + want_params)):
        if isinstance(w, ms.Tensor):
            assert isinstance(g, ms.Tensor), f"{name} output {i}: {type(g).__name__}, the twin a Tensor"
            assert g.dtype == w.dtype and g.shape == w.shape, f"{name} output {i}: {g.dtype} {g.shape}, " \
                                                               f"the twin {w.dtype} {w.shape}"
            np.testing.assert_array_equal(g.asnumpy(), w.asnumpy(), err_msg=f"{name} output {i}")
        elif callable(w):  # Partial: the two functions agree
            x = T(np.full((2, 2), 1.5, np.float32))
            np.testing.assert_array_equal(g(x).asnumpy(), w(x).asnumpy(), err_msg=f"{name} output {i}")
        else:
            assert g == w, f"{name} output {i}: {g!r}, the twin {w!r}"
