"""mx.operator.get_operator_arguments: an operator's arguments (inputs, then attributes) with MXNet 1.9.1's
names and type strings, read from operator_arguments.json (written from real MXNet by
tests/fixtures/mxnet/gen_operator_arguments.py for every operator a symbol.json can name)."""
from __future__ import annotations

import collections
import json
from functools import cache
from pathlib import Path
from typing import Any

from cellonnx.gluon.symbol.spec import canonical
from cellonnx.mxnet.base import MXNetError

__all__ = ["OperatorArguments", "get_operator_arguments"]

_FILE = Path(__file__).resolve().parent / "operator_arguments.json"

OperatorArguments = collections.namedtuple("OperatorArguments", ["narg", "names", "types"])
OperatorArguments.__doc__ = """An operator's arguments: their number, names and MXNet's type strings
('NDArray-or-Symbol' for an input, 'NDArray-or-Symbol[]' for a variadic one, 'int, required' ...)."""


@cache
def _table() -> dict[str, Any]:
    return json.loads(_FILE.read_text())


def get_operator_arguments(op_name: str) -> OperatorArguments:
    """The number, names and type strings of operator ``op_name``'s arguments (its inputs, then its
    attributes, in MXNet's order); ``op_name`` may be an alias (``_Plus`` for ``elemwise_add``).

    Args:
        op_name (str): the operator's name.

    Returns:
        OperatorArguments, the namedtuple ``(narg, names, types)``.

    Raises:
        MXNetError: no such operator.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> args = mx.operator.get_operator_arguments('Activation')
        >>> args.narg, args.names
        (2, ['data', 'act_type'])
        >>> args.types[1]
        "{'relu', 'sigmoid', 'softrelu', 'softsign', 'tanh'}, required"
    """
    name = canonical(str(op_name))
    table = _table()
    if name is None or name not in table["ops"]:
        raise MXNetError(f"Check failed: op != nullptr: Operator {op_name} is not registered")
    names, ids = table["ops"][name]
    return OperatorArguments(len(names), list(names), [table["types"][i] for i in ids])
