"""cellonnx.numpy: NumPy-style functions over Tensors with MindSpore's names, signatures and dtype rules
(``import cellonnx.numpy as mnp`` where MindSpore code has ``import mindspore.numpy as mnp``).

Every function is written over cellonnx.ops, so it is differentiable and traces to ONNX. Each name comes from
one topic module's ``__all__``; this package only hands them on, with MindSpore's aliases.
"""
from __future__ import annotations

from cellonnx.numpy import (
    arithmetic,
    calculus,
    creation,
    dtypes,
    indexing,
    linalg,
    logic,
    manipulation,
    matrix,
    padding,
    polynomial,
    random,
    reductions,
    sets,
    stats,
    transcendental,
    windows,
)
from cellonnx.numpy.arithmetic import *
from cellonnx.numpy.calculus import *
from cellonnx.numpy.creation import *
from cellonnx.numpy.dtypes import *
from cellonnx.numpy.indexing import *
from cellonnx.numpy.linalg import *
from cellonnx.numpy.logic import *
from cellonnx.numpy.manipulation import *
from cellonnx.numpy.matrix import *
from cellonnx.numpy.padding import *
from cellonnx.numpy.polynomial import *
from cellonnx.numpy.random import *
from cellonnx.numpy.reductions import *
from cellonnx.numpy.sets import *
from cellonnx.numpy.stats import *
from cellonnx.numpy.transcendental import *
from cellonnx.numpy.windows import *

MODULES = (arithmetic, calculus, creation, dtypes, indexing, linalg, logic, manipulation, matrix,
           padding, polynomial, random, reductions, sets, stats, transcendental, windows)

# MindSpore's aliases (several shadow builtins, as in NumPy)
abs = arithmetic.absolute
fabs = arithmetic.absolute
max = reductions.amax
min = reductions.amin
sum = reductions.sum_
round = arithmetic.around
divmod = arithmetic.divmod_
copy = creation.copy_
mod = arithmetic.remainder
bitwise_not = arithmetic.invert

ALIASES = ["abs", "bitwise_not", "copy", "divmod", "fabs", "max", "min", "mod", "round", "sum"]
__all__ = sorted({name for module in MODULES for name in module.__all__ if not name.endswith("_") or
                  name in ("bool_", "float_", "int_")} | set(ALIASES))

from cellonnx.unsupported import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr(__name__, "mindspore.numpy")
