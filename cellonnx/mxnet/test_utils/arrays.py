"""mx.test_utils' random test data: shapes, dense and sparse NDArrays, NumPy arrays and matrices."""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.random as rnd

from cellonnx.mxnet.test_utils.compare import default_dtype

__all__ = ["assign_each", "assign_each2", "create_2d_tensor", "create_sparse_array", "create_vector",
           "get_identity_mat", "get_identity_mat_batch", "new_matrix_with_real_eigvals_2d",
           "new_matrix_with_real_eigvals_nd", "new_orthonormal_matrix_2d",
           "new_sym_matrix_with_real_eigvals_2d",
           "new_sym_matrix_with_real_eigvals_nd", "rand_coord_2d", "rand_ndarray", "rand_shape_2d",
           "rand_shape_3d", "rand_shape_nd", "rand_sparse_ndarray", "random_arrays", "random_sample",
           "random_uniform_arrays"]


def rand_shape_2d(dim0: int = 10, dim1: int = 10, allow_zero_size: bool = False) -> tuple[int, int]:
    """A random 2-d shape, each dimension in [1, dim] ([0, dim] with ``allow_zero_size``)."""
    low = 0 if allow_zero_size else 1
    return rnd.randint(low, dim0 + 1), rnd.randint(low, dim1 + 1)


def rand_shape_3d(dim0: int = 10, dim1: int = 10, dim2: int = 10,
                  allow_zero_size: bool = False) -> tuple[int, int, int]:
    """A random 3-d shape, each dimension in [1, dim] ([0, dim] with ``allow_zero_size``)."""
    low = 0 if allow_zero_size else 1
    return rnd.randint(low, dim0 + 1), rnd.randint(low, dim1 + 1), rnd.randint(low, dim2 + 1)


def rand_shape_nd(num_dim: int, dim: int = 10, allow_zero_size: bool = False) -> tuple[int, ...]:
    """A random shape of ``num_dim`` dimensions, each in [1, dim] ([0, dim] with ``allow_zero_size``)."""
    low = 0 if allow_zero_size else 1
    return tuple(rnd.randint(low, dim + 1, size=num_dim))


