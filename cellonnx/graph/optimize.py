"""Clean-up passes over a traced ModelProto: no dead, duplicate or no-op nodes, constants folded.

Tracing already folds whatever is computed from constants alone. What is left for these passes: Shape reads
of dims that turn out to be static (ONNX shape inference knows them), the constant subgraphs those leave
behind, duplicated nodes, Identity nodes, and the symbolic output shapes; and, from cellonnx.graph.passes,
transpose pairs, unread optional outputs and duplicated constants.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Collection

import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference
from onnx.reference import ReferenceEvaluator

from cellonnx.graph.builder import tensor_nbytes
from cellonnx.graph.norm_stats import layer_norm_statistics
from cellonnx.graph.passes import compose_transposes, dedupe_constants, trim_optional_outputs
from cellonnx.graph.sparse_update import scatter_sgd_rows

_NEVER_FOLD = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Dropout", "Multinomial",
               "Bernoulli"}
# ops that make a large tensor out of small ones: kept as nodes past this many bytes (a zero-filled buffer
# of a gradient scatter, or dropout's counters, would otherwise be stored in the model)
_GROWING = {"ConstantOfShape", "Expand", "Tile", "Range"}
_GROWN_LIMIT = 64 * 1024


def optimize(model: onnx.ModelProto, keep_initializers: Collection[str] = ()) -> onnx.ModelProto:
    """Run every pass until nothing changes. ``keep_initializers`` (the parameters) are never folded away
    as constants: their values change during training."""
    params = set(keep_initializers)
    inferred = _Inference(model)
    passes: list[Callable[[], bool]] = [
        lambda: _fold_static_shapes(model, inferred),
        lambda: _fold_constants(model, params),
        lambda: _dedupe(model),
        lambda: layer_norm_statistics(model, inferred),
        lambda: scatter_sgd_rows(model),
        lambda: _reshape_copies_dims(model),
        lambda: _fuse_pad_into_max_pool(model),
        lambda: _global_pools(model, inferred),
        lambda: _drop_noops(model, inferred),
        lambda: _drop_identities(model),
        lambda: compose_transposes(model),
        lambda: trim_optional_outputs(model),
        lambda: dedupe_constants(model, params),
        lambda: _drop_dead(model),
    ]
    for _ in range(8):
        changed = False
        for run in passes:
            if run():
                inferred.clear()
                changed = True
        if not changed:
            break
    _set_output_shapes(model)
    return model


class _Inference:
    """ONNX shape inference of ``model`` (_inferred), kept until a pass changes the model: a whole-graph
    inference of a ResNet's training step takes about 0.4 s, and several passes of one round ask for it."""

    def __init__(self, model: onnx.ModelProto) -> None:
        self.model = model
        self._found: tuple[dict[str, list], dict[str, int]] | None = None

    def __call__(self) -> tuple[dict[str, list], dict[str, int]]:
        if self._found is None:
            self._found = _inferred(self.model)
        return self._found

    def clear(self) -> None:
        self._found = None


def _inferred_shapes(model: onnx.ModelProto) -> dict[str, list]:
    return _inferred(model)[0]


def _inferred(model: onnx.ModelProto) -> tuple[dict[str, list], dict[str, int]]:
    """Shapes (ints, dim names, None) and element types of the values ONNX shape inference can tell."""
    try:
        inferred = shape_inference.infer_shapes(_for_inference(model), data_prop=True)
    except Exception:
        return {}, {}
    shapes: dict[str, list] = {}
    types: dict[str, int] = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
        t = vi.type.tensor_type
        if t.elem_type:
            types[vi.name] = t.elem_type
        if t.HasField("shape"):
            shapes[vi.name] = [d.dim_value if d.HasField("dim_value") else (d.dim_param or None)
                               for d in t.shape.dim]
    return shapes, types


_INLINE_LIMIT = 1024  # bytes: initializers up to this size keep their data for inference (shape constants)


