"""Optimizers with MindSpore's names, signatures and update formulas."""
from __future__ import annotations

from cellonnx.nn.optim.ada_grad import Adagrad, ProximalAdagrad
from cellonnx.nn.optim.adadelta import Adadelta
from cellonnx.nn.optim.adafactor import AdaFactor
from cellonnx.nn.optim.adam import Adam, AdamWeightDecay
from cellonnx.nn.optim.adam_variants import AdamOffload, LazyAdam
from cellonnx.nn.optim.adamax import AdaMax
from cellonnx.nn.optim.asgd import ASGD
from cellonnx.nn.optim.ftrl import FTRL
from cellonnx.nn.optim.lamb import Lamb
from cellonnx.nn.optim.lars import LARS
from cellonnx.nn.optim.legacy import AdamWeightDecayDynamicLR
from cellonnx.nn.optim.momentum import Momentum
from cellonnx.nn.optim.optimizer import Optimizer, opt_init_args_register
from cellonnx.nn.optim.rmsprop import RMSProp
from cellonnx.nn.optim.rprop import Rprop
from cellonnx.nn.optim.sgd import SGD
from cellonnx.nn.optim.thor import thor

__all__ = [
           "LARS",
           "SGD",
           "Adam",
           "AdamWeightDecay",
           "Lamb",
           "Momentum",
           "Optimizer",
           "opt_init_args_register",
]
__all__ += ["ASGD", "FTRL", "AdaFactor", "AdaMax", "Adadelta", "Adagrad", "AdamOffload", "LazyAdam",
            "ProximalAdagrad", "RMSProp", "Rprop"]
__all__ += ["AdamWeightDecayDynamicLR"]
__all__ += ["thor"]
