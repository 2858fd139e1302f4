"""``mx.contrib.svrg_optimization``: stochastic variance reduced gradient (SVRG) training of a Module
(``SVRGModule``) and its helper optimizers, as MXNet 1.9.1 has them."""
from __future__ import annotations

from cellonnx.mxnet.contrib.svrg_optimization import svrg_module, svrg_optimizer
from cellonnx.mxnet.contrib.svrg_optimization.svrg_module import SVRGModule

__all__ = ["SVRGModule", "svrg_module", "svrg_optimizer"]
