"""The counter-based generator behind dropout: one definition, computed by NumPy in eager mode and by ONNX
integer ops in a graph, bit for bit the same, so a compiled or exported training step draws the masks of the
eager step.

The state is an int64 Parameter ``rng_state = (key_lo, key_hi, offset)``: ``set_seed(s)`` sets the key to
the two 32-bit halves of SplitMix64(s) (64 bits of OS entropy when no seed was set) and the offset to 0;
every draw reads the state and adds 1 to the offset. In a compiled training step the state is a graph input
and ``rng_state.new`` the output that replaces it, so consecutive steps draw fresh values and a step re-run
from the same state draws the same ones.

A draw of ``n`` values with salt ``(s0, s1)`` (0, 0 unless an op-level ``seed`` was given) hashes
``m = ceil(n / 2)`` counters into 32-bit words ``w_j``; value ``e`` is the high 16 bits of ``w_e`` for
``e < m``, the low 16 bits of ``w_(e - m)`` otherwise, and its uniform is ``value / 2**16`` in [0, 1).
Two 16-bit values per hashed counter halve the integer work (p is resolved to 1/65536). The words come from
one of two hashes, chosen by where graphs run (``device_target``, see ``algorithm()``), eager and traced
alike, so a compiled step draws the eager step's masks on either device:

- **lowbias32** (CPU): ``(k0, k1) = H([key_lo ^ s0, key_hi ^ s1] ^ offset)`` (``offset`` modulo 2**32),
  ``w_j = H(G(j + k1) + k0)``. ``H`` is Wellons' lowbias32 (``x ^= x >> 16; x *= 0x7feb352d;
  x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16``) and ``G`` its first half, all on uint32 modulo 2**32.
  ``G`` scatters the counters before the second key is added, so two draws whose counter ranges overlap
  still hash different words. onnxruntime's CPU kernels run BitwiseXor and BitShift about twice as slow as
  Mul and Add, which this form keeps to four xor-shifts per counter.
- **squares32** (CUDA): Widynski's counter-based "Squares" generator (arXiv:2004.06278), 4 rounds of
  ``x = x * x + y`` and a swap of the 32-bit halves on uint64, with the key ``K = 2 * (key_hi * 2**32 +
  key_lo + s1 * 2**32 + s0) + 1`` (odd, modulo 2**64) and the counters ``offset * 2**33 + j`` (each draw
  has its own 2**33 counters). onnxruntime's CUDA provider has no BitwiseXor or BitShift kernels: a hash
  built on them runs on the CPU between GPU nodes, with two host-device copies per node. Squares needs only
  Mul and Add, and the half swap and the final shift lower as Div / Mul / Sub on the GPU.

Dropout keeps element ``e`` when its uniform is at least ``p``, i.e. when its value is at least
``ceil(p * 65536)``. The lowering needs opset 18 (BitwiseXor); below it, dropout lowers to
RandomUniformLike (onnxruntime's own generator).
"""
from __future__ import annotations

import math
import secrets
from typing import Any

import numpy as np
from onnx import TensorProto

from cellonnx.ops.registry import Op
from cellonnx.tensor import Parameter, Tensor

_M1, _M2 = np.uint32(0x7FEB352D), np.uint32(0x846CA68B)
_MASK64 = (1 << 64) - 1
MIN_OPSET = 18
STATE_NAME = "rng_state"


def splitmix64(seed: int) -> int:
    """SplitMix64's output for ``seed`` (64-bit)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _state_for(key: int) -> np.ndarray:
    return np.array([key & 0xFFFFFFFF, key >> 32, 0], dtype=np.int64)


_STATE = Parameter(_state_for(secrets.randbits(64)), name=STATE_NAME, requires_grad=False)


def rng_state() -> Parameter:
    """The Parameter holding the generator's state ``(key_lo, key_hi, offset)`` (int64)."""
    return _STATE


def reseed(seed: int) -> None:
    """Key the generator from ``seed`` and restart its offset (``set_seed`` calls this)."""
    _STATE.set_data(_state_for(splitmix64(seed)))


