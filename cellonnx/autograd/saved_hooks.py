"""Hooks on the tensors the autograd tape saves for backward (mindspore.saved_tensors_hooks).

While a ``saved_tensors_hooks(pack_hook, unpack_hook)`` scope is active, every op recorded on the tape passes
the tensors its gradient keeps (its inputs, and its output where the gradient reads it) through ``pack_hook``
and stores what that returns; backward gets them back through ``unpack_hook``, once per use. Ops whose
gradient needs only the inputs' shapes (Add, Sub, ...) save no tensor and call no hook, as in MindSpore.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class _HookStack(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Callable, Callable]] = []
        self.packing = False


_STATE = _HookStack()


def active() -> tuple[Callable, Callable] | None:
    """The innermost (pack_hook, unpack_hook) pair, or None (also while a pack hook itself runs)."""
    st = _STATE
    if not st.stack or st.packing:
        return None
    return st.stack[-1]


def pack(hooks: tuple[Callable, Callable], t: Any) -> Any:
    """Run the pack hook on ``t`` with the hooks and the tape off (what it computes is not recorded)."""
    from cellonnx.autograd.tape import set_grad_enabled

    st = _STATE
    st.packing = True
    try:
        with set_grad_enabled(False):
            return hooks[0](t)
    finally:
        st.packing = False


def unpack(hooks: tuple[Callable, Callable], packed: Any, op_name: str) -> Any:
    from cellonnx.tensor import Tensor

    out = hooks[1](packed)
    if not isinstance(out, Tensor):
        raise TypeError(f"saved_tensors_hooks: unpack_hook must return a Tensor for a tensor saved by op "
                        f"{op_name}, but got {type(out).__name__}")
    return out


class saved_tensors_hooks:
    """A context manager that sets how tensors saved for backward are packed and unpacked.

    Args:
        pack_hook (Callable): ``pack_hook(tensor) -> Any``, called on each tensor an op saves for its
            gradient, in the forward pass; what it returns is stored instead of the tensor.
        unpack_hook (Callable): ``unpack_hook(packed) -> Tensor``, called in the backward pass on what
            ``pack_hook`` returned; the gradient computes with the tensor it returns.

    Examples:
        >>> import cellonnx as ms
        >>> x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
        >>> def f(x, y):
        ...     with ms.saved_tensors_hooks(lambda t: t + 1, lambda t: t):  # Mul saves x and y, packed + 1
        ...         return (x * y).sum()
        >>> dx, dy = ms.grad(f, grad_position=(0, 1))(x, y)
        >>> print(dx.asnumpy(), dy.asnumpy())
        [4. 5.] [2. 3.]
    """

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError("saved_tensors_hooks: pack_hook and unpack_hook must be callable, but got "
                            f"{type(pack_hook).__name__} and {type(unpack_hook).__name__}")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self.pushed = False

    def __enter__(self) -> saved_tensors_hooks:
        _STATE.stack.append((self.pack_hook, self.unpack_hook))
        self.pushed = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.pushed:
            _STATE.stack.pop()
            self.pushed = False


def register_saved_tensors_hooks(pack_hook: Callable[[Any], Any],
                                 unpack_hook: Callable[[Any], Any]) -> Callable[[Callable], Callable]:
    """Decorator form of :class:`saved_tensors_hooks`: the function's body runs inside the hooks' scope.

    Args:
        pack_hook (Callable): see :class:`saved_tensors_hooks`.
        unpack_hook (Callable): see :class:`saved_tensors_hooks`.

    Returns:
        A decorator.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> def pack(t):
        ...     return t * 1
        >>> def unpack(t):
        ...     return t
        >>> @ms.register_saved_tensors_hooks(pack, unpack)
        ... def f(x):
        ...     return (x * x).sum()
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ms.grad(f)(x))
        [2. 4.]
    """
    import functools

    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with saved_tensors_hooks(pack_hook, unpack_hook):
                return func(*args, **kwargs)
        wrapped._saved_tensors_pack_hook = pack_hook  # type: ignore[attr-defined]
        wrapped._saved_tensors_unpack_hook = unpack_hook  # type: ignore[attr-defined]
        return wrapped
    return decorator
