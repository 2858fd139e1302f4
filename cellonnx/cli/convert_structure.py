"""`cellonnx convert SRC DST --to-model module:factory` / `--like TARGET`: a checkpoint of one code base
rewritten in another's names and layouts by structural matching (cellonnx.converters.structure), with the
mapping table printed, optionally saved (--save-mapping) or taken from a file (--mapping), and a check that
runs both networks on one input when both can run."""
from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.cli import CommandError
from cellonnx.converters import write
from cellonnx.converters.structure import apply_mapping, is_ignored, load_mapping, save_mapping

VERIFY_RTOL = 1e-4  # of the outputs' scale (at least 1): float32 networks computing the same thing


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--to-model", metavar="MODULE:FACTORY",
                   help="match by structure into this network (a Cell or Gluon block; FACTORY is called "
                        "with no arguments) and write DST in its names and layouts")
    p.add_argument("--like", metavar="TARGET",
                   help="match by structure into the tensors of TARGET (a checkpoint, or an ONNX model: "
                        "graph order and node kinds) and write DST in its names, layouts and order")
    p.add_argument("--from-model", metavar="MODULE:FACTORY",
                   help="the network SRC was saved from (its names), so that --to-model / --like TARGET.onnx "
                        "can be checked against it on one input")
    p.add_argument("--mapping", metavar="JSON",
                   help="a mapping file (from --save-mapping, maybe edited) to reuse; the layers it names "
                        "are taken from it, the rest matched")
    p.add_argument("--save-mapping", metavar="JSON",
                   help="write the mapping table (target <- source, shapes, rule)")
    p.add_argument("--example-shape", action="append", default=[], metavar="D0,D1,...",
                   help="an input shape of the networks (repeat per input): walks --to-model in execution "
                        "order and feeds the check (default: the ONNX model's input shapes, batch 2)")
    p.add_argument("--no-verify", action="store_true", help="skip running the two networks")


def wanted(args: argparse.Namespace) -> bool:
    return bool(args.to_model or args.like)


def run(args: argparse.Namespace) -> int:
    from cellonnx.checkpoint_mapping import match_orders, source_entries, target_orders

    if args.to_model and args.like:
        raise CommandError("give one of --to-model and --like")
    if args.map or args.layers or args.mxnet_export:
        raise CommandError("--map, --layers and --mxnet-export rename by name; with --to-model / --like the "
                           "names come from the target")
    mapping = load_mapping(args.mapping) if args.mapping else None
    entries, tensors = source_entries(args.src, args.src_format)
    shapes = [_shape(s) for s in args.example_shape]
    net, like = None, None
    if args.to_model:
        net = _factory(args.to_model)
        inputs = [_example(s, i) for i, s in enumerate(shapes)] or None
        orders = target_orders(net, inputs)
        label = args.to_model
        params = {p.name: p for _, p in net.parameters_and_names()}
        target_shapes = {n: tuple(p.shape) for n, p in params.items()}
    else:
        like_entries, like = source_entries(args.like)
        orders = [("file order", like_entries)]
        label = args.like
        target_shapes = {n: tuple(np.shape(v)) for n, v in like.items()}
    table, dropped, how = match_orders(entries, orders, mapping, source_label=args.src, target_label=label)
    values = apply_mapping(table, tensors, target_shapes)
    if net is not None:
        ignored = (mapping or {}).get("ignore_target", [])
        missing = [n for n in params if n not in values and not is_ignored(n, ignored)]
        if missing:
            raise CommandError(f"the mapping gives no value to {', '.join(missing)}")
        out = {}
        for name, p in params.items():
            if name in values:
                p.set_data(values[name].astype(np.dtype(p.asnumpy().dtype), copy=False))
            out[name] = p.asnumpy()
    else:
        assert like is not None
        out = {}
        for name, value in like.items():  # the target's order; its bookkeeping tensors kept as they are
            out[name] = values[name].astype(np.asarray(value).dtype, copy=False) if name in values else value
    for e in table:
        print(e.line())
    if dropped:
        print(f"dropped {len(dropped)} source tensors without a counterpart by design: {', '.join(dropped)}")
    print(f"matched {len(table)} tensors by structure ({how})")
    if args.save_mapping:
        save_mapping(args.save_mapping, table, source=args.src, target=label, dropped=dropped)
        print(f"wrote mapping {args.save_mapping}")
    Path(args.dst).parent.mkdir(parents=True, exist_ok=True)
    if args.like and _is_onnx(args.like) and _has_graph(args.like) and \
            (args.dst_format or Path(args.dst).suffix.lower().lstrip(".")) == "onnx":
        _write_model_like(args.like, out, args.dst)  # the target's graph with the new weights: a model to run
    else:
        write(args.dst, out, args.dst_format or None)
    print(f"wrote {args.dst}: {len(out)} tensors, {sum(np.asarray(a).nbytes for a in out.values())} bytes")
    if not args.no_verify:
        _verify(args, net, out, shapes)
    return 0


