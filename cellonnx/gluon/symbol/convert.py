"""An MXNet export (``name-symbol.json`` + ``name-0000.params``) to an ONNX file, without MXNet: the graph is
loaded as a SymbolBlock and traced, so the ONNX model computes what the block computes. The weights are the
model's initializers under their MXNet names and the batch axis of every input is dynamic.

    cellonnx convert resnet-symbol.json resnet.onnx --input-shape data=1,3,224,224
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx

from cellonnx.gluon.symbol.block import SymbolBlock, _declared_dtype, _declared_shape
from cellonnx.gluon.symbol.symbol import load

__all__ = ["convert_symbol", "find_params", "is_symbol_file", "parse_input_shapes"]


def is_symbol_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names an MXNet symbol file (``*-symbol.json``, or a .json whose top level holds
    ``nodes`` and ``heads``)."""
    p = Path(path)
    if p.name.endswith("-symbol.json"):
        return True
    if p.suffix.lower() != ".json" or not p.is_file():
        return False
    with open(p, "rb") as f:
        head = f.read(4096)
    return b'"nodes"' in head


def find_params(symbol_file: str | os.PathLike[str]) -> Path | None:
    """The parameter file beside ``name-symbol.json``: ``name-0000.params`` (the lowest epoch), or
    ``name.params``."""
    p = Path(symbol_file)
    stem = p.name[: -len("-symbol.json")] if p.name.endswith("-symbol.json") else p.stem
    pattern = re.compile(re.escape(stem) + r"-(\d{4,})\.params$")
    found = sorted((int(m.group(1)), c) for c in p.parent.iterdir() if (m := pattern.match(c.name)))
    if found:
        return found[0][1]
    plain = p.parent / f"{stem}.params"
    return plain if plain.exists() else None


def parse_input_shapes(specs: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """``['data=1,3,224,224', ...]`` -> {'data': (1, 3, 224, 224)}."""
    out: dict[str, tuple[int, ...]] = {}
    for spec in specs:
        name, sep, dims = spec.partition("=")
        if not sep:
            name, sep, dims = spec.partition(":")
        try:
            shape = tuple(int(d) for d in dims.replace("x", ",").split(",") if d.strip())
        except ValueError:
            shape = ()
        if not sep or not name or not shape:
            raise ValueError(f"--input-shape wants NAME=D0,D1,... (e.g. data=1,3,224,224), got {spec!r}")
        out[name.strip()] = shape
    return out


def convert_symbol(
    symbol_file: str | os.PathLike[str],
    onnx_file: str | os.PathLike[str],
    params: str | os.PathLike[str] | None = None,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    dynamic_batch: bool = True,
    opset: int | None = None,
) -> onnx.ModelProto:
    """Write the ONNX model of an MXNet export.

    Args:
        symbol_file: the ``name-symbol.json``.
        onnx_file: the .onnx file to write.
        params: the .params file. Default: ``name-0000.params`` beside the symbol file.
        input_shapes: the inputs and their shapes, in call order. Default: the graph's variables absent from
            the parameter file, each with the ``__shape__`` its variable declares.
        dynamic_batch: leave axis 0 of every input dynamic. Default: True.
        opset: the ONNX opset. Default: cellonnx's.

    Returns:
        onnx.ModelProto: the model written (checked by onnx.checker).

    Raises:
        ValueError: no parameter file, an input without a known shape, or a graph the interpreter cannot run
            (its message names the operator, the node and the file).
    """
    from cellonnx.converters import mxnet_format
    from cellonnx.gluon.symbol.export import export_onnx

    symbol = load(symbol_file)
    params_path = Path(params) if params is not None else find_params(symbol_file)
    if params_path is None:
        raise ValueError(
            f"{os.fspath(symbol_file)}: no parameter file beside it (name-0000.params); give --params"
        )
    saved = mxnet_format.read(params_path)[0]
    stored = {k[4:] if k.startswith(("arg:", "aux:")) else k for k in saved}
    variables = {
        n.name: n for n in (symbol.graph.nodes[i] for i in symbol.graph.order(symbol.heads)) if n.is_variable
    }
    shapes = dict(input_shapes or {})
    names = list(shapes) or [n for n in variables if n not in stored]
    if not names:
        raise ValueError(
            f"{os.fspath(symbol_file)}: every variable is in {params_path.name}; name the inputs "
            "with --input-shape NAME=D0,D1,..."
        )
    examples = []
    for name in names:
        node = variables.get(name)
        if node is None:
            raise ValueError(
                f"--input-shape: '{name}' is not a variable of {os.fspath(symbol_file)} (its inputs "
                f"are {[n for n in variables if n not in stored]})"
            )
        shape = shapes.get(name) or _declared_shape(node)
        if shape is None:
            raise ValueError(
                f"{os.fspath(symbol_file)}: the shape of input '{name}' is not declared in the graph; "
                f"give it with --input-shape {name}=D0,D1,..."
            )
        dtype = _declared_dtype(node)
        examples.append(np.zeros(tuple(int(d) for d in shape), dtype=np.dtype(dtype)))
    block = SymbolBlock.imports(symbol_file, names, params_path)
    model = export_onnx(block, examples, [0 if dynamic_batch and e.ndim else None for e in examples], opset)
    onnx.checker.check_model(model, full_check=True)
    Path(onnx_file).parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, os.fspath(onnx_file))
    return model
