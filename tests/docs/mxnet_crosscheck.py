"""The docstring examples of the MXNet mirrors (mx.nd, gluon, gluon.nn, gluon.contrib.nn, the model zoo, mx)
run under cellonnx and, with their imports renamed, under real MXNet 1.9.1; every example line must print
the same on both sides. The test suite runs the examples under cellonnx only (MXNet is not a test
dependency); run this whenever an example is written or changed:

    python -m tests.docs.mxnet_crosscheck                       # every MXNet namespace
    python -m tests.docs.mxnet_crosscheck cellonnx.mxnet.ndarray --name relu --name sigmoid
    python -m tests.docs.mxnet_crosscheck --show ...            # print MXNet's output of each line

Names whose examples use what MXNet 1.9.1 lacks (cellonnx's own helpers) are listed in ``CELLONNX_ONLY``
and are run under cellonnx only. MXNET_PYTHON overrides the interpreter (/work/envs/mxnet/bin/python).
"""
from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.docs.api_examples import has_example, names
from tests.docs.example_outputs import outputs
from tests.docs.test_doctests import namespace as doctest_globals

MXNET_PYTHON = os.environ.get("MXNET_PYTHON", "/work/envs/mxnet/bin/python")
NAMESPACES = ["cellonnx.gluon.nn", "cellonnx.gluon.contrib.nn", "cellonnx.gluon.model_zoo.vision",
              "cellonnx.gluon", "cellonnx.mxnet.ndarray", "cellonnx.mxnet"]
# examples that print what MXNet 1.9.1 cannot: run under cellonnx only, with the reason
_ND = "cellonnx.mxnet.ndarray."
CELLONNX_ONLY: dict[str, str] = {
    **{_ND + name: f"MXNet 1.9.1 has no nd.{name} (nd.contrib.{name} gives 0/1 floats); cellonnx's gives "
       f"bools, as mx.np.{name}" for name in ("isfinite", "isinf", "isnan")},
    "cellonnx.gluon.nn.HybridBlock": "shows cellonnx's ONNX export (MXNet's export writes a symbol file)",
}
# names MXNet 1.9.1 keeps private, in contrib, or has only as a formula: on the MXNet side the example's
# ``from cellonnx.mxnet import nd`` line also binds the name to MXNet's own operator (or formula of operators)
SHIMS: dict[str, str] = {
    _ND + "plus": "nd.plus = nd.elemwise_add",
    _ND + "minus": "nd.minus = nd.elemwise_sub",
    _ND + "sub": "nd.sub = nd.elemwise_sub",
    _ND + "mul": "nd.mul = nd.elemwise_mul",
    _ND + "div": "nd.div = nd.elemwise_div",
    _ND + "mod": "nd.mod = nd._internal._Mod",
    _ND + "hypot": "nd.hypot = nd._internal._Hypot",
    _ND + "sequence_mask": "nd.sequence_mask = nd.SequenceMask",
    _ND + "AdaptiveAvgPooling2D": "nd.AdaptiveAvgPooling2D = nd.contrib.AdaptiveAvgPooling2D",
    _ND + "BilinearResize2D": "nd.BilinearResize2D = nd.contrib.BilinearResize2D",
    _ND + "log_sigmoid": "nd.log_sigmoid = lambda x: -nd.Activation(-x, act_type='softrelu')",
    _ND + "mish": "nd.mish = lambda x: x * nd.tanh(nd.Activation(x, act_type='softrelu'))",
}


def examples(namespaces: list[str], only: set[str]) -> dict[str, str]:
    docs = {}
    for namespace in namespaces:
        for name, obj in names()[namespace].items():
            key = f"{namespace}.{name}"
            if (only and name not in only) or not has_example(obj) or key in CELLONNX_ONLY:
                continue
            docs[key] = obj.__doc__ or ""
    return docs


# Gluon 2.x names (cellonnx's gluon.nn follows 2.x) written as MXNet 1.9.1 spells them, on the MXNet side
GLUON2_NAMES = [("gluon.nn.Concatenate(", "gluon.contrib.nn.Concurrent("),
                ("gluon.nn.HybridConcatenate(", "gluon.contrib.nn.HybridConcurrent("),
                ("gluon.nn.Identity(", "gluon.contrib.nn.Identity("),
                ("gluon.nn.PixelShuffle1D(", "gluon.contrib.nn.PixelShuffle1D("),
                ("gluon.nn.PixelShuffle2D(", "gluon.contrib.nn.PixelShuffle2D("),
                ("gluon.nn.SiLU()", "gluon.nn.Swish(1.0)")]


def shimmed(key: str, doc: str) -> str:
    """``doc`` with the shim of ``key`` (if any) on its ``from cellonnx.mxnet import nd`` line, and Gluon
    2.x names in MXNet 1.9.1's spelling."""
    for new, old in GLUON2_NAMES:
        doc = doc.replace(new, old)
    line = ">>> from cellonnx.mxnet import nd\n"
    if key not in SHIMS:
        return doc
    assert line in doc, f"{key}: the shim goes on the line {line!r}, which the example lacks"
    return doc.replace(line, f">>> from cellonnx.mxnet import nd; {SHIMS[key]}\n", 1)


def under_mxnet(docs: dict[str, str]) -> dict[str, list[str]]:
    docs = {key: shimmed(key, doc) for key, doc in docs.items()}
    script = Path(__file__).resolve().parent / "example_outputs.py"
    with tempfile.TemporaryDirectory() as scratch:
        src, dst = Path(scratch) / "in.json", Path(scratch) / "out.json"
        src.write_text(json.dumps(docs))
        env = dict(os.environ, PYTHONPATH="", MXNET_ENGINE_TYPE="NaiveEngine", OMP_NUM_THREADS="1")
        subprocess.run([MXNET_PYTHON, str(script), str(src), str(dst), "--rename"], check=True, env=env,
                       cwd=scratch)
        return json.loads(dst.read_text())


def main(argv: list[str]) -> int:
    show = "--show" in argv
    only = {argv[i + 1] for i, a in enumerate(argv) if a == "--name"}
    picked = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--name")]
    docs = examples(picked or NAMESPACES, only)
    ours, theirs = outputs(docs, doctest_globals()), under_mxnet(docs)
    parser, differ = doctest.DocTestParser(), 0
    for key, doc in docs.items():
        lines = [e.source.strip() for e in parser.get_examples(doc)]
        a, b = ours.get(key, []), theirs.get(key, [])
        bad = [i for i in range(max(len(a), len(b))) if a[i:i + 1] != b[i:i + 1]]
        if show:
            print(f"== {key}")
            for i, line in enumerate(lines):
                print(f">>> {line}\n{b[i] if i < len(b) else '<none>'}", end="")
        if bad:
            differ += 1
            print(f"DIFFERS {key}")
            for i in bad:
                line = lines[i] if i < len(lines) else "?"
                print(f"  >>> {line}\n  cellonnx: {a[i] if i < len(a) else '<none>'!r}\n"
                      f"  mxnet:    {b[i] if i < len(b) else '<none>'!r}")
    print(f"{len(docs)} examples, {differ} differ from MXNet 1.9.1, {len(CELLONNX_ONLY)} cellonnx-only")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
