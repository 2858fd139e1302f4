"""mx.io's iterators, written once for real MXNet 1.9.1 (tests/fixtures/mxnet/gen_io.py records the
results) and cellonnx.mxnet (test_io.py replays them). NumPy and the standard library only.

A case is a function of ``(mx, folder)`` that writes its small input files into ``folder`` and returns a
list of NumPy arrays or strings: each batch's data, label, pad and index over one or more epochs, and the
iterator's provide_data / provide_label. Rows that MXNet leaves uninitialised (a short first batch without
round_batch) are avoided.
"""
from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

CSV = "1,2,3\n2,3,4\n3,4,5\n4,5,6\n"
LABELS = "1\n2\n3\n4\n"
LIBSVM = "1.0 0:0.5 2:1.2\n-2.0\n-3.0 0:0.6 1:2.4 2:1.2\n4 2:-1.2\n0.5 1:3.0\n"
LIBSVM_LABEL = "1.0\n-2.0 0:0.125\n-3.0 2:1.2\n4 1:1.0 2:-1.2\n7 0:2.0\n"


def _dense(x: Any) -> np.ndarray:
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


def _descs(descs: list) -> str:
    return str([(d.name, tuple(int(v) for v in d.shape), np.dtype(d.dtype).name) for d in descs])


KEEP: list = []  # the iterators made, kept alive: MXNet 1.9.1 crashes freeing a partitioned LibSVMIter


def _record(it: Any, epochs: int, sparse: bool = False) -> list:
    KEEP.append(it)
    out: list = [_descs(it.provide_data), _descs(it.provide_label), str(it.batch_size)]
    for _ in range(epochs):
        for batch in it:
            for arr in (*batch.data, *batch.label):
                out.append(_dense(arr))
                if sparse and getattr(arr, "stype", "default") == "csr":
                    out += [_dense(arr.indptr).astype(np.int64), _dense(arr.indices).astype(np.int64)]
            out.append(np.array(batch.pad))
            out.append(np.array([-1]) if batch.index is None else np.asarray(batch.index).astype(np.int64))
        it.reset()
    return out


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def _csv_run(mx: Any, folder: Path, epochs: int, kwargs: dict) -> list:
    data = _write(folder, "data.csv", CSV)
    if kwargs.pop("labels", False):
        kwargs["label_csv"] = _write(folder, "label.csv", LABELS)
    if kwargs.pop("label_pairs", False):
        kwargs["label_csv"] = _write(folder, "label2.csv", "1,9\n2,8\n3,7\n4,6\n")
    return _record(mx.io.CSVIter(data_csv=data, **kwargs), epochs)


def _csv_folder(mx: Any, folder: Path) -> list:
    sub = folder / "parts"
    sub.mkdir(exist_ok=True)
    _write(sub, "a.csv", "1,2\n3,4\n")
    _write(sub, "b.csv", "5,6\n7,8\n9,10\n")
    return _record(mx.io.CSVIter(data_csv=str(sub), data_shape=(2,), batch_size=2), 2)


def _libsvm(epochs: int = 2, **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, folder: Path) -> list:
        args = dict(kwargs)
        data = _write(folder, "data.t", LIBSVM)
        if args.pop("labels", False):
            args["label_libsvm"] = _write(folder, "label.t", LIBSVM_LABEL)
        return _record(mx.io.LibSVMIter(data_libsvm=data, **args), epochs, sparse=True)
    return case


def _mnist_files(folder: Path, n: int = 7) -> tuple[str, str]:
    img = (np.arange(n * 4 * 5) * 7 % 256).astype(np.uint8).reshape(n, 4, 5)
    lab = (np.arange(n) * 3 % 10).astype(np.uint8)
    (folder / "img.idx").write_bytes(struct.pack(">IIII", 2051, n, 4, 5) + img.tobytes())
    (folder / "lab.idx").write_bytes(struct.pack(">II", 2049, n) + lab.tobytes())
    return str(folder / "img.idx"), str(folder / "lab.idx")


def _mnist(epochs: int = 2, n: int = 7, **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, folder: Path) -> list:
        img, lab = _mnist_files(folder, n)
        return _record(mx.io.MNISTIter(image=img, label=lab, silent=True, **kwargs), epochs)
    return case


def _ndarray_iter(mx: Any) -> Any:
    return mx.io.NDArrayIter(np.arange(10, dtype=np.float32).reshape(5, 2), np.arange(5, dtype=np.float32),
                             batch_size=2)


