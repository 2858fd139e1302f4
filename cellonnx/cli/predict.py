"""`cellonnx predict MODEL.onnx INPUT`: run an ONNX model in onnxruntime on a .npy array or a .png image and
print the top classes. A PNG is prepared as the model's metadata says (the digits models written by
`cellonnx quickstart` / `cellonnx train` store their preprocessing); otherwise it is scaled to [0, 1]."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.cli import CommandError, add_device_argument, device_target


def register(sub: Any) -> None:
    p = sub.add_parser("predict", help="run an ONNX model on a .npy or .png input", description=__doc__)
    p.add_argument("model", help="the .onnx file")
    p.add_argument("input", help="a .npy array (one sample or a batch) or a .png image")
    p.add_argument("--top", type=int, default=3, help="classes to print per sample (default: 3)")
    add_device_argument(p, "where onnxruntime runs the model")
    p.set_defaults(func=run)


def annotate(path: str, preprocess: dict) -> None:
    """Store how inputs were prepared (and the class names) in an exported model's metadata, for predict."""
    import onnx

    from cellonnx.converters.onnx_format import save_model

    model = onnx.load(path)
    entries = (("preprocess", json.dumps(preprocess)), ("classes", json.dumps(preprocess["classes"])))
    for key, value in entries:
        model.metadata_props.add(key=key, value=value)
    save_model(model, path)


def _png_input(path: Path, shape: list, meta: dict) -> np.ndarray:
    from cellonnx.models.png import read_png

    img = read_png(path).astype(np.float32)
    grey = img[..., :3].mean(-1) if img.shape[-1] >= 3 else img[..., 0]
    h, w = (d if isinstance(d, int) else None for d in shape[-2:])
    if h and w and grey.shape != (h, w):
        if h % grey.shape[0] or w % grey.shape[1]:
            raise CommandError(f"{path}: image is {grey.shape[1]}x{grey.shape[0]}, the model takes {w}x{h}")
        grey = grey.repeat(h // grey.shape[0], 0).repeat(w // grey.shape[1], 1)
    x = grey / 255.0
    prep = meta.get("preprocess")
    if prep:
        info = json.loads(prep)
        if info.get("ink") == "high" and x.mean() > 0.5:  # dark digit on a light page: invert to ink-high
            x = 1.0 - x
        x = (x - info["mean"]) / info["std"]
    return x[None, None].astype(np.float32)


def run(args: argparse.Namespace) -> int:
    import onnx

    from cellonnx.graph.runtime import Session

    if args.top < 1:
        raise CommandError(f"--top must be at least 1, got {args.top}")
    model_path, in_path = Path(args.model), Path(args.input)
    for p in (model_path, in_path):
        if not p.is_file():
            raise CommandError(f"{p}: no such file")
    try:
        proto = onnx.load(str(model_path), load_external_data=False)
    except Exception as exc:  # onnx raises DecodeError and others
        raise CommandError(f"{model_path}: not an ONNX model ({exc.__class__.__name__})") from None
    if not proto.graph.node or not proto.graph.input:
        from cellonnx.converters.sniff import sniff

        kind = sniff(model_path)
        what = f"a {kind} checkpoint" if kind and kind != "onnx" else "an ONNX file without a graph to run"
        raise CommandError(f"{model_path}: {what}, not a model; predict runs an exported model "
                           f"(cellonnx export, or quickstart's lenet5.onnx)")
    meta = {p.key: p.value for p in proto.metadata_props}
    graph_in = proto.graph.input[0]
    dims = [d.dim_value if d.HasField("dim_value") else None for d in graph_in.type.tensor_type.shape.dim]
    if in_path.suffix.lower() == ".npy":
        try:
            x = np.load(in_path, allow_pickle=False)
        except ValueError:
            raise CommandError(f"{in_path}: not a NumPy .npy array of numbers") from None
        if x.ndim == len(dims) - 1:
            x = x[None]
    elif in_path.suffix.lower() == ".png":
        x = _png_input(in_path, dims, meta)
    else:
        raise CommandError(f"{in_path}: give a .npy or .png input")
    if x.ndim != len(dims) or any(d is not None and d != s for d, s in zip(dims[1:], x.shape[1:])):
        raise CommandError(f"{in_path}: input shape {x.shape} does not fit the model's input "
                           f"{graph_in.name} {['?' if d is None else d for d in dims]}")
    sess = Session(str(model_path), device_target(args.device))
    expected = sess.inner.get_inputs()[0].type
    if "float" in expected and x.dtype != np.float32:
        x = x.astype(np.float32)
    logits = sess.run({graph_in.name: x})[0]
    classes = json.loads(meta["classes"]) if "classes" in meta else None
    for i, row in enumerate(np.asarray(logits).reshape(len(logits), -1)):
        p = np.exp(row - row.max())
        p /= p.sum()
        top = np.argsort(-p)[:args.top]
        label = ", ".join(f"{classes[k] if classes else k}: {p[k]:.3f}" for k in top)
        print(f"sample {i}: {label}")
    return 0