def salt_of(seed: int | None) -> tuple[int, int]:
    """The salt words of an op-level seed: (0, 0) for None."""
    if seed is None:
        return (0, 0)
    z = splitmix64(splitmix64(int(seed)) ^ 0x5EED)
    return (z & 0xFFFFFFFF, z >> 32)


def algorithm() -> str:
    """The hash draws use now: "squares32" where graphs run on CUDA (device_target "GPU", or "auto" with CUDA
    present), "lowbias32" otherwise."""
    from cellonnx.graph import builder

    return "squares32" if builder.targets_gpu() else "lowbias32"


def threshold(p: float) -> int:
    """The smallest 16-bit value kept by dropout with drop probability ``p`` (65536: nothing is kept)."""
    return min(math.ceil(float(p) * 65536.0), 65536)


# ---------------------------------------------------------------- NumPy
def _mix(x: np.ndarray) -> np.ndarray:
    """lowbias32 in place on a uint32 array."""
    x ^= x >> np.uint32(16)
    x *= _M1
    x ^= x >> np.uint32(15)
    x *= _M2
    x ^= x >> np.uint32(16)
    return x


def draw_keys(state: np.ndarray, salt: tuple[int, int]) -> tuple[np.uint32, np.uint32]:
    """The two 32-bit keys of a draw from ``state``."""
    words = np.asarray(state).astype(np.uint32)   # each int64 modulo 2**32, as ONNX Cast does
    kk = words[:2] ^ words[2] ^ np.asarray(salt, dtype=np.uint32)
    _mix(kk)
    return kk[0], kk[1]


def _lowbias_words(m: int, state: np.ndarray, salt: tuple[int, int]) -> np.ndarray:
    k0, k1 = draw_keys(state, salt)
    w = np.arange(m, dtype=np.uint32)
    w += k1
    w ^= w >> np.uint32(16)
    w *= _M1
    w += k0
    return _mix(w)


_HALF = np.uint64(32)


def squares_key(state: np.ndarray, salt: tuple[int, int]) -> np.uint64:
    """The odd 64-bit key of a squares32 draw."""
    lo, hi = (int(v) & _MASK64 for v in np.asarray(state)[:2])   # as ONNX Cast to uint64 reads them
    return np.uint64((2 * ((hi << 32) + lo + (salt[1] << 32) + salt[0]) + 1) & _MASK64)


def _squares_words(m: int, state: np.ndarray, salt: tuple[int, int]) -> np.ndarray:
    key = squares_key(state, salt)
    ctr = np.arange(m, dtype=np.uint64)
    ctr += np.uint64((int(np.asarray(state)[2]) << 33) & _MASK64)
    y = ctr * key
    z = y + key
    x = y * y + y
    for add in (z, y):
        x = (x >> _HALF) | (x << _HALF)
        x *= x
        x += add
    x = (x >> _HALF) | (x << _HALF)
    x *= x
    x += z
    return (x >> _HALF).astype(np.uint32)


def values16(n: int, state: np.ndarray, salt: tuple[int, int] = (0, 0),
             algo: str | None = None) -> np.ndarray:
    """The ``n`` 16-bit values (uint32 array) of one draw, with ``algo`` (default: ``algorithm()``)."""
    if n >= 1 << 33:
        raise ValueError(f"counter_rng: a draw of {n} values is more than the 2**33 the counters cover")
    m = (n + 1) // 2
    words = _squares_words if (algo or algorithm()) == "squares32" else _lowbias_words
    w = words(m, state, salt)
    out = np.empty(2 * m, dtype=np.uint32)
    np.right_shift(w, np.uint32(16), out=out[:m])
    np.bitwise_and(w, np.uint32(0xFFFF), out=out[m:])
    return out[:n]


def uniform_np(shape: tuple[int, ...], state: np.ndarray, salt: tuple[int, int] = (0, 0),
               algo: str | None = None) -> np.ndarray:
    """Float32 uniforms in [0, 1) of ``shape``: the values of one draw over 2**16."""
    n = int(np.prod(shape, dtype=np.int64))
    return (values16(n, state, salt, algo).astype(np.float32) * np.float32(2.0 ** -16)).reshape(shape)


