"""Which device an MXNet array is on: ``x.ctx`` / ``x.context`` / ``x.device``.

Arrays are computed on the host; the device is what MXNet code asked for, kept on the array (in its
``__dict__``, only when it is not cpu(0)) so that ``mx.nd.array(x, ctx=mx.cpu(1)).ctx``, results of
operators on it, ``as_in_context`` and ``copyto`` report it as MXNet does. A GPU device is refused with
MXNet's error when onnxruntime has no CUDA provider here.
"""
from __future__ import annotations

from typing import Any

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.device import Device, cpu, current_device, num_gpus
from cellonnx.tensor import Tensor

__all__ = ["device_arg", "device_of", "follow", "place"]

_KEY = "_mx_device"
_CPU0 = cpu(0)


def device_arg(device: Any) -> Device:
    """``device`` (a Device, a Device-like string such as 'cpu(1)', or None for the current one) checked:
    a GPU needs onnxruntime's CUDA provider."""
    if device is None:
        return current_device()
    if isinstance(device, str):
        kind, _, rest = device.partition("(")
        device = Device(kind.strip(), int(rest.rstrip(")") or 0))
    if not isinstance(device, Device):
        raise TypeError(f"expected a Device (mx.cpu() / mx.gpu(i)), got {type(device).__name__}: {device!r}")
    if device.device_type == "gpu" and device.device_id >= num_gpus():
        raise MXNetError(f"{device}: no such GPU here (mx.num_gpus() is {num_gpus()}: onnxruntime has no "
                         "CUDA execution provider); MXNet says: Compile with USE_CUDA=1 to enable GPU usage")
    return device


def device_of(x: Any) -> Device:
    """The device array ``x`` is on (cpu(0) unless placed elsewhere)."""
    return (x.__dict__.get(_KEY) if isinstance(x, Tensor) else None) or _CPU0


def place(x: Any, device: Device) -> Any:
    """``x`` (and the arrays of a list / tuple of them) marked as on ``device``; returns ``x``."""
    if isinstance(x, (list, tuple)):
        for e in x:
            place(e, device)
    elif isinstance(x, Tensor):
        if device == _CPU0:
            x.__dict__.pop(_KEY, None)
        else:
            x.__dict__[_KEY] = device
    return x


def follow(out: Any, args: tuple, kwargs: dict) -> Any:
    """``out`` placed on the device of the first array among ``args`` / ``kwargs`` (an operator's result
    is where its inputs are), when that is not cpu(0)."""
    for a in (*args, *kwargs.values()):
        if isinstance(a, (list, tuple)) and a and isinstance(a[0], Tensor):
            a = a[0]
        if isinstance(a, Tensor):
            device = a.__dict__.get(_KEY)  # (not getattr: Tensor's __getattr__ fallback is slow)
            return out if device is None else place(out, device)
    return out


def keep_device(cls: type, names: tuple[str, ...]) -> None:
    """Make the methods / properties ``names`` of array class ``cls`` give results on the array's device."""
    import functools

    for name in names:
        attr = cls.__dict__.get(name)
        if isinstance(attr, property):
            getter = attr.fget

            def get(self: Any, _get: Any = getter) -> Any:
                return follow(_get(self), (self,), {})
            setattr(cls, name, property(functools.wraps(getter)(get), attr.fset, attr.fdel, attr.__doc__))
        elif callable(attr):
            def method(self: Any, *args: Any, _fn: Any = attr, **kwargs: Any) -> Any:
                return follow(_fn(self, *args, **kwargs), (self,), {})
            setattr(cls, name, functools.wraps(attr)(method))
