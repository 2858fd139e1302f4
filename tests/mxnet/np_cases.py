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
    def __init__(self, *shape: int, low: float = -2.0, high: float = 2.0) -> None:
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return rng.uniform(self.low, self.high, self.shape).astype(np.float32)


class J:
    def __init__(self, values: Any) -> None:
        self.values = np.asarray(values, np.int32)

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


def make_args(case_id: str, args: list) -> list:
    rng = np.random.default_rng(zlib.crc32(case_id.encode()))

    def make(a: Any) -> Any:
        if isinstance(a, (A, J)):
            return a.make(rng)
        if isinstance(a, list) and a and isinstance(a[0], (A, J)):
            return [make(x) for x in a]
        return a

    return [make(a) for a in args]