def _resize(size: int, reset_internal: bool = True) -> Callable[..., list]:
    def case(mx: Any, folder: Path) -> list:
        return _record(mx.io.ResizeIter(_ndarray_iter(mx), size, reset_internal), 2)
    return case


def _prefetch(mx: Any, folder: Path) -> list:
    a = mx.io.NDArrayIter({"data": np.arange(8, dtype=np.float32).reshape(4, 2)},
                          {"lab": np.arange(4, dtype=np.float32)}, batch_size=3)
    b = mx.io.NDArrayIter({"data": -np.arange(12, dtype=np.float32).reshape(4, 3)}, batch_size=3)
    it = mx.io.PrefetchingIter([a, b], rename_data=[{"data": "a"}, {"data": "b"}])
    return _record(it, 2)


def _prefetch_native(mx: Any, folder: Path) -> list:
    data = _write(folder, "data.csv", CSV)
    return _record(mx.io.PrefetchingIter(mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=2)), 2)


IMAGES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "image"
REC_FILES = ["photo.png", "photo.jpg", "turned.jpg", "gray.png", "photo.png"]


def _pack_rec(mx: Any, folder: Path, width: int = 1) -> tuple[str, str]:
    """A .rec / .idx of the committed test images (their bytes as they are), labels i (or i, 10 i, ...)."""
    rec, idx = str(folder / "images.rec"), str(folder / "images.idx")
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, "w")
    for i, name in enumerate(REC_FILES):
        label = float(i) if width == 1 else np.array([i * 10.0 ** k for k in range(width)], np.float32)
        header = mx.recordio.IRHeader(0 if width == 1 else width, label, i, 0)
        writer.write_idx(i, mx.recordio.pack(header, (IMAGES / name).read_bytes()))
    writer.close()
    lst = folder / "images.lst"
    lst.write_text("".join(f"{i}\t{7.0 - i}\t{name}\n" for i, name in enumerate(REC_FILES)))
    return rec, idx


def _imagerec(epochs: int = 2, cls: str = "ImageRecordIter", width: int = 1, batch_size: int = 2,
              data_shape: tuple = (3, 8, 8), first_rows: bool = False, **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, folder: Path) -> list:
        rec, idx = _pack_rec(mx, folder, width)
        args = dict(kwargs)
        if args.pop("indexed", False):
            args["path_imgidx"] = idx
        if args.pop("imglist", False):
            args["path_imglist"] = str(folder / "images.lst")
        it = getattr(mx.io, cls)(path_imgrec=rec, data_shape=data_shape, batch_size=batch_size,
                                 label_width=width, preprocess_threads=1, verbose=False, **args)
        out = _record(it, epochs)
        if first_rows:  # without round_batch MXNet leaves the rows of a short batch unset: keep row 0 only
            out = [v[:1] if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == batch_size else v
                   for v in out]
        return out
    return case


def _imagerec_mean(mx: Any, folder: Path) -> list:
    """mean_img: computed and saved on the first run, loaded on the second."""
    rec, _ = _pack_rec(mx, folder)
    mean = str(folder / "mean.bin")
    out: list = []
    for _ in range(2):
        it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2, mean_img=mean,
                                   std_r=2, std_g=4, std_b=5, scale=0.5, preprocess_threads=1, verbose=False)
        out += _record(it, 1) + [mx.nd.load(mean)["mean_img"].asnumpy()]
    return out


OBJECTS = [[[0, 0.1, 0.2, 0.6, 0.7], [1, 0.5, 0.4, 0.9, 0.95]], [[2, 0.05, 0.05, 0.45, 0.5]],
           [[1, 0.3, 0.1, 0.8, 0.6], [0, 0.0, 0.5, 0.4, 1.0], [3, 0.6, 0.6, 0.7, 0.7]],
           [[0, 0.2, 0.2, 0.8, 0.8]],
           [[4, 0.1, 0.1, 0.2, 0.2, 9.0]]]


