"""Run docstring examples and record what each example line prints, without judging it: the one piece of
tests/docs/mxnet_crosscheck.py that runs on both sides, under cellonnx and under real MXNet 1.9.1. It
imports nothing of cellonnx, so MXNet's interpreter runs it as a script:

    python tests/docs/example_outputs.py IN.json OUT.json [--rename]

IN.json maps keys to docstrings; OUT.json maps each key to the list of what its example lines printed
(an exception as ``raises <ClassName>``). ``--rename`` first rewrites the cellonnx imports into MXNet's
(``from cellonnx.mxnet import nd`` -> ``from mxnet import nd``, ``from cellonnx import gluon`` ->
``from mxnet import gluon``, ``cellonnx.gluon`` -> ``mxnet.gluon``).
"""
from __future__ import annotations

import doctest
import json
import os
import re
import sys
import tempfile
from typing import Any

_RENAMES = [
    (re.compile(r"\bfrom cellonnx import mxnet as mx\b"), "import mxnet as mx"),
    (re.compile(r"\bimport cellonnx\.mxnet as mx\b"), "import mxnet as mx"),
    (re.compile(r"\bfrom cellonnx import gluon\b"), "from mxnet import gluon"),
    (re.compile(r"\bcellonnx\.gluon\b"), "mxnet.gluon"),
    (re.compile(r"\bcellonnx\.mxnet\b"), "mxnet"),
]


def rename(doc: str) -> str:
    """``doc`` with cellonnx's MXNet imports written as MXNet's."""
    for pattern, replacement in _RENAMES:
        doc = pattern.sub(replacement, doc)
    return doc


class _Recorder(doctest.DocTestRunner):
    def __init__(self) -> None:
        super().__init__(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
        self.got: list[str] = []

    def report_start(self, out: Any, test: Any, example: Any) -> None:
        pass

    def report_success(self, out: Any, test: Any, example: Any, got: str) -> None:
        self.got.append(got)

    def report_failure(self, out: Any, test: Any, example: Any, got: str) -> None:
        self.got.append(got)

    def report_unexpected_exception(self, out: Any, test: Any, example: Any, exc_info: Any) -> None:
        self.got.append(f"raises {exc_info[0].__name__}")


def outputs(docs: dict[str, str], globs: dict[str, Any] | None = None,
            renamed: bool = False) -> dict[str, list[str]]:
    """What each example line of each docstring prints, run in a scratch folder."""
    parser, out = doctest.DocTestParser(), {}
    cwd = os.getcwd()
    for key, doc in docs.items():
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)
            try:
                test = parser.get_doctest(rename(doc) if renamed else doc, dict(globs or {}), key, None, 0)
                runner = _Recorder()
                for example in test.examples:
                    # an expected traceback is recorded as the exception's class, like an unexpected one
                    example.exc_msg = None
                runner.run(test, out=lambda _text: None, clear_globs=True)
                out[key] = runner.got
            finally:
                os.chdir(cwd)
                _reset_np_mode()
    return out


def _reset_np_mode() -> None:
    """Switch off the NumPy semantics an example may have switched on (``npx.set_np()``), on either side."""
    for name in ("mxnet.util", "cellonnx.mxnet.util"):
        util = sys.modules.get(name)
        if util is not None and hasattr(util, "reset_np"):
            util.reset_np()


def main(argv: list[str]) -> None:
    docs = json.loads(open(argv[0]).read())
    got = outputs(docs, renamed="--rename" in argv)
    with open(argv[1], "w") as f:
        json.dump(got, f)


if __name__ == "__main__":
    main(sys.argv[1:])
