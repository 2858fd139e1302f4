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
    [1.     2.7183 7.3891]
    """,
    "log": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.log(np.array([1.0, 2.0, 4.0])), 4))
    [0.     0.6931 1.3863]
    """,
    "tanh": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(np.tanh(np.array([-1.0, 0.0, 1.0])), 4))
    [-0.7616  0.      0.7616]
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
}

