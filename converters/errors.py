"""The one exception every checkpoint reader raises on a bad file."""
from __future__ import annotations

import os


class CheckpointError(ValueError):
    """A checkpoint file could not be read (or written): names the file and what was wrong.

    Args:
        path: the file involved.
        message: what was found and what was expected (key, offset, sizes ...).

    Examples:
        >>> from cellonnx.converters import CheckpointError
        >>> raise CheckpointError("net.ckpt", "tensor 'fc.weight': 12 bytes, expected 24")
        Traceback (most recent call last):
        cellonnx.converters.errors.CheckpointError: net.ckpt: tensor 'fc.weight': 12 bytes, expected 24
    """

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = os.fspath(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")

    def __reduce__(self) -> tuple[type[CheckpointError], tuple[str, str]]:
        return (type(self), (self.path, self.message))
