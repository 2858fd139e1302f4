"""Work on the one row that is read: a network that reads a single row of a sequence (BERT's [CLS] token,
``x[:, 0]``) computes its last row-wise ops over every row, and their gradient over a zero-padded copy of the
row's gradient. ``narrow_rows`` finds the values of which only row 0 of axis 1 matters and computes them on
that row alone, forward and backward.

Where a value's rows are: axis 1 of an ``(N, L, ...)`` value (``L`` static and over 1), followed through
transposes and the reshapes that keep the rows' axis and the dims before it (attention's split into heads,
rows then on axis 2), and every L-th row of the ``(N * L, C)`` matrix a Reshape folds such a value into (the
weight gradients' products). Two facts about each such value:

- *zero rows*: every row but row 0 is zero. The gradient of a row's Slice is such a Pad; it stays so through
  Mul (by anything finite), Add / Sub of two such values, Div of one, row-wise reductions, products, and the
  reshapes and transposes.
- *narrow*: only row 0 is needed: it has zero rows, or each reader is row-wise and needs only its outputs'
  row 0 (element-wise ops; LayerNormalization and Softmax over later axes; reductions over other axes;
  MatMul in its first operand's rows, whatever its second; reshapes and transposes as above; Shape reads of
  the dims before the rows), or sums over the rows against a value with zero rows (a bias, weight or
  attention key / value gradient: the zero rows add nothing), or is the Slice of row 0 itself.

A narrow value is computed on row 0: its producer is rewritten over the narrowed inputs (a reshape's target
shape gets 1 in place of L), or, where the producer mixes rows (the encoder layer's input, which its keys and
values read whole), it is sliced. A reader that needs every row of a zero-rows value reads it padded back.
So a BERT-style classifier's last layer runs its queries, attention, output projection, norms and
feed-forward block on the one row, and its keys and values on all of them.

Where a value that has zero rows meets an infinite or NaN value elsewhere, the narrowed graph drops the
``0 * inf`` products that the full one sums into NaN; otherwise it computes the same values (the gradients'
sums over rows lose only terms that are exactly zero).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import helper, numpy_helper

_ONNX = ("", "ai.onnx")
_ELEMENTWISE = {"Add", "Sub", "Mul", "Div", "Pow", "Erf", "Exp", "Log", "Tanh", "Sigmoid", "Relu", "Neg",
                "Abs", "Sqrt", "Reciprocal", "Cast", "Identity", "Where", "Equal", "Less", "Greater", "Not",
                "Max", "Min"}
_REDUCE = {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceSumSquare"}
_LAST_AXIS = {"LayerNormalization", "Softmax", "LogSoftmax"}


@dataclass(frozen=True)
class Rows:
    """Where a value's rows are: ``axis`` holds ``rows`` rows (a (N, L, ...) value: axis 1, rows L) or, for a
    folded (N * L, C) matrix (``folded``: C), N * L rows of which every L-th is a row 0."""

    axis: int
    rows: int
    folded: int = 0


def narrow_rows(model: onnx.ModelProto, shapes: dict[str, list] | None = None) -> int:
    """Compute on row 0 only what is read on row 0 only (in place). ``shapes`` are ONNX shape inference's
    (ints, dim names, None), inferred here when not given and the graph has a row-0 Slice or a Pad of a row
    into zeros. Returns how many nodes now work on one row."""
    g = model.graph
    consts = _consts(g)
    if not any(_is_row0_slice(n, consts) or (n.op_type == "Pad" and _pads_one_row(n, consts))
               for n in g.node):
        return 0
    if shapes is None:
        from cellonnx.graph.optimize import _inferred_shapes

        shapes = _inferred_shapes(model)
    return _Narrowing(model, shapes).run()


class _Narrowing:
    def __init__(self, model: onnx.ModelProto, shapes: dict[str, list]) -> None:
        self.g = model.graph
        self.shapes = dict(shapes)
        for t in self.g.initializer:  # inference leaves out initializers that are not graph inputs
            self.shapes.setdefault(t.name, list(t.dims))
        self.consts = _consts(self.g)
        self.outputs = {o.name for o in self.g.output}
        self.readers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
        for n in self.g.node:
            for i in n.input:
                if i:
                    self.readers[i].append(n)
        self.rows: dict[str, Rows] = {}      # values whose rows are known
        self.zero: set[str] = set()          # ... that are zero outside row 0
        self.narrow: set[str] = set()        # ... of which only row 0 is needed
        self.kind: dict[int, str] = {}       # node id -> "rowwise" | "sum" | "shape" | "slice" | "pad"
        self.linked: dict[int, set[str]] = {}  # node id -> its inputs whose rows are its outputs' (or summed)
        self.reshapes: dict[int, tuple] = {}  # Reshape node id -> how to write its target shape on one row
        self.producer = {o: n for n in self.g.node for o in n.output}
        self.new: list[onnx.NodeProto] = []
        self.narrowed: dict[str, str] = {}   # value -> its row-0 value
        self.gone: set[str] = set()          # full values no longer computed
        self.count = 0
        self.consts_made: dict[tuple, str] = {}

    # -- analysis ------------------------------------------------------------------------------------------
    def run(self) -> int:
        for n in self.g.node:
            self._forward(n)
        for n in reversed(self.g.node):
            for o in n.output:
                if o and self._rows(o) is not None and o not in self.outputs and (
                        o in self.zero or all(self._row0_only(r, o) for r in self.readers[o])):
                    self.narrow.add(o)
        if not any(self.kind.get(id(n)) in ("rowwise", "sum") and set(n.output) & self.narrow
                   for n in self.g.node):
            return 0
        for n in self.g.node:
            self._rewrite(n)
        del self.g.node[:]
        self.g.node.extend(self.new)
        return self.count

    def _shape(self, v: str) -> list | None:
        return self.shapes.get(v)

    def _rows(self, v: str) -> Rows | None:
        """Where ``v``'s rows are: set by the node that folded it, else any (N, L, ...) value's axis 1."""
        if v not in self.rows:
            found = self._rank3_rows(v)
            if found is None:
                return None
            self.rows[v] = found
        return self.rows[v]

    def _forward(self, n: onnx.NodeProto) -> None:
        """Row layout and zero rows of ``n``'s outputs, and what kind of reader ``n`` is."""
        if n.domain not in _ONNX or not n.input:
            return
        op = n.op_type
        if op == "Slice" and _is_row0_slice(n, self.consts) and self._rank3_rows(n.input[0]):
            self.kind[id(n)] = "slice"
            return
        if op == "Pad":
            rows = self._pad_rows(n)
            if rows is not None:
                self.kind[id(n)] = "pad"
                self.rows[n.output[0]] = rows
                self.zero.add(n.output[0])
            return
        if op in _ELEMENTWISE:
            self._elementwise(n)
            return
        src = self._rows(n.input[0])
        if src is None:
            return
        zero = n.input[0] in self.zero
        if op == "Shape":
            start, end = _attr(n, "start", 0), _attr(n, "end", None)
            if src.folded == 0 and end is not None and 0 <= start < end <= src.axis:
                self.kind[id(n)] = "shape"  # reads only dims before the rows: the same on one row
                self.linked[id(n)] = {n.input[0]}
            return
        if op == "Reshape":
            self._reshape(n, src, zero)
        elif op == "Transpose":
            perm = _attr(n, "perm", None)
            rank = len(self._shape(n.input[0]) or [])
            if perm is None:
                perm = list(range(rank))[::-1]
            if src.folded == 0 and rank:
                self._set(n, n.output[0], Rows(list(perm).index(src.axis), src.rows), zero)
            elif src.folded and list(perm) == [1, 0]:
                self._set(n, n.output[0], Rows(1 - src.axis, src.rows, src.folded), zero)
        elif op == "MatMul" and len(n.input) == 2:
            self._matmul(n, src)
        elif op in _REDUCE:
            axes = self._reduce_axes(n)
            if axes is None:
                return
            if src.axis not in axes and src.folded == 0 and _attr(n, "keepdims", 1) == 1:
                self._set(n, n.output[0], src, zero)
            elif src.axis in axes and op == "ReduceSum" and zero:
                self.kind[id(n)] = "sum"
                self.linked[id(n)] = {n.input[0]}
        elif op in _LAST_AXIS and src.folded == 0:
            rank = len(self._shape(n.input[0]) or [])
            axis = _attr(n, "axis", -1) % rank
            if src.axis < axis:  # (before opset 13 Softmax flattened every axis from ``axis`` on)
                outs = [o for o in n.output if o]
                if all(len(self._shape(o) or []) == rank for o in outs):
                    for o in outs:
                        self._set(n, o, src, False)

    def _matmul(self, n: onnx.NodeProto, ra: Rows) -> None:
        """A product is row-wise in its first operand's rows (axis -2), whatever its second operand; it sums
        over rows when they are the first operand's last axis and the second's axis -2, one of them zero."""
        a, b = n.input
        rank_a, rank_b = len(self._shape(a) or []), len(self._shape(b) or [])
        rank = len(self._shape(n.output[0]) or [])
        if not (rank_a >= 2 and rank_b >= 2 and rank):
            return
        rb = self._rows(b)
        if ra.folded == 0 and ra.axis == rank_a - 2:
            self._set(n, n.output[0], Rows(rank - 2, ra.rows), a in self.zero)
            self.linked[id(n)] = {a}
        elif (rb is not None and ra.rows == rb.rows and bool(ra.folded) == bool(rb.folded)
              and ra.axis == rank_a - 1 and rb.axis == rank_b - 2 and (a in self.zero or b in self.zero)):
            self.kind[id(n)] = "sum"
            self.linked[id(n)] = {a, b}

    def _reshape(self, n: onnx.NodeProto, src: Rows, zero: bool) -> None:
        """Folding (N, L, C) into (N * L, C), or a reshape that keeps the rows' axis and the dims before it
        (attention's split into heads and back)."""
        shape, out = self._shape(n.input[0]), self._shape(n.output[0])
        target = _const_ints(self.consts, n.input[1])
        if shape is None or out is None or src.folded:
            return
        if (target is not None and len(target) == 2 and target[0] == -1 and len(shape) == 3 and src.axis == 1
                and shape[2] == target[1] and isinstance(target[1], int) and target[1] > 0):
            self._set(n, n.output[0], Rows(0, src.rows, target[1]), zero)
            return
        k = src.axis
        if len(out) <= k or out[k] != src.rows or out[:k] != shape[:k] or any(d is None for d in out[:k]):
            return
        if _attr(n, "allowzero", 0):
            return
        narrowed = self._narrowed_shape(n.input[1], k, src.rows)
        if narrowed is not None:
            self.reshapes[id(n)] = narrowed
            self._set(n, n.output[0], src, zero)

    def _narrowed_shape(self, v: str, k: int, rows: int):
        """How to write the target shape ``v`` with 1 at ``k``: ("const", values) or ("concat", node, piece,
        values of that piece); None when its entry at ``k`` is not a known ``rows``."""
        target = _const_ints(self.consts, v)
        if target is not None:
            if len(target) <= k or target[k] not in (rows, 0):
                return None
            return ("const", [1 if j == k else t for j, t in enumerate(target)])
        node = self.producer.get(v)
        if node is None or node.op_type != "Concat" or node.domain not in _ONNX:
            return None
        at = 0
        for piece, name in enumerate(node.input):
            values = _const_ints(self.consts, name)
            if values is not None:
                size = len(values)
            else:
                p = self.producer.get(name)
                if p is None or p.op_type != "Shape" or _attr(p, "end", None) is None:
                    return None
                size = _attr(p, "end", 0) - _attr(p, "start", 0)
                if size < 0:
                    return None
            if at <= k < at + size:
                if values is None or values[k - at] not in (rows, 0):
                    return None
                return ("concat", node, piece, [1 if j == k - at else t for j, t in enumerate(values)])
            at += size
        return None

    def _elementwise(self, n: onnx.NodeProto) -> None:
        shape = self._shape(n.output[0])
        if shape is None or len(n.output) != 1:
            return
        rank = len(shape)
        out = None
        for i in n.input:
            rows = self._rows(i) if i else None
            if rows is None or rows.folded:
                continue
            mine = Rows(rows.axis + rank - len(self._shape(i) or []), rows.rows)
            if out is None:
                out = mine
            elif out != mine:
                return
        if out is None:
            return
        linked = set()
        for i in n.input:
            place = self._operand(i, out, rank)
            if place is None:
                return
            if place == "rows":
                linked.add(i)
        op = n.op_type
        if op == "Mul":
            zero = any(i in self.zero for i in linked)
        elif op == "Div":
            zero = n.input[0] in self.zero and n.input[0] in linked
        elif op in ("Add", "Sub"):
            zero = len(linked) == len(n.input) and all(i in self.zero for i in linked)
        elif op in ("Neg", "Identity", "Cast"):
            zero = n.input[0] in self.zero
        else:
            zero = False
        self._set(n, n.output[0], out, zero)
        self.linked[id(n)] = linked

    def _operand(self, v: str, out: Rows, rank: int) -> str | None:
        """How an element-wise operand meets an output with rows ``out``: "rows" (the same rows), "broadcast"
        (no rows axis, or one of size 1) or "slice" (rows of its own to cut); None when unknown."""
        if not v:
            return "broadcast"
        shape = self._shape(v)
        if shape is None:
            return None
        axis = out.axis - (rank - len(shape))
        rows = self._rows(v)
        if rows is not None:
            return "rows" if rows == Rows(axis, out.rows) else None
        if axis < 0 or shape[axis] == 1:
            return "broadcast"
        return "slice" if shape[axis] == out.rows else None

    def _set(self, n: onnx.NodeProto, v: str, rows: Rows, zero: bool) -> None:
        self.kind[id(n)] = "rowwise"
        self.linked.setdefault(id(n), {n.input[0]})
        self.rows[v] = rows
        if zero:
            self.zero.add(v)

    def _rank3_rows(self, v: str) -> Rows | None:
        shape = self._shape(v)
        if shape is None or len(shape) != 3 or not isinstance(shape[1], int) or shape[1] < 2:
            return None
        return Rows(1, shape[1])

    def _pad_rows(self, n: onnx.NodeProto) -> Rows | None:
        """Rows of a Pad that puts a (N, 1, ...) row at row 0 of zeros: the gradient of a row's Slice."""
        if _attr(n, "mode", b"constant") not in (b"constant", "constant") or len(n.input) < 2:
            return None
        if len(n.input) > 3 and n.input[3]:
            return None
        value = self.consts.get(n.input[2]) if len(n.input) > 2 and n.input[2] else np.zeros(())
        pads = _const_ints(self.consts, n.input[1])
        src, out = self._shape(n.input[0]), self._rank3_rows(n.output[0])
        if value is None or value.size != 1 or float(value.reshape(())) != 0.0 or pads is None:
            return None
        if out is None or src is None or len(src) != 3 or src[1] != 1:
            return None
        if pads != [0, 0, 0, 0, out.rows - 1, 0]:
            return None
        return out

    def _reduce_axes(self, n: onnx.NodeProto) -> list[int] | None:
        rank = len(self._shape(n.input[0]) or [])
        if not rank:
            return None
        if len(n.input) > 1 and n.input[1]:
            axes = _const_ints(self.consts, n.input[1])
        else:
            axes = _attr(n, "axes", None)
        if not axes:
            return None if _attr(n, "noop_with_empty_axes", 0) else list(range(rank))
        return sorted(int(a) % rank for a in axes)

    def _row0_only(self, r: onnx.NodeProto, v: str) -> bool:
        kind = self.kind.get(id(r))
        if kind == "slice":
            return r.input[0] == v
        if v not in self.linked.get(id(r), ()):
            return False
        if kind in ("sum", "shape"):
            return True  # its condition (an operand with zero rows) was checked when it was classified
        return kind == "rowwise" and all(o in self.narrow for o in r.output if o)

    # -- rewriting -----------------------------------------------------------------------------------------
    def _rewrite(self, n: onnx.NodeProto) -> None:
        kind = self.kind.get(id(n))
        if kind == "slice" and n.input[0] in self.narrow:
            self.new.append(helper.make_node("Identity", [self._narrow(n.input[0])], [n.output[0]],
                                             name=f"{n.name or n.output[0]}/row0"))
            return
        if kind == "pad" and n.output[0] in self.narrow:
            self.narrowed[n.output[0]] = n.input[0]
            self.new.append(n)  # read (padded) by whoever needs every row; dropped when nothing does
            return
        outs = [o for o in n.output if o]
        if kind == "rowwise" and outs and all(o in self.narrow for o in outs):
            if n.op_type in _ELEMENTWISE:
                rank = len(self._shape(outs[0]))
                ins = [self._narrow_operand(i, self.rows[outs[0]], rank) for i in n.input]
            elif id(n) in self.reshapes:
                ins = [self._narrow(n.input[0]), self._reshape_target(n, self.reshapes[id(n)])]
            else:  # the rows are the first input's; the rest (weights, axes, scale) apply to every row
                ins = [self._narrow(n.input[0]), *n.input[1:]]
            self._emit_narrowed(n, ins)
            for o in outs:
                self.gone.add(o)
            return
        if kind == "sum":
            ins = [self._narrow(i) if i in self.linked[id(n)] else i for i in n.input]
            self._emit_narrowed(n, ins, rename=False)
            return
        if kind == "shape" and n.input[0] in self.gone:
            self._emit_narrowed(n, [self.narrowed[n.input[0]]], rename=False)
            return
        ins = [self._full(i) if i in self.gone else i for i in n.input]
        if ins != list(n.input):
            del n.input[:]
            n.input.extend(ins)
        self.new.append(n)

    def _emit_narrowed(self, n: onnx.NodeProto, inputs: list[str], rename: bool = True) -> None:
        outputs = []
        for o in n.output:
            if o and rename:
                self.narrowed[o] = f"{o}/row0"
                outputs.append(f"{o}/row0")
            else:
                outputs.append(o)
        node = helper.make_node(n.op_type, inputs, outputs, name=f"{n.name or n.output[0]}/row0",
                                domain=n.domain)
        node.attribute.extend(n.attribute)
        self.new.append(node)
        self.count += 1

    def _reshape_target(self, n: onnx.NodeProto, how: tuple) -> str:
        """The target shape of Reshape ``n`` with its rows' entry 1."""
        if how[0] == "const":
            return self._const(np.array(how[1], np.int64), "shape")
        _, concat, piece, values = how
        pieces = list(concat.input)
        pieces[piece] = self._const(np.array(values, np.int64), "shape")
        return self._node("Concat", pieces, f"{concat.output[0]}/row0", axis=0)

    def _narrow_operand(self, v: str, out: Rows, rank: int) -> str:
        if not v:
            return v
        if self._rows(v) is not None:
            return self._narrow(v)
        shape = self._shape(v)
        axis = out.axis - (rank - len(shape))
        if axis < 0 or shape[axis] == 1:
            return v
        return self._slice(v, axis, f"{v}/row0_of{len(shape)}")

    def _narrow(self, v: str) -> str:
        """The row-0 value of ``v`` (a Slice of it where its producer still computes every row)."""
        if v in self.narrowed:
            return self.narrowed[v]
        rows = self.rows[v]
        name = f"{v}/row0"
        if rows.folded:
            whole = self._fold_shape(rows, unfold=True)
            tmp = self._node("Reshape", [v, whole], f"{v}/rows")
            cut = self._slice(tmp, 1 + rows.axis, f"{v}/row0_unfolded")
            self._node("Reshape", [cut, self._fold_shape(rows, unfold=False)], name)
        else:
            self._slice(v, rows.axis, name)
        self.narrowed[v] = name
        return name

    def _full(self, v: str) -> str:
        """``v`` itself, padded back from its row 0 where only that was computed (it has zero rows)."""
        if v not in self.gone:
            return v
        if v not in self.zero:
            raise AssertionError(f"narrow_rows: {v} is read on every row but only row 0 was computed")
        rows = self.rows[v]
        row0 = self.narrowed[v]
        if rows.folded:
            one = self._node("Reshape", [row0, self._fold_shape(rows, unfold=True, one=True)], f"{v}/row0_3d")
            padded = self._pad(one, 1 + rows.axis, 3, rows.rows, f"{v}/padded")
            self._node("Reshape", [padded, self._fold_shape(rows, unfold=False)], v)
        else:
            self._pad(row0, rows.axis, len(self._shape(v)), rows.rows, v)
        self.gone.discard(v)
        return v

    def _fold_shape(self, rows: Rows, unfold: bool, one: bool = False) -> str:
        if not unfold:
            shape = [-1, rows.folded] if rows.axis == 0 else [rows.folded, -1]
        else:
            n = 1 if one else rows.rows
            shape = [-1, n, rows.folded] if rows.axis == 0 else [rows.folded, -1, n]
        return self._const(np.array(shape, np.int64), "shape")

    def _slice(self, v: str, axis: int, name: str) -> str:
        if name in {o for n in self.new for o in n.output}:
            return name
        one = self._const(np.array([1], np.int64), "one")
        return self._node("Slice", [v, self._const(np.array([0], np.int64), "zero"), one,
                                    self._const(np.array([axis], np.int64), "axis")], name)

    def _pad(self, v: str, axis: int, rank: int, rows: int, name: str) -> str:
        pads = np.zeros(2 * rank, np.int64)
        pads[rank + axis] = rows - 1
        return self._node("Pad", [v, self._const(pads, "pads")], name)

    def _node(self, op: str, inputs: list[str], output: str, **attrs) -> str:
        self.new.append(helper.make_node(op, inputs, [output], name=f"{output}/{op}", **attrs))
        return output

    def _const(self, value: np.ndarray, what: str) -> str:
        key = (what, value.dtype.str, tuple(value.shape), value.tobytes())
        name = self.consts_made.get(key)
        if name is None:
            name = f"row_narrow/{what}_{len(self.consts_made)}"
            self.g.initializer.append(numpy_helper.from_array(value, name))
            self.consts_made[key] = name
        return name


