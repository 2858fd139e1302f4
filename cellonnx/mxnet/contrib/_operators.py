"""The operator names MXNet 1.9.1 registers in ``mx.contrib.ndarray`` / ``mx.contrib.symbol``: its
``_contrib_*`` operators under their short names (``mx.contrib.nd.ROIAlign`` is ``mx.nd.contrib.ROIAlign``'s
operator). The control-flow functions (foreach, while_loop, cond) live in mx.nd.contrib / mx.sym.contrib
only, as in MXNet."""
from __future__ import annotations

import importlib
from typing import Any

NAMES = (
    "AdaptiveAvgPooling2D BatchNormWithReLU BilinearResize2D CTCLoss DeformableConvolution "
    "DeformablePSROIPooling ModulatedDeformableConvolution MultiBoxDetection MultiBoxPrior MultiBoxTarget "
    "MultiProposal PSROIPooling Proposal ROIAlign RROIAlign SparseEmbedding SyncBatchNorm allclose "
    "arange_like backward_gradientmultiplier backward_hawkesll backward_index_copy backward_quadratic "
    "bipartite_matching boolean_mask box_decode box_encode box_iou box_nms box_non_maximum_suppression "
    "calibrate_entropy count_sketch ctc_loss dequantize dgl_adjacency dgl_csr_neighbor_non_uniform_sample "
    "dgl_csr_neighbor_uniform_sample dgl_graph_compact dgl_subgraph div_sqrt_dim edge_id fft getnnz "
    "gradientmultiplier group_adagrad_update hawkesll ifft index_array index_copy "
    "interleaved_matmul_encdec_qk interleaved_matmul_encdec_valatt interleaved_matmul_selfatt_qk "
    "interleaved_matmul_selfatt_valatt quadratic quantize quantize_asym quantize_v2 quantized_act "
    "quantized_batch_norm quantized_concat quantized_conv quantized_elemwise_add quantized_elemwise_mul "
    "quantized_embedding quantized_flatten quantized_fully_connected quantized_pooling quantized_rnn "
    "requantize round_ste sign_ste"
).split()


def lookup(source: str, module: str, name: str) -> Any:
    """``name`` of the operator namespace ``source`` (mx.nd.contrib or mx.sym.contrib) for the module
    ``module``; AttributeError for a name MXNet's module does not hold or cellonnx does not have yet."""
    if name in NAMES:
        namespace = importlib.import_module(source)
        try:
            return getattr(namespace, name)
        except AttributeError:
            pass
    raise AttributeError(f"module {module!r} has no attribute {name!r}")


def namespace(source: str, module: str) -> tuple[Any, Any]:
    """A module's ``__getattr__`` and ``__dir__`` handing on ``source``'s operators of NAMES."""

    def getattr_(name: str) -> Any:
        return lookup(source, module, name)

    def dir_() -> list[str]:
        held = importlib.import_module(source)
        return sorted(n for n in NAMES if hasattr(held, n))

    return getattr_, dir_
