"""The optimizers written in ops (Adagrad, ProximalAdagrad, Adadelta, AdaMax, ASGD, FTRL, RMSProp, Rprop,
LazyAdam, AdamOffload, AdaFactor): their updates go through the op registry (so a training step can be
traced), argument checks with MindSpore's rules, and cases the 3-step MindSpore trajectories
(tests/nn/test_optim_parity.py) do not reach."""
from __future__ import annotations

import numpy as np
import pytest

from cellonnx.nn import learning_rate_schedule as lrs
from cellonnx.nn import optim
from cellonnx.ops import registry
from cellonnx.tensor import Parameter, Tensor

OPS_WRITTEN = {
    "Adagrad": {}, "ProximalAdagrad": {"l1": 0.01}, "Adadelta": {}, "AdaMax": {}, "ASGD": {},
    "FTRL": {"l1": 0.01}, "RMSProp": {"centered": True}, "Rprop": {}, "LazyAdam": {}, "AdamOffload": {},
    "AdaFactor": {"learning_rate": None},
}


def _params() -> list[Parameter]:
    rng = np.random.default_rng(0)
    return [Parameter(rng.normal(size=(3, 4)).astype(np.float32), name="fc.weight"),
            Parameter(rng.normal(size=4).astype(np.float32), name="fc.bias")]


def _grads(ps: list[Parameter], seed: int = 1) -> tuple:
    rng = np.random.default_rng(seed)
    return tuple(Tensor(rng.normal(size=p.shape).astype(np.float32)) for p in ps)


@pytest.mark.parametrize("name", sorted(OPS_WRITTEN))
def test_update_is_written_in_ops(name: str) -> None:
    """Every arithmetic step of the update is an op call (recorded by the registry's trace hook), the new
    values land in the parameters and nothing is recorded for autograd."""
    ps = _params()
    kwargs = OPS_WRITTEN[name]
    opt = getattr(optim, name)(ps, **kwargs) if "learning_rate" in kwargs else \
        getattr(optim, name)(ps, learning_rate=0.05, **kwargs)
    before = [p.asnumpy().copy() for p in ps]
    seen: list[str] = []
    saved = registry.TRACE_HOOK
    registry.TRACE_HOOK = lambda op, *_: seen.append(op.name)
    try:
        for s in range(2):
            assert opt(_grads(ps, s)) is True
    finally:
        registry.TRACE_HOOK = saved
    assert {"Mul", "Sub"} <= set(seen), sorted(set(seen))
    for p, b in zip(ps, before):
        assert not np.allclose(p.asnumpy(), b) and p.grad_fn is None and p.asnumpy().dtype == np.float32
    assert int(opt.global_step.asnumpy()[0]) == 2


def test_argument_checks_follow_mindspore() -> None:
    ps = _params()
    with pytest.raises(TypeError, match="'accum' must be a float"):
        optim.Adagrad(ps, accum=1)
    with pytest.raises(ValueError, match="'rho' must be in range of \\[0.0, 1.0\\]"):
        optim.Adadelta(ps, rho=1.5)
    with pytest.raises(ValueError, match="'beta1' must be in range of \\(0.0, 1.0\\)"):
        optim.AdaMax(ps, beta1=1.0)
    with pytest.raises(TypeError, match="'lambd' must be a float"):
        optim.ASGD(ps, lambd=1)
    with pytest.raises(ValueError, match="dynamic learning rate and group learning rate"):
        optim.FTRL(ps, learning_rate=lrs.WarmUpLR(0.1, 2))
    with pytest.raises(ValueError, match="'lr_power' must be <= 0"):
        optim.FTRL(ps, lr_power=0.5)
    with pytest.raises(ValueError, match="'epsilon' must be > 0"):
        optim.RMSProp(ps, epsilon=0.0)
    with pytest.raises(TypeError, match="etas must be a tuple"):
        optim.Rprop(ps, etas=[0.5, 1.2])
    with pytest.raises(ValueError, match="etaplus must be greater than 1.0"):
        optim.Rprop(ps, etas=(0.5, 1.0))
    with pytest.raises(ValueError, match="maximal step size should not be less"):
        optim.Rprop(ps, step_sizes=(1.0, 0.1))
    with pytest.raises(TypeError, match="'weight_decay' must be a float"):
        optim.LazyAdam(ps, weight_decay=lrs.WarmUpLR(0.1, 2))
    with pytest.raises(ValueError, match="Cannot combine manual lr and relative_step"):
        optim.AdaFactor(ps, learning_rate=0.1)
    with pytest.raises(ValueError, match="warmup_init requires relative_step=True"):
        optim.AdaFactor(ps, learning_rate=0.1, relative_step=False, warmup_init=True)
    with pytest.raises(ValueError, match="Cannot learning_rate is None and relative_step=False"):
        optim.AdaFactor(ps, relative_step=False)
    with pytest.raises(TypeError, match="'grads' must be a tuple of Tensor"):
        optim.Adadelta(ps)(list(_grads(ps)))


def test_ftrl_decays_every_parameter_without_groups() -> None:
    ps = _params() + [Parameter(np.ones(4, np.float32), name="bn.gamma")]
    assert optim.FTRL(ps, weight_decay=0.1).decay_flags == (True, True, True)
    assert optim.Adagrad(ps, weight_decay=0.1).decay_flags == (True, True, False)


def test_rprop_first_step_moves_by_the_learning_rate() -> None:
    ps = _params()
    before = [p.asnumpy().copy() for p in ps]
    g = _grads(ps)
    optim.Rprop(ps, learning_rate=0.03)(g)
    for p, b, gg in zip(ps, before, g):   # no previous gradient: factor 1, step = lr
        np.testing.assert_allclose(p.asnumpy(), b - np.sign(gg.asnumpy()) * 0.03, rtol=1e-6)


def test_adafactor_state_and_relative_rate() -> None:
    ps = _params()
    opt = optim.AdaFactor(ps, beta1=None, scale_parameter=False)
    names = {p.name for p in opt.get_parameters()}
    assert {"afactor_step", "exp_avg_sq_row_fc.weight", "exp_avg_sq_col_fc.weight",
            "exp_avg_sq_fc.bias"} <= names
    assert opt.exp_avg_sq_row[0].shape == (3,) and opt.exp_avg_sq_col[0].shape == (4,)
    assert opt.exp_avg_sq[1].shape == (4,) and not opt.use_first_moment
    before = ps[1].asnumpy().copy()
    g = Tensor(np.full(4, 2.0, np.float32))
    opt((_grads(ps)[0], g))
    # step 1: beta2t = 0, v = g^2 + eps1, update = g / |g| = 1 (RMS 1, no clipping), rate min(1e-2, 1)
    np.testing.assert_allclose(ps[1].asnumpy(), before - 0.01, rtol=1e-6)
    assert float(opt.step.asnumpy()[0]) == 1.0


def test_asgd_state_names() -> None:
    p = Parameter(np.ones(3, np.float32), name="w")
    names = [n for n, _ in optim.ASGD([p]).parameters_and_names()]
    assert names == ["global_step", "learning_rate", "w", "mu_w", "eta_w", "ax_.w"]
