"""mx.test_utils' checks of Gluon blocks and optimizers: a block gives the same outputs and input gradients
eager and hybridized, and two optimizers make the same update."""
from __future__ import annotations

import copy
from typing import Any

import numpy as np

from cellonnx.mxnet.test_utils.compare import assert_almost_equal, compare_ndarray_tuple

__all__ = ["check_gluon_hybridize_consistency", "compare_optimizer"]


def check_gluon_hybridize_consistency(net_builder: Any, data_l: list[Any], numpy_func: Any = None,
                                      test_grad: bool = True, rtol: float = 1e-4, atol: float = 1e-4) -> None:
    """Build the block (``net_builder(prefix='net_')``) four times - eager and hybridized, with and without
    autograd - on the first build's parameters, and assert the outputs and the inputs' gradients agree
    (and match ``numpy_func`` when given)."""
    from cellonnx.gluon import autograd
    from cellonnx.gluon import init as initializer

    class _FromArrays(initializer.Initializer):
        def __init__(self, arrays: dict[str, np.ndarray]) -> None:
            super().__init__()
            self._arrays = arrays

        def _init_weight(self, name: str, arr: np.ndarray) -> None:
            arr[...] = self._arrays[name]

        _init_bias = _init_gamma = _init_beta = _init_zero = _init_one = _init_weight

    saved_out, saved_grads, params_init = None, None, None
    for hybridize in (False, True):
        for use_autograd in ((False, True) if test_grad else (False,)):
            net = net_builder(prefix="net_")
            net.initialize() if params_init is None else net.initialize(params_init)
            if hybridize:
                net.hybridize()
            inputs = [ele.copy() for ele in data_l]
            if use_autograd:
                for ele in inputs:
                    ele.attach_grad()
                with autograd.record():
                    out = net(*inputs)
                out.backward(out)
            else:
                out = net(*inputs)
            if params_init is None:
                params_init = _FromArrays({k: v.data().asnumpy() for k, v in net.collect_params().items()})
            if saved_out is None:
                saved_out = out.asnumpy()
            else:
                assert_almost_equal(out.asnumpy(), saved_out, rtol=rtol, atol=atol)
            if use_autograd:
                if saved_grads is None:
                    saved_grads = [ele.grad.asnumpy() for ele in inputs]
                else:
                    for ele, grad in zip(inputs, saved_grads):
                        assert_almost_equal(ele.grad.asnumpy(), grad, rtol=rtol, atol=atol)
    if numpy_func is not None:
        assert_almost_equal(saved_out, numpy_func(*[ele.asnumpy() for ele in data_l]), rtol=rtol, atol=atol)


def compare_optimizer(opt1: Any, opt2: Any, shape: Any, dtype: Any, w_stype: str = "default",
                      g_stype: str = "default", rtol: float = 1e-4, atol: float = 1e-5,
                      compare_states: bool = True, ntensors: int = 1) -> None:
    """Assert two optimizers make the same update (and states) from the same random weights and
    gradients; a list of shapes updates ``ntensors`` weights at once with ``opt2``."""
    from cellonnx.mxnet import ndarray as nd

    rng = np.random.default_rng()

    def uniform(s: Any) -> Any:
        return nd.array(rng.uniform(size=s), dtype=dtype)

    if not isinstance(shape, list):
        if ntensors != 1:
            raise AssertionError("ntensors must be 1 for a single shape")
        if w_stype not in ("default", "row_sparse", "csr") or g_stype not in ("default", "row_sparse", "csr"):
            raise Exception("type not supported yet")
        w2, g2 = uniform(shape), uniform(shape)
        w1, g1 = w2.copy(), g2.copy()
        state1 = opt1.create_state_multi_precision(0, w1)
        state2 = opt2.create_state_multi_precision(0, w2)
        if compare_states:
            compare_ndarray_tuple(state1, state2)
        opt1.update_multi_precision(0, w1, g1, state1)
        opt2.update_multi_precision(0, w2, g2, state2)
        if compare_states:
            compare_ndarray_tuple(state1, state2, rtol=rtol, atol=atol)
        assert_almost_equal(w1, w2, rtol=rtol, atol=atol)
        return
    w1 = tuple(uniform(s) for s in shape)
    g1 = tuple(uniform(s) for s in shape)
    w2, g2 = copy.deepcopy(w1), copy.deepcopy(g1)
    state2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), w2, g2, state2)
    for i in range(ntensors):
        state1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], state1)
        if compare_states:
            compare_ndarray_tuple(state1, state2[i], rtol, atol)
        compare_ndarray_tuple(w1[i], w2[i], rtol, atol)
