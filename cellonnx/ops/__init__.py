"""cellonnx.ops: the functional API with MindSpore's names and signatures (``ops.add``, ``ops.conv2d`` ...).

Every name comes from a family module's ``__all__`` under ``prims/`` (primitives with their wrappers) or
``composite/`` (functions over primitives, such as the losses); tests/ops/test_namespace.py checks that no
name is defined by two families.
"""
from __future__ import annotations

from cellonnx.ops.prims.math import *
from cellonnx.ops.prims.reduce import *
from cellonnx.ops.prims.shape import *
from cellonnx.ops.prims.linalg import *
from cellonnx.ops.prims.creation import *
from cellonnx.ops.prims.index import *
from cellonnx.ops.prims.scatter import *
from cellonnx.ops.prims.getitem import *
from cellonnx.ops.prims.sort import *
from cellonnx.ops.prims.random import *
from cellonnx.ops.prims.conv import *
from cellonnx.ops.prims.conv_grad import *
from cellonnx.ops.prims.pool import *
from cellonnx.ops.prims.pool_avg import *
from cellonnx.ops.prims.pool_adaptive import *
from cellonnx.ops.prims.norm import *
from cellonnx.ops.prims.activation import *
from cellonnx.ops.prims.dropout import *
from cellonnx.ops.prims.embedding import *
from cellonnx.ops.prims.rnn import *
from cellonnx.ops.prims.control import *
from cellonnx.ops.prims.lrn import *
from cellonnx.ops.prims.conv3d import *
from cellonnx.ops.prims.pool3d import *
from cellonnx.ops.prims.pixel_shuffle import *
from cellonnx.ops.prims.resize import *
from cellonnx.ops.prims.trig import *
from cellonnx.ops.prims.special import *
from cellonnx.ops.prims.elementwise import *
from cellonnx.ops.prims.bitwise import *
from cellonnx.ops.prims.cumulative import *
from cellonnx.ops.prims.einsum import *
from cellonnx.ops.prims.decomp import *
from cellonnx.ops.prims.spectral import *
from cellonnx.ops.prims.random_dist import *
from cellonnx.ops.prims.array_misc import *
from cellonnx.ops.prims.triangle import *
from cellonnx.ops.prims.scatter_reduce import *
from cellonnx.ops.prims.unique import *
from cellonnx.ops.prims.comm import *
from cellonnx.ops.prims.comm_v import *
from cellonnx.ops.prims.comm_neighbor import *
from cellonnx.ops.prims.comm_p2p import *
from cellonnx.ops.composite.math_extra import *
from cellonnx.ops.composite.loss import *
from cellonnx.ops.composite.loss_margin import *
from cellonnx.ops.composite.loss_regression import *
from cellonnx.ops.composite.loss_ctc import *
from cellonnx.ops.composite.activation_ext import *
from cellonnx.ops.composite.padding import *
from cellonnx.ops.composite.nn_misc import *
from cellonnx.ops.composite.grid_sample import *
from cellonnx.ops.composite.arith import *
from cellonnx.ops.composite.reduction import *
from cellonnx.ops.composite.linalg_ext import *
from cellonnx.ops.composite.spectral_ext import *
from cellonnx.ops.composite.clip import *
from cellonnx.ops.composite.sequence import *
from cellonnx.ops.composite.distance import *
from cellonnx.ops.composite.fused import *
from cellonnx.ops.composite.array_shape import *
from cellonnx.ops.composite.array_create import *
from cellonnx.ops.composite.diagonal import *
from cellonnx.ops.composite.scatter_inplace import *
from cellonnx.ops.composite.segment import *
from cellonnx.ops.composite.index_extra import *
from cellonnx.ops.composite.spatial import *
from cellonnx.ops.composite.image import *
from cellonnx.ops.composite.sparse import *
from cellonnx.ops.composite.sparse_unary import *
from cellonnx.ops.composite.mvlgamma import *
from cellonnx.ops.composite.comm import *
from cellonnx.ops.composite.comm_matmul import *
from cellonnx.ops.composite.flash_attention import *
from cellonnx.ops.composite.infer_attention import *
from cellonnx.ops.composite.nsa_compress import *
from cellonnx.ops.composite.nsa_select import *
from cellonnx.ops.composite.dsa_attention import *
from cellonnx.communication.store import *
from cellonnx.ops.prims import MODULES as _PRIM_MODULES
from cellonnx.ops.composite import loss as _loss, math_extra as _math_extra
from cellonnx.ops.composite import loss_ctc as _loss_ctc, loss_margin as _loss_margin
from cellonnx.ops.composite import loss_regression as _loss_regression
from cellonnx.ops.composite import activation_ext as _activation_ext, padding as _padding
from cellonnx.ops.composite import grid_sample as _grid_sample, nn_misc as _nn_misc
from cellonnx.ops.composite import arith as _arith, clip as _clip, distance as _distance, fused as _fused
from cellonnx.ops.composite import linalg_ext as _linalg_ext, reduction as _reduction, sequence as _sequence
from cellonnx.ops.composite import spectral_ext as _spectral_ext
from cellonnx.ops.composite import array_create as _array_create, array_shape as _array_shape
from cellonnx.ops.composite import diagonal as _diagonal, index_extra as _index_extra
from cellonnx.ops.composite import scatter_inplace as _scatter_inplace, segment as _segment
from cellonnx.ops.composite import image as _image, spatial as _spatial
from cellonnx.ops.composite import mvlgamma as _mvlgamma, sparse as _sparse, sparse_unary as _sparse_unary
from cellonnx.ops.registry import REGISTRY, Op, OpError, apply

