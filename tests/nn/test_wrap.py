"""Wrapper cells: TrainOneStepWithLossScaleCell with Dynamic/Fixed update cells against real MindSpore 2.10
(loss_scale.json: an inf injected twice; MindSpore's overflow check was replaced by an IsFinite reduction
there because its kernels have no CPU version), and the other wrappers' contracts."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from cellonnx.autograd.grad import value_and_grad
from cellonnx.nn import optim, wrap
from cellonnx.tensor import Parameter, Tensor
from tests.nn.training_net import FIX, MSE, Net, gen
from tests.tolerance import assert_close, sum_rtol

with open(os.path.join(FIX, "training", "loss_scale.json")) as f:
    LS = json.load(f)
LS_DATA = dict(np.load(os.path.join(FIX, "training", "loss_scale.npz")))
INIT = gen.initial_data()


@pytest.mark.parametrize("case", sorted(LS["cases"]))
def test_loss_scale_against_mindspore(case: str) -> None:
    ref = LS["cases"][case]
    spec = ref["spec"]
    net = Net()
    opt = optim.SGD(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    if spec["update_cell"] is None:
        sense = Tensor(np.array(spec["args"]["loss_scale_value"], np.float32))
    else:
        sense = getattr(wrap, spec["update_cell"])(**spec["args"])
    step = wrap.TrainOneStepWithLossScaleCell(wrap.WithLossCell(net, MSE()), opt, scale_sense=sense)
    step.set_train()
    for s in range(LS["steps"]):
        x = INIT["x"].copy()
        if s in LS["inf_at"]:
            x[0, 0] = np.inf
        loss, cond, scale = step(Tensor(x), Tensor(INIT["y"]))
        assert bool(cond.asnumpy()) == ref["overflow"][s], f"step {s}: overflow flag"
        assert float(scale.asnumpy().reshape(-1)[0]) == ref["scale"][s], f"step {s}: returned scale"
        assert float(step.scale_sense.asnumpy()) == ref["scale_after"][s]
        # as tests/nn/test_optim_parity.py: O(1) weights and losses, sums of at most 16 products
        assert_close(float(loss.asnumpy()), ref["loss"][s], rtol=1e-4, scale_rtol=1e-5, min_scale=1.0,
                     what=f"{case}: loss at step {s}")
        for n in gen.PARAM_NAMES:
            assert_close(getattr(net, n).asnumpy(), LS_DATA[f"{case}/step{s}/{n}"], rtol=1e-4,
                         scale_rtol=1e-5, min_scale=1.0, what=f"{case}: {n} after step {s}")
    assert int(opt.global_step.asnumpy()[0]) == LS["steps"] - len(LS["inf_at"])   # skipped updates


def test_dynamic_update_cell_shrinks_not_below_one_and_grows_after_window() -> None:
    cell = wrap.DynamicLossScaleUpdateCell(loss_scale_value=2.0, scale_factor=4, scale_window=2)
    scale = Parameter(np.asarray(2.0, np.float32), name="s", requires_grad=False)
    seen = []
    for of in (True, False, False, False):
        assert cell(scale, Tensor(np.asarray(of))) is not None
        seen.append(float(scale.asnumpy()))
    assert seen == [1.0, 1.0, 4.0, 4.0]
    assert cell.get_loss_scale() == 2.0
    assert [p.name for p in cell.get_parameters()] == ["current_iterator_step", "last_overflow_iterator_step"]


def test_loss_scale_cell_arguments() -> None:
    net = Net()
    opt = optim.SGD(net.trainable_params())
    with pytest.raises(ValueError, match=r"shape of 'scale_sense' must be \(1,\) or \(\)"):
        wrap.TrainOneStepWithLossScaleCell(wrap.WithLossCell(net, MSE()), opt, Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="must be a Cell or a Tensor"):
        wrap.TrainOneStepWithLossScaleCell(wrap.WithLossCell(net, MSE()), opt, 2.0)
    step = wrap.TrainOneStepWithLossScaleCell(wrap.WithLossCell(net, MSE()), opt, Tensor(np.ones(1, np.float32)))
    step.set_sense_scale(Tensor(np.full(1, 8.0, np.float32)))
    assert float(step.scale_sense.asnumpy()[0]) == 8.0


def test_train_one_step_equals_value_and_grad_then_optimizer() -> None:
    x, y = Tensor(INIT["x"]), Tensor(INIT["y"])
    a, b = Net(), Net()
    step = wrap.TrainOneStepCell(wrap.WithLossCell(a, MSE()), optim.SGD(a.trainable_params(), 0.1), sens=3.0,
                                 return_grad=True)
    loss, grads = step(x, y)
    lb = wrap.WithLossCell(b, MSE())
    ref_loss, ref_grads = value_and_grad(lb, None, b.trainable_params())(x, y)
    assert float(loss.asnumpy()) == pytest.approx(float(ref_loss.asnumpy()))
    assert list(grads) == [p.name for p in a.trainable_params()]
    for (name, g), rg, p, q in zip(grads.items(), ref_grads, a.trainable_params(), b.trainable_params()):
        # sens=3 enters the backward pass first, 3 * grad multiplies after it: the rounding of 16-term sums
        assert_close(g.asnumpy(), 3.0 * rg.asnumpy(), rtol=1e-5, scale_rtol=sum_rtol(16), what=name)
        assert_close(p.asnumpy(), q.asnumpy() - 0.1 * 3.0 * rg.asnumpy(), rtol=1e-5, scale_rtol=sum_rtol(16),
                     what=name)
    with pytest.raises(ValueError, match="'sens' can not be 0"):
        wrap.TrainOneStepCell(lb, optim.SGD(b.trainable_params()), sens=0)


def test_with_loss_grad_eval_and_forward_value_and_grad() -> None:
    x, y = Tensor(INIT["x"]), Tensor(INIT["y"])
    net, loss_fn = Net(), MSE()
    with_loss = wrap.WithLossCell(net, loss_fn)
    assert with_loss.backbone_network is net
    assert [p.name for p in with_loss.get_parameters()] == list(gen.PARAM_NAMES)   # auto_prefix=False
    grads = wrap.WithGradCell(net, loss_fn)(x, y)
    ref = value_and_grad(with_loss, None, net.trainable_params())(x, y)[1]
    for g, r in zip(grads, ref):
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy(), rtol=1e-6)
    loss, out, label = wrap.WithEvalCell(net, loss_fn)(x, y)
    assert label is y and out.shape == (gen.BATCH, gen.OUT_DIM)
    assert float(loss.asnumpy()) == pytest.approx(float(with_loss(x, y).asnumpy()))
    fwd = wrap.ForwardValueAndGrad(with_loss, weights=net.trainable_params(), get_by_list=True)
    v, g2 = fwd(x, y)
    assert float(v.asnumpy()) == pytest.approx(float(loss.asnumpy()))
    np.testing.assert_allclose(g2[0].asnumpy(), grads[0].asnumpy(), rtol=1e-6)


def test_parameter_update() -> None:
    p = Parameter(np.zeros((2, 2), np.float32), name="w")
    upd = wrap.ParameterUpdate(p)
    v = Tensor(np.ones((2, 2), np.float32))
    assert upd(v) is v
    assert (p.asnumpy() == 1).all()
    with pytest.raises(TypeError, match="must be a Parameter"):
        wrap.ParameterUpdate(v)


def test_graph_mode_runs_training_steps_eagerly() -> None:
    """In GRAPH_MODE, optimizers, schedules and training steps still run on the host (they are not frozen into
    an inference graph), giving the same numbers as PYNATIVE_MODE."""
    from cellonnx.context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context
    from cellonnx.nn import learning_rate_schedule as lrs

    def run() -> np.ndarray:
        net = Net()
        opt = optim.Momentum(net.trainable_params(), lrs.WarmUpLR(0.1, 2), 0.9)
        step = wrap.TrainOneStepCell(wrap.WithLossCell(net, MSE()), opt)
        for _ in range(3):
            step(Tensor(INIT["x"]), Tensor(INIT["y"]))
        opt(tuple(Tensor(np.ones_like(p.asnumpy())) for p in opt.parameters))
        return net.fc1_weight.asnumpy().copy()

    eager = run()
    before = get_context("mode")
    set_context(mode=GRAPH_MODE)
    try:
        graph = run()
    finally:
        set_context(mode=before if before is not None else PYNATIVE_MODE)
    np.testing.assert_array_equal(graph, eager)
