"""`cellonnx export-triton MODEL.onnx REPO_DIR`: lay an ONNX file out as a Triton model repository entry."""
from __future__ import annotations

import argparse

from cellonnx.cli import CommandError, add_device_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "export-triton", help="write a Triton model repository entry (config.pbtxt + 1/model.onnx)",
        description="Write REPO_DIR/NAME/config.pbtxt (platform onnxruntime_onnx) and REPO_DIR/NAME/1/model.onnx "
                    "so that `tritonserver --model-repository=REPO_DIR` serves the model.")
    p.add_argument("model", metavar="MODEL.onnx")
    p.add_argument("repo", metavar="REPO_DIR")
    p.add_argument("--name", help="model name (default: the file stem)")
    p.add_argument("--max-batch", type=int, default=None, metavar="N",
                   help="max_batch_size (default: 32 when every input and output has a dynamic first axis, "
                   "else 0)")
    p.add_argument("--instances", type=int, default=1, metavar="K", help="instance_group count (default: 1)")
    add_device_argument(p, "the instance group's kind in Triton (KIND_CPU, KIND_GPU or KIND_AUTO)")
    p.add_argument("--batch-delay-ms", type=float, default=0.0, metavar="T",
                   help="dynamic_batching max_queue_delay (default: 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.max_batch is not None and args.max_batch < 0:
        raise CommandError(f"--max-batch must be >= 0, got {args.max_batch}")
    if args.instances < 1:
        raise CommandError(f"--instances must be >= 1, got {args.instances}")
    if args.batch_delay_ms < 0:
        raise CommandError(f"--batch-delay-ms must be >= 0, got {args.batch_delay_ms}")
    from cellonnx.serve import ModelLoadError, export_model_repository

    try:
        model_dir = export_model_repository(args.model, args.repo, args.name, args.max_batch, args.instances,
                                            args.device, round(args.batch_delay_ms * 1000))
    except ModelLoadError as exc:
        raise CommandError(str(exc)) from None
    print(f"wrote {model_dir / 'config.pbtxt'} and {model_dir / '1' / 'model.onnx'}")
    print(f"serve with: tritonserver --model-repository={args.repo}")
    return 0
