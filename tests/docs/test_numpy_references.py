"""The docstring examples MindSpore's CPU build cannot run are checked against NumPy instead
(tests/docs/numpy_references.py): each reference names a public name with an example, and prints what the
example prints."""
from __future__ import annotations

import pytest

from tests.docs.api_examples import has_example, names
from tests.docs.check_against_mindspore import _against_numpy, renamed
from tests.docs.numpy_references import REFERENCES


def _objects() -> dict[str, object]:
    """Every documented name; where namespaces share a name, the first namespace's object."""
    return {name: obj for objects in reversed(list(names().values())) for name, obj in objects.items()}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_example_prints_what_numpy_prints(name: str) -> None:
    obj = _objects().get(name)
    assert obj is not None and has_example(obj), f"{name}: no public name with an example"
    result = _against_numpy(renamed(obj.__doc__ or ""), REFERENCES[name])
    assert result["status"] == "numpy ok", f"{name}:\n{result['detail']}"
