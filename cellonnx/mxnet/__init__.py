"""cellonnx.mxnet: ``import cellonnx.mxnet as mx`` is to MXNet code what ``import cellonnx as ms`` is to
MindSpore code. The package is laid out like MXNet's, so a file ports by rewriting ``mxnet`` to
``cellonnx.mxnet`` on its import lines:

    mx.gluon            cellonnx.gluon itself (one module; its submodules aliased under this name)
    mx.nd, mx.sym       MXNet 1.x's NDArray API and operator table; mx.sym is what hybrid_forward's F is
                        while a hybridized block is traced
    mx.np, mx.npx       MXNet 2.x's NumPy interface and its extensions
    mx.autograd, mx.init / mx.initializer, mx.optimizer, mx.lr_scheduler, mx.metric, mx.io
    mx.device / mx.context (cpu, gpu, Context, current_context), mx.util (use_np, set_np ...), mx.base,
    mx.name, mx.random, mx.image (imdecode / imread / imresize and MXNet's crops, with Pillow and NumPy)
    mx.recordio (RecordIO files byte for byte), mx.gluon.data (datasets, samplers, DataLoader, vision
                        datasets and transforms over mx.nd.image / mx.npx.image), mx.gluon.utils

Arrays of every API are cellonnx Tensors (autograd, tracing to ONNX, onnxruntime); NDArray and ndarray add
their API's methods. ``is_np_array()`` is False until ``set_np()`` (MXNet 1.x's default); Gluon 1.x code
(prefix / params arguments, name_scope, hybrid_forward) and 2.x code both run.
"""
from __future__ import annotations

from cellonnx import gluon
from cellonnx.gluon import autograd
from cellonnx.gluon import init as initializer
from cellonnx.mxnet import base, device, name, util
from cellonnx.mxnet._alias import alias, alias_package
from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.device import (
    Context,
    Device,
    cpu,
    cpu_pinned,
    current_context,
    current_device,
    gpu,
    num_gpus,
)

alias_package(__name__ + ".gluon", gluon)
alias(__name__ + ".autograd", autograd)
alias(__name__ + ".initializer", initializer)
alias(__name__ + ".init", initializer)

from cellonnx.mxnet import (  # noqa: E402 - after the aliases, which these modules' imports may use
    attribute,
    context,
    executor,
    image,
    io,
    lr_scheduler,
    metric,
    ndarray,
    numpy,
    numpy_extension,
    optimizer,
    random,
    recordio,
    rnn,
    symbol,
)
from cellonnx.mxnet.attribute import AttrScope  # noqa: E402
from cellonnx.mxnet.ndarray import NDArray  # noqa: E402

init = initializer
nd = ndarray
sym = symbol
np = numpy
npx = numpy_extension

from cellonnx.mxnet import (  # noqa: E402
    callback,
    contrib,
    kvstore,
    model,
    module,
    monitor,
    onnx,
    operator,
    profiler,
    runtime,
    test_utils,
    visualization,
)
from cellonnx.mxnet.util import (  # noqa: E402
    is_np_array,
    is_np_shape,
    np_array,
    np_shape,
    set_np_shape,
    use_np,
    use_np_array,
    use_np_shape,
)

mod = module
kv = kvstore
mon = monitor
viz = visualization

__version__ = "1.9.1"

__all__ = ["AttrScope", "Context", "Device", "MXNetError", "NDArray", "attribute", "autograd", "base",
           "context", "cpu", "cpu_pinned", "current_context", "current_device", "device", "executor", "gluon",
           "gpu", "image", "init", "initializer", "io", "lr_scheduler", "metric", "name", "nd",
           "ndarray", "np", "npx", "num_gpus", "numpy", "numpy_extension", "optimizer", "random",
           "recordio",
           "sym", "symbol", "util"]
__all__ += ["rnn"]
__all__ += ["callback", "contrib", "is_np_array", "is_np_shape", "kv", "kvstore", "mod", "model", "module", "mon",
            "monitor", "np_array", "np_shape", "onnx", "operator", "profiler", "runtime", "set_np_shape",
            "test_utils", "use_np", "use_np_array", "use_np_shape", "visualization", "viz"]