def keep_np(shape: tuple[int, ...], p: float, state: np.ndarray,
            salt: tuple[int, int] = (0, 0), algo: str | None = None) -> np.ndarray:
    """Dropout's keep mask (bool) of ``shape``: uniform >= p."""
    n = int(np.prod(shape, dtype=np.int64))
    return (values16(n, state, salt, algo) >= threshold(p)).reshape(shape)


# ---------------------------------------------------------------- ONNX
def _u32(g: Any, value: Any) -> str:
    return g.const(np.asarray(value, dtype=np.uint32))


def _mix_nodes(g: Any, x: str) -> str:
    for shift, mul in ((16, _M1), (15, _M2), (16, None)):
        x = g.op("BitwiseXor", x, g.op("BitShift", x, _u32(g, shift), direction="RIGHT"))
        if mul is not None:
            x = g.op("Mul", x, _u32(g, mul))
    return x


def _shr(g: Any, x: str, bits: int, dtype: Any = np.uint32) -> str:
    """x >> bits (unsigned): BitShift on the CPU, a Div where the graph runs on CUDA (no BitShift kernel)."""
    if g.for_gpu:
        return g.op("Div", x, g.const(np.asarray(1 << bits, dtype=dtype)))
    return g.op("BitShift", x, g.const(np.asarray(bits, dtype=dtype)), direction="RIGHT")


def _counters(g: Any, like: str) -> str:
    """0 .. m - 1 (int64), m = ceil(size(like) / 2)."""
    n = g.op("Size", like)
    m = g.op("Div", g.op("Add", n, g.const(np.asarray(1, np.int64))), g.const(np.asarray(2, np.int64)))
    # the counters do not depend on the key: draws of one size share them in the optimized graph
    return g.op("Range", g.const(np.asarray(0, np.int64)), m, g.const(np.asarray(1, np.int64)))


def _squares_word_nodes(g: Any, like: str, state: str, salt: tuple[int, int]) -> str:
    u64 = TensorProto.UINT64

    def c(v: int) -> str:
        return g.const(np.asarray(v & _MASK64, dtype=np.uint64))

    words = g.op("Cast", state, to=u64)
    lo = g.op("Slice", words, g.i64([0]), g.i64([1]))
    hi = g.op("Slice", words, g.i64([1]), g.i64([2]))
    off = g.op("Slice", words, g.i64([2]), g.i64([3]))
    base = g.op("Add", g.op("Mul", hi, c(1 << 32)), lo)
    key = g.op("Add", g.op("Mul", g.op("Add", base, c((salt[1] << 32) + salt[0])), c(2)), c(1))
    ctr = g.op("Add", g.op("Cast", _counters(g, like), to=u64), g.op("Mul", off, c(1 << 33)))

    def swap(x: str) -> str:   # (x >> 32) | (x << 32): the halves never overlap, so | is +
        top = _shr(g, x, 32, np.uint64)
        return g.op("Add", top, g.op("Mul", x, c(1 << 32)))

    y = g.op("Mul", ctr, key)
    z = g.op("Add", y, key)
    x = g.op("Add", g.op("Mul", y, y), y)
    for add in (z, y, z):
        x = swap(x)
        x = g.op("Add", g.op("Mul", x, x), add)
    return g.op("Cast", _shr(g, x, 32, np.uint64), to=TensorProto.UINT32)


def _words(g: Any, like: str, state: str, salt: tuple[int, int]) -> str:
    """The m = ceil(n / 2) counter words (uint32) of a draw over ``like``, with the hash of the graph's
    device (see ``algorithm()``)."""
    if g.for_gpu:
        return _squares_word_nodes(g, like, state, salt)
    words = g.op("Cast", state, to=TensorProto.UINT32)
    kk = g.op("BitwiseXor", g.op("Slice", words, g.i64([0]), g.i64([2])),
              g.op("Slice", words, g.i64([2]), g.i64([3])))
    if salt != (0, 0):
        kk = g.op("BitwiseXor", kk, _u32(g, list(salt)))
    kk = _mix_nodes(g, kk)
    k0 = g.op("Slice", kk, g.i64([0]), g.i64([1]))
    k1 = g.op("Slice", kk, g.i64([1]), g.i64([2]))
    j = g.op("Cast", _counters(g, like), to=TensorProto.UINT32)
    w = g.op("Add", j, k1)
    w = g.op("Mul", g.op("BitwiseXor", w, g.op("BitShift", w, _u32(g, 16), direction="RIGHT")), _u32(g, _M1))
    return _mix_nodes(g, g.op("Add", w, k0))


