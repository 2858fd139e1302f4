"""The graph pass behind ``amp.convert_symbol``: MXNet 1.9.1's ReducePrecision over a symbol graph.

The nodes are visited depth-first (inputs before the node, as MXNet does) and copied; on the way
``amp_cast`` / ``amp_multicast`` nodes are inserted:

- an operator to run in float32 (the fp32 list, an excluded node, or a conditional-fp32 operator whose
  attribute has one of the listed values) gets its non-float32 inputs through ``amp_cast`` to float32
  (variables are taken as float32 already; auxiliary inputs are left alone);
- an operator to run in the target type (the lp16 list) gets ``amp_cast`` to the target type on the inputs
  its type inference puts in that type (data and weights; not BatchNorm's float32 parameters, not auxiliary
  states, and not the parameters when ``cast_optional_params`` leaves them to be stored in the target type);
- a widest-type operator whose inputs' types are all known runs in the widest of them (casts where needed),
  otherwise it gets one ``amp_multicast`` over all its inputs;
- any other operator is copied; when its first input's type is known, its outputs' types follow.

A cast node is named ``<input node><_output name>_amp_cast_<dtype>`` and shared by every consumer of the same
entry; an output whose type is not known to be float32 gets a final cast to float32.
"""
from __future__ import annotations

from collections.abc import Iterable

from cellonnx.gluon.symbol.spec import op_spec
from cellonnx.gluon.symbol.symbol import SymNode, _post_order, num_outputs, output_names

__all__ = ["reduce_precision"]

_F32 = "float32"
_BATCH_NORMS = frozenset({"BatchNorm", "BatchNormWithReLU", "BatchNorm_v1", "_contrib_SyncBatchNorm",
                          "CuDNNBatchNorm"})
_INDEX_INPUTS = frozenset({"label", "index", "indices", "sequence_length", "length", "data_lengths",
                           "label_lengths", "condition"})
_DTYPE_OUTPUT = frozenset({"Cast", "cast", "amp_cast"})
# the operators that name their outputs (MXNet's FListOutputNames): a cast on their output is named
# "<node>_output_..." ("_output1", "_loss" ...); on other operators' outputs "<node>_<index>_..."
_NAMED_OUTPUTS = frozenset({
    "Activation", "BatchNorm", "BatchNorm_v1", "BilinearSampler", "CTCLoss", "Concat", "Convolution",
    "Convolution_v1", "Correlation", "Crop", "Custom", "Deconvolution", "Dropout", "FullyConnected",
    "GridGenerator", "GroupNorm", "IdentityAttachKLSparseReg", "InstanceNorm", "L2Normalization", "LRN",
    "LayerNorm", "LeakyReLU", "LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput",
    "MakeLoss", "Pad", "Pooling", "Pooling_v1", "RNN", "ROIPooling", "SVMOutput", "SequenceLast",
    "SequenceMask", "SequenceReverse", "SliceChannel", "SoftmaxActivation", "SoftmaxOutput",
    "SpatialTransformer", "SwapAxis",
    "UpSampling", "elemwise_add", "make_loss", "softmax",
})


def _op(node: SymNode) -> str:
    spec = op_spec(node.op)
    return spec.name if spec is not None else node.op


def _mutable(node: SymNode) -> set[int]:
    spec = op_spec(node.op)
    if spec is None or not spec.aux:
        return set()
    return {p for p, name in enumerate(spec.inputs) if name in spec.aux}


def _suffix(node: SymNode, k: int) -> str:
    """What MXNet puts between a node's name and ``_amp_cast_<dtype>`` for its output ``k``."""
    if node.is_variable:
        return ""
    names = output_names(node)
    if _op(node) in _NAMED_OUTPUTS and k < len(names):
        return "_" + names[k][len(node.name) + 1:]
    return f"_{k}"


def _infer(node: SymNode, in0: str) -> tuple[list[str | None], list[str | None]]:
    """(input types, output types) of ``node`` given only its first input's type, as MXNet's per-operator
    type inference fills them: one type for data and outputs, float32 parameters for the BatchNorms,
    index inputs left open, and the ``dtype`` attribute for the casts."""
    spec = op_spec(node.op)
    names = list(spec.inputs) if spec is not None and spec.variadic is None else []
    op = _op(node)
    n_in, n_out = len(node.inputs), num_outputs(node)
    ins: list[str | None] = [in0] * n_in
    outs: list[str | None] = [in0] * n_out
    for pos in range(n_in):
        if pos < len(names) and names[pos] in _INDEX_INPUTS:
            ins[pos] = None
    if op in _BATCH_NORMS:
        ins = [in0] + [_F32] * (n_in - 1)
        outs = [in0] + [_F32] * (n_out - 1)
    elif op in _DTYPE_OUTPUT:
        outs = [node.attrs.get("dtype", _F32)] * n_out
    elif op == "amp_multicast":
        outs = [None] * n_out
    return ins, outs


def _conditional(node: SymNode, conditional: dict[str, list[tuple[str, list[str]]]]) -> bool:
    for attr, values in conditional.get(node.op, ()):
        if attr in node.attrs and node.attrs[attr] in values:
            return True
    return False


