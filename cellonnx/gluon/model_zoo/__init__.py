"""gluon.model_zoo: MXNet's model zoo (``model_zoo.vision.get_model('resnet18_v1', classes=10)``)."""
from __future__ import annotations

from cellonnx.gluon.model_zoo import model_store, vision
from cellonnx.gluon.model_zoo.vision import get_model

__all__ = ["get_model", "model_store", "vision"]
