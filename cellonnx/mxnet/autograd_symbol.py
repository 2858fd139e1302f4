"""``mx.autograd.get_symbol``: the computation autograd recorded for an array, as an mx.sym Symbol.

The recording is cellonnx's tape (its primitive ops); each primitive becomes the MXNet operator that
computes it (Mul -> broadcast_mul, or _mul_scalar with a scalar; Gemm -> FullyConnected; ReduceSum -> sum
...). As in MXNet, every array input is a variable named ``var<i>`` in the order the graph reaches it, every
operator a node named ``node_<i>`` in topological order. The tape's steps that only move between a 0-d
array and MXNet 1.x's shape (1,) are left out: MXNet's operators have no 0-d arrays."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.mxnet import symbol as S
from cellonnx.mxnet.base import MXNetError
from cellonnx.tensor import Tensor

__all__ = ["get_symbol"]

_UNARY = {"Relu": "relu", "Exp": "exp", "Log": "log", "Tanh": "tanh", "Sigmoid": "sigmoid", "Neg": "negative",
          "Abs": "abs", "Sqrt": "sqrt", "Sin": "sin", "Cos": "cos", "Erf": "erf", "Floor": "floor",
          "Ceil": "ceil",
          "Sign": "sign", "Reciprocal": "reciprocal", "Identity": "identity", "Softplus": "softrelu"}
_BINARY = {"Add": ("broadcast_add", "_plus_scalar", "_plus_scalar"),
           "Sub": ("broadcast_sub", "_minus_scalar", "_rminus_scalar"),
           "Mul": ("broadcast_mul", "_mul_scalar", "_mul_scalar"),
           "Div": ("broadcast_div", "_div_scalar", "_rdiv_scalar"),
           "Pow": ("broadcast_power", "_power_scalar", "_rpower_scalar"),
           "Max": ("broadcast_maximum", "_maximum_scalar", "_maximum_scalar"),
           "Min": ("broadcast_minimum", "_minimum_scalar", "_minimum_scalar")}
_REDUCE = {"ReduceSum": "sum", "ReduceMean": "mean", "ReduceMax": "max", "ReduceMin": "min",
           "ReduceProd": "prod"}


def _scalar(t: Any) -> bool:
    """A 0-d constant (a Python number in the recorded expression): MXNet's ``_*_scalar`` attribute."""
    return isinstance(t, Tensor) and t._node is None and t.ndim == 0 and not t.requires_grad


def _transposed_weight(t: Any) -> bool:
    """Whether ``t`` is a 2-D array transposed from a leaf (the weight of a FullyConnected)."""
    node = t._node
    return (node is not None and type(node.op).__name__ == "Transpose"
            and tuple(node.attrs.get("perm", ())) == (1, 0) and node.inputs[0]._node is None)


class _Builder:
    def __init__(self) -> None:
        self.vars: dict[int, Any] = {}
        self.done: dict[int, Any] = {}
        self.count = 0

    def name(self) -> str:
        self.count += 1
        return f"node_{self.count - 1}"

    def value(self, t: Tensor) -> Any:
        node = t._node
        if node is None:
            if id(t) not in self.vars:
                self.vars[id(t)] = S.Variable(f"var{len(self.vars)}")
            return self.vars[id(t)]
        if id(node) not in self.done:
            self.done[id(node)] = self.convert(node)
        out = self.done[id(node)]
        if node.n_out == 1 or len(out.list_outputs()) == node.n_out:
            return out[t._out_index] if node.n_out > 1 else out
        if t._out_index == 0:  # the main output of a primitive that also returns what its gradient keeps
            return out
        raise MXNetError(f"autograd.get_symbol: output {t._out_index} of the recorded "
                         f"{type(node.op).__name__} has no MXNet counterpart")

    def convert(self, node: Any) -> Any:
        op = type(node.op).__name__
        inputs, attrs = node.inputs, node.attrs
        if op in ("Squeeze", "Reshape") and (node.out_meta[0][0] == () or
                                            (inputs[0].shape == () and tuple(node.out_meta[0][0]) == (1,))):
            return self.value(inputs[0])  # 0-d <-> (1,): the same array in MXNet 1.x
        if op in _BINARY:
            both, right, left = _BINARY[op]
            a, b = inputs[:2]
            if _scalar(b):
                return getattr(S, right)(self.value(a), scalar=float(b._data), name=self.name())
            if _scalar(a):
                return getattr(S, left)(self.value(b), scalar=float(a._data), name=self.name())
            return getattr(S, both)(self.value(a), self.value(b), name=self.name())
        if op == "MatMul" and _transposed_weight(inputs[1]):  # x . W^T: FullyConnected without bias
            weight = inputs[1]._node.inputs[0]
            return S.FullyConnected(self.value(inputs[0]), self.value(weight), num_hidden=weight.shape[0],
                                    no_bias=True, flatten=False, name=self.name())
        translate = _TABLE.get(op)
        if translate is None:
            raise MXNetError(f"autograd.get_symbol: the recorded operation {op} has no MXNet operator here")
        return translate(self, node, [self.value(t) for t in inputs], attrs)


def _unary(op: str) -> Callable[..., Any]:
    if op == "softrelu":
        return lambda b, node, xs, attrs: S.Activation(xs[0], act_type="softrelu", name=b.name())
    return lambda b, node, xs, attrs: getattr(S, op)(xs[0], name=b.name())


def _reduce(op: str) -> Callable[..., Any]:
    def build(b: _Builder, node: Any, xs: list, attrs: dict) -> Any:
        axes = attrs.get("axes")
        kwargs = {"axis": tuple(axes)} if axes else {}
        return getattr(S, op)(xs[0], keepdims=bool(attrs.get("keep_dims", False)), **kwargs, name=b.name())
    return build


