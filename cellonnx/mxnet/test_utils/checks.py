"""mx.test_utils' statistical checks of random generators, ``check_consistency`` (one symbol bound at
several dtypes agrees with its most precise binding), ``check_speed``, DummyIter and CSR helpers."""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from cellonnx.mxnet.io import DataIter
from cellonnx.mxnet.test_utils.compare import assert_almost_equal, default_context, get_tols

__all__ = ["DummyIter", "check_consistency", "check_speed", "chi_square_check", "create_sparse_array_zd",
           "gen_buckets_probs_with_ppf", "mean_check", "shuffle_csr_column_indices", "var_check",
           "verify_generator"]


def gen_buckets_probs_with_ppf(ppf: Any, nbuckets: int) -> tuple[list[tuple[float, float]], list[float]]:
    """``nbuckets`` equally likely buckets of a continuous distribution, from its inverse CDF ``ppf``."""
    if nbuckets <= 0:
        raise AssertionError("nbuckets must be positive")
    probs = [1.0 / nbuckets] * nbuckets
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets))) for i in range(nbuckets)]
    return buckets, probs


def mean_check(generator: Any, mu: float, sigma: float, nsamples: int = 1000000) -> bool:
    """Whether the mean of ``generator(nsamples)`` lies within 3 standard errors of ``mu``."""
    mean = np.array(generator(nsamples)).mean()
    bound = 3 * sigma / np.sqrt(nsamples)
    return bool(mu - bound < mean < mu + bound)


def var_check(generator: Any, sigma: float, nsamples: int = 1000000) -> bool:
    """Whether the variance of ``generator(nsamples)`` lies within 3 standard errors of ``sigma ** 2``."""
    var = np.array(generator(nsamples)).var(ddof=1)
    bound = 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))
    return bool(sigma ** 2 - bound < var < sigma ** 2 + bound)


def chi_square_check(generator: Any, buckets: list, probs: list[float],
                     nsamples: int = 1000000) -> tuple[float, np.ndarray, np.ndarray]:
    """Pearson's chi-square test of ``generator(nsamples)`` against bucket probabilities: ``buckets`` are
    ``(low, high)`` ranges (continuous) or values (discrete). Returns ``(p, observed, expected)``."""
    from scipy import stats

    if not isinstance(buckets, list) or len(probs) != len(buckets):
        raise AssertionError("buckets must be a list with one probability each")
    samples = np.asarray(generator(nsamples))
    expected = (nsamples * np.array(probs, dtype=np.float32)).astype(np.int32)
    observed = np.zeros(len(buckets), dtype=np.int64)
    if isinstance(buckets[0], (list, tuple)):
        edges = np.array([v for b in buckets for v in b], dtype=np.float32)
        ids = np.searchsorted(edges, samples, side="right") // 2
        for i in range(len(buckets)):
            observed[i] = (ids == i).sum()
    else:
        for i, value in enumerate(buckets):
            observed[i] = (samples == value).sum()
    # the statistic against the expected counts as given (SciPy's chisquare now refuses unequal totals)
    statistic = float(((observed - expected) ** 2 / expected).sum())
    p = float(stats.chi2.sf(statistic, len(buckets) - 1))
    return p, observed, expected


def verify_generator(generator: Any, buckets: list, probs: list[float], nsamples: int = 1000000,
                     nrepeat: int = 5, success_rate: float = 0.2, alpha: float = 0.05) -> list[float]:
    """Run ``chi_square_check`` ``nrepeat`` times; fail unless at least ``success_rate`` of the runs have
    p > ``alpha``. Returns the p-values."""
    runs = [chi_square_check(generator, buckets, probs, nsamples) for _ in range(nrepeat)]
    ps = [r[0] for r in runs]
    if (np.array(ps) > alpha).sum() < nrepeat * success_rate:
        raise AssertionError(f"Generator test fails, Chi-square p={ps}, obs_freq={[r[1] for r in runs]}, "
                             f"expected_freq={[r[2] for r in runs]}.\nbuckets={buckets}, probs={probs}")
    return ps


class DummyIter(DataIter):
    """An iterator that returns the first batch of ``real_iter`` forever (for speed tests)."""

    def __init__(self, real_iter: Any) -> None:
        super().__init__()
        self.real_iter = real_iter
        self.provide_data = real_iter.provide_data
        self.provide_label = real_iter.provide_label
        self.batch_size = real_iter.batch_size
        self.the_batch = next(real_iter)

    def __iter__(self) -> DummyIter:
        return self

    def next(self) -> Any:
        return self.the_batch


def shuffle_csr_column_indices(csr: Any) -> None:
    """Shuffle the column indices within each row of a CSR array's parts (in place)."""
    indptr, indices = csr.indptr.asnumpy(), csr.indices.asnumpy().copy()
    for i in range(len(indptr) - 1):
        sub = indices[indptr[i]:indptr[i + 1]]
        np.random.shuffle(sub)
        indices[indptr[i]:indptr[i + 1]] = sub
    data = csr.data.asnumpy()
    csr._store((data, indices, indptr))


