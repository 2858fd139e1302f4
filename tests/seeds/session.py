"""Run a reference page's example the way its ``>>>`` prompts run, and record what each prompt showed.

Each top-level statement of the example is one prompt: it is compiled in interactive mode, so an expression
statement shows its value's repr as the prompt would; what it prints is captured; an exception is recorded as
``"<type>: <first line of the message>"`` and the next prompt runs (each prompt of a doctest session stands on
its own). The example runs in a fresh namespace named ``__main__`` (its classes print as ``__main__.X``), in
the working directory it is given, with NumPy's global generator seeded first, so that inputs drawn with
``np.random`` are the same whichever framework runs the example.

This module needs only the standard library and NumPy: tests/fixtures/mindspore/gen_seeds.py runs it with
MindSpore's Python, the tests with cellonnx's.
"""
from __future__ import annotations

import ast
import contextlib
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class Prompt:
    """One prompt: its first source line, what it showed, and the error it raised (or None)."""

    line: str
    out: str
    error: str | None


@dataclass
class Session:
    """The prompts of one run, and the namespace the example left behind."""

    prompts: list[Prompt]
    namespace: dict[str, Any] = field(repr=False)

    @property
    def output(self) -> str:
        """Everything the example showed, prompt after prompt (errors left out)."""
        return "".join(p.out for p in self.prompts)

    @property
    def errors(self) -> list[tuple[str, str]]:
        """(first source line, error) of each prompt that raised."""
        return [(p.line, p.error) for p in self.prompts if p.error is not None]

    def as_json(self) -> list[dict[str, Any]]:
        return [{"line": p.line, "out": p.out, "error": p.error} for p in self.prompts]


def error_text(exc: BaseException) -> str:
    """``"<type>: <the message's first line that says something>"`` (MindSpore opens some with rules)."""
    lines = [ln.strip() for ln in str(exc).splitlines() if any(c.isalnum() for c in ln)]
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


def run(code: str, workdir: Path | str, seed: int = 0, namespace: dict[str, Any] | None = None) -> Session:
    """Run ``code`` prompt by prompt in ``workdir`` (see the module docstring); with ``namespace`` (an
    earlier session's), it goes on in that namespace, as further prompts of the same session would."""
    tree = ast.parse(code)
    lines = code.splitlines()
    ns = namespace if namespace is not None else {"__name__": "__main__", "__builtins__": __builtins__}
    np.random.seed(seed)
    prompts = []
    here = os.getcwd()
    os.chdir(workdir)
    try:
        for stmt in tree.body:
            compiled = compile(ast.Interactive(body=[stmt]), "<example>", "single")
            buf = io.StringIO()
            error = None
            with contextlib.redirect_stdout(buf):
                try:
                    exec(compiled, ns)  # noqa: S102 - the example is the test's subject
                except Exception as exc:  # noqa: BLE001 - recorded, as the prompt would show it
                    error = error_text(exc)
            prompts.append(Prompt(lines[stmt.lineno - 1].strip(), buf.getvalue(), error))
    finally:
        os.chdir(here)
    return Session(prompts, ns)


def jsonable(value: Any) -> Any:
    """A value of the example's namespace as JSON: tensors and arrays as {dtype, shape, data}, containers
    element by element, anything else by its repr."""
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        data = arr.astype(np.float64) if arr.dtype.kind in "fc" and arr.dtype != np.float64 else arr
        if arr.dtype.kind == "c":
            data = np.stack([arr.real, arr.imag], -1).astype(np.float64)
        return {"dtype": str(arr.dtype), "shape": list(arr.shape), "data": data.tolist()}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return repr(value)


def evaluate(session: Session, expressions: list[str]) -> dict[str, Any]:
    """Each expression evaluated in the example's namespace, as JSON (an error as {"error": ...})."""
    out = {}
    for expr in expressions:
        try:
            out[expr] = jsonable(eval(expr, session.namespace))
        except Exception as exc:  # noqa: BLE001
            out[expr] = {"error": error_text(exc)}
    return out


def record(code: str, probe: str, values: list[str], workdir: Path | str) -> dict[str, Any]:
    """Run ``code``, then ``probe`` in its namespace, then evaluate ``values``: the JSON the fixture holds."""
    first = run(code, workdir)
    after = run(probe, workdir, namespace=first.namespace) if probe else None
    return {"prompts": first.as_json(), "probe": after.as_json() if after else [],
            "values": evaluate(first, values)}
