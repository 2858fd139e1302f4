"""Small Modules whose Monitor entries are compared with real MXNet 1.9.1 (gen_monitor.py writes them,
test_monitor.py checks them): one batch of forward_backward and an SGD update between tic() and toc(). The
parameters come from a seed on both sides. NumPy only besides the ``mx`` handed in."""
from __future__ import annotations

from typing import Any

import numpy as np


def _chain(mx: Any) -> Any:
    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    bn = mx.sym.BatchNorm(act, name="bn1", fix_gamma=False)
    fc2 = mx.sym.FullyConnected(bn, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def _frozen_gamma(mx: Any) -> Any:
    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=4, name="fc1", no_bias=True)
    bn = mx.sym.BatchNorm(fc1, name="bn1", eps=1e-3)
    act = mx.sym.Activation(bn, act_type="tanh", name="tanh1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax", normalization="batch")


# id: (network, monitor keyword arguments)
CASES: dict[str, tuple[Any, dict[str, Any]]] = {
    "chain": (_chain, {}),
    "frozen_gamma_pattern": (_frozen_gamma, {"pattern": ".*(backward|weight|bn1).*"}),
    "sorted": (_chain, {"sort": True}),
    "chain_all": (_chain, {"monitor_all": True}),
    "frozen_gamma_all": (_frozen_gamma, {"monitor_all": True}),
}


def run(mx: Any, case_id: str) -> list[tuple[int, str, str]]:
    """toc()'s entries for one training batch of case ``case_id``."""
    build, kwargs = CASES[case_id]
    mod = mx.mod.Module(build(mx), data_names=["data"], label_names=["softmax_label"])
    mod.bind(data_shapes=[("data", (3, 5))], label_shapes=[("softmax_label", (3,))])
    rng = np.random.default_rng(7)
    arg_shapes, _, aux_shapes = mod.symbol.infer_shape(data=(3, 5), softmax_label=(3,))
    names = mod.symbol.list_arguments()
    # gamma starts at 1: MXNet's BatchNorm with fix_gamma also writes 1 into the gamma argument
    args = {n: mx.nd.array(np.ones(s, np.float32) if n.endswith("gamma") else
                           rng.uniform(-0.5, 0.5, s).astype(np.float32))
            for n, s in zip(names, arg_shapes) if n not in ("data", "softmax_label")}
    aux = {n: mx.nd.array(np.full(s, 0.5 if n.endswith("var") else 0.1, np.float32))
           for n, s in zip(mod.symbol.list_auxiliary_states(), aux_shapes)}
    mod.init_params(arg_params=args, aux_params=aux)
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1})
    mon = mx.mon.Monitor(1, **kwargs)
    mod.install_monitor(mon)
    x = rng.normal(size=(3, 5)).astype(np.float32)
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array([0, 2, 1])])
    mon.tic()
    mod.forward_backward(batch)
    mod.update()
    return mon.toc()
