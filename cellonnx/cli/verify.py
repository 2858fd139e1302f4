"""`cellonnx verify FILE_OR_MODEL`: onnxruntime against eager, with the VerifyReport printed.

For a model (zoo name or module.py:ClassName) the network is traced and its graph run (cellonnx.verify).
For an exported .onnx file the file itself is run, against the eager network rebuilt from the file's
``cell_class`` metadata (or ``--model``) with the file's initializers loaded as its parameters. Exit status:
0 passed, 1 mismatch, 2 bad input.
"""
from __future__ import annotations

import argparse
import importlib
import os
from typing import Any

import numpy as np

from cellonnx.cli import CommandError, add_device_argument, device_target
from cellonnx.cli.export import (
    add_network_arguments,
    build_network,
    declare_inputs,
    example_inputs,
    load_checkpoint,
)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("verify", help="compare onnxruntime with eager execution",
                              description="Run a network's ONNX graph in onnxruntime and eagerly, and report "
                                          "the max abs / rel error per output, the first diverging node (by "
                                          "cell scope) on a mismatch, and dims baked in as constants. Exit 0 "
                                          "when they agree, 1 on a mismatch, 2 on bad input.")
    p.add_argument("target", metavar="FILE_OR_MODEL",
                   help="an exported .onnx file, a zoo model name, or module.py:ClassName")
    add_network_arguments(p)
    p.add_argument("--model", metavar="MODEL", help="for a FILE: the network to compare with (default: the "
                                                    "file's cell_class metadata)")
    p.add_argument("--opset", type=int, default=None, metavar="N",
                   help="ONNX opset to trace at (default: 18)")
    p.add_argument("--rtol", type=float, default=1e-4,
                   help="tolerance relative to each element (default: 1e-4)")
    p.add_argument("--scale-rtol", type=float, default=1e-5,
                   help="tolerance relative to the output's scale, its largest magnitude (default: 1e-5)")
    p.add_argument("--atol", type=float, default=0.0, help="absolute tolerance (default: 0)")
    add_device_argument(p, "onnxruntime execution provider")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cellonnx.graph.runtime import DeviceError

    try:
        if args.target.endswith(".onnx") or os.path.isfile(args.target):
            header, report = _verify_file(args)
        else:
            header, report = _verify_model(args)
    except (CommandError, DeviceError) as exc:
        raise CommandError(str(exc)) from None
    print(header)
    print(report)
    return 0 if report.passed else 1


def _verify_model(args: argparse.Namespace) -> tuple[str, Any]:
    import cellonnx

    net, label = build_network(args.target, args.model_args)
    if args.checkpoint:
        print(load_checkpoint(net, args.checkpoint))
    inputs = example_inputs(args, args.target)
    declare_inputs(net, inputs, args.dynamic_batch)
    try:
        report = cellonnx.verify(net, *inputs, rtol=args.rtol, atol=args.atol, scale_rtol=args.scale_rtol,
                                 opset=args.opset, device_target=device_target(args.device))
    except Exception as exc:  # tracing runs the user's construct: any failure there is reported in one line
        raise CommandError(f"{label}: {type(exc).__name__}: {exc}") from None
    shapes = ", ".join(f"{t.dtype}{list(t.shape)}" for t in inputs)
    return f"verify {label} on {shapes} ({args.device.upper()}, {_tolerance(args)})", report


def _tolerance(args: argparse.Namespace) -> str:
    return f"rtol {args.rtol:g}, scale_rtol {args.scale_rtol:g}, atol {args.atol:g}"


def _verify_file(args: argparse.Namespace) -> tuple[str, Any]:
    from cellonnx.converters import CheckpointError
    from cellonnx.converters.onnx_format import load_model, tensor_to_array
    from cellonnx.graph import verify as V
    from cellonnx.graph.runtime import Session

    if not os.path.isfile(args.target):
        raise CommandError(f"{args.target}: no such file")
    try:
        model = load_model(args.target, load_external=False)
    except CheckpointError as exc:
        raise CommandError(str(exc)) from None
    meta = {p.key: p.value for p in model.metadata_props}
    net, label = _network_for_file(args, meta)
    loaded = _load_initializers(net, model, args.target, tensor_to_array)
    inputs, dynamic = _file_inputs(args, model)
    try:
        sess = Session(args.target, device_target(args.device))
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    feeds = dict(zip(sess.input_names, (t.asnumpy() for t in inputs)))
    try:
        eager = V.eager_outputs(net, inputs)
        got = sess.run(feeds)
    except Exception as exc:  # the network or onnxruntime rejects the inputs: bad input, one line
        raise CommandError(f"{args.target}: {type(exc).__name__}: {str(exc).splitlines()[0]}") from None
    if len(got) != len(eager):
        raise CommandError(f"{args.target} has {len(got)} outputs, {label} returns {len(eager)}")
    errors = V._compare(sess.output_names, got, eager, args.rtol, args.atol, args.scale_rtol)
    report = V.VerifyReport(errors, all(e.ok for e in errors))
    if not report.passed:
        report.numerical = [V._numerical_note(e, "") for e in errors if not e.ok and e.shape_ok]
        opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
        try:
            report.first_divergence = V.first_divergence(net, inputs, opset, args.rtol, args.atol,
                                                         device_target(args.device), args.scale_rtol)
        except Exception as exc:  # a re-trace that fails only loses the pointer, not the verdict
            report.first_divergence = f"(not found: {type(exc).__name__}: {exc})"
    if dynamic:
        ok = {e.name for e in errors if e.ok}
        for sizes, other in _other_sizes(inputs, dynamic):
            found = V._check_other_size(
                sess.run, dict(zip(sess.input_names, (t.asnumpy() for t in other))),
                lambda other=other: V.eager_outputs(net, other), sess.output_names, ok,
                sizes, args.rtol, args.atol, args.scale_rtol)
            report.baked_dims += found.baked
            report.numerical += found.numerical
            report.notes += found.notes
            if found.baked:
                break
        report.passed = report.passed and not report.baked_dims and not report.numerical
    shapes = ", ".join(f"{t.dtype}{list(t.shape)}" for t in inputs)
    header = (f"verify {args.target} against {label} (eager, {loaded} parameters from the file) on {shapes} "
              f"({args.device}, {_tolerance(args)})")
    return header, report


