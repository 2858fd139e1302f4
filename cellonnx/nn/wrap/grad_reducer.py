"""nn.DistributedGradReducer: the all-reduce of gradients in data-parallel training.

The gradients are fused into buckets (MindSpore's AllReduce fusion: split by ``all_reduce_fusion_config``
indices, or by size, 64 MB by default, set with ``comm_fusion``), the parameters taken in reverse order so a
bucket's gradients are the ones a backward pass completes together. While the backward pass runs, the tape
reports each parameter's gradient the moment it is complete (cellonnx.autograd.tape.GRAD_READY_HOOKS), and a
full bucket starts a non-blocking MPI all-reduce (``Iallreduce``, on a communicator of the reducer's own) at
once. The gradients are computed straight into their buckets: each bucket has a flat gradient buffer,
allocated once and reused every step, and the tape offers the op computing a parameter's gradient its place
there (cellonnx.autograd.tape.GRAD_BUFFERS; the convolution and dense weight gradients write into it, other
gradients are copied in when they complete), so the gradients ``value_and_grad`` returns are views of the
buckets and the all-reduce reads them where they are. It writes the sums into a second buffer per bucket
(out of place: the caller's gradients keep their values), scaled there in place for ``mean``; a background
thread drives it to completion (cellonnx/communication/_progress.py), so communication overlaps the rest of
the backward computation. Calling the reducer with the gradients waits for what is in flight, reduces what
is not yet sent (a gradient the backward pass did not reach, or one that was changed after it was computed),
and returns the reduced gradients, views of the sums' buffers. A buffer still held when the next step starts
(gradients kept across steps) stays with its holder and the bucket takes a fresh one.

Buckets start in one fixed order on every rank, as MPI needs collectives to be called in the same order
everywhere.

In a compiled training step (GRAPH_MODE, ``jit``) each bucket is a host boundary of the traced step
(cellonnx/graph/boundary.py): the step is cut into onnxruntime graphs around the buckets, the graph computing
a bucket's gradients writes them straight into the bucket, and its all-reduce starts as soon as that graph
has run (cellonnx/graph/split_step.py).
"""
from __future__ import annotations

import sys
import weakref
from typing import Any

import numpy as np

from cellonnx.autograd import tape as _tape
from cellonnx.communication import _mpi, _progress
from cellonnx.communication.management import GlobalComm, get_group_size
from cellonnx.graph.trace import tracing_step
from cellonnx.nn.cell import Cell
from cellonnx.tensor import Parameter, Tensor

__all__ = ["DistributedGradReducer"]


# Buckets stay within glibc's mmap threshold as cellonnx sets it (cellonnx/_malloc.py), so each step's fresh
# bucket buffers come from the heap the last step freed instead of page-faulting anew (a 45 MB ResNet-18
# bucket took several times the all-reduce's time that way)
MAX_BUCKET_BYTES = 32 << 20


def _wire_dtype(dtype: np.dtype) -> np.dtype:
    # MindSpore all-reduces gradients in float32 (float16 / bfloat16 are cast up and back); float64 stays
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


def _refs(buf: Any) -> int:
    return sys.getrefcount(buf)


def _free(buf: np.ndarray | None, views: int = 0) -> bool:
    """Whether nothing but the bucket holds ``buf`` or a view of it (every NumPy view keeps its base), but
    for ``views`` views of it that the caller knows of."""
    return buf is not None and _refs(buf) <= _ALONE + views


def _alone(buf: np.ndarray) -> int:   # as _free counts
    return _refs(buf)


class _Probe:
    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = np.empty(1)


_PROBE = _Probe()
# the references _free sees to an array held by one attribute and nothing else (the interpreter's own count)
_ALONE = _alone(_PROBE.buf)


