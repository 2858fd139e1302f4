"""The docstring examples of mx.np's functions shared with cellonnx.numpy (their descriptions are
cellonnx.numpy's, cellonnx/mxnet/numpy/_shared.py): MXNet's calls, as an MXNet user writes them."""
from __future__ import annotations

EXAMPLES = {
    "sum": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> print(np.sum(x))
    21.0
    >>> print(np.sum(x, axis=0))
    [5. 7. 9.]
    """,
    "max": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 7.0], [9.0, 5.0]])
    >>> print(np.max(x, axis=1))
    [7. 9.]
    """,
    "min": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 7.0], [9.0, 5.0]])
    >>> print(np.min(x, axis=0))
    [1. 5.]
    """,
    "std": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 3.0], [2.0, 6.0]])
    >>> print(np.std(x, axis=1))
    [1. 2.]
    """,
    "var": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 3.0], [2.0, 6.0]])
    >>> print(np.var(x, axis=1))
    [1. 4.]
    """,
    "cumsum": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.cumsum(np.array([1.0, 2.0, 3.0, 4.0])))
    [ 1.  3.  6. 10.]
    """,
    "add": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.add(np.array([1.0, 2.0]), np.array([10.0, 20.0])))
    [11. 22.]
    """,
    "subtract": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.subtract(np.array([1.0, 2.0]), np.array([10.0, 20.0])))
    [ -9. -18.]
    """,
    "multiply": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(np.multiply(x, np.array([10.0, 100.0])))
    [[ 10. 200.]
     [ 30. 400.]]
    """,
    "divide": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.divide(np.array([1.0, 2.0, 3.0]), 2.0))
    [0.5 1.  1.5]
    """,
    "power": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.power(np.array([1.0, 2.0, 3.0]), 2))
    [1. 4. 9.]
    """,
    "maximum": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.maximum(np.array([1.0, 5.0]), np.array([4.0, 2.0])))
    [4. 5.]
    """,
    "minimum": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.minimum(np.array([1.0, 5.0]), np.array([4.0, 2.0])))
    [1. 2.]
    """,
    "abs": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.abs(np.array([-1.5, 0.0, 2.0])))
    [1.5 0.  2. ]
    """,
    "sqrt": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.sqrt(np.array([1.0, 4.0, 9.0])))
    [1. 2. 3.]
    """,
    "square": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.square(np.array([-2.0, 3.0])))
    [4. 9.]
    """,
    "exp": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.exp(np.array([0.0, 1.0, 2.0])), 4))
    [1.        2.7183003 7.3891006]
    """,
    "log": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.log(np.array([1.0, 2.0, 4.0])), 4))
    [0.        0.6931    1.3863001]
    """,
    "tanh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.tanh(np.array([-1.0, 0.0, 1.0])), 4))
    [-0.76159996  0.          0.76159996]
    """,
    "sin": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.sin(np.array([0.0, np.pi / 2])), 4))
    [0. 1.]
    """,
    "cos": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.cos(np.array([0.0, np.pi])), 4))
    [ 1. -1.]
    """,
    "floor": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.floor(np.array([1.5, -1.5, 2.0])))
    [ 1. -2.  2.]
    """,
    "ceil": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.ceil(np.array([1.5, -1.5, 2.0])))
    [ 2. -1.  2.]
    """,
    "round": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.array([1.234, 5.678]), 1))
    [1.2 5.7]
    """,
    "clip": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.clip(np.array([-3.0, 0.5, 2.0, 7.0]), 0.0, 1.0))
    [0.  0.5 1.  1. ]
    """,
    "sign": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.sign(np.array([-3.0, 0.0, 2.5])))
    [-1.  0.  1.]
    """,
    "reshape": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.arange(6)
    >>> print(np.reshape(x, (2, 3)))
    [[0. 1. 2.]
     [3. 4. 5.]]
    """,
    "transpose": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((2, 3, 4))
    >>> np.transpose(x, (2, 0, 1)).shape
    (4, 2, 3)
    """,
    "swapaxes": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((2, 3, 4))
    >>> np.swapaxes(x, 0, 2).shape
    (4, 3, 2)
    """,
    "expand_dims": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.expand_dims(np.array([1.0, 2.0]), 0).shape
    (1, 2)
    """,
    "squeeze": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.squeeze(np.ones((1, 3, 1))).shape
    (3,)
    """,
    "concatenate": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> a = np.array([[1.0, 2.0]])
    >>> b = np.array([[3.0, 4.0]])
    >>> print(np.concatenate((a, b), axis=0))
    [[1. 2.]
     [3. 4.]]
    """,
    "stack": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> a = np.array([1.0, 2.0])
    >>> b = np.array([3.0, 4.0])
    >>> print(np.stack((a, b), axis=1))
    [[1. 3.]
     [2. 4.]]
    """,
    "split": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> parts = np.split(np.arange(6), 3)
    >>> print(parts[1])
    [2. 3.]
    """,
    "tile": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.tile(np.array([1.0, 2.0]), 3))
    [1. 2. 1. 2. 1. 2.]
    """,
    "repeat": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.repeat(np.array([1.0, 2.0]), 2))
    [1. 1. 2. 2.]
    """,
    "broadcast_to": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.broadcast_to(np.array([1.0, 2.0, 3.0]), (2, 3)))
    [[1. 2. 3.]
     [1. 2. 3.]]
    """,
    "flip": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.flip(np.array([[1.0, 2.0], [3.0, 4.0]]), 0))
    [[3. 4.]
     [1. 2.]]
    """,
    "dot": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> a = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(np.dot(a, np.array([1.0, 1.0])))
    [3. 7.]
    """,
    "matmul": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.matmul(np.ones((2, 3)), np.ones((3, 4))))
    [[3. 3. 3. 3.]
     [3. 3. 3. 3.]]
    """,
    "outer": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.outer(np.array([1.0, 2.0, 3.0]), np.array([1.0, 10.0])))
    [[ 1. 10.]
     [ 2. 20.]
     [ 3. 30.]]
    """,
    "tensordot": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.tensordot(np.ones((2, 3)), np.ones((3, 4)), axes=1))
    [[3. 3. 3. 3.]
     [3. 3. 3. 3.]]
    """,
    "equal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.equal(np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 3.0])))
    [ True False  True]
    """,
    "greater": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.greater(np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])))
    [False False  True]
    """,
    "less": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.less(np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])))
    [ True False False]
    """,
    "isnan": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isnan(np.array([1.0, np.nan, np.inf])))
    [False  True False]
    """,
    "logical_and": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([True, False, True])
    >>> print(np.logical_and(x, np.array([True, True, False])))
    [ True False False]
    """,
    "pad": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.pad(np.array([[1.0, 2.0], [3.0, 4.0]]), ((1, 0), (0, 1))))
    [[0. 0. 0.]
     [1. 2. 0.]
     [3. 4. 0.]]
    """,
    "tril": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.tril(np.ones((3, 3))))
    [[1. 0. 0.]
     [1. 1. 0.]
     [1. 1. 1.]]
    """,
    "triu": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.triu(np.ones((3, 3)), 1))
    [[0. 1. 1.]
     [0. 0. 1.]
     [0. 0. 0.]]
    """,
    "diag": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.diag(np.array([1.0, 2.0, 3.0])))
    [[1. 0. 0.]
     [0. 2. 0.]
     [0. 0. 3.]]
    """,
    "trace": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.trace(np.arange(9).reshape(3, 3)))
    12.0
    """,
    "ravel": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.ravel(np.array([[1.0, 2.0], [3.0, 4.0]])))
    [1. 2. 3. 4.]
    """,
    "roll": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.roll(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), 2))
    [3. 4. 0. 1. 2.]
    """,
    "cross": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.cross(np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])))
    [0. 0. 1.]
    """,
    "average": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.average(np.array([1.0, 2.0, 3.0]), weights=np.array([3.0, 1.0, 0.0])))
    1.25
    """,
    "vstack": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.vstack((np.array([1.0, 2.0]), np.array([3.0, 4.0]))))
    [[1. 2.]
     [3. 4.]]
    """,
    "hstack": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.hstack((np.array([1.0, 2.0]), np.array([3.0, 4.0]))))
    [1. 2. 3. 4.]
    """,
    "diff": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.diff(np.array([1.0, 3.0, 6.0, 10.0])))
    [2. 3. 4.]
    """,
    "absolute": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.absolute(np.array([-1.5, 2.0])))
    [1.5 2. ]
    """,
    "arccos": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arccos(np.array([1.0, 0.0])), 4))
    [0.        1.5708001]
    """,
    "arcsin": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arcsin(np.array([0.0, 1.0])), 4))
    [0.        1.5708001]
    """,
    "arctan": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arctan(np.array([0.0, 1.0])), 4))
    [0.         0.78540003]
    """,
    "arctan2": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arctan2(np.array([1.0, 1.0]), np.array([1.0, -1.0])), 4))
    [0.78540003 2.3562    ]
    """,
    "around": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.around(np.array([1.234, 5.678]), 1))
    [1.2 5.7]
    """,
    "bincount": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.bincount(np.array([0, 1, 1, 3], dtype='int32')))
    [1 2 0 1]
    """,
    "column_stack": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.column_stack((np.array([1.0, 2.0]), np.array([3.0, 4.0]))))
    [[1. 3.]
     [2. 4.]]
    """,
    "copysign": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.copysign(np.array([1.0, -2.0]), np.array([-1.0, 1.0])))
    [-1.  2.]
    """,
    "cosh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.cosh(np.array([0.0, 1.0])), 4))
    [1.     1.5431]
    """,
    "sinh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.sinh(np.array([0.0, 1.0])), 4))
    [0.     1.1752]
    """,
    "tan": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.tan(np.array([0.0, np.pi / 4])), 4))
    [0. 1.]
    """,
    "cumprod": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.cumprod(np.array([1.0, 2.0, 3.0, 4.0])))
    [ 1.  2.  6. 24.]
    """,
    "deg2rad": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.deg2rad(np.array([0.0, 90.0, 180.0])), 4))
    [0.        1.5708001 3.1416001]
    """,
    "rad2deg": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.rad2deg(np.array([0.0, np.pi])), 2))
    [  0. 180.]
    """,
    "diagonal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.diagonal(np.arange(9).reshape(3, 3)))
    [0. 4. 8.]
    """,
    "digitize": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.digitize(np.array([0.5, 1.5, 2.5]), np.array([1.0, 2.0])))
    [0 1 2]
    """,
    "ediff1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.ediff1d(np.array([1.0, 3.0, 6.0, 10.0])))
    [2. 3. 4.]
    """,
    "exp2": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.exp2(np.array([0.0, 1.0, 3.0])))
    [1. 2. 8.]
    """,
    "expm1": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.expm1(np.array([0.0, 1.0])), 4))
    [0.        1.7183001]
    """,
    "log1p": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.log1p(np.array([0.0, 1.0])), 4))
    [0.     0.6931]
    """,
    "log2": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.log2(np.array([1.0, 2.0, 8.0])))
    [0. 1. 3.]
    """,
    "log10": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.log10(np.array([1.0, 10.0, 100.0])))
    [0. 1. 2.]
    """,
    "fabs": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.fabs(np.array([-1.5, 2.0])))
    [1.5 2. ]
    """,
    "fix": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.fix(np.array([1.7, -1.7])))
    [ 1. -1.]
    """,
    "fliplr": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.fliplr(np.array([[1.0, 2.0], [3.0, 4.0]])))
    [[2. 1.]
     [4. 3.]]
    """,
    "flipud": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.flipud(np.array([[1.0, 2.0], [3.0, 4.0]])))
    [[3. 4.]
     [1. 2.]]
    """,
    "floor_divide": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.floor_divide(np.array([7.0, -7.0]), 2.0))
    [ 3. -4.]
    """,
    "fmod": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.fmod(np.array([-3.0, -1.0, 4.0]), 3.0))
    [ 0. -1.  1.]
    """,
    "mod": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.mod(np.array([-3.0, -1.0, 4.0]), 3.0))
    [0. 2. 1.]
    """,
    "remainder": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.remainder(np.array([-3.0, -1.0, 4.0]), 3.0))
    [0. 2. 1.]
    """,
    "full_like": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(np.full_like(x, 9.0))
    [[9. 9.]
     [9. 9.]]
    """,
    "hypot": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.hypot(np.array([3.0, 5.0]), np.array([4.0, 12.0])))
    [ 5. 13.]
    """,
    "identity": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.identity(2))
    [[1. 0.]
     [0. 1.]]
    """,
    "inner": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.inner(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 2.0])))
    8.0
    """,
    "interp": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([0.5, 1.5])
    >>> print(np.interp(x, np.array([0.0, 1.0, 2.0]), np.array([0.0, 10.0, 40.0])))
    [ 5. 25.]
    """,
    "isclose": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isclose(np.array([1.0, 2.0]), np.array([1.0, 2.1])))
    [ True False]
    """,
    "isfinite": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isfinite(np.array([1.0, np.inf, np.nan])))
    [ True False False]
    """,
    "isinf": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isinf(np.array([1.0, np.inf, np.nan])))
    [False  True False]
    """,
    "kron": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.kron(np.array([1.0, 2.0]), np.array([1.0, 10.0])))
    [ 1. 10.  2. 20.]
    """,
    "lcm": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.lcm(np.array([4, 6], dtype='int32'), np.array([6, 10], dtype='int32')))
    [12 30]
    """,
    "gcd": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.gcd(np.array([12, 18], dtype='int32'), np.array([8, 27], dtype='int32')))
    [4 9]
    """,
    "logaddexp": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.logaddexp(np.array([0.0, 1.0]), np.array([0.0, 2.0])), 4))
    [0.6931 2.3133]
    """,
    "logical_not": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.logical_not(np.array([True, False])))
    [False  True]
    """,
    "logical_or": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.logical_or(np.array([True, False]), np.array([False, False])))
    [ True False]
    """,
    "logical_xor": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.logical_xor(np.array([True, False]), np.array([True, True])))
    [False  True]
    """,
    "moveaxis": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.moveaxis(np.ones((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """,
    "nanmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanmax(np.array([1.0, np.nan, 3.0])))
    3.0
    """,
    "nansum": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nansum(np.array([1.0, np.nan, 3.0])))
    4.0
    """,
    "negative": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.negative(np.array([1.0, -2.0])))
    [-1.  2.]
    """,
    "not_equal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.not_equal(np.array([1.0, 2.0]), np.array([1.0, 3.0])))
    [False  True]
    """,
    "greater_equal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.greater_equal(np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])))
    [False  True  True]
    """,
    "less_equal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.less_equal(np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])))
    [ True  True False]
    """,
    "polyval": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.polyval(np.array([1.0, 0.0, -1.0]), np.array([0.0, 1.0, 2.0])))
    [-1.  0.  3.]
    """,
    "ptp": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.ptp(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), axis=1))
    [6. 4.]
    """,
    "reciprocal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.reciprocal(np.array([1.0, 2.0, 4.0])))
    [1.   0.5  0.25]
    """,
    "rint": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.rint(np.array([0.4, 1.6, -2.7])))
    [ 0.  2. -3.]
    """,
    "rot90": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.rot90(np.array([[1.0, 2.0], [3.0, 4.0]])))
    [[2. 4.]
     [1. 3.]]
    """,
    "searchsorted": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.searchsorted(np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.5, 0.0])))
    [2 0]
    """,
    "size": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.size(np.ones((2, 3)))
    6
    """,
    "true_divide": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.true_divide(np.array([1.0, 2.0, 3.0]), 2.0))
    [0.5 1.  1.5]
    """,
    "trunc": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.trunc(np.array([1.7, -1.7])))
    [ 1. -1.]
    """,
    "tril_indices": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.tril_indices(3)
    >>> print(rows)
    [0 1 1 2 2 2]
    >>> print(cols)
    [0 0 1 0 1 2]
    """,
    "vsplit": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> parts = np.vsplit(np.arange(8).reshape(4, 2), 2)
    >>> print(parts[1])
    [[4. 5.]
     [6. 7.]]
    """,
    "hsplit": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> parts = np.hsplit(np.arange(8).reshape(2, 4), 2)
    >>> print(parts[1])
    [[2. 3.]
     [6. 7.]]
    """,
    "dstack": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.dstack((np.array([1.0, 2.0]), np.array([3.0, 4.0]))).shape
    (1, 2, 2)
    """,
    "array_split": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> parts = np.array_split(np.arange(5), 2)
    >>> print(parts[0], parts[1])
    [0. 1. 2.] [3. 4.]
    """,
    "diagflat": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.diagflat(np.array([1.0, 2.0])))
    [[1. 0.]
     [0. 2.]]
    """,
    "bitwise_and": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.bitwise_and(np.array([12, 10], dtype='int32'), np.array([10, 6], dtype='int32')))
    [8 2]
    """,
    "bitwise_or": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.bitwise_or(np.array([12, 10], dtype='int32'), np.array([10, 6], dtype='int32')))
    [14 14]
    """,
    "bitwise_xor": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.bitwise_xor(np.array([12, 10], dtype='int32'), np.array([10, 6], dtype='int32')))
    [ 6 12]
    """,
    "copy": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.copy(np.array([1.0, 2.0])))
    [1. 2.]
    """,
    "cov": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.cov(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])))
    [[ 1. -1.]
     [-1.  1.]]
    """,
    "vander": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.vander(np.array([1.0, 2.0, 3.0]), 3))
    [[1. 1. 1.]
     [4. 2. 1.]
     [9. 3. 1.]]
    """,
    "append": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(np.append(x, np.array([[5.0, 6.0]]), axis=0))
    [[1. 2.]
     [3. 4.]
     [5. 6.]]
    """,
    "apply_along_axis": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(np.apply_along_axis(lambda v: v * 2, 1, x))
    [[2. 4.]
     [6. 8.]]
    """,
    "apply_over_axes": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(np.apply_over_axes(lambda a, axis: a.sum(axis=axis, keepdims=True), x, [1]))
    [[3.]
     [7.]]
    """,
    "arccosh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arccosh(np.array([1.0, 2.0, 3.0])), 4))
    [0.        1.317     1.7626998]
    """,
    "arcsinh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arcsinh(np.array([-1.0, 0.0, 2.0])), 4))
    [-0.8814     0.         1.4435999]
    """,
    "arctanh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.arctanh(np.array([-0.5, 0.0, 0.5])), 4))
    [-0.5493  0.      0.5493]
    """,
    "argwhere": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.argwhere(np.array([[0.0, 1.0], [2.0, 0.0]])))
    [[0 1]
     [1 0]]
    """,
    "array_equal": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.array_equal(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    True
    >>> np.array_equal(np.array([1.0, 2.0]), np.array([1.0, 3.0]))
    False
    """,
    "array_equiv": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.array_equiv(np.array([1.0, 2.0]), np.array([[1.0, 2.0], [1.0, 2.0]]))
    True
    """,
    "atleast_1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.atleast_1d(np.array(3.0)).shape
    (1,)
    >>> [a.shape for a in np.atleast_1d(np.array(1.0), np.ones((2, 2)))]
    [(1,), (2, 2)]
    """,
    "atleast_2d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.atleast_2d(np.array([1.0, 2.0])).shape
    (1, 2)
    """,
    "atleast_3d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.atleast_3d(np.array([1.0, 2.0])).shape
    (1, 2, 1)
    >>> np.atleast_3d(np.ones((2, 3))).shape
    (2, 3, 1)
    """,
    "bartlett": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.bartlett(5))
    [0.  0.5 1.  0.5 0. ]
    """,
    "bitwise_not": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.bitwise_not(np.array([0, 3, -4], dtype='int32')))
    [-1 -4  3]
    """,
    "blackman": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.blackman(5), 4))
    [-0.    0.34  1.    0.34 -0.  ]
    """,
    "broadcast_arrays": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> a, b = np.broadcast_arrays(np.array([[1.0], [2.0]]), np.array([3.0, 4.0]))
    >>> print(a)
    [[1. 1.]
     [2. 2.]]
    >>> print(b)
    [[3. 4.]
     [3. 4.]]
    """,
    "cbrt": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.cbrt(np.array([1.0, 8.0, -27.0])))
    [ 1.  2. -3.]
    """,
    "choose": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> choices = [np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0, 30.0])]
    >>> print(np.choose(np.array([0, 1, 0], dtype='int32'), choices))
    [ 1. 20.  3.]
    """,
    "convolve": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.convolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])))
    [0.  1.  2.5 4.  1.5]
    """,
    "corrcoef": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.corrcoef(np.array([1.0, 2.0, 3.0]), np.array([1.0, 5.0, 7.0])), 4))
    [[1.    0.982]
     [0.982 1.   ]]
    """,
    "correlate": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.correlate(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])))
    [3.5]
    """,
    "count_nonzero": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[0.0, 1.0], [2.0, 3.0]])
    >>> np.count_nonzero(x)
    3
    >>> print(np.count_nonzero(x, axis=0))
    [1 2]
    """,
    "diag_indices": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.diag_indices(3)
    >>> print(rows, cols)
    [0 1 2] [0 1 2]
    """,
    "divmod": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> q, r = np.divmod(np.array([7.0, -7.0]), 2.0)
    >>> print(q, r)
    [ 3. -4.] [1. 1.]
    """,
    "dsplit": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> parts = np.dsplit(np.ones((1, 2, 4)), 2)
    >>> [p.shape for p in parts]
    [(1, 2, 2), (1, 2, 2)]
    """,
    "empty_like": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.empty_like(np.ones((2, 3))).shape
    (2, 3)
    """,
    "float_power": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.float_power(np.array([2.0, 3.0]), 2))
    [4. 9.]
    """,
    "geomspace": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.geomspace(1.0, 1000.0, 4)))
    [   1.   10.  100. 1000.]
    """,
    "gradient": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.gradient(np.array([1.0, 4.0, 9.0, 16.0])))
    [3. 4. 6. 7.]
    """,
    "hamming": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.hamming(5), 2))
    [0.08 0.54 1.   0.54 0.08]
    """,
    "hanning": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.hanning(5))
    [0.  0.5 1.  0.5 0. ]
    """,
    "heaviside": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.heaviside(np.array([-1.0, 0.0, 2.0]), 0.5))
    [0.  0.5 1. ]
    """,
    "histogram": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> hist, edges = np.histogram(np.array([1.0, 2.0, 2.0, 3.0]), bins=2, range=(1.0, 3.0))
    >>> print(hist, edges)
    [1 3] [1. 2. 3.]
    """,
    "histogram2d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> h, xedges, yedges = np.histogram2d(np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.0, 1.0]), bins=2)
    >>> print(h)
    [[1. 0.]
     [1. 1.]]
    """,
    "histogram_bin_edges": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.histogram_bin_edges(np.array([0.0, 1.0, 2.0, 4.0]), bins=2))
    [0. 2. 4.]
    """,
    "histogramdd": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> h, edges = np.histogramdd(np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), bins=2)
    >>> print(h)
    [[1. 0.]
     [1. 1.]]
    """,
    "intersect1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.intersect1d(np.array([3.0, 1.0, 2.0]), np.array([2.0, 3.0, 5.0])))
    [2. 3.]
    """,
    "invert": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.invert(np.array([0, 3], dtype='int32')))
    [-1 -4]
    """,
    "isin": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isin(np.array([1.0, 2.0, 3.0]), np.array([2.0, 5.0])))
    [False  True False]
    """,
    "isneginf": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isneginf(np.array([-np.inf, 0.0, np.inf])))
    [ True False False]
    """,
    "isposinf": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.isposinf(np.array([-np.inf, 0.0, np.inf])))
    [False False  True]
    """,
    "isscalar": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.isscalar(3.0)
    True
    >>> np.isscalar(np.array([3.0]))
    False
    """,
    "logaddexp2": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.logaddexp2(np.array([1.0, 2.0]), np.array([1.0, 2.0])))
    [2. 3.]
    """,
    "logspace": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.logspace(0, 2, 3))
    [  1.  10. 100.]
    """,
    "meshgrid": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> xx, yy = np.meshgrid(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]))
    >>> print(xx)
    [[1. 2. 3.]
     [1. 2. 3.]]
    >>> print(yy)
    [[4. 4. 4.]
     [5. 5. 5.]]
    >>> [g.shape for g in np.meshgrid(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]), indexing='ij')]
    [(3, 2), (3, 2)]
    """,
    "nancumsum": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nancumsum(np.array([1.0, np.nan, 2.0])))
    [1. 1. 3.]
    """,
    "nanmean": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanmean(np.array([1.0, np.nan, 3.0])))
    2.0
    """,
    "nanmin": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanmin(np.array([[1.0, np.nan], [3.0, 0.5]]), axis=0))
    [1.  0.5]
    """,
    "nanstd": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanstd(np.array([1.0, np.nan, 3.0])))
    1.0
    """,
    "nanvar": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanvar(np.array([1.0, np.nan, 3.0])))
    1.0
    """,
    "piecewise": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([-1.0, 0.0, 2.0])
    >>> print(np.piecewise(x, [x < 0, x >= 0], [-1.0, 1.0]))
    [-1.  1.  1.]
    """,
    "polyadd": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.polyadd(np.array([1.0, 2.0]), np.array([1.0, 1.0, 1.0])))
    [1. 2. 3.]
    """,
    "polyder": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.polyder(np.array([1.0, 2.0, 3.0])))
    [2. 2.]
    """,
    "polyint": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.polyint(np.array([3.0, 2.0, 1.0])))
    [1. 1. 1. 0.]
    """,
    "polymul": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.polymul(np.array([1.0, 2.0]), np.array([1.0, 3.0])))
    [1. 5. 6.]
    """,
    "polysub": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.polysub(np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0])))
    [1. 1. 2.]
    """,
    "positive": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.positive(np.array([-1.0, 2.0])))
    [-1.  2.]
    """,
    "radians": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.radians(np.array([180.0, 90.0])), 4))
    [3.1416001 1.5708001]
    """,
    "ravel_multi_index": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.array([0, 1], dtype='int32'), np.array([2, 0], dtype='int32')
    >>> print(np.ravel_multi_index((rows, cols), (2, 3)))
    [2 3]
    """,
    "rollaxis": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.rollaxis(np.ones((2, 3, 4)), 2).shape
    (4, 2, 3)
    """,
    "select": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([-1.0, 0.0, 2.0])
    >>> print(np.select([x < 0, x > 0], [x * 10, x * 100], default=5.0))
    [-10.   5. 200.]
    """,
    "setdiff1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.setdiff1d(np.array([3.0, 1.0, 2.0]), np.array([2.0])))
    [1. 3.]
    """,
    "signbit": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.signbit(np.array([-1.0, 0.0, 2.0])))
    [ True False False]
    """,
    "take_along_axis": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[10.0, 30.0, 20.0]])
    >>> print(np.take_along_axis(x, np.array([[0, 2]], dtype='int64'), axis=1))
    [[10. 20.]]
    """,
    "tri": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.tri(2, 3))
    [[1. 0. 0.]
     [1. 1. 0.]]
    """,
    "tril_indices_from": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.tril_indices_from(np.ones((2, 2)))
    >>> print(rows, cols)
    [0 1 1] [0 0 1]
    """,
    "triu_indices": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.triu_indices(2)
    >>> print(rows, cols)
    [0 0 1] [0 1 1]
    """,
    "triu_indices_from": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.triu_indices_from(np.ones((2, 2)))
    >>> print(rows, cols)
    [0 0 1] [0 1 1]
    """,
    "unravel_index": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.unravel_index(np.array([1, 5], dtype='int64'), (2, 3))
    >>> print(rows, cols)
    [0 1] [1 2]
    """,
    "unwrap": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.unwrap(np.array([0.0, 3.0, 6.5])), 4))
    [0.     3.     0.2168]
    """,
}
