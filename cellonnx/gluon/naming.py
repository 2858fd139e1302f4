"""MXNet 1.x's block and parameter naming: prefixes from name scopes and counters.

A Gluon 1.x block gets a prefix when it is created: inside ``with parent.name_scope():`` it is the parent's
prefix plus the block's hint and a count per hint in that scope (``resnetv10_conv0_``), outside any scope the
hint and a count kept by the current NameManager (``dense0_``); an explicit ``prefix='stage1_'`` replaces the
hint and count ('' reuses the parent's prefix, and entering such a block's scope changes nothing). A
parameter's 1.x name is its block's parameter prefix plus its own name (``resnetv10_conv0_weight``).

Blocks created with ``prefix=`` / ``params=``, inside a name scope, or of a class that defines
``hybrid_forward`` follow 1.x naming (see ``Block.collect_params``); the prefixes are kept for every block.
Code built only from gluon.nn layers with none of these (``nn.Dense(3)`` alone) reads the same in Gluon 1.x
and 2.x; it follows 2.x (structural names) unless ``set_mode('1.x')`` says the code is 1.x code.
"""
from __future__ import annotations

import threading
from typing import Any

__all__ = ["BlockScope", "NameManager", "Prefix", "create", "get_mode", "in_scope", "mode", "set_mode"]

_MODES = ("auto", "1.x", "2.x")
_mode = ["auto"]


def set_mode(value: str) -> str:
    """Which naming blocks created from now on follow: 'auto' (1.x for 1.x code, see the module docstring),
    '1.x' or '2.x'; returns the previous mode."""
    if value not in _MODES:
        raise ValueError(f"naming mode must be one of {_MODES}, got {value!r}")
    prev, _mode[0] = _mode[0], value
    return prev


def get_mode() -> str:
    return _mode[0]


class mode:
    """Scope with naming mode ``value`` (see set_mode)."""

    def __init__(self, value: str) -> None:
        self._value, self._prev = value, "auto"

    def __enter__(self) -> mode:
        self._prev = set_mode(self._value)
        return self

    def __exit__(self, *exc: Any) -> None:
        set_mode(self._prev)


class NameManager:
    """Counts generated names per hint: ``get(None, 'dense')`` gives dense0, dense1, ...; ``with
    NameManager():`` starts fresh counts for the block."""

    _current = threading.local()

    def __init__(self) -> None:
        self._counter: dict[str, int] = {}
        self._old_manager: NameManager | None = None

    def get(self, name: str | None, hint: str) -> str:
        """``name`` if given, else the hint and its next count."""
        if name:
            return name
        count = self._counter.get(hint, 0)
        self._counter[hint] = count + 1
        return f"{hint}{count}"

    def __enter__(self) -> NameManager:
        self._old_manager = current_manager()
        NameManager._current.value = self
        return self

    def __exit__(self, *exc: Any) -> None:
        NameManager._current.value = self._old_manager


class Prefix(NameManager):
    """A NameManager that puts ``prefix`` before every generated name."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self._prefix = prefix

    def get(self, name: str | None, hint: str) -> str:
        return self._prefix + super().get(name, hint)


def current_manager() -> NameManager:
    manager = getattr(NameManager._current, "value", None)
    if manager is None:
        manager = NameManager._current.value = NameManager()
    return manager


class BlockScope:
    """What ``block.name_scope()`` returns: while entered, blocks created are named under ``block``."""

    _current = threading.local()

    def __init__(self, block: Any) -> None:
        self._block = block
        self._counter: dict[str, int] = {}
        self._old_scope: BlockScope | None = None
        self._name_scope: Prefix | None = None

    def __enter__(self) -> BlockScope:
        if self._block._empty_prefix:
            return self
        self._old_scope = getattr(BlockScope._current, "value", None)
        BlockScope._current.value = self
        self._name_scope = Prefix(self._block._prefix)
        self._name_scope.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._block._empty_prefix:
            return
        if self._name_scope is not None:
            self._name_scope.__exit__(*exc)
        self._name_scope = None
        BlockScope._current.value = self._old_scope


def in_scope() -> bool:
    """Whether a block's name scope is entered."""
    return getattr(BlockScope._current, "value", None) is not None


def create(prefix: str | None, params: Any, hint: str) -> tuple[str, str, Any]:
    """(block prefix, parameter prefix, shared parameters) of a new block, as MXNet 1.x's
    ``_BlockScope.create`` computes them. ``params`` is a ParameterDict to share (``params=`` argument)."""
    current = getattr(BlockScope._current, "value", None)
    if current is None:
        if prefix is None:
            prefix = current_manager().get(None, hint) + "_"
        if params is None:
            return prefix, prefix, None
        return prefix, getattr(params, "prefix", prefix), params
    if prefix is None:
        count = current._counter.get(hint, 0)
        prefix = f"{hint}{count}_"
        current._counter[hint] = count + 1
    parent = current._block
    full = parent._prefix + prefix
    if params is None:
        return full, parent._param_prefix + prefix, parent._shared_params
    return full, getattr(params, "prefix", full), params
