"""The docstring examples of mx.nd's operators (their descriptions come from the operator table) and
the descriptions of those whose implementation has none: MXNet 1.x's calls, as an MXNet user writes them."""
from __future__ import annotations

EXAMPLES = {
    "array": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2], [3, 4]])
    >>> x.shape
    (2, 2)
    >>> x.dtype
    <class 'numpy.float32'>
    >>> print(x)
    <BLANKLINE>
    [[1. 2.]
     [3. 4.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "relu": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.relu(nd.array([-1.0, 0.0, 2.0])))
    <BLANKLINE>
    [0. 0. 2.]
    <NDArray 3 @cpu(0)>
    """,
    "sigmoid": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.sigmoid(nd.array([-1.0, 0.0, 1.0])).asnumpy().round(4))
    [0.2689 0.5    0.7311]
    """,
    "softmax": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
    >>> print(nd.softmax(x, axis=-1).asnumpy().round(4))
    [[0.09   0.2447 0.6652]
     [0.3333 0.3333 0.3333]]
    """,
    "log_softmax": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.log_softmax(nd.array([1.0, 2.0, 3.0])).asnumpy().round(4))
    [-2.4076 -1.4076 -0.4076]
    """,
    "Activation": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 2.0])
    >>> print(nd.Activation(x, act_type='relu'))
    <BLANKLINE>
    [0. 0. 2.]
    <NDArray 3 @cpu(0)>
    """,
    "FullyConnected": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0]])
    >>> weight = nd.array([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    >>> bias = nd.array([0.5, -6.0])
    >>> print(nd.FullyConnected(x, weight, bias, num_hidden=2))
    <BLANKLINE>
    [[1.5 0. ]]
    <NDArray 1x2 @cpu(0)>
    """,
    "Convolution": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((1, 2, 4, 4))
    >>> weight = nd.ones((3, 2, 3, 3))
    >>> out = nd.Convolution(x, weight, kernel=(3, 3), num_filter=3, no_bias=True)
    >>> out.shape
    (1, 3, 2, 2)
    """,
    "Pooling": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(16).reshape((1, 1, 4, 4))
    >>> print(nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='avg'))
    <BLANKLINE>
    [[[[ 2.5  4.5]
       [10.5 12.5]]]]
    <NDArray 1x1x2x2 @cpu(0)>
    """,
    "Flatten": """
    >>> from cellonnx.mxnet import nd
    >>> nd.Flatten(nd.ones((2, 3, 4))).shape
    (2, 12)
    """,
    "dot": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(nd.dot(a, nd.array([[1.0], [1.0]])))
    <BLANKLINE>
    [[3.]
     [7.]]
    <NDArray 2x1 @cpu(0)>
    """,
    "batch_dot": """
    >>> from cellonnx.mxnet import nd
    >>> nd.batch_dot(nd.ones((2, 3, 4)), nd.ones((2, 4, 5))).shape
    (2, 3, 5)
    """,
    "concat": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1, 2]])
    >>> b = nd.array([[3, 4]])
    >>> print(nd.concat(a, b, dim=0))
    <BLANKLINE>
    [[1. 2.]
     [3. 4.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "stack": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.stack(nd.array([1, 2]), nd.array([3, 4]), axis=1))
    <BLANKLINE>
    [[1. 3.]
     [2. 4.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "reshape": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(6)
    >>> print(nd.reshape(x, shape=(2, 3)))
    <BLANKLINE>
    [[0. 1. 2.]
     [3. 4. 5.]]
    <NDArray 2x3 @cpu(0)>
    >>> nd.reshape(nd.ones((2, 3, 4)), shape=(0, -1)).shape
    (2, 12)
    """,
    "transpose": """
    >>> from cellonnx.mxnet import nd
    >>> nd.transpose(nd.ones((2, 3, 4)), axes=(2, 0, 1)).shape
    (4, 2, 3)
    """,
    "expand_dims": """
    >>> from cellonnx.mxnet import nd
    >>> nd.expand_dims(nd.array([1, 2]), axis=0).shape
    (1, 2)
    """,
    "sum": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3], [4, 5, 6]])
    >>> print(nd.sum(x, axis=1))
    <BLANKLINE>
    [ 6. 15.]
    <NDArray 2 @cpu(0)>
    """,
    "mean": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3], [4, 5, 6]])
    >>> print(nd.mean(x, axis=0))
    <BLANKLINE>
    [2.5 3.5 4.5]
    <NDArray 3 @cpu(0)>
    """,
    "max": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.max(nd.array([[1, 7], [9, 5]]), axis=1))
    <BLANKLINE>
    [7. 9.]
    <NDArray 2 @cpu(0)>
    """,
    "argmax": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.argmax(nd.array([[1, 7], [9, 5]]), axis=1))
    <BLANKLINE>
    [1. 0.]
    <NDArray 2 @cpu(0)>
    """,
    "one_hot": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.one_hot(nd.array([0, 2, 1]), 3))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 0. 1.]
     [0. 1. 0.]]
    <NDArray 3x3 @cpu(0)>
    """,
    "ones": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.ones((2, 3)))
    <BLANKLINE>
    [[1. 1. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "zeros": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.zeros((2, 2)))
    <BLANKLINE>
    [[0. 0.]
     [0. 0.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "broadcast_add": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0], [2.0]])
    >>> b = nd.array([10.0, 20.0, 30.0])
    >>> print(nd.broadcast_add(a, b))
    <BLANKLINE>
    [[11. 21. 31.]
     [12. 22. 32.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "elemwise_add": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.elemwise_add(nd.array([1.0, 2.0]), nd.array([3.0, 4.0])))
    <BLANKLINE>
    [4. 6.]
    <NDArray 2 @cpu(0)>
    """,
    "clip": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.clip(nd.array([-3.0, 0.5, 7.0]), 0.0, 1.0))
    <BLANKLINE>
    [0.  0.5 1. ]
    <NDArray 3 @cpu(0)>
    """,
    "maximum": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.maximum(nd.array([1.0, 5.0]), nd.array([4.0, 2.0])))
    <BLANKLINE>
    [4. 5.]
    <NDArray 2 @cpu(0)>
    """,
    "topk": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 5.0, 3.0]])
    >>> print(nd.topk(x, k=2, ret_typ='value'))
    <BLANKLINE>
    [[5. 3.]]
    <NDArray 1x2 @cpu(0)>
    """,
    "sort": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.sort(nd.array([3.0, 1.0, 2.0])))
    <BLANKLINE>
    [1. 2. 3.]
    <NDArray 3 @cpu(0)>
    """,
    "take": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.take(nd.array([10.0, 20.0, 30.0]), nd.array([2, 0])))
    <BLANKLINE>
    [30. 10.]
    <NDArray 2 @cpu(0)>
    """,
    "pick": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0], [3.0, 4.0]])
    >>> print(nd.pick(x, nd.array([1, 0]), axis=1))
    <BLANKLINE>
    [2. 3.]
    <NDArray 2 @cpu(0)>
    """,
    "where": """
    >>> from cellonnx.mxnet import nd
    >>> cond = nd.array([1, 0, 1])
    >>> print(nd.where(cond, nd.array([1.0, 2.0, 3.0]), nd.array([-1.0, -2.0, -3.0])))
    <BLANKLINE>
    [ 1. -2.  3.]
    <NDArray 3 @cpu(0)>
    """,
    "slice_axis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(12).reshape((3, 4))
    >>> print(nd.slice_axis(x, axis=1, begin=1, end=3))
    <BLANKLINE>
    [[ 1.  2.]
     [ 5.  6.]
     [ 9. 10.]]
    <NDArray 3x2 @cpu(0)>
    """,
    "tile": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.tile(nd.array([1, 2]), reps=(2,)))
    <BLANKLINE>
    [1. 2. 1. 2.]
    <NDArray 4 @cpu(0)>
    """,
    "cast": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.cast(nd.array([1.7, -2.2]), dtype='int32')
    >>> print(x)
    <BLANKLINE>
    [ 1 -2]
    <NDArray 2 @cpu(0)>
    """,
    "LeakyReLU": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.LeakyReLU(nd.array([-2.0, 0.0, 3.0]), slope=0.1))
    <BLANKLINE>
    [-0.2  0.   3. ]
    <NDArray 3 @cpu(0)>
    """,
    "Embedding": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.arange(8).reshape((4, 2))
    >>> print(nd.Embedding(nd.array([3, 0]), weight, input_dim=4, output_dim=2))
    <BLANKLINE>
    [[6. 7.]
     [0. 1.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "norm": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.norm(nd.array([3.0, 4.0])))
    <BLANKLINE>
    [5.]
    <NDArray 1 @cpu(0)>
    """,
    "square": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.square(nd.array([-2.0, 3.0])))
    <BLANKLINE>
    [4. 9.]
    <NDArray 2 @cpu(0)>
    """,
    "exp": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.exp(nd.array([0.0, 1.0])).asnumpy().round(4))
    [1.     2.7183]
    """,
    "abs": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.abs(nd.array([-1.5, 2.0])))
    <BLANKLINE>
    [1.5 2. ]
    <NDArray 2 @cpu(0)>
    """,
    "swapaxes": """
    >>> from cellonnx.mxnet import nd
    >>> nd.swapaxes(nd.ones((2, 3, 4)), dim1=0, dim2=2).shape
    (4, 3, 2)
    """,
    "split": """
    >>> from cellonnx.mxnet import nd
    >>> parts = nd.split(nd.arange(6).reshape((2, 3)), num_outputs=3, axis=1)
    >>> print(parts[1])
    <BLANKLINE>
    [[1.]
     [4.]]
    <NDArray 2x1 @cpu(0)>
    """,
}

