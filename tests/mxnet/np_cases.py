"""mx.np function cases: one row per call, run by real MXNet 1.9.1's mx.np (under npx.set_np(); written by
tests/fixtures/mxnet/gen_np_ops.py) and by cellonnx.mxnet's (test_np_ops.py), whose functions are
cellonnx.numpy's called the NumPy way. NumPy only (the generator imports it under MXNet's python).

A row is (id, function, args, kwargs): a function name of mx.np (``linalg.norm`` for a submodule), args
``A(shape, low, high)`` float32 arrays made from the row's seed, ``J(values)`` fixed int32 arrays, or plain
values (a list of arrays for the joining functions). Inputs are float32: MXNet 1.9.1's NumPy interface
keeps integer dtypes through float operations (int32 + 2.5 is int32), which MXNet 2.x and cellonnx do not.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

__all__ = ["CASES", "A", "J", "make_args"]


class A:
    def __init__(self, *shape: int, low: float = -2.0, high: float = 2.0, dtype: str = "float32") -> None:
        self.shape, self.low, self.high, self.dtype = shape, low, high, dtype

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return rng.uniform(self.low, self.high, self.shape).astype(self.dtype)


class J:
    def __init__(self, values: Any, dtype: str = "int32") -> None:
        self.values = np.asarray(values, dtype)

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return self.values


P = dict(low=0.1, high=3.0)
CASES: list[tuple[str, str, list, dict]] = [
    ("exp", "exp", [A(2, 3)], {}),
    ("log", "log", [A(2, 3, **P)], {}),
    ("sqrt", "sqrt", [A(2, 3, **P)], {}),
    ("log1p", "log1p", [A(2, 3, **P)], {}),
    ("expm1", "expm1", [A(2, 3)], {}),
    ("tanh", "tanh", [A(2, 3)], {}),
    ("arctan", "arctan", [A(2, 3)], {}),
    ("arcsin", "arcsin", [A(2, 3, low=-0.9, high=0.9)], {}),
    ("cosh", "cosh", [A(2, 3)], {}),
    ("absolute", "absolute", [A(2, 3)], {}),
    ("square", "square", [A(2, 3)], {}),
    ("negative", "negative", [A(2, 3)], {}),
    ("floor", "floor", [A(2, 3)], {}),
    ("sign", "sign", [A(2, 3)], {}),
    ("add", "add", [A(2, 3), A(3)], {}),
    ("add_scalar", "add", [A(2, 3), 2.5], {}),
    ("subtract", "subtract", [A(2, 3), A(2, 1)], {}),
    ("multiply", "multiply", [A(2, 3), A(2, 3)], {}),
    ("divide", "divide", [A(2, 3), A(2, 3, **P)], {}),
    ("power", "power", [A(2, 3, **P), A(2, 3)], {}),
    ("maximum", "maximum", [A(2, 3), A(2, 3)], {}),
    ("minimum_scalar", "minimum", [A(2, 3), 0.5], {}),
    ("hypot", "hypot", [A(2, 3), A(2, 3)], {}),
    ("arctan2", "arctan2", [A(2, 3), A(2, 3)], {}),
    ("greater", "greater", [A(2, 3), A(2, 3)], {}),
    ("clip", "clip", [A(2, 3), -0.5, 1.0], {}),
    ("clip_kw", "clip", [A(2, 3)], {"a_min": -1.0, "a_max": 0.5}),
    ("reshape", "reshape", [A(2, 3, 4), (4, -1)], {}),
    ("transpose", "transpose", [A(2, 3, 4)], {"axes": (2, 0, 1)}),
    ("swapaxes", "swapaxes", [A(2, 3, 4), 0, 2], {}),
    ("expand_dims", "expand_dims", [A(2, 3), 1], {}),
    ("squeeze", "squeeze", [A(2, 1, 3, 1)], {"axis": 1}),
    ("concatenate", "concatenate", [[A(2, 3), A(2, 2)]], {"axis": 1}),
    ("stack", "stack", [[A(2, 3), A(2, 3)]], {"axis": 1}),
    ("split", "split", [A(4, 3), 2], {}),
    ("split_axis", "split", [A(2, 6), [1, 4]], {"axis": 1}),
    ("sum", "sum", [A(2, 3, 4)], {"axis": 1, "keepdims": True}),
    ("sum_all", "sum", [A(2, 3)], {}),
    ("max", "max", [A(2, 3, 4)], {"axis": (0, 2)}),
    ("min", "min", [A(2, 3)], {"axis": 0}),
    ("mean", "mean", [A(2, 3, 4)], {"axis": -1}),
    ("mean_int", "mean", [J([[1, 2], [4, 8]])], {"axis": 0}),
    ("std", "std", [A(3, 4)], {"axis": 1}),
    ("var", "var", [A(3, 4)], {"ddof": 1}),
    ("prod", "prod", [A(2, 3)], {"axis": 1}),
    ("cumsum", "cumsum", [A(2, 3)], {"axis": 1}),
    ("argmax", "argmax", [A(3, 4)], {"axis": 1}),
    ("argmin", "argmin", [A(3, 4)], {}),
    ("tile", "tile", [A(2, 3), (2, 1)], {}),
    ("repeat", "repeat", [A(2, 3), 2], {"axis": 0}),
    ("flip", "flip", [A(2, 3)], {"axis": 1}),
    ("roll", "roll", [A(2, 3), 1], {"axis": 1}),
    ("dot", "dot", [A(2, 3), A(3, 4)], {}),
    ("matmul", "matmul", [A(2, 2, 3), A(3, 4)], {}),
    ("tensordot", "tensordot", [A(2, 3, 4), A(3, 4, 2)], {"axes": 2}),
    ("outer", "outer", [A(3), A(4)], {}),
    ("where", "where", [A(2, 3), A(2, 3), A(2, 3)], {}),
    ("tril", "tril", [A(3, 3)], {}),
    ("diag", "diag", [A(3, 3)], {}),
    ("trace", "trace", [A(3, 3)], {}),
    ("ravel", "ravel", [A(2, 3)], {}),
    ("hstack", "hstack", [[A(2, 3), A(2, 1)]], {}),
    ("vstack", "vstack", [[A(2, 3), A(1, 3)]], {}),
    ("moveaxis", "moveaxis", [A(2, 3, 4), 0, -1], {}),
    ("broadcast_to", "broadcast_to", [A(1, 3), (4, 3)], {}),
    ("take", "take", [A(3, 4), J([0, 2])], {"axis": 1}),
    ("sort", "sort", [A(2, 5)], {"axis": -1}),
    ("argsort", "argsort", [A(2, 5)], {}),
    ("around", "around", [A(2, 3)], {"decimals": 1}),
    ("linalg_norm", "linalg.norm", [A(3, 4)], {}),
    ("linalg_norm_axis", "linalg.norm", [A(3, 4)], {"ord": 1, "axis": 1}),
]


def make_call(case_id: str, args: list, kwargs: dict) -> tuple[list, dict]:
    """The row's arguments with its A / J placeholders made (positional ones first, then keywords)."""
    rng = np.random.default_rng(zlib.crc32(case_id.encode()))

    def make(a: Any) -> Any:
        if isinstance(a, (A, J)):
            return a.make(rng)
        if isinstance(a, (list, tuple)) and a and isinstance(a[0], (A, J)):
            return type(a)(make(x) for x in a)
        return a

    made = [make(a) for a in args]
    return made, {k: make(v) for k, v in kwargs.items()}