def _slice(b: _Builder, node: Any, xs: list, attrs: dict) -> Any:
    rank = node.inputs[0].ndim
    begin: list = [None] * rank
    end: list = [None] * rank
    step: list = [None] * rank
    steps = attrs.get("steps", ())
    for axis, start, stop, stride in zip(attrs["axes"], attrs["starts"], attrs["ends"], steps):
        begin[axis % rank], end[axis % rank], step[axis % rank] = start, stop, stride
    last = max(a % rank for a in attrs["axes"]) + 1
    kwargs: dict[str, Any] = {"begin": tuple(begin[:last]), "end": tuple(end[:last])}
    if any(s not in (None, 1) for s in step[:last]):
        kwargs["step"] = tuple(step[:last])
    return S.slice(xs[0], **kwargs, name=b.name())


def _gemm(b: _Builder, node: Any, xs: list, attrs: dict) -> Any:
    if attrs:
        raise MXNetError(f"autograd.get_symbol: Gemm with {attrs} has no MXNet operator here")
    return S.FullyConnected(*xs, num_hidden=node.inputs[1].shape[0], no_bias=len(xs) == 2, flatten=False,
                            name=b.name())


def _window(attrs: dict, rank: int) -> dict[str, Any]:
    pads = tuple(attrs.get("pads", (0,) * 2 * rank))
    if pads[:rank] != pads[rank:]:
        raise MXNetError(f"autograd.get_symbol: asymmetric pads {pads} have no MXNet operator here")
    return {"stride": tuple(attrs.get("stride", (1,) * rank)), "pad": pads[:rank]}


def _conv(b: _Builder, node: Any, xs: list, attrs: dict) -> Any:
    weight = node.inputs[1].shape
    rank = len(weight) - 2
    return S.Convolution(*xs, kernel=tuple(weight[2:]), **_window(attrs, rank),
                         dilate=tuple(attrs.get("dilation", (1,) * rank)), num_filter=weight[0],
                         num_group=attrs.get("groups", 1), no_bias=len(xs) == 2, name=b.name())


def _pool(pool_type: str) -> Callable[..., Any]:
    def build(b: _Builder, node: Any, xs: list, attrs: dict) -> Any:
        kernel = tuple(attrs["kernel"])
        include = bool(attrs.get("count_include_pad", True))
        extra = {"count_include_pad": include} if pool_type == "avg" else {}
        return S.Pooling(xs[0], pool_type=pool_type, kernel=kernel, **_window(attrs, len(kernel)),
                         pooling_convention="full" if attrs.get("ceil_mode") else "valid", **extra,
                         name=b.name())
    return build


def _matmul(b: _Builder, node: Any, xs: list, attrs: dict) -> Any:
    if node.inputs[0].ndim == 3 and node.inputs[1].ndim == 3:
        return S.batch_dot(*xs, name=b.name())
    return S.dot(*xs, name=b.name())


_TABLE: dict[str, Callable[..., Any]] = {
    **{prim: _unary(op) for prim, op in _UNARY.items()},
    **{prim: _reduce(op) for prim, op in _REDUCE.items()},
    "Softmax": lambda b, node, xs, attrs: S.softmax(xs[0], axis=attrs.get("axis", -1), name=b.name()),
    "LogSoftmax": lambda b, node, xs, attrs: S.log_softmax(xs[0], axis=attrs.get("axis", -1), name=b.name()),
    "Transpose": lambda b, node, xs, attrs: S.transpose(xs[0], axes=tuple(attrs["perm"]), name=b.name()),
    "Reshape": lambda b, node, xs, attrs: S.Reshape(xs[0], shape=tuple(node.out_meta[0][0]), name=b.name()),
    "Squeeze": lambda b, node, xs, attrs: S.squeeze(xs[0], axis=tuple(attrs["axes"]), name=b.name()),
    "Concat": lambda b, node, xs, attrs: S.concat(*xs, dim=attrs.get("axis", 1), name=b.name()),
    "Slice": _slice, "Gemm": _gemm, "MatMul": _matmul, "Conv": _conv,
    "MaxPool": _pool("max"), "MaxPoolWithArgmax": _pool("max"), "AvgPool": _pool("avg"),
    "LeakyRelu": lambda b, node, xs, attrs: S.LeakyReLU(xs[0], act_type="leaky",
                                                         slope=attrs.get("alpha", 0.01), name=b.name()),
    "Dropout": lambda b, node, xs, attrs: S.Dropout(xs[0], p=attrs.get("p", 0.5), name=b.name()),
}


def get_symbol(x: Any) -> Any:
    """The computation recorded (inside ``autograd.record()``) that produced ``x``, as a Symbol.

    Args:
        x (NDArray): an array computed while recording.

    Returns:
        Symbol: its arguments ``var0, var1 ...`` are the arrays the computation started from.

    Raises:
        MXNetError: ``x`` was not computed while recording.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> x = mx.nd.array([1.0, 2.0])
        >>> x.attach_grad()
        >>> with mx.autograd.record():
        ...     y = mx.nd.relu(x * 2 + 1)
        >>> sym = mx.autograd.get_symbol(y)
        >>> sym.list_arguments(), sym.list_outputs()
        (['var0'], ['node_2_output'])
        >>> sym.eval(var0=x)[0].asnumpy()
        array([3., 5.], dtype=float32)
    """
    if not isinstance(x, Tensor) or x._node is None:
        raise MXNetError("NDArray is not part of a computation graph. Did you forget to turn on recording?")
    return _Builder().value(x)