def reduce_precision(outputs: list[tuple[SymNode, int]], target: str, target_ops: Iterable[str],
                     fp32_ops: Iterable[str], widest_ops: Iterable[str],
                     conditional: Iterable[tuple[str, str, list[str]]], excluded: Iterable[str],
                     data_names: Iterable[str], cast_optional_params: bool) -> list[tuple[SymNode, int]]:
    """The output entries of a copy of the graph of ``outputs`` with the mixed precision casts inserted.

    Args:
        outputs: the (node, output index) entries of the float32 graph.
        target: 'float16' or 'bfloat16'.
        target_ops, fp32_ops, widest_ops: operator names run in the target type, in float32, in the widest
            type of their inputs.
        conditional: (operator, attribute, values): the operator runs in float32 when its attribute has one
            of the values.
        excluded: node names kept in float32.
        data_names: the variables that are the network's data (the others are parameters).
        cast_optional_params: leave the parameters of target-type operators uncast (they are to be stored
            in the target type).
    """
    target_ops, fp32_ops, widest_ops = set(target_ops), set(fp32_ops), set(widest_ops)
    excluded, data_names = set(excluded), set(data_names)
    cond: dict[str, list[tuple[str, list[str]]]] = {}
    for op, attr, values in conditional:
        cond.setdefault(op, []).append((attr, list(values)))
    mirror: dict[int, SymNode] = {}
    fp32_map: dict[tuple[int, int], tuple[SymNode, int]] = {}
    low_map: dict[tuple[int, int], tuple[SymNode, int]] = {}

    def mirrored(entry: tuple[SymNode, int]) -> tuple[SymNode, int]:
        return mirror[id(entry[0])], entry[1]

    def cast(entry: tuple[SymNode, int], dtype: str, table: dict) -> tuple[SymNode, int]:
        node, k = entry
        cast_node = SymNode("amp_cast", f"{node.name}{_suffix(node, k)}_amp_cast_{dtype}", {"dtype": dtype},
                            [mirrored(entry)])
        table[(id(node), k)] = (cast_node, 0)
        return cast_node, 0

    def key(entry: tuple[SymNode, int]) -> tuple[int, int]:
        return id(entry[0]), entry[1]

    for node in _post_order(outputs):
        new = SymNode(node.op, node.name, dict(node.attrs), [])
        inputs: list[tuple[SymNode, int]] = []
        mutable = _mutable(node) if not node.is_variable else set()
        outs = [(id(node), k) for k in range(num_outputs(node))]
        if (not node.is_variable and node.op in fp32_ops) or node.name in excluded:
            for k, o in enumerate(outs):
                fp32_map[o] = (new, k)
            for entry in node.inputs:
                if key(entry) in fp32_map:
                    inputs.append(fp32_map[key(entry)])
                elif entry[0].is_variable:
                    inputs.append(mirrored(entry))
                else:
                    inputs.append(cast(entry, _F32, fp32_map))
        elif not node.is_variable and node.op in target_ops:
            in_types, out_types = _infer(node, target)
            for k, o in enumerate(outs):
                if out_types[k] == target:
                    low_map[o] = (new, k)
                elif out_types[k] == _F32:
                    fp32_map[o] = (new, k)
            for pos, entry in enumerate(node.inputs):
                if key(entry) in low_map:
                    inputs.append(low_map[key(entry)])
                elif ((cast_optional_params and entry[0].is_variable and entry[0].name not in data_names)
                      or pos in mutable or in_types[pos] not in (target, None)):
                    inputs.append(mirrored(entry))
                    if cast_optional_params and entry[0].is_variable:
                        low_map[key(entry)] = mirrored(entry)
                else:
                    inputs.append(cast(entry, target, low_map))
        elif not node.is_variable and node.op in widest_ops:
            if not node.inputs:
                raise ValueError(f"Please check the symbol. node name: {node.name}op name {node.op} has no "
                                 "inputs.It is likely that something went wrong during symbolic "
                                 "construction.")
            known = all(key(e) in low_map or key(e) in fp32_map for e in node.inputs)
            if not known:
                first, k0 = node.inputs[0]
                multi = SymNode("amp_multicast", f"{first.name}{_suffix(first, k0)}_amp_multicast",
                                {"num_outputs": str(len(node.inputs))}, [mirrored(e) for e in node.inputs])
                inputs = [(multi, i) for i in range(len(node.inputs))]
            else:
                out_type = _F32 if any(key(e) in fp32_map for e in node.inputs) else target
                table = low_map if out_type == target else fp32_map
                for o_k, o in enumerate(outs):
                    table[o] = (new, o_k)
                for entry in node.inputs:
                    inputs.append(table[key(entry)] if key(entry) in table else cast(entry, out_type, table))
        elif not node.is_variable and _conditional(node, cond) and node.name not in excluded:
            for k, o in enumerate(outs):
                fp32_map[o] = (new, k)
            for pos, entry in enumerate(node.inputs):
                if key(entry) in fp32_map:
                    inputs.append(fp32_map[key(entry)])
                elif pos in mutable:
                    inputs.append(mirrored(entry))
                else:
                    inputs.append(cast(entry, _F32, fp32_map))
        else:
            if node.inputs and (key(node.inputs[0]) in fp32_map or key(node.inputs[0]) in low_map):
                in0 = target if key(node.inputs[0]) in low_map else _F32
                _, out_types = _infer(node, in0)
                for k, o in enumerate(outs):
                    if out_types[k] == target:
                        low_map[o] = (new, k)
                    elif out_types[k] == _F32:
                        fp32_map[o] = (new, k)
            inputs = [mirrored(e) for e in node.inputs]
        new.inputs = inputs
        mirror[id(node)] = new
    result = []
    for entry in outputs:
        if key(entry) in fp32_map:
            result.append(fp32_map[key(entry)])
        else:
            result.append(cast(entry, _F32, fp32_map))
    return result