class _Bucket:
    """Consecutive parameters (in backward order) whose gradients are all-reduced as one message.

    Two flat buffers, allocated once and reused every step: ``grad``, where the backward pass writes each
    member's gradient (a view of it is the gradient the caller gets back from ``value_and_grad``), and
    ``result``, which the all-reduce writes the sums into (out of place, so the caller's gradients keep their
    values) and which is scaled in place; the reduced gradients are views of it. A buffer still held by the
    caller when a new round starts (gradients kept across steps) is left to them and a fresh one taken.
    """

    __slots__ = ("claimed", "dtype", "filled", "grad", "index", "members", "offsets", "request", "result",
                 "size", "stale")

    def __init__(self, index: int, members: list[int], params: list[Parameter], dtype: np.dtype) -> None:
        self.index = index
        self.members = members
        self.dtype = dtype
        self.offsets: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        off = 0
        for i in members:
            shape = tuple(params[i]._data.shape)
            n = int(np.prod(shape, dtype=np.int64))
            self.offsets[i] = (off, n, shape)
            off += n
        self.size = off
        self.grad: np.ndarray | None = None
        self.result: np.ndarray | None = None
        self.reset()

    def reset(self) -> None:
        self.filled: set[int] = set()
        self.request: Any = None
        self.stale = False   # a member changed after the bucket was sent: reduce it again
        self.claimed = False   # ``grad`` taken for this round

    def claim(self, views: int = 0) -> np.ndarray:
        """The gradient buffer of this round: fresh when views of the last round's are still held, but for
        ``views`` of them (gradients passed to the reducer now)."""
        if not self.claimed:
            if not _free(self.grad, views):
                self.grad = np.empty(self.size, self.dtype)
            self.claimed = True
        assert self.grad is not None
        return self.grad

    def view(self, buf: np.ndarray, i: int) -> np.ndarray:
        off, n, shape = self.offsets[i]
        return buf[off:off + n].reshape(shape)

    def holds(self, i: int, arr: np.ndarray) -> bool:
        """Whether ``arr`` is member ``i``'s place in the gradient buffer (written there by the backward)."""
        buf = self.grad
        if buf is None or arr.dtype != self.dtype or not arr.flags.c_contiguous:
            return False
        off, _, shape = self.offsets[i]
        return arr.shape == shape and arr.ctypes.data == buf.ctypes.data + off * buf.itemsize

    def put(self, i: int, grad: np.ndarray, views: int = 0) -> None:
        buf = self.claim(views)
        if not self.holds(i, grad):   # one pass, whatever its strides (a transposed view, say) or dtype
            np.copyto(self.view(buf, i), grad.reshape(self.offsets[i][2]), casting="unsafe")
        self.filled.add(i)

    def start(self, comm: Any, background: bool = True) -> None:
        """A non-blocking all-reduce of the gradients into ``result``, driven by the progress thread (or,
        without ``background``, by the wait that follows at once)."""
        if not _free(self.result):
            self.result = np.empty(self.size, self.dtype)
        request = comm.Iallreduce(self.claim(), self.result, op=_mpi.STATE.mpi.SUM)
        self.request = _progress.submit(request) if background else _progress.direct(request)


