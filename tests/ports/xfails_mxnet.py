"""The MXNet porting suite's known gaps: (network, aspect) -> what cellonnx lacks, for strict xfail marks
(aspects: names, eval, train, grad, hybridize, export, checkpoint; "*" for all). Remove an entry when the
gap closes: strict xfail fails the run until then."""
from __future__ import annotations

XFAILS: dict[tuple[str, str], str] = {}
