"""``mindspore.runtime``'s memory and synchronization functions where they mean something on cellonnx's CPU.

Eager tensors are NumPy arrays in the process heap, which glibc's malloc manages like a caching allocator:
cellonnx keeps up to 1 GiB of freed memory mapped for the next step's arrays (cellonnx/_malloc.py). So
``memory_allocated`` is the heap in use, ``memory_reserved`` what the heap holds from the system, and
``empty_cache`` gives the free part back (``malloc_trim``). Peaks are not tracked (malloc keeps no high-water
mark), and streams, events and memory pools belong to onnxruntime: those names are in cellonnx/unsupported.py.
Work is synchronous (NumPy returns when done, onnxruntime's run returns its outputs), so ``synchronize`` and
``launch_blocking`` have nothing to wait for.
"""
from __future__ import annotations

import ctypes
from typing import Any

__all__ = ["empty_cache", "launch_blocking", "memory_allocated", "memory_reserved", "memory_stats",
           "memory_summary", "ms_memory_recycle", "synchronize"]


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                 "fordblks", "keepcost")]


def _libc() -> Any:
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
        libc.malloc_trim.argtypes, libc.malloc_trim.restype = (ctypes.c_size_t,), ctypes.c_int
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _libc()


def _mallinfo() -> _MallInfo2:
    if _LIBC is None:
        raise RuntimeError("memory statistics need glibc 2.33 or later (mallinfo2); this C library has none")
    return _LIBC.mallinfo2()


def memory_allocated(device: Any = None) -> int:
    """Bytes of the process heap in use (where eager tensors live): blocks handed out by malloc, mmapped
    ones included.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.memory_allocated() >= 0)
        True
    """
    info = _mallinfo()
    return int(info.uordblks + info.hblkhd)


def memory_reserved(device: Any = None) -> int:
    """Bytes the process heap holds from the system: in use or kept free for reuse.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.memory_reserved() >= ms.memory_allocated())
        True
    """
    info = _mallinfo()
    return int(info.arena + info.hblkhd)


def memory_stats(device: Any = None) -> dict[str, int]:
    """The heap's current figures under MindSpore's names (``total_reserved_memory``,
    ``total_allocated_memory``, ``total_idle_memory``).

    Examples:
        >>> import cellonnx as ms
        >>> print('total_reserved_memory' in ms.memory_stats())
        True
    """
    reserved, allocated = memory_reserved(), memory_allocated()
    return {"total_reserved_memory": reserved, "total_allocated_memory": allocated,
            "total_idle_memory": reserved - allocated}


def memory_summary(device: Any = None) -> str:
    """``memory_stats`` as a table, in MiB.

    Examples:
        >>> import cellonnx as ms
        >>> print(isinstance(ms.memory_summary(), str))
        True
    """
    lines = ["|  memory (process heap)   |      MiB |", "|--------------------------|----------|"]
    for key, value in memory_stats().items():
        lines.append(f"| {key:<24} | {value / 2 ** 20:8.1f} |")
    return "\n".join(lines)


def empty_cache() -> None:
    """Give the heap's free memory back to the system (glibc ``malloc_trim``): what cellonnx keeps mapped for
    reuse between training steps.

    Examples:
        >>> import cellonnx as ms
        >>> ms.empty_cache()
    """
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def synchronize(device: Any = None) -> None:
    """Wait for the work queued on the device: cellonnx queues none (every op and graph run returns when its
    results are ready), so this returns at once.

    Examples:
        >>> import cellonnx as ms
        >>> ms.synchronize()
    """


def launch_blocking() -> None:
    """Make every op return only when its result is ready: cellonnx's already do.

    Examples:
        >>> import cellonnx as ms
        >>> ms.launch_blocking()
    """


def ms_memory_recycle() -> None:
    """Free the memory held for compiled graphs (their onnxruntime sessions, rebuilt on the next call) and
    give the heap's free memory back to the system: for a process that trains or runs several networks one
    after another.

    Examples:
        >>> import cellonnx as ms
        >>> ms.ms_memory_recycle()
    """
    from cellonnx.graph import compile as _compile

    _compile._CACHE.clear()
    empty_cache()
