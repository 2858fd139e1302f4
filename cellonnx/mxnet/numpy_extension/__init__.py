"""mx.npx: MXNet 2.x's NumPy extensions - the neural-network operators with 2.x argument names (activation,
batch_norm, convolution, pooling, fully_connected, softmax, dropout, one_hot, pick, topk, sequence_mask,
reshape with 2.x's special codes ...), results as mx.np.ndarray - and the NumPy-semantics switches."""
from __future__ import annotations

from cellonnx.mxnet._docs import attach as _attach
from cellonnx.mxnet.device import cpu, current_device, gpu, num_gpus
from cellonnx.mxnet.ndarray.ndarray import waitall
from cellonnx.mxnet.numpy_extension import image, random
from cellonnx.mxnet.numpy_extension.detection import (
    multibox_detection,
    multibox_prior,
    multibox_target,
    roi_pooling,
)
from cellonnx.mxnet.numpy_extension.examples import EXAMPLES as _EXAMPLES
from cellonnx.mxnet.numpy_extension.ops import *
from cellonnx.mxnet.numpy_extension.ops import __all__ as _ops_all
from cellonnx.mxnet.numpy_extension.rnn import rnn
from cellonnx.mxnet.numpy_extension.utils import load, save, savez
from cellonnx.mxnet.util import is_np_array, is_np_default_dtype, is_np_shape, reset_np, set_np, use_np

__all__ = ["cpu", "current_device", "gpu", "is_np_array", "is_np_default_dtype", "is_np_shape", "load",
           "num_gpus", "random", "reset_np", "save", "savez", "set_np", "use_np", "waitall", *_ops_all]
__all__ += ["multibox_detection", "multibox_prior", "multibox_target", "roi_pooling"]
__all__ += ["rnn"]
__all__ += ["image"]

from cellonnx.mxnet.device import Context, cpu_pinned, current_context, gpu_memory_info  # noqa: E402
from cellonnx.mxnet.numpy_extension.misc import *  # noqa: E402
from cellonnx.mxnet.numpy_extension.misc import __all__ as _misc_all  # noqa: E402

__all__ += ["Context", "cpu_pinned", "current_context", "gpu_memory_info", *_misc_all]

_attach(globals(), _EXAMPLES, {})

# MXNet 2.x's control flow (npx.foreach / while_loop / cond): the contrib functions over mx.np arrays
from cellonnx.mxnet.ndarray.control_flow import cond, foreach, while_loop  # noqa: E402

__all__ += ["cond", "foreach", "while_loop"]
