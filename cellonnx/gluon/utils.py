"""gluon.utils: splitting a batch over devices, clipping by the global norm, file checks and MXNet's
``download`` (which here only finds files already present, or copies ``file://`` URLs: there is no network),
``shape_is_known`` and the HookHandle that Block hooks return."""
from __future__ import annotations

import collections
import hashlib
import os
import shutil
import uuid
import warnings
import weakref
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["HookHandle", "check_sha1", "clip_global_norm", "download", "replace_file", "shape_is_known",
           "split_and_load", "split_data"]


def _is_np() -> bool:
    from cellonnx.mxnet import util

    return util.is_np_array()


def split_data(data: Any, num_slice: int, batch_axis: int = 0, even_split: bool = True) -> list[Any]:
    """Split ``data`` into ``num_slice`` slices along ``batch_axis`` (the first ``size % num_slice`` one
    longer when ``even_split`` is False).

    Args:
        data (NDArray): the batch.
        num_slice (int): the number of slices.
        batch_axis (int): the axis to split. Default: 0.
        even_split (bool): require equal slices. Default: True.

    Returns:
        list of NDArray.

    Raises:
        ValueError: ``even_split`` and the axis is not a multiple of ``num_slice``.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> parts = mx.gluon.utils.split_data(mx.nd.arange(10), 3, even_split=False)
        >>> [p.asnumpy().tolist() for p in parts]
        [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
    """
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(
            f"data with shape {data.shape} cannot be evenly split into {num_slice} slices along axis "
            f"{batch_axis}. Use a batch size that's multiple of {num_slice} or set even_split=False to allow "
            "uneven partitioning of data.")
    n_each_section, extras = divmod(size, num_slice)
    section_sizes = [0] + extras * [n_each_section + 1] + (num_slice - extras) * [n_each_section]
    div_points = np.array(section_sizes).cumsum()
    if _is_np():
        from cellonnx.mxnet import numpy as mx_np

        points = [int(p) for p in div_points[1:-1]]
        return list(mx_np.split(data, indices_or_sections=points, axis=batch_axis))
    from cellonnx.mxnet import ndarray as nd

    if batch_axis != 0:
        return [nd.slice_axis(data, axis=batch_axis, begin=int(div_points[i]), end=int(div_points[i + 1]))
                for i in range(num_slice)]
    return [data[int(div_points[i]):int(div_points[i + 1]) if i < num_slice - 1 else size]
            for i in range(num_slice)]


def split_and_load(data: Any, ctx_list: list[Any], batch_axis: int = 0, even_split: bool = True) -> list[Any]:
    """Split ``data`` into ``len(ctx_list)`` slices along ``batch_axis`` and put slice i on ``ctx_list[i]``.

    Args:
        data: an NDArray, or anything ``nd.array`` takes.
        ctx_list (list of Context): the devices.
        batch_axis (int): the axis to split. Default: 0.
        even_split (bool): require equal slices. Default: True.

    Returns:
        list of NDArray.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> parts = mx.gluon.utils.split_and_load(mx.nd.ones((4, 2)), [mx.cpu(0), mx.cpu(1)])
        >>> [p.shape for p in parts]
        [(2, 2), (2, 2)]
    """
    if not isinstance(data, Tensor):
        if _is_np():
            from cellonnx.mxnet.numpy import array
        else:
            from cellonnx.mxnet.ndarray import array
        data = array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(ctx) for s, ctx in zip(slices, ctx_list, strict=True)]


