"""Rows of tests/graph/test_dynamic_axes.py that still fail, each with its reason (strict xfails: a fix
makes the row XPASS, and it must leave this list). Data only."""
from __future__ import annotations

KNOWN: dict[str, str] = {}
KNOWN.update(dict.fromkeys([
    'ops/conv/conv1d_grad_lowering',
    'ops/conv/conv2d_grad_gathered_forward_lowering',
    'ops/conv/conv2d_grad_many_channels_lowering',
    'ops/conv/conv2d_grad_one_pixel_dilation_lowering',
    'ops/conv/conv2d_grad_one_pixel_lowering',
    'ops/conv/conv2d_grad_one_tap_lowering',
    'ops/conv/conv2d_grad_pointwise_stride_lowering',
    'ops/conv/conv2d_grad_small_output_lowering',
    'ops/conv/conv2d_grad_tap_rows_lowering',
    'ops/pool/adaptive_avg_pool2d_grad',
    'ops/pool/adaptive_max_pool2d_grad_divisible',
    'ops/pool/adaptive_max_pool2d_grad_uneven',
    'ops/pool/avg_pool2d_grad',
    'ops/pool/avg_pool2d_grad_plain',
    'ops/pool/max_pool1d_disjoint_windows_grad',
    'ops/pool/max_pool1d_grad_dilation',
    'ops/pool/max_pool2d_disjoint_windows_grad',
    'ops/pool/max_pool2d_grad_2x2',
    'ops/pool/max_pool2d_grad_overlapping',
    'ops/pool/max_pool2d_tiling_3x3_grad_ties',
    'ops/pool/max_pool2d_tiling_windows_grad',
    'ops/pool/max_pool2d_tiling_windows_grad_fd',
], ("the row's function bakes the batch itself: its gradient seed gy is a constant of the example's"
    ' output shape (tests/ops/cases_conv.py _grads, cases_pool.py _grad_row)')))
KNOWN.update(dict.fromkeys([
    'ops/array/searchsorted',
    'ops/array/searchsorted_dynamic',
    'ops/array/searchsorted_right_1d',
    'ops/sparse/coo_to_csr',
], 'the check cycles the values along the axis: the sorted input the op requires is no longer sorted'))
KNOWN.update(dict.fromkeys([
    'ops/sparse/coo_concat',
    'ops/sparse/dense_to_sparse_csr',
], 'output size depends on the values: the composition sizes it from the example (open)'))
KNOWN.update({
    'ops/array/select_scatter': "slice_scatter's mask is a NumPy array over the example's axis (open)",
    'ops/norm/embedding_grad_padding_freq': "the embedding width (a weight's dim) is baked (open)",
    'ops/norm/embedding_grad_scatter': "the embedding width (a weight's dim) is baked (open)",
    'ops/patches/extract_glimpse_zero_noise': "the channel count (batch 1 in the row stays static) (open)",
    'ops/text/no_repeat_ngram_2': "the vocabulary axis' mask is built at the example's size (open)",
})
KNOWN.update(dict.fromkeys([
    'ops/conv/conv1d_same_stride_dilation',
    'ops/patches/depthwise_conv2d_native_pad_dilated',
    'ops/patches/depthwise_conv2d_native_same_strided',
    'ops/patches/depthwise_conv2d_native_valid',
], "a dynamic channel count or a dilated 'same' 1-D convolution the lowering cannot follow (open)"))
KNOWN.update(dict.fromkeys([
    'ops/geometry/nms_keep',
], ("eager takes boxes and scores of different counts; the check varies the boxes (the op's first input)"
    " alone")))
