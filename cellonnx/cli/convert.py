"""`cellonnx convert SRC DST`: move a checkpoint between formats, optionally renaming for another framework."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cellonnx.cli import CommandError, convert_structure
from cellonnx.converters import FORMATS, LAYER_KINDS, PROFILES, convert_names, read, write
from cellonnx.converters.mapping_infer import infer_description


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("convert", help="convert a checkpoint between formats",
                              description="Convert a checkpoint between ONNX, MindSpore .ckpt, MXNet .params, "
                                          "PyTorch .pt/.pth, safetensors and .npz (format from the extension "
                                          "unless --from/--to say otherwise); with --to-model or --like, "
                                          "into another code base's names and layouts, matched by "
                                          "structure.")
    p.add_argument("src", help="checkpoint to read")
    p.add_argument("dst", help="file to write (written atomically)")
    p.add_argument("--from", dest="src_format", choices=sorted(FORMATS), help="format of SRC")
    p.add_argument("--to", dest="dst_format", choices=sorted(FORMATS), help="format of DST")
    p.add_argument("--map", metavar="FROM:TO", help=f"rename parameters between frameworks, profiles "
                                                    f"{', '.join(PROFILES)} (e.g. torch:mindspore); the layer "
                                                    f"kinds come from --layers, or are read off SRC's names")
    p.add_argument("--layers", metavar="JSON", help=f"layer description for --map: a JSON file "
                                                    f"{{cellonnx_param_name: kind}}, kinds "
                                                    f"{', '.join(sorted(LAYER_KINDS))}")
    p.add_argument("--mxnet-export", action="store_true", help="with --map ...:mxnet, add arg:/aux: prefixes")
    p.add_argument("--crc", action="store_true", help="write a CRC (MindSpore .ckpt, safetensors)")
    p.add_argument("--params", help="an MXNet name-symbol.json SRC converted to ONNX: its .params file "
                                     "(default: name-0000.params beside it)")
    p.add_argument("--input-shape", action="append", default=[], metavar="NAME=D0,D1,...",
                   help="an MXNet symbol SRC: an input and its example shape (repeat for each input; default: "
                        "the variables not in the .params, with their declared shapes)")
    p.add_argument("--static-batch", action="store_true", help="an MXNet symbol SRC: fix the batch axis")
    convert_structure.add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cellonnx.gluon.symbol.convert import is_symbol_file

    if is_symbol_file(args.src):
        return _symbol_to_onnx(args)
    if convert_structure.wanted(args):
        return convert_structure.run(args)
    layers: dict[str, Any] = {}
    if args.map:  # the arguments first, then the (maybe large) file
        src, _, dst = args.map.partition(":")
        if not dst:
            raise CommandError(f"--map wants FROM:TO (e.g. torch:mindspore), got {args.map!r}")
        if args.layers:
            layers = _layers(args.layers)
    tensors, metadata = read(args.src, args.src_format)
    if args.map and not args.layers:
        inferred = infer_description(tensors, src)
        layers = inferred.description
        print(inferred.summary())
    if args.map:
        mapped = convert_names(tensors, layers, src, dst, mxnet_export=args.mxnet_export)
        tensors = mapped.tensors
        if mapped.dropped:
            print(f"dropped {len(mapped.dropped)}: {', '.join(mapped.dropped)}")
    fmt = args.dst_format or None
    Path(args.dst).parent.mkdir(parents=True, exist_ok=True)  # as export does: the output's folder is made
    from cellonnx.progress import write_progress

    total = sum(a.nbytes for a in tensors.values())
    with write_progress(total, f"writing {Path(args.dst).name}"):
        write(args.dst, tensors, fmt, metadata=_portable(metadata), crc_check=args.crc)
    print(f"wrote {args.dst}: {len(tensors)} tensors, {total} bytes")
    return 0


def _symbol_to_onnx(args: argparse.Namespace) -> int:
    """An MXNet export (name-symbol.json + .params) to ONNX, weights as named initializers."""
    from cellonnx.gluon.symbol.convert import convert_symbol, parse_input_shapes

    if (args.dst_format or Path(args.dst).suffix.lower().lstrip(".")) != "onnx":
        raise CommandError(f"{args.src} is an MXNet symbol graph: it converts to .onnx, got {args.dst}")
    from cellonnx.progress import stage

    with stage(f"converting {Path(args.src).name}"):
        model = convert_symbol(args.src, args.dst, args.params, parse_input_shapes(args.input_shape) or None,
                               dynamic_batch=not args.static_batch)
    print(f"wrote {args.dst}: {len(model.graph.node)} nodes, {len(model.graph.initializer)} initializers, "
          f"inputs {', '.join(i.name for i in model.graph.input)}")
    return 0


def _layers(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise CommandError(f"--layers {path}: not JSON ({exc})") from None
    except OSError as exc:
        raise CommandError(f"--layers {path}: {exc.strerror or exc}") from None
    if not isinstance(data, dict):
        raise CommandError(f"--layers {path}: expected a JSON object {{param_name: layer_kind}}")
    return data


def _portable(metadata: dict[str, Any]) -> dict[str, Any]:
    """Metadata every writer accepts: plain str / int / float / bool values, format bookkeeping left out."""
    return {k: v for k, v in metadata.items()
            if isinstance(v, (str, int, float, bool)) and k not in ("named", "ndarray_versions", "crc_num")}
