"""Run the docstring examples of a namespace under real MindSpore 2.10 and compare what it prints with what
the examples say (what cellonnx prints, which the doctests check). The examples' import lines are renamed
(``cellonnx`` to ``mindspore``) and nothing else is changed, as a user porting the example would do.

    python -m tests.docs.check_against_mindspore cellonnx.ops.operations            # every example
    python -m tests.docs.check_against_mindspore cellonnx.ops.operations Gelu Tan   # these names
    MINDSPORE_PYTHON=/path/to/python python -m tests.docs.check_against_mindspore cellonnx.ops

An output agrees when it is the same text (whitespace aside, ``...`` matching anything, as in the doctests)
or the same text with numbers that agree to float32 precision (relative to the output's scale: MindSpore and
NumPy may round the last digit differently). Each example is reported as ``ok``, ``differs`` (the lines,
with MindSpore's output) or ``raises`` (MindSpore cannot run it: the CPU build lacks the kernel, or the
name is cellonnx's own); the examples run one by one, each in a fresh namespace. An example that raises
under MindSpore and has a NumPy reference (tests/docs/numpy_references.py) is compared with what the
reference prints instead: ``numpy ok`` or ``numpy differs``. This is a maintainer's tool, run when examples
are written (it needs a MindSpore installation), not a test.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MINDSPORE_PYTHON = os.environ.get("MINDSPORE_PYTHON", "/work/envs/mindspore/bin/python")

_IMPORT = re.compile(r"^(\s*>>>\s*(?:from|import)\s.*)$", re.MULTILINE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


def renamed(doc: str) -> str:
    """``doc`` with ``cellonnx`` turned into ``mindspore`` on its import lines only."""
    return _IMPORT.sub(lambda m: re.sub(r"\bcellonnx\b", "mindspore", m.group(1)), doc)


def examples(namespace: str, only: list[str]) -> dict[str, str]:
    """Name -> the docstring (imports renamed) of the names of ``namespace`` that have an example."""
    from tests.docs.api_examples import has_example, names

    objects = names()[namespace]
    chosen = only or sorted(objects)
    missing = [n for n in chosen if n not in objects]
    if missing:
        raise SystemExit(f"not public names of {namespace}: {missing}")
    return {n: renamed(objects[n].__doc__ or "") for n in chosen if has_example(objects[n])}


# ---- the part that runs under MindSpore's python (standard library and mindspore only)

def _numbers_agree(want: str, got: str) -> bool:
    want_words, got_words = _NUMBER.split(want), _NUMBER.split(got)
    norm = [" ".join(w.split()) for w in want_words], [" ".join(w.split()) for w in got_words]
    if norm[0] != norm[1]:
        return False
    a = [float(x) for x in _NUMBER.findall(want)]
    b = [float(x) for x in _NUMBER.findall(got)]
    if len(a) != len(b):
        return False
    finite = [abs(x) for x in a if x == x and abs(x) != float("inf")]
    scale = max(finite, default=0.0)
    for x, y in zip(a, b):
        if x != x or y != y or abs(x) == float("inf") or abs(y) == float("inf"):
            if not (x != x and y != y) and x != y:
                return False
            continue
        if abs(x - y) > 2e-5 * max(abs(x), abs(y)) + 2e-6 * scale + 1e-7:
            return False
    return True


def _child(path: str) -> None:
    import doctest

    docs = json.loads(Path(path).read_text())
    try:
        import mindspore as ms
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    except Exception as exc:  # noqa: BLE001 (report, then stop)
        print(json.dumps({"error": f"cannot import mindspore: {exc}"}))
        return

    class Checker(doctest.OutputChecker):
        def check_output(self, want: str, got: str, optionflags: int) -> bool:
            if super().check_output(want, got, optionflags):
                return True
            return "..." not in want and _numbers_agree(want, got)

    parser, report = doctest.DocTestParser(), {}
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for name, doc in docs.items():
        test = parser.get_doctest(doc, {}, name, None, 0)
        runner = doctest.DocTestRunner(checker=Checker(), optionflags=flags)
        out: list[str] = []
        runner.run(test, out=out.append)
        text = "".join(out)
        status = "ok"
        if "Exception raised:" in text:
            status = "raises"
        elif runner.failures:
            status = "differs"
        report[name] = {"status": status, "detail": text}
    print(json.dumps(report))


def _against_numpy(doc: str, reference: str) -> dict[str, str]:
    """The example's printed outputs, all together, against what the NumPy reference prints."""
    import contextlib
    import doctest
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


def check(namespace: str, only: list[str]) -> dict[str, dict[str, str]]:
    from tests.docs.numpy_references import REFERENCES

    docs = examples(namespace, only)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "examples.json"
        path.write_text(json.dumps(docs))
        proc = subprocess.run([MINDSPORE_PYTHON, str(Path(__file__).resolve()), "--child", str(path)],
                              capture_output=True, text=True, cwd=scratch)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise SystemExit(f"MindSpore run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    report = json.loads(lines[-1])
    if "error" in report:
        raise SystemExit(report["error"])
    references = REFERENCES.get(namespace, {})
    for name, entry in report.items():
        if entry["status"] == "raises" and name in references:
            entry.update(_against_numpy(docs[name], references[name]))
    return report


def _short(detail: str) -> str:
    """The report without MindSpore's tracebacks: the failing lines and the error's message."""
    keep, skipping = [], False
    for line in detail.splitlines():
        if line.strip().startswith("Traceback"):
            skipping = True
            continue
        if skipping and (line.startswith("      ") or line.strip().startswith(("File ", "^"))):
            continue
        skipping = False
        if line.strip() and not set(line.strip()) <= set("-*") and "C++ Call Stack" not in line:
            keep.append(line)
    return "\n".join(keep)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        _child(argv[1])
        return
    if not argv:
        raise SystemExit(__doc__)
    report = check(argv[0], argv[1:])
    counts: dict[str, int] = {}
    for name, entry in sorted(report.items()):
        counts[entry["status"]] = counts.get(entry["status"], 0) + 1
        if entry["status"] not in ("ok", "numpy ok"):
            print(f"== {name}: {entry['status']}\n{_short(entry['detail'])}")
    print(" ".join(f"{k}: {v}" for k, v in sorted(counts.items())), f"(of {len(report)} examples)")


if __name__ == "__main__":
    main(sys.argv[1:])