# the descriptions of the operators whose implementation has no docstring
SUMMARIES = {
    "softmax": "Softmax along ``axis``: ``exp(x) / sum(exp(x))``.",
    "log_softmax": "The logarithm of the softmax along ``axis``.",
    "batch_dot": "Matrix products of batches of matrices.",
    "stack": "Joins NDArrays of one shape along a new axis.",
    "transpose": "``data`` with its axes permuted (reversed when ``axes`` is empty).",
    "expand_dims": "``data`` with a new axis of size 1 at ``axis``.",
    "sum": "The sum over ``axis`` (all axes when None).",
    "mean": "The mean over ``axis`` (all axes when None).",
    "max": "The maximum over ``axis`` (all axes when None).",
    "argmax": "The indices of the largest elements along ``axis``, as floats (MXNet 1.x).",
    "ones": "An NDArray of ones of ``shape``.",
    "zeros": "An NDArray of zeros of ``shape``.",
    "broadcast_add": "``lhs + rhs`` with broadcasting.",
    "elemwise_add": "``lhs + rhs`` of two NDArrays of one shape.",
    "clip": "``data`` limited to ``[a_min, a_max]``.",
    "maximum": "The larger of two arrays, elementwise with broadcasting.",
    "sort": "``data`` sorted along ``axis``.",
    "tile": "``data`` repeated ``reps[i]`` times along each axis.",
    "cast": "``data`` converted to ``dtype``.",
    "Embedding": "The rows of ``weight`` at the integer ``data`` indices.",
    "swapaxes": "``data`` with the two given axes exchanged.",
}
