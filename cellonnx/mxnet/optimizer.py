"""mx.optimizer: MXNet 1.9's optimizers (gluon.optimizer's, the same classes), ``register``, ``create``,
``Updater`` / ``get_updater``, and ``contrib`` (GroupAdaGrad)."""
from __future__ import annotations

from cellonnx.gluon import optimizer_contrib as contrib
from cellonnx.gluon.optimizer import (
    DCASGD,
    FTML,
    LAMB,
    LARS,
    LBSGD,
    NAG,
    SGD,
    SGLD,
    AdaDelta,
    AdaGrad,
    Adam,
    Adamax,
    Ftrl,
    Nadam,
    Optimizer,
    RMSProp,
    Signum,
    Test,
    Updater,
    ccSGD,
    create,
    get_updater,
    register,
)

__all__ = ["DCASGD", "FTML", "LAMB", "LARS", "LBSGD", "NAG", "SGD", "SGLD", "AdaDelta", "AdaGrad", "Adam",
           "Adamax", "Ftrl", "Nadam", "Optimizer", "RMSProp", "Signum", "Test", "Updater", "ccSGD", "contrib",
           "create", "get_updater", "register"]
