"""Run the docstring examples of a namespace under real MindSpore 2.10 and compare what it prints, line by
line, with what the examples say (what cellonnx prints, which the doctests check). The examples' import lines
are renamed (``cellonnx`` to ``mindspore``) and nothing else is changed, as a user porting the example would
do; each docstring runs in a fresh namespace, all of them in one MindSpore process.

    python -m tests.docs.check_against_mindspore cellonnx.ops.operations            # every example
    python -m tests.docs.check_against_mindspore cellonnx.ops.operations Gelu Tan   # these names
    python -m tests.docs.check_against_mindspore --show cellonnx.ops abs            # also MindSpore's lines
    MINDSPORE_PYTHON=/path/to/python python -m tests.docs.check_against_mindspore cellonnx.ops

An output agrees when it is the same text (whitespace aside, ``...`` matching anything, as in the doctests)
or the same text with numbers (real or complex) that agree to float32 precision relative to the output's
scale (MindSpore and NumPy may round the last digit differently). Each example is reported as ``ok``,
``differs`` (each differing line with both outputs), ``raises`` (the line MindSpore cannot run and its
error: the CPU build lacks the kernel, or the name is cellonnx's own) or ``skipped`` (it needs what one
MindSpore process cannot give: a process group started by msrun, a TCP store server). An example that raises
under MindSpore and has a NumPy reference (tests/docs/numpy_references.py) is compared with what the
reference prints instead: ``numpy ok`` or ``numpy differs``. The exit status is 1 when any example differs.
This is a maintainer's tool, run when examples are written (it needs a MindSpore installation), not a test;
this module is also the script MindSpore's interpreter runs (``--runner``: its top level imports the
standard library only).
"""
from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

MINDSPORE_PYTHON = os.environ.get("MINDSPORE_PYTHON", "/work/envs/mindspore/bin/python")

