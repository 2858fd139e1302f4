"""The docstring examples of mx.npx's functions (their descriptions come from the operator table):
MXNet 2.x's calls, as an MXNet user writes them."""
from __future__ import annotations

EXAMPLES = {
    "relu": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.relu(np.array([-1.0, 0.0, 2.0])))
    [0. 0. 2.]
    """,
    "sigmoid": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(npx.sigmoid(np.array([-1.0, 0.0, 1.0])), 4))
    [0.2689 0.5    0.7311]
    """,
    "softmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
    >>> print(np.round(npx.softmax(x, axis=-1), 4))
    [[0.09   0.2447 0.6652]
     [0.3333 0.3333 0.3333]]
    """,
    "log_softmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(npx.log_softmax(np.array([1.0, 2.0, 3.0])), 4))
    [-2.4076 -1.4076 -0.4076]
    """,
    "activation": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([-1.0, 0.0, 2.0])
    >>> print(npx.activation(x, act_type='relu'))
    [0. 0. 2.]
    >>> print(np.round(npx.activation(x, act_type='tanh'), 4))
    [-0.7616  0.      0.964 ]
    """,
    "leaky_relu": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.leaky_relu(np.array([-2.0, 0.0, 3.0]), slope=0.1))
    [-0.2  0.   3. ]
    """,
    "fully_connected": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0, 3.0]])
    >>> weight = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    >>> bias = np.array([0.5, -6.0])
    >>> print(npx.fully_connected(x, weight, bias, num_hidden=2, no_bias=False))
    [[1.5 0. ]]
    """,
    "convolution": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((1, 2, 4, 4))
    >>> weight = np.ones((3, 2, 3, 3))
    >>> out = npx.convolution(x, weight, kernel=(3, 3), num_filter=3, no_bias=True)
    >>> out.shape
    (1, 3, 2, 2)
    >>> print(out[0, 0])
    [[18. 18.]
     [18. 18.]]
    """,
    "pooling": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.arange(16).reshape(1, 1, 4, 4)
    >>> print(npx.pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='max'))
    [[[[ 5.  7.]
       [13. 15.]]]]
    """,
    "dropout": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((2, 4))
    >>> print(npx.dropout(x, p=0.5))
    [[1. 1. 1. 1.]
     [1. 1. 1. 1.]]
    """,
    "embedding": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> weight = np.arange(8).reshape(4, 2)
    >>> print(npx.embedding(np.array([3, 0]), weight, input_dim=4, output_dim=2))
    [[6. 7.]
     [0. 1.]]
    """,
    "one_hot": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.one_hot(np.array([0, 2, 1]), 3))
    [[1. 0. 0.]
     [0. 0. 1.]
     [0. 1. 0.]]
    """,
    "pick": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> print(npx.pick(x, np.array([0, 1, 0]), axis=1))
    [1. 4. 5.]
    """,
    "topk": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    >>> print(npx.topk(x, k=2, ret_typ='value'))
    [[5. 3.]
     [6. 4.]]
    >>> print(npx.topk(x, k=1))
    [[1.]
     [2.]]
    """,
    "batch_dot": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> a = np.ones((2, 3, 4))
    >>> b = np.ones((2, 4, 5))
    >>> npx.batch_dot(a, b).shape
    (2, 3, 5)
    """,
    "batch_flatten": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.batch_flatten(np.ones((2, 3, 4))).shape
    (2, 12)
    """,
    "layer_norm": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0, 3.0, 4.0]])
    >>> print(np.round(npx.layer_norm(x, np.ones(4), np.zeros(4)), 4))
    [[-1.3416 -0.4472  0.4472  1.3416]]
    """,
    "sequence_mask": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((3, 2))
    >>> print(npx.sequence_mask(x, np.array([1, 3]), use_sequence_length=True, value=0.0))
    [[1. 1.]
     [0. 1.]
     [0. 1.]]
    """,
    "gather_nd": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> print(npx.gather_nd(x, np.array([[0, 1], [2, 0]])))
    [3. 4.]
    """,
    "smooth_l1": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.smooth_l1(np.array([-2.0, -0.5, 0.0, 0.5, 2.0]), scalar=1.0))
    [1.5   0.125 0.    0.125 1.5  ]
    """,
    "stop_gradient": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> from cellonnx.mxnet import autograd
    >>> x = np.array([3.0])
    >>> x.attach_grad()
    >>> with autograd.record():
    ...     y = x * x + npx.stop_gradient(x * x)
    >>> y.backward()
    >>> print(x.grad)
    [6.]
    """,
    "erf": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(npx.erf(np.array([-1.0, 0.0, 0.5])), 4))
    [-0.8427  0.      0.5205]
    """,
    "reshape": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((2, 3, 4))
    >>> npx.reshape(x, (-2, -1)).shape
    (2, 12)
    >>> npx.reshape(x, (6, -1)).shape
    (6, 4)
    """,
    "shape_array": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.shape_array(np.ones((2, 3))))
    [2 3]
    """,
    "slice": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.arange(12).reshape(3, 4)
    >>> print(npx.slice(x, begin=(0, 1), end=(2, 3)))
    [[1. 2.]
     [5. 6.]]
    """,
    "set_np": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.is_np_array()
    True
    """,
    "is_np_array": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.is_np_array()
    True
    """,
    "l2_normalization": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.l2_normalization(np.array([[3.0, 4.0], [0.0, 2.0]])))
    [[0.6 0.8]
     [0.  1. ]]
    """,
    "gammaln": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(npx.gammaln(np.array([1.0, 3.0, 5.0])), 4))
    [0.     0.6931 3.1781]
    """,
}
