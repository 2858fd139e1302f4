"""GraphCell: a Cell that runs an exported graph (an ONNX model) with onnxruntime."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.cell import Cell
from cellonnx.tensor import Parameter, Tensor

__all__ = ["GraphCell"]


def _load_model(graph: Any) -> Any:
    import onnx

    if isinstance(graph, onnx.ModelProto):
        return graph
    if isinstance(graph, (bytes, bytearray)):
        return onnx.load_from_string(bytes(graph))
    if isinstance(graph, str):
        return onnx.load(graph)
    raise TypeError("For 'GraphCell', the argument 'graph' must be an ONNX model (a ModelProto, its bytes "
                    "or a path: cellonnx exports ONNX where MindSpore exports MindIR), but got type "
                    f"{type(graph)}.")


class GraphCell(Cell):
    """Run a graph exported earlier (``export(net, x, file_name=..., file_format='ONNX')``) as a Cell.

    The graph's initializers become the cell's parameters (under their names in the graph); ``params_init``
    replaces some of their values, and later ``set_data`` / checkpoint loads reach the graph on the next call.
    MindSpore's GraphCell runs a MindIR graph from ``mindspore.load``; cellonnx's graphs are ONNX models.

    Args:
        graph (Union[onnx.ModelProto, bytes, str]): the model, its serialized bytes or its path.
        params_init (dict, optional): initializer name -> Tensor, new values. Default: ``None``.
        obf_random_seed (int, optional): not supported (dynamic structure obfuscation). Default: ``None``.

    Inputs:
        - **inputs** (Tensor) - the graph's inputs, in order.

    Outputs:
        Tensor, or a tuple of Tensors for several graph outputs.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> path = ms.export(net, Tensor(np.ones((1, 3), np.float32)), file_name="net", file_format="ONNX")
        >>> graph_net = nn.GraphCell(path)
        >>> out = graph_net(Tensor(np.ones((1, 3), np.float32)))
        >>> print(out.shape)
        (1, 2)
    """

    def __init__(self, graph: Any, params_init: dict | None = None,
                 obf_random_seed: int | None = None) -> None:
        super().__init__(auto_prefix=True)
        if obf_random_seed is not None:
            raise NotImplementedError("Dynamic structure obfuscation is not supported now.")
        from onnx import numpy_helper

        model = _load_model(graph)
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise TypeError("For 'GraphCell', the argument 'params_init' must be a dict, but got "
                            f"{type(params_init)}.")
        for name, value in params_init.items():
            if not isinstance(name, str) or not isinstance(value, Tensor):
                raise TypeError("For 'GraphCell', the key of the 'params_init' must be str, and the value "
                                "must be "
                                f"Tensor or Parameter, but got the key type: {type(name)}, and the value "
                                f"type: {type(value)}")
        self.graph = model
        for init in model.graph.initializer:
            value = numpy_helper.to_array(init)
            if init.name in params_init:
                new = params_init[init.name].asnumpy()
                if new.shape != value.shape:
                    raise ValueError(f"For 'GraphCell', params_init[{init.name!r}] has shape {new.shape}, "
                                     f"the graph's value {value.shape}.")
                value = new.astype(value.dtype)
            self._params[init.name] = Parameter(np.array(value), name=init.name, requires_grad=False)
        unknown = set(params_init) - set(self._params)
        if unknown:
            raise ValueError(f"For 'GraphCell', params_init names {sorted(unknown)} that the graph does not "
                             "have.")
        self._session: Any = None
        self._versions: tuple = ()

    def _current_session(self) -> Any:
        versions = tuple(p.version for p in self._params.values())
        if self._session is None or versions != self._versions:
            from cellonnx import context
            from cellonnx.graph.runtime import Session

            overrides = {name: p.asnumpy() for name, p in self._params.items()}
            self._session = Session(self.graph.SerializeToString(), device_target=context.device_target,
                                    overrides=overrides)
            self._versions = versions
        return self._session

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from cellonnx.nn.learning_rate_schedule import _eager

        return _eager(self, args, kwargs, traceable=False)   # it runs a graph already: nothing to compile

    def construct(self, *inputs: Any) -> Any:
        session = self._current_session()
        if len(inputs) != len(session.input_names):
            raise ValueError(f"For 'GraphCell', the graph takes {len(session.input_names)} inputs "
                             f"({session.input_names}), but got {len(inputs)}.")
        feeds = {name: (x.asnumpy() if isinstance(x, Tensor) else np.asarray(x))
                 for name, x in zip(session.input_names, inputs)}
        outs = [Tensor(o) for o in session.run(feeds)]
        return outs[0] if len(outs) == 1 else tuple(outs)