def clip_global_norm(arrays: list[Any], max_norm: float, check_isfinite: bool = True) -> Any:
    """Rescale ``arrays`` in place so that the 2-norm of all of them together is at most ``max_norm``.

    The scale is ``min(max_norm / (total_norm + 1e-8), 1)``, computed in the arrays' float32 as MXNet does.

    Args:
        arrays (list of NDArray): the arrays (gradients, usually).
        max_norm (float): the largest norm kept.
        check_isfinite (bool): warn when the norm is NaN or infinite, and return it as a Python number.
            Default: True.

    Returns:
        float (``check_isfinite``) or a (1,) NDArray: the norm before clipping.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> grads = [mx.nd.array([3.0, 0.0]), mx.nd.array([[4.0]])]
        >>> float(mx.gluon.utils.clip_global_norm(grads, 1.0))
        5.0
        >>> print(grads[0].asnumpy(), grads[1].asnumpy())
        [0.6 0. ] [[0.8]]
    """
    assert len(arrays) > 0
    squares = [np.dot(a.asnumpy().reshape(-1), a.asnumpy().reshape(-1)) for a in arrays]
    total = np.sqrt(np.sum(np.asarray(squares, dtype=arrays[0].asnumpy().dtype)).reshape(1))
    if check_isfinite and not np.isfinite(total[0]):
        warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."),
                      stacklevel=2)
    scale = np.minimum(max_norm / (total + total.dtype.type(1e-8)), total.dtype.type(1))
    for arr in arrays:
        arr *= float(scale[0])
    if check_isfinite:
        return total[0]
    if _is_np():
        from cellonnx.mxnet.numpy import array
    else:
        from cellonnx.mxnet.ndarray import array
    return array(total, dtype=total.dtype)


def check_sha1(filename: str, sha1_hash: str) -> bool:
    """Whether the file's SHA-1 is ``sha1_hash`` (hex).

    Examples:
        >>> import os, tempfile
        >>> from cellonnx import mxnet as mx
        >>> path = os.path.join(tempfile.mkdtemp(), 'a.txt')
        >>> _ = open(path, 'w').write('abc')
        >>> mx.gluon.utils.check_sha1(path, 'a9993e364706816aba3e25717850c26c9cd0d89d')
        True
    """
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        while True:
            data = f.read(1048576)
            if not data:
                break
            sha1.update(data)
    return sha1.hexdigest() == sha1_hash


def replace_file(src: str, dst: str) -> None:
    """Move ``src`` to ``dst``, replacing it (``src`` is removed if the move fails).

    Raises:
        OSError: the move failed.

    Examples:
        >>> import os, tempfile
        >>> from cellonnx import mxnet as mx
        >>> root = tempfile.mkdtemp()
        >>> _ = open(os.path.join(root, 'a'), 'w').write('new')
        >>> mx.gluon.utils.replace_file(os.path.join(root, 'a'), os.path.join(root, 'b'))
        >>> sorted(os.listdir(root))
        ['b']
    """
    try:
        os.replace(src, dst)
    except OSError:
        try:
            os.remove(src)
        except OSError:
            pass
        raise OSError(f"Moving downloaded temp file - {src}, to {dst} failed. Please retry the "
                      "download.") from None


