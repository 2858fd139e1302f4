"""SymInt: a dimension that is dynamic in the traced graph.

It is an ``int`` holding the example's concrete value, so Python code keeps working (a loop over it
unrolls), and it knows how to emit the ONNX value computing it, so ``reshape(x, (x.shape[0], -1))`` exports
with the batch size read from the input at run time rather than baked in.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Maker = Callable[[Any], str]  # builder -> name of a 1-D int64 value of one element


class SymInt(int):
    _make: Maker
    _names: dict
    nonneg: bool  # known >= 0 at every size (a dim, sums and products of dims): Div then floors
    # the dim read: (its dim_param, the dim_params of the other dims of the inputs declaring it, whether one
    # input alone declares it); None for arithmetic on dims and dims shape inference could not trace to a
    # dynamic dim of a graph input
    symbol: tuple | None
    # a dynamic dim of a graph input as shape inference followed it, or arithmetic on one: its size changes
    # between runs. A dim inference could not follow (a Loop's output, a subgraph's) may be static.
    declared: bool
    factors: tuple  # a product's factors (dims and ints); (self,) for any other dim

    def __new__(cls, value: int, make: Maker, nonneg: bool = True, symbol: tuple | None = None,
                declared: bool | None = None, factors: tuple | None = None) -> SymInt:
        obj = super().__new__(cls, int(value))
        obj._make = make
        obj._names = {}
        obj.nonneg = nonneg
        obj.symbol = symbol
        obj.declared = symbol is not None if declared is None else declared
        obj.factors = (obj,) if factors is None else factors
        return obj

    def onnx_name(self, g: Any) -> str:
        name = self._names.get(id(g))
        if name is None:
            name = self._names[id(g)] = self._make(g)
        return name

    def __repr__(self) -> str:
        return f"SymInt({int(self)})"

    def _binary(self, other: Any, onnx_op: str, value: int, reverse: bool = False) -> Any:
        if not isinstance(other, int):
            return NotImplemented
        sign = (other.nonneg if isinstance(other, SymInt) else int(other) >= 0, self.nonneg)
        a_nonneg, b_nonneg = sign if reverse else sign[::-1]
        nonneg = {"Add": a_nonneg and b_nonneg, "Mul": a_nonneg and b_nonneg, "Sub": False,
                  "Div": a_nonneg and b_nonneg, "Mod": b_nonneg}[onnx_op]
        # ONNX Div on int64 truncates toward zero: Python's // only for a non-negative numerator and divisor.
        # Otherwise floor exactly, (a - a mod b) / b (ONNX Mod, fmod=0, takes the divisor's sign as % does).
        exact = onnx_op == "Div" and not nonneg

        def make(g: Any) -> str:
            a = self.onnx_name(g)
            b = other.onnx_name(g) if isinstance(other, SymInt) else g.i64([int(other)])
            if reverse:
                a, b = b, a
            if exact:
                return g.op("Div", g.op("Sub", a, g.op("Mod", a, b)), b)
            return g.op(onnx_op, a, b)

        declared = self.declared or getattr(other, "declared", False)
        factors = self.factors + _factors(other) if onnx_op == "Mul" else None
        return SymInt(value, make, nonneg, declared=declared, factors=factors)

    def __add__(self, o: Any) -> Any:
        return self._binary(o, "Add", int(self) + int(o)) if isinstance(o, int) else self._float_op(o, "+")

    def __radd__(self, o: Any) -> Any:
        return self._binary(o, "Add", int(o) + int(self), True) if isinstance(o, int) else \
            self._float_op(o, "+", True)

    def __sub__(self, o: Any) -> Any:
        return self._binary(o, "Sub", int(self) - int(o)) if isinstance(o, int) else self._float_op(o, "-")

    def __rsub__(self, o: Any) -> Any:
        return self._binary(o, "Sub", int(o) - int(self), True) if isinstance(o, int) else \
            self._float_op(o, "-", True)

    def __mul__(self, o: Any) -> Any:
        return self._binary(o, "Mul", int(self) * int(o)) if isinstance(o, int) else self._float_op(o, "*")

    def __rmul__(self, o: Any) -> Any:
        return self._binary(o, "Mul", int(o) * int(self), True) if isinstance(o, int) else \
            self._float_op(o, "*", True)

    def __floordiv__(self, o: Any) -> Any:
        return self._binary(o, "Div", int(self) // int(o)) if isinstance(o, int) else self._float_op(o, "//")

    def __rfloordiv__(self, o: Any) -> Any:
        return self._binary(o, "Div", int(o) // int(self), True) if isinstance(o, int) else \
            self._float_op(o, "//", True)

    def __mod__(self, o: Any) -> Any:
        return self._binary(o, "Mod", int(self) % int(o)) if isinstance(o, int) else self._float_op(o, "%")

    def __rmod__(self, o: Any) -> Any:
        return self._binary(o, "Mod", int(o) % int(self), True) if isinstance(o, int) else \
            self._float_op(o, "%", True)

    def __divmod__(self, o: Any) -> Any:
        return (self // o, self % o) if isinstance(o, int) else self._float_op(o, "divmod")

    def __pow__(self, o: Any, mod: Any = None) -> Any:
        if mod is None and isinstance(o, (int, np.integer)) and not isinstance(o, SymInt) and int(o) >= 0:
            e = int(o)
            if e < 2:
                return self if e == 1 else 1
            return SymInt(int(self) ** e, lambda g: g.op("Pow", self.onnx_name(g), g.i64([e])), self.nonneg or
                          e % 2 == 0, declared=self.declared, factors=self.factors * e)
        if isinstance(o, (int, float, np.number)) and mod is None:
            _float_read(self, "** with this exponent")
        return int.__pow__(int(self), o, mod) if mod is not None else int(self) ** _plain(o)

    def __rpow__(self, o: Any) -> Any:
        if not isinstance(o, (int, float, np.number)):
            return NotImplemented
        _float_read(self, "** by a dim")
        return _plain(o) ** int(self)

    # A float made of a dynamic dim would be a constant of the graph: the example's size, taken for every
    # size (``loss / float(x.shape[0])``). While a trace runs it raises StaticDimRequired, and a compiled step
    # or hybridized block traces that dim static instead (a graph per size); ``x / x.shape[0]`` with the int
    # stays dynamic. Arithmetic with a float on the right (``n * 1.0``, ``n + 0.5``) would make the same float
    # without calling __float__, so it raises too. A float on the left (``1.0 * n``, ``2.0 / n``, ``0.5 + n``,
    # ``2.0 ** n``) and ``math.log(n)`` cannot be caught: float's own method runs first (a dim is no float
    # subclass), and CPython's float arithmetic and math.log take an int operand's value straight from the C
    # int (PyLong_Check, then PyLong_AsDouble), calling none of these methods; float.__mul__ returns a float
    # and __rmul__ is never asked. Only a SymInt that C code does not see as an int would be asked (clearing
    # the type's int-subclass flag does it), and then NumPy makes object arrays of shapes holding it
    # (np.array([n, 2]), np.arange(n)) and int's C comparisons (n < 5) refuse it: a redesign of the dim, not a
    # method here. So the library writes the dim first (``n * 1.0``) or divides a tensor by the int.
    def __float__(self) -> float:
        _float_read(self, "float()")
        return float(int(self))

    def __complex__(self) -> complex:
        _float_read(self, "complex()")
        return complex(int(self))

    def __truediv__(self, o: Any) -> Any:
        if not isinstance(o, (int, float, np.number)):
            return NotImplemented
        _float_read(self, "true division (/)")
        return int(self) / _plain(o)

    def __rtruediv__(self, o: Any) -> Any:
        if not isinstance(o, (int, float, np.number)):
            return NotImplemented
        _float_read(self, "true division (/)")
        return _plain(o) / int(self)

    def _float_op(self, o: Any, how: str, reverse: bool = False) -> Any:
        """``self <how> o`` with a Python or NumPy float ``o`` (a NumPy int acts as an int)."""
        if isinstance(o, np.integer):
            return _OPS[how](int(o), self) if reverse else _OPS[how](self, int(o))
        if not isinstance(o, (float, np.floating)):
            return NotImplemented
        _float_read(self, f"{how} with a float")
        a, b = (o, int(self)) if reverse else (int(self), o)
        return _OPS[how](a, b)

    # NumPy would read the dim as a plain int64 (np.sqrt(n), np.float32(2) * n, np.int64(2) * n): a ufunc
    # of a dim is its arithmetic above, a float read, or for the rest a read of its value
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        dunder = _UFUNC_DUNDERS.get(ufunc.__name__)
        if method == "__call__" and not kwargs and dunder is not None and len(inputs) == 2:
            a, b = inputs
            out = getattr(a, f"__{dunder}__")(b) if a is self else getattr(self, f"__r{dunder}__")(a)
            if out is not NotImplemented:
                return out
        for v in inputs:
            if isinstance(v, SymInt):
                _float_read(v, f"NumPy's {ufunc.__name__}", "a NumPy number")
        plain = [int(v) if isinstance(v, SymInt) else v for v in inputs]
        return getattr(ufunc, method)(*plain, **kwargs)

    # the identities of an int stay the dim (round(n), math.ceil(n), n.real); abs reads it at run time
    def __round__(self, ndigits: Any = None) -> Any:
        if ndigits is None or int(ndigits) >= 0:
            return self
        _float_read(self, "round() to negative digits")
        return round(int(self), ndigits)

    def __ceil__(self) -> SymInt:
        return self

    __floor__ = __trunc__ = __ceil__

    @property
    def real(self) -> SymInt:
        return self

    def __abs__(self) -> Any:
        if self.nonneg:
            return self
        return SymInt(abs(int(self)), lambda g: g.op("Abs", self.onnx_name(g)), nonneg=True,
                      declared=self.declared)

    def __neg__(self) -> Any:
        return SymInt(-int(self), lambda g: g.op("Neg", self.onnx_name(g)), nonneg=False,
                      declared=self.declared, factors=(-1, *self.factors))

    def __pos__(self) -> SymInt:
        return self

    # Equality is size-oblivious: a dynamic dim is not equal to any particular constant, whatever the
    # example's size. So a decision an op makes by comparing shapes ("broadcast (1, 1, 4) to (batch, 1, 4)
    # is a no-op", "tile by (batch, 1, 1) changes nothing") is not taken because the example's batch is 1:
    # the op is emitted and reads the dim from the graph. Two symbolic dims compare by their example values
    # (the same dim read from two tensors is equal; a check that two inputs share a batch size passes),
    # except two axes of one graph input (``d0``, ``d1`` of x): they are not the same dim, whatever sizes
    # the example gave them (a batch and a sequence length both 1: reshaping (B, T, 4) to (T, B, 4) is not a
    # no-op).
    def __eq__(self, other: object) -> bool:
        if isinstance(other, SymInt):
            a, b = self.symbol, other.symbol
            if a and b and a[0] != b[0] and b[0] in a[1]:
                return False
            return int(self) == int(other)
        if isinstance(other, (int, np.integer)):
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = int.__hash__


def _float_read(dim: SymInt, how: str, made: str = "a Python float") -> None:
    from cellonnx.graph import trace
    trace.require_static(dim, f"{how} of a dim makes {made} of it, which", float_read=True)


def _factors(v: Any) -> tuple:
    return v.factors if isinstance(v, SymInt) else (int(v),)


def same_dim(a: Any, b: Any) -> bool:
    """Whether two SymInts are one dim at every size: the same value, or the dynamic dim of one graph input
    (a dim_param no other input holds) read twice."""
    if a is b:
        return True
    return bool(isinstance(a, SymInt) and isinstance(b, SymInt) and a.symbol and b.symbol
                and a.symbol[0] == b.symbol[0] and a.symbol[2])


def _plain(v: Any) -> Any:
    return int(v) if isinstance(v, SymInt) else v


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "//": lambda a, b: a // b,
    "%": lambda a, b: a % b, "divmod": divmod}
_UFUNC_DUNDERS = {"add": "add", "subtract": "sub", "multiply": "mul", "floor_divide": "floordiv",
                  "remainder": "mod", "true_divide": "truediv", "divide": "truediv", "power": "pow"}


def _extreme(a: int, b: int, onnx_op: str) -> int:
    pick = min if onnx_op == "Min" else max
    if not isinstance(a, SymInt) and not isinstance(b, SymInt):
        return pick(int(a), int(b))
    signs = [x.nonneg if isinstance(x, SymInt) else int(x) >= 0 for x in (a, b)]
    nonneg = all(signs) if onnx_op == "Min" else any(signs)

    def make(g: Any) -> str:
        names = [x.onnx_name(g) if isinstance(x, SymInt) else g.i64([int(x)]) for x in (a, b)]
        return g.op(onnx_op, *names)

    declared = any(getattr(x, "declared", False) for x in (a, b))
    return SymInt(pick(int(a), int(b)), make, nonneg, declared=declared)


def sym_min(a: int, b: int) -> int:
    """``min(a, b)`` of ints, either of them a SymInt: a SymInt computing it at run time (a plain int when
    neither is symbolic)."""
    return _extreme(a, b, "Min")


def sym_max(a: int, b: int) -> int:
    """``max(a, b)`` of ints, either of them a SymInt (see :func:`sym_min`)."""
    return _extreme(a, b, "Max")


def sym_broadcast_shapes(*shapes: Any) -> tuple:
    """``np.broadcast_shapes`` of shapes that may hold SymInts: each dim taken from a shape that has it (not
    1), so a dynamic one stays a graph value (NumPy would read the example's size)."""
    sizes = np.broadcast_shapes(*(tuple(int(d) for d in s) for s in shapes))
    nd = len(sizes)
    out = []
    for k, size in enumerate(sizes):
        dims = [s[k - nd + len(s)] for s in shapes if k - nd + len(s) >= 0]
        fits = (d for d in dims if int(d) == size and (size != 1 or not isinstance(d, SymInt)))
        out.append(next(fits, size))
    return tuple(out)


def is_symbolic(value: Any) -> bool:
    if isinstance(value, SymInt):
        return True
    if isinstance(value, (tuple, list)):
        return any(is_symbolic(v) for v in value)
    return False
