"""Device memory of the compiled ResNet-50 training step on CUDA under onnxruntime's allocator settings,
beside PyTorch's, in one run.

    python bench/gpu_memory.py [--batch 32] [--variants default same-size ...] [--torch]

Each variant runs bench/gpu_train.py's cellonnx side in a process of its own with extra CUDA execution
provider options (the arena's growth strategy, cuDNN's workspace and algorithm search), and prints one JSON
line: images/s (median over blocks), the first step's seconds (trace, session, cuDNN search) and the
process's device memory from NVML.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

VARIANTS = {
    "default": {},
    "same-size": {"arena_extend_strategy": "kSameAsRequested"},
    "same-size+small-workspace": {"arena_extend_strategy": "kSameAsRequested",
                                  "cudnn_conv_use_max_workspace": "0"},
    "same-size+heuristic": {"arena_extend_strategy": "kSameAsRequested",
                            "cudnn_conv_algo_search": "HEURISTIC"},
    "small-workspace": {"cudnn_conv_use_max_workspace": "0"},
}


def run_variant(options: dict, args) -> dict:
    import gpu_train

    from cellonnx.graph import runtime

    base = runtime.cuda_options
    runtime.cuda_options = lambda device_id=0: {**base(device_id), **options}
    return gpu_train.run_cellonnx(args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--image", type=int, default=224)
    parser.add_argument("--classes", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--tf32", action="store_true")
    parser.add_argument("--device", default="GPU", choices=["GPU", "CPU"])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--torch", action="store_true", help="also PyTorch eager CUDA at the same batch")
    args = parser.parse_args()
    variant = os.environ.get("GPU_MEMORY_VARIANT")
    if variant:
        if variant == "torch":
            import gpu_train
            result = gpu_train.run_torch(args, resident=True)
        else:
            options = VARIANTS[variant]
            result = {**run_variant(options, args), "variant": variant, "options": options}
        print(json.dumps({**result, "batch": args.batch}), flush=True)
        return
    for name in args.variants + (["torch"] if args.torch else []):
        env = dict(os.environ, GPU_MEMORY_VARIANT=name)
        subprocess.run([sys.executable, *sys.argv], env=env, check=False)


if __name__ == "__main__":
    main()