def _pack_det(mx: Any, folder: Path) -> str:
    """A detection .rec of the committed test images (header 2 or 3 wide; objects of 5 or 6 values)."""
    rec = str(folder / "det.rec")
    writer = mx.recordio.MXRecordIO(rec, "w")
    for i, name in enumerate(REC_FILES):
        width = len(OBJECTS[i][0])
        head = [2.0, width] if i % 2 == 0 else [3.0, width, 7.0]
        label = np.array(head + [v for obj in OBJECTS[i] for v in obj], np.float32)
        header = mx.recordio.IRHeader(len(label), label, i, 0)
        writer.write(mx.recordio.pack(header, (IMAGES / name).read_bytes()))
    writer.close()
    return rec


def _imagedet(epochs: int = 2, batch_size: int = 2, data_shape: tuple = (3, 8, 8),
              **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, folder: Path) -> list:
        it = mx.io.ImageDetRecordIter(path_imgrec=_pack_det(mx, folder), data_shape=data_shape,
                                      batch_size=batch_size, preprocess_threads=1, verbose=False, **kwargs)
        return _record(it, epochs)
    return case


def _datadesc(mx: Any, folder: Path) -> list:
    d = mx.io.DataDesc("x", (2, 3))
    name, shape = d
    listed = mx.io.DataDesc.get_list([("a", (1, 2)), ("b", (3,))], [("a", np.int32), ("b", np.float64)])
    return [repr(d), str(len(d)), name, str(shape), str(mx.io.DataDesc.get_batch_axis("TNC")),
            str(mx.io.DataDesc.get_batch_axis(None)), _descs(listed), repr(listed[0]),
            str(mx.io.DataBatch([mx.nd.ones((2, 3))], [mx.nd.ones((2,))], pad=0))]


