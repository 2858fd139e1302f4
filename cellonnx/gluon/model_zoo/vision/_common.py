"""What the model-zoo constructors share: loading pretrained parameters from a local MXNet file."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon.model_zoo.model_store import get_model_file

__all__ = ["finish"]


def finish(net: Any, name: str, pretrained: bool, root: Any = None) -> Any:
    """``net`` with MXNet's pretrained parameters for ``name`` loaded when ``pretrained`` (from ``root``)."""
    if pretrained:
        net.load_parameters(get_model_file(name, root))
    return net
