"""Unique names in a rewrite: node names and targets within a SymbolTree, class names within a process.

A name that is taken again gets a numeric suffix (``relu``, ``relu_1``, ``relu_2``); a request for a name that
already carries a suffix (``relu_1``) is checked against the counter of its stem, as MindSpore's Namer does,
so suffixed names never collide with generated ones.
"""
from __future__ import annotations


def _split_suffix(name: str) -> tuple[str, int | None]:
    """``name_12`` -> (``name``, 12); a name without a numeric suffix -> (name, None)."""
    stem, sep, digits = name.rpartition("_")
    if not sep or not digits or not digits.isdigit() or name == "_":
        return name, None
    return stem, int(digits)


class Namer:
    """Hands out names unique within one scope."""

    def __init__(self) -> None:
        self._count: dict[str, int] = {}

    def get_name(self, origin: str) -> str:
        """A name based on `origin` that was not handed out before (recorded as taken)."""
        if origin == "_":
            return origin
        stem, suffix = _split_suffix(origin)
        number = self._count.get(origin)
        if number is None:
            self._count[origin] = 1
            if not suffix or not self._count.get(stem, -1) > suffix:
                return origin
            number = 1
        while True:
            candidate = f"{origin}_{number}"
            number += 1
            self._count[origin] = number
            if candidate not in self._count:
                return candidate

    def add_name(self, name: str) -> None:
        """Record `name` as taken."""
        self._count.setdefault(name, 1)


class _GlobalNamer(Namer):
    """A process-wide namer with a fixed ending (class names of rewritten networks: ``LeNet5Opt``)."""

    def __init__(self, ending: str) -> None:
        super().__init__()
        self.ending = ending

    def get_name(self, origin: str) -> str:
        return super().get_name(origin + self.ending)

    def reset(self) -> None:
        self._count.clear()


CLASS_NAMER = _GlobalNamer("Opt")

# Names of the functions a rewrite parses (``helper``, ``split_opt``); MindSpore keeps one namer for the whole
# process, cellonnx starts it afresh with every SymbolTree.create, so the names do not depend on what was
# rewritten before (they equal MindSpore's for the first network rewritten in a process).
FUNCTION_NAMER = _GlobalNamer("")