def random_arrays(*shapes: Any) -> Any:
    """Standard-normal NumPy arrays (float32) of the given shapes; one array for one shape."""
    arrays = [np.array(rnd.randn(), dtype=default_dtype()) if len(s) == 0
              else rnd.randn(*s).astype(default_dtype()) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_uniform_arrays(*shapes: Any, **kwargs: Any) -> Any:
    """Uniform NumPy arrays in [low, high) (keywords ``low`` 0, ``high`` 1, ``dtype`` float32)."""
    low, high = kwargs.pop("low", 0.0), kwargs.pop("high", 1.0)
    dtype = kwargs.pop("dtype", default_dtype())
    if kwargs:
        raise TypeError(f"{list(kwargs)} are not valid arguments")
    arrays = [rnd.uniform(low, high, size=s).astype(dtype) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_sample(population: list, k: int) -> list:
    """``k`` elements of ``population`` in random order."""
    population_copy = population[:]
    rnd.shuffle(population_copy)
    return population_copy[0:k]


def rand_coord_2d(x_low: int, x_high: int, y_low: int, y_high: int) -> tuple[int, int]:
    """A random integer point in [x_low, x_high) x [y_low, y_high)."""
    return rnd.randint(x_low, x_high, dtype=np.int64), rnd.randint(y_low, y_high, dtype=np.int64)


def _nd() -> Any:
    from cellonnx.mxnet import ndarray

    return ndarray


def rand_sparse_ndarray(shape: Any, stype: str, density: float | None = None, dtype: Any = None,
                        distribution: str | None = None, data_init: Any = None, rsp_indices: Any = None,
                        modifier_func: Any = None, shuffle_csr_indices: bool = False,
                            ctx: Any = None) -> tuple:
    """A random 'csr' or 'row_sparse' NDArray with about ``density`` of its entries (rows) stored, and its
    parts ``(data, indices[, indptr])`` as NumPy arrays."""
    density = rnd.rand() if density is None else density
    dtype = default_dtype() if dtype is None else dtype
    if stype == "row_sparse":
        if rsp_indices is not None:
            indices = np.sort(np.asarray(rsp_indices, np.int64))
        else:
            indices = np.flatnonzero(rnd.rand(shape[0]) < density).astype(np.int64)
        data = rnd.rand(len(indices), *shape[1:]).astype(dtype)
        if data_init is not None:
            data.fill(data_init)
        if modifier_func is not None:
            data = assign_each(data, modifier_func)
        arr = _nd().sparse.row_sparse_array((data, indices), shape=shape, dtype=dtype)
        return arr, (data, indices)
    if stype == "csr":
        dense = rnd.rand(*shape) * (rnd.rand(*shape) < density)
        if data_init is not None:
            dense[dense != 0] = data_init
        if modifier_func is not None:
            dense = assign_each(dense, modifier_func) * (dense != 0)
        arr = _nd().sparse.csr_matrix(dense.astype(dtype), shape=shape, dtype=dtype)
        return arr, (arr.indptr.asnumpy(), arr.indices.asnumpy())
    raise AssertionError(f"unknown storage type {stype}")


def rand_ndarray(shape: Any, stype: str = "default", density: float | None = None, dtype: Any = None,
                 modifier_func: Any = None, shuffle_csr_indices: bool = False,
                     distribution: str | None = None,
                 ctx: Any = None) -> Any:
    """A random NDArray: standard normal values ('default'), or a sparse one of about ``density``."""
    if stype == "default":
        return _nd().array(random_arrays(shape), dtype=dtype, ctx=ctx)
    return rand_sparse_ndarray(shape, stype, density=density, dtype=dtype, modifier_func=modifier_func,
                               shuffle_csr_indices=shuffle_csr_indices, distribution=distribution, ctx=ctx)[0]


def create_sparse_array(shape: Any, stype: str, data_init: Any = None, rsp_indices: Any = None,
                        dtype: Any = None, modifier_func: Any = None, density: float = 0.5,
                        shuffle_csr_indices: bool = False) -> Any:
    """A random sparse NDArray ('csr' needs a 2-d shape)."""
    if stype == "row_sparse":
        return rand_sparse_ndarray(shape, stype, density=density, dtype=dtype, data_init=data_init,
                                   rsp_indices=rsp_indices, modifier_func=modifier_func)[0]
    if stype == "csr":
        if len(shape) != 2:
            raise AssertionError(f"csr arrays are 2-d, got shape {shape}")
        return rand_sparse_ndarray(shape, stype, density=density, dtype=dtype, data_init=data_init,
                                   modifier_func=modifier_func, shuffle_csr_indices=shuffle_csr_indices)[0]
    raise AssertionError(f"Unknown storage type: {stype}")


def assign_each(the_input: np.ndarray, function: Any) -> np.ndarray:
    """``function`` applied to each element (a copy when ``function`` is None)."""
    if function is None:
        return np.array(the_input)
    return np.vectorize(function, otypes=[the_input.dtype])(the_input)


def assign_each2(input1: np.ndarray, input2: np.ndarray, function: Any) -> np.ndarray:
    """``function(a, b)`` applied to each pair of elements (a copy of ``input1`` when None)."""
    if function is None:
        return np.array(input1)
    return np.vectorize(function, otypes=[input1.dtype])(input1, input2)


def create_vector(size: int, dtype: Any = np.int64) -> Any:
    """The NDArray [0, 1, ..., size - 1]."""
    return _nd().arange(0, size, dtype=dtype)


def create_2d_tensor(rows: int, columns: int, dtype: Any = np.int64) -> Any:
    """A (rows, columns) NDArray whose row i is all i."""
    a = _nd().arange(0, rows, dtype=dtype).reshape(rows, 1)
    return _nd().broadcast_axis(a, axis=1, size=columns)


def get_identity_mat(size: int) -> Any:
    """The (size, size) identity NDArray (float32)."""
    return _nd().array(np.eye(size, dtype=np.float32))


def get_identity_mat_batch(size: int) -> Any:
    """Two (size, size) identities stacked, an NDArray (float32)."""
    return _nd().array(np.stack([np.eye(size, dtype=np.float32)] * 2))


def new_orthonormal_matrix_2d(n: int) -> np.ndarray:
    """A random (n, n) orthonormal matrix (float64)."""
    q, _ = np.linalg.qr(rnd.uniform(-10.0, 10.0, (n, n)).astype(np.float64))
    return q


def new_matrix_with_real_eigvals_2d(n: int) -> np.ndarray:
    """A random (n, n) matrix with real, distinct eigenvalues (float64)."""
    shape = (n, n)
    q = new_orthonormal_matrix_2d(n)
    lam = np.diag(rnd.uniform(-10.0, 10.0, n)) + np.triu(rnd.uniform(-1.0, 1.0, shape), 1)
    return q @ lam @ np.linalg.inv(q)


def new_sym_matrix_with_real_eigvals_2d(n: int) -> np.ndarray:
    """A random symmetric (n, n) matrix (float64)."""
    q = new_orthonormal_matrix_2d(n)
    return q @ np.diag(rnd.uniform(-10.0, 10.0, n)) @ q.T


def new_matrix_with_real_eigvals_nd(shape: tuple) -> np.ndarray:
    """A batch of matrices with real eigenvalues, of shape ``(..., n, n)``."""
    n = shape[-1]
    out = np.array([new_matrix_with_real_eigvals_2d(n) for _ in range(int(np.prod(shape[:-2])))])
    return out.reshape(shape)


def new_sym_matrix_with_real_eigvals_nd(shape: tuple) -> np.ndarray:
    """A batch of symmetric matrices of shape ``(..., n, n)``."""
    n = shape[-1]
    out = np.array([new_sym_matrix_with_real_eigvals_2d(n) for _ in range(int(np.prod(shape[:-2])))])
    return out.reshape(shape)