def flatten(out: Any, path: str = "") -> tuple[list[tuple[str, Any]], dict[str, str]]:
    """A result's leaves by path ("0", "1.0" ...) and the type names of the lists / tuples holding them."""
    if not isinstance(out, (list, tuple)):
        return [(path or "0", out)], {}
    leaves: list[tuple[str, Any]] = []
    containers = {path: type(out).__name__}
    for i, item in enumerate(out):
        got, inner = flatten(item, f"{path}.{i}" if path else str(i))
        leaves += got
        containers.update(inner)
    return leaves, containers


def make_args(case_id: str, args: list) -> list:
    return make_call(case_id, args, {})[0]


def _double(v: Any) -> Any:
    return v * 2


def _row_sum(v: Any, axis: int) -> Any:
    return v.sum(axis=axis, keepdims=True)


# every other function of mx.np and mx.npx that MXNet 1.9.1 has too, keyword forms among them
# (test_np_ops.py checks that each such name has a row or a reason in NOT_ROWED)
I3 = J([[1, 2, 3], [4, 5, 6]])
WELL3 = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, -0.2], [0.5, -0.2, 2.0]])  # well conditioned
SPD3 = WELL3 @ WELL3.T + np.eye(3)  # symmetric positive-definite
WELL6 = 3.0 * np.eye(6) + np.sin(np.arange(36.0)).reshape(6, 6) / 2
SWEEP: list[tuple[str, str, list, dict]] = [
    # element-wise
    ("abs", "abs", [A(2, 3)], {}),
    ("fabs", "fabs", [A(2, 3)], {}),
    ("sin_kw", "sin", [], {"x": A(2, 3)}),
    ("cos", "cos", [A(2, 3)], {}),
    ("tan", "tan", [A(2, 3, low=-1.0, high=1.0)], {}),
    ("sinh", "sinh", [A(2, 3)], {}),
    ("arccos", "arccos", [A(2, 3, low=-0.9, high=0.9)], {}),
    ("arcsinh", "arcsinh", [A(2, 3)], {}),
    ("arccosh", "arccosh", [A(2, 3, low=1.1, high=3.0)], {}),
    ("arctanh", "arctanh", [A(2, 3, low=-0.9, high=0.9)], {}),
    ("log10", "log10", [A(2, 3, **P)], {}),
    ("log2", "log2", [A(2, 3, **P)], {}),
    ("cbrt", "cbrt", [A(2, 3)], {}),
    ("cbrt_f64", "cbrt", [A(4, dtype="float64")], {}),
    ("cbrt_f16", "cbrt", [A(4, dtype="float16")], {}),
    ("exp_f16", "exp", [A(4, dtype="float16")], {}),
    ("sqrt_f64", "sqrt", [A(4, dtype="float64", **P)], {}),
    ("reciprocal", "reciprocal", [A(2, 3, **P)], {}),
    ("ceil", "ceil", [A(2, 3)], {}),
    ("trunc", "trunc", [A(2, 3)], {}),
    ("fix", "fix", [A(2, 3)], {}),
    ("rint", "rint", [A(2, 3)], {}),
    ("round", "round", [A(2, 3)], {"decimals": 2}),
    ("round_", "round_", [A(5)], {"decimals": 1}),
    ("round_exact", "round", [A(400, low=-60.0, high=60.0)], {"decimals": 2}),
    ("around_exact", "around", [A(400, low=-60.0, high=60.0)], {"decimals": 1}),
    ("around_tens", "around", [A(400, low=-600.0, high=600.0)], {"decimals": -1}),
    ("around_halves", "around", [J(np.arange(-4.0, 4.0, 0.5), "float32")], {}),
    ("around_f64", "around", [A(50, low=-60.0, high=60.0, dtype="float64")], {"decimals": 3}),
    ("positive", "positive", [A(2, 3)], {}),
    ("radians", "radians", [A(2, 3)], {}),
    ("signbit", "signbit", [A(2, 3)], {}),
    ("isnan", "isnan", [J([1.0, np.nan, np.inf], "float32")], {}),
    ("isinf", "isinf", [J([1.0, np.nan, -np.inf], "float32")], {}),
    ("isfinite", "isfinite", [J([1.0, np.nan, np.inf], "float32")], {}),
    ("isposinf", "isposinf", [J([1.0, -np.inf, np.inf], "float32")], {}),
    ("isneginf", "isneginf", [J([1.0, -np.inf, np.inf], "float32")], {}),
    ("logical_not", "logical_not", [J([True, False], "bool")], {}),
    ("logical_not_f", "logical_not", [J([0.0, 1.5], "float32")], {}),
    ("invert", "invert", [J([0, 3, -4])], {}),
    ("bitwise_not", "bitwise_not", [J([0, 3, -4])], {}),
    ("true_divide", "true_divide", [A(2, 3), A(2, 3, **P)], {}),
    ("mod", "mod", [A(2, 3), A(2, 3, **P)], {}),
    ("remainder", "remainder", [A(2, 3), 0.75], {}),
    ("divmod", "divmod", [A(2, 3), A(2, 3, **P)], {}),
    ("copysign", "copysign", [A(2, 3), A(2, 3)], {}),
    ("copysign_zero", "copysign", [A(4), -0.0], {}),
    ("float_power", "float_power", [A(2, 3, **P), 2.0], {}),
    ("heaviside", "heaviside", [J([-1.0, 0.0, 2.0], "float32"), 0.5], {}),
    ("equal", "equal", [A(2, 3), A(2, 3)], {}),
    ("not_equal", "not_equal", [A(2, 3), 0.5], {}),
    ("less", "less", [A(2, 3), A(3)], {}),
    ("less_equal", "less_equal", [A(2, 3), A(2, 3)], {}),
    ("greater_equal", "greater_equal", [A(2, 3), 0.0], {}),
    ("bitwise_and", "bitwise_and", [J([12, 10, 7]), J([10, 6, 1])], {}),
    ("bitwise_or", "bitwise_or", [J([12, 10, 7]), J([10, 6, 1])], {}),
    ("bitwise_xor", "bitwise_xor", [J([12, 10, 7]), J([10, 6, 1])], {}),
    ("lcm", "lcm", [J([4, 6, 9]), J([6, 4, 3])], {}),
    ("isclose", "isclose", [J([1.0, 1.0001, 2.0], "float32"), J([1.0, 1.0, 2.1], "float32")], {}),
    ("isclose_kw", "isclose", [J([1.0, 1.0001], "float32"), J([1.0, 1.0], "float32")], {"rtol": 1e-6}),
    # reductions and statistics
    ("amax", "amax", [A(2, 3)], {"axis": 1}),
    ("amin", "amin", [A(2, 3)], {"axis": 0, "keepdims": True}),
    ("average", "average", [A(2, 3)], {"axis": 1}),
    ("average_w", "average", [A(2, 3), 1, A(3, **P)], {}),
    ("ptp", "ptp", [A(2, 3)], {"axis": 1}),
    ("nanmax", "nanmax", [J([[1.0, np.nan], [3.0, 2.0]], "float32")], {"axis": 1}),
    ("nanmin", "nanmin", [J([[1.0, np.nan], [3.0, 2.0]], "float32")], {}),
    ("nancumsum", "nancumsum", [J([1.0, np.nan, 3.0], "float32")], {}),
    ("count_nonzero", "count_nonzero", [J([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]], "float32")], {}),
    ("count_nonzero_axis", "count_nonzero", [J([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]], "float32")], {"axis": 0}),
    ("cov", "cov", [A(2, 5)], {}),
    ("corrcoef", "corrcoef", [A(2, 5)], {}),
    ("diff", "diff", [A(2, 5)], {"n": 2, "axis": 1}),
    ("ediff1d", "ediff1d", [A(5)], {}),
    ("histogram", "histogram", [A(20)], {"bins": 4, "range": (-2.0, 2.0)}),
    ("histogram_bin_edges", "histogram_bin_edges", [A(20)], {"bins": 3}),
    ("histogram2d", "histogram2d", [A(10), A(10)], {"bins": 2}),
    ("histogramdd", "histogramdd", [A(10, 2)], {"bins": 2}),
    ("bincount", "bincount", [J([0, 1, 1, 3])], {}),
    ("bincount_w", "bincount", [J([0, 1, 1, 3]), A(4)], {"minlength": 5}),
    ("digitize", "digitize", [A(6), J([-1.0, 0.0, 1.0], "float32")], {}),
    ("searchsorted", "searchsorted", [J([1.0, 2.0, 3.0, 4.0], "float32"), J([0.5, 2.0, 3.5], "float32")], {}),
    ("searchsorted_r", "searchsorted", [J([1.0, 2.0, 3.0], "float32"), J([2.0], "float32")],
     {"side": "right"}),
    ("array_equal", "array_equal", [J([1.0, 2.0], "float32"), J([1.0, 2.0], "float32")], {}),
    ("array_equal_not", "array_equal", [J([1.0, 2.0], "float32"), J([1.0, 3.0], "float32")], {}),
    ("array_equiv", "array_equiv", [J([[1.0, 2.0], [1.0, 2.0]], "float32"), J([1.0, 2.0], "float32")], {}),
    # creation
    ("array", "array", [[[1, 2], [3, 4]]], {}),
    ("array_dtype", "array", [[1, 2]], {"dtype": "int32"}),
    ("copy", "copy", [A(2, 3)], {}),
    ("zeros", "zeros", [(2, 3)], {}),
    ("zeros_int", "zeros", [3], {"dtype": "int32"}),
    ("ones", "ones", [(2,)], {}),
    ("empty_shape", "empty", [(2, 3)], {}),
    ("full", "full", [(2, 2), 3], {}),
    ("full_float", "full", [(2,), 1.5], {"dtype": "float64"}),
    ("zeros_like", "zeros_like", [A(2, 3)], {}),
    ("ones_like", "ones_like", [J([1, 2])], {}),
    ("full_like", "full_like", [A(2, 3), 7.0], {}),
    ("empty_like_shape", "empty_like", [A(2, 3)], {}),
    ("arange", "arange", [5], {}),
    ("arange_step", "arange", [1, 2, 0.25], {}),
    ("arange_int", "arange", [0, 6, 2], {"dtype": "int32"}),
    ("linspace", "linspace", [0, 1, 5], {}),
    ("linspace_open", "linspace", [0, 1], {"num": 4, "endpoint": False}),
    ("linspace_retstep", "linspace", [0, 2, 5], {"retstep": True}),
    ("logspace", "logspace", [0, 2, 3], {}),
    ("eye", "eye", [2, 3], {"k": 1}),
    ("identity", "identity", [3], {}),
    ("indices", "indices", [(2, 3)], {}),
    ("tril_indices_from", "tril_indices_from", [A(3, 3)], {}),
    ("triu_indices_from", "triu_indices_from", [A(3, 3)], {"k": 1}),
    ("vander", "vander", [J([1.0, 2.0, 3.0], "float32")], {"N": 3}),
    ("diagflat", "diagflat", [A(3)], {"k": 1}),
    ("diagonal", "diagonal", [A(3, 4)], {"offset": 1}),
    ("meshgrid", "meshgrid", [A(2), A(3)], {}),
    ("meshgrid_ij", "meshgrid", [A(2), A(3)], {"indexing": "ij"}),
    ("blackman", "blackman", [5], {}),
    ("hamming", "hamming", [5], {}),
    ("hanning", "hanning", [5], {}),
    # shape and joining
    ("shape", "shape", [A(2, 3)], {}),
    ("ndim", "ndim", [A(2, 3)], {}),
    ("size", "size", [A(2, 3)], {}),
    ("atleast_1d", "atleast_1d", [A(2, 3)], {}),
    ("atleast_1d_many", "atleast_1d", [A(2), A(2, 3)], {}),
    ("atleast_2d", "atleast_2d", [A(3)], {}),
    ("atleast_3d", "atleast_3d", [A(3)], {}),
    ("atleast_3d_2d", "atleast_3d", [A(2, 3)], {}),
    ("append", "append", [A(2, 3), A(1, 3)], {"axis": 0}),
    ("append_flat", "append", [A(2, 2), A(3)], {}),
    ("array_split", "array_split", [A(7), 3], {}),
    ("hsplit", "hsplit", [A(2, 4), 2], {}),
    ("vsplit", "vsplit", [A(4, 2), 2], {}),
    ("dsplit", "dsplit", [A(1, 2, 4), 2], {}),
    ("column_stack", "column_stack", [[A(3), A(3)]], {}),
    ("dstack", "dstack", [[A(2, 3), A(2, 3)]], {}),
    ("broadcast_arrays", "broadcast_arrays", [A(2, 1), A(3)], {}),
    ("fliplr", "fliplr", [A(2, 3)], {}),
    ("flipud", "flipud", [A(2, 3)], {}),
    ("rot90", "rot90", [A(2, 3)], {"k": 1}),
    ("rollaxis", "rollaxis", [A(2, 3, 4), 2], {}),
    ("pad", "pad", [A(2, 3), ((1, 0), (0, 2))], {}),
    # MXNet 1.9.1's pad drops constant_values (its constant branch does not return the padded array);
    # mx.np.pad follows NumPy there (test_np_fixes.py)
    ("pad_const", "pad", [A(2, 3), ((1, 1), (1, 1))], {"mode": "constant"}),
    ("pad_edge", "pad", [A(2, 3), ((1, 1), (2, 1))], {"mode": "edge"}),
    ("pad_reflect", "pad", [A(3, 4), ((1, 1), (2, 2))], {"mode": "reflect"}),
    ("take_along_axis", "take_along_axis", [A(2, 3), J([[0], [2]]), 1], {}),
    ("unravel_index", "unravel_index", [J([1, 5]), (2, 3)], {}),
    ("argwhere", "argwhere", [J([[0.0, 1.0], [2.0, 0.0]], "float32")], {}),
    ("choose", "choose", [J([0, 1, 0]), [A(3), A(3)]], {}),
    ("select", "select", [[J([True, False, False], "bool"), J([False, True, False], "bool")], [A(3), A(3)]],
     {}),
    ("piecewise", "piecewise", [A(4), [J([True, False, True, False], "bool")], [_double]], {}),
    ("apply_along_axis", "apply_along_axis", [_double, 1, A(2, 3)], {}),
    ("apply_over_axes", "apply_over_axes", [_row_sum, A(2, 3), [1]], {}),
    # linear algebra, polynomials, sets, signals
    ("einsum_matmul", "einsum", ["ij,jk->ik", A(2, 3), A(3, 4)], {}),
    ("einsum_chain_opt", "einsum", ["ij,jk,kl->il", A(2, 3), A(3, 4), A(4, 2)], {"optimize": True}),
    ("einsum_four_opt", "einsum", ["ab,bc,cd,da->", A(2, 3), A(3, 4), A(4, 2), A(2, 2)], {"optimize": True}),
    ("einsum_trace", "einsum", ["ii", A(3, 3)], {}),
    ("einsum_diag", "einsum", ["ii->i", A(3, 3)], {}),
    ("einsum_ellipsis", "einsum", ["...ij,...jk->...ik", A(2, 2, 3), A(2, 3, 2)], {}),
    ("einsum_implicit", "einsum", ["ij,kj", A(2, 3), A(4, 3)], {}),
    ("einsum_bilinear", "einsum", ["bi,ij,bj->b", A(2, 3), A(3, 4), A(2, 4)], {"optimize": False}),
    ("inner", "inner", [A(2, 3), A(4, 3)], {}),
    ("correlate", "correlate", [A(5), A(3)], {}),
    ("correlate_full", "correlate", [A(5), A(3)], {"mode": "full"}),
    ("interp", "interp", [J([0.5, 1.5, 5.0], "float32"), J([0.0, 1.0, 2.0], "float32"),
                          J([0.0, 10.0, 20.0], "float32")], {}),
    ("unwrap", "unwrap", [J([0.0, 3.0, 6.5, 0.5], "float32")], {}),
    ("polyadd", "polyadd", [A(2), A(3)], {}),
    ("polyadd_f64", "polyadd", [A(2, dtype="float64"), A(3)], {}),
    ("polyadd_int", "polyadd", [J([1, 2]), J([1, 2, 3])], {}),
    ("polysub", "polysub", [A(3), A(2)], {}),
    ("polymul", "polymul", [A(2), A(3)], {}),
    ("polyval", "polyval", [A(3), A(4)], {}),
    ("polyint", "polyint", [J([3.0, 2.0, 1.0], "float32")], {}),
    ("unique", "unique", [J([3.0, 1.0, 2.0, 1.0, 3.0], "float32")], {}),
    ("unique_all", "unique", [J([3.0, 1.0, 2.0, 1.0], "float32")],
     {"return_index": True, "return_inverse": True, "return_counts": True}),
    ("unique_axis", "unique", [J([[1.0, 2.0], [0.0, 1.0], [1.0, 2.0]], "float32")], {"axis": 0}),
    ("intersect1d", "intersect1d", [J([3.0, 1.0, 2.0], "float32"), J([2.0, 3.0, 5.0], "float32")], {}),
    ("setdiff1d", "setdiff1d", [J([3.0, 1.0, 2.0], "float32"), J([2.0, 5.0], "float32")], {}),
    ("isin", "isin", [J([3.0, 1.0, 2.0], "float32"), J([2.0, 3.0], "float32")], {}),
    ("linalg_matrix_power", "linalg.matrix_power", [A(3, 3), 3], {}),
    ("linalg_multi_dot", "linalg.multi_dot", [[A(2, 3), A(3, 4), A(4, 2)]], {}),
    ("linalg_norm_fro", "linalg.norm", [A(3, 4)], {"ord": "fro"}),
    ("linalg_norm_keep", "linalg.norm", [A(3, 4)], {"axis": 0, "keepdims": True}),
    # MXNet 1.9.1's own operators added to cellonnx.mxnet later: truth tests, indices, edits
    ("all", "all", [J([[1.0, 0.0], [2.0, 3.0]], "float32")], {}),
    ("all_axis", "all", [J([[1.0, 0.0], [2.0, 3.0]], "float32")], {"axis": 1, "keepdims": True}),
    ("any", "any", [J([[0.0, 0.0], [2.0, 0.0]], "float32")], {}),
    ("any_axis", "any", [J([[0.0, 0.0], [2.0, 0.0]], "float32")], {"axis": 0}),
    ("sometrue", "sometrue", [J([0.0, 1.0], "float32")], {}),
    ("nonzero", "nonzero", [J([[3.0, 0.0, 1.0], [0.0, 4.0, 0.0]], "float32")], {}),
    ("percentile", "percentile", [A(3, 5), 40], {}),
    ("percentile_axis", "percentile", [A(3, 5), J([10.0, 90.0], "float32")], {"axis": 1}),
    ("percentile_nearest", "percentile", [A(7), 35], {"interpolation": "nearest"}),
    ("percentile_midpoint", "percentile", [A(3, 4), 30], {"axis": 0, "interpolation": "midpoint",
                                                          "keepdims": True}),
    ("quantile", "quantile", [A(2, 5), 0.3], {"axis": 1}),
    ("quantile_int", "quantile", [J([[1, 5, 2], [7, 3, 9]]), 0.3], {"axis": 1}),
    ("percentile_int", "percentile", [J([1, 5, 2, 7])], {"q": 50}),
    ("quantile_lower", "quantile", [A(6), J([0.25, 0.5], "float32")], {"interpolation": "lower"}),
    ("quantile_higher", "quantile", [A(6), 0.4], {"interpolation": "higher"}),
    ("insert", "insert", [A(2, 3), 1, J([5.0, 6.0, 7.0], "float32")], {"axis": 0}),
    ("insert_scalar", "insert", [A(4), 2, 5.0], {}),
    ("insert_flat", "insert", [A(2, 2), 3, J([7.0, 8.0], "float32")], {}),
    ("delete", "delete", [A(3, 4), 1], {"axis": 1}),
    ("delete_many", "delete", [A(6), J([0, 2], "int64")], {}),
    ("delete_slice", "delete", [A(2, 5), slice(1, 4, 2)], {"axis": 1}),
    ("resize", "resize", [A(3), (2, 4)], {}),
    ("diag_indices_from", "diag_indices_from", [A(3, 3)], {}),
    ("ldexp", "ldexp", [A(2, 3), J([[1.0, 2.0, -1.0], [0.0, 3.0, 1.0]], "float32")], {}),
    ("nan_to_num", "nan_to_num", [J([1.0, np.nan, np.inf, -np.inf], "float32")], {}),
    ("nan_to_num_v", "nan_to_num", [J([np.nan, np.inf, -np.inf], "float32")],
     {"nan": 1.5, "posinf": 9.0, "neginf": -9.0}),
    ("vdot", "vdot", [A(2, 3), A(3, 2)], {}),
    ("degrees", "degrees", [A(2, 3)], {}),
    ("product", "product", [A(2, 3)], {"axis": 1}),
    ("row_stack", "row_stack", [[A(2, 3), A(1, 3)]], {}),
    # MXNet 1.9.1's NumPy-run functions (fallback) added later
    ("allclose", "allclose", [J([1.0, 2.0], "float32"), J([1.0, 2.000001], "float32")], {}),
    ("alltrue", "alltrue", [J([1.0, 2.0], "float32")], {}),
    ("argpartition", "argpartition", [J([3.0, 1.0, 2.0, 0.5], "float32"), 1], {}),
    ("partition", "partition", [J([3.0, 1.0, 2.0, 0.5], "float32"), 2], {}),
    ("compress", "compress", [[True, False, True], A(3, 2)], {"axis": 0}),
    ("extract", "extract", [J([True, False, True], "bool"), A(3)], {}),
    ("flatnonzero", "flatnonzero", [J([[0.0, 1.0], [2.0, 0.0]], "float32")], {}),
    ("frexp", "frexp", [A(2, 3)], {}),
    ("modf", "modf", [A(2, 3)], {}),
    ("i0", "i0", [A(4)], {}),
    ("in1d", "in1d", [J([1.0, 2.0, 3.0], "float32"), J([2.0, 5.0], "float32")], {}),
    ("ix_", "ix_", [J([0, 1], "int64"), J([2, 0], "int64")], {}),
    ("lexsort", "lexsort", [(J([1.0, 2.0, 0.0], "float32"), J([1.0, 1.0, 2.0], "float32"))], {}),
    ("msort", "msort", [A(3, 2)], {}),
    ("nanargmax", "nanargmax", [J([[1.0, np.nan], [3.0, 2.0]], "float32")], {"axis": 1}),
    ("nanargmin", "nanargmin", [J([1.0, np.nan, 0.5], "float32")], {}),
    ("nancumprod", "nancumprod", [J([2.0, np.nan, 3.0], "float32")], {}),
    ("nanmedian", "nanmedian", [J([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], "float32")], {"axis": 1}),
    ("nanpercentile", "nanpercentile", [J([1.0, np.nan, 3.0, 4.0], "float32"), 50], {}),
    ("nanprod", "nanprod", [J([2.0, np.nan, 3.0], "float32")], {}),
    ("nanquantile", "nanquantile", [J([1.0, np.nan, 3.0, 4.0], "float32"), 0.25], {}),
    ("packbits", "packbits", [J([1, 0, 1, 1], "uint8")], {}),
    ("unpackbits", "unpackbits", [J([5, 3], "uint8")], {}),
    ("poly", "poly", [J([1.0, 2.0], "float32")], {}),
    ("polydiv", "polydiv", [J([1.0, -3.0, 2.0], "float32"), J([1.0, -1.0], "float32")], {}),
    ("polyfit", "polyfit", [J([0.0, 1.0, 2.0, 3.0], "float32"), J([1.0, 3.0, 7.0, 13.0], "float32"), 2], {}),
    ("real", "real", [A(3)], {}),
    ("roots", "roots", [J([1.0, -3.0, 2.0], "float32")], {}),
    ("setxor1d", "setxor1d", [J([1.0, 2.0, 3.0], "float32"), J([2.0, 4.0], "float32")], {}),
    ("union1d", "union1d", [J([1.0, 3.0], "float32"), J([2.0, 3.0], "float32")], {}),
    ("spacing", "spacing", [A(3)], {}),
    ("trapz", "trapz", [A(5)], {"dx": 0.5}),
    ("min_scalar_type", "min_scalar_type", [300], {}),
    ("trim_zeros", "trim_zeros", [J([0.0, 1.0, 2.0, 0.0], "float32")], {}),
    # linear algebra added later (MXNet's own operators, lstsq / matrix_rank / cond NumPy-run)
    ("linalg_inv", "linalg.inv", [J(WELL3, "float32")], {}),
    ("linalg_det", "linalg.det", [A(2, 3, 3)], {}),
    ("linalg_slogdet", "linalg.slogdet", [A(3, 3)], {}),
    ("linalg_solve", "linalg.solve", [J(WELL3, "float32"), A(3)], {}),
    ("linalg_solve_mat", "linalg.solve", [J(WELL3, "float32"), A(3, 2)], {}),
    ("linalg_cholesky", "linalg.cholesky", [J(SPD3, "float32")], {}),
    ("linalg_qr", "linalg.qr", [A(4, 3)], {}),
    ("linalg_svd", "linalg.svd", [A(2, 4)], {}),
    ("linalg_eigh", "linalg.eigh", [J(SPD3, "float32")], {}),
    ("linalg_eigh_u", "linalg.eigh", [J(SPD3, "float32")], {"UPLO": "U"}),
    ("linalg_eigvalsh", "linalg.eigvalsh", [J(SPD3, "float32")], {}),
    ("linalg_eig", "linalg.eig", [J([[2.0, 1.0], [0.5, 3.0]], "float32")], {}),
    ("linalg_eigvals", "linalg.eigvals", [J([[2.0, 1.0], [0.5, 3.0]], "float32")], {}),
    ("linalg_pinv", "linalg.pinv", [A(3, 2)], {}),
    ("linalg_pinv_rcond", "linalg.pinv", [J([[2.0, 0.0], [0.0, 1e-3]], "float32")], {"rcond": 0.01}),
    ("linalg_tensorinv", "linalg.tensorinv", [J(np.eye(4).reshape(4, 2, 2) * 2.0, "float32")], {"ind": 1}),
    ("linalg_tensorsolve", "linalg.tensorsolve", [J(WELL6.reshape(6, 2, 3), "float32"), A(6)], {}),
    ("linalg_lstsq", "linalg.lstsq", [A(4, 2), A(4)], {"rcond": None}),
    ("linalg_matrix_rank", "linalg.matrix_rank", [J([[1.0, 2.0], [2.0, 4.0]], "float32")], {}),
    ("linalg_cond", "linalg.cond", [J(WELL3, "float32")], {}),
    # dtype helpers
    ("promote_types", "promote_types", ["int32", "float32"], {}),
    # npx
    ("npx_relu", "npx.relu", [A(2, 3)], {}),
    ("npx_sigmoid", "npx.sigmoid", [A(2, 3)], {}),
    ("npx_erf", "npx.erf", [A(2, 3)], {}),
    ("npx_erfinv", "npx.erfinv", [A(2, 3, low=-0.9, high=0.9)], {}),
    ("npx_gamma", "npx.gamma", [A(2, 3, **P)], {}),
    ("npx_gammaln", "npx.gammaln", [A(2, 3, **P)], {}),
    ("npx_activation", "npx.activation", [A(2, 3)], {"act_type": "softrelu"}),
    ("npx_leaky_relu", "npx.leaky_relu", [A(2, 3)], {"act_type": "leaky", "slope": 0.2}),
    ("npx_leaky_relu_elu", "npx.leaky_relu", [A(2, 3)], {"act_type": "elu", "slope": 0.5}),
    ("npx_softmax", "npx.softmax", [A(2, 3)], {"axis": 0}),
    ("npx_softmax_t", "npx.softmax", [A(2, 3)], {"temperature": 2.0}),
    ("npx_log_softmax", "npx.log_softmax", [A(2, 3)], {"axis": -1}),
    ("npx_batch_dot", "npx.batch_dot", [A(2, 3, 4), A(2, 4, 2)], {}),
    ("npx_batch_dot_t", "npx.batch_dot", [A(2, 4, 3), A(2, 4, 2)], {"transpose_a": True}),
    ("npx_batch_flatten", "npx.batch_flatten", [A(2, 3, 4)], {}),
    ("npx_batch_norm", "npx.batch_norm", [A(2, 3, 4), A(3), A(3), A(3), A(3, **P)],
     {"fix_gamma": False, "use_global_stats": True}),
    ("npx_layer_norm", "npx.layer_norm", [A(2, 3, 4), A(4), A(4)], {"axis": -1, "eps": 1e-5}),
    ("npx_convolution", "npx.convolution", [A(1, 2, 5, 5), A(3, 2, 3, 3), A(3)],
     {"kernel": (3, 3), "num_filter": 3, "pad": (1, 1), "stride": (2, 2)}),
    ("npx_convolution_nobias", "npx.convolution", [A(1, 2, 5, 5), A(2, 1, 3, 3)],
     {"kernel": (3, 3), "num_filter": 2, "num_group": 2, "no_bias": True}),
    ("npx_deconvolution", "npx.deconvolution", [A(1, 2, 3, 3), A(2, 3, 2, 2), A(3)],
     {"kernel": (2, 2), "num_filter": 3, "stride": (2, 2), "no_bias": False}),
    ("npx_pooling_max", "npx.pooling", [A(1, 2, 4, 4)],
     {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max"}),
    ("npx_pooling_avg", "npx.pooling", [A(1, 2, 5, 5)],
     {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "pool_type": "avg", "count_include_pad": False}),
    ("npx_pooling_global", "npx.pooling", [A(1, 2, 4, 4)], {"kernel": (1, 1), "global_pool": True,
                                                             "pool_type": "avg"}),
    ("npx_fully_connected", "npx.fully_connected", [A(2, 3), A(4, 3), A(4)],
     {"num_hidden": 4, "no_bias": False}),
    ("npx_fully_connected_nb", "npx.fully_connected", [A(2, 3, 2), A(4, 6)],
     {"num_hidden": 4, "no_bias": True}),
    ("npx_dropout_eval", "npx.dropout", [A(2, 3)], {"p": 0.5}),
    ("npx_embedding", "npx.embedding", [J([[0, 2], [1, 1]], "float32"), A(3, 4)], {"input_dim": 3,
                                                                                   "output_dim": 4}),
    ("npx_one_hot", "npx.one_hot", [J([0, 2, 1], "float32")], {"depth": 3}),
    ("npx_one_hot_v", "npx.one_hot", [J([0, 2], "float32")],
     {"depth": 3, "on_value": 5.0, "off_value": -1.0}),
    ("npx_pick", "npx.pick", [A(2, 3), J([0, 2], "float32")], {"axis": 1}),
    ("npx_pick_keep", "npx.pick", [A(2, 3), J([1, 0, 1], "float32")], {"axis": 0, "keepdims": True}),
    ("npx_topk", "npx.topk", [A(2, 5)], {"k": 2}),
    ("npx_topk_value", "npx.topk", [A(2, 5)], {"k": 2, "ret_typ": "value", "is_ascend": True}),
    ("npx_topk_both", "npx.topk", [A(2, 5)], {"k": 3, "ret_typ": "both", "axis": -1}),
    ("npx_sequence_mask", "npx.sequence_mask", [A(3, 2, 2), J([1, 3], "float32")],
     {"use_sequence_length": True, "value": -1.0}),
    ("npx_reshape", "npx.reshape", [A(2, 3, 4), (-2, -1)], {}),
    ("npx_reshape_codes", "npx.reshape", [A(2, 3, 4), (-5, -4)], {}),
    ("npx_reshape_split", "npx.reshape", [A(6, 4), (-6, 2, 3, -2)], {}),
    ("npx_reshape_like", "npx.reshape_like", [A(2, 3), A(3, 2)], {}),
    ("npx_gather_nd", "npx.gather_nd", [A(3, 4), J([[0, 2], [1, 3]], "float32")], {}),
    ("npx_shape_array", "npx.shape_array", [A(2, 3)], {}),
    ("npx_slice", "npx.slice", [A(4, 5)], {"begin": (1, 0), "end": (3, 4), "step": (1, 2)}),
    ("npx_smooth_l1", "npx.smooth_l1", [A(2, 3)], {"scalar": 1.0}),
    ("npx_arange_like", "npx.arange_like", [A(2, 3)], {"axis": 1}),
    ("npx_cast", "npx.cast", [A(2, 3)], {"dtype": "float16"}),
    ("npx_cast_int", "npx.cast", [A(2, 3, low=-5.0, high=5.0)], {"dtype": "int32"}),
    ("npx_nonzero", "npx.nonzero", [J([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]], "float32")], {}),
    ("npx_constraint_check", "npx.constraint_check", [J([True, True], "bool"), "all positive"], {}),
    ("npx_arange_like_all", "npx.arange_like", [A(2, 3)], {"start": 1.0, "step": 0.5}),
]
CASES += SWEEP

