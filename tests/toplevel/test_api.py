"""The top-level namespace's behaviour where cellonnx itself defines it (what MindSpore prints is compared in
test_probes.py): the module layout MindSpore code imports from, device targets refused when set, deterministic
sessions, heap memory figures, jit running eagerly with autograd, symbols in signatures, loading an exported
model, generators' streams, lazy tensors."""
from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, context, nn, ops
from tests.tolerance import assert_close

HAS_CUDA = "CUDAExecutionProvider" in ort.get_available_providers()


@pytest.fixture
def keep_context() -> None:
    saved = (context.mode, context.device_target, context.device_id, dict(context._extra))
    yield
    context.mode, context.device_target, context.device_id = saved[:3]
    context._extra.clear()
    context._extra.update(saved[3])


# ---------------------------------------------------------------- module layout
@pytest.mark.parametrize("module, names", [
    ("cellonnx.dtype", ["float32", "complex64", "number", "tensor_type", "pytype_to_dtype", "dtype_to_nptype",
                        "dtype_to_pytype", "get_py_obj_dtype", "QuantDtype", "Int", "TensorType", "Type"]),
    ("cellonnx.common.dtype", ["float32", "bfloat16", "int_", "float_", "_null", "number_type",
                               "float_type"]),
    ("cellonnx.common", ["Tensor", "Parameter", "ParameterTuple", "initializer", "set_seed", "get_seed",
                         "float32", "tensor", "jit", "Generator", "dtype", "recompute", "from_numpy"]),
    ("cellonnx.common.tensor", ["Tensor", "tensor", "is_tensor", "swap_tensors", "from_numpy", "frombuffer"]),
    ("cellonnx.common.parameter", ["Parameter", "ParameterTuple"]),
    ("cellonnx.common.initializer", ["initializer", "Normal", "One"]),
    ("cellonnx.train.serialization", ["save_checkpoint", "load_checkpoint", "load_param_into_net", "export",
                                      "load", "ckpt_to_safetensors", "safetensors_to_ckpt",
                                      "load_checkpoint_async", "async_ckpt_thread_status"]),
    ("cellonnx.train", ["Model", "save_checkpoint", "load_checkpoint", "export", "load"]),
    ("cellonnx.context", ["set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "LAX",
                          "COMPATIBLE"]),
    ("cellonnx.nn.layer", ["Dense", "Conv2d", "SequentialCell", "CellList", "CellDict"]),
    ("cellonnx", ["jit", "jit_class", "JitConfig", "lazy_inline", "no_inline", "mutable", "Tensor", "tensor",
                  "from_numpy", "frombuffer", "Generator", "manual_seed", "seed", "initial_seed",
                  "get_rng_state", "set_rng_state", "set_device", "get_current_device", "set_deterministic",
                  "run_check", "recompute", "swap_tensors", "get_level", "get_log_config", "COMPATIBLE",
                  "LAX", "STRICT", "synchronize", "memory_allocated"]),
])
def test_mindspore_modules_hold_their_names(module: str, names: list[str]) -> None:
    mod = importlib.import_module(module)
    missing = [n for n in names if not hasattr(mod, n)]
    assert missing == [], f"{module} lacks {missing}"


def test_dtype_module_is_one_module_under_both_names() -> None:
    from cellonnx import dtype as mstype
    from cellonnx.common import dtype

    assert mstype is dtype is ms.dtype
    assert mstype.float32 is ms.float32 and Tensor([1.0], mstype.float32).dtype is mstype.float32
    assert ops.stop_gradient is ms.ops.stop_gradient


# ---------------------------------------------------------------- devices
@pytest.mark.skipif(HAS_CUDA, reason="checks the refusal without CUDA")
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_gpu_target_without_cuda_is_refused_in_either_mode(mode: int, keep_context: None) -> None:
    ms.set_context(mode=mode)
    with pytest.raises(RuntimeError, match="Unsupported device target GPU.*onnxruntime-gpu"):
        ms.set_context(device_target="GPU")
    with pytest.raises(RuntimeError, match="Unsupported device target GPU"):
        ms.set_device("GPU")
    with pytest.raises(RuntimeError, match="Unsupported device target GPU"):
        with ms.DeviceCtx("GPU"):
            pass
    assert ms.get_context("device_target") == "CPU" and ms.get_current_device() == ("CPU", 0)


