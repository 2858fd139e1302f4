"""GraphProto: an ONNX graph as an MXNet symbol and its parameters (MXNet 1.9.1's
``mxnet.contrib.onnx.onnx2mx.import_onnx.GraphProto``).

Initializers and Constant nodes become the parameters (``arg_params``; BatchNorm's running statistics
``aux_params``), graph inputs without an initializer become the data variables, and each node becomes the
MXNet operators of its translation, named after the node. ONNX shape inference supplies the ranks some
translations need."""
from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet import symbol
from cellonnx.mxnet.contrib.onnx.onnx2mx._fold import fold
from cellonnx.mxnet.contrib.onnx.onnx2mx._import_helper import _convert_map as convert_map
from cellonnx.mxnet.contrib.onnx.onnx2mx._node import Node, TranslationError

__all__ = ["GraphProto"]


class GraphProto:
    """Translates one ONNX graph (``from_onnx``, ``graph_to_gluon``, ``get_graph_metadata``).

    Args:
        model_file (str | None): the file the graph was read from, named in errors. Default: None.

    Examples:
        >>> import onnx
        >>> from onnx import helper, TensorProto
        >>> from cellonnx.mxnet.contrib.onnx.onnx2mx.import_onnx import GraphProto
        >>> graph = helper.make_graph([helper.make_node('Relu', ['x'], ['y'], name='relu0')], 'g',
        ...     [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2, 3])],
        ...     [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 3])])
        >>> sym, arg_params, aux_params = GraphProto().from_onnx(graph, 13)
        >>> sym.list_outputs(), arg_params
        (['relu0_output'], {})
    """

    def __init__(self, model_file: str | None = None) -> None:
        self._nodes: dict[str, Any] = {}
        self._params: dict[str, np.ndarray] = {}
        self._shapes: dict[str, tuple | None] = {}
        self.aux_dict: dict[str, Any] = {}
        self.arg_dict: dict[str, Any] = {}
        self.model_metadata: dict[str, Any] = {}
        self.opset_version = 0
        self.model_file = model_file

    @property
    def params(self) -> dict[str, np.ndarray]:
        """The constant values by ONNX name (initializers and Constant nodes' outputs)."""
        return self._params

    @property
    def nodes(self) -> dict[str, Any]:
        """The Symbols of the tensors translated so far, by ONNX name."""
        return self._nodes

    def where(self) -> str:
        """`` in file '<name>'`` for error messages, where the file is known."""
        return f" in file {self.model_file!r}" if self.model_file else ""

    def shape(self, name: str) -> tuple | None:
        """The shape of tensor ``name`` (None for unknown dimensions), or None where not even its rank is
        known."""
        if name in self._params:
            return tuple(self._params[name].shape)
        return self._shapes.get(name)

    def rank(self, name: str) -> int | None:
        """The rank of tensor ``name``, or None."""
        shape = self.shape(name)
        return None if shape is None else len(shape)

    def _convert_operator(self, proto: Any, attrs: dict[str, Any], inputs: list[Any]) -> Any:
        translate = convert_map.get(proto.op_type)
        node = Node(proto, attrs, inputs, self)
        if translate is None:
            raise TranslationError(f"ONNX operator {proto.op_type} (node {proto.name or proto.output[0]!r}"
                                   f"{self.where()}) has no MXNet translation")
        return translate(node)

    def _infer_shapes(self, graph: Any) -> None:
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset_version)])
        try:
            graph = onnx.shape_inference.infer_shapes(model).graph
        except Exception:  # shape inference is a help: translations that need a rank say so
            pass
        for info in [*graph.input, *graph.value_info, *graph.output]:
            tensor = info.type.tensor_type
            if tensor.HasField("shape"):
                self._shapes[info.name] = tuple(d.dim_value if d.HasField("dim_value") else None
                                                for d in tensor.shape.dim)

    def _constant(self, proto: Any, attrs: dict[str, Any]) -> bool:
        """Fold a Constant (or ConstantOfShape of a constant shape) into the parameters."""
        if proto.op_type == "Constant":
            value = next(iter(attrs.values()))
            self._params[proto.output[0]] = np.array(value, dtype=np.float32 if isinstance(value, float) or (
                isinstance(value, tuple) and value and isinstance(value[0], float)) else None)
            return True
        if proto.op_type == "ConstantOfShape" and proto.input[0] in self._params:
            fill = attrs.get("value", np.zeros(1, np.float32))
            shape = tuple(int(d) for d in self._params[proto.input[0]].reshape(-1))
            self._params[proto.output[0]] = np.full(shape, fill.reshape(-1)[0], fill.dtype)
            return True
        return False

    def from_onnx(self, graph: Any, opset_version: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
        """The MXNet symbol of ``graph`` (a Group for several outputs), its argument and auxiliary
        parameters (NDArrays by name).

        Args:
            graph (onnx.GraphProto): the graph.
            opset_version (int): the model's default-domain opset.

        Returns:
            tuple: ``(sym, arg_params, aux_params)``.
        """
        self.opset_version = opset_version
        self.model_metadata = self.get_graph_metadata(graph)
        for init in graph.initializer:
            if not init.name.strip():
                raise ValueError("Tensor's name is required.")
            self._params[init.name] = self._parse_array(init)
        self._infer_shapes(graph)
        for i in graph.input:
            if i.name not in self._params:
                self._nodes[i.name] = symbol.Variable(name=i.name)
        for node in graph.node:
            attrs = self._parse_attr(node.attribute)
            if self._constant(node, attrs):
                continue
            folded = fold(node, self)
            if folded is not None:
                self._params.update(zip(node.output, folded))
                continue
            inputs = [self._input(name, node) if name else None for name in node.input]
            mxnet_sym = self._convert_operator(node, attrs, inputs)
            for k, i in zip(list(node.output), range(len(mxnet_sym.list_outputs()))):
                self._nodes[k] = mxnet_sym[i]
            for name in mxnet_sym.list_arguments():
                if name in self._params:
                    self.arg_dict[name] = nd.array(self._params[name], dtype=self._params[name].dtype)
            for name in mxnet_sym.list_auxiliary_states():
                if name in self._params:
                    self.aux_dict[name] = nd.array(self._params[name], dtype=self._params[name].dtype)
        out = [self._input(o.name, None) for o in graph.output]
        for o in graph.output:  # an output the import computed (shape arithmetic) is a parameter
            if o.name in self._params and o.name not in self.arg_dict:
                self.arg_dict[o.name] = nd.array(self._params[o.name], dtype=self._params[o.name].dtype)
        return (symbol.Group(out) if len(out) > 1 else out[0]), self.arg_dict, self.aux_dict

    def _input(self, name: str, node: Any) -> Any:
        if name not in self._nodes:
            if name in self._params:
                self._nodes[name] = symbol.Variable(name=name, shape=self._params[name].shape)
            else:
                user = "graph" if node is None else f"node {node.name or node.output[0]!r} ({node.op_type})"
                raise TranslationError(f"ONNX tensor {name!r} used by {user}{self.where()} is produced by no "
                                       "translated node (an unused output of its operator's MXNet "
                                       "translation)")
        return self._nodes[name]

    def get_graph_metadata(self, graph: Any) -> dict[str, list]:
        """The names, shapes (0 for a dynamic dimension) and ONNX element types of the data inputs, and the
        names and shapes of the outputs: ``{'input_tensor_data': [(name, shape, type)],
        'output_tensor_data': [(name, shape)]}``."""
        params = {t.name for t in graph.initializer}
        input_data = [(i.name, tuple(d.dim_value for d in i.type.tensor_type.shape.dim),
                       i.type.tensor_type.elem_type) for i in graph.input if i.name not in params]
        output_data = [(o.name, tuple(d.dim_value for d in o.type.tensor_type.shape.dim))
                       for o in graph.output]
        return {"input_tensor_data": input_data, "output_tensor_data": output_data}

    def graph_to_gluon(self, graph: Any, ctx: Any, opset_version: int) -> Any:
        """``graph`` as a gluon SymbolBlock whose parameters hold the initializers.

        Args:
            graph (onnx.GraphProto): the graph.
            ctx (Context | list[Context]): accepted for compatibility (arrays live on the CPU).
            opset_version (int): the model's default-domain opset.

        Returns:
            gluon.SymbolBlock.
        """
        from cellonnx.gluon import SymbolBlock

        sym, arg_params, aux_params = self.from_onnx(graph, opset_version)
        data_names = [t[0] for t in self.get_graph_metadata(graph)["input_tensor_data"]]
        net = SymbolBlock(outputs=sym, inputs=[symbol.var(name) for name in data_names])
        net_params = net.collect_params()
        for params in (arg_params, aux_params):
            for name, value in params.items():
                if name in net_params:
                    net_params[name].shape = value.shape
                    net_params[name]._load_init(value)
        return net

    def _parse_array(self, tensor_proto: Any) -> np.ndarray:
        """An initializer's value (a scalar as shape (1,), as MXNet's importer reads it)."""
        array = numpy_helper.to_array(tensor_proto)
        return array.reshape(1) if array.ndim == 0 else array

    def _parse_attr(self, attr_proto: Any) -> dict[str, Any]:
        """A node's attributes by name: numbers, strings, tuples of them, tensors as arrays."""
        attrs: dict[str, Any] = {}
        for a in attr_proto:
            value = helper.get_attribute_value(a)
            if isinstance(value, bytes):
                value = value.decode("utf-8")
            elif isinstance(value, onnx.TensorProto):
                value = numpy_helper.to_array(value)
            elif isinstance(value, list):
                if value and isinstance(value[0], (onnx.TensorProto, onnx.GraphProto)):
                    raise TranslationError(f"attribute {a.name!r}: lists of tensors or graphs are not "
                                           f"supported{self.where()}")
                value = tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in value)
            attrs[a.name] = value
        return attrs
