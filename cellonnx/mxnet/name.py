"""mxnet.name: the automatic naming of MXNet 1.x (``dense0``, ``dense1`` ...).

A NameManager counts names per hint; ``with NameManager():`` starts fresh counts, ``with Prefix('net_'):``
prefixes every generated name. Gluon 1.x blocks created outside any block's ``name_scope()`` take their
prefix from the current manager, so ``with mx.name.NameManager():`` around model construction gives the
same names on every run (MXNet's counters are process-wide otherwise).
"""
from __future__ import annotations

from cellonnx.gluon.naming import NameManager, Prefix

__all__ = ["NameManager", "Prefix"]
