"""Atomic file replacement: write a temp file in the target's folder, fsync it, rename it into place.

An interrupted or failed save never leaves a broken file under the final name: on any exception the temp file
is removed and whatever was at the final name before stays untouched.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

_UMASK = os.umask(0)
os.umask(_UMASK)
_TMP_PREFIX, _TMP_SUFFIX = ".", ".tmp"  # .<name>.<pid>.<random>.tmp


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to `path`; on success fsync it and rename it onto `path`.

    For writers that insist on opening the file themselves (safetensors' serialize_file). The caller writes
    the whole file at the yielded path inside the `with` block. The temporary name carries this process's id,
    so the temporary files of a writer that was killed are removed by the next write to the same path.
    """
    final = Path(path)
    folder = final.parent if str(final.parent) else Path(".")
    remove_stale_temporaries(folder, re.escape(final.name))
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f"{_TMP_PREFIX}{final.name}.{os.getpid()}.",
                                        suffix=_TMP_SUFFIX, dir=folder)
    except OSError as exc:
        raise _cannot_write(final, exc) from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        # the mode open() would give (mkstemp makes 0600, and some writers replace the file they are given)
        os.chmod(tmp, 0o666 & ~_UMASK)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        try:
            os.replace(tmp, final)
        except OSError as exc:
            raise _cannot_write(final, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(folder)


def remove_stale_temporaries(folder: Path, final_name: str) -> None:
    """Remove the temporary files that writers whose process no longer runs left in ``folder`` on their way to
    a file whose name matches the regular expression ``final_name``."""
    pattern = re.compile(re.escape(_TMP_PREFIX) + f"(?:{final_name})" + r"\.(?P<pid>\d+)\.[^.]+"
                         + re.escape(_TMP_SUFFIX))
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            found = pattern.fullmatch(entry.name)
            if found and not _running(int(found.group("pid"))):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, owned by someone else
        return True
    return True


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a binary file that appears under `path` only once the `with` block finished without error.

    Examples:
        >>> from cellonnx.converters.atomic import atomic_write
        >>> with atomic_write("weights.bin") as f:
        ...     _ = f.write(b"...")
    """
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        yield f
        f.flush()


def atomic_copy(source: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Copy ``source`` to ``path`` atomically (a reader of ``path`` sees the old file or the whole copy)."""
    with atomic_path(path) as tmp:
        shutil.copyfile(source, tmp)


def _cannot_write(final: Path, exc: OSError) -> OSError:
    """``exc`` (about the temp file beside ``final``, or the rename onto it) told of the file asked for."""
    if isinstance(exc, FileNotFoundError) and not final.parent.is_dir():
        reason = f"folder {final.parent} does not exist"
    elif final.is_dir():
        reason = "it is a directory"
    else:
        reason = exc.strerror or str(exc)
    return type(exc)(f"cannot write {final}: {reason}")


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not possible on every platform, and harmless to skip there.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
