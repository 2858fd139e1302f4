"""mx.metric (MXNet 1.x): gluon.metric's metrics."""
from __future__ import annotations

from cellonnx.gluon.metric import *
from cellonnx.gluon.metric import __all__
