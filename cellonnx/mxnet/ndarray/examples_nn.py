"""Docstring examples of mx.nd's neural-network layers, losses and gradient control,
and the descriptions of those whose implementation has none (checked against MXNet 1.9.1 by
tests/docs/mxnet_crosscheck.py)."""
from __future__ import annotations

EXAMPLES = {
    "AdaptiveAvgPooling2D": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(16).reshape((1, 1, 4, 4))
    >>> print(nd.AdaptiveAvgPooling2D(x, output_size=2))
    <BLANKLINE>
    [[[[ 2.5  4.5]
       [10.5 12.5]]]]
    <NDArray 1x1x2x2 @cpu(0)>
    >>> nd.AdaptiveAvgPooling2D(x, output_size=(1, 3)).shape
    (1, 1, 1, 3)
    """,
    "BilinearResize2D": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[[[1, 2], [3, 4]]]])
    >>> print(nd.BilinearResize2D(x, height=3, width=3))
    <BLANKLINE>
    [[[[1.  1.5 2. ]
       [2.  2.5 3. ]
       [3.  3.5 4. ]]]]
    <NDArray 1x1x3x3 @cpu(0)>
    """,
    "BatchNorm": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0], [3.0, 6.0]])
    >>> gamma = nd.array([1.0, 2.0])
    >>> beta = nd.array([0.0, 1.0])
    >>> mean = nd.array([2.0, 4.0])
    >>> var = nd.array([1.0, 4.0])
    >>> y = nd.BatchNorm(x, gamma, beta, mean, var, eps=1e-5, fix_gamma=False, use_global_stats=True)
    >>> print(y.asnumpy().round(4))
    [[-1. -1.]
     [ 1.  3.]]
    """,
    "GroupNorm": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(8).reshape((1, 4, 2))
    >>> gamma = nd.ones((2,))
    >>> beta = nd.zeros((2,))
    >>> print(nd.GroupNorm(x, gamma, beta, num_groups=2).asnumpy().round(4))
    [[[-1.3416 -0.4472]
      [ 0.4472  1.3416]
      [-1.3416 -0.4472]
      [ 0.4472  1.3416]]]
    """,
    "InstanceNorm": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[[1.0, 3.0], [2.0, 2.0]]])
    >>> print(nd.InstanceNorm(x, nd.ones((2,)), nd.zeros((2,))).asnumpy().round(4))
    [[[-0.9995  0.9995]
      [ 0.      0.    ]]]
    """,
    "LayerNorm": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0, 4.0]])
    >>> print(nd.LayerNorm(x, nd.ones((4,)), nd.zeros((4,))).asnumpy().round(4))
    [[-1.3416 -0.4472  0.4472  1.3416]]
    """,
    "L2Normalization": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 4.0], [1.0, 0.0]])
    >>> print(nd.L2Normalization(x, mode='instance').asnumpy().round(4))
    [[0.6 0.8]
     [1.  0. ]]
    """,
    "LRN": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((1, 3, 1, 1))
    >>> print(nd.LRN(x, nsize=3).reshape((3,)).asnumpy().round(4))
    [0.5946 0.5946 0.5946]
    """,
    "Convolution_v1": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((1, 1, 3, 3))
    >>> w = nd.ones((1, 1, 2, 2))
    >>> print(nd.Convolution_v1(x, w, kernel=(2, 2), num_filter=1, no_bias=True))
    <BLANKLINE>
    [[[[4. 4.]
       [4. 4.]]]]
    <NDArray 1x1x2x2 @cpu(0)>
    """,
    "Pooling_v1": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(16).reshape((1, 1, 4, 4))
    >>> print(nd.Pooling_v1(x, kernel=(2, 2), stride=(2, 2), pool_type='max'))
    <BLANKLINE>
    [[[[ 5.  7.]
       [13. 15.]]]]
    <NDArray 1x1x2x2 @cpu(0)>
    """,
    "Deconvolution": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((1, 1, 2, 2))
    >>> w = nd.ones((1, 1, 2, 2))
    >>> print(nd.Deconvolution(x, w, kernel=(2, 2), num_filter=1, no_bias=True))
    <BLANKLINE>
    [[[[1. 2. 1.]
       [2. 4. 2.]
       [1. 2. 1.]]]]
    <NDArray 1x1x3x3 @cpu(0)>
    """,
    "Dropout": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.ones((2, 3))
    >>> print(nd.Dropout(x, p=0.5))
    <BLANKLINE>
    [[1. 1. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "SoftmaxActivation": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0]])
    >>> print(nd.SoftmaxActivation(x).asnumpy().round(4))
    [[0.09   0.2447 0.6652]]
    """,
    "softmax_cross_entropy": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    >>> print(nd.softmax_cross_entropy(x, nd.array([2, 0])).asnumpy().round(4))
    [1.5062]
    """,
    "SoftmaxOutput": """
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.mxnet import autograd
    >>> x = nd.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    >>> label = nd.array([2, 0])
    >>> x.attach_grad()
    >>> with autograd.record():
    ...     y = nd.SoftmaxOutput(x, label)
    >>> y.backward()
    >>> print(y.asnumpy().round(4))
    [[0.09   0.2447 0.6652]
     [0.3333 0.3333 0.3333]]
    >>> print(x.grad.asnumpy().round(4))
    [[ 0.09    0.2447 -0.3348]
     [-0.6667  0.3333  0.3333]]
    """,
    "Softmax": """
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.mxnet import autograd
    >>> x = nd.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    >>> label = nd.array([2, 0])
    >>> x.attach_grad()
    >>> with autograd.record():
    ...     y = nd.Softmax(x, label)
    >>> y.backward()
    >>> print(y.asnumpy().round(4))
    [[0.09   0.2447 0.6652]
     [0.3333 0.3333 0.3333]]
    >>> print(x.grad.asnumpy().round(4))
    [[ 0.09    0.2447 -0.3348]
     [-0.6667  0.3333  0.3333]]
    """,
    "ctc_loss": """
    >>> from cellonnx.mxnet import nd
    >>> data = nd.zeros((4, 1, 3))
    >>> label = nd.array([[1, 2]])
    >>> print(nd.ctc_loss(data, label).asnumpy().round(4))
    [1.6864]
    """,
    "CTCLoss": """
    >>> from cellonnx.mxnet import nd
    >>> data = nd.zeros((4, 1, 3))
    >>> label = nd.array([[1, 1]])
    >>> print(nd.CTCLoss(data, label).asnumpy().round(4))
    [2.785]
    """,
    "GridGenerator": """
    >>> from cellonnx.mxnet import nd
    >>> affine = nd.array([[1, 0, 0, 0, 1, 0]])
    >>> print(nd.GridGenerator(affine, transform_type='affine', target_shape=(2, 2)))
    <BLANKLINE>
    [[[[-1.  1.]
       [-1.  1.]]
    <BLANKLINE>
      [[-1. -1.]
       [ 1.  1.]]]]
    <NDArray 1x2x2x2 @cpu(0)>
    """,
    "BilinearSampler": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(4).reshape((1, 1, 2, 2))
    >>> grid = nd.GridGenerator(nd.array([[-1, 0, 0, 0, 1, 0]]), transform_type='affine', target_shape=(2, 2))
    >>> print(nd.BilinearSampler(x, grid))
    <BLANKLINE>
    [[[[1. 0.]
       [3. 2.]]]]
    <NDArray 1x1x2x2 @cpu(0)>
    """,
    "SpatialTransformer": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(4).reshape((1, 1, 2, 2))
    >>> loc = nd.array([[1, 0, 0, 0, -1, 0]])
    >>> y = nd.SpatialTransformer(x, loc, target_shape=(2, 2), transform_type='affine',
    ...                           sampler_type='bilinear')
    >>> print(y)
    <BLANKLINE>
    [[[[2. 3.]
       [0. 1.]]]]
    <NDArray 1x1x2x2 @cpu(0)>
    """,
    "im2col": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.arange(9).reshape((1, 1, 3, 3))
    >>> print(nd.im2col(x, kernel=(2, 2)))
    <BLANKLINE>
    [[[0. 1. 3. 4.]
      [1. 2. 4. 5.]
      [3. 4. 6. 7.]
      [4. 5. 7. 8.]]]
    <NDArray 1x4x4 @cpu(0)>
    """,
    "col2im": """
    >>> from cellonnx.mxnet import nd
    >>> cols = nd.ones((1, 4, 4))
    >>> print(nd.col2im(cols, output_size=(3, 3), kernel=(2, 2)))
    <BLANKLINE>
    [[[[1. 2. 1.]
       [2. 4. 2.]
       [1. 2. 1.]]]]
    <NDArray 1x1x3x3 @cpu(0)>
    """,
    "UpSampling": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[[[1, 2], [3, 4]]]])
    >>> print(nd.UpSampling(x, scale=2, sample_type='nearest'))
    <BLANKLINE>
    [[[[1. 1. 2. 2.]
       [1. 1. 2. 2.]
       [3. 3. 4. 4.]
       [3. 3. 4. 4.]]]]
    <NDArray 1x1x4x4 @cpu(0)>
    """,
    "softmin": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0]])
    >>> print(nd.softmin(x, axis=-1).asnumpy().round(4))
    [[0.6652 0.2447 0.09  ]]
    """,
    "smooth_l1": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> print(nd.smooth_l1(x))
    <BLANKLINE>
    [1.5   0.125 0.    0.125 1.5  ]
    <NDArray 5 @cpu(0)>
    """,
    "hard_sigmoid": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-3.0, 0.0, 1.0])
    >>> print(nd.hard_sigmoid(x).asnumpy().round(4))
    [0.  0.5 0.7]
    """,
    "log_sigmoid": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.log_sigmoid(x).asnumpy().round(4))
    [-1.3133 -0.6931 -0.3133]
    """,
    "mish": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.mish(x).asnumpy().round(4))
    [-0.3034  0.      0.8651]
    """,
    "softsign": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-3.0, 0.0, 1.0])
    >>> print(nd.softsign(x).asnumpy().round(4))
    [-0.75  0.    0.5 ]
    """,
    "make_loss": """
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.mxnet import autograd
    >>> x = nd.array([1.0, 2.0])
    >>> x.attach_grad()
    >>> with autograd.record():
    ...     loss = nd.make_loss(nd.square(x))
    >>> loss.backward()
    >>> print(loss)
    <BLANKLINE>
    [1. 4.]
    <NDArray 2 @cpu(0)>
    >>> print(x.grad)
    <BLANKLINE>
    [2. 4.]
    <NDArray 2 @cpu(0)>
    """,
    "MakeLoss": """
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.mxnet import autograd
    >>> x = nd.array([1.0, 2.0])
    >>> x.attach_grad()
    >>> with autograd.record():
    ...     loss = nd.MakeLoss(nd.square(x))
    >>> loss.backward()
    >>> print(loss)
    <BLANKLINE>
    [1. 4.]
    <NDArray 2 @cpu(0)>
    >>> print(x.grad)
    <BLANKLINE>
    [2. 4.]
    <NDArray 2 @cpu(0)>
    """,
    "BlockGrad": """
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.mxnet import autograd
    >>> v1 = nd.array([1.0, 2.0])
    >>> v2 = nd.array([3.0, 4.0])
    >>> v1.attach_grad()
    >>> v2.attach_grad()
    >>> with autograd.record():
    ...     y = 3 * v1 + nd.BlockGrad(v2 * 2)
    >>> y.backward()
    >>> print(v1.grad)
    <BLANKLINE>
    [3. 3.]
    <NDArray 2 @cpu(0)>
    >>> print(v2.grad)
    <BLANKLINE>
    [0. 0.]
    <NDArray 2 @cpu(0)>
    """,
    "stop_gradient": """
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.mxnet import autograd
    >>> v1 = nd.array([1.0, 2.0])
    >>> v2 = nd.array([3.0, 4.0])
    >>> v1.attach_grad()
    >>> v2.attach_grad()
    >>> with autograd.record():
    ...     y = 3 * v1 + nd.stop_gradient(v2 * 2)
    >>> y.backward()
    >>> print(v1.grad)
    <BLANKLINE>
    [3. 3.]
    <NDArray 2 @cpu(0)>
    >>> print(v2.grad)
    <BLANKLINE>
    [0. 0.]
    <NDArray 2 @cpu(0)>
    """,
}

# the descriptions of the operators whose implementation has none
SUMMARIES = {
    "AdaptiveAvgPooling2D": ("Average pooling of (N, C, H, W) to ``output_size`` (an int or (height, width)),"
                             " each output cell the mean of its window."),
    "InstanceNorm": ("Instance normalization: each sample's channel normalized over its spatial axes, then "
                     "scaled by ``gamma`` and shifted by ``beta`` (per channel)."),
    "LayerNorm": ("Layer normalization over ``axis`` (Default: -1), then ``gamma`` and ``beta`` along that "
                  "axis."),
    "L2Normalization": ("``data`` divided by its L2 norm: per sample ('instance'), per channel ('channel') or"
                        " per position ('spatial')."),
    "SoftmaxActivation": ("Softmax over the last axis (mode 'instance') or over the channel axis 1 (mode "
                          "'channel')."),
    "softmax_cross_entropy": ("The summed cross entropy of ``softmax(data)`` against the integer ``label`` of"
                              " each row."),
    "UpSampling": ("Upsampling of (N, C, H, W) by ``scale``: nearest-neighbour (sample_type 'nearest') or "
                   "bilinear."),
    "softmin": "Softmin along ``axis``: ``softmax(-x)``.",
    "hard_sigmoid": "``max(0, min(1, alpha * x + beta))`` (Default alpha 0.2, beta 0.5).",
    "make_loss": "``data`` as a loss: the forward returns it unchanged, the backward starts from ones.",
    "MakeLoss": ("``data`` as a loss: the forward returns it unchanged, the backward starts from ones (scaled"
                 " by ``grad_scale``)."),
}
