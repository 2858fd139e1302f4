"""mxnet.visualization (also ``mx.viz``): ``print_summary`` prints a symbol's layers as MXNet does (type,
output shape, parameter count, previous layer); ``plot_network`` draws the graph with graphviz (when the
``graphviz`` package is installed)."""
from __future__ import annotations

import copy
import json
import re
import warnings
from typing import Any

from cellonnx.gluon.symbol.symbol import Symbol

__all__ = ["plot_network", "print_summary"]

_POSITIONS = (0.44, 0.64, 0.74, 1.0)
_WEIGHT_LIKE = ("_weight", "_bias", "_beta", "_gamma", "_moving_var", "_moving_mean", "_running_var",
                "_running_mean")
_COLORS = ("#8dd3c7", "#fb8072", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69", "#fccde5")


def _str2tuple(string: str) -> list[str]:
    return re.findall(r"\d+", string)


def _shape_dict(symbol: Any, shape: dict | None) -> dict[str, tuple] | None:
    if shape is None:
        return None
    internals = symbol.get_internals()
    _, out_shapes, _ = internals.infer_shape(**shape)
    if out_shapes is None:
        raise ValueError("Input shape is incomplete")
    return dict(zip(internals.list_outputs(), out_shapes))


def _row(fields: list[Any], positions: list[int]) -> str:
    line = ""
    for field, end in zip(fields, positions):
        line = (line + str(field))[:end]
        line += " " * (end - len(line))
    return line


def _layer_params(node: dict, pre_filter: int, shapes: dict | None) -> int:
    op, attrs = node["op"], node.get("attrs", {})
    if op == "Convolution":
        count = pre_filter * int(attrs["num_filter"]) // int(attrs.get("num_group", "1"))
        for k in _str2tuple(attrs["kernel"]):
            count *= int(k)
        return count if attrs.get("no_bias") == "True" else count + int(attrs["num_filter"])
    if op == "FullyConnected":
        extra = 0 if attrs.get("no_bias") == "True" else 1
        return (pre_filter + extra) * int(attrs["num_hidden"])
    if op == "BatchNorm":
        return int(shapes[node["name"] + "_output"][1]) * 2 if shapes is not None else 0
    if op == "Embedding":
        return int(attrs["input_dim"]) * int(attrs["output_dim"])
    return 0


def print_summary(symbol: Any, shape: dict | None = None, line_length: int = 120,
                  positions: Any = _POSITIONS) -> None:
    """Print the layers of ``symbol``: name and type, output shape (given the input ``shape`` dict),
    parameter count and the layers feeding it, then the total parameter count.

    Raises:
        TypeError: ``symbol`` is not a Symbol.
        ValueError: ``shape`` does not determine every shape.
    """
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be Symbol")
    shapes = _shape_dict(symbol, shape)
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    heads = set(conf["heads"][0])  # MXNet reads the first head entry's numbers as the heads
    positions = list(positions)
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    print("_" * line_length)
    print(_row(["Layer (type)", "Output Shape", "Param #", "Previous Layer"], positions))
    print("=" * line_length)
    total = 0
    for i, node in enumerate(nodes):
        op = node["op"]
        if op == "null" and i > 0:
            continue
        out_shape: Any = []
        if (op != "null" or i in heads) and shapes is not None:
            key = node["name"] + "_output" if op != "null" else node["name"]
            out_shape = shapes[key][1:] if key in shapes else []
        previous, pre_filter = [], 0
        if op != "null":
            for item in node["inputs"]:
                source = nodes[item[0]]
                if source["op"] != "null" or item[0] in heads:
                    previous.append(source["name"])
                    if shapes is not None:
                        key = source["name"] + "_output" if source["op"] != "null" else source["name"]
                        if key in shapes:
                            pre_filter += int(shapes[key][1:][0])
        params = _layer_params(node, pre_filter, shapes)
        total += params
        print(_row([f"{node['name']}({op})", "x".join(str(x) for x in out_shape), params,
                    previous[0] if previous else ""], positions))
        for name in previous[1:]:
            print(_row(["", "", "", name], positions))
        print(("=" if i == len(nodes) - 1 else "_") * line_length)
    print(f"Total params: {total}")
    print("_" * line_length)


def _node_style(node: dict, base: dict[str, str]) -> tuple[str, dict[str, str]]:
    op, attrs, attr = node["op"], node.get("attrs", {}), copy.deepcopy(base)
    label = node["name"]
    if op == "null":
        attr["shape"], attr["fillcolor"] = "oval", _COLORS[0]
    elif op == "Convolution":
        stride = "x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"
        label = f"Convolution\n{'x'.join(_str2tuple(attrs['kernel']))}/{stride}, {attrs['num_filter']}"
        attr["fillcolor"] = _COLORS[1]
    elif op == "FullyConnected":
        label, attr["fillcolor"] = f"FullyConnected\n{attrs['num_hidden']}", _COLORS[1]
    elif op == "BatchNorm":
        attr["fillcolor"] = _COLORS[3]
    elif op in ("Activation", "LeakyReLU"):
        act = attrs["act_type"] if op == "Activation" else attrs.get("act_type", "Leaky")
        label, attr["fillcolor"] = f"{op}\n{act}", _COLORS[2]
    elif op == "Pooling":
        kernel = "x".join(_str2tuple(attrs["kernel"])) if "kernel" in attrs else "[]"
        stride = "x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"
        label, attr["fillcolor"] = f"Pooling\n{attrs['pool_type']}, {kernel}/{stride}", _COLORS[4]
    elif op in ("Concat", "Flatten", "Reshape"):
        attr["fillcolor"] = _COLORS[5]
    elif op == "Softmax":
        attr["fillcolor"] = _COLORS[6]
    else:
        attr["fillcolor"] = _COLORS[7]
        if op == "Custom":
            label = attrs["op_type"]
    return label, attr


def plot_network(symbol: Any, title: str = "plot", save_format: str = "pdf", shape: dict | None = None,
                 dtype: dict | None = None, node_attrs: dict | None = None, hide_weights: bool = True) -> Any:
    """The graph of ``symbol`` as a ``graphviz.Digraph`` (layers as boxes, inputs as ovals, edges labelled
    with shapes and dtypes when given).

    Raises:
        ImportError: the ``graphviz`` package is not installed.
    """
    try:
        from graphviz import Digraph
    except ImportError:
        raise ImportError("Draw network requires graphviz library") from None
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be a Symbol")
    shapes = _shape_dict(symbol, shape)
    types = None
    if dtype is not None:
        internals = symbol.get_internals()
        _, out_types, _ = internals.infer_type(**dtype)
        if out_types is None:
            raise ValueError("Input type is incomplete")
        types = dict(zip(internals.list_outputs(), out_types))
    nodes = json.loads(symbol.tojson())["nodes"]
    names = [n["name"] for n in nodes]
    if len(names) != len(set(names)):
        repeated = sorted({n for n in names if names.count(n) > 1})
        warnings.warn("There are multiple variables with the same name in your graph, this may result in "
                      "cyclic graph. Repeated names: " + ",".join(repeated), RuntimeWarning, stacklevel=2)
    base = {"shape": "box", "fixedsize": "true", "width": "1.3", "height": "0.8034", "style": "filled",
            **(node_attrs or {})}
    dot = Digraph(name=title, format=save_format)
    hidden = set()
    for node in nodes:
        if node["op"] == "null" and node["name"].endswith(_WEIGHT_LIKE):
            if hide_weights:
                hidden.add(node["name"])
            continue
        label, attr = _node_style(node, base)
        dot.node(name=node["name"], label=label, **attr)
    for node in nodes:
        if node["op"] == "null":
            continue
        inputs = node["inputs"][:1] if node["op"] == "_contrib_BilinearResize2D" else node["inputs"]
        for item in inputs:
            source = nodes[item[0]]
            if source["name"] in hidden:
                continue
            attr = {"dir": "back", "arrowtail": "open", "label": ""}
            key = source["name"]
            if source["op"] != "null":
                key += "_output"
                if "num_outputs" in source.get("attrs", {}):
                    key += str(int(source["attrs"]["num_outputs"]) - 1)
            if shapes is not None:
                attr["label"] = "x".join(str(x) for x in shapes[key][1:])
            if types is not None:
                attr["label"] += "(" + types[key].__name__ + ")"
            dot.edge(tail_name=node["name"], head_name=source["name"], **attr)
    return dot
