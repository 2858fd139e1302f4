"""The Cell methods that deal with MindSpore's compiled graphs: get_func_graph_proto, and the older releases'
exec_checkpoint_graph and load_parameter_slice (the ``mindspore.nn`` catalogue of MindSpore 0.x documents
them; MindSpore 2.10 removed the last two). Mixed into Cell."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

__all__ = ["GraphMethodsMixin"]


class GraphMethodsMixin:
    """Mixed into Cell."""

    parameter_layout_dict: dict

    def get_func_graph_proto(self) -> bytes | None:
        """The binary proto of the cell's compiled graph: the serialized ONNX model of its latest
        ``compile`` (or GRAPH_MODE call), or None when it was never compiled (MindSpore returns None when no
        graph was built, as in PyNative mode)."""
        from cellonnx.graph.compile import _CACHE

        compiled = list(_CACHE.get(self, {}).values())  # type: ignore[call-overload]
        return compiled[-1]._model_bytes if compiled else None

    def exec_checkpoint_graph(self) -> None:
        """Run the graph that brings the parameters back from the device before a checkpoint is written
        (MindSpore 0.x-2.3, graph mode). cellonnx's parameters live in host memory, so there is nothing to
        bring back: ``save_checkpoint`` writes them as they are."""
        return None

    def load_parameter_slice(self, params: Any) -> None:
        """Replace parameters by their slices under the parallel strategies of ``parameter_layout_dict``
        (MindSpore 0.x-1.x). Parameters without a layout, which is all of them in one process, are left as
        they are.

        Args:
            params (OrderedDict): name -> Parameter, usually ``parameters_dict()``; None means that.

        Raises:
            TypeError: If `params` is not an OrderedDict.
        """
        if params is None:
            params = self.parameters_dict()  # type: ignore[attr-defined]
        if not isinstance(params, OrderedDict):
            raise TypeError(f"Parameters need OrderedDict type, but got {type(params)}.")
        sliced = [key for key in params if key in self.parameter_layout_dict]
        if sliced:
            raise NotImplementedError(f"Cell.load_parameter_slice: {sliced} have parallel layouts; cellonnx "
                                      "does not slice parameters (it trains data-parallel only)")
