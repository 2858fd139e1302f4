"""Docstring examples of mx.nd's array creation, shapes, indexing, sequences, storage and files,
and the descriptions of those whose implementation has none (checked against MXNet 1.9.1 by
tests/docs/mxnet_crosscheck.py)."""
from __future__ import annotations

EXAMPLES = {
    "Cast": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.7, -2.3])
    >>> y = nd.Cast(x, dtype='int32')
    >>> print(y)
    <BLANKLINE>
    [ 1 -2]
    <NDArray 2 @cpu(0)>
    >>> y.dtype
    <class 'numpy.int32'>
    """,
    "concatenate": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1, 2]])
    >>> b = nd.array([[3, 4]])
    >>> print(nd.concatenate([a, b]))
    <BLANKLINE>
    [[1. 2.]
     [3. 4.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.concatenate([a, b], axis=1))
    <BLANKLINE>
    [[1. 2. 3. 4.]]
    <NDArray 1x4 @cpu(0)>
    """,
    "Concat": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1, 2]])
    >>> b = nd.array([[3, 4]])
    >>> print(nd.Concat(a, b, dim=0))
    <BLANKLINE>
    [[1. 2.]
     [3. 4.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(nd.Concat(a, b, dim=1))
    <BLANKLINE>
    [[1. 2. 3. 4.]]
    <NDArray 1x4 @cpu(0)>
    """,
    "depth_to_space": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(8).reshape((1, 8, 1, 1))
    >>> print(nd.depth_to_space(x, block_size=2))
    <BLANKLINE>
    [[[[0. 2.]
       [4. 6.]]
    <BLANKLINE>
      [[1. 3.]
       [5. 7.]]]]
    <NDArray 1x2x2x2 @cpu(0)>
    """,
    "space_to_depth": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(8).reshape((1, 2, 2, 2))
    >>> print(nd.space_to_depth(x, block_size=2).reshape((1, 8)))
    <BLANKLINE>
    [[0. 4. 1. 5. 2. 6. 3. 7.]]
    <NDArray 1x8 @cpu(0)>
    """,
    "diag": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.diag(nd.array([1, 2, 3])))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 2. 0.]
     [0. 0. 3.]]
    <NDArray 3x3 @cpu(0)>
    >>> print(nd.diag(nd.array([[1, 2], [3, 4]])))
    <BLANKLINE>
    [1. 4.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.diag(nd.array([[1, 2], [3, 4]]), k=1))
    <BLANKLINE>
    [2.]
    <NDArray 1 @cpu(0)>
    """,
    "eye": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.eye(2, 3))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 1. 0.]]
    <NDArray 2x3 @cpu(0)>
    >>> print(nd.eye(3, k=-1))
    <BLANKLINE>
    [[0. 0. 0.]
     [1. 0. 0.]
     [0. 1. 0.]]
    <NDArray 3x3 @cpu(0)>
    """,
    "empty": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.empty((2, 3))
    >>> x.shape
    (2, 3)
    >>> x.dtype
    <class 'numpy.float32'>
    """,
    "full": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.full((2, 2), 7))
    <BLANKLINE>
    [[7. 7.]
     [7. 7.]]
    <NDArray 2x2 @cpu(0)>
    >>> nd.full((1,), 2, dtype='int32').dtype
    <class 'numpy.int32'>
    """,
    "flip": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3], [4, 5, 6]])
    >>> print(nd.flip(x, axis=1))
    <BLANKLINE>
    [[3. 2. 1.]
     [6. 5. 4.]]
    <NDArray 2x3 @cpu(0)>
    >>> print(nd.flip(x, axis=0))
    <BLANKLINE>
    [[4. 5. 6.]
     [1. 2. 3.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "reverse": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3], [4, 5, 6]])
    >>> print(nd.reverse(x, axis=1))
    <BLANKLINE>
    [[3. 2. 1.]
     [6. 5. 4.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "flatten": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(12).reshape((2, 3, 2))
    >>> print(nd.flatten(x))
    <BLANKLINE>
    [[ 0.  1.  2.  3.  4.  5.]
     [ 6.  7.  8.  9. 10. 11.]]
    <NDArray 2x6 @cpu(0)>
    """,
    "linspace": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.linspace(0, 1, 5))
    <BLANKLINE>
    [0.   0.25 0.5  0.75 1.  ]
    <NDArray 5 @cpu(0)>
    """,
    "arange": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.arange(3))
    <BLANKLINE>
    [0. 1. 2.]
    <NDArray 3 @cpu(0)>
    >>> print(nd.arange(2, 6, step=2))
    <BLANKLINE>
    [2. 4.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.arange(2, repeat=2))
    <BLANKLINE>
    [0. 0. 1. 1.]
    <NDArray 4 @cpu(0)>
    """,
    "moveaxis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.zeros((2, 3, 4))
    >>> nd.moveaxis(x, 0, -1).shape
    (3, 4, 2)
    >>> nd.moveaxis(x, 2, 0).shape
    (4, 2, 3)
    """,
    "repeat": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2], [3, 4]])
    >>> print(nd.repeat(x, repeats=2, axis=1))
    <BLANKLINE>
    [[1. 1. 2. 2.]
     [3. 3. 4. 4.]]
    <NDArray 2x4 @cpu(0)>
    >>> print(nd.repeat(x, repeats=2))
    <BLANKLINE>
    [1. 1. 2. 2. 3. 3. 4. 4.]
    <NDArray 8 @cpu(0)>
    """,
    "Reshape": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.zeros((2, 3, 4))
    >>> nd.Reshape(x, shape=(-1, 0)).shape
    (8, 3)
    >>> nd.Reshape(x, shape=(0, -3)).shape
    (2, 12)
    >>> nd.Reshape(x, shape=(-4, 1, 2, -2)).shape
    (1, 2, 3, 4)
    >>> nd.Reshape(x, shape=(-2, 1)).shape
    (2, 3, 4, 1)
    """,
    "reshape_like": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(6)
    >>> y = nd.zeros((2, 3))
    >>> print(nd.reshape_like(x, y))
    <BLANKLINE>
    [[0. 1. 2.]
     [3. 4. 5.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "slice": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    >>> print(nd.slice(x, begin=(0, 1), end=(2, 4)))
    <BLANKLINE>
    [[2. 3. 4.]
     [6. 7. 8.]]
    <NDArray 2x3 @cpu(0)>
    >>> print(nd.slice(x, begin=(None, 0), end=(None, 3), step=(-1, 2)))
    <BLANKLINE>
    [[ 9. 11.]
     [ 5.  7.]
     [ 1.  3.]]
    <NDArray 3x2 @cpu(0)>
    """,
    "crop": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    >>> print(nd.crop(x, begin=(0, 1), end=(2, 4)))
    <BLANKLINE>
    [[2. 3. 4.]
     [6. 7. 8.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "slice_like": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    >>> y = nd.zeros((2, 3))
    >>> print(nd.slice_like(x, y))
    <BLANKLINE>
    [[1. 2. 3.]
     [5. 6. 7.]]
    <NDArray 2x3 @cpu(0)>
    >>> print(nd.slice_like(x, y, axes=(1,)))
    <BLANKLINE>
    [[ 1.  2.  3.]
     [ 5.  6.  7.]
     [ 9. 10. 11.]]
    <NDArray 3x3 @cpu(0)>
    """,
    "SliceChannel": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    >>> a, b = nd.SliceChannel(x, num_outputs=2, axis=1)
    >>> print(a)
    <BLANKLINE>
    [[1. 2.]
     [5. 6.]]
    <NDArray 2x2 @cpu(0)>
    >>> print(b)
    <BLANKLINE>
    [[3. 4.]
     [7. 8.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "split_v2": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(6).reshape((2, 3))
    >>> parts = nd.split_v2(x, (1,), axis=1)
    >>> print(parts[0])
    <BLANKLINE>
    [[0.]
     [3.]]
    <NDArray 2x1 @cpu(0)>
    >>> print(parts[1])
    <BLANKLINE>
    [[1. 2.]
     [4. 5.]]
    <NDArray 2x2 @cpu(0)>
    >>> [p.shape for p in nd.split_v2(x, 3, axis=1, squeeze_axis=True)]
    [(2,), (2,), (2,)]
    """,
    "squeeze": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.zeros((1, 3, 1, 2))
    >>> nd.squeeze(x).shape
    (3, 2)
    >>> nd.squeeze(x, axis=2).shape
    (1, 3, 2)
    """,
    "SwapAxis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2, 3]])
    >>> print(nd.SwapAxis(x, dim1=0, dim2=1))
    <BLANKLINE>
    [[1.]
     [2.]
     [3.]]
    <NDArray 3x1 @cpu(0)>
    """,
    "pad": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(4).reshape((1, 1, 2, 2))
    >>> print(nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=9))
    <BLANKLINE>
    [[[[9. 9. 9. 9.]
       [9. 0. 1. 9.]
       [9. 2. 3. 9.]
       [9. 9. 9. 9.]]]]
    <NDArray 1x1x4x4 @cpu(0)>
    """,
    "Pad": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(4).reshape((1, 1, 2, 2))
    >>> print(nd.Pad(x, mode='edge', pad_width=(0, 0, 0, 0, 0, 1, 1, 0)))
    <BLANKLINE>
    [[[[0. 0. 1.]
       [2. 2. 3.]
       [2. 2. 3.]]]]
    <NDArray 1x1x3x3 @cpu(0)>
    """,
    "shape_array": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.shape_array(nd.zeros((2, 3))))
    <BLANKLINE>
    [2 3]
    <NDArray 2 @cpu(0)>
    """,
    "size_array": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.size_array(nd.zeros((2, 3))))
    <BLANKLINE>
    [6]
    <NDArray 1 @cpu(0)>
    """,
    "batch_take": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1, 2], [3, 4], [5, 6]])
    >>> print(nd.batch_take(a, nd.array([0, 1, 0], dtype='int32')))
    <BLANKLINE>
    [1. 4. 5.]
    <NDArray 3 @cpu(0)>
    """,
    "gather_nd": """
    >>> from cellonnx.mxnet import nd
    >>> data = nd.array([[1, 2], [3, 4]])
    >>> indices = nd.array([[1, 1, 0], [0, 1, 0]])
    >>> print(nd.gather_nd(data, indices))
    <BLANKLINE>
    [3. 4. 1.]
    <NDArray 3 @cpu(0)>
    """,
    "scatter_nd": """
    >>> from cellonnx.mxnet import nd
    >>> data = nd.array([2, 3, 0])
    >>> indices = nd.array([[1, 1, 0], [0, 1, 0]])
    >>> print(nd.scatter_nd(data, indices, shape=(2, 2)))
    <BLANKLINE>
    [[0. 0.]
     [2. 3.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "fill_element_0index": """
    >>> from cellonnx.mxnet import nd
    >>> lhs = nd.zeros((2, 3))
    >>> mhs = nd.array([7, 8])
    >>> rhs = nd.array([2, 0])
    >>> print(nd.fill_element_0index(lhs, mhs, rhs))
    <BLANKLINE>
    [[0. 0. 7.]
     [8. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "ravel_multi_index": """
    >>> from cellonnx.mxnet import nd
    >>> data = nd.array([[3, 6, 6], [4, 5, 1]])
    >>> print(nd.ravel_multi_index(data, shape=(7, 6)))
    <BLANKLINE>
    [22. 41. 37.]
    <NDArray 3 @cpu(0)>
    """,
    "unravel_index": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.unravel_index(nd.array([22, 41, 37]), shape=(7, 6)))
    <BLANKLINE>
    [[3. 6. 6.]
     [4. 5. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "khatri_rao": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1, -1], [2, -3]])
    >>> b = nd.array([[1, 4], [2, 5], [3, 6]])
    >>> print(nd.khatri_rao(a, b))
    <BLANKLINE>
    [[  1.  -4.]
     [  2.  -5.]
     [  3.  -6.]
     [  2. -12.]
     [  4. -15.]
     [  6. -18.]]
    <NDArray 6x2 @cpu(0)>
    """,
    "SequenceMask": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((3, 2, 1))
    >>> y = nd.SequenceMask(x, sequence_length=nd.array([1, 3]), use_sequence_length=True, value=-1)
    >>> print(y.reshape((3, 2)))
    <BLANKLINE>
    [[ 1.  1.]
     [-1.  1.]
     [-1.  1.]]
    <NDArray 3x2 @cpu(0)>
    """,
    "sequence_mask": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((3, 2, 1))
    >>> y = nd.sequence_mask(x, sequence_length=nd.array([1, 3]), use_sequence_length=True, value=-1)
    >>> print(y.reshape((3, 2)))
    <BLANKLINE>
    [[ 1.  1.]
     [-1.  1.]
     [-1.  1.]]
    <NDArray 3x2 @cpu(0)>
    """,
    "SequenceLast": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(6).reshape((3, 2))
    >>> print(nd.SequenceLast(x))
    <BLANKLINE>
    [4. 5.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.SequenceLast(x, sequence_length=nd.array([1, 3]), use_sequence_length=True))
    <BLANKLINE>
    [0. 5.]
    <NDArray 2 @cpu(0)>
    """,
    "SequenceReverse": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(6).reshape((3, 2))
    >>> print(nd.SequenceReverse(x))
    <BLANKLINE>
    [[4. 5.]
     [2. 3.]
     [0. 1.]]
    <NDArray 3x2 @cpu(0)>
    >>> print(nd.SequenceReverse(x, sequence_length=nd.array([2, 3]), use_sequence_length=True))
    <BLANKLINE>
    [[2. 5.]
     [0. 3.]
     [4. 1.]]
    <NDArray 3x2 @cpu(0)>
    """,
    "save": """
    >>> from cellonnx.mxnet import nd
    >>> nd.save('weights.nd', {'w': nd.array([1, 2]), 'b': nd.zeros((1,))})
    >>> loaded = nd.load('weights.nd')
    >>> sorted(loaded)
    ['b', 'w']
    >>> print(loaded['w'])
    <BLANKLINE>
    [1. 2.]
    <NDArray 2 @cpu(0)>
    """,
    "load": """
    >>> from cellonnx.mxnet import nd
    >>> nd.save('arrays.nd', [nd.array([1, 2]), nd.ones((2, 2))])
    >>> arrays = nd.load('arrays.nd')
    >>> len(arrays)
    2
    >>> print(arrays[1])
    <BLANKLINE>
    [[1. 1.]
     [1. 1.]]
    <NDArray 2x2 @cpu(0)>
    """,
    "load_frombuffer": """
    >>> from cellonnx.mxnet import nd
    >>> nd.save('w.params', {'w': nd.array([3, 4])})
    >>> with open('w.params', 'rb') as f:
    ...     buf = f.read()
    >>> print(nd.load_frombuffer(buf)['w'])
    <BLANKLINE>
    [3. 4.]
    <NDArray 2 @cpu(0)>
    """,
    "from_numpy": """
    >>> from cellonnx.mxnet import nd
    >>> import numpy as np
    >>> a = np.array([[1, 2], [3, 4]], dtype=np.float32)
    >>> x = nd.from_numpy(a)
    >>> print(x)
    <BLANKLINE>
    [[1. 2.]
     [3. 4.]]
    <NDArray 2x2 @cpu(0)>
    >>> x.dtype
    <class 'numpy.float32'>
    """,
    "histogram": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 1.0, 1.5, 2.0, 4.0])
    >>> counts, edges = nd.histogram(x, bins=4, range=(0, 4))
    >>> print(counts)
    <BLANKLINE>
    [1 2 1 1]
    <NDArray 4 @cpu(0)>
    >>> print(edges)
    <BLANKLINE>
    [0. 1. 2. 3. 4.]
    <NDArray 5 @cpu(0)>
    """,
    "onehot_encode": """
    >>> from cellonnx.mxnet import nd
    >>> out = nd.zeros((3, 4))
    >>> print(nd.onehot_encode(nd.array([0, 2, 3]), out))
    <BLANKLINE>
    [[1. 0. 0. 0.]
     [0. 0. 1. 0.]
     [0. 0. 0. 1.]]
    <NDArray 3x4 @cpu(0)>
    """,
    "NDArray": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1, 2], [3, 4]])
    >>> isinstance(x, nd.NDArray)
    True
    >>> x.shape, x.size, x.ndim
    ((2, 2), 4, 2)
    >>> print(x.T)
    <BLANKLINE>
    [[1. 3.]
     [2. 4.]]
    <NDArray 2x2 @cpu(0)>
    >>> print((x * 2 + 1).asnumpy())
    [[3. 5.]
     [7. 9.]]
    >>> x.context
    cpu(0)
    """,
    "cast_storage": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[0, 1, 0], [2, 0, 0]])
    >>> y = nd.cast_storage(x, 'csr')
    >>> y.stype
    'csr'
    >>> print(y.data)
    <BLANKLINE>
    [1. 2.]
    <NDArray 2 @cpu(0)>
    >>> print(y.indices)
    <BLANKLINE>
    [1 0]
    <NDArray 2 @cpu(0)>
    >>> print(nd.cast_storage(y, 'default'))
    <BLANKLINE>
    [[0. 1. 0.]
     [2. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
}

# the descriptions of the operators whose implementation has none
SUMMARIES = {
    "Cast": "``data`` converted to ``dtype``.",
    "concatenate": "Joins a list of NDArrays along an existing ``axis`` (Default: 0).",
    "depth_to_space": "(N, C * b * b, H, W) -> (N, C, H * b, W * b): blocks of channels moved into space.",
    "space_to_depth": "(N, C, H * b, W * b) -> (N, C * b * b, H, W): blocks of space moved into channels.",
    "diag": "The diagonal ``k`` of a matrix, or a square matrix with a vector on diagonal ``k``.",
    "eye": "An N x M array with ones on diagonal ``k`` and zeros elsewhere.",
    "empty": "An uninitialized NDArray of ``shape`` (float32 by default).",
    "full": "An NDArray of ``shape`` filled with ``val``.",
    "flip": "``data`` with the order of its elements along ``axis`` reversed.",
    "reverse": "``data`` with the order of its elements along ``axis`` reversed.",
    "linspace": ("``num`` evenly spaced values from ``start`` to ``stop`` (included unless "
                 "``endpoint=False``)."),
    "moveaxis": "``tensor`` with axis ``source`` moved to position ``destination``.",
    "repeat": "Each element repeated ``repeats`` times along ``axis`` (the flattened array when None).",
    "slice_like": ("``data`` sliced to the shape of ``shape_like`` (on ``axes`` only when given), from the "
                   "start of each axis."),
    "SwapAxis": "``data`` with axes ``dim1`` and ``dim2`` exchanged.",
}
