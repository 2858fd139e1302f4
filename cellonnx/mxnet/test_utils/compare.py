"""mx.test_utils' comparisons and tolerances: per-dtype default tolerances, ``almost_equal`` /
``assert_almost_equal`` (MXNet's report of the worst violations), ``same`` and the default context."""
from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.testing as npt

from cellonnx.mxnet import device as _device

__all__ = ["almost_equal", "assert_allclose", "assert_almost_equal", "assert_almost_equal_ignore_nan",
           "assert_almost_equal_with_err", "assert_exception", "checkShapes", "collapse_sum_like",
           "compare_ndarray_tuple", "default_atols", "default_context", "default_dtype",
           "default_numeric_eps",
           "default_rtols", "discard_stderr", "effective_dtype", "environment", "get_atol", "get_etol",
           "get_rtol",
           "get_tolerance", "get_tols", "has_tvm_ops", "is_aarch64_run", "is_cd_run", "is_op_runnable",
           "list_gpus", "locationError", "np_reduce", "retry", "same", "same_array", "set_default_context"]

_DEFAULT_CTX: list[Any] = []
_INTS = (np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)


def default_context() -> Any:
    """The context tests run on (``cpu()`` unless ``set_default_context`` changed it)."""
    return _DEFAULT_CTX[-1] if _DEFAULT_CTX else _device.current_context()


def set_default_context(ctx: Any) -> None:
    """Make ``ctx`` the context ``default_context()`` returns."""
    _DEFAULT_CTX[:] = [ctx]


def default_dtype() -> type:
    """The default dtype of test arrays: float32."""
    return np.float32


def default_rtols() -> dict[np.dtype, float]:
    """Relative tolerances per dtype (float16 1e-2, float32 1e-4, float64 1e-5, integers 0)."""
    return {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5,
            **{np.dtype(t): 0 for t in _INTS}}


def default_atols() -> dict[np.dtype, float]:
    """Absolute tolerances per dtype (float16 1e-1, float32 1e-3, float64 1e-20, integers 0)."""
    return {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20,
            **{np.dtype(t): 0 for t in _INTS}}


def default_numeric_eps() -> dict[np.dtype, float]:
    """Finite-difference steps per dtype (float16 2**-6, float32 2**-9, float64 2**-14)."""
    return {np.dtype(np.float16): 1.0 / 2**6, np.dtype(np.float32): 1.0 / 2**9,
            np.dtype(np.float64): 1.0 / 2**14}


def effective_dtype(dat: Any) -> np.dtype:
    """The dtype whose tolerances apply to ``dat`` (its own: no TensorFloat-32 here)."""
    return np.dtype(dat.dtype)


def get_tolerance(dat: Any, tol: Any, default_tol: dict) -> float:
    """``tol`` if it is a number, else its (or ``default_tol``'s) entry for ``dat``'s dtype."""
    if isinstance(tol, (int, float, np.number)):
        return tol
    dtype = effective_dtype(dat)
    return (tol or {}).get(dtype, default_tol[dtype])


def get_tols(x: Any, y: Any, rtol: Any, atol: Any) -> tuple[float, float]:
    """The (rtol, atol) for comparing ``x`` and ``y``: the looser of their dtypes' tolerances."""
    if not hasattr(x, "dtype"):
        x = np.array(x)
    if not hasattr(y, "dtype"):
        y = np.array(y)
    return (max(get_tolerance(x, rtol, default_rtols()), get_tolerance(y, rtol, default_rtols())),
            max(get_tolerance(x, atol, default_atols()), get_tolerance(y, atol, default_atols())))


def get_rtol(rtol: float | None = None, dtype: Any = np.dtype(np.float64)) -> float:  # noqa: B008
    """``rtol``, or the default relative tolerance of ``dtype``."""
    return default_rtols()[np.dtype(dtype)] if rtol is None else rtol


def get_atol(atol: float | None = None, dtype: Any = np.dtype(np.float64)) -> float:  # noqa: B008
    """``atol``, or the default absolute tolerance of ``dtype``."""
    return default_atols()[np.dtype(dtype)] if atol is None else atol


def get_etol(etol: float | None = None) -> float:
    """``etol`` (the fraction of elements allowed to differ), 0 by default."""
    return 0 if etol is None else etol


def _np(a: Any) -> Any:
    return a.asnumpy() if hasattr(a, "asnumpy") else a


def checkShapes(a: Any, b: Any) -> None:
    """Assert ``a`` and ``b`` have the same shape."""
    if a.shape != b.shape:
        raise AssertionError(f"Shapes do not match: {a.shape} vs {b.shape}")