def create_sparse_array_zd(shape: Any, stype: str, density: float, data_init: Any = None,
                           rsp_indices: Any = None, dtype: Any = None, modifier_func: Any = None,
                           shuffle_csr_indices: bool = False) -> Any:
    """``create_sparse_array`` that allows zero density."""
    from cellonnx.mxnet.test_utils.arrays import create_sparse_array

    return create_sparse_array(shape, stype, data_init=data_init, rsp_indices=rsp_indices, dtype=dtype,
                               modifier_func=modifier_func, density=density,
                               shuffle_csr_indices=shuffle_csr_indices)


def check_speed(sym: Any, location: dict | None = None, ctx: Any = None, N: int = 20,
                grad_req: Any = None, typ: str = "whole", **kwargs: Any) -> float:
    """Seconds per run of ``sym`` (``typ`` 'whole': forward and backward; 'forward': forward only), on
    ``location`` or random inputs of the shapes in ``kwargs``."""
    from cellonnx.mxnet import ndarray as nd

    ctx = ctx or default_context()
    grad_req = grad_req or "write"
    if location is None:
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **kwargs)
        location = {k: np.random.normal(size=arr.shape, scale=1.0) for k, arr in exe.arg_dict.items()}
    else:
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **{k: v.shape for k, v in location.items()})
    for name, value in location.items():
        exe.arg_dict[name][:] = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    if typ not in ("whole", "forward"):
        raise ValueError(f'typ can only be "whole" or "forward", got {typ!r}')
    head = [nd.ones(o.shape, dtype=o.dtype) for o in exe.outputs]
    start = time.time()
    for _ in range(N):
        exe.forward(is_train=typ == "whole")
        if typ == "whole":
            exe.backward(head)
    return (time.time() - start) / N


def check_consistency(sym: Any, ctx_list: list[dict], scale: float = 1.0, grad_req: Any = "write",
                      arg_params: dict | None = None, aux_params: dict | None = None, rtol: Any = None,
                      atol: Any = None, raise_on_err: bool = True, ground_truth: Any = None,
                      equal_nan: bool = False, use_uniform: bool = False,
                      rand_type: Any = np.float64) -> list:
    """Bind ``sym`` once per entry of ``ctx_list`` (``{'ctx': ..., <input>: shape, 'type_dict': {...}}``)
    on the same random arguments, and assert every binding's outputs (and gradients, unless grad_req is
    'null') agree with the most precise one's. Returns the ground truth: per binding, its arrays by name."""
    from cellonnx.mxnet import ndarray as nd

    if isinstance(sym, (list, tuple)):
        syms = list(sym)
    else:
        syms = [sym] * len(ctx_list)
    exes = []
    for s, spec in zip(syms, ctx_list):
        spec = dict(spec)
        ctx = spec.pop("ctx", default_context())
        type_dict = spec.pop("type_dict", {})
        exes.append(s.simple_bind(ctx=ctx, grad_req=grad_req, type_dict=type_dict, **spec))
    first = exes[0]
    rng = np.random.default_rng()
    arg_params = dict(arg_params or {})
    for name, arr in first.arg_dict.items():
        if name not in arg_params:
            arg_params[name] = (rng.uniform(-0.1, 0.1, arr.shape) if use_uniform
                                else rng.normal(size=arr.shape, scale=scale)).astype(rand_type)
    aux_params = dict(aux_params or {})
    for name, arr in first.aux_dict.items():
        aux_params.setdefault(name, np.zeros(arr.shape, rand_type))
    for exe in exes:
        for name, arr in exe.arg_dict.items():
            arr[:] = np.asarray(arg_params[name]).astype(arr.dtype)
        for name, arr in exe.aux_dict.items():
            arr[:] = np.asarray(aux_params[name]).astype(arr.dtype)
    dtypes = [np.dtype(exe.outputs[0].dtype) if exe.outputs else np.dtype(np.float32) for exe in exes]
    max_idx = int(np.argmax([d.itemsize for d in dtypes]))
    for exe in exes:
        exe.forward(is_train=grad_req != "null")
    truths = []
    gt = ground_truth or {**dict(zip(syms[max_idx].list_outputs(), exes[max_idx].outputs))}
    for i, exe in enumerate(exes):
        if i == max_idx:
            continue
        for name, arr in zip(syms[i].list_outputs(), exe.outputs):
            r, a = get_tols(arr, gt[name], rtol, atol)
            try:
                assert_almost_equal(arr, gt[name], rtol=r, atol=a, names=(f"{name}_{i}", f"{name}_{max_idx}"),
                                    equal_nan=equal_nan)
            except AssertionError:
                if raise_on_err:
                    raise
    if grad_req != "null":
        heads = [rng.normal(size=o.shape) for o in exes[max_idx].outputs]
        for exe in exes:
            exe.backward([nd.array(h.astype(o.dtype)) for h, o in zip(heads, exe.outputs)])
        gt_grads = {k: v for k, v in exes[max_idx].grad_dict.items() if v is not None}
        for i, exe in enumerate(exes):
            if i == max_idx:
                continue
            for name, grad in exe.grad_dict.items():
                if grad is None or name not in gt_grads:
                    continue
                r, a = get_tols(grad, gt_grads[name], rtol, atol)
                try:
                    assert_almost_equal(grad, gt_grads[name], rtol=r, atol=a,
                                        names=(f"{name}_{i}", f"{name}_{max_idx}"), equal_nan=equal_nan)
                except AssertionError:
                    if raise_on_err:
                        raise
        gt.update(gt_grads)
    truths.append(gt)
    return truths
