"""Module aliasing: ``cellonnx.mxnet.gluon`` (and each of its submodules) is the very module object of
``cellonnx.gluon`` under MXNet's layout, so ``from cellonnx.mxnet.gluon.nn import Dense`` and
``import cellonnx.mxnet.gluon.block`` find the same classes; likewise mx.autograd, mx.initializer."""
from __future__ import annotations

import importlib
import pkgutil
import sys
from types import ModuleType

__all__ = ["alias", "alias_package"]


def alias(name: str, module: ModuleType) -> ModuleType:
    """Make ``import name`` give ``module``."""
    sys.modules[name] = module
    return module


def alias_package(name: str, package: ModuleType) -> ModuleType:
    """Alias ``package`` and every module below it under ``name``."""
    alias(name, package)
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        alias(name + info.name[len(package.__name__):], module)
    return package