def _for_inference(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy cheap to hand to shape inference: large initializers (weights) become typed graph inputs so
    their data is not serialized again, and graph outputs lose their declared shapes so inference names
    their dims from the inputs' ("batch") rather than keeping the placeholders written while tracing.

    Data propagation follows every element of a 1-D integer value of known length, whatever reads it:
    dropout's counters (a Range over half an activation, then a dozen integer ops) cost seconds a pass at
    batch 64. Such values are never shapes, so in the copy a long Range (or a long 1-D integer initializer)
    is an input whose length is a named dim."""
    g = model.graph
    small, typed = [], []
    for t in g.initializer:
        if t.data_location != onnx.TensorProto.EXTERNAL and tensor_nbytes(t) <= _INLINE_LIMIT:
            small.append(t)
        else:
            long_ints = len(t.dims) == 1 and t.data_type in _INTEGER_TYPES
            typed.append(helper.make_tensor_value_info(t.name, t.data_type, [f"{t.name}_length"] if long_ints
                                                       else list(t.dims)))
    consts = {t.name: t for t in small}
    nodes = []
    for node in g.node:
        length = _range_length(node, consts)
        if length is not None and length * 8 > _INLINE_LIMIT:
            dtype = consts[node.input[0]].data_type
            typed.append(helper.make_tensor_value_info(node.output[0], dtype, [f"{node.output[0]}_length"]))
        else:
            nodes.append(node)
    outputs = [helper.make_tensor_value_info(o.name, o.type.tensor_type.elem_type, None) for o in g.output]
    graph = helper.make_graph(nodes, g.name, list(g.input) + typed, outputs, initializer=small)
    light = helper.make_model(graph,
                              opset_imports=model.opset_import, ir_version=model.ir_version)
    return light


_INTEGER_TYPES = {onnx.TensorProto.INT64, onnx.TensorProto.INT32, onnx.TensorProto.UINT64, onnx.TensorProto.UINT32}


def _range_length(node: onnx.NodeProto, consts: dict[str, onnx.TensorProto]) -> int | None:
    """How many values a Range of constant start, limit and delta makes (None: not such a Range)."""
    if node.op_type != "Range" or not all(i in consts for i in node.input):
        return None
    start, limit, delta = (numpy_helper.to_array(consts[i]).item() for i in node.input)
    return max(math.ceil((limit - start) / delta), 0) if delta else None


def _fold_static_shapes(model: onnx.ModelProto, inferred: Callable[[], tuple[dict, dict]]) -> bool:
    """Shape and Size of values whose dims are known become constants (on CUDA, onnxruntime computes them
    and whatever reads them on the host, and copies the result over every run)."""
    if not any(n.op_type in ("Shape", "Size") for n in model.graph.node):
        return False
    shapes = inferred()[0]
    changed = False
    keep = []
    for node in model.graph.node:
        if node.op_type == "Shape" and node.input[0] in shapes:
            dims = shapes[node.input[0]]
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            start, end = attrs.get("start", 0), attrs.get("end", len(dims))
            part = dims[slice(start, end)]
            if all(isinstance(d, int) and d > 0 for d in part):
                model.graph.initializer.append(numpy_helper.from_array(np.asarray(part, np.int64), node.output[0]))
                changed = True
                continue
        if node.op_type == "Size" and node.input[0] in shapes:
            dims = shapes[node.input[0]]
            if all(isinstance(d, int) and d >= 0 for d in dims):
                model.graph.initializer.append(numpy_helper.from_array(np.asarray(math.prod(dims), np.int64),
                                                                       node.output[0]))
                changed = True
                continue
        keep.append(node)
    if changed:
        del model.graph.node[:]
        model.graph.node.extend(keep)
    return changed


def _fold_constants(model: onnx.ModelProto, params: set[str]) -> bool:
    g = model.graph
    consts = {i.name: i for i in g.initializer if i.name not in params}
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 18)
    changed = False
    keep = []
    for node in g.node:
        inputs = [i for i in node.input if i]
        if node.op_type not in _NEVER_FOLD and node.domain in ("", "ai.onnx") and inputs \
                and all(i in consts for i in inputs) and not any(a.type == onnx.AttributeProto.GRAPH for a in node.attribute):
            try:
                values = _evaluate(node, [numpy_helper.to_array(consts[i]) if i else None for i in node.input], opset)
            except Exception:
                keep.append(node)
                continue
            if node.op_type in _GROWING and sum(np.asarray(v).nbytes for v in values) > _GROWN_LIMIT:
                keep.append(node)
                continue
            for name, value in zip(node.output, values):
                t = numpy_helper.from_array(np.asarray(value), name)
                g.initializer.append(t)
                consts[name] = t
            changed = True
            continue
        keep.append(node)
    if changed:
        del g.node[:]
        g.node.extend(keep)
    return changed


def _evaluate(node: onnx.NodeProto, values: list, opset: int) -> list:
    names = [f"i{k}" if v is not None else "" for k, v in enumerate(values)]
    n = helper.make_node(node.op_type, names, [f"o{k}" for k in range(len(node.output))], domain=node.domain)
    n.attribute.extend(node.attribute)
    inputs = [helper.make_tensor_value_info(nm, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
              for nm, v in zip(names, values) if nm]
    outputs = [helper.make_empty_tensor_value_info(f"o{k}") for k in range(len(node.output))]
    m = helper.make_model(helper.make_graph([n], "fold", inputs, outputs),
                          opset_imports=[helper.make_opsetid("", opset)])
    feeds = {nm: v for nm, v in zip(names, values) if nm}
    return ReferenceEvaluator(m).run(None, feeds)


def _dedupe(model: onnx.ModelProto) -> bool:
    g = model.graph
    seen: dict[tuple, list[str]] = {}
    rename: dict[str, str] = {}
    keep = []
    for node in g.node:
        _rename_inputs(node, rename)
        if node.op_type in _NEVER_FOLD:
            keep.append(node)
            continue
        key = (node.domain, node.op_type, tuple(node.input),
               tuple(sorted(a.SerializeToString() for a in node.attribute)))
        if key in seen:
            for a, b in zip(node.output, seen[key]):
                rename[a] = b
            continue
        seen[key] = list(node.output)
        keep.append(node)
    if not rename:
        return False
    _rewire_outputs(g, rename, keep)
    return True


def _drop_identities(model: onnx.ModelProto) -> bool:
    """Identity nodes go; one that only names a graph output goes too, its producer writing that name."""
    g = model.graph
    outputs = {o.name for o in g.output}
    rename: dict[str, str] = {}
    keep = []
    for node in g.node:
        _rename_inputs(node, rename)
        if node.op_type == "Identity" and node.output[0] not in outputs:
            rename[node.output[0]] = node.input[0]
            continue
        keep.append(node)
    changed = bool(rename)
    if rename:
        _rewire_outputs(g, rename, keep)
    return _name_outputs_at_producers(g) or changed


def _name_outputs_at_producers(g: onnx.GraphProto) -> bool:
    """``y = Identity(v)`` with y a graph output: the node producing v writes y directly, when v is neither a
    graph input, an initializer nor another graph output."""
    outputs = [o.name for o in g.output]
    fixed = {i.name for i in g.input} | {t.name for t in g.initializer} | set(outputs)
    produced = {o for n in g.node for o in n.output}
    rename: dict[str, str] = {}
    drop = []
    for node in g.node:
        if node.op_type == "Identity" and node.output[0] in outputs and node.input[0] in produced \
                and node.input[0] not in fixed and node.input[0] not in rename:
            rename[node.input[0]] = node.output[0]
            drop.append(node)
    if not rename:
        return False
    keep = [n for n in g.node if all(n is not d for d in drop)]
    for node in keep:
        _rename_inputs(node, rename)
        for i, o in enumerate(node.output):
            if o in rename:
                node.output[i] = rename[o]
    del g.node[:]
    g.node.extend(keep)
    return True


def _rename_inputs(node: onnx.NodeProto, rename: dict[str, str]) -> None:
    """Rename the values ``node`` reads, in the subgraphs of If / Loop / Scan bodies too."""
    if not rename:
        return
    for i, name in enumerate(node.input):
        if name in rename:
            node.input[i] = rename[name]
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            for sub in a.g.node:
                _rename_inputs(sub, rename)


def _reshape_copies_dims(model: onnx.ModelProto) -> bool:
    """``Reshape(x, Concat(Shape(x)[0:1], [-1]))`` becomes ``Reshape(x, [0, -1])``: a dim read from x at the
    position it keeps is ONNX Reshape's 0 ("copy this dim"), so flattening with a dynamic batch needs no
    Shape / Concat at all."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    consts = {t.name: t for t in g.initializer}
    names = {o for n in g.node for o in n.output} | set(consts) | {i.name for i in g.input}
    changed = False
    for node in g.node:
        if node.op_type != "Reshape" or node.domain not in ("", "ai.onnx") or len(node.input) < 2:
            continue
        if any(a.name == "allowzero" and a.i for a in node.attribute):
            continue
        dims = _copied_dims(node.input[0], node.input[1], producer, consts)
        if dims is None:
            continue
        name = f"{node.input[1]}_copy"
        while name in names:
            name += "_"
        names.add(name)
        g.initializer.append(numpy_helper.from_array(np.asarray(dims, np.int64), name))
        consts[name] = g.initializer[-1]
        node.input[1] = name
        changed = True
    return changed


def _copied_dims(x: str, shape: str, producer: dict, consts: dict) -> list[int] | None:
    concat = producer.get(shape)
    if concat is None or concat.op_type != "Concat":
        return None
    dims: list[int] = []
    for part in concat.input:
        if part in consts:
            values = numpy_helper.to_array(consts[part]).reshape(-1).tolist()
            if 0 in values:
                return None  # a literal 0 would turn into "copy"
            dims += [int(v) for v in values]
            continue
        read = _shape_read(producer.get(part), x, producer, consts)
        if read is None or read[0] != len(dims):
            return None
        dims += [0] * (read[1] - read[0])
    return dims if any(d == 0 for d in dims) else None


def _shape_read(node: onnx.NodeProto | None, x: str, producer: dict, consts: dict) -> tuple[int, int] | None:
    """The dims [start, end) of ``x`` that ``node`` reads: Shape(x, start, end) or Gather(Shape(x), [i])."""
    if node is None:
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if node.op_type == "Shape" and node.input[0] == x:
        start, end = attrs.get("start", 0), attrs.get("end")
        if start < 0 or end is None or end < 0:
            return None
        return start, end
    if node.op_type == "Gather" and attrs.get("axis", 0) == 0 and node.input[1] in consts:
        whole = producer.get(node.input[0])
        index = numpy_helper.to_array(consts[node.input[1]])
        if whole is not None and whole.op_type == "Shape" and whole.input[0] == x and not whole.attribute \
                and index.shape == (1,) and index[0] >= 0:
            return int(index[0]), int(index[0]) + 1
    return None


def _fuse_pad_into_max_pool(model: onnx.ModelProto) -> bool:
    """A constant -inf Pad of the spatial dims feeding only a MaxPool becomes the MaxPool's own pads (which
    pad with -inf): what MindSpore's pad_mode='same' pooling leaves behind once its sizes are static."""
    g = model.graph
    consts = {t.name: t for t in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    readers: dict[str, list[onnx.NodeProto]] = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    outputs = {o.name for o in g.output}
    fused: list[onnx.NodeProto] = []
    for pad in g.node:
        mode = next((helper.get_attribute_value(a) for a in pad.attribute if a.name == "mode"), b"constant")
        if pad.op_type != "Pad" or len(pad.input) < 2 or (len(pad.input) > 3 and pad.input[3]) \
                or pad.output[0] in outputs or mode not in (b"constant", "constant"):
            continue
        users = readers.get(pad.output[0], [])
        if len(users) != 1 or users[0].op_type != "MaxPool" or len(users[0].output) != 1:
            continue
        pool = users[0]
        if pad.input[1] not in consts or (len(pad.input) < 3 or pad.input[2] not in consts):
            continue
        value = numpy_helper.to_array(consts[pad.input[2]]).reshape(-1)
        # zeros padding a Relu's output change no maximum either (every window holds a real value >= 0)
        after_relu = producer.get(pad.input[0]) is not None and producer[pad.input[0]].op_type == "Relu"
        if value.size != 1 or not (np.isneginf(value[0]) or (value[0] == 0 and after_relu)):
            continue
        pads = numpy_helper.to_array(consts[pad.input[1]]).reshape(-1).tolist()
        rank = len(pads) // 2
        attrs = {a.name: helper.get_attribute_value(a) for a in pool.attribute}
        kernel = list(attrs.get("kernel_shape", []))
        if attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET") or attrs.get("ceil_mode", 0) \
                or len(kernel) != rank - 2 \
                or any(pads[i] or pads[rank + i] for i in range(2)) or min(pads) < 0:
            continue
        nd = rank - 2
        old = list(attrs.get("pads", [0] * 2 * nd))
        new = [old[i] + pads[2 + i] for i in range(nd)] + \
            [old[nd + i] + pads[rank + 2 + i] for i in range(nd)]
        if any(p >= kernel[i % nd] for i, p in enumerate(new)):
            continue  # onnxruntime wants each pad smaller than the kernel
        for a in pool.attribute:
            if a.name == "pads":
                pool.attribute.remove(a)
                break
        pool.attribute.append(helper.make_attribute("pads", new))
        pool.input[0] = pad.input[0]
        fused.append(pad)
    if not fused:
        return False
    keep = [n for n in g.node if all(n is not f for f in fused)]
    del g.node[:]
    g.node.extend(keep)
    return True


_GLOBAL_POOLS = {"ReduceMean": "GlobalAveragePool", "ReduceMax": "GlobalMaxPool"}


def _global_pools(model: onnx.ModelProto, inferred: Callable[[], tuple[dict, dict]]) -> bool:
    """A mean (max) over every spatial axis of an (N, C, H, W, ...) value, dims kept, is ONNX's
    GlobalAveragePool (GlobalMaxPool): one dedicated node that onnxruntime runs in its blocked (NCHWc)
    layout, before converting back, rather than after."""
    g = model.graph
    candidates = [n for n in g.node if n.op_type in _GLOBAL_POOLS and n.domain in ("", "ai.onnx")]
    if not candidates:
        return False
    shapes, types = inferred()
    consts = {t.name: t for t in g.initializer}
    names = {n.name for n in g.node}
    floats = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE}  # the pools' types
    changed = False
    for node in candidates:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        rank = len(shapes.get(node.input[0]) or [])
        # (rank 4 and up: a mean over the last axis of (N, L, C) features stays a ReduceMean)
        if attrs.get("keepdims", 1) != 1 or rank < 4 or types.get(node.input[0]) not in floats:
            continue
        if "axes" in attrs:
            axes = list(attrs["axes"])
        elif len(node.input) > 1 and node.input[1] in consts:
            axes = numpy_helper.to_array(consts[node.input[1]]).reshape(-1).tolist()
        else:
            continue
        if sorted(a % rank for a in axes) != list(range(2, rank)):
            continue
        node.op_type = _GLOBAL_POOLS[node.op_type]
        del node.input[1:]
        del node.attribute[:]
        scope, _, _ = node.name.rpartition("/")
        name, k = f"{scope}/{node.op_type}" if scope else node.op_type, 0
        while name in names:
            k += 1
            name = f"{scope}/{node.op_type}_{k}" if scope else f"{node.op_type}_{k}"
        names.add(name)
        node.name = name
        changed = True
    return changed


# ops whose output equals their input when the shapes agree (Transpose and Cast are checked apart)
_SAME_SHAPE_NOOPS = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Expand", "Tile", "Pad", "Slice"}


def _drop_noops(model: onnx.ModelProto, inferred: Callable[[], tuple[dict, dict]]) -> bool:
    """Nodes that hand their input back unchanged become Identity (then dropped): a Reshape / Slice / Pad /
    Expand ... whose fully known output shape equals its input's, a Transpose by the identity permutation,
    a Cast to the type the value already has."""
    g = model.graph
    candidates = [n for n in g.node if n.op_type in _SAME_SHAPE_NOOPS or n.op_type in ("Transpose", "Cast")]
    if not candidates:
        return False
    shapes, types = inferred()
    consts = {t.name: t for t in g.initializer}
    changed = False
    for node in candidates:
        if not node.input or not node.input[0] or node.domain not in ("", "ai.onnx") or len(node.output) != 1:
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        x, y = node.input[0], node.output[0]
        if node.op_type == "Transpose":
            perm = attrs.get("perm")
            noop = perm is not None and list(perm) == list(range(len(perm)))
        elif node.op_type == "Cast":
            noop = x in types and types[x] == attrs.get("to")
        else:
            noop = _same_known_shape(shapes.get(x), shapes.get(y))
            if noop and node.op_type == "Slice":  # a negative step reverses with the shape unchanged
                steps = node.input[4] if len(node.input) > 4 and node.input[4] else None
                noop = steps is None or \
                    (steps in consts and bool((numpy_helper.to_array(consts[steps]) > 0).all()))
        if noop:
            node.op_type = "Identity"
            del node.input[1:]
            del node.attribute[:]
            changed = True
    return changed


def _same_known_shape(a: list | None, b: list | None) -> bool:
    if a is None or b is None or len(a) != len(b):
        return False
    return all(x == y and ((isinstance(x, int) and x > 0) or
                           (isinstance(x, str) and not x.startswith("unk__")))
               for x, y in zip(a, b))


def _rewire_outputs(g: onnx.GraphProto, rename: dict[str, str], keep: list) -> None:
    outputs = {o.name for o in g.output}
    extra = []
    for old, new in rename.items():
        if old in outputs:  # a graph output keeps its name
            extra.append(helper.make_node("Identity", [new], [old], name=f"output/{old}"))
    del g.node[:]
    g.node.extend(keep + extra)


def _drop_dead(model: onnx.ModelProto) -> bool:
    g = model.graph
    needed = {o.name for o in g.output}
    live = []
    for node in reversed(g.node):
        if any(o in needed for o in node.output):
            live.append(node)
            needed.update(i for i in node.input if i)
            for a in node.attribute:  # subgraphs (If/Loop/Scan) read outer values by name
                if a.type == onnx.AttributeProto.GRAPH:
                    needed.update(_outer_names(a.g))
    live.reverse()
    changed = len(live) != len(g.node)
    if changed:
        del g.node[:]
        g.node.extend(live)
    unused = [i for i, t in enumerate(g.initializer) if t.name not in needed]
    for i in reversed(unused):  # deleted in place: re-adding the kept ones would copy every weight
        del g.initializer[i]
    return changed or bool(unused)


def _outer_names(graph: onnx.GraphProto) -> set[str]:
    names = set()
    for node in graph.node:
        names.update(i for i in node.input if i)
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                names |= _outer_names(a.g)
    return names


def _set_output_shapes(model: onnx.ModelProto) -> None:
    """Output dims as inference knows them: static sizes, or the input dim names they follow ("batch");
    a dynamic dim inference cannot name is called ``<output>_dim<k>``."""
    shapes = _inferred_shapes(model)
    for out in model.graph.output:
        inferred = shapes.get(out.name)
        if inferred is None:
            continue
        dims = out.type.tensor_type.shape.dim
        if len(dims) != len(inferred):
            continue
        for k, (d, v) in enumerate(zip(dims, inferred)):
            if isinstance(v, int) and v > 0:
                d.Clear()
                d.dim_value = v
            elif isinstance(v, str) and not v.startswith("unk__"):
                d.Clear()
                d.dim_param = v
            elif not d.HasField("dim_value"):
                d.Clear()
                d.dim_param = f"{out.name}_dim{k}"
