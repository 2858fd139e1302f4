"""What happened when a checkpoint met the parameters it was meant for."""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Mismatch:
    """A name present on both sides whose shape or dtype differs.

    Examples:
        >>> from cellonnx.converters import compare
        >>> print(compare({"w": np.zeros((3, 2))}, {"w": (2, 3)}).mismatched[0])
        w: expected shape (2, 3), found (3, 2)
    """

    name: str
    expected_shape: tuple[int, ...]
    found_shape: tuple[int, ...]
    expected_dtype: str | None = None
    found_dtype: str | None = None

    def __str__(self) -> str:
        if self.expected_shape != self.found_shape:
            return f"{self.name}: expected shape {self.expected_shape}, found {self.found_shape}"
        return f"{self.name}: expected dtype {self.expected_dtype}, found {self.found_dtype}"


@dataclass
class LoadReport:
    """Loaded, missing, unexpected and mismatched names, plus names a mapping dropped on purpose.

    `nearest` gives, for each missing or unexpected name, the closest names on the other side (difflib); `notes`
    says what else was done on the way (the source framework chosen, a name prefix removed ...).

    Examples:
        >>> from cellonnx.converters import compare
        >>> report = compare({"w": np.zeros((2, 3))}, {"w": (2, 3), "b": (3,)})
        >>> print(report.loaded, report.missing)
        ['w'] ['b']
    """

    loaded: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    mismatched: list[Mismatch] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    nearest: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    mapping: list[Any] = field(default_factory=list)  # MappingEntry rows: target <- source, shapes, rule

    @property
    def ok(self) -> bool:
        return not (self.missing or self.unexpected or self.mismatched)

    def lines(self) -> list[str]:
        """The report as lines of text: counts, then missing, unexpected and mismatched keys."""
        out = [f"loaded {len(self.loaded)} tensors"]
        if self.missing:
            out.append(f"missing {len(self.missing)} (expected, not in checkpoint): " + self._with_nearest(self.missing))
        if self.unexpected:
            out.append(f"{len(self.unexpected)} not expected (in checkpoint only): "
                       + self._with_nearest(self.unexpected))
        out.extend(f"mismatch {m}" for m in self.mismatched)
        if self.dropped:
            out.append(f"dropped {len(self.dropped)} by the mapping: {', '.join(self.dropped)}")
        out.extend(self.notes)
        return out

    def mapping_lines(self) -> list[str]:
        """The mapping table, one ``target (shape) <- source (shape)  [rule]`` line per tensor."""
        return [e.line() for e in self.mapping]

    def save_mapping(self, path: Any, **labels: str) -> None:
        """Write the mapping table as JSON (cellonnx.converters.structure.save_mapping), to review, edit and
        pass back as ``mapping=`` / ``--mapping``."""
        from cellonnx.converters.structure import save_mapping

        save_mapping(path, self.mapping, dropped=self.dropped, **labels)

    def _with_nearest(self, names: Iterable[str]) -> str:
        parts = []
        for name in names:
            near = self.nearest.get(name)
            parts.append(f"{name} (nearest: {', '.join(near)})" if near else name)
        return "; ".join(parts)

    def __str__(self) -> str:
        return "\n".join(self.lines())


def compare(found: Mapping[str, Any], expected: Mapping[str, Any], *, check_dtype: bool = True,
            dropped: Iterable[str] = ()) -> LoadReport:
    """Match checkpoint tensors against expected parameters.

    Args:
        found: name -> array (the checkpoint).
        expected: name -> array, or name -> shape tuple (the parameters to fill).
        check_dtype: also report dtype differences (only where `expected` holds arrays).
        dropped: names a mapping removed on purpose, carried into the report.

    Examples:
        >>> from cellonnx.converters import compare
        >>> report = compare({"w": np.zeros((2, 3)), "extra": np.zeros(1)}, {"w": (2, 3), "b": (3,)})
        >>> print(report)
        loaded 1 tensors
        missing 1 (expected, not in checkpoint): b
        1 not expected (in checkpoint only): extra
    """
    report = LoadReport(dropped=list(dropped))
    for name, want in expected.items():
        if name not in found:
            report.missing.append(name)
            continue
        have = np.asarray(found[name]) if not hasattr(found[name], "shape") else found[name]
        want_shape = tuple(want) if isinstance(want, (tuple, list)) else tuple(want.shape)
        if tuple(have.shape) != want_shape:
            report.mismatched.append(Mismatch(name, want_shape, tuple(have.shape)))
        elif check_dtype and hasattr(want, "dtype") and np.dtype(want.dtype) != np.dtype(have.dtype):
            report.mismatched.append(Mismatch(name, want_shape, tuple(have.shape), str(want.dtype),
                                              str(have.dtype)))
        else:
            report.loaded.append(name)
    report.unexpected = [name for name in found if name not in expected]
    for name in report.missing:
        report.nearest[name] = difflib.get_close_matches(name, report.unexpected, n=3, cutoff=0.5)
    for name in report.unexpected:
        report.nearest[name] = difflib.get_close_matches(name, report.missing, n=3, cutoff=0.5)
    return report
