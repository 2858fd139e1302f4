"""Rows of tests/graph/test_dynamic_axes.py that still fail, each with its reason (strict xfails: a fix
makes the row XPASS, and it must leave this list). Data only."""
from __future__ import annotations

KNOWN: dict[str, str] = {}
KNOWN.update(dict.fromkeys([
    'ops/array/searchsorted',
    'ops/array/searchsorted_dynamic',
    'ops/array/searchsorted_right_1d',
], 'the check cycles the values along the axis: the sorted input the op requires is no longer sorted'))
KNOWN.update(dict.fromkeys([
    'ops/geometry/nms_keep',
], ("eager takes boxes and scores of different counts; the check varies the boxes (the op's first input)"
    " alone")))
# the array APIs' tables (tests/graph/dynamic_axes_mx.py)
KNOWN.update(dict.fromkeys([
    'mx.nd/adam_update', 'mx.nd/all_finite', 'mx.nd/all_finite_true', 'mx.nd/ftml_update',
    'mx.nd/ftrl_update', 'mx.nd/lamb_update_phase1', 'mx.nd/lamb_update_phase1_nobias',
    'mx.nd/lamb_update_phase2',
    'mx.nd/lamb_update_phase2_zero', 'mx.nd/mp_lamb_update_phase1', 'mx.nd/mp_lamb_update_phase2',
    'mx.nd/mp_nag_mom_update', 'mx.nd/mp_sgd_mom_update', 'mx.nd/mp_sgd_update', 'mx.nd/multi_all_finite',
    'mx.nd/multi_lars', 'mx.nd/multi_sum_sq', 'mx.nd/nag_mom_update', 'mx.nd/reset_arrays',
    'mx.nd/rmsprop_update', 'mx.nd/rmspropalex_update', 'mx.nd/sgd_mom_update', 'mx.nd/sgd_update',
    'mx.nd/signsgd_update', 'mx.nd/signum_update',
], ("eager only: an optimizer update (or its helper) computing with NumPy on the values, as MXNet's eager "
    "operator does; it refuses to be traced (NotExportable) at any size")))
KNOWN.update(dict.fromkeys([
    'mx.np/argpartition', 'mx.np/compress', 'mx.np/delete', 'mx.np/delete_many', 'mx.np/delete_slice',
    'mx.np/extract', 'mx.np/flatnonzero', 'mx.np/frexp', 'mx.np/i0', 'mx.np/in1d', 'mx.np/insert',
    'mx.np/insert_flat', 'mx.np/insert_scalar', 'mx.np/ix_', 'mx.np/lexsort', 'mx.np/modf', 'mx.np/msort',
    'mx.np/nanargmax', 'mx.np/nancumprod', 'mx.np/nanmedian', 'mx.np/nonzero', 'mx.np/npx_nonzero',
    'mx.np/packbits', 'mx.np/partition', 'mx.np/percentile', 'mx.np/percentile_axis', 'mx.np/percentile_int',
    'mx.np/percentile_midpoint', 'mx.np/percentile_nearest', 'mx.np/poly', 'mx.np/polydiv', 'mx.np/polyfit',
    'mx.np/quantile', 'mx.np/quantile_higher', 'mx.np/quantile_int', 'mx.np/quantile_lower', 'mx.np/real',
    'mx.np/resize', 'mx.np/roots', 'mx.np/setxor1d', 'mx.np/spacing', 'mx.np/trim_zeros', 'mx.np/union1d',
    'mx.np/unique', 'mx.np/unique_all', 'mx.np/unique_axis', 'mx.np/unpackbits',
], ("eager only: NumPy's function on the values (MXNet 1.9.1 runs NumPy there too); it refuses to be traced "
    "(NotExportable) at any size rather than freeze the example's result")))
KNOWN.update(dict.fromkeys([
    'mx.nd/linalg_gelqf', 'mx.nd/linalg_syevd_batch', 'mx.np/linalg_pinv', 'mx.np/linalg_pinv_rcond',
    'mx.np/linalg_qr', 'mx.np/linalg_svd',
], 'eager only: ONNX has no operator for the decomposition (NotExportable at any size)'))
KNOWN.update(dict.fromkeys([
    'mx.nd/ROIAlign_adaptive', 'mx.nd/ROIAlign_adaptive_aligned',
], "sample_ratio <= 0 sizes each region's grid from the rois' values: NotExportable at any size"))
KNOWN.update(dict.fromkeys([
    'mx.np/bincount', 'mx.np/bincount_w',
], 'output size depends on the values: refused without length (MXNetValueError, not a dim refusal)'))
