"""mx.model.DataParallelExecutorManager (mx.executor_manager) against real MXNet 1.9.1: one training batch on
one device and on two CPU contexts, equal and unequal work loads (rows: executor_manager_cases.py; fixtures:
tests/fixtures/mxnet/executor_manager.npz / .json from gen_executor_manager.py): the slices, each device's
outputs and gradients, the metric, the monitor's entries and the averaged parameters after copy_to."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import executor_manager_cases
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
ARRAYS = dict(np.load(HERE / "executor_manager.npz"))
META = json.loads((HERE / "executor_manager.json").read_text())


def test_split_input_slice_matches_mxnet() -> None:
    assert executor_manager_cases.split(mx) == META["splits"]


@pytest.mark.parametrize("case_id", list(executor_manager_cases.CASES))
def test_training_batch_matches_mxnet(case_id: str) -> None:
    got = executor_manager_cases.run(mx, case_id)
    want = META[case_id]
    assert got["slices"] == want["slices"]
    assert got["metric"][0] == want["metric"][0]
    assert got["metric"][1] == pytest.approx(want["metric"][1])
    assert got["monitor"] == want["monitor"]
    for d, out in enumerate(got["outputs"]):
        assert_close(out, ARRAYS[f"{case_id}__outputs{d}"], rtol=1e-5, scale_rtol=1e-6, what=f"output {d}")
    # the gradients below BatchNorm are differences of near-equal float32 sums (its backward subtracts the
    # batch means of the gradient), so they agree to 2e-5 of their scale rather than 1e-6
    for name, grads in got["grads"].items():
        for d, g in enumerate(grads):
            assert_close(g, ARRAYS[f"{case_id}__grad__{name}__{d}"], rtol=1e-4, scale_rtol=5e-5,
                         what=f"{name} gradient on device {d}")
    for kind in ("arg", "aux"):
        for name, value in got[f"{kind}_params"].items():
            assert_close(value, ARRAYS[f"{case_id}__{kind}__{name}"], rtol=1e-5, scale_rtol=1e-6,
                         what=f"{kind} {name} after copy_to")


def test_module_layout_matches_mxnet() -> None:
    assert mx.model.DataParallelExecutorManager is mx.executor_manager.DataParallelExecutorManager
    for name in ("DataParallelExecutorGroup", "DataDesc", "cpu", "mx_real_t", "_split_input_slice",
                 "_check_arguments", "_load_data", "_load_label", "_bind_exec"):
        assert hasattr(mx.executor_manager, name), name


def test_duplicate_argument_names_are_refused() -> None:
    x = mx.sym.var("data")
    w = mx.sym.var("w")
    net = mx.sym.FullyConnected(x, weight=w, num_hidden=2, no_bias=True, name="a")
    net = mx.sym.FullyConnected(net, weight=mx.sym.var("w"), num_hidden=2, no_bias=True, name="b")
    if len(set(net.list_arguments())) == len(net.list_arguments()):
        pytest.skip("the symbol merges variables of one name")
    with pytest.raises(ValueError, match='Find duplicated argument name "w"'):
        mx.executor_manager._check_arguments(net)
