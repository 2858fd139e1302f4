"""`cellonnx export MODEL --input-shape 1,1,32,32`: trace a network into an ONNX file.

MODEL is a model-zoo name (``cellonnx.models.list_models()``) or ``path/to/module.py:ClassName`` (a Cell
class built with ``--model-args``). The helpers that build a network and its example inputs from the command
line are shared with `cellonnx verify`.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.cli import CommandError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("export", help="export a network to ONNX",
                              description="Trace a network's construct into an ONNX graph (the graph "
                                          "compile() runs) and write it. MODEL is a model-zoo name or "
                                          "path/to/module.py:ClassName.")
    p.add_argument("model", metavar="MODEL",
                   help="zoo model name (e.g. lenet5, resnet18) or module.py:ClassName")
    add_network_arguments(p)
    p.add_argument("--opset", type=int, default=None, metavar="N", help="ONNX opset, 13..21 (default: 18)")
    p.add_argument("--out", "-o", metavar="FILE.onnx", help="file to write (default: <model>.onnx here)")
    p.add_argument("--external-data", action="store_true",
                   help="keep the weights in FILE.onnx.data beside the model (automatic past ~2 GB)")
    p.set_defaults(func=run)


def add_network_arguments(p: argparse.ArgumentParser) -> None:
    """The options both `export` and `verify` take to build a network and its example inputs."""
    p.add_argument("--input-shape", action="append", metavar="D0,D1,...", default=None,
                   help="shape of one input (repeat for each input of construct); default: the zoo model's "
                        "input at batch 1")
    p.add_argument("--input-dtype", action="append", metavar="DTYPE", default=None,
                   help="dtype of each input (float32, int32, ...); default: the zoo model's, else float32")
    p.add_argument("--dynamic-batch", action="store_true",
                   help="make the leading axis of every input dynamic (named 'batch')")
    p.add_argument("--checkpoint", metavar="CKPT",
                   help="load these weights first (.ckpt, .onnx, .safetensors, .pth, .params, .npz)")
    p.add_argument("--model-args", metavar="JSON", default=None,
                   help='keyword arguments for the model factory or class, e.g. \'{"num_classes": 10}\'')
    p.add_argument("--seed", type=int, default=0, help="seed of the random example inputs (default: 0)")


def run(args: argparse.Namespace) -> int:
    from cellonnx.converters.onnx_format import save_model
    from cellonnx.graph.compile import export_model
    from cellonnx.progress import stage, write_progress

    net, label = build_network(args.model, args.model_args)
    if args.checkpoint:
        print(load_checkpoint(net, args.checkpoint))
    inputs = example_inputs(args, args.model)
    declare_inputs(net, inputs, args.dynamic_batch)
    path = args.out or f"{_stem(label)}.onnx"
    path = path if path.endswith(".onnx") else path + ".onnx"
    try:
        with stage(f"tracing {label}"):
            model = export_model(net, *inputs, opset=args.opset)
    except Exception as exc:  # tracing runs the user's construct: any failure there is reported in one line
        raise CommandError(f"{label}: export failed: {type(exc).__name__}: {exc}") from None
    # how to build the network again: `cellonnx verify FILE` reads these
    for key, value in (("cli_model", args.model), ("cli_model_args", args.model_args or "")):
        model.metadata_props.add(key=key, value=value)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create the folder for {path}: {exc.strerror}") from None
    with write_progress(model.ByteSize(), f"writing {os.path.basename(path)}"):
        save_model(model, path, external_data=True if args.external_data else None)
    print(describe(path))
    return 0


# ---------------------------------------------------------------- shared with `cellonnx verify`
def build_network(spec: str, model_args: str | None) -> tuple[Any, str]:
    """The Cell named by ``spec`` (zoo name or module.py:ClassName) in evaluation mode, and a label for it."""
    kwargs = _json_kwargs(model_args)
    path, sep, cls_name = spec.rpartition(":")
    if sep and path.endswith(".py"):
        cls = _class_from_file(path, cls_name)
        try:
            net = cls(**kwargs)
        except TypeError as exc:
            raise CommandError(f"{spec}: cannot build {cls_name}({_kwargs_text(kwargs)}): {exc}") from None
        label = cls_name
    else:
        get_model = _zoo("get_model")
        if get_model is None:
            raise CommandError(f"{spec!r} is not module.py:ClassName and this installation has no model zoo")
        try:
            net = get_model(spec, **kwargs)
        except (ValueError, TypeError) as exc:
            raise CommandError(str(exc)) from None
        label = spec
    if not callable(getattr(net, "construct", None)) or not hasattr(net, "parameters_and_names"):
        raise CommandError(f"{spec}: {type(net).__name__} is not a Cell (no construct or "
                           "parameters_and_names)")
    net.set_train(False)
    return net, label


def load_checkpoint(net: Any, path: str) -> str:
    """Load ``path`` into ``net`` (names mapped from MindSpore / PyTorch / MXNet where the zoo knows how);
    returns a one-line summary."""
    if not os.path.exists(path):
        raise CommandError(f"checkpoint {path!r} not found")
    load_weights = _zoo("load_weights")
    if load_weights is not None:
        try:
            report = load_weights(net, path)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        return f"{path}: " + "; ".join(report.lines())
    from cellonnx.converters import read

    tensors, _ = read(path)
    params = {p.name: p for _, p in net.parameters_and_names()}
    missing = sorted(set(params) - set(tensors))
    if missing:
        raise CommandError(f"{path}: {len(missing)} parameters missing: {', '.join(missing[:8])}")
    for name, p in params.items():
        value = np.asarray(tensors[name])
        if tuple(value.shape) != tuple(p.shape):
            raise CommandError(f"{path}: {name}: expected shape {tuple(p.shape)}, found {tuple(value.shape)}")
        p.set_data(np.array(value, dtype=p.asnumpy().dtype, copy=True))
    return f"{path}: loaded {len(params)} tensors"


def example_inputs(args: argparse.Namespace, spec: str, batch: int | None = None) -> list[Any]:
    """Random example inputs from --input-shape / --input-dtype (or the zoo model's defaults); ``batch``
    overrides the leading dim."""
    from cellonnx import Tensor, dtypes

    shapes = [_parse_shape(s) for s in (args.input_shape or [])]
    zoo_spec = _zoo_spec(spec)
    if not shapes:
        if zoo_spec is None:
            raise CommandError(f"{spec}: give --input-shape (e.g. --input-shape 1,3,32,32)")
        shapes = [(1, *zoo_spec.sample_shape)]
    names = list(args.input_dtype or [])
    if len(names) not in (0, 1, len(shapes)):
        raise CommandError(f"{len(names)} --input-dtype for {len(shapes)} --input-shape")
    default = "int32" if zoo_spec is not None and zoo_spec.input == "tokens" else "float32"
    if len(names) <= 1:
        names = (names or [default]) * len(shapes)
    rng = np.random.default_rng(args.seed)
    inputs = []
    for shape, name in zip(shapes, names):
        try:
            dt = dtypes.dtype(name)
        except (TypeError, ValueError, KeyError):
            raise CommandError(f"unknown --input-dtype {name!r}") from None
        if batch is not None and shape:
            shape = (batch, *shape[1:])
        if dt.is_floating_point:
            arr = rng.standard_normal(shape).astype(dt.np_dtype)
        elif dt == dtypes.bool_:
            arr = rng.integers(0, 2, shape).astype(bool)
        else:
            high = 100 if zoo_spec is None or zoo_spec.input != "tokens" else _vocab(args)
            arr = rng.integers(0, high, shape).astype(dt.np_dtype)
        inputs.append(Tensor(arr))
    return inputs


def declare_inputs(net: Any, inputs: list[Any], dynamic_batch: bool) -> None:
    """--dynamic-batch: declare every input's leading axis dynamic through set_inputs."""
    if not dynamic_batch:
        return
    from cellonnx import Tensor

    if any(not t.shape for t in inputs):
        raise CommandError("--dynamic-batch needs every input to have a leading axis")
    net.set_inputs(*[Tensor(shape=(None, *t.shape[1:]), dtype=t.dtype) for t in inputs])


def describe(path: str) -> str:
    """What was written: size, opset, inputs / outputs with their dims, node types."""
    import onnx

    model = onnx.load(path, load_external_data=False)
    size = os.path.getsize(path)
    from cellonnx.converters.onnx_format import data_files

    extra = "".join(f" + {f.stat().st_size} bytes in {f.name}" for f in data_files(path))
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), "?")
    lines = [(f"wrote {path}: {size} bytes{extra}, opset {opset}, {len(model.graph.node)} nodes, "
              f"{len(model.graph.initializer)} initializers")]
    for kind, values in (("input", model.graph.input), ("output", model.graph.output)):
        for v in values:
            lines.append(f"  {kind} {v.name}: {_type_text(v)}")
    counts = collections.Counter(n.op_type for n in model.graph.node)
    lines.append("  nodes: " + ", ".join(f"{op} x{n}" if n > 1 else op for op, n in counts.items()))
    return "\n".join(lines)