def _pads_one_row(n: onnx.NodeProto, consts: dict) -> bool:
    """A Pad that only adds rows after row 0 of axis 1 of a rank-3 value (what ``_pad_rows`` checks in
    full, with shapes)."""
    pads = _const_ints(consts, n.input[1]) if len(n.input) > 1 else None
    return pads is not None and len(pads) == 6 and pads[4] > 0 and pads[:4] == [0] * 4 and pads[5] == 0


def _is_row0_slice(n: onnx.NodeProto, consts: dict) -> bool:
    """A Slice of row 0 of axis 1: starts 0, ends 1, axes 1, steps 1."""
    if n.op_type != "Slice" or n.domain not in _ONNX or len(n.input) < 4:
        return False
    starts, ends, axes = (_const_ints(consts, n.input[k]) for k in (1, 2, 3))
    steps = _const_ints(consts, n.input[4]) if len(n.input) > 4 and n.input[4] else [1]
    return starts == [0] and ends == [1] and axes == [1] and steps == [1]


def _consts(g: onnx.GraphProto) -> dict[str, np.ndarray]:
    found = {t.name: numpy_helper.to_array(t) for t in g.initializer
             if not t.data_location and int(np.prod(t.dims)) <= 64}
    for n in g.node:
        if n.op_type == "Constant" and n.domain in _ONNX:
            for a in n.attribute:
                if a.name == "value":
                    found[n.output[0]] = numpy_helper.to_array(a.t)
    return found


def _const_ints(consts: dict, name: str) -> list[int] | None:
    value = consts.get(name)
    if value is None or value.dtype.kind not in "iu":
        return None
    return [int(x) for x in value.reshape(-1)]


def _attr(node: onnx.NodeProto, name: str, default):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default