_modules = [*_PRIM_MODULES, _math_extra, _loss]
_modules += [_loss_margin, _loss_regression, _loss_ctc]
_modules += [_activation_ext, _padding, _nn_misc, _grid_sample]
_modules += [_arith, _reduction, _linalg_ext, _spectral_ext, _clip, _sequence, _distance, _fused]
_modules += [_array_shape, _array_create, _diagonal, _scatter_inplace, _segment, _index_extra, _spatial, _image]
_modules += [_sparse, _sparse_unary, _mvlgamma]
from cellonnx.ops.composite import comm as _comm  # noqa: E402
_modules += [_comm]
from cellonnx.ops.composite import comm_matmul as _comm_matmul  # noqa: E402
_modules += [_comm_matmul]
from cellonnx.ops.composite import flash_attention as _flash_attention  # noqa: E402
from cellonnx.ops.composite import infer_attention as _infer_attention  # noqa: E402
_modules += [_flash_attention, _infer_attention]
from cellonnx.ops.composite import dsa_attention as _dsa_attention  # noqa: E402
from cellonnx.ops.composite import nsa_compress as _nsa_compress, nsa_select as _nsa_select  # noqa: E402
_modules += [_nsa_compress, _nsa_select, _dsa_attention]
from cellonnx.communication import store as _store  # noqa: E402
_modules += [_store]

from cellonnx.ops import tensor_methods as _tensor_methods  # noqa: E402 (attaches Tensor methods; reads _modules)
from cellonnx.autograd.grad import GradOperation, grad, stop_gradient, value_and_grad  # noqa: E402

__all__ = ["GradOperation", "Op", "OpError", "REGISTRY", "apply", "grad", "stop_gradient", "value_and_grad"]
__all__ += [name for module in _modules for name in module.__all__]
del _tensor_methods

# MindSpore's operator classes (ops.ReLU, ops.MatMul ... the same objects as P.*), the Primitive base classes,
# the Python-level helpers (ops.make_tuple, ops.tensor_add ...), the composite operations and the transforms;
# a name a family above defines stays the family's
from cellonnx.ops import operations as P  # noqa: E402, I001 (order: the operations read the functional ops)
from cellonnx.ops.operations import array_ops, other_ops  # noqa: E402, F401 (as mindspore.ops.array_ops ...)
from cellonnx.ops.operations import linalg_ops  # noqa: E402, F401
from cellonnx.ops import helpers as _helpers, primitive as _primitive  # noqa: E402
from cellonnx.ops.composite import base as _composite_base, vmap as _vmap  # noqa: E402
from cellonnx.autograd import functional as _transforms  # noqa: E402

for _extra in (_primitive, P, _helpers, _composite_base, _vmap, _transforms):
    for _name in _extra.__all__:
        if _name not in globals():
            globals()[_name] = getattr(_extra, _name)
            __all__.append(_name)
del _extra, _name
identity = _helpers.identity  # MindSpore's ops.identity is the instance P.identity() (as F.identity)

from cellonnx.unsupported import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr(__name__, "mindspore.ops")