def _halves(g: Any, hi: str, lo: str, like: str) -> str:
    """The values of the high halves, then the low halves, as ``like``'s shape (the last one dropped when
    the size is odd)."""
    both = g.op("Concat", hi, lo, axis=0)
    if not _even(g):
        n = g.op("Reshape", g.op("Size", like), g.i64([1]))
        both = g.op("Slice", both, g.i64([0]), n)
    return g.op("Reshape", both, g.op("Shape", like))


def _even(g: Any) -> bool:
    """Whether the size of the op's first input is even for every value of its dynamic dims."""
    from cellonnx.ops import registry

    tracer = registry.ACTIVE_TRACER
    inputs = getattr(g, "in_tensors", None)
    if tracer is None or not inputs:
        return False
    size = 1
    for d in tracer.shape_of(inputs[0]):
        if not hasattr(d, "onnx_name"):
            size *= int(d)
    return size % 2 == 0


def keep_nodes(g: Any, like: str, state: str, p: float, salt: tuple[int, int]) -> str:
    """Dropout's keep mask (bool, ``like``'s shape) as ONNX nodes."""
    w = _words(g, like, state, salt)
    t = _u32(g, threshold(p) << 16)
    hi = g.op("GreaterOrEqual", w, t)
    # w << 16 as a Mul (modulo 2**32): faster than BitShift on the CPU, and CUDA has no BitShift
    lo = g.op("GreaterOrEqual", g.op("Mul", w, _u32(g, 1 << 16)), t)
    return _halves(g, hi, lo, like)


def uniform_nodes(g: Any, like: str, state: str, salt: tuple[int, int]) -> str:
    """Float32 uniforms of ``like``'s shape as ONNX nodes."""
    w = _words(g, like, state, salt)
    hi = _shr(g, w, 16)
    lo = _shr(g, g.op("Mul", w, _u32(g, 1 << 16)), 16)
    scale = g.const(np.asarray(2.0 ** -16, np.float32))
    return _halves(g, *(g.op("Mul", g.op("Cast", v, to=TensorProto.FLOAT), scale) for v in (hi, lo)), like)


class CounterUniform(Op):
    """Float32 uniforms in [0, 1) of the shape of ``like`` from the counter generator's ``state`` (see the
    module docstring); the state itself is advanced by the caller."""

    differentiable = False
    deterministic = False

    def forward(self, like, state, *, salt):
        return uniform_np(like.shape, state, salt)

    def lower(self, g, like, state, *, salt):
        if g.opset < MIN_OPSET:   # no bitwise ops: onnxruntime's generator draws them there
            seed = float(salt[0] % (1 << 31)) if salt != (0, 0) else None
            return g.op("RandomUniformLike", like, dtype=TensorProto.FLOAT, seed=seed)
        return uniform_nodes(g, like, state, salt)


def advance(state: Parameter) -> None:
    """Move the generator to its next draw (offset + 1): in place eagerly, a state update while a training
    step is traced."""
    from cellonnx.ops.operations._util import assign_to
    from cellonnx.ops.prims.math import add

    assign_to(state, add(state, Tensor._make(np.array([0, 0, 1], dtype=np.int64))), "rng_state")


def counter_uniform(like: Tensor, seed: int | None = None) -> Tensor:
    """One draw of float32 uniforms in [0, 1) of ``like``'s shape from the counter generator.

    Args:
        like (Tensor): gives the shape.
        seed (int, optional): op-level seed (a salt on the global key). Default None.

    Returns:
        Float32 Tensor of ``like``'s shape.
    """
    state = rng_state()
    u = CounterUniform.apply(like, state, salt=salt_of(seed))
    advance(state)
    return u


__all__: list[str] = []
