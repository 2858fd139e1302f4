"""`cellonnx predict MODEL.onnx INPUT`: run an ONNX model in onnxruntime on a .npy array or an image
(.png, .jpg, .bmp ..., read by Pillow) and print the top classes. An image is prepared as the model's metadata
says (the digits models written by `cellonnx quickstart` / `cellonnx train` store their preprocessing);
otherwise it is scaled to [0, 1]."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.cli import CommandError, add_device_argument, device_target


def register(sub: Any) -> None:
    p = sub.add_parser("predict", help="run an ONNX model on a .npy array or an image", description=__doc__)
    p.add_argument("model", help="the .onnx file")
    p.add_argument("input", help="a .npy array (one sample or a batch) or an image file (.png, .jpg ...)")
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


def _image_input(path: Path, shape: list, meta: dict) -> np.ndarray:
    """An image file read by Pillow as grey levels, resized to the model's input (nearest neighbour for a
    whole-number upscale, as the digits models were trained, bilinear otherwise) and prepared as the model's
    metadata says."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as img:
            img.load()
            grey_img = img.convert("L")
    except (UnidentifiedImageError, OSError) as exc:
        raise CommandError(f"{path}: not an image Pillow can read ({exc})") from None
    h, w = (d if isinstance(d, int) else None for d in shape[-2:])
    if h and w and grey_img.size != (w, h):
        whole = h % grey_img.height == 0 and w % grey_img.width == 0
        grey_img = grey_img.resize((w, h), Image.Resampling.NEAREST if whole else Image.Resampling.BILINEAR)
    x = np.asarray(grey_img, dtype=np.float32) / 255.0
    prep = meta.get("preprocess")
    if prep:
        info = json.loads(prep)
        if info.get("ink") == "high" and x.mean() > 0.5:  # dark digit on a light page: invert to ink-high
            x = 1.0 - x
        x = (x - info["mean"]) / info["std"]
    return x[None, None].astype(np.float32)


def _image_suffixes() -> set[str]:
    from PIL import Image

    return set(Image.registered_extensions())


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
    elif in_path.suffix.lower() in _image_suffixes():
        x = _image_input(in_path, dims, meta)
    else:
        raise CommandError(f"{in_path}: give a .npy array or an image (.png, .jpg, .bmp ...)")
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
