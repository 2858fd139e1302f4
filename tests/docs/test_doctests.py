"""Every docstring example of the package runs as a doctest, in the namespace the API reference states
(``np``, ``ms``, ``Tensor``, ``Parameter``, ``nn``, ``ops``, and ``mpirun(script, n)`` for the examples of
several processes: tests/docs/mpirun_example.py), in a scratch folder. Printed floats are written
so that they hold on any CPU: a few digits and ``...`` (ELLIPSIS), or rounded."""
from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
from pathlib import Path

import numpy as np
import pytest


def _modules() -> list[str]:
    import cellonnx.converters
    import cellonnx.models

    import cellonnx

    names = []
    for package in (cellonnx, cellonnx.converters, cellonnx.models):
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                  if not m.name.endswith("__main__")]
    return sorted(set(names))


def namespace() -> dict:
    import cellonnx as ms
    from cellonnx import Parameter, Tensor, nn, ops
    from tests.docs.mpirun_example import mpirun

    return {"np": np, "ms": ms, "Tensor": Tensor, "Parameter": Parameter, "nn": nn, "ops": ops,
            "mpirun": mpirun}


def _tests(module_name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(module_name)
    found = doctest.DocTestFinder(exclude_empty=True).find(module, module_name, globs=namespace())
    return [t for t in found if t.examples and t.filename == getattr(module, "__file__", None)]


MODULES_WITH_EXAMPLES = [name for name in _modules() if _tests(name)]


def test_examples_are_found() -> None:
    count = sum(len(_tests(name)) for name in MODULES_WITH_EXAMPLES)
    assert count >= 200, count


@pytest.mark.parametrize("module_name", MODULES_WITH_EXAMPLES)
def test_docstring_examples_run(module_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = []
    for test in _tests(module_name):
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        if runner.run(test, out=out.write).failed:
            failures.append(out.getvalue())
    assert not failures, "\n".join(failures)