def test_ascend_is_refused_and_devices_are_checked(keep_context: None) -> None:
    with pytest.raises(RuntimeError, match="Unsupported device target Ascend"):
        ms.set_context(device_target="Ascend")
    with pytest.raises(ValueError, match="must be one of"):
        ms.set_device("TPU")
    with pytest.raises(ValueError, match="bigger than or equal to 0"):
        ms.set_device("CPU", -1)
    with ms.DeviceCtx("CPU", 0) as ctx:
        assert ctx.name == "CPU" and ms.get_current_device().device_target == "CPU"
    with pytest.raises(RuntimeError, match="'meta' device"):
        with ms.DeviceCtx("meta"):
            pass


def test_gpu_config_tf32_follows_mindspore(keep_context: None) -> None:
    """MindSpore's defaults: TF32 for convolutions, not for matmuls; onnxruntime's one switch is on only when
    both allow it."""
    from cellonnx.graph.runtime import cuda_options

    assert ms.get_context("gpu_config")["conv_allow_tf32"] is True
    assert ms.get_context("gpu_config")["matmul_allow_tf32"] is False
    assert cuda_options(1)["device_id"] == 1 and cuda_options(1)["use_tf32"] == 0
    ms.set_context(gpu_config={"matmul_allow_tf32": True})
    assert cuda_options()["use_tf32"] == 1 and ms.get_context("gpu_config")["conv_allow_tf32"] is True
    ms.set_context(gpu_config={"conv_allow_tf32": False})
    assert cuda_options()["use_tf32"] == 0 and ms.get_context("gpu_config")["matmul_allow_tf32"] is True
    with pytest.raises(ValueError, match="conv_algo"):
        ms.set_context(gpu_config={"conv_algo": "normal"})
    with pytest.raises(TypeError, match="matmul_allow_tf32"):
        ms.set_context(gpu_config={"matmul_allow_tf32": 1})


def test_set_deterministic_reaches_onnxruntime_sessions(keep_context: None) -> None:
    from cellonnx.graph.runtime import Session

    net = nn.Dense(3, 2)
    model = ms.graph.compile.trace_cell(net, [Tensor(np.ones((1, 3), np.float32))]).model.SerializeToString()
    assert not Session(model)._sess.get_session_options().use_deterministic_compute
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    assert Session(model)._sess.get_session_options().use_deterministic_compute
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        ms.set_deterministic(False)
    with pytest.raises(TypeError, match="must be bool"):
        context._extra.pop("_deterministic_set")
        ms.set_deterministic("yes")


def test_run_check_multiplies_eagerly_and_in_onnxruntime(capsys: pytest.CaptureFixture[str]) -> None:
    ms.run_check()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"cellonnx version:  {ms.__version__}"
    assert out[1] == ("The result of multiplication calculation is correct, cellonnx has been installed on "
                      "platform [CPU] successfully!")


# ---------------------------------------------------------------- runtime memory
def test_heap_figures_follow_what_tensors_hold() -> None:
    before = ms.memory_allocated()
    x = Tensor(np.ones((4_000_000,), np.float64))  # 32 MB
    grown = ms.memory_allocated() - before
    assert 31e6 < grown < 40e6, grown
    assert ms.memory_reserved() >= ms.memory_allocated()
    stats = ms.runtime.memory_stats()
    assert stats["total_idle_memory"] == stats["total_reserved_memory"] - stats["total_allocated_memory"]
    assert "total_allocated_memory" in ms.runtime.memory_summary()
    del x
    ms.empty_cache()
    assert ms.synchronize() is None and ms.runtime.launch_blocking() is None


def test_ms_memory_recycle_drops_compiled_graphs(keep_context: None) -> None:
    from cellonnx.graph import compile as C

    net = nn.Dense(3, 2)
    net.set_train(False)
    x = Tensor(np.ones((2, 3), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    want = net(x).asnumpy()
    assert net in C._CACHE
    ms.ms_memory_recycle()
    assert net not in C._CACHE
    assert_close(net(x).asnumpy(), want)  # compiled again on the next call


# ---------------------------------------------------------------- jit and markers
def test_jit_runs_eagerly_with_autograd() -> None:
    net = nn.Dense(3, 2)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))

    def loss(x: Tensor) -> Tensor:
        return net(x).sum()

    jitted = ms.jit(loss)
    assert jitted.__wrapped__ is loss and ms.jit(net) is net
    grad_fn = ms.value_and_grad(jitted, None, net.trainable_params())
    (value, grads), (value2, grads2) = grad_fn(x), ms.value_and_grad(loss, None, net.trainable_params())(x)
    assert_close(value.asnumpy(), value2.asnumpy())
    for g, g2 in zip(grads, grads2):
        assert_close(g.asnumpy(), g2.asnumpy())

    @ms.lazy_inline
    def init() -> int:
        return 1

    assert init() == 1 and ms.no_inline(loss) is loss and ms.enable_dynamic(x=x)(loss) is loss


