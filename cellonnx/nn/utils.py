"""Network utilities (``mindspore.nn.utils``): no_init_parameters, the context for building a network whose
parameters a checkpoint will fill."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters() -> Iterator[None]:
    """Build a network inside this context when a checkpoint will replace its parameters.

    MindSpore leaves the initializers of the parameters created inside unrun until the checkpoint is loaded,
    to save the time and memory. cellonnx's initializers run as the parameters are created (in NumPy), so the
    context changes nothing: the network is built the same way and the loaded checkpoint gives the same
    values.

    Examples:
        >>> ms.save_checkpoint(nn.Dense(3, 2), "net.ckpt")
        >>> with nn.no_init_parameters():
        ...     net = nn.Dense(3, 2)
        >>> _ = ms.load_checkpoint("net.ckpt", net)
    """
    yield
