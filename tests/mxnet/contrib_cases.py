"""mx.nd.contrib operator rows (the layout of nd_cases.py: id, operator, args, kwargs, flags), run by real
MXNet 1.9.1 (tests/fixtures/mxnet/gen_contrib.py) and by cellonnx.mxnet (test_contrib.py). Every row is a
contrib operator; gradients of sum(output * weights) are compared for the F arguments unless ``grad`` is
False. NumPy only (the generator imports it under MXNet's python)."""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    from tests.mxnet.nd_cases import F, H, K, make_args
except ImportError:  # the generator, with tests/mxnet on sys.path
    from nd_cases import F, H, K, make_args


class L:
    """A list argument (the multi-tensor updates take lists of arrays): its elements' specs."""

    def __init__(self, *items: Any) -> None:
        self.items = items


def make(case_id: str, args: list[Any]) -> list[Any]:
    """The arguments' values: NumPy arrays for array specs, lists of them for L specs."""
    values = make_args(case_id, [None if isinstance(a, L) else a for a in args])
    return [make_args(f"{case_id}/{i}", list(a.items)) if isinstance(a, L) else v
            for i, (a, v) in enumerate(zip(args, values))]


def floats(args: list[Any]) -> list[int]:
    """The positions of the float32 array arguments (whose gradients are compared)."""
    return [i for i, a in enumerate(args) if type(a) is F]

NG = {"grad": False}
UPD = {"grad": False, "update": True}  # an update: its out= and the states it moves are compared
W = F(3, 4)
POS = F(3, 4, positive=True)
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
    # optimizer updates (out= is the weight, as the optimizers call them)
    ("adamw_update", "adamw_update", [W, W, W, POS, 1.0], {"lr": 0.1, "eta": 0.5, "wd": 0.01},
     {**UPD, "out": 0}),
    ("adamw_update_clip", "adamw_update", [W, W, W, POS, 0.5],
     {"lr": 0.05, "eta": 1.0, "beta1": 0.8, "beta2": 0.9, "epsilon": 1e-6, "clip_gradient": 0.3},
     {**UPD, "out": 0}),
    ("adamw_update_nonfinite", "adamw_update", [W, W, W, POS, float("inf")], {"lr": 0.1, "eta": 0.5},
     {**UPD, "out": 0}),
    ("mp_adamw_update", "mp_adamw_update", [H(3, 4), H(3, 4), W, POS, W, 2.0],
     {"lr": 0.1, "eta": 0.7, "wd": 0.02}, {**UPD, "out": 0}),
    ("multi_adamw_update", "multi_adamw_update", [L(F(2, 3), F(4)), L(F(2, 3), F(4)), L(F(2, 3), F(4)),
                                                  L(F(2, 3, positive=True), F(4, positive=True)), 1.0],
     {"lrs": [0.1, 0.2], "wds": [0.0, 0.1], "etas": [1.0, 0.5]}, {**UPD, "out": 0}),
    ("multi_mp_adamw_update", "multi_mp_adamw_update",
     [L(H(2, 3), H(4)), L(H(2, 3), H(4)), L(F(2, 3), F(4)), L(F(2, 3, positive=True), F(4, positive=True)),
      L(F(2, 3), F(4)), 1.0], {"lrs": [0.1, 0.2], "wds": [0.0, 0.1], "etas": [1.0, 0.5]},
     {**UPD, "out": 0}),
    ("multi_lamb_update", "multi_lamb_update", [L(F(2, 3), F(4)), L(F(2, 3), F(4)), L(F(2, 3), F(4)),
                                                L(F(2, 3, positive=True), F(4, positive=True))],
     {"step_count": [1, 3], "lrs": [0.1, 0.2], "wds": [0.0, 0.1]}, {**UPD, "out": 0}),
    ("multi_lamb_update_bounds", "multi_lamb_update", [L(F(2, 3), F(4)), L(F(2, 3), F(4)), L(F(2, 3), F(4)),
                                                       L(F(2, 3, positive=True), F(4, positive=True))],
     {"step_count": [2, 2], "lrs": [0.1, 0.2], "wds": [0.01, 0.1], "lower_bound": 2.0, "upper_bound": 2.5,
      "bias_correction": False, "rescale_grad": 0.5}, {**UPD, "out": 0}),
    ("multi_mp_lamb_update", "multi_mp_lamb_update",
     [L(H(2, 3), H(4)), L(H(2, 3), H(4)), L(F(2, 3), F(4)), L(F(2, 3, positive=True), F(4, positive=True)),
      L(F(2, 3), F(4))], {"step_count": [1, 3], "lrs": [0.1, 0.2], "wds": [0.0, 0.1]},
     # the trust ratio takes the float16 weight's norm, which MXNet's kernel reduces in its own order:
     # the float32 master weights agree to ~1e-5
     {**UPD, "out": 0, "rtol": 1e-4}),
]