def test_symbols_declare_dynamic_dims(tmp_path: Path) -> None:
    s = ms.Symbol(max=32, unique=True)
    sig = Tensor(shape=(None, s), dtype=ms.float32)
    assert sig.is_signature and sig.shape == (-1, -1)
    net = nn.Dense(4, 2)
    net.set_inputs(Tensor(shape=(ms.Symbol(), 4), dtype=ms.float32))
    path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name=str(tmp_path / "dense"))
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert_close(sess.run(None, {sess.get_inputs()[0].name: x})[0], net(Tensor(x)).asnumpy())


# ---------------------------------------------------------------- load
def test_load_runs_an_exported_model(tmp_path: Path) -> None:
    ms.set_seed(1)
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    net.set_inputs(Tensor(shape=(None, 3), dtype=ms.float32))
    path = ms.export(net, Tensor(np.ones((2, 3), np.float32)), file_name=str(tmp_path / "mlp"))
    graph = ms.load(path)
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    assert graph.input_names == ["x"] or len(graph.input_names) == 1
    assert_close(graph(Tensor(x)).asnumpy(), net(Tensor(x)).asnumpy())
    with pytest.raises(ValueError, match="MindIR file"):
        ms.load(str(tmp_path / "net.mindir"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "absent.onnx"))
    with pytest.raises(NotImplementedError, match="obfuscation"):
        ms.load(path, obf_func=None)


# ---------------------------------------------------------------- generators, lazy tensors, complex
def test_a_generator_state_restores_its_stream() -> None:
    g = ms.Generator().manual_seed(11)
    first = g.draw(lambda r: r.random(5))
    state = g.get_state()
    second = g.draw(lambda r: r.standard_normal(7))
    g.set_state(state)
    np.testing.assert_array_equal(g.draw(lambda r: r.standard_normal(7)), second)
    assert not np.array_equal(first, second[:5])
    assert g.get_state().asnumpy()[8:].view("<i8")[0] > 0  # the offset counts what was drawn


def test_a_lazy_tensor_is_filled_on_first_use() -> None:
    from cellonnx.common.initializer import initializer

    x = initializer("ones", [2, 3], ms.float32)
    assert x.has_init and x.shape == (2, 3) and x.ndim == 2 and not x.is_signature
    y = x + 1  # an op reads the data: it is made then
    assert not x.has_init and x.init is None
    np.testing.assert_array_equal(y.asnumpy(), np.full((2, 3), 2, np.float32))
    w = Parameter(initializer("normal", [3, 4]), name="w")
    assert not w.has_init and w.asnumpy().std() > 0


def test_complex_tensors() -> None:
    z = Tensor([1 + 2j, 3 - 1j])
    assert z.dtype is ms.complex128 and Tensor(np.ones(2, np.complex64)).dtype is ms.cfloat
    assert ms.complex64.to_real() is ms.float32 and ms.float64.to_complex() is ms.complex128
    with pytest.raises(TypeError, match="no NumPy or ONNX representation"):
        Tensor([1.0], ms.hifloat8)


def test_swap_tensors_refuses_different_layouts() -> None:
    p, t = Parameter(Tensor([1.0]), name="p"), Tensor([2.0])
    with pytest.raises(RuntimeError, match="slots differ"):
        ms.swap_tensors(p, t)
    a, b = Parameter(Tensor([1.0]), name="a"), Parameter(Tensor([2.0, 3.0]), name="b")
    ms.swap_tensors(a, b)
    assert a.name == "b" and a.shape == (2,) and b.name == "a" and b.asnumpy().tolist() == [1.0]


def test_set_seed_seeds_numpy_random_as_mindspore_does() -> None:
    ms.set_seed(1234)
    first = np.random.normal(0, 1, [3])
    ms.set_seed(1234)
    np.testing.assert_array_equal(np.random.normal(0, 1, [3]), first)