CASES: dict[str, Callable[..., list]] = {
    "csv_round": lambda mx, f: _csv_run(mx, f, 3, dict(data_shape=(3,), batch_size=3, labels=True)),
    "csv_no_round": lambda mx, f: _csv_run(mx, f, 2, dict(data_shape=(3,), batch_size=3, labels=True,
                                                            round_batch=False)),
    "csv_even": lambda mx, f: _csv_run(mx, f, 2, dict(data_shape=(3,), batch_size=2)),
    "csv_reshape": lambda mx, f: _csv_run(mx, f, 2, dict(data_shape=(1, 3), batch_size=3, label_pairs=True,
                                                           label_shape=(2,))),
    "csv_int32": lambda mx, f: _csv_run(mx, f, 1, dict(data_shape=(3,), batch_size=3, dtype="int32",
                                                         labels=True)),
    "csv_int64": lambda mx, f: _csv_run(mx, f, 1, dict(data_shape=(3,), batch_size=2, dtype="int64")),
    "csv_string_args": lambda mx, f: _csv_run(mx, f, 1, dict(data_shape="(3,)", batch_size="2",
                                                               round_batch="False")),
    "csv_names": lambda mx, f: _csv_run(mx, f, 1, dict(data_shape=(3,), batch_size=4, data_name="x",
                                                         label_name="y")),
    "csv_folder": _csv_folder,
    "libsvm": _libsvm(data_shape=(3,), batch_size=3),
    "libsvm_batch2": _libsvm(epochs=3, data_shape=(3,), batch_size=2),
    "libsvm_label_file": _libsvm(data_shape=(3,), batch_size=3, labels=True, label_shape=(3,)),
    "libsvm_parts": _libsvm(epochs=1, data_shape=(3,), batch_size=2, num_parts=2, part_index=1),
    "libsvm_parts3": _libsvm(epochs=1, data_shape=(3,), batch_size=2, num_parts=3, part_index=2),
    "mnist_plain": _mnist(batch_size=3, shuffle=False),
    "mnist_shuffle": _mnist(batch_size=3),
    "mnist_seed": _mnist(batch_size=2, seed=11, n=9),
    "mnist_flat": _mnist(batch_size=4, flat=True, shuffle=False),
    "mnist_parts": _mnist(epochs=1, batch_size=1, num_parts=3, part_index=2, seed=3),
    "mnist_large_shuffle": _mnist(epochs=1, batch_size=50, n=300, seed=7),
    "resize_more": _resize(5),
    "resize_less": _resize(2),
    "resize_keep": _resize(2, reset_internal=False),
    "prefetch": _prefetch,
    "prefetch_native": _prefetch_native,
    "datadesc": _datadesc,
    "imagerec": _imagerec(),
    "imagerec_no_round": _imagerec(round_batch=False, first_rows=True),
    "imagerec_batch3": _imagerec(epochs=3, batch_size=3),
    "imagerec_norm": _imagerec(epochs=1, mean_r=10, mean_g=20, mean_b=30, std_r=2, std_g=4, std_b=5,
                               scale=0.5),
    "imagerec_mirror_pad": _imagerec(epochs=1, mirror=True, pad=3, fill_value=7),
    "imagerec_resize": _imagerec(epochs=1, resize=9, data_shape=(3, 7, 9)),
    "imagerec_resize_up": _imagerec(epochs=1, resize=20, data_shape=(3, 16, 16), inter_method=1),
    "imagerec_gray": _imagerec(epochs=1, data_shape=(1, 6, 6), mean_r=100),
    "imagerec_width": _imagerec(epochs=1, width=3),
    "imagerec_imglist": _imagerec(epochs=1, imglist=True),
    "imagerec_parts": _imagerec(epochs=1, num_parts=2, part_index=0),
    "imagerec_parts_indexed": _imagerec(epochs=1, num_parts=3, part_index=1, batch_size=1, indexed=True),
    "imagerec_shuffle": _imagerec(epochs=2, shuffle=True, indexed=True),
    "imagerec_shuffle_seed": _imagerec(epochs=3, shuffle=True, seed=5, indexed=True, batch_size=3),
    "imagerec_v1": _imagerec(epochs=1, cls="ImageRecordIter_v1"),
    "imagerec_uint8": _imagerec(epochs=1, cls="ImageRecordUInt8Iter", mean_r=10, scale=0.5),
    "imagerec_uint8_v1": _imagerec(epochs=1, cls="ImageRecordUInt8Iter_v1"),
    "imagerec_int8": _imagerec(epochs=1, cls="ImageRecordInt8Iter"),
    "imagerec_dtype": _imagerec(epochs=1, dtype="uint8", mean_r=10),
    "imagerec_dtype_int8": _imagerec(epochs=1, dtype="int8"),
    "imagerec_random": _imagerec(epochs=3, rand_crop=True, rand_mirror=True, batch_size=3),
    "imagerec_random_u8": _imagerec(epochs=2, cls="ImageRecordUInt8Iter", rand_crop=True, rand_mirror=True,
                                    data_shape=(3, 6, 7), pad=1),
    "imagerec_random_mirror": _imagerec(epochs=2, rand_mirror=True, shuffle=True, indexed=True),
    "imagerec_contrast": _imagerec(epochs=2, max_random_contrast=0.3, max_random_illumination=20, mean_r=10,
                                   mean_g=20, mean_b=30, std_r=2, std_g=4, std_b=5, scale=0.5,
                                   rand_mirror=True),
    "imagerec_mean_img": _imagerec_mean,
    "imagerec_seed_aug": _imagerec(epochs=2, rand_crop=True, rand_mirror=True, seed_aug=5),
    "imagerec_seed_aug3": _imagerec(epochs=2, rand_crop=True, rand_mirror=True, seed_aug=9,
                                    batch_size=3),
    "imagedet": _imagedet(),
    "imagedet_pad_width": _imagedet(epochs=1, label_pad_width=30, label_pad_value=-2),
    "imagedet_norm": _imagedet(epochs=1, mean_r=10, mean_g=20, mean_b=30, std_r=2, std_g=4, std_b=5,
                               scale=0.5),
    "imagedet_mean_only": _imagedet(epochs=1, mean_r=10, mean_g=20, mean_b=30, scale=0.5),
    "imagedet_mirror": _imagedet(epochs=1, rand_mirror_prob=1.0, data_shape=(3, 6, 10)),
    "imagedet_mirror_half": _imagedet(epochs=2, rand_mirror_prob=0.5, batch_size=5),
    "imagedet_fit": _imagedet(epochs=1, resize_mode="fit", data_shape=(3, 9, 9)),
    "imagedet_shrink": _imagedet(epochs=1, resize_mode="shrink", data_shape=(3, 20, 12)),
    "imagedet_resize": _imagedet(epochs=1, resize=9, resize_mode="fit"),
    "imagedet_shuffle": _imagedet(epochs=3, shuffle=True, seed=2, batch_size=3),
    "imagedet_parts": _imagedet(epochs=1, num_parts=2, part_index=1, batch_size=1),
}


def run(mx: Any, folder: Path, name: str) -> list:
    folder.mkdir(parents=True, exist_ok=True)
    return CASES[name](mx, folder)
