"""mxnet.test_utils: what MXNet's tests and user tests call - tolerances per dtype, ``assert_almost_equal``,
``same``, random shapes and arrays, ``check_numeric_gradient`` / ``check_symbolic_forward`` /
``check_symbolic_backward`` on symbols, ``default_context``; the data helpers (``download``,
``get_mnist`` ...) that use already-present files."""
from __future__ import annotations

from cellonnx.mxnet.test_utils.arrays import *
from cellonnx.mxnet.test_utils.arrays import __all__ as _arrays
from cellonnx.mxnet.test_utils.checks import *
from cellonnx.mxnet.test_utils.checks import __all__ as _checks
from cellonnx.mxnet.test_utils.compare import *
from cellonnx.mxnet.test_utils.compare import __all__ as _compare
from cellonnx.mxnet.test_utils.data import *
from cellonnx.mxnet.test_utils.data import __all__ as _data
from cellonnx.mxnet.test_utils.gluon_checks import *
from cellonnx.mxnet.test_utils.gluon_checks import __all__ as _gluon_checks
from cellonnx.mxnet.test_utils.reexports import *
from cellonnx.mxnet.test_utils.reexports import __all__ as _reexports
from cellonnx.mxnet.test_utils.symbolic import *
from cellonnx.mxnet.test_utils.symbolic import __all__ as _symbolic

__all__ = [*_arrays, *_checks, *_compare, *_data, *_gluon_checks, *_symbolic, *_reexports]
