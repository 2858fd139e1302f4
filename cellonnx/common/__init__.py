"""cellonnx.common, as ``mindspore.common``: Tensor and Parameter, dtypes, initializers, random generators and
seeds, and the compilation markers (jit ...)."""
from __future__ import annotations

from typing import Any

from cellonnx.autograd.function import _Function  # noqa: F401 (MindSpore's name)
from cellonnx.autograd.saved_hooks import register_saved_tensors_hooks, saved_tensors_hooks
from cellonnx.common import dtype, initializer
from cellonnx.common.dtype import *
from cellonnx.common.dtype import __all__ as _dtype_all
from cellonnx.common.dtype import _null, _NullType  # noqa: F401 (MindSpore's private names, public here)
from cellonnx.common.generator import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from cellonnx.common.initializer import Initializer
from cellonnx.common.recompute import recompute
from cellonnx.common.storage import UntypedStorage
from cellonnx.common.tensor import from_numpy, swap_tensors
from cellonnx.device import DeviceCtx
from cellonnx.jit_api import (
    JitConfig,
    Symbol,
    _no_grad,  # noqa: F401
    enable_dynamic,
    jit,
    jit_class,
    lazy_inline,
    mutable,
    no_inline,
    set_recursion_limit,
)
from cellonnx.runtime import ms_memory_recycle
from cellonnx.tensor import Parameter, Tensor, is_tensor, tensor
from cellonnx.unsupported import module_getattr as _module_getattr

__all__ = ["DeviceCtx", "Generator", "Initializer", "JitConfig", "Parameter", "ParameterTuple",  # noqa: F405
           "Symbol", "Tensor", "default_generator", "dtype", "enable_dynamic", "from_numpy", "get_rng_state",
           "get_seed", "initial_seed", "initializer", "is_tensor", "jit", "jit_class", "lazy_inline",
           "manual_seed", "ms_memory_recycle", "mutable", "no_inline", "recompute", "seed",
           "set_recursion_limit", "set_rng_state", "set_seed", "swap_tensors", "tensor", *_dtype_all]
__all__ += ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor"]
__all__ += ["UntypedStorage", "register_saved_tensors_hooks", "saved_tensors_hooks"]

# names defined above this layer (with the ops and the Cells), imported on first use
_LATER = {"ParameterTuple": ("cellonnx.nn.parameter_tuple", "ParameterTuple"),
          "set_seed": ("cellonnx.ops.prims.random", "set_seed"),
          "get_seed": ("cellonnx.ops.prims.random", "get_seed")}
_LATER.update({name: ("cellonnx.sparse.tensor", name) for name in ("COOTensor", "CSRTensor", "RowTensor",
                                                                   "SparseTensor")})
_unsupported = _module_getattr(__name__, "mindspore.common", "mindspore")


def __getattr__(name: str) -> Any:
    if name in _LATER:
        import importlib

        module, attr = _LATER[name]
        return getattr(importlib.import_module(module), attr)
    return _unsupported(name)
