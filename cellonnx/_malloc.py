"""glibc malloc settings for eager training, applied once when cellonnx is imported.

Every eager step allocates the same multi-megabyte activations, gradients and im2col columns again. With glibc's
defaults a block above the (dynamic) mmap threshold comes fresh from the kernel, and the heap top is trimmed back
whenever more than the trim threshold lies free there, so each step's new arrays page-fault once per 4 KiB on
first touch: about 1,900 faults per LeNet-5 training step at batch 64, which cost as much as the convolutions
(12.8 -> 9.6 ms per step when they are gone; see bench/RESULTS.md, "Eager training step").

So at import cellonnx calls ``mallopt`` to serve blocks up to ``MMAP_THRESHOLD`` (32 MiB) from the heap and to
trim the heap only when more than ``TRIM_THRESHOLD`` (1 GiB) lies free at its top. A step's freed memory is
what the next step allocates again, so the trim threshold has to sit above a step's working set: at 128 MiB
the zoo's Transformer classifier (batch 32 of 128 tokens) still took 39,000 faults a step (306 -> 189 ms
without them). The cost: the process keeps up to 1 GiB of freed memory mapped instead of returning it to the
system, as PyTorch's caching allocator keeps its blocks. This is a process-wide setting; it is skipped

- when ``CELLONNX_MALLOC_TUNING`` is ``0`` / ``false`` / ``off`` / ``no`` (opt out before importing cellonnx);
- when the process already chose its own settings (``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``,
  ``MALLOC_TOP_PAD_`` or ``GLIBC_TUNABLES`` in the environment);
- on anything but Linux with glibc (musl, macOS, Windows).

``APPLIED`` says whether the settings were made in this process.
"""
from __future__ import annotations

import ctypes
import os
import sys

ENV = "CELLONNX_MALLOC_TUNING"
MMAP_THRESHOLD = 32 << 20  # glibc's largest allowed value on 64-bit (HEAP_MAX_SIZE / 2)
TRIM_THRESHOLD = 1 << 30
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # <malloc.h>
_USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")

APPLIED = False


def wanted(environ: dict | None = None) -> bool:
    """Whether the settings should be made: not opted out, no malloc settings of the user's own, Linux."""
    env = os.environ if environ is None else environ
    if env.get(ENV, "1").strip().lower() in ("0", "false", "off", "no"):
        return False
    return sys.platform.startswith("linux") and not any(k in env for k in _USER_SETTINGS)


def apply() -> bool:
    """Make the settings once (see the module docstring); True when they are in effect."""
    global APPLIED
    if APPLIED or not wanted():
        return APPLIED
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018  (glibc only: other libcs' mallopt differ or do nothing)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    APPLIED = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return APPLIED