class _Plan:
    """The buckets and the state of one round (a backward pass and the reducer call that follows it)."""

    def __init__(self, params: list[Any], group: str) -> None:
        self.params = params
        self.group = group
        # a communicator of its own: the all-reduces in flight never interleave with other collectives
        self.comm = _mpi.comm(group, "DistributedGradReducer").Dup()
        self.index = {id(p): i for i, p in enumerate(params)}
        self.buckets = self._make_buckets()
        self.bucket_of = {i: b for b in self.buckets for i in b.members}
        self.captured: dict[int, np.ndarray] = {}
        self.next_launch = 0
        self.round_closed = False
        self.overlapped = 0   # buckets started during the last backward pass (for tests and benchmarks)
        self.written = 0   # gradients the last backward pass wrote straight into their bucket (idem)
        self.overlap = True   # buckets start in the backward pass (False: at the reducer call, to compare)

    def _make_buckets(self) -> list[_Bucket]:
        from cellonnx.parallel_context import _fusion_plan

        mode, value = _fusion_plan()
        n = len(self.params)
        cuts: set[int] = set()
        if mode == "index":
            cuts = {i for i in value if 0 < i < n}
        groups: list[list[int]] = []
        current: list[int] = []
        nbytes = 0
        for i in reversed(range(n)):   # backward order: the last layers' gradients are complete first
            p = self.params[i]
            dtype = _wire_dtype(p._data.dtype)
            size = p._data.size * dtype.itemsize
            split = bool(current) and (
                _wire_dtype(self.params[current[-1]]._data.dtype) != dtype
                or (mode == "index" and (i + 1) in cuts)
                or (mode == "size" and nbytes + size > value)
                or nbytes + size > MAX_BUCKET_BYTES)
            if split:
                groups.append(current)
                current, nbytes = [], 0
            current.append(i)
            nbytes += size
        if current:
            groups.append(current)
        return [_Bucket(k, members, self.params, _wire_dtype(self.params[members[0]]._data.dtype))
                for k, members in enumerate(groups)]

    # --- during the backward pass ---------------------------------------------------------------------------
    def _enter(self, i: int) -> None:
        """A gradient of parameter ``i`` is on its way: begin a new round when this one is spent."""
        if self.round_closed or i in self.captured:
            self.drop_round()   # gradients computed again before the reducer used the last ones
        if not self.captured:
            self.overlapped = self.written = 0

    def grad_buffer(self, leaf: Any) -> np.ndarray | None:
        """Where the backward pass should write ``leaf``'s gradient: its place in its bucket."""
        i = self.index.get(id(leaf))
        if i is None or tracing_step():
            return None
        b = self.bucket_of[i]
        if leaf._data.dtype != b.dtype:
            return None   # all-reduced in another dtype: cast into the bucket when it arrives
        self._enter(i)
        return b.view(b.claim(), i)

    def on_grad(self, leaf: Any, grad: Any) -> None:
        if leaf is None:
            if self.captured:
                self.round_closed = True
            return
        i = self.index.get(id(leaf))
        if i is None:
            return
        self._enter(i)
        arr = grad._data
        self.captured[i] = arr
        bucket = self.bucket_of[i]
        if bucket.holds(i, arr):
            self.written += 1
        bucket.put(i, arr)
        if self.overlap:
            self._launch_ready()
            self._progress()

    def _launch_ready(self) -> None:
        while self.next_launch < len(self.buckets):
            b = self.buckets[self.next_launch]
            if len(b.filled) != len(b.members):
                return
            self._start(b)
            self.overlapped += 1

    def _start(self, b: _Bucket, background: bool = True) -> None:
        b.start(self.comm, background)
        self.next_launch = b.index + 1

    def _progress(self) -> None:
        _progress.progress([b.request for b in self.buckets if b.request is not None])

    def drop_round(self) -> None:
        for b in self.buckets:
            if b.request is not None:
                b.request.wait()
            b.reset()
        self.captured.clear()
        self.next_launch = 0
        self.round_closed = False
        self.overlapped = 0

    # --- the reducer call ---------------------------------------------------------------------------------
    def reduce(self, grads: tuple, scale: float | None = None) -> list[np.ndarray]:
        """The sums of ``grads`` across the group (times ``scale`` when given), as views of the buckets.
        Gradients the backward pass wrote into their buckets are not copied."""
        views: dict[int, set[int]] = {}   # per bucket, the views of its buffer among ``grads``
        replaced: set[int] = set()   # buckets holding gradients of the backward pass that ``grads`` replace
        for i, g in enumerate(grads):
            b = self.bucket_of[i]
            if b.holds(i, g._data):
                views.setdefault(b.index, set()).add(id(g._data))
            cap = self.captured.get(i)
            if cap is not None and cap is not g._data and b.holds(i, cap):
                replaced.add(b.index)
        for k in sorted(replaced):   # the caller may still read the backward's gradients: a fresh buffer
            b = self.buckets[k]
            if b.request is not None:
                b.request.wait()
                b.request = None
                b.stale = True
            b.grad = np.empty(b.size, b.dtype)
            b.claimed = True
        for i, g in enumerate(grads):
            arr = g._data
            b = self.bucket_of[i]
            if self.captured.get(i) is arr and b.index not in replaced:
                continue
            if b.request is not None and not b.stale:   # sent already: finish it, then reduce it again
                b.request.wait()
                b.request = None
                b.stale = True
            b.put(i, arr, len(views.get(b.index, ())))
        for b in self.buckets[self.next_launch:]:   # (waited for below at once: no progress thread)
            if not b.stale:
                self._start(b, background=False)
        out: list[np.ndarray] = [None] * len(grads)  # type: ignore[list-item]
        for b in self.buckets:   # in bucket order, as every rank
            if b.stale:
                if not _free(b.result):
                    b.result = np.empty(b.size, b.dtype)
                self.comm.Allreduce(b.claim(), b.result, op=_mpi.STATE.mpi.SUM)
            else:
                b.request.wait()
            buf = b.result
            assert buf is not None  # every bucket was all-reduced above
            if scale is not None:
                buf *= np.asarray(scale, buf.dtype)
            for i in b.members:
                out[i] = b.view(buf, i)
        for b in self.buckets:
            b.reset()
        self.captured.clear()
        self.next_launch = 0
        self.round_closed = False
        return out


