"""mx.operator.get_operator_arguments against real MXNet 1.9.1 for a table of operators and aliases
(fixture: tests/fixtures/mxnet/operator_arguments_cases.json from gen_operator_arguments.py); every operator
the symbol interpreter runs has its arguments, whose inputs are the interpreter's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon.symbol import spec, table

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "operator_arguments_cases.json"
WANT = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", sorted(WANT["cases"]))
def test_arguments_equal_mxnet(name: str) -> None:
    got = mx.operator.get_operator_arguments(name)
    assert isinstance(got, mx.operator.OperatorArguments)
    assert got._asdict() == WANT["cases"][name]


def test_unknown_operator_is_mxnet_error() -> None:
    want = WANT["unknown_error"].split("Check failed:")[1]
    with pytest.raises(mx.base.MXNetError, match=want.replace("!=", ".=").strip()):
        mx.operator.get_operator_arguments("NoSuchOp")


def test_every_interpreter_operator_has_arguments() -> None:
    for name in table.all_rows():
        if name == "Custom":  # its arguments are the registered CustomOpProp's
            continue
        args = mx.operator.get_operator_arguments(name)
        inputs = [n for n, t in zip(args.names, args.types) if t.startswith("NDArray-or-Symbol")]
        assert args.narg == len(args.names) == len(args.types), name
        op = spec.op_spec(name)
        assert op is not None and tuple(inputs) == op.inputs[:len(inputs)], (name, inputs, op)
