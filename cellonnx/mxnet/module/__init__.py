"""mxnet.module (also ``mx.mod``): MXNet 1.x's symbolic modules: Module, BucketingModule,
SequentialModule, PythonModule and PythonLossModule, on BaseModule's fit / score / predict."""
from __future__ import annotations

from cellonnx.mxnet.module import base_module, bucketing_module, module, python_module, sequential_module
from cellonnx.mxnet.module.base_module import BaseModule
from cellonnx.mxnet.module.bucketing_module import BucketingModule
from cellonnx.mxnet.module.module import Module
from cellonnx.mxnet.module.python_module import PythonLossModule, PythonModule
from cellonnx.mxnet.module.sequential_module import SequentialModule

__all__ = ["BaseModule", "BucketingModule", "Module", "PythonLossModule", "PythonModule", "SequentialModule",
           "base_module", "bucketing_module", "module", "python_module", "sequential_module"]
