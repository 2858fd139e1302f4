"""Serving ONNX files and Triton model repositories over the KServe v2 (Open Inference) protocol, HTTP and
gRPC, with onnxruntime, and exporting ONNX files to a Triton model repository. Sits on onnxruntime only: it
serves any ONNX file, not just cellonnx's."""
from __future__ import annotations

from cellonnx.serve.app import create_app
from cellonnx.serve.config import ServerConfig
from cellonnx.serve.errors import ModelLoadError
from cellonnx.serve.model import ServedModel, TensorSpec, load_signature
from cellonnx.serve.registry import CONTROL_MODES, Registry
from cellonnx.serve.server import Server, make_server
from cellonnx.serve.triton import export_model_repository, model_config, to_pbtxt

__all__ = ["CONTROL_MODES", "ModelLoadError", "Registry", "ServedModel", "Server", "ServerConfig",
           "TensorSpec", "create_app", "export_model_repository", "load_signature", "make_server",
           "model_config", "to_pbtxt"]
