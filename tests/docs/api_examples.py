"""The public names of the documented namespaces and whether each has a docstring example: a summary line
and an ``Examples:`` section of doctest lines (tests/docs/test_api_examples.py runs them). The names still
without one are listed in pending/<namespace>.txt, the committed record that may only shrink. Print the
figures with:

    python -m tests.docs.api_examples            # names, with a docstring, with an example, pending
    python -m tests.docs.api_examples --at REV   # with an example at git revision REV and now, side by side
    python -m tests.docs.api_examples --write    # rewrite the pending lists from the code (drops names only)

An object reachable under several names (``ops.absolute`` is ``ops.abs``; ``ops.ReLU`` is
``ops.operations.ReLU``) counts once, under the first namespace of NAMESPACES that holds it, and its one
docstring serves every name.
"""
from __future__ import annotations

import importlib
import inspect
import json
import re
import subprocess
import sys
import tempfile
import types
from functools import cache
from pathlib import Path

PENDING = Path(__file__).resolve().parent / "pending"

# the namespaces of the API reference (docs/api), the most specific first: a name re-exported by a wider
# namespace (the operator classes in cellonnx.ops, train's classes at the top level) counts where it lives
NAMESPACES = [
    "cellonnx.nn",
    "cellonnx.ops.operations",
    "cellonnx.ops",
    "cellonnx.numpy",
    "cellonnx.dataset",
    "cellonnx.train",
    "cellonnx.communication",
    "cellonnx",
    "cellonnx.gluon.nn",
    "cellonnx.gluon.contrib.nn",
    "cellonnx.gluon.rnn",
    "cellonnx.gluon.contrib.rnn",
    "cellonnx.gluon.model_zoo.vision",
    "cellonnx.gluon",
    "cellonnx.mxnet.numpy",
    "cellonnx.mxnet.numpy_extension",
    "cellonnx.mxnet.ndarray",
    "cellonnx.mxnet.symbol",
    "cellonnx.mxnet.rnn",
    "cellonnx.mxnet",
]

_EXAMPLES = re.compile(r"^\s*Examples?:\s*\n(?:\s*\n)*\s*>>> ", re.MULTILINE)


def _public(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    return sorted({n for n in names if not n.startswith("_")})


@cache
def names() -> dict[str, dict[str, object]]:
    """Per namespace, its own public callables (functions and classes) by name; an object already seen in
    an earlier namespace, or under an earlier name, is left out (it is documented once)."""
    seen: set[int] = set()
    out: dict[str, dict[str, object]] = {}
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        own: dict[str, object] = {}
        for name in _public(namespace):
            obj = getattr(module, name, None)
            if obj is None or isinstance(obj, types.ModuleType) or not callable(obj):
                continue  # constants, dtypes and submodules are described by their module's page
            if not (inspect.isclass(obj) or inspect.isroutine(obj)):
                continue  # instances (a dtype, a configured singleton) are not API entries of their own
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            own[name] = obj
        out[namespace] = own
    return out


def docstring(obj: object) -> str:
    return inspect.getdoc(obj) or ""


def has_summary(obj: object) -> bool:
    return bool(docstring(obj).strip().split("\n", 1)[0].strip())


def has_example(obj: object) -> bool:
    """A summary line and an ``Examples:`` section that starts with a doctest line."""
    return has_summary(obj) and bool(_EXAMPLES.search(docstring(obj)))


def pending(namespace: str) -> set[str]:
    path = PENDING / f"{namespace}.txt"
    if not path.exists():
        return set()
    lines = (line.strip() for line in path.read_text().splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def figures() -> dict[str, dict[str, int]]:
    out = {}
    for namespace, objects in names().items():
        out[namespace] = {"names": len(objects),
                          "docstring": sum(has_summary(o) for o in objects.values()),
                          "example": sum(has_example(o) for o in objects.values()),
                          "pending": len(pending(namespace))}
    return out


def write_pending() -> None:
    """Take the names that have got their example off the pending lists (a namespace without a list gets one
    of every name still lacking), keeping each list's header comment."""
    PENDING.mkdir(exist_ok=True)
    for namespace, objects in names().items():
        path = PENDING / f"{namespace}.txt"
        listed = pending(namespace) if path.exists() else set(objects)
        header = ("# names of this namespace without a docstring example (tests/docs/test_api_examples.py)"
                  ";\n# take a name off when its docstring gets one\n")
        if path.exists():
            header = "".join(line + "\n" for line in path.read_text().splitlines() if line.startswith("#"))
        lacking = sorted((n for n, o in objects.items() if not has_example(o) and n in listed), key=str.lower)
        path.write_text(header + "".join(n + "\n" for n in lacking))


def figures_at(rev: str) -> dict[str, dict[str, int]]:
    """The figures of cellonnx as it was at git revision ``rev`` (its package exported to a scratch folder and
    imported from there, in a child process)."""
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as scratch:
        archive = subprocess.run(["git", "-C", str(root), "archive", rev, "cellonnx"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", scratch], input=archive, check=True)
        code = (f"import sys; sys.path[:0] = [{scratch!r}, {str(root)!r}]; import json; "
                "from tests.docs.api_examples import figures; print(json.dumps(figures()))")
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                             cwd=scratch).stdout
    return json.loads(out.strip().splitlines()[-1])


def compare(rev: str) -> None:
    before, now = figures_at(rev), figures()
    print(f"{'namespace':34} {'names':>6} {'example at ' + rev[:10]:>22} {'example now':>12}")
    total = [0, 0, 0]
    for namespace in NAMESPACES:
        b, n = before.get(namespace, {"names": 0, "example": 0}), now[namespace]
        total = [total[0] + n["names"], total[1] + b["example"], total[2] + n["example"]]
        print(f"{namespace:34} {n['names']:6d} {b['example']:22d} {n['example']:12d}")
    print(f"{'all':34} {total[0]:6d} {total[1]:22d} {total[2]:12d}")


def main(argv: list[str]) -> None:
    if "--at" in argv:
        compare(argv[argv.index("--at") + 1])
        return
    if "--write" in argv:
        write_pending()
    print(f"{'namespace':34} {'names':>6} {'docstring':>10} {'example':>8} {'pending':>8}")
    total = dict.fromkeys(("names", "docstring", "example", "pending"), 0)
    for namespace, counts in figures().items():
        for key in total:
            total[key] += counts[key]
        print(f"{namespace:34} {counts['names']:6d} {counts['docstring']:10d} {counts['example']:8d} "
              f"{counts['pending']:8d}")
    print(f"{'all':34} {total['names']:6d} {total['docstring']:10d} {total['example']:8d} "
          f"{total['pending']:8d}")


if __name__ == "__main__":
    main(sys.argv[1:])
