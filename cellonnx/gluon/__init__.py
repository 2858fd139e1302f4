"""cellonnx.gluon: MXNet Gluon's surface over nn.Cell - Block / HybridBlock with ``forward``, Parameter with
deferred shapes and grad_req, gluon.nn layers, losses, Trainer, autograd scopes and initializers - reading and
writing MXNet's .params files and compiling hybridized blocks to ONNX.

    from cellonnx import gluon
    from cellonnx.gluon import autograd, nn
"""
from __future__ import annotations

from cellonnx.gluon import autograd, contrib, data, init, loss, metric, model_zoo, nn, optimizer, rnn, utils
from cellonnx.gluon.block import Block
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.parameter import Constant, DeferredInitializationError, Parameter
from cellonnx.gluon.parameter_dict import ParameterDict
from cellonnx.gluon.symbol import SymbolBlock
from cellonnx.gluon.trainer import Trainer

initializer = init

__all__ = ["Block", "Constant", "DeferredInitializationError", "HybridBlock", "Parameter", "ParameterDict",
           "SymbolBlock", "Trainer", "autograd", "contrib", "data", "init", "initializer", "loss", "metric",
           "model_zoo", "nn", "optimizer", "rnn", "utils"]
