"""The porting suite's known gaps: (network, aspect) -> what cellonnx lacks, for strict xfail marks.

Aspects: names, eval, train, grad, export, checkpoint; "*" marks every aspect of a network (it cannot be
built at all). Each reason names the missing MindSpore names in the order the network meets them ("then":
found by standing in for the earlier ones). Remove the entry when they land: strict xfail fails the run
until then.
"""
from __future__ import annotations

_BY_NETWORK = {
}

XFAILS: dict[tuple[str, str], str] = {(name, "*"): reason for name, reason in _BY_NETWORK.items()}