# ---------------------------------------------------------------- helpers
def _zoo(name: str) -> Any:
    try:
        import cellonnx.models as zoo
    except ImportError:
        return None
    return getattr(zoo, name, None)


def _zoo_spec(spec: str) -> Any:
    model_spec = _zoo("model_spec")
    if model_spec is None or spec.rpartition(":")[0].endswith(".py"):
        return None
    try:
        return model_spec(spec)
    except ValueError:
        return None


def _vocab(args: argparse.Namespace) -> int:
    kwargs = _json_kwargs(args.model_args)
    return int(kwargs.get("vocab_size", 100))


def _class_from_file(path: str, cls_name: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise CommandError(f"{path}: no such file")
    module_name = f"_cellonnx_cli_{file.stem}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise CommandError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # classes defined there must be picklable / introspectable by name
    sys.path.insert(0, str(file.resolve().parent))  # so it can import its neighbours
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's module: any error there is reported in one line
        raise CommandError(f"{path}: importing it failed: {type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(file.resolve().parent))
    cls = getattr(module, cls_name, None)
    if cls is None:
        found = sorted(n for n, v in vars(module).items() if isinstance(v, type) and hasattr(v, "construct"))
        there = f" (Cells there: {', '.join(found)})" if found else ""
        raise CommandError(f"{path}: no class {cls_name!r}{there}")
    return cls


def _json_kwargs(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--model-args is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise CommandError(f"--model-args must be a JSON object, got {text!r}")
    return value


def _kwargs_text(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in kwargs.items())


def _parse_shape(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.replace("x", ",").split(",")]  # 1,3,32,32 or 1x3x32x32
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        raise CommandError(f"--input-shape {text!r}: expected integers like 1,3,224,224") from None
    if any(d < 1 for d in shape):
        raise CommandError(f"--input-shape {text!r}: dims must be positive")
    return shape


def _stem(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in label.lower())


def _type_text(value: Any) -> str:
    from onnx import TensorProto

    t = value.type.tensor_type
    dims = [d.dim_param or str(d.dim_value) if (d.dim_param or d.HasField("dim_value")) else "?"
            for d in t.shape.dim]
    return f"{TensorProto.DataType.Name(t.elem_type).lower()}[{', '.join(dims)}]"
