"""Binding a step's inputs and outputs to an onnxruntime session at the cost of the native calls alone.

onnxruntime's Python ``IOBinding`` checks every value it binds (session compatibility, captured-graph pins)
and wraps every output it returns; a compiled training step binds each parameter, optimizer slot and moving
statistic every step (ResNet-50: 431 inputs and 430 outputs), so those checks were a third of the host's work
around the run (bench/step_host_overhead.py). The values bound here are OrtValues this package made for the
same session on the CPU or CUDA, which is what the checks are for, so ``StepBinding`` calls the native binding
(``IOBinding._iobinding``, onnxruntime's own Python wrapper delegates to it) directly.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnxruntime as ort


class StepBinding:
    """The bindings of a run of ``session`` (an ``onnxruntime.InferenceSession``), outputs allocated on
    ``c_device`` unless given a buffer; kept from run to run, a name bound again replaces its value. With
    ``graph_id``, the runs replay the session's CUDA graph of that id."""

    def __init__(self, session: ort.InferenceSession, c_device: Any, graph_id: int | None = None) -> None:
        self._session = session
        self._binding = session.io_binding()
        self._native = self._binding._iobinding
        self._c_device = c_device
        self._options = None
        if graph_id is not None:
            self._options = ort.RunOptions()
            self._options.add_run_config_entry("gpu_graph_id", str(graph_id))

    @staticmethod
    def device(device: str, device_id: int) -> Any:
        """The native device outputs are allocated on (make once per session)."""
        return ort.OrtDevice.make(device, device_id if device == "cuda" else 0)._get_c_device()

    def host_input(self, name: str, array: np.ndarray) -> None:
        self._binding.bind_cpu_input(name, array)

    def input(self, name: str, value: ort.OrtValue) -> None:
        self._native.bind_ortvalue_input(name, value._ortvalue)

    def output(self, name: str, into: ort.OrtValue | None = None) -> None:
        """Bind output ``name`` to a new buffer on the device, or into the OrtValue ``into``."""
        if into is None:
            self._native.bind_output(name, self._c_device)
        else:
            self._native.bind_ortvalue_output(name, into._ortvalue)

    def run(self, wanted: Sequence[int] | None = None) -> list[ort.OrtValue]:
        """Run the session; the outputs in the order they were first bound (``wanted``: those at these
        positions only)."""
        self._session.run_with_iobinding(self._binding, self._options)
        values = self._native.get_outputs()
        return [ort.OrtValue(values[i]) for i in (range(len(values)) if wanted is None else wanted)]
