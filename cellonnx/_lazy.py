"""Modules imported on their first use."""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """``name`` as a module whose code runs on its first attribute access: SciPy's special functions and
    linear algebra, which only a few ops call, were a third of ``import cellonnx`` (0.34 of 1.0 s). A module
    already imported is returned as it is.

    Examples:
        >>> from cellonnx._lazy import lazy_import
        >>> lazy_import("json").dumps([1])
        '[1]'
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module
