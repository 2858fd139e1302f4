"""mx.mod.Module and mx.model against real MXNet 1.9.1: the scenarios of tests/fixtures/mxnet/module_cases.py
(Module.fit with callbacks, score, predict; a Module driven by hand) run here with cellonnx.mxnet and are
compared with MXNet's numbers (gen_module.py); MXNet's checkpoints load here and re-save byte for byte, and
MXNet loaded the checkpoints cellonnx wrote (loadback.json)."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.fixtures.mxnet import module_cases
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "module"
RTOL, SCALE_RTOL = 1e-5, 1e-5
RUNS = {"fit": module_cases.fit, "steps": module_cases.api_steps}
ROWS = [(case, run) for case in module_cases.CASES for run in RUNS]


@pytest.mark.parametrize(("case", "run"), ROWS, ids=[f"{c}-{r}" for c, r in ROWS])
def test_module_matches_mxnet(case: str, run: str) -> None:
    want = np.load(FIXTURES / f"{case}_{run}.npz")
    got = RUNS[run](mx, case)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        assert got[key].shape == want[key].shape, key
        assert_close(got[key], want[key], RTOL, SCALE_RTOL, what=f"{case} {run} {key}")


@pytest.mark.parametrize("scenario", ["bucketing", "sequential", "feedforward"])
def test_composite_modules_match_mxnet(scenario: str) -> None:
    want = np.load(FIXTURES / f"{scenario}.npz")
    got = getattr(module_cases, scenario)(mx)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        assert got[key].shape == want[key].shape, key
        assert_close(got[key], want[key], RTOL, SCALE_RTOL, what=f"{scenario} {key}")


def test_bucketing_checkpoint_round_trip(tmp_path: Path) -> None:
    def sym_gen(key: int):
        net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, flatten=False, name="fc")
        return mx.sym.SoftmaxOutput(mx.sym.mean(net, axis=1), name="softmax"), ("data",), ("softmax_label",)

    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=4)
    mod.bind([("data", (2, 4, 3))], [("softmax_label", (2,))])
    mod.init_params()
    mod.switch_bucket(2, [("data", (2, 2, 3))], [("softmax_label", (2,))])
    mod.save_checkpoint(str(tmp_path / "b"), 1)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["b-0001.params", "b-2-symbol.json", "b-4-symbol.json", "b.buckets"]
    again = mx.mod.BucketingModule.load(str(tmp_path / "b"), 1, sym_gen=sym_gen, default_bucket_key=4)
    again.bind([("data", (2, 4, 3))], [("softmax_label", (2,))])
    np.testing.assert_array_equal(again.get_params()[0]["fc_weight"].asnumpy(),
                                  mod.get_params()[0]["fc_weight"].asnumpy())


def test_every_case_has_fixtures() -> None:
    for case, run in ROWS:
        assert (FIXTURES / f"{case}_{run}.npz").exists(), f"run gen_module.py for {case} {run}"


@pytest.mark.parametrize("case", list(module_cases.CASES))
def test_load_mxnet_checkpoint(case: str, tmp_path: Path) -> None:
    epochs = module_cases.CASES[case]["epochs"]
    sym, args, aux = mx.model.load_checkpoint(str(FIXTURES / case), epochs)
    fit = np.load(FIXTURES / f"{case}_fit.npz")
    last = {k.split(":", 1)[1]: fit[k] for k in fit.files if k.startswith(f"epoch{epochs - 1}:")}
    assert sorted({**args, **aux}) == sorted(last)
    for name, value in {**args, **aux}.items():
        assert isinstance(value, mx.nd.NDArray)
        assert_close(value.asnumpy(), last[name], RTOL, SCALE_RTOL, what=name)
    # written back, the files are MXNet's byte for byte
    mx.model.save_checkpoint(str(tmp_path / case), epochs, sym, args, aux)
    for suffix in ("-symbol.json", f"-{epochs:04d}.params"):
        written = (tmp_path / f"{case}{suffix}").read_bytes()
        assert written == (FIXTURES / f"{case}{suffix}").read_bytes(), suffix


@pytest.mark.parametrize("case", list(module_cases.CASES))
def test_module_load_predicts_as_mxnet(case: str) -> None:
    spec = module_cases.CASES[case]
    mod = mx.mod.Module.load(str(FIXTURES / case), spec["epochs"])
    x, y = module_cases.dataset(case)
    val = mx.io.NDArrayIter(x[:7], y[:7], batch_size=spec["batch"], last_batch_handle="pad")
    mod.bind(val.provide_data, val.provide_label, for_training=False)
    want = np.load(FIXTURES / f"{case}_fit.npz")["predict"]
    assert_close(mod.predict(val).asnumpy(), want, RTOL, SCALE_RTOL)


def test_mxnet_loads_cellonnx_checkpoints() -> None:
    record = json.loads((FIXTURES / "loadback.json").read_text())
    assert record["version"] == "1.9.1"
    for prefix, result in record["results"].items():
        assert result["loaded"], (prefix, result)
        assert result["params_match_mxnet_fit"] and result["predict_matches_mxnet"], prefix


def test_load_params_and_empty_file(tmp_path: Path) -> None:
    mx.nd.save(str(tmp_path / "m-0001.params"), {"arg:w": mx.nd.ones((2,)), "aux:s": mx.nd.zeros((1,))})
    args, aux = mx.model.load_params(str(tmp_path / "m"), 1)
    assert list(args) == ["w"] and list(aux) == ["s"]
    mx.nd.save(str(tmp_path / "e-0000.params"), {})
    assert mx.model.load_params(str(tmp_path / "e"), 0) == ({}, {})


def test_batch_end_param_is_mxnets_namedtuple() -> None:
    p = mx.model.BatchEndParam(epoch=1, nbatch=2, eval_metric=None, locals=None)
    assert type(p).__name__ == "BatchEndParams" and p._fields == ("epoch", "nbatch", "eval_metric", "locals")


def _bound_mlp(**kwargs):
    args, _ = module_cases.initial_params(mx, "mlp")
    mod = mx.mod.Module(module_cases.build(mx, "mlp"), **kwargs)
    mod.bind([("data", (6, 5))], [("softmax_label", (6,))])
    mod.init_params(arg_params={k: mx.nd.array(v) for k, v in args.items()})
    return mod, args


def test_module_descriptions_and_errors() -> None:
    mod = mx.mod.Module(module_cases.build(mx, "mlp"))
    assert mod.data_names == ["data"] and mod.label_names == ["softmax_label"]
    assert mod.output_names == ["softmax_output"]
    assert not mod.binded
    with pytest.raises(ValueError, match="not found in symbol.list_arguments"):
        mx.mod.Module(module_cases.build(mx, "mlp"), data_names=["x"])
    with pytest.warns(UserWarning, match="label_names"):
        mx.mod.Module(module_cases.build(mx, "mlp"), label_names=["lbl"])
    mod, _ = _bound_mlp()
    assert mod.output_shapes == [("softmax_output", (6, 3))]
    assert mod.data_shapes[0].name == "data" and tuple(mod.data_shapes[0].shape) == (6, 5)
    assert mod.for_training and not mod.inputs_need_grad
    with pytest.raises(RuntimeError, match="is not presented"):
        mod.init_params(arg_params={}, force_init=True)


def test_fixed_params_are_not_updated() -> None:
    mod, args = _bound_mlp(fixed_param_names=["fc1_weight"])
    mod.init_optimizer(optimizer_params={"learning_rate": 1.0})
    x, y = module_cases.dataset("mlp")
    mod.forward_backward(mx.io.DataBatch([mx.nd.array(x[:6])], [mx.nd.array(y[:6])]))
    mod.update()
    arg, _ = mod.get_params()
    np.testing.assert_array_equal(arg["fc1_weight"].asnumpy(), args["fc1_weight"])
    assert not np.array_equal(arg["fc2_weight"].asnumpy(), args["fc2_weight"])


def test_module_with_kvstore_object_matches_plain_updates() -> None:
    """A KVStore passed to init_optimizer runs the optimizer (update_on_kvstore) with the same result."""
    x, y = module_cases.dataset("mlp")
    results = []
    for kv in ("local", mx.kv.create("local")):
        mod, _ = _bound_mlp()
        mod.init_optimizer(kvstore=kv, optimizer="sgd",
                           optimizer_params={"learning_rate": 0.1, "momentum": 0.9, "wd": 0.01})
        for step in range(2):
            mod.forward_backward(mx.io.DataBatch([mx.nd.array(x[step * 6:step * 6 + 6])],
                                                 [mx.nd.array(y[step * 6:step * 6 + 6])]))
            mod.update()
        results.append({k: v.asnumpy() for k, v in mod.get_params()[0].items()})
    assert mod._update_on_kvstore
    for name in results[0]:
        assert_close(results[1][name], results[0][name], 1e-6, 1e-6, what=name)


def test_optimizer_states_round_trip(tmp_path: Path) -> None:
    mod, _ = _bound_mlp()
    mod.init_optimizer(optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    x, y = module_cases.dataset("mlp")
    mod.forward_backward(mx.io.DataBatch([mx.nd.array(x[:6])], [mx.nd.array(y[:6])]))
    mod.update()
    mod.save_checkpoint(str(tmp_path / "m"), 3, save_optimizer_states=True)
    again = mx.mod.Module.load(str(tmp_path / "m"), 3, load_optimizer_states=True)
    again.bind([("data", (6, 5))], [("softmax_label", (6,))])
    again.init_optimizer(optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    assert again._updater.states.keys() == mod._updater.states.keys()
    for k, state in mod._updater.states.items():
        np.testing.assert_array_equal(np.asarray(again._updater.states[k]), np.asarray(state))


def test_fit_logs_as_mxnet(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    x, y = module_cases.dataset("mlp")
    train = mx.io.NDArrayIter(x, y, batch_size=5)
    mod = mx.mod.Module(module_cases.build(mx, "mlp"))
    with caplog.at_level(logging.INFO):
        mod.fit(train, num_epoch=1, batch_end_callback=[mx.callback.Speedometer(5, 2),
                                                        mx.callback.log_train_metric(2),
                                                        mx.callback.ProgressBar(4, length=8)],
                epoch_end_callback=mx.callback.module_checkpoint(mod, str(tmp_path / "ck")),
                eval_data=train, eval_end_callback=mx.callback.LogValidationMetricsCallback())
    text = caplog.text
    for line in ("Epoch[0] Batch [0-2]\tSpeed: ", "Iter[0] Batch[2] Train-accuracy=", "[====----] 50%",
                 "Epoch[0] Train-accuracy=", "Epoch[0] Time cost=", "Epoch[0] Validation-accuracy="):
        assert line in text, line
    assert (tmp_path / "ck-0001.params").exists() and (tmp_path / "ck-symbol.json").exists()


def test_monitor_collects_outputs_and_params(caplog: pytest.LogCaptureFixture) -> None:
    mod, _ = _bound_mlp()
    mon = mx.monitor.Monitor(1, pattern=".*(output|weight)")
    mod.install_monitor(mon)
    x, y = module_cases.dataset("mlp")
    mon.tic()
    mod.forward(mx.io.DataBatch([mx.nd.array(x[:6])], [mx.nd.array(y[:6])]), is_train=False)
    res = mon.toc()
    names = [k for _, k, _ in res]
    assert names == ["fc1_output", "relu1_output", "fc2_output", "softmax_output", "fc1_weight", "fc2_weight"]
    out = mod.get_outputs()[0].asnumpy()
    want = np.linalg.norm(out) / np.sqrt(out.size)
    assert abs(float(res[3][2].strip()) - want) < 1e-5 * want
    assert mon.toc() == []
