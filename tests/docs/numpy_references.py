"""NumPy references for the docstring examples that MindSpore's CPU build cannot run (the operator has no CPU
kernel, or MindSpore's CPU kernel is known to be wrong for the example's dtype): per name, NumPy (and
scipy.special) code that prints what the example prints, in the same order, under its namespace.
tests/docs/check_against_mindspore.py compares them with the examples whose MindSpore run raises.
"""
from __future__ import annotations

# per namespace (names repeat across namespaces: nn.TripletMarginLoss, ops.TripletMarginLoss)
REFERENCES: dict[str, dict[str, str]] = {}

REFERENCES["cellonnx.ops.operations"] = {
    "AccumulateNV2": """
x = np.array([1.0, 2.0, 3.0], np.float32)
y = x + 3
print(x + y + x)
""",
    "CountNonZero": """
x = np.array([[0, 1, 2], [0, 0, 3]])
print(np.count_nonzero(x))
print(np.count_nonzero(x, axis=1))
""",
    "FloatStatus": """
print(np.array([0.0], np.float32))
print(np.array([1.0], np.float32))
""",
    "Fmin": """
x1 = np.array([1.0, np.nan, 3.0], np.float32)
x2 = np.array([2.0, 5.0, np.nan], np.float32)
print(np.fmin(x1, x2))
""",
    "LerpScalar": """
a = np.array([1.0, 2.0, 3.0], np.float32)
b = np.array([3.0, 6.0, 11.0], np.float32)
print(a + 0.5 * (b - a))
""",
    "Quantile": """
x = np.array([[1.0, 2.0, 4.0, 8.0], [0.0, 3.0, 5.0, 9.0]], np.float32)
print(np.quantile(x, [0.25, 0.5], axis=1).astype(np.float32))
""",
    "BatchToSpaceNDV2": """
print(np.arange(4, dtype=np.float32).reshape(2, 2)[None, None])
""",
    "DynamicShape": """
print(np.array(np.ones((3, 2, 1)).shape, np.int64))
""",
    "GatherV2": """
p = np.array([[1, 2, 7, 42], [3, 4, 54, 22], [2, 2, 55, 3]], np.float32)
print(np.take(p, [1, 2], axis=1))
""",
    "SparseGatherV2": """
p = np.array([[1, 2, 7, 42], [3, 4, 54, 22], [2, 2, 55, 3]], np.float32)
print(np.take(p, [1, 2], axis=1))
""",
    "ScalarToArray": """
y = np.array(1.5, np.float32)
print(y, 'Float32')
""",
    "ScatterNonAliasingAdd": """
x = np.arange(1, 9).astype(np.float32)
np.add.at(x, [2, 4, 1, 7], [6, 7, 8, 9])
print(x)
""",
    "SplitV": """
x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.int32)
print(x[:, :1])
print(x[:, 1:])
""",
    "ApplyKerasMomentum": """
var, accum, grad = np.array([0.6, 0.4]), np.array([0.6, 0.5]), np.array([0.3, 0.7])
accum = 0.9 * accum - 0.1 * grad
print((var + accum).astype(np.float32).round(4))
""",
    "FusedWeightScaleApplyMomentum": """
w, a, g = np.array([0.6, 0.4]), np.array([0.6, 0.5]), np.array([0.3, 0.7])
acc = 0.9 * a + (0.01 * w + 0.5 * g)
print((w - 0.1 * acc).round(4))
""",
    "LARSUpdate": """
w = np.array([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]], np.float32)
g = np.array([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]], np.float32)
wn, gn = np.sqrt((w * w).sum()), np.sqrt((g * g).sum())
coeff = 0.001 * wn / (gn + 0.0 * wn + 1e-5)
print((g * coeff).round(6))
""",
    "SparseApplyFtrlV2": """
var, acc, lin, g = (np.array(v) for v in ([0.1, 0.5], [0.2, 0.6], [0.7, 0.8], [0.3, 0.7]))
gs = g + 2 * 0.1 * var
new_acc = acc + g * g
lin = lin + gs - (np.sqrt(new_acc) - np.sqrt(acc)) / 0.1 * var
new_var = np.where(np.abs(lin) > 0, -lin / (np.sqrt(new_acc) / 0.1), 0.0)
print(np.array([[0.6, 0.4], new_var], np.float32).round(4))
""",
    "SparseApplyProximalAdagrad": """
var, acc, g = np.array([0.1, 0.5]), np.array([0.2, 0.6]), np.array([0.3, 0.7])
acc = acc + g * g
lr = 0.1 / np.sqrt(acc)
prox = var - lr * g
new = np.sign(prox) * np.maximum(np.abs(prox) - lr * 0.01, 0)
print(np.array([[0.6, 0.4], new], np.float32).round(4))
""",
    "SparseApplyAdadelta": """
var = np.array([[0.6, 0.4], [0.1, 0.5]])
acc = np.array([[0.6, 0.5], [0.2, 0.6]])
upd = np.array([[0.2, 0.3], [0.1, 0.4]])
g = np.array([[0.1, 0.2], [0.3, 0.7]])
acc = 0.9 * acc + 0.1 * g * g
step = np.sqrt(upd + 1e-6) / np.sqrt(acc + 1e-6) * g
print((var - 0.1 * step).astype(np.float32).round(4))
""",
    "LogSoftmaxExt": """
x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], np.float32)
print((x - np.log(np.exp(x).sum(axis=1, keepdims=True))).round(4))
""",
    "Ormqr": """
q = np.linalg.qr(np.array([[3.0, 1.0], [4.0, 2.0]]))[0]
print((q @ np.eye(2)).astype(np.float32).round(4))
""",
    "RmsNorm": """
x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
print((x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-6)).round(4))
""",
    "SoftMarginLoss": """
x = np.array([[0.3, 0.7], [0.5, 0.5]], np.float32)
t = np.array([[-1.0, 1.0], [1.0, -1.0]], np.float32)
print(np.log1p(np.exp(-t * x)).mean().round(4))
""",
    "BatchToSpace": """
print(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
""",
    "SpaceToBatch": """
y = np.arange(4, dtype=np.float32).reshape(2, 2).reshape(4, 1, 1, 1)
print(y.shape)
print(y.ravel())
""",
    "HistogramFixedWidth": """
x = np.clip(np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]), 0.0, 5.0 - 1e-6)
print(np.histogram(x, bins=5, range=(0.0, 5.0))[0].astype(np.int32))
""",
    "MultilabelMarginLoss": """
x = np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]])
targets = [[1, 2, 0, 3], [2, 3]]
losses, masks = [], []
for row, labels in zip(x, targets):
    others = [i for i in range(4) if i not in labels]
    losses.append(sum(max(0.0, 1 - (row[j] - row[i])) for j in labels for i in others) / 4)
    masks.append([int(i in labels) for i in range(4)])
print(np.float32(np.mean(losses)).round(4))
print(np.array(masks, np.int32))
""",
    "TripletMarginLoss": """
x = np.array([[0.3, 0.7], [0.5, 0.5]])
pos = np.array([[0.4, 0.6], [0.4, 0.6]])
neg = np.array([[0.2, 0.9], [0.3, 0.7]])
d = lambda a, b: np.sqrt(((a - b + 1e-6) ** 2).sum(axis=1))
print(np.float32(np.maximum(d(x, pos) - d(x, neg) + 1.0, 0).mean()).round(4))
""",
    "DepthwiseConv2dNative": """
win = np.lib.stride_tricks.sliding_window_view(np.ones((1, 2, 3, 3), np.float32), (2, 2), axis=(2, 3))
y = (win * np.ones((2, 2), np.float32)).sum(axis=(-2, -1))
print(y.shape)
print(y[0, 0])
""",
    "Dilation2D": """
win = np.lib.stride_tricks.sliding_window_view(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3), (2, 2),
                                               axis=(2, 3))
print((win + np.zeros((2, 2), np.float32)).max(axis=(-2, -1)))
""",
    "ExtractImagePatches": """
x = np.arange(16, dtype=np.float32).reshape(4, 4)
patches = np.stack([x[i::2, j::2] for i in range(2) for j in range(2)])[None]
print(patches.shape)
print(patches[0, :, 0, 0])
""",
    "ComputeAccidentalHits": """
true_classes = np.array([[1, 2], [0, 4], [3, 3]])
hits = [(row, c) for row, classes in enumerate(true_classes) for c in classes if c in range(5)]
print(np.array([h[0] for h in hits], np.int32), np.array([h[1] for h in hits], np.int32))
print(np.full(len(hits), -np.finfo(np.float32).max, np.float32))
""",
    "ConfusionMatrix": """
m = np.zeros((4, 4), np.int32)
np.add.at(m, ([0, 1, 1, 3], [1, 2, 1, 3]), 1)
print(m)
""",
    "MoveTo": """
print(np.array([1.0, 2.0], np.float32))
""",
    "NonMaxSuppressionV3": """
boxes = np.array([[1, 2, 3, 4], [1, 3, 3, 4], [1, 3, 4, 4], [1, 1, 4, 4], [1, 1, 3, 4]], np.float64)
scores = np.array([0.4, 0.5, 0.72, 0.9, 0.45])
area = lambda b: (b[2] - b[0]) * (b[3] - b[1])
def iou(a, b):
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return w * h / (area(a) + area(b) - w * h)
kept = []
for i in np.argsort(-scores):
    if all(iou(boxes[i], boxes[k]) <= 0.5 for k in kept):
        kept.append(int(i))
print(np.array(kept, np.int32))
""",
    # uniform activations: every one of the C(3, 1) lattice paths emits T + U = 4 symbols of probability 1/5
    "RNNTLoss": """
print(np.array([np.log(5.0 ** 4 / 3)], np.float32).round(4), (1, 2, 3, 5))
""",
    # MindSpore's grad cannot read the source of a function defined inside a doctest (it prints [1. 2.] when
    # the same lines run from a file): d/dt sum(t * stop_gradient(t)) = t
    "StopGradient": """
print(np.array([1.0, 2.0], np.float32))
""",
    # the gradient examples below run under MindSpore only from a file (see StopGradient)
    "HookBackward": """
x, y = 1.0, 2.0
print("(Tensor(shape=[], dtype=Float32, value= %g),)" % y)
print("(Tensor(shape=[], dtype=Float32, value= %g), Tensor(shape=[], dtype=Float32, value= %g))"
      % (y * y, 2 * x * y))
""",
    "InsertGradientOf": """
print(np.clip(np.array([3.0, 3.0], np.float32), -0.1, 0.1))
""",
    # gate order i, j, f, o; forget_bias 1: every gate's pre-activation is 0.1 * (1 + 1) = 0.2
    "BasicLSTMCell": """
sig = lambda v: 1 / (1 + np.exp(-v))
c = sig(0.2) * np.tanh(0.2)
print(np.full((1, 2), sig(0.2) * np.tanh(c), np.float32).round(4))
""",
    "Poisson": """
print((2, 3), "Float32")
""",
    "Randperm": """
print((6,), sorted([-1, -1, 0, 1, 2, 3]))
""",
    "DynamicRNN": """
print((2, 1, 2))
""",
    "DynamicGRUV2": """
print((2, 1, 2))
""",
    # the shape (3, 1, 2) broadcast with the parameters' shapes (2, 2) and (1,)
    "Gamma": """
print(np.broadcast_shapes((3, 1, 2), (2, 2), (1,)))
""",
    # MindSpore's Morph cannot read the source of functions defined inside a doctest either
    "Morph": """
print(np.array([2.0, 4.0], np.float32))
""",
    # d(x * y)/dx = y, d(x * y)/dy = x (MindSpore runs DumpGradient on Ascend only)
    "DumpGradient": """
print(np.float32(2.0), np.float32(1.0))
""",
    "Einsum": """
print(np.einsum("ij,j->i", np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), np.ones(2, np.float32)))
""",
    "EuclideanNorm": """
print(np.linalg.norm(np.array([[3.0, 4.0], [6.0, 8.0]], np.float32), axis=1))
""",
    "Fills": """
print(np.full((2, 2), 3.0, np.float32))
""",
    "MatrixExp": """
print(np.eye(2, dtype=np.float32))
""",
    "Roll": """
print(np.roll(np.arange(5, dtype=np.int32), 2))
""",
}

