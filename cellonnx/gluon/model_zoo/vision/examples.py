"""The docstring examples of the model zoo's constructors and blocks (checked against MXNet 1.9.1 by
tests/docs/mxnet_crosscheck.py): the small nets run a forward pass on a small input, the large ones
show their parameter count and output layer without initializing (a doctest run stays short)."""
from __future__ import annotations

EXAMPLES = {
    "resnet18_v1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet18_v1(classes=10)
    >>> len(net.collect_params().keys())
    102
    >>> net.output
    Dense(512 -> 10, linear)
    """,
    "resnet18_v2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet18_v2(classes=10)
    >>> len(net.collect_params().keys())
    98
    >>> net.output
    Dense(512 -> 10, linear)
    """,
    "resnet34_v1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet34_v1(classes=10)
    >>> len(net.collect_params().keys())
    182
    >>> net.output
    Dense(512 -> 10, linear)
    """,
    "resnet34_v2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet34_v2(classes=10)
    >>> len(net.collect_params().keys())
    178
    >>> net.output
    Dense(512 -> 10, linear)
    """,
    "resnet50_v1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet50_v1(classes=10)
    >>> len(net.collect_params().keys())
    299
    >>> net.output
    Dense(2048 -> 10, linear)
    """,
    "resnet50_v2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet50_v2(classes=10)
    >>> len(net.collect_params().keys())
    259
    >>> net.output
    Dense(2048 -> 10, linear)
    """,
    "resnet101_v1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet101_v1(classes=10)
    >>> len(net.collect_params().keys())
    588
    >>> net.output
    Dense(2048 -> 10, linear)
    """,
    "resnet101_v2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet101_v2(classes=10)
    >>> len(net.collect_params().keys())
    514
    >>> net.output
    Dense(2048 -> 10, linear)
    """,
    "resnet152_v1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet152_v1(classes=10)
    >>> len(net.collect_params().keys())
    877
    >>> net.output
    Dense(2048 -> 10, linear)
    """,
    "resnet152_v2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.resnet152_v2(classes=10)
    >>> len(net.collect_params().keys())
    769
    >>> net.output
    Dense(2048 -> 10, linear)
    """,
    "vgg11": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg11(classes=10)
    >>> len(net.collect_params().keys())
    22
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg11_bn": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg11_bn(classes=10)
    >>> len(net.collect_params().keys())
    54
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg13": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg13(classes=10)
    >>> len(net.collect_params().keys())
    26
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg13_bn": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg13_bn(classes=10)
    >>> len(net.collect_params().keys())
    66
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg16": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg16(classes=10)
    >>> len(net.collect_params().keys())
    32
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg16_bn": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg16_bn(classes=10)
    >>> len(net.collect_params().keys())
    84
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg19": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg19(classes=10)
    >>> len(net.collect_params().keys())
    38
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "vgg19_bn": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.vgg19_bn(classes=10)
    >>> len(net.collect_params().keys())
    102
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "densenet121": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.densenet121(classes=10)
    >>> len(net.collect_params().keys())
    606
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "densenet161": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.densenet161(classes=10)
    >>> len(net.collect_params().keys())
    806
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "densenet169": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.densenet169(classes=10)
    >>> len(net.collect_params().keys())
    846
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "densenet201": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.densenet201(classes=10)
    >>> len(net.collect_params().keys())
    1006
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "alexnet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.alexnet(classes=10)
    >>> len(net.collect_params().keys())
    16
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "inception_v3": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.inception_v3(classes=10)
    >>> len(net.collect_params().keys())
    472
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "squeezenet1_0": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.squeezenet1_0(classes=10)
    >>> len(net.collect_params().keys())
    52
    >>> net.output[0]
    Conv2D(None -> 10, kernel_size=(1, 1), stride=(1, 1))
    """,
    "squeezenet1_1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.squeezenet1_1(classes=10)
    >>> len(net.collect_params().keys())
    52
    >>> net.output[0]
    Conv2D(None -> 10, kernel_size=(1, 1), stride=(1, 1))
    """,
    "mobilenet1_0": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.mobilenet1_0(classes=10)
    >>> len(net.collect_params().keys())
    137
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "mobilenet_v2_1_0": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.mobilenet_v2_1_0(classes=10)
    >>> len(net.collect_params().keys())
    266
    >>> net.output
    HybridSequential(
      (0): Conv2D(None -> 10, kernel_size=(1, 1), stride=(1, 1), bias=False)
      (1): Flatten
    )
    """,
    "mobilenet0_75": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.mobilenet0_75(classes=10)
    >>> len(net.collect_params().keys())
    137
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "mobilenet_v2_0_75": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.mobilenet_v2_0_75(classes=10)
    >>> len(net.collect_params().keys())
    266
    >>> net.output
    HybridSequential(
      (0): Conv2D(None -> 10, kernel_size=(1, 1), stride=(1, 1), bias=False)
      (1): Flatten
    )
    """,
    "mobilenet0_5": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.mobilenet0_5(classes=10)
    >>> len(net.collect_params().keys())
    137
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "mobilenet_v2_0_5": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.mobilenet_v2_0_5(classes=10)
    >>> len(net.collect_params().keys())
    266
    >>> net.output
    HybridSequential(
      (0): Conv2D(None -> 10, kernel_size=(1, 1), stride=(1, 1), bias=False)
      (1): Flatten
    )
    """,
    "mobilenet0_25": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.mobilenet0_25(classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "mobilenet_v2_0_25": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.mobilenet_v2_0_25(classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "get_model": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.get_model('resnet50_v2', classes=10)
    >>> len(net.collect_params().keys())
    259
    >>> net.output
    Dense(2048 -> 10, linear)
    >>> vision.get_model('squeezenet1.1', classes=10).__class__.__name__
    'SqueezeNet'
    """,
    "get_resnet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.get_resnet(1, 34, classes=10)
    >>> len(net.collect_params().keys())
    182
    >>> net.output
    Dense(512 -> 10, linear)
    >>> net.__class__.__name__
    'ResNetV1'
    """,
    "get_vgg": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.get_vgg(16, batch_norm=True, classes=10)
    >>> len(net.collect_params().keys())
    84
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "get_mobilenet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.get_mobilenet(0.25, classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "get_mobilenet_v2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.get_mobilenet_v2(0.25, classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "ResNetV1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.ResNetV1(vision.BasicBlockV1, [1, 1, 1, 1], [8, 8, 16, 32, 64], classes=10,
    ...                       thumbnail=True)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "ResNetV2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.ResNetV2(vision.BottleneckV2, [1, 1, 1, 1], [8, 16, 32, 64, 128], classes=10,
    ...                       thumbnail=True)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "BasicBlockV1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> block = vision.BasicBlockV1(16, 2, downsample=True, in_channels=8)
    >>> block.initialize()
    >>> block(nd.zeros((1, 8, 6, 6))).shape
    (1, 16, 3, 3)
    """,
    "BasicBlockV2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> block = vision.BasicBlockV2(16, 2, downsample=True, in_channels=8)
    >>> block.initialize()
    >>> block(nd.zeros((1, 8, 6, 6))).shape
    (1, 16, 3, 3)
    """,
    "BottleneckV1": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> block = vision.BottleneckV1(32, 2, downsample=True, in_channels=8)
    >>> block.initialize()
    >>> block(nd.zeros((1, 8, 6, 6))).shape
    (1, 32, 3, 3)
    """,
    "BottleneckV2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> block = vision.BottleneckV2(32, 2, downsample=True, in_channels=8)
    >>> block.initialize()
    >>> block(nd.zeros((1, 8, 6, 6))).shape
    (1, 32, 3, 3)
    """,
    "VGG": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.VGG([1, 1, 2, 2, 2], [16, 32, 64, 128, 128], classes=10)
    >>> len(net.features)
    25
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "AlexNet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.AlexNet(classes=10)
    >>> len(net.features)
    13
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "DenseNet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.DenseNet(16, 8, [2, 2], classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 56, 56))).shape
    (1, 10)
    """,
    "Inception3": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.Inception3(classes=10)
    >>> len(net.features)
    20
    >>> net.output
    Dense(None -> 10, linear)
    """,
    "SqueezeNet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> net = vision.SqueezeNet('1.0', classes=10)
    >>> len(net.features)
    14
    >>> len(net.collect_params().keys())
    52
    """,
    "MobileNet": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.MobileNet(multiplier=0.25, classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "MobileNetV2": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> net = vision.MobileNetV2(multiplier=0.25, classes=10)
    >>> net.initialize()
    >>> net(nd.zeros((1, 3, 32, 32))).shape
    (1, 10)
    """,
    "LinearBottleneck": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.gluon.model_zoo.vision.mobilenet import LinearBottleneck
    >>> block = LinearBottleneck(in_channels=8, channels=8, t=6, stride=1)
    >>> block.initialize()
    >>> block(nd.zeros((1, 8, 4, 4))).shape
    (1, 8, 4, 4)
    """,
    "RELU6": """
    >>> from cellonnx.gluon.model_zoo import vision
    >>> from cellonnx.mxnet import nd
    >>> from cellonnx.gluon.model_zoo.vision.mobilenet import RELU6
    >>> print(RELU6()(nd.array([-1.0, 3.0, 8.0])))
    <BLANKLINE>
    [0. 3. 6.]
    <NDArray 3 @cpu(0)>
    """,
}
