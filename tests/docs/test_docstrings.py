"""Every public name of cellonnx's own modules (not the MindSpore and MXNet mirrors, which follow those
frameworks' references) has a docstring: the compile/export/verify API, converters, serving, the model zoo,
the command line and the top-level helpers."""
from __future__ import annotations

import importlib
import inspect

import pytest

import cellonnx

OWN_MODULES = ["cellonnx.graph.export", "cellonnx.graph.verify", "cellonnx.graph.compile",
               "cellonnx.graph.runtime", "cellonnx.converters", "cellonnx.serve", "cellonnx.models",
               "cellonnx.checkpoint", "cellonnx.checkpoint_mapping", "cellonnx.cli"]
# the top-level names that are cellonnx's own, not MindSpore's
OWN_TOP_LEVEL = ["verify", "compile_graph", "load_checkpoint_into", "export", "save_checkpoint",
                 "load_checkpoint", "load_param_into_net", "value_and_grad", "set_context", "Tensor",
                 "Parameter"]
# MindSpore's classes: their methods mirror MindSpore's Tensor methods (described by MindSpore's reference)
MIRROR_CLASSES = {"Tensor", "Parameter"}


def _public(module_name: str) -> list[tuple[str, object]]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, obj in vars(module).items() if not n.startswith("_")
                 and (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module_name]
    return [(n, getattr(module, n)) for n in names]


def _lacking(objects: list[tuple[str, object]]) -> list[str]:
    lacking = []
    for name, obj in objects:
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue  # constants and tables are described by their module
        if not (obj.__doc__ or "").strip():
            lacking.append(name)
        elif inspect.isclass(obj) and obj.__name__ not in MIRROR_CLASSES:  # and the methods it defines
            lacking += [f"{name}.{m}" for m, f in vars(obj).items() if not m.startswith("_")
                        and inspect.isfunction(f) and not (f.__doc__ or "").strip()
                        and not any(getattr(getattr(b, m, None), "__doc__", None) for b in obj.__mro__[1:])]
    return lacking


@pytest.mark.parametrize("module_name", OWN_MODULES)
def test_own_modules_have_docstrings(module_name: str) -> None:
    assert importlib.import_module(module_name).__doc__, f"{module_name} has no module docstring"
    lacking = _lacking(_public(module_name))
    assert not lacking, f"{module_name}: no docstring for {lacking}"


def _own_pending() -> set[str]:
    from tests.docs.api_examples import PENDING

    lines = (line.strip() for line in (PENDING / "own_modules.txt").read_text().splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def test_own_names_have_examples_or_are_pending() -> None:
    """A docstring example for every public function and class of the own modules, but those still listed in
    pending/own_modules.txt (which may only shrink: a listed name that has its example fails)."""
    from tests.docs.api_examples import has_example

    names = {f"{m}.{n}": obj for m in OWN_MODULES for n, obj in _public(m)
             if inspect.isfunction(obj) or inspect.isclass(obj)}
    listed = _own_pending()
    missing = sorted(n for n, obj in names.items() if not has_example(obj) and n not in listed)
    assert not missing, f"no docstring example for {missing}: write one (summary, Examples: doctest lines)"
    stale = sorted(n for n in listed if n not in names or has_example(names[n]))
    assert not stale, f"take these off tests/docs/pending/own_modules.txt (gone, or with an example): {stale}"


def test_own_top_level_names_have_docstrings() -> None:
    lacking = _lacking([(n, getattr(cellonnx, n)) for n in OWN_TOP_LEVEL])
    assert not lacking, f"cellonnx: no docstring for {lacking}"


def test_cli_commands_have_help() -> None:
    from cellonnx.cli import build_parser

    parser = build_parser()
    for name, sub in parser.commands.items():
        assert (sub.description or "").strip() or (sub.format_usage()), name
    assert all(action.help for action in parser._subparsers._group_actions[0]._choices_actions), \
        "a subcommand without a one-line help"
