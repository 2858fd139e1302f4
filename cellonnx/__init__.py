"""cellonnx: write networks the MindSpore way, train them in NumPy, compile them to ONNX, serve them with
onnxruntime and move checkpoints between frameworks.

    import cellonnx as ms
    from cellonnx import nn, ops, Tensor
"""
from __future__ import annotations

__version__ = "0.1.0"

from cellonnx import _malloc

_malloc.apply()  # glibc heap settings for eager training (opt out: CELLONNX_MALLOC_TUNING=0); see _malloc.py

from cellonnx.dtypes import (DType, bfloat16, bool_, double, float16, float32, float64, float_, half,
                             int8, int16, int32, int64, int_, single, uint, uint8, uint16, uint32, uint64)
from cellonnx.tensor import Parameter, Tensor, is_tensor, tensor
from cellonnx.autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from cellonnx.autograd.saved_hooks import register_saved_tensors_hooks, saved_tensors_hooks
from cellonnx import ops
from cellonnx.ops import GradOperation, grad, stop_gradient, value_and_grad
from cellonnx.ops.prims.random import get_seed, set_seed
from cellonnx import common
from cellonnx.sparse import COOTensor, CSRTensor, RowTensor, SparseTensor
from cellonnx import nn
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context
from cellonnx.graph.export import export
from cellonnx.graph.verify import verify
from cellonnx.graph.compile import compile_cell as compile_graph
from cellonnx.checkpoint import load_checkpoint, load_param_into_net, save_checkpoint
from cellonnx.checkpoint_mapping import load_checkpoint_into
from cellonnx.safeguard import load_obf_params_into_net, obfuscate_ckpt
from cellonnx.param_broadcast import parameter_broadcast
from cellonnx import dataset, train
from cellonnx import numpy  # as mindspore: ms.numpy.ones(...)
from cellonnx.train import *  # as mindspore: ms.Model, ms.LossMonitor, ms.Accuracy ...
from cellonnx import dtype
from cellonnx.dtypes import (TensorType, Type, _null, byte, cdouble, cfloat, complex64, complex128,
                             float8_e4m3fn, float8_e5m2, hifloat8, intc, intp, list_, long, number, qint4x2,
                             short, string, tensor_type, tuple_, type_none, ubyte, uintc, uintp, ushort)
from cellonnx.common.dtype import (Int, QuantDtype, _NullType, dtype_to_nptype, dtype_to_pytype,
                                   get_py_obj_dtype, pytype_to_dtype)
from cellonnx.common.generator import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,
                                       seed, set_rng_state)
from cellonnx.common.tensor import from_numpy, frombuffer, swap_tensors
from cellonnx.common.recompute import recompute
from cellonnx.common.storage import UntypedStorage
from cellonnx.jit_api import (JitConfig, Symbol, _no_grad, enable_dynamic, jit, jit_class, lazy_inline,
                              mutable, no_inline, set_recursion_limit)
from cellonnx.context import COMPATIBLE, LAX, STRICT
from cellonnx.device import DeviceCtx, get_current_device, run_check, set_deterministic, set_device
from cellonnx.runtime import (empty_cache, launch_blocking, memory_allocated, memory_reserved, memory_stats,
                              memory_summary, ms_memory_recycle, synchronize)
from cellonnx.log import get_level, get_log_config
from cellonnx.autograd.function import _Function
from cellonnx.train.serialization import (async_ckpt_thread_status, ckpt_to_safetensors, load,
                                          load_checkpoint_async, safetensors_to_ckpt)
from cellonnx import communication
from cellonnx.parallel_context import (ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,
                                       set_auto_parallel_context)
from cellonnx.profiler import Profiler
from cellonnx.rewrite import Node, NodeType, ScopedValue, SymbolTree
from cellonnx.unsupported import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__, "mindspore")
