"""cellonnx.nn: Cell, containers, layers, losses, optimizers, metrics, training wrappers and learning-rate helpers
with MindSpore's names. Each name is imported by name (what editors and type checkers follow); tests/nn/
test_namespace.py keeps this list complete."""

from __future__ import annotations

from cellonnx.nn import (
    dynamic_lr,
    grad_cells,
    graph_cell,
    layer,
    learning_rate_schedule,
    loss,
    metrics,
    optim,
    sparse,
    utils,
    wrap,
)
from cellonnx.nn.cell import Cell
from cellonnx.nn.container import CellDict, CellList, SequentialCell
from cellonnx.nn.dynamic_lr import (
    cosine_decay_lr,
    exponential_decay_lr,
    inverse_decay_lr,
    natural_exp_decay_lr,
    piecewise_constant_lr,
    polynomial_decay_lr,
    warmup_lr,
)
from cellonnx.nn.grad_cells import Jvp, Vjp
from cellonnx.nn.graph_cell import GraphCell
from cellonnx.nn.layer import (
    GELU,
    LSTM,
    AdaptiveAvgPool2d,
    AvgPool2d,
    BatchNorm1d,
    BatchNorm2d,
    ClipByNorm,
    Conv1d,
    Conv2d,
    Conv2dTranspose,
    Dense,
    Dropout,
    Embedding,
    Flatten,
    GroupNorm,
    HSwish,
    Identity,
    InstanceNorm2d,
    LayerNorm,
    LeakyReLU,
    LogSoftmax,
    MaxPool2d,
    Norm,
    OneHot,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Tanh,
    get_activation,
)
from cellonnx.nn.learning_rate_schedule import (
    CosineDecayLR,
    ExponentialDecayLR,
    InverseDecayLR,
    LearningRateSchedule,
    NaturalExpDecayLR,
    PolynomialDecayLR,
    WarmUpLR,
)
from cellonnx.nn.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    CTCLoss,
    DiceLoss,
    FocalLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    L1LossExt,
    LossBase,
    MAELoss,
    MarginRankingLoss,
    MSELoss,
    MultiClassDiceLoss,
    MultilabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    RMSELoss,
    SampledSoftmaxLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    SoftmaxCrossEntropyExpand,
    SoftmaxCrossEntropyWithLogits,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from cellonnx.nn.metrics import (
    F1,
    MAE,
    MSE,
    ROC,
    Accuracy,
    BleuScore,
    ConfusionMatrix,
    ConfusionMatrixMetric,
    CosineSimilarity,
    Dice,
    EvaluationBase,
    Fbeta,
    HausdorffDistance,
    Loss,
    MeanSurfaceDistance,
    Metric,
    OcclusionSensitivity,
    Perplexity,
    Precision,
    Recall,
    RootMeanSquareDistance,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    auc,
    get_metric_fn,
    get_metrics,
    names,
    rearrange_inputs,
)
from cellonnx.nn.optim import (
    ASGD,
    FTRL,
    LARS,
    SGD,
    Adadelta,
    AdaFactor,
    Adagrad,
    Adam,
    AdaMax,
    AdamOffload,
    AdamWeightDecay,
    Lamb,
    LazyAdam,
    Momentum,
    Optimizer,
    ProximalAdagrad,
    RMSProp,
    Rprop,
    opt_init_args_register,
)
from cellonnx.nn.sparse import SparseTensorDenseMatmul, SparseToDense
from cellonnx.nn.utils import no_init_parameters
from cellonnx.nn.wrap import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    ForwardValueAndGrad,
    GradAccumulationCell,
    MicroBatchInterleaved,
    ParameterUpdate,
    TrainOneStepCell,
    TrainOneStepWithLossScaleCell,
    WithEvalCell,
    WithGradCell,
    WithLossCell,
)

_modules = (layer, loss, optim, metrics, wrap, dynamic_lr, learning_rate_schedule)
_modules += (grad_cells, graph_cell, sparse, utils)
__all__ = ["Cell", "CellDict", "CellList", "SequentialCell"]
__all__ += layer.__all__
__all__ += loss.__all__
__all__ += optim.__all__
__all__ += metrics.__all__
__all__ += wrap.__all__
__all__ += dynamic_lr.__all__
__all__ += learning_rate_schedule.__all__
__all__ += grad_cells.__all__ + graph_cell.__all__ + sparse.__all__ + utils.__all__

from cellonnx.unsupported import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr(__name__, "mindspore.nn")
