"""mx.nd.contrib operator rows (the layout of nd_cases.py: id, operator, args, kwargs, flags), run by real
MXNet 1.9.1 (tests/fixtures/mxnet/gen_contrib.py) and by cellonnx.mxnet (test_contrib.py). Every row is a
contrib operator; gradients of sum(output * weights) are compared for the F arguments unless ``grad`` is
False. NumPy only (the generator imports it under MXNet's python)."""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    from tests.mxnet.nd_cases import F, I, K
except ImportError:  # the generator, with tests/mxnet on sys.path
    from nd_cases import F, I, K  # noqa: F401

NG = {"grad": False}
SPECIAL = K([1.0, np.inf, -np.inf, np.nan, -2.5, 0.0])

CASES: list[tuple[str, str, list[Any], dict[str, Any], dict[str, Any]]] = [
    ("index_copy", "index_copy", [F(5, 3), K([3, 0, 4]), F(3, 3)], {}, {}),
    ("index_copy_repeat", "index_copy", [F(4, 2, 2), K([1, 1]), F(2, 2, 2)], {}, NG),
    ("index_array", "index_array", [F(2, 3, 2)], {}, NG),
    ("index_array_axes", "index_array", [F(2, 3, 4)], {"axes": (2, 0)}, NG),
    ("index_array_negative", "index_array", [F(3, 2)], {"axes": (-1,)}, NG),
    ("boolean_mask", "boolean_mask", [F(4, 3), K([1, 0, 1, 1])], {}, {}),
    ("allclose_true", "allclose", [K([1.0, 2.0, 3.0]), K([1.0, 2.000001, 3.0])], {}, NG),
    ("allclose_false", "allclose", [K([1.0, 2.0, 3.0]), K([1.0, 2.1, 3.0])], {}, NG),
    ("allclose_tol", "allclose", [K([1.0, 2.0, 3.0]), K([1.0, 2.1, 3.0])], {"rtol": 0.1}, NG),
    ("allclose_nan", "allclose", [K([1.0, np.nan]), K([1.0, np.nan])], {}, NG),
    ("allclose_nan_unequal", "allclose", [K([1.0, np.nan]), K([1.0, np.nan])], {"equal_nan": False}, NG),
    ("quadratic", "quadratic", [F(3, 4)], {"a": 1.5, "b": -2.0, "c": 0.5}, {}),
    ("quadratic_default", "quadratic", [F(3, 4)], {}, {}),
    ("round_ste", "round_ste", [K([0.5, 1.5, 2.5, -0.6, -1.5, 3.2])], {}, NG),
    ("round_ste_grad", "round_ste", [F(3, 4)], {}, {}),
    ("sign_ste", "sign_ste", [F(3, 4)], {}, {}),
    ("gradientmultiplier", "gradientmultiplier", [F(3, 4)], {"scalar": -0.5}, {}),
    ("gradientmultiplier_default", "gradientmultiplier", [F(3, 4)], {}, {}),
    ("isinf", "isinf", [SPECIAL], {}, NG),
    ("isnan", "isnan", [SPECIAL], {}, NG),
    ("isfinite", "isfinite", [SPECIAL], {}, NG),
    ("isnan_float64", "isnan", [K([1.0, np.nan], np.float64)], {}, NG),
]