def _verify(args: argparse.Namespace, net: Any, out: dict[str, Any], shapes: list[tuple[int, ...]]) -> None:
    source = _source_runner(args)
    target = _target_runner(args, net, out)
    if source is None or target is None:
        why = ("no runnable source network (SRC is not an ONNX model; --from-model names one)"
               if source is None else
               "no runnable target network (--like names a checkpoint, not an ONNX model)")
        print(f"verify: skipped, {why}")
        return
    if not shapes:
        shapes = _onnx_shapes(args.src if _is_onnx(args.src) else args.like)
    if not shapes:
        print("verify: skipped, no input shape (--example-shape)")
        return
    inputs = [_example(s, i) for i, s in enumerate(shapes)]
    want, got = source(inputs), target(inputs)
    if len(want) != len(got):
        raise CommandError(f"verify: the source network gives {len(want)} outputs, the target {len(got)}")
    for i, (w, g) in enumerate(zip(want, got)):
        w, g = np.asarray(w, np.float64), np.asarray(g, np.float64)
        if w.shape != g.shape:
            raise CommandError(f"verify: output {i} has shape {g.shape} in the target, {w.shape} in the "
                               "source")
        scale = max(1.0, float(np.abs(w).max(initial=0.0)))
        diff = float(np.abs(w - g).max(initial=0.0))
        status = "ok" if diff <= VERIFY_RTOL * scale else "DIFFERENT"
        print(f"verify: output {i} {tuple(w.shape)}: max |difference| {diff:.3g} (scale {scale:.3g}): "
              f"{status}")
        if status != "ok":
            raise CommandError(f"verify: output {i} differs by {diff:.3g} (more than {VERIFY_RTOL:g} of its "
                               f"scale {scale:.3g}); the mapping pairs layers that do not compute the same "
                               "thing")


def _source_runner(args: argparse.Namespace) -> Any:
    if args.from_model:
        from cellonnx.checkpoint_mapping import load_checkpoint_into

        net = _factory(args.from_model)
        load_checkpoint_into(net, args.src, strict=True, format=args.src_format)
        return _cell_runner(net)
    if _is_onnx(args.src) and _has_graph(args.src):
        return _onnx_runner(args.src, None)
    return None


def _target_runner(args: argparse.Namespace, net: Any, out: dict[str, Any]) -> Any:
    if net is not None:
        return _cell_runner(net)
    if _is_onnx(args.like) and _has_graph(args.like):
        return _onnx_runner(args.like, out)
    return None


def _cell_runner(net: Any) -> Any:
    from cellonnx import Tensor
    from cellonnx.graph.trace import flatten_outputs

    def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
        net.set_train(False)
        return [t.asnumpy() for t in flatten_outputs(net(*[Tensor(x) for x in inputs]))]
    return run


def _onnx_runner(path: str, weights: dict[str, Any] | None) -> Any:
    import onnxruntime as ort

    from cellonnx.converters import replace_initializers
    from cellonnx.converters.onnx_format import load_model

    model = load_model(path)
    if weights is not None:
        replace_initializers(model, {k: v for k, v in weights.items()
                                     if k in {i.name for i in model.graph.initializer}}, strict=False)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]

    def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
        return session.run(None, dict(zip(names, inputs)))
    return run


def _write_model_like(like: str, weights: dict[str, Any], dst: str) -> None:
    from cellonnx.converters import replace_initializers
    from cellonnx.converters.onnx_format import load_model, save_model

    model = load_model(like)
    replace_initializers(model, weights, strict=False)
    save_model(model, dst)


def _is_onnx(path: str | None) -> bool:
    return bool(path) and str(path).lower().endswith(".onnx")


def _has_graph(path: str) -> bool:
    from cellonnx.converters.onnx_format import load_model

    return bool(load_model(path).graph.node)


def _onnx_shapes(path: str | None) -> list[tuple[int, ...]]:
    if not _is_onnx(path):
        return []
    from cellonnx.converters.onnx_format import load_model

    graph = load_model(path).graph
    inits = {i.name for i in graph.initializer}
    shapes = []
    for value in graph.input:
        if value.name in inits:
            continue
        dims = value.type.tensor_type.shape.dim
        shapes.append(tuple(d.dim_value if d.dim_value > 0 else 2 for d in dims))
    return shapes


def _shape(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(d) for d in text.split("=")[-1].split(","))
    except ValueError:
        raise CommandError(f"--example-shape wants D0,D1,... (e.g. 2,3,224,224), got {text!r}") from None


def _example(shape: tuple[int, ...], index: int) -> np.ndarray:
    return np.random.default_rng(index).uniform(-1.0, 1.0, shape).astype(np.float32)


def _factory(spec: str) -> Any:
    """The network `module:factory` names (a callable called with no arguments, or an object)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise CommandError(f"--to-model / --from-model want MODULE:FACTORY (e.g. mypkg.nets:resnet18), "
                           f"got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CommandError(f"{spec}: cannot import {module_name} ({exc})") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise CommandError(f"{spec}: {module_name} has no attribute {attr!r}")
        obj = getattr(obj, part)
    from cellonnx.nn import Cell

    net = obj if isinstance(obj, Cell) else obj()
    if not isinstance(net, Cell):
        raise CommandError(f"{spec}: expected a Cell (or Gluon block), got {type(net).__name__}")
    net.set_train(False)
    return net

