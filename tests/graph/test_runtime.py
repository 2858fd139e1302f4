"""The onnxruntime session wrapper: providers, IOBinding, initializer overrides."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cellonnx.graph.runtime import DeviceError, Session, cuda_options, providers_for

HAS_CUDA = "CUDAExecutionProvider" in ort.get_available_providers()


def _scale_model() -> bytes:
    w = numpy_helper.from_array(np.array([2.0, 3.0], np.float32), "w")
    graph = helper.make_graph([helper.make_node("Mul", ["x", "w"], ["y"])], "scale",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()


def test_cpu_session_runs() -> None:
    sess = Session(_scale_model(), "CPU")
    (y,) = sess.run({"x": np.ones((3, 2), np.float32)})
    np.testing.assert_array_equal(y, [[2, 3]] * 3)


@pytest.mark.skipif(HAS_CUDA, reason="checks the error raised without CUDA")
def test_gpu_without_cuda_is_a_clear_error_not_a_fallback() -> None:
    with pytest.raises(DeviceError, match="onnxruntime-gpu"):
        Session(_scale_model(), "GPU")


def test_auto_falls_back_to_cpu_only_when_asked() -> None:
    providers = providers_for("auto")
    assert providers[-1] == "CPUExecutionProvider"
    assert Session(_scale_model(), "auto").run({"x": np.ones((1, 2), np.float32)})[0].tolist() == [[2, 3]]


def test_unknown_device_target() -> None:
    with pytest.raises(ValueError, match="device_target"):
        providers_for("TPU")


def test_overrides_replace_initializers_without_a_new_model() -> None:
    sess = Session(_scale_model(), "CPU", overrides={"w": np.array([5.0, 7.0], np.float32)})
    np.testing.assert_array_equal(sess.run({"x": np.ones((1, 2), np.float32)})[0], [[5, 7]])


def test_iobinding_outputs() -> None:
    sess = Session(_scale_model(), "auto")
    (out,) = sess.run_device({"x": np.full((2, 2), 2.0, np.float32)})
    assert isinstance(out, ort.OrtValue)
    np.testing.assert_array_equal(out.numpy(), [[4, 6], [4, 6]])


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_CUDA, reason="needs onnxruntime-gpu and a CUDA device")
def test_cuda_outputs_stay_on_device() -> None:
    sess = Session(_scale_model(), "GPU")
    assert sess.on_gpu
    (out,) = sess.run_device({"x": np.ones((2, 2), np.float32)})
    assert out.device_name().lower() == "cuda"
    np.testing.assert_array_equal(out.numpy(), [[2, 3], [2, 3]])


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_CUDA, reason="needs onnxruntime-gpu and a CUDA device")
def test_cuda_sessions_take_tf32_from_gpu_config() -> None:
    import cellonnx as ms

    assert Session(_scale_model(), "GPU").inner.get_provider_options()["CUDAExecutionProvider"]["use_tf32"] == "0"
    ms.set_context(gpu_config={"matmul_allow_tf32": True})
    try:
        sess = Session(_scale_model(), "GPU")
        assert sess.inner.get_provider_options()["CUDAExecutionProvider"]["use_tf32"] == "1"
    finally:
        ms.set_context(gpu_config={"matmul_allow_tf32": False})


@pytest.fixture
def max_device_memory():
    import cellonnx as ms

    yield ms.set_context
    ms.set_context(max_device_memory="1024GB")


def test_max_device_memory_becomes_the_cuda_memory_limit(max_device_memory) -> None:
    assert "gpu_mem_limit" not in cuda_options()  # MindSpore's default, 1024GB: the device's own limit
    assert cuda_options()["arena_extend_strategy"] == "kSameAsRequested"
    max_device_memory(max_device_memory="3.5GB")
    import cellonnx as ms

    assert ms.get_context("max_device_memory") == 3.5
    assert cuda_options(1) == {"device_id": 1, "use_tf32": 0, "arena_extend_strategy": "kSameAsRequested",
                               "gpu_mem_limit": 7 * 2**29}


@pytest.mark.parametrize("value, error", [("3.5", ValueError), ("5gb", ValueError), ("0GB", ValueError),
                                          ("0.0GB", ValueError), (5, TypeError)])
def test_max_device_memory_is_checked_as_mindspore_does(max_device_memory, value, error) -> None:
    with pytest.raises(error, match="max_device_memory"):
        max_device_memory(max_device_memory=value)


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_CUDA, reason="needs onnxruntime-gpu and a CUDA device")
def test_cuda_sessions_take_the_memory_limit(max_device_memory) -> None:
    max_device_memory(max_device_memory="2GB")
    options = Session(_scale_model(), "GPU").inner.get_provider_options()["CUDAExecutionProvider"]
    assert options["gpu_mem_limit"] == str(2**31)
    assert options["arena_extend_strategy"] == "kSameAsRequested"
