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
    [0.26889998 0.5        0.73109996]
    """,
    "softmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
    >>> print(np.round(npx.softmax(x, axis=-1), 4))
    [[0.09       0.2447     0.66520005]
     [0.33329996 0.33329996 0.33329996]]
    """,
    "log_softmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.round(npx.log_softmax(np.array([1.0, 2.0, 3.0])), 4))
    [-2.4076     -1.4075999  -0.40760002]
    """,
    "activation": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([-1.0, 0.0, 2.0])
    >>> print(npx.activation(x, act_type='relu'))
    [0. 0. 2.]
    >>> print(np.round(npx.activation(x, act_type='tanh'), 4))
    [-0.76159996  0.          0.96400005]
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
    [[-1.3416001 -0.4472     0.4472     1.3416001]]
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
    "arange_like": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((2, 3))
    >>> print(npx.arange_like(x, start=1.0, step=0.5))
    [[1.  1.5 2. ]
     [2.5 3.  3.5]]
    >>> print(npx.arange_like(x, axis=1))
    [0. 1. 2.]
    """,
    "batch_norm": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[1.0, 2.0], [3.0, 6.0]])
    >>> gamma, beta = np.ones(2), np.zeros(2)
    >>> mean, var = np.array([2.0, 4.0]), np.array([1.0, 4.0])
    >>> print(npx.batch_norm(x, gamma, beta, mean, var, eps=0.0, use_global_stats=True))
    [[-1. -1.]
     [ 1.  1.]]
    """,
    "broadcast_like": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.broadcast_like(np.array([[1.0], [2.0]]), np.ones((2, 3))))
    [[1. 1. 1.]
     [2. 2. 2.]]
    """,
    "cpu": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.cpu()
    cpu(0)
    >>> npx.cpu(0).device_type
    'cpu'
    """,
    "current_device": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.current_device()
    cpu(0)
    """,
    "deconvolution": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.ones((1, 1, 2, 2))
    >>> w = np.ones((1, 1, 2, 2))
    >>> print(npx.deconvolution(x, w, kernel=(2, 2), num_filter=1, stride=(2, 2),
    ...                          no_bias=True))
    [[[[1. 1. 1. 1.]
       [1. 1. 1. 1.]
       [1. 1. 1. 1.]
       [1. 1. 1. 1.]]]]
    """,
    "erfinv": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.erfinv(np.array([0.0, 0.5, -0.5])))
    [ 0.          0.47693628 -0.47693628]
    """,
    "gamma": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.gamma(np.array([0.5, 1.0, 2.0])))
    [1.7724538 1.        1.       ]
    >>> print(np.round(npx.gamma(np.array([1.0, 3.0, 5.0])), 4))
    [ 1.  2. 24.]
    """,
    "gpu": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.gpu(1)
    gpu(1)
    """,
    "group_norm": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.arange(8).reshape(1, 4, 2)
    >>> print(npx.group_norm(x, np.ones(2), np.zeros(2), num_groups=2, eps=0.0))
    [[[-1.3416407 -0.4472136]
      [ 0.4472136  1.3416407]
      [-1.3416407 -0.4472136]
      [ 0.4472136  1.3416407]]]
    """,
    "instance_norm": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.arange(8).reshape(1, 4, 2)
    >>> print(npx.instance_norm(x, np.ones(4), np.zeros(4), eps=0.0))
    [[[-1.  1.]
      [-1.  1.]
      [-1.  1.]
      [-1.  1.]]]
    """,
    "is_np_default_dtype": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.is_np_default_dtype()
    False
    >>> np.array([1, 2]).dtype
    dtype('float32')
    """,
    "is_np_shape": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.is_np_shape()
    True
    """,
    "load": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'arrays.npz')
    >>> npx.save(path, {'w': np.array([1.0, 2.0])})
    >>> print(npx.load(path)['w'])
    [1. 2.]
    """,
    "masked_log_softmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([1.0, 1.0, 5.0])
    >>> print(npx.masked_log_softmax(x, np.array([1, 1, 0])))
    [-0.6931472 -0.6931472       -inf]
    """,
    "masked_softmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([1.0, 1.0, 5.0])
    >>> print(npx.masked_softmax(x, np.array([1, 1, 0])))
    [0.5 0.5 0. ]
    """,
    "num_gpus": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.num_gpus() >= 0
    True
    """,
    "reset_np": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> npx.reset_np()
    >>> npx.is_np_array()
    False
    >>> npx.set_np()
    >>> npx.is_np_array()
    True
    """,
    "reshape_like": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(npx.reshape_like(np.arange(6), np.ones((2, 3))))
    [[0. 1. 2.]
     [3. 4. 5.]]
    """,
    "save": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'x.params')
    >>> npx.save(path, [np.array([1.0, 2.0]), np.array([3.0])])
    >>> print([a.shape for a in npx.load(path)])
    [(2,), (1,)]
    """,
    "savez": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'arrays.params')
    >>> npx.savez(path, np.array([1.0]), w=np.array([2.0, 3.0]))
    >>> sorted(npx.load(path))
    ['arr_0', 'w']
    """,
    "upsampling": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    >>> print(npx.upsampling(x, scale=2, sample_type='nearest'))
    [[[[1. 1. 2. 2.]
       [1. 1. 2. 2.]
       [3. 3. 4. 4.]
       [3. 3. 4. 4.]]]]
    """,
    "use_np": """
    >>> from cellonnx.mxnet import np, npx, gluon
    >>> @npx.use_np
    ... class Double(gluon.HybridBlock):
    ...     def forward(self, x):
    ...         return x * 2
    >>> print(Double()(np.array([1.0, 2.0])))
    [2. 4.]
    """,
    "waitall": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> y = np.ones((2, 2)) * 2
    >>> npx.waitall()
    >>> print(y)
    [[2. 2.]
     [2. 2.]]
    """,
    "gpu_memory_info": """
    >>> import cellonnx.mxnet as mx
    >>> try:
    ...     mx.npx.gpu_memory_info(0)
    ... except RuntimeError as exc:
    ...     print(type(exc).__name__)
    RuntimeError
    """,
}