# names of MXNet 1.9.1's mx.np / mx.npx that cellonnx has too and that have no row, and why
NOT_ROWED = {
    "np.deg2rad": "MXNet 1.9.1 raises (its operator table lacks deg2rad)",
    "np.rad2deg": "MXNet 1.9.1 raises (its operator table lacks rad2deg)",
    "np.result_type": "MXNet 1.9.1 raises (it cannot wrap the NumPy dtype it computes as an array)",
    "npx.cpu": "a device, not an array function (tests/mxnet/test_device.py)",
    "npx.gpu": "a device, not an array function",
    "npx.num_gpus": "the machine's GPU count",
    "npx.is_np_array": "a mode switch, not an array function",
    "npx.is_np_shape": "a mode switch, not an array function",
    "npx.set_np": "a mode switch, not an array function",
    "npx.reset_np": "a mode switch, not an array function",
    "npx.waitall": "synchronisation, nothing to compare",
    "npx.rnn": "the fused RNN operator, against MXNet 1.9.1 in tests/mxnet/test_rnn.py",
    "npx.Context": "a device class, not an array function",
    "npx.cpu_pinned": "a device, not an array function",
    "npx.current_context": "the current device, not an array function",
    "npx.gpu_memory_info": "GPU memory (MXNet without CUDA raises, as cellonnx does)",
    "npx.get_cuda_compute_capability": "a GPU's property (a CPU device raises ValueError: "
                                       "tests/mxnet/test_np_extras.py)",
    "npx.save": "file I/O (npx.load reads MXNet's files in tests/mxnet/test_np_io.py)",
    "npx.load": "file I/O",
    "npx.multibox_target": "a detection operator, checked against MXNet in tests/mxnet/test_detection.py",
    "npx.multibox_prior": "a detection operator (its docstring example is checked against MXNet)",
    "npx.multibox_detection": "a detection operator (its docstring example is checked against MXNet)",
    "npx.roi_pooling": "a detection operator (its docstring example is checked against MXNet)",
    "np.genfromtxt": "file I/O (tests/mxnet/test_np_extras.py reads a text file)",
    "np.set_printoptions": "printing (tests/mxnet/test_np_extras.py)",
    "np.shares_memory": "memory identity, not values (tests/mxnet/test_np_extras.py)",
    "np.may_share_memory": "memory identity, not values (tests/mxnet/test_np_extras.py)",
    "np.mirr": "removed from NumPy 1.20 (NEP 32): MXNet 1.9.1 raises NumPy's RuntimeError, as cellonnx does "
               "(tests/mxnet/test_np_extras.py)",
    "np.npv": "removed from NumPy 1.20 (NEP 32), as np.mirr",
    "np.ppmt": "removed from NumPy 1.20 (NEP 32), as np.mirr",
    "np.pv": "removed from NumPy 1.20 (NEP 32), as np.mirr",
    "np.rate": "removed from NumPy 1.20 (NEP 32), as np.mirr",
}
# rows whose gradients are compared too: of sum(output * weights) with respect to each array argument
GRADS = {"npx_cast", "ldexp", "nan_to_num", "vdot", "degrees", "product", "linalg_inv", "linalg_det",
         "linalg_solve_mat", "linalg_cholesky", "linalg_tensorinv", "linalg_tensorsolve",
         "einsum_matmul", "einsum_chain_opt", "einsum_four_opt", "einsum_trace", "einsum_diag",
         "einsum_ellipsis", "einsum_implicit", "einsum_bilinear"}


def weights(shape: tuple[int, ...]) -> np.ndarray:
    """The fixed weights of a row's output in the summed loss whose gradients GRADS rows compare."""
    n = int(np.prod(shape))
    return (np.arange(n, dtype=np.float32).reshape(shape) % 5 - 2.0) / 2.0


# rows compared bit for bit (MXNet's rounding)
EXACT = {"round_exact", "around_exact", "around_tens", "around_halves", "around_f64"}
# rows whose values are not defined (uninitialised memory): only their shapes and dtypes are compared
SHAPE_ONLY = {"empty_shape", "empty_like_shape"}
# decompositions whose vectors are defined up to sign (MXNet's LAPACK routines and NumPy's may pick either):
# compared in absolute value, with the reconstruction checked by test_np_linalg.py
UP_TO_SIGN = {"linalg_svd", "linalg_eigh", "linalg_eigh_u", "linalg_eig"}