def _network_for_file(args: argparse.Namespace, meta: dict[str, str]) -> tuple[Any, str]:
    if args.model:
        return build_network(args.model, args.model_args)
    if meta.get("cli_model"):  # written by `cellonnx export`: the same model and options
        spec = meta["cli_model"]
        source = spec.rpartition(":")[0]
        if source.endswith(".py") and not os.path.isfile(source):
            raise CommandError(f"{args.target} was exported from {spec}, which is not here; "
                               "give --model MODEL")
        return build_network(spec, args.model_args or meta.get("cli_model_args") or None)
    cls_path = meta.get("cell_class")
    if not cls_path:
        raise CommandError(f"{args.target} has no cell_class metadata (not written by cellonnx.export?); "
                           "give --model MODEL")
    module_name, _, cls_name = cls_path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
    except (ImportError, AttributeError):
        raise CommandError(f"{args.target} was exported from {cls_path}, which cannot be imported here; give "
                           "--model MODEL (a zoo name or module.py:ClassName)") from None
    from cellonnx.cli.export import _json_kwargs

    try:
        net = cls(**_json_kwargs(args.model_args))
    except TypeError as exc:
        raise CommandError(f"{args.target}: cannot build {cls_path}() ({exc}); give --model MODEL (a zoo "
                           "name or module.py:ClassName) and its --model-args") from None
    net.set_train(False)
    return net, cls_name


def _load_initializers(net: Any, model: Any, path: str, to_array: Any) -> int:
    """Set every parameter the file holds (by name) from its initializer; shapes must agree."""
    from pathlib import Path

    inits = {t.name: t for t in model.graph.initializer}
    count = 0
    for _, p in net.parameters_and_names():
        init = inits.get(p.name)
        if init is None:
            continue  # a parameter the inference graph does not use
        value = np.asarray(to_array(Path(path), init))
        if tuple(value.shape) != tuple(p.shape):
            raise CommandError(f"{path}: initializer {p.name!r} has shape {tuple(value.shape)}, the "
                               f"network's parameter {tuple(p.shape)}; give --model / --model-args for the "
                               "exported network")
        p.set_data(np.array(value, dtype=p.asnumpy().dtype, copy=True))
        count += 1
    if not count and inits:
        raise CommandError(f"{path}: none of its initializers is a parameter of {type(net).__name__}")
    return count


def _file_inputs(args: argparse.Namespace, model: Any) -> tuple[list[Any], list[list[int]]]:
    """Inputs for the file's graph inputs (--input-shape, else the declared dims with 2 for dynamic ones),
    and for each input the axes that are dynamic."""
    from cellonnx import Tensor, dtypes
    from cellonnx.cli.export import _parse_shape

    graph_inputs = [i for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    given = [_parse_shape(s) for s in (args.input_shape or [])]
    if given and len(given) != len(graph_inputs):
        raise CommandError(f"{len(given)} --input-shape for the file's {len(graph_inputs)} inputs")
    rng = np.random.default_rng(args.seed)
    inputs, dynamic = [], []
    for k, vi in enumerate(graph_inputs):
        dims = vi.type.tensor_type.shape.dim
        axes = [a for a, d in enumerate(dims) if not d.HasField("dim_value")]
        shape = given[k] if given else tuple(d.dim_value if d.HasField("dim_value") else 2 for d in dims)
        fixed = [(d.dim_value, s) for d, s in zip(dims, shape) if d.HasField("dim_value")]
        if len(shape) != len(dims) or any(d != s for d, s in fixed):
            raise CommandError(f"input {vi.name}: --input-shape {shape} does not fit the file's "
                               f"{[d.dim_param or d.dim_value for d in dims]}")
        dt = dtypes.from_onnx(vi.type.tensor_type.elem_type)
        if dt.is_floating_point:
            arr = rng.standard_normal(shape).astype(dt.np_dtype)
        else:
            arr = rng.integers(0, 2 if dt == dtypes.bool_ else 10, shape).astype(dt.np_dtype)
        inputs.append(Tensor(arr))
        dynamic.append(axes)
    return inputs, dynamic if any(dynamic) else []


def _other_sizes(inputs: list[Any], dynamic: list[list[int]]) -> list[tuple[str, list[Any]]]:
    """The inputs with every dynamic axis one and four longer (the example's data repeated)."""
    from cellonnx import Tensor
    from cellonnx.graph import verify as V

    out = []
    for extra in (1, 4):
        other, parts = [], []
        for k, (t, axes) in enumerate(zip(inputs, dynamic)):
            shape = [n + extra if a in axes else n for a, n in enumerate(t.asnumpy().shape)]
            parts += [f"input {k} dim {a} = {shape[a]}" for a in axes]
            other.append(Tensor(V.grow(t.asnumpy(), shape)))
        out.append((", ".join(parts), other))
    return out
