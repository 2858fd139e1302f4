"""Pretrained weights of the model zoo: MXNet's own .params files, read from a local folder.

cellonnx does not download: ``get_model_file(name, root)`` finds ``<root>/<name>-<first 8 hex digits of the
file's sha1>.params`` as MXNet's model store names it (the files MXNet downloaded into
``$MXNET_HOME/models``), checks the sha1 MXNet lists for it, and otherwise raises, saying where to put the
file.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["MODEL_SHA1", "default_root", "get_model_file", "purge", "short_hash"]

# the sha1 of MXNet 1.x / 2.x model-zoo parameter files (the same files in both)
MODEL_SHA1 = {
    "alexnet": "44335d1f0046b328243b32a26a4fbd62d9057b45",
    "densenet121": "f27dbf2dbd5ce9a80b102d89c7483342cd33cb31",
    "densenet161": "b6c8a95717e3e761bd88d145f4d0a214aaa515dc",
    "densenet169": "2603f878403c6aa5a71a124c4a3307143d6820e9",
    "densenet201": "1cdbc116bc3a1b65832b18cf53e1cb8e7da017eb",
    "inceptionv3": "ed47ec45a937b656fcc94dabde85495bbef5ba1f",
    "mobilenet0.25": "9f83e440996887baf91a6aff1cccc1c903a64274",
    "mobilenet0.5": "8e9d539cc66aa5efa71c4b6af983b936ab8701c3",
    "mobilenet0.75": "529b2c7f4934e6cb851155b22c96c9ab0a7c4dc2",
    "mobilenet1.0": "6b8c5106c730e8750bcd82ceb75220a3351157cd",
    "mobilenetv2_1.0": "36da4ff1867abccd32b29592d79fc753bca5a215",
    "mobilenetv2_0.75": "e2be7b72a79fe4a750d1dd415afedf01c3ea818d",
    "mobilenetv2_0.5": "aabd26cd335379fcb72ae6c8fac45a70eab11785",
    "mobilenetv2_0.25": "ae8f9392789b04822cbb1d98c27283fc5f8aa0a7",
    "resnet18_v1": "a0666292f0a30ff61f857b0b66efc0228eb6a54b",
    "resnet34_v1": "48216ba99a8b1005d75c0f3a0c422301a0473233",
    "resnet50_v1": "0aee57f96768c0a2d5b23a6ec91eb08dfb0a45ce",
    "resnet101_v1": "d988c13d6159779e907140a638c56f229634cb02",
    "resnet152_v1": "671c637a14387ab9e2654eafd0d493d86b1c8579",
    "resnet18_v2": "a81db45fd7b7a2d12ab97cd88ef0a5ac48b8f657",
    "resnet34_v2": "9d6b80bbc35169de6b6edecffdd6047c56fdd322",
    "resnet50_v2": "ecdde35339c1aadbec4f547857078e734a76fb49",
    "resnet101_v2": "18e93e4f48947e002547f50eabbcc9c83e516aa6",
    "resnet152_v2": "f2695542de38cf7e71ed58f02893d82bb409415e",
    "squeezenet1.0": "264ba4970a0cc87a4f15c96e25246a1307caf523",
    "squeezenet1.1": "33ba0f93753c83d86e1eb397f38a667eaf2e9376",
    "vgg11": "dd221b160977f36a53f464cb54648d227c707a05",
    "vgg11_bn": "ee79a8098a91fbe05b7a973fed2017a6117723a8",
    "vgg13": "6bc5de58a05a5e2e7f493e2d75a580d83efde38c",
    "vgg13_bn": "7d97a06c3c7a1aecc88b6e7385c2b373a249e95e",
    "vgg16": "e660d4569ccb679ec68f1fd3cce07a387252a90a",
    "vgg16_bn": "7f01cf050d357127a73826045c245041b0df7363",
    "vgg19": "ad2f660d101905472b83590b59708b71ea22b2e5",
    "vgg19_bn": "f360b758e856f1074a85abd5fd873ed1d98297c3",
}
_URL = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/gluon/models/{file_name}.zip"


def default_root() -> str:
    """``$MXNET_HOME/models`` (``~/.mxnet/models`` by default), where MXNet kept downloaded models."""
    home = os.getenv("MXNET_HOME", os.path.join(os.path.expanduser("~"), ".mxnet"))
    return os.path.join(home, "models")


def short_hash(name: str) -> str:
    if name not in MODEL_SHA1:
        raise ValueError(f"Pretrained model for {name} is not available.")
    return MODEL_SHA1[name][:8]


def _sha1(path: Path) -> str:
    digest = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def get_model_file(name: str, root: str | os.PathLike[str] | None = None) -> str:
    """The path of model ``name``'s pretrained parameters in ``root`` (Default: ``$MXNET_HOME/models``).

    Raises:
        FileNotFoundError: the file is not in ``root`` (cellonnx does not download it).
        ValueError: the file's sha1 is not the one MXNet lists.
    """
    file_name = f"{name}-{short_hash(name)}"
    folder = Path(os.path.expanduser(os.fspath(root if root is not None else default_root())))
    path = folder / f"{file_name}.params"
    if not path.is_file():
        raise FileNotFoundError(
            f"model_zoo: no pretrained parameters for '{name}' in {folder}: cellonnx does not download; put "
            f"MXNet's file {file_name}.params there (it is inside {_URL.format(file_name=file_name)}, or in "
            "the ~/.mxnet/models folder of a machine where MXNet downloaded it) and pass root=")
    got = _sha1(path)
    if got != MODEL_SHA1[name]:
        raise ValueError(f"model_zoo: {path} has sha1 {got}, MXNet's model store lists "
                         f"{MODEL_SHA1[name]} for "
                         f"'{name}'; it is not the pretrained file (cellonnx does not download a fresh copy)")
    return str(path)


def purge(root: str | os.PathLike[str] | None = None) -> None:
    """Remove the pretrained parameter files from ``root``."""
    folder = Path(os.path.expanduser(os.fspath(root if root is not None else default_root())))
    for f in folder.glob("*.params"):
        f.unlink()