class DistributedGradReducer(Cell):
    r"""All-reduce the gradients of data-parallel training across the ranks of a group.

    Build it after ``cellonnx.communication.init()``; building it broadcasts rank 0's parameter values to the
    other ranks, so every rank starts from the same weights whatever its seed. Gradient all-reduces start
    during the backward pass as buckets of gradients complete (see the module docstring).

    Args:
        parameters (list): the parameters to be updated (``optimizer.parameters``).
        mean (bool): divide the sums by ``degree``. Default: ``None``, the ``gradients_mean`` setting of
            :func:`cellonnx.set_auto_parallel_context`.
        degree (int): the divisor of ``mean``. Default: ``None``, the group size.
        fusion_type (int): MindSpore's AllReduce fusion type; gradients are always fused into buckets here.
            Default: ``1``.
        group (str): the communication group. Default: the world group.

    Inputs:
        - **grads** (Union[Tensor, tuple[Tensor]]) - the gradients, one per parameter, in order.

    Outputs:
        The reduced gradients, of the same structure, shapes and dtypes.

    Raises:
        ValueError: ``degree`` is not a positive int, or the number of gradients is not the number of
            parameters.
        RuntimeError: ``cellonnx.communication.init()`` has not run.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        >>> net = nn.Dense(3, 2)
        >>> loss_fn = nn.MSELoss()
        >>> optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)
        >>> grad_reducer = nn.DistributedGradReducer(optimizer.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = optimizer(grad_reducer(grads))  # the gradients averaged over every rank
        >>> ms.reset_auto_parallel_context()
    """

    def __init__(self, parameters: Any, mean: bool | None = None, degree: int | None = None,
                 fusion_type: int = 1, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(auto_prefix=False)
        from cellonnx.parallel_context import _get_gradients_mean

        _mpi.require("DistributedGradReducer")
        self.mean = _get_gradients_mean() if mean is None else bool(mean)
        if degree is None:
            degree = get_group_size(group)
        elif not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', parameter 'degree' in DistributedGradReducer "
                             "should "
                             f"large than 0 and be int, degree: {degree}.")
        self.degree = degree
        self.fusion_type = fusion_type
        self.group = group
        params = list(parameters)
        self._plan = _Plan(params, group)
        _broadcast_parameters(params, group)
        ref = weakref.ref(self._plan)

        def hook(leaf: Any, grad: Any) -> None:
            plan = ref()
            if plan is None:
                _tape.GRAD_READY_HOOKS.remove(hook)
            else:
                plan.on_grad(leaf, grad)

        def buffer(leaf: Any) -> np.ndarray | None:
            plan = ref()
            if plan is None:
                _tape.GRAD_BUFFERS.remove(buffer)
                return None
            return plan.grad_buffer(leaf)

        _tape.GRAD_READY_HOOKS.append(hook)
        _tape.GRAD_BUFFERS.append(buffer)
        self._hook = hook
        self._buffer = buffer

    def construct(self, grads: Any) -> Any:
        single = isinstance(grads, Tensor)
        items = (grads,) if single else tuple(grads)
        if len(items) != len(self._plan.params):
            raise ValueError(f"For 'DistributedGradReducer', got {len(items)} gradients for "
                             f"{len(self._plan.params)} parameters")
        # MindSpore multiplies the sums by float32(1 / degree)
        scale = float(np.float32(1.0 / self.degree)) if self.mean else None
        reduced = self._plan.reduce(items, scale)
        out = [Tensor._make(r.astype(g._data.dtype, copy=False)) for g, r in zip(items, reduced)]
        if tracing_step():   # a compiled step: each bucket becomes a trip to the host between graphs
            out = _bucket_boundaries(self._plan, items, out, scale)
        return out[0] if single else tuple(out)

    def release(self) -> None:
        """Stop listening to backward passes (the reducer is no longer used)."""
        if self._hook in _tape.GRAD_READY_HOOKS:
            _tape.GRAD_READY_HOOKS.remove(self._hook)
        if self._buffer in _tape.GRAD_BUFFERS:
            _tape.GRAD_BUFFERS.remove(self._buffer)
        self._plan.drop_round()


