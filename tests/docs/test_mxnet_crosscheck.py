"""The tables of tests/docs/mxnet_crosscheck.py (run by hand under real MXNet 1.9.1, which the tests do not
need) name examples that exist: a shim or a cellonnx-only reason for a name without an example, or for a
name that left the namespace, would silently check nothing."""
from __future__ import annotations

from tests.docs.api_examples import has_example, names
from tests.docs.mxnet_crosscheck import CELLONNX_ONLY, NAMESPACES, SHIMS, shimmed


def test_tables_name_examples() -> None:
    keyed = {f"{ns}.{name}": obj for ns in NAMESPACES for name, obj in names()[ns].items()}
    for key in [*SHIMS, *CELLONNX_ONLY]:
        assert key in keyed, f"{key}: not a public name of the MXNet namespaces"
        assert has_example(keyed[key]), f"{key}: has no docstring example to check"


def test_shims_bind_on_the_import_line() -> None:
    keyed = {f"{ns}.{name}": obj for ns in NAMESPACES for name, obj in names()[ns].items()}
    for key, shim in SHIMS.items():
        assert f"from cellonnx.mxnet import nd; {shim}\n" in shimmed(key, keyed[key].__doc__ or ""), key
