"""The docstring examples MindSpore's CPU build cannot run are checked against NumPy instead
(tests/docs/numpy_references.py): each reference names a public name of its namespace that has an example,
and prints what the example prints."""
from __future__ import annotations

import pytest

from tests.docs.api_examples import has_example, names
from tests.docs.check_against_mindspore import _against_numpy, renamed
from tests.docs.numpy_references import REFERENCES

CASES = sorted((namespace, name) for namespace, refs in REFERENCES.items() for name in refs)


@pytest.mark.parametrize(("namespace", "name"), CASES)
def test_example_prints_what_numpy_prints(namespace: str, name: str) -> None:
    obj = names()[namespace].get(name)
    assert obj is not None and has_example(obj), f"{namespace}.{name}: no public name with an example"
    result = _against_numpy(renamed(obj.__doc__ or ""), REFERENCES[namespace][name])
    assert result["status"] == "numpy ok", f"{namespace}.{name}:\n{result['detail']}"