def _bucket_boundaries(plan: _Plan, grads: tuple, reduced: list[Tensor], scale: float | None) -> list[Tensor]:
    """In a traced training step: one host boundary per bucket (cellonnx/graph/boundary.py), in bucket order.
    Its start fuses the bucket's gradients and starts a non-blocking all-reduce on the reducer's
    communicator; its finish waits for it, scales the sums and hands back one gradient per parameter. The
    compiled step starts each bucket as soon as the graph computing its gradients has run (the backward
    pass of the layers before it runs while it is in flight)."""
    from cellonnx.graph.boundary import host_boundary

    out = list(reduced)
    for b in plan.buckets:
        dtypes = [grads[i]._data.dtype for i in b.members]
        # the graph writes the gradients straight into the bucket (one buffer per bucket, reused every step:
        # its sums are read by the update graph of the same step only)
        buf = np.empty(b.size, b.dtype)
        views = [buf[b.offsets[i][0]:b.offsets[i][0] + b.offsets[i][1]].reshape(b.offsets[i][2])
                 if dt == b.dtype else None for i, dt in zip(b.members, dtypes)]

        def start(arrays: list[np.ndarray], b: _Bucket = b, buf: np.ndarray = buf,
                  views: list = views) -> tuple:
            for i, arr, view in zip(b.members, arrays, views):
                if arr is not view:
                    off, n, _ = b.offsets[i]
                    buf[off:off + n] = arr.reshape(-1)
            request = plan.comm.Iallreduce(_mpi.STATE.mpi.IN_PLACE, buf, op=_mpi.STATE.mpi.SUM)
            return buf, _progress.submit(request)

        def finish(handle: tuple, b: _Bucket = b, dtypes: list = dtypes) -> list[np.ndarray]:
            buf, pending = handle
            pending.wait()
            if scale is not None:
                buf *= np.asarray(scale, buf.dtype)
            return [buf[b.offsets[i][0]:b.offsets[i][0] + b.offsets[i][1]].reshape(b.offsets[i][2])
                    .astype(dt, copy=False) for i, dt in zip(b.members, dtypes)]

        results = host_boundary(f"DistributedGradReducer.bucket{b.index}", [grads[i] for i in b.members],
                                [out[i]._data for i in b.members], start, finish,
                                buffers=lambda views=views: views)
        for i, t in zip(b.members, results):
            out[i] = t
    return out


def _broadcast_parameters(params: list[Parameter], group: str) -> None:
    """Rank 0's values into every rank's parameters."""
    c = _mpi.comm(group, "DistributedGradReducer")
    if c.Get_size() == 1:
        return
    for p in params:
        p.set_data(Tensor._make(_mpi.broadcast_array(p._data, 0, group, "DistributedGradReducer")))