def almost_equal(a: Any, b: Any, rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = False,
                 use_broadcast: bool = True) -> bool:
    """Whether ``a`` and ``b`` are element-wise close (``np.allclose`` with float64 defaults)."""
    a, b = _np(a), _np(b)
    if not use_broadcast:
        checkShapes(a, b)
    return bool(np.allclose(a, b, rtol=get_rtol(rtol), atol=get_atol(atol), equal_nan=equal_nan))


def locationError(a: Any, b: Any, index: tuple, names: Any, maxError: bool = False) -> str:
    """The text naming the values of ``a`` and ``b`` at ``index``."""
    maximum = "maximum " if maxError else ""
    return f"Location of {maximum}error: {index}, {names[0]}={a[index]:.8f}, {names[1]}={b[index]:.8f}"


def _find_max_violation(a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> tuple[tuple, float]:
    tol = atol + rtol * np.abs(b)
    violation = np.abs(a - b) / (tol + 1e-20)
    loc = int(np.argmax(violation))
    return tuple(int(i) for i in np.unravel_index(loc, violation.shape)), float(np.max(violation))


def assert_almost_equal(a: Any, b: Any, rtol: float | None = None, atol: float | None = None,
                        names: tuple[str, str] = ("a", "b"), equal_nan: bool = False,
                            use_broadcast: bool = True,
                        mismatches: tuple[int, int] = (10, 10)) -> None:
    """Assert ``a`` and ``b`` (NDArrays or NumPy arrays) are close within the dtypes' default tolerances;
    the error reports the worst violation, its location and the share of elements that differ."""
    if not use_broadcast:
        checkShapes(a, b)
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_np(a)), np.asarray(_np(b))
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        np.testing.assert_equal(a, b)
        return
    if almost_equal(a, b, rtol, atol, equal_nan=equal_nan):
        return
    a, b = np.broadcast_arrays(a, b)
    index, rel = _find_max_violation(a, b, rtol, atol)
    if index != ():
        index_err, rel_err = index, rel
        print(f"\n*** Maximum errors for vector of size {a.size}:  rtol={rtol}, atol={atol}\n")
        a_tmp, b_tmp = a.copy(), b.copy()
        i = 1
        while i <= a.size:
            if i <= mismatches[0]:
                print("%3d: Error %f  %s" % (i, rel, locationError(a, b, index, names)))  # noqa: UP031
            a_tmp[index] = b_tmp[index] = 0
            if almost_equal(a_tmp, b_tmp, rtol, atol, equal_nan=equal_nan):
                break
            i += 1
            if i <= mismatches[1] or mismatches[1] <= 0:
                index, rel = _find_max_violation(a_tmp, b_tmp, rtol, atol)
            else:
                break
        degree = "at least " if mismatches[1] > 0 and i > mismatches[1] else ""
        msg = "Error %f exceeds tolerance rtol=%e, atol=%e (mismatch %s%f%%).\n%s" % (  # noqa: UP031
            rel_err, rtol, atol, degree, 100 * i / a.size, locationError(a, b, index_err, names,
                maxError=True))
    else:
        msg = "Error %f exceeds tolerance rtol=%e, atol=%e.\n" % (rel, rtol, atol)  # noqa: UP031
    with np.printoptions(threshold=4, suppress=True):
        raise AssertionError(npt.build_err_msg([a, b], err_msg=msg))


def assert_almost_equal_with_err(a: Any, b: Any, rtol: float | None = None, atol: float | None = None,
                                 etol: float | None = None, names: tuple[str, str] = ("a", "b"),
                                 equal_nan: bool = False, mismatches: tuple[int, int] = (10, 10)) -> None:
    """``assert_almost_equal`` that lets a fraction ``etol`` of the elements differ."""
    etol = get_etol(etol)
    if etol <= 0:
        assert_almost_equal(a, b, rtol, atol, names, equal_nan, mismatches=mismatches)
        return
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_np(a)), np.asarray(_np(b))
    equals = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    err = 1 - np.count_nonzero(equals) / equals.size
    if err > etol:
        index, rel = _find_max_violation(a, b, rtol, atol)
        msg = "Error %f exceeds tolerance rtol=%e, atol=%e, etol=%e. Error_rate=%f. %s" % (  # noqa: UP031
            rel, rtol, atol, etol, err, locationError(a, b, index, names, maxError=True))
        raise AssertionError(npt.build_err_msg([a, b], err_msg=msg))


