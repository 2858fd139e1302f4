"""One network written twice for amp.convert_hybrid_block: as Gluon 1.x code (``hybrid_forward(F, x)``,
name_scope, the gluon.nn layers; real MXNet 1.9.1 converts it, tests/fixtures/mxnet/gen_amp.py) and as Gluon
2.x code (``forward(x)`` over the same layers and mx.npx operators), which MXNet 2.x converts by tracing it.

Framework-free: ``build(mx, style)`` takes the module (mxnet or cellonnx.mxnet); parameter values are
amp_cases.values by position in collect_params order, the same in both forms.
"""
from __future__ import annotations

from typing import Any

try:
    from tests.mxnet import amp_cases
except ImportError:  # the fixture generator puts tests/mxnet itself on sys.path
    import amp_cases

SHAPE = (2, 2, 4, 4)
STYLES = ("1.x", "2.x")


def _layers(nn: Any, block: Any) -> None:
    block.conv = nn.Conv2D(4, 3, padding=1, in_channels=2)
    block.bn = nn.BatchNorm(in_channels=4)
    block.pool = nn.MaxPool2D()
    block.flat = nn.Flatten()
    block.fc = nn.Dense(3, activation="relu", in_units=16)
    block.out = nn.Dense(2, in_units=3)


def build(mx: Any, style: str) -> Any:
    """The network in ``style`` ('1.x' or '2.x'), initialized, parameters set."""
    nn = mx.gluon.nn

    class LayerNet1(mx.gluon.HybridBlock):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                _layers(nn, self)

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            y = F.relu(self.bn(self.conv(x)))
            y = self.fc(self.flat(self.pool(y)))
            return F.softmax(self.out(y))

    class LayerNet2(mx.gluon.HybridBlock):
        def __init__(self) -> None:
            super().__init__()
            _layers(nn, self)

        def forward(self, x: Any) -> Any:
            y = mx.npx.relu(self.bn(self.conv(x)))
            y = self.fc(self.flat(self.pool(y)))
            return mx.npx.softmax(self.out(y))

    net = LayerNet1(prefix="net_") if style == "1.x" else LayerNet2()
    net.initialize()
    for i, p in enumerate(net.collect_params().values()):
        value = amp_cases.values(p.shape, 20 + i)
        if p.name.endswith("var") or "running_var" in p.name:
            value = abs(value) + 0.5
        p.set_data(mx.nd.array(value))
    return net


def data() -> Any:
    return amp_cases.values(SHAPE, 30)
