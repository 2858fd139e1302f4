"""Run the docstring examples of a namespace under real MindSpore 2.10 and compare what they print with what
the docstrings say (which tests/docs runs under cellonnx). The import lines are renamed (``cellonnx`` ->
``mindspore``) and nothing else, as a port would; each docstring runs in a fresh namespace in one MindSpore
process. A line whose printed value differs is reported with both outputs; numbers are compared with a
relative tolerance (printing rounds), the rest of the text exactly, up to whitespace. An example MindSpore
cannot run (an op without a CPU kernel, a name MindSpore does not have) is reported as such: those examples
are checked against NumPy by hand instead.

    python -m tests.docs.crosscheck_mindspore cellonnx.ops              # every example of the namespace
    python -m tests.docs.crosscheck_mindspore cellonnx.ops abs coo_abs  # only these names
    MINDSPORE_PYTHON=/path/to/python ...                                  # another MindSpore interpreter

This module is also the script the MindSpore interpreter runs (``--runner``): its top level imports the
standard library only.
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
_IMPORT = re.compile(r"^(\s*>>>\s*(?:import|from)\s+)cellonnx\b", re.MULTILINE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?j?|[-+]?(?:nan|inf)\b")
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# examples starting a process group: MindSpore's init aborts the process without msrun's cluster
_NEEDS_CLUSTER = re.compile(r"init_process_group\(|communication import .*\binit\b")
# examples MindSpore cannot run in one process: what they need
SKIP = {"TCPStore": "a TCP store server (MindSpore's client waits 300 s for it)"}


def to_mindspore(docstring: str) -> str:
    """The docstring's examples with their import lines renamed to MindSpore."""
    return _IMPORT.sub(lambda m: m.group(1) + "mindspore", docstring)


def _numbers_close(want: str, got: str, rtol: float = 2e-3) -> bool:
    """Same text once numbers are blanked out, and each number within ``rtol`` of the other's scale."""
    if "".join(_NUMBER.sub("#", want).split()) != "".join(_NUMBER.sub("#", got).split()):
        return False
    a, b = _NUMBER.findall(want), _NUMBER.findall(got)
    vals_a, vals_b = [complex(x) for x in a], [complex(x) for x in b]
    scale = max([abs(v) for v in vals_a if abs(v) != float("inf") and abs(v) == abs(v)] + [1e-12])
    for x, y in zip(vals_a, vals_b, strict=True):
        if x != x or y != y:  # NaN on either side: both must be NaN
            if not (x != x and y != y):
                return False
            continue
        if abs(x - y) > rtol * max(abs(x), 1e-3 * scale) + 1e-6 * scale:
            return False
    return True


def compare(want: str, got: str) -> str:
    """'same', 'close' (numbers within tolerance) or 'differs'."""
    if doctest.OutputChecker().check_output(want, got, _FLAGS):
        return "same"
    if "..." not in want and _numbers_close(want, got):
        return "close"
    return "differs"


def run_under_mindspore(docstrings: dict[str, str], timeout: float = 900) -> dict[str, Any]:
    """Run each docstring's examples (import lines renamed) in MindSpore's interpreter: per name, the list of
    (source, printed output, exception or None) of its example lines, or {"error": ...} for the whole name."""
    payload = json.dumps({name: to_mindspore(doc) for name, doc in docstrings.items()})
    proc = subprocess.run([MINDSPORE_PYTHON, str(Path(__file__).resolve()), "--runner"], input=payload,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "GLOG_v": "3", "PYTHONPATH": ""})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"MindSpore runner failed:\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1])


def _runner() -> None:
    """The MindSpore side: read {name: docstring} on stdin, print {name: [[source, got, exception], ...]}."""
    import io
    import tempfile

    import mindspore as ms
    import numpy as np
    from mindspore import Parameter, Tensor, nn, ops

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


def check(namespace: str, only: list[str] | None = None) -> int:
    """Print one line per example line that MindSpore prints differently or cannot run; the number of them."""
    from tests.docs.api_examples import has_example, names

    objects = names()[namespace]
    picked = {n: o for n, o in objects.items() if has_example(o) and (not only or n in only)}
    for name in sorted(set(picked) & set(SKIP)):
        print(f"{name}: not run under MindSpore: needs {SKIP[name]}")
        del picked[name]
    for name in sorted(n for n, o in picked.items() if _NEEDS_CLUSTER.search(o.__doc__ or "")):
        print(f"{name}: not run under MindSpore: starts a process group (MindSpore needs msrun for that)")
        del picked[name]
    docs = {n: o.__doc__ or "" for n, o in picked.items()}
    ms_rows = run_under_mindspore(docs)
    parser, problems, compared = doctest.DocTestParser(), 0, 0
    for name, doc in docs.items():
        rows = ms_rows.get(name)
        if isinstance(rows, dict):
            print(f"{name}: MindSpore could not parse/run: {rows['error']}")
            problems += 1
            continue
        examples = parser.get_examples(doc)
        for example, (_source, got, exc) in zip(examples, rows or [], strict=False):
            if exc is not None:
                print(f"{name}: MindSpore raised at `{example.source.strip()}`: {exc}")
                problems += 1
                break
            if not example.want:
                continue
            compared += 1
            verdict = compare(example.want, got)
            if verdict == "differs":
                problems += 1
                print(f"{name}: `{example.source.strip()}`\n  cellonnx : {example.want.strip()!r}\n"
                      f"  mindspore: {got.strip()!r}")
    print(f"{namespace}: {len(docs)} docstrings, {compared} printed outputs compared, {problems} problems")
    return problems


if __name__ == "__main__":
    if sys.argv[1:2] == ["--runner"]:
        _runner()
    else:
        check(sys.argv[1], sys.argv[2:] or None)