def assert_almost_equal_ignore_nan(a: Any, b: Any, rtol: float | None = None, atol: float | None = None,
                                   names: tuple[str, str] = ("a", "b")) -> None:
    """``assert_almost_equal`` over the elements where neither array is NaN."""
    a, b = np.copy(_np(a)), np.copy(_np(b))
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def assert_allclose(a: Any, b: Any, rtol: float = 1e-07, atol: float = 0, equal_nan: bool = True) -> None:
    """``numpy.testing.assert_allclose`` on NDArrays or NumPy arrays."""
    npt.assert_allclose(_np(a), _np(b), rtol=rtol, atol=atol, equal_nan=equal_nan)


def assert_exception(f: Callable[..., Any], exception_type: type, *args: Any, **kwargs: Any) -> None:
    """Assert ``f(*args, **kwargs)`` raises ``exception_type``."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError(f"{f} did not raise {exception_type}")


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are equal element for element (``np.array_equal``)."""
    return bool(np.array_equal(_np(a), _np(b)))


def same_array(array1: Any, array2: Any) -> bool:
    """Whether the two NDArrays share their memory (writing one changes the other)."""
    if array1.shape != array2.shape:
        return False
    a, b = array1._data, array2._data
    return bool(np.shares_memory(a, b)) or array1 is array2


def compare_ndarray_tuple(t1: Any, t2: Any, rtol: float | None = None, atol: float | None = None) -> None:
    """Assert two (nested) tuples of arrays are close."""
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for s1, s2 in zip(t1, t2):
            compare_ndarray_tuple(s1, s2, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def np_reduce(dat: np.ndarray, axis: Any, keepdims: bool, numpy_reduce_func: Callable[...,
              Any]) -> np.ndarray:
    """Reduce ``dat`` over ``axis`` (an int, a tuple or None) with ``numpy_reduce_func``."""
    if isinstance(axis, int):
        axis = [axis]
    else:
        axis = list(axis) if axis is not None else range(len(dat.shape))
    ret = dat
    for i in reversed(sorted(axis)):
        ret = numpy_reduce_func(ret, axis=i)
    if keepdims:
        shape = list(dat.shape)
        for i in axis:
            shape[i] = 1
        ret = ret.reshape(tuple(shape))
    return ret


def collapse_sum_like(a: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum ``a`` down to ``shape`` (the gradient of a broadcast to ``a``'s shape)."""
    assert len(a.shape) >= len(shape)
    if np.prod(shape) == 0 or a.size == 0:
        return np.zeros(shape, dtype=a.dtype)
    axes = []
    ndim_diff = len(a.shape) - len(shape)
    for i in range(ndim_diff):
        axes.append(i)
    for i, s in enumerate(shape):
        if s != a.shape[i + ndim_diff]:
            assert s == 1
            axes.append(i + ndim_diff)
    return np.sum(a, axis=tuple(axes)).reshape(shape)


def list_gpus() -> list[int]:
    """The GPUs there are: none (cellonnx computes on the host)."""
    return []


def is_op_runnable() -> bool:
    """Whether operators can run on the default context: always on the host."""
    return True


def has_tvm_ops() -> bool:
    """Whether TVM operators are built in: no."""
    return False


def is_aarch64_run() -> bool:
    """Whether this runs on aarch64."""
    import platform

    return platform.machine() == "aarch64"


def is_cd_run() -> bool:
    """Whether this is MXNet's continuous-delivery run (``CD_JOB=1``)."""
    return os.environ.get("CD_JOB", "0") == "1"


def retry(n: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: run a flaky test up to ``n`` times, re-raising the last AssertionError."""
    if n <= 0:
        raise AssertionError("n must be greater than 0")

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            err = None
            for _ in range(n):
                try:
                    return f(*args, **kwargs)
                except AssertionError as e:
                    err = e
            raise err  # type: ignore[misc]

        return wrapper

    return decorate


@contextlib.contextmanager
def environment(*args: Any) -> Iterator[None]:
    """Set environment variables for a block (``environment('K', 'v')`` or ``environment({'K': 'v'})``;
    a value of None unsets), restoring them after."""
    if len(args) not in (1, 2):
        raise ValueError("Expecting one dict arg or two args: env var key and value")
    env = args[0] if len(args) == 1 else {args[0]: args[1]}
    if not isinstance(env, dict):
        raise ValueError("Expecting one dict arg or two args: env var key and value")
    saved = {k: os.environ.get(k) for k in env}
    try:
        for k, v in env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def discard_stderr() -> Iterator[None]:
    """Discard what is written to stderr (file descriptor 2) within the block."""
    with open(os.devnull, "w") as bit_bucket:
        try:
            stderr_fileno = 2
            old_stderr = os.dup(stderr_fileno)
            os.dup2(bit_bucket.fileno(), stderr_fileno)
            yield
        finally:
            os.dup2(old_stderr, stderr_fileno)
            os.close(old_stderr)
