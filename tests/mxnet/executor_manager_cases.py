"""mx.model.DataParallelExecutorManager rows: one training batch of a small symbol (FullyConnected,
BatchNorm, SoftmaxOutput) on one device and on two (mx.cpu(0), mx.cpu(1)) with equal and unequal work
loads; run by real MXNet 1.9.1 (tests/fixtures/mxnet/gen_executor_manager.py) and by cellonnx.mxnet
(test_executor_manager.py). Also _split_input_slice's slices for a table of batch sizes and work loads.
NumPy only besides the ``mx`` handed in."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES", "SPLITS", "run", "split"]

# id: (number of devices, work_load_list)
CASES = {"one_device": (1, None), "two_devices": (2, None), "two_devices_1_2": (2, [1, 2])}
# (batch_size, work_load_list); an empty split raises
SPLITS = [(6, [1, 1]), (7, [1, 1]), (10, [1, 2, 3]), (5, [0.3, 0.7]), (9, [2, 2, 1]), (3, [1, 1, 1]),
          (2, [1, 1, 1])]


def split(mx: Any) -> list[Any]:
    out = []
    for batch, loads in SPLITS:
        try:
            out.append([[s.start, s.stop] for s in mx.executor_manager._split_input_slice(batch, loads)])
        except ValueError as exc:
            out.append(str(exc))
    return out


def _symbol(mx: Any) -> Any:
    x = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=4, no_bias=True, name="fc1")
    x = mx.sym.BatchNorm(x, fix_gamma=False, name="bn1")
    x = mx.sym.Activation(x, act_type="tanh", name="act1")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def run(mx: Any, case_id: str) -> dict[str, Any]:
    """One batch: set_params, load_data_batch, forward, backward, update_metric, an SGD step on each
    device's arrays, copy_to. Returns the slices, each device's outputs and gradients, the metric, the
    monitor's names and the averaged parameters and auxiliary states."""
    devices, loads = CASES[case_id]
    sym = _symbol(mx)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6, 5)).astype(np.float32)
    y = np.array([0, 2, 1, 1, 0, 2], np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=6, label_name="softmax_label")
    arg_names = sym.list_arguments()
    param_names = [n for n in arg_names if n not in ("data", "softmax_label")]
    aux_names = sym.list_auxiliary_states()
    manager = mx.model.DataParallelExecutorManager(sym, [mx.cpu(i) for i in range(devices)], it, arg_names,
                                                   param_names, aux_names, work_load_list=loads)
    arg_shapes, _, aux_shapes = sym.infer_shape(data=(6, 5), softmax_label=(6,))
    shapes = dict(zip(arg_names, arg_shapes))
    arg_params = {n: mx.nd.array(rng.uniform(-0.5, 0.5, shapes[n]).astype(np.float32)) for n in param_names}
    aux_params = {n: mx.nd.array(np.full(s, 0.5 if n.endswith("var") else 0.1, np.float32))
                  for n, s in zip(aux_names, aux_shapes)}
    manager.set_params(arg_params, aux_params)
    monitor = mx.mon.Monitor(1, pattern=".*output.*")
    manager.install_monitor(monitor)
    batch = next(iter(it))
    monitor.tic()
    manager.load_data_batch(batch)
    manager.forward(is_train=True)
    manager.backward()
    metric = mx.metric.Accuracy()
    manager.update_metric(metric, batch.label)
    names = [name for _, name, _ in monitor.toc()]
    for weights, grads in zip(manager.param_arrays, manager.grad_arrays):
        for w, g in zip(weights, grads):
            w[:] = w - 0.5 * g
    manager.copy_to(arg_params, aux_params)
    execs = manager.execgrp.train_execs
    return {"slices": [[s.start, s.stop] for s in manager.slices], "metric": list(metric.get()),
            "monitor": names,
            "outputs": [e.outputs[0].asnumpy() for e in execs],
            "grads": {n: [g.asnumpy() for g in gs] for n, gs in zip(manager.execgrp.param_names,
                                                                     manager.grad_arrays)},
            "arg_params": {n: v.asnumpy() for n, v in arg_params.items()},
            "aux_params": {n: v.asnumpy() for n, v in aux_params.items()}}