def download(url: str, path: str | None = None, overwrite: bool = False, sha1_hash: str | None = None,
             retries: int = 5, verify_ssl: bool = True) -> str:
    """MXNet's download, without a network: the file name is worked out as MXNet does (``path``, a folder
    in ``path``, or the URL's last part) and returned when that file is there (with ``sha1_hash``, when its
    hash matches); a ``file://`` URL is copied; anything else raises, saying where to put the file.

    Args:
        url (str): the URL.
        path (str): the destination file or folder. Default: None (the URL's file name, here).
        overwrite (bool): fetch even if the file exists. Default: False.
        sha1_hash (str): the expected SHA-1 of the file. Default: None.
        retries (int): accepted for MXNet's signature (>= 0). Default: 5.
        verify_ssl (bool): accepted for MXNet's signature (False warns as MXNet does). Default: True.

    Returns:
        str, the file's path.

    Raises:
        RuntimeError: the file is missing (or its hash differs) and the URL is not ``file://``.
        UserWarning: a copied file's hash does not match ``sha1_hash``.

    Examples:
        >>> import os, tempfile
        >>> from cellonnx import mxnet as mx
        >>> root = tempfile.mkdtemp()
        >>> _ = open(os.path.join(root, 'w.params'), 'w').write('x')
        >>> src = os.path.join(root, 'w.params')
        >>> mx.gluon.utils.download('https://example.com/w.params', path=root) == src
        True
        >>> got = mx.gluon.utils.download('file://' + src, path=os.path.join(root, 'c'))
        >>> open(got).read()
        'x'
    """
    if path is None:
        fname = url.split("/")[-1]
        assert fname, "Can't construct file-name from this URL. Please set the `path` option manually."
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split("/")[-1]) if os.path.isdir(path) else path
    assert retries >= 0, f"Number of retries should be at least 0, currently it's {retries}"
    if not verify_ssl:
        warnings.warn("Unverified HTTPS request is being made (verify_ssl=False). Adding certificate "
                      "verification is strongly advised.", stacklevel=2)
    if not (overwrite or not os.path.exists(fname) or (sha1_hash and not check_sha1(fname, sha1_hash))):
        return fname
    if not url.startswith("file://"):
        state = "does not match sha1_hash" if os.path.exists(fname) and not overwrite else "is not there"
        raise RuntimeError(f"download: cannot fetch {url}: cellonnx has no network access, and {fname!r} "
                           f"{state}. Download the file elsewhere and put it at {os.path.abspath(fname)!r}.")
    src = url[len("file://"):]
    if not os.path.isfile(src):
        raise RuntimeError(f"download: {url} names no file ({src!r} does not exist)")
    dirname = os.path.dirname(os.path.abspath(fname))
    os.makedirs(dirname, exist_ok=True)
    tmp = f"{fname}.{uuid.uuid4()}"
    shutil.copyfile(src, tmp)
    replace_file(tmp, fname)
    if sha1_hash and not check_sha1(fname, sha1_hash):
        raise UserWarning(f"File {fname} is downloaded but the content hash does not match. The repo may "
                          "be outdated or download may be incomplete. If the \"repo_url\" is overridden, "
                          "consider switching to the default repo.")
    return fname


class HookHandle:
    """A handle to a hook in a hooks dict (kept by weak reference); ``detach()`` or leaving a ``with`` block
    removes the hook.

    Examples:
        >>> from collections import OrderedDict
        >>> from cellonnx import mxnet as mx
        >>> hooks = OrderedDict()
        >>> handle = mx.gluon.utils.HookHandle()
        >>> handle.attach(hooks, print)
        >>> len(hooks)
        1
        >>> handle.detach()
        >>> len(hooks)
        0
    """

    def __init__(self) -> None:
        self._hooks_dict_ref: Any = None
        self._id: int | None = None

    def attach(self, hooks_dict: dict[int, Any], hook: Any) -> None:
        """Put ``hook`` into ``hooks_dict`` under its id."""
        assert not self._hooks_dict_ref, "The same handle cannot be attached twice."
        self._id = id(hook)
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self) -> None:
        """Take the hook out of its dict."""
        hooks_dict = self._hooks_dict_ref()
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __getstate__(self) -> tuple[Any, Any]:
        return (self._hooks_dict_ref(), self._id)

    def __setstate__(self, state: tuple[Any, Any]) -> None:
        if state[0] is None:
            self._hooks_dict_ref = weakref.ref(collections.OrderedDict())
        else:
            self._hooks_dict_ref = weakref.ref(state[0])
        self._id = state[1]

    def __enter__(self) -> HookHandle:
        return self

    def __exit__(self, ptype: Any, value: Any, trace: Any) -> None:
        self.detach()


def shape_is_known(shape: Any) -> bool:
    """Whether ``shape`` has no unknown dimension (0 in MXNet's legacy shapes, -1 under ``set_np()``).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> mx.gluon.utils.shape_is_known((2, 3)), mx.gluon.utils.shape_is_known((0, 3))
        (True, False)
    """
    from cellonnx.mxnet.util import is_np_shape

    if shape is None:
        return False
    unknown_dim_size = -1 if is_np_shape() else 0
    if len(shape) == 0:
        return unknown_dim_size == -1
    for dim_size in shape:
        if dim_size == unknown_dim_size:
            return False
        assert dim_size > unknown_dim_size, (f"shape dimension size cannot be less than {unknown_dim_size}, "
                                             f"while received {dim_size}")
    return True
