"""Random number generators with MindSpore 2.10's interface: ``Generator`` (a seed and an offset),
``default_generator`` and the functions over it (``manual_seed``, ``seed``, ``initial_seed``,
``get_rng_state``, ``set_rng_state``).

A generator's state is its seed and offset, as in MindSpore: ``get_state()`` gives them as 16 uint8 bytes
(two little-endian int64), ``set_state()`` takes them back, and the numbers drawn after restoring a state are
the ones drawn after it was saved. The numbers come from NumPy's Philox counter-based generator keyed by the
seed, the offset counting the blocks drawn; they are not MindSpore's numbers (its kernels use their own
Philox streams per device).

The default generator feeds the ops that take ``generator=`` when given none; ``set_seed`` (the global seed
of the ``seed=`` ops) leaves it alone, as in MindSpore.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from cellonnx.tensor import Tensor

T = TypeVar("T")

__all__ = ["Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]

_STATE_BYTES = 16


class Generator:
    """A random number generator: a seed and an offset (how far the stream has been drawn).

    Examples:
        >>> generator = ms.Generator()
        >>> generator.manual_seed(5)
        Generator(seed=5, offset=0)
        >>> generator.initial_seed()
        5
        >>> state = generator.get_state()
        >>> new_seed = generator.seed()  # a fresh, non-deterministic seed
        >>> generator.set_state(state)
        >>> generator.initial_seed()
        5
    """

    def __init__(self) -> None:
        self._seed = 0
        self._offset = 0

    def set_state(self, state: Tensor) -> None:
        """Restore the state saved by ``get_state`` (a uint8 Tensor of 16 bytes: seed, offset)."""
        data = np.ascontiguousarray(state.asnumpy() if isinstance(state, Tensor) else np.asarray(state))
        if data.dtype != np.uint8 or data.size != _STATE_BYTES:
            raise RuntimeError(f"State data size must be {_STATE_BYTES}, but got {data.size}"
                               if data.dtype == np.uint8 else
                               f"State must be a uint8 Tensor of {_STATE_BYTES} bytes, got dtype "
                               f"{data.dtype}")
        self._seed, self._offset = (int(v) for v in data.reshape(-1).view("<i8"))

    def get_state(self) -> Tensor:
        """The state: a uint8 Tensor of 16 bytes, the seed and the offset as little-endian int64."""
        return Tensor(np.array([self._seed, self._offset], "<i8").view(np.uint8).copy())

    def seed(self) -> int:
        """Seed with a random number (from the operating system's entropy) and return it."""
        self._seed, self._offset = secrets.randbits(63), 0
        return self._seed

    def manual_seed(self, seed: int) -> Generator:
        """Set the seed (and restart the stream); returns this generator."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("Seed must be an integer.")
        self._seed, self._offset = seed, 0
        return self

    def initial_seed(self) -> int:
        """The seed the stream started from."""
        return self._seed

    def _step(self, step: Any) -> tuple[Tensor, Tensor]:
        """The current seed and offset, the offset then moved on by ``step``."""
        current = (Tensor(np.int64(self._seed)), Tensor(np.int64(self._offset)))
        self._offset += int(step.asnumpy() if isinstance(step, Tensor) else step)
        return current

    def draw(self, sample: Callable[[np.random.Generator], T]) -> T:
        """Run ``sample`` on a NumPy generator positioned at this stream's offset, then move the offset past
        what it drew: the ops that take ``generator=`` draw through this."""
        bits = np.random.Philox(key=self._seed % (1 << 64), counter=[self._offset, 0, 0, 0])
        out = sample(np.random.Generator(bits))
        counter = bits.state["state"]["counter"]
        self._offset = int(counter[0]) + (int(counter[1]) << 64)
        return out

    def __repr__(self) -> str:
        return f"Generator(seed={self._seed}, offset={self._offset})"


default_generator = Generator()


def seed() -> int:
    """Seed the default generator with a random number and return it.

    Examples:
        >>> import cellonnx as ms
        >>> s = ms.seed()
        >>> ms.initial_seed() == s
        True
    """
    return default_generator.seed()


def manual_seed(seed: int) -> Generator:
    """Set the default generator's seed.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> _ = ms.manual_seed(7)
        >>> a = ops.rand(3)
        >>> _ = ms.manual_seed(7)
        >>> b = ops.rand(3)
        >>> np.array_equal(a.asnumpy(), b.asnumpy())
        False
    """
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """The default generator's seed.

    Examples:
        >>> import cellonnx as ms
        >>> _ = ms.manual_seed(42)
        >>> ms.initial_seed()
        42
    """
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state (see ``Generator.get_state``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> state = ms.get_rng_state()
        >>> a = ops.rand(2)
        >>> ms.set_rng_state(state)
        >>> np.array_equal(ops.rand(2).asnumpy(), a.asnumpy())
        False
    """
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    """Restore the default generator's state.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> state = ms.get_rng_state()
        >>> a = ops.rand(2)
        >>> ms.set_rng_state(state)
        >>> b = ops.rand(2)
        >>> print(bool((a == b).all()))
        False
    """
    default_generator.set_state(state)
