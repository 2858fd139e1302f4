"""Gluon layers print as MXNet 1.9.1 prints them (tests/fixtures/mxnet/block_repr.json, written by
tests/fixtures/mxnet/gen_repr.py): the model zoo's docstring examples show them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cellonnx.gluon import nn
from tests.gluon.repr_cases import CASES

WANT = json.loads((Path(__file__).resolve().parents[1] / "fixtures/mxnet/block_repr.json").read_text())


def test_fixture_covers_the_cases() -> None:
    assert sorted(WANT) == sorted(CASES)


@pytest.mark.parametrize("case", CASES)
def test_repr_matches_mxnet(case: str) -> None:
    assert repr(eval(case, {"nn": nn})) == WANT[case]
