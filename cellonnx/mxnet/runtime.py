"""mxnet.runtime: the features of this build (``Features().is_enabled('CUDA')``), MXNet's list of
names answered for cellonnx: no CUDA / cuDNN / NCCL / TensorRT / MKL-DNN / OpenCV, the host CPU's
instruction sets as NumPy detects them, OpenBLAS and LAPACK through NumPy, 64-bit tensor sizes, and the
distributed kvstore when mpi4py is importable."""
from __future__ import annotations

import importlib.util
from collections import OrderedDict
from typing import Any

__all__ = ["Feature", "Features", "feature_list"]

_NAMES = ("CUDA", "CUDNN", "NCCL", "CUDA_RTC", "TENSORRT", "CPU_SSE", "CPU_SSE2", "CPU_SSE3", "CPU_SSE4_1",
          "CPU_SSE4_2", "CPU_SSE4A", "CPU_AVX", "CPU_AVX2", "OPENMP", "SSE", "F16C", "JEMALLOC", "BLAS_OPEN",
          "BLAS_ATLAS", "BLAS_MKL", "BLAS_APPLE", "LAPACK", "MKLDNN", "OPENCV", "CAFFE", "PROFILER",
          "DIST_KVSTORE", "CXX14", "INT64_TENSOR_SIZE", "SIGNAL_HANDLER", "DEBUG", "TVM_OP")
_CPU = {"CPU_SSE": "SSE", "CPU_SSE2": "SSE2", "CPU_SSE3": "SSE3", "CPU_SSE4_1": "SSE41",
        "CPU_SSE4_2": "SSE42", "CPU_AVX": "AVX", "CPU_AVX2": "AVX2", "SSE": "SSE", "F16C": "F16C"}


def _enabled() -> dict[str, bool]:
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as cpu
    except ImportError:  # NumPy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as cpu
    on = {name: bool(cpu.get(flag, False)) for name, flag in _CPU.items()}
    on.update(BLAS_OPEN=True, LAPACK=True, PROFILER=True, INT64_TENSOR_SIZE=True,
              DIST_KVSTORE=importlib.util.find_spec("mpi4py") is not None)
    return on


class Feature:
    """A feature of the build: ``name`` and ``enabled``."""

    def __init__(self, name: str, enabled: bool) -> None:
        self._name = name
        self._enabled = enabled

    @property
    def name(self) -> str:
        """The feature's name."""
        return self._name

    @property
    def enabled(self) -> bool:
        """Whether the build has the feature."""
        return self._enabled

    def __repr__(self) -> str:
        return f"✔ {self.name}" if self.enabled else f"✖ {self.name}"


def feature_list() -> list[Feature]:
    """Every feature MXNet 1.9.1 lists, with whether cellonnx has it."""
    on = _enabled()
    return [Feature(name, on.get(name, False)) for name in _NAMES]


class Features(OrderedDict):
    """The features by name (one shared instance); ``is_enabled(name)`` asks for one."""

    instance: Features | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Features:
        if cls.instance is None:
            cls.instance = super().__new__(cls)
            OrderedDict.__init__(cls.instance, [(f.name, f) for f in feature_list()])
        return cls.instance

    def __init__(self) -> None:
        pass

    def __repr__(self) -> str:
        return str(list(self.values()))

    def is_enabled(self, feature_name: str) -> bool:
        """Whether the feature ``feature_name`` (case-insensitive) is enabled.

        Raises:
            RuntimeError: an unknown feature name.
        """
        feature_name = feature_name.upper()
        if feature_name not in self:
            raise RuntimeError(f"Feature '{feature_name}' is unknown, known features are: "
                               f"{list(self.keys())}")
        return self[feature_name].enabled