REFERENCES["cellonnx.ops"] = {
    "multi_scale_deformable_attn_function": """
v = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)


def at(r, c):
    return v[r, c] if 0 <= r < 2 and 0 <= c < 2 else 0.0


def sample(x, y):  # bilinear, x and y in [0, 1], pixel centres at half-integers, zero outside
    px, py = x * 2 - 0.5, y * 2 - 0.5
    c0, r0 = int(np.floor(px)), int(np.floor(py))
    fx, fy = px - c0, py - r0
    top = (1 - fx) * at(r0, c0) + fx * at(r0, c0 + 1)
    bottom = (1 - fx) * at(r0 + 1, c0) + fx * at(r0 + 1, c0 + 1)
    return (1 - fy) * top + fy * bottom


out = 0.5 * sample(0.5, 0.5) + 0.5 * sample(0.25, 0.25)
print((1, 1, 1), np.array([[[out]]], np.float32))
""",
    "ring_attention_update": """
o1, o2 = np.array([1.0, 2.0]), np.array([3.0, 5.0])
m1, m2, s1, s2 = 0.0, np.log(3.0), 1.0, 1.0
m = max(m1, m2)
w1, w2 = np.exp(m1 - m) * s1, np.exp(m2 - m) * s2
print(np.array([[(w1 * o1 + w2 * o2) / (w1 + w2)]], np.float32))
print(np.float32(m), np.float32(w1 + w2))
""",
}
