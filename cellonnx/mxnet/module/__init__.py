"""mxnet.module (also ``mx.mod``): MXNet 1.x's symbolic modules: Module, BucketingModule,
SequentialModule, PythonModule and PythonLossModule, on BaseModule's fit / score / predict."""
from __future__ import annotations

from cellonnx.mxnet.module import base_module, module
from cellonnx.mxnet.module.base_module import BaseModule
from cellonnx.mxnet.module.module import Module

__all__ = ["BaseModule", "Module", "base_module", "module"]
