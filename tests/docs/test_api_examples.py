"""Every public name of the documented namespaces (the MindSpore and MXNet mirrors: cellonnx.nn, ops and the
operator classes, numpy, dataset, train, communication, gluon, mxnet ...) has a docstring with a summary and
an ``Examples:`` section, or is still listed in tests/docs/pending/<namespace>.txt; a listed name that has
got its example fails, so the lists only shrink. The examples run as doctests: those of module-level objects
in tests/docs/test_doctests.py, the others (objects built from tables, re-bound functions) here.

    python -m tests.docs.api_examples     # the figures per namespace
"""
from __future__ import annotations

import doctest
import io
from functools import cache
from pathlib import Path

import pytest

from tests.docs.api_examples import NAMESPACES, has_example, has_summary, names, pending


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_name_has_an_example_or_is_pending(namespace: str) -> None:
    objects = names()[namespace]
    lacking = {name for name, obj in objects.items() if not has_example(obj)}
    missing = sorted(lacking - pending(namespace))
    no_doc = [name for name in missing if not has_summary(objects[name])]
    assert not missing, (f"{namespace}: no docstring example for {missing} (no docstring at all: {no_doc}); "
                         f"write one (summary, Examples: with doctest lines)")


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_pending_names_still_lack_their_example(namespace: str) -> None:
    objects = names()[namespace]
    listed = pending(namespace)
    unknown = sorted(listed - set(objects))
    assert not unknown, f"{namespace}: pending names that are not public names of the namespace: {unknown}"
    done = sorted(name for name in listed if has_example(objects[name]))
    assert not done, f"{namespace}: these have an example now; take them off pending/{namespace}.txt: {done}"


@cache
def _run_by_module_doctests() -> frozenset[str]:
    from tests.docs.test_doctests import MODULES_WITH_EXAMPLES, _tests

    return frozenset(t.docstring for name in MODULES_WITH_EXAMPLES for t in _tests(name) if t.docstring)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_examples_not_found_by_module_doctests_run(namespace: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.docs.test_doctests import namespace as doctest_globals

    monkeypatch.chdir(tmp_path)
    parser, failures = doctest.DocTestParser(), []
    for name, obj in names()[namespace].items():
        doc = obj.__doc__ or ""
        if not has_example(obj) or doc in _run_by_module_doctests():
            continue
        test = parser.get_doctest(doc, doctest_globals(), f"{namespace}.{name}", None, 0)
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        if runner.run(test, out=out.write).failed:
            failures.append(out.getvalue())
    assert not failures, "\n".join(failures)