_IMPORT = re.compile(r"^(\s*>>>\s*(?:from|import)\s.*)$", re.MULTILINE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?j?|[-+]?(?:nan|inf)\b")
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# examples starting a process group: MindSpore's init aborts the process without msrun's cluster
_NEEDS_CLUSTER = re.compile(r"init_process_group\(|communication import .*\binit\b")
# examples MindSpore cannot run in one process: what they need
SKIP = {"TCPStore": "a TCP store server (MindSpore's client waits 300 s for it)"}


def renamed(doc: str) -> str:
    """``doc`` with ``cellonnx`` turned into ``mindspore`` on its import lines only."""
    return _IMPORT.sub(lambda m: re.sub(r"\bcellonnx\b", "mindspore", m.group(1)), doc)


def examples(namespace: str, only: list[str]) -> dict[str, str]:
    """Name -> the docstring (imports not yet renamed) of the names of ``namespace`` that have an example."""
    from tests.docs.api_examples import has_example, names

    objects = names()[namespace]
    chosen = only or sorted(objects)
    missing = [n for n in chosen if n not in objects]
    if missing:
        raise SystemExit(f"not public names of {namespace}: {missing}")
    return {n: objects[n].__doc__ or "" for n in chosen if has_example(objects[n])}


def _numbers_agree(want: str, got: str) -> bool:
    """Same text once the numbers are blanked out, and each number equal to float32 precision relative to
    itself and to the output's scale (NaN only against NaN, infinities exactly)."""
    if "".join(_NUMBER.sub("#", want).split()) != "".join(_NUMBER.sub("#", got).split()):
        return False
    a = [complex(x) for x in _NUMBER.findall(want)]
    b = [complex(x) for x in _NUMBER.findall(got)]
    if len(a) != len(b):
        return False
    scale = max((abs(x) for x in a if x == x and abs(x) != float("inf")), default=0.0)
    for x, y in zip(a, b):
        if x != x or y != y or abs(x) == float("inf") or abs(y) == float("inf"):
            if not (x != x and y != y) and x != y:
                return False
            continue
        if abs(x - y) > 2e-5 * max(abs(x), abs(y)) + 2e-6 * scale + 1e-7:
            return False
    return True


def agrees(want: str, got: str) -> bool:
    """Whether MindSpore's ``got`` is what the example says (``want``)."""
    if doctest.OutputChecker().check_output(want, got, _FLAGS):
        return True
    return "..." not in want and _numbers_agree(want, got)


# ---- the part that runs under MindSpore's python (standard library and mindspore only)

def _runner() -> None:
    """Read {name: docstring} on stdin, print {name: [[source, got, exception or None], ...]} (or
    {"error": ...} for a docstring that cannot be parsed)."""
    import io
    import tempfile

    import mindspore as ms
    import numpy as np
    from mindspore import Parameter, Tensor, nn, ops

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")

    class Recorder(doctest.DocTestRunner):
        def __init__(self) -> None:
            super().__init__(optionflags=_FLAGS)
            self.rows: list[list[Any]] = []

        def report_success(self, out: Any, test: Any, example: Any, got: str) -> None:
            self.rows.append([example.source, got, None])

        def report_failure(self, out: Any, test: Any, example: Any, got: str) -> None:
            self.rows.append([example.source, got, None])

        def report_unexpected_exception(self, out: Any, test: Any, example: Any, exc_info: Any) -> None:
            self.rows.append([example.source, "", f"{exc_info[0].__name__}: {str(exc_info[1])[:300]}"])

    docs = json.loads(sys.stdin.read())
    result: dict[str, Any] = {}
    parser = doctest.DocTestParser()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        for name, doc in docs.items():
            # MindSpore's autodiff reads the defining module's __name__ of a function
            globs = {"__name__": "__main__", "np": np, "ms": ms, "Tensor": Tensor, "Parameter": Parameter,
                     "nn": nn, "ops": ops}
            try:
                test = parser.get_doctest(doc, globs, name, None, 0)
                runner = Recorder()
                runner.run(test, out=io.StringIO().write, clear_globs=True)
                result[name] = runner.rows
            except Exception as exc:  # noqa: BLE001 - reported per name
                result[name] = {"error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.flush()
    print(json.dumps(result))


# ---- the maintainer's side

def run_under_mindspore(docstrings: dict[str, str], timeout: float = 900) -> dict[str, Any]:
    """Run each docstring's examples (import lines renamed) in MindSpore's interpreter: per name, the list of
    [source, printed output, exception or None] of its example lines, or {"error": ...} for the name."""
    payload = json.dumps({name: renamed(doc) for name, doc in docstrings.items()})
    proc = subprocess.run([MINDSPORE_PYTHON, str(Path(__file__).resolve()), "--runner"], input=payload,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "GLOG_v": "3", "PYTHONPATH": ""})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise SystemExit(f"MindSpore run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1])


def _against_numpy(doc: str, reference: str) -> dict[str, str]:
    """The example's printed outputs, all together, against what the NumPy reference prints."""
    import contextlib
    import io

    import numpy as np
    import scipy.special

    want = "".join(e.want for e in doctest.DocTestParser().get_examples(doc))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(reference, {"np": np, "special": scipy.special})  # noqa: S102 (the committed references)
    got = out.getvalue()
    same = " ".join(want.split()) == " ".join(got.split()) or _numbers_agree(want, got)
    return {"status": "numpy ok" if same else "numpy differs",
            "detail": "" if same else f"example prints:\n{want}NumPy prints:\n{got}"}


def _verdict(doc: str, rows: Any, show: bool) -> dict[str, str]:
    """One example's status and report from MindSpore's rows."""
    if isinstance(rows, dict):
        return {"status": "raises", "detail": f"MindSpore could not parse/run it: {rows['error']}"}
    lines, status = [], "ok"
    for example, (_source, got, exc) in zip(doctest.DocTestParser().get_examples(doc), rows or [],
                                            strict=False):
        source = example.source.strip()
        if exc is not None:
            return {"status": "raises", "detail": "\n".join([*lines, f"  at `{source}`: {exc}"])}
        if not example.want:
            continue
        if not agrees(example.want, got):
            status = "differs"
            lines.append(f"  `{source}`\n    cellonnx : {example.want.strip()!r}\n"
                         f"    mindspore: {got.strip()!r}")
        elif show:
            lines.append(f"  `{source}`\n    mindspore: {got.strip()!r}")
    return {"status": status, "detail": "\n".join(lines)}


def check(namespace: str, only: list[str] | None = None, show: bool = False) -> dict[str, dict[str, str]]:
    """Per example name of ``namespace`` (or of ``only``): its status and report."""
    from tests.docs.numpy_references import REFERENCES

    docs = examples(namespace, only or [])
    report: dict[str, dict[str, str]] = {}
    for name in sorted(docs):
        if name in SKIP:
            report[name] = {"status": "skipped", "detail": f"needs {SKIP[name]}"}
        elif _NEEDS_CLUSTER.search(docs[name]):
            report[name] = {"status": "skipped", "detail": "starts a process group (MindSpore needs msrun)"}
    runnable = {n: d for n, d in docs.items() if n not in report}
    rows = run_under_mindspore(runnable) if runnable else {}
    references = REFERENCES.get(namespace, {})
    for name, doc in runnable.items():
        report[name] = _verdict(doc, rows.get(name), show)
        if report[name]["status"] == "raises" and name in references:
            report[name] = _against_numpy(renamed(doc), references[name])
    return report


def main(argv: list[str]) -> int:
    if argv[:1] == ["--runner"]:
        _runner()
        return 0
    show = "--show" in argv
    argv = [a for a in argv if a != "--show"]
    if not argv:
        raise SystemExit(__doc__)
    report = check(argv[0], argv[1:], show)
    counts: dict[str, int] = {}
    for name, entry in sorted(report.items()):
        counts[entry["status"]] = counts.get(entry["status"], 0) + 1
        if entry["status"] not in ("ok", "numpy ok") or (show and entry["detail"]):
            print(f"== {name}: {entry['status']}\n{entry['detail']}".rstrip())
    print(" ".join(f"{k}: {v}" for k, v in sorted(counts.items())), f"(of {len(report)} examples)")
    return int(any(e["status"] in ("differs", "numpy differs") for e in report.values()))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
