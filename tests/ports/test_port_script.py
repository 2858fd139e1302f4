"""port.py: import statements rewritten, nothing else; and sources.json: the wheels the suite reads."""
from __future__ import annotations

import ast
import json
import zipfile

import pytest

from tests.ports import port, wheels

REWRITES = [
    ("import mindspore\n", "import cellonnx as mindspore\n"),
    ("import mindspore as ms\n", "import cellonnx as ms\n"),
    ("import mindspore.nn as nn\n", "import cellonnx.nn as nn\n"),
    ("import mindspore.ops.operations\n", "import cellonnx.ops.operations, cellonnx as mindspore\n"),
    ("import os, mindspore.numpy as mnp, sys\n", "import os, cellonnx.numpy as mnp, sys\n"),
    ("from mindspore import nn, ops\n", "from cellonnx import nn, ops\n"),
    ("from mindspore.common.initializer import (Normal,\n    initializer)  # two lines\n",
     "from cellonnx.common.initializer import (Normal,\n    initializer)  # two lines\n"),
    ("from mindspore.ops import \\\n    operations as P\n",
     "from cellonnx.ops import \\\n    operations as P\n"),
    ("def f():\n    from mindspore import Tensor\n    return Tensor\n",
     "def f():\n    from cellonnx import Tensor\n    return Tensor\n"),
    ("try:\n    import mindspore.numpy as np\nexcept ImportError:\n    pass\n",
     "try:\n    import cellonnx.numpy as np\nexcept ImportError:\n    pass\n"),
    # kept: relative imports, the package's own absolute imports, look-alike names, strings and attributes
    ("from .layers import Dense\nfrom ..utils import download\n",
     "from .layers import Dense\nfrom ..utils import download\n"),
    ("from mindcv.models import resnet\nimport mindspore_rl\n",
     "from mindcv.models import resnet\nimport mindspore_rl\n"),
    ("import mindspore\nx = mindspore.float32  # mindspore\ns = 'import mindspore'\n",
     "import cellonnx as mindspore\nx = mindspore.float32  # mindspore\ns = 'import mindspore'\n"),
]


@pytest.mark.parametrize("original, expected", REWRITES)
def test_rewrites_import_statements_only(original: str, expected: str) -> None:
    assert port.port_file(original) == expected


@pytest.mark.parametrize("original, tampered, message", [
    ("import mindspore\nx = 1\n", "import cellonnx as mindspore\nx = 2\n", "outside import statements"),
    ("import mindspore\nx = 1\n", "import cellonnx\nx = 1\n", "binds"),
    ("from mindspore import nn\n", "from cellonnx import nn, ops\n", "binds"),
    ("from mindspore import nn\n", "from cellonnx import nn\n\n", "lines"),
    ("import mindspore  # note\n", "import cellonnx as mindspore  # changed\n", "outside import statements"),
    ("from mindspore import nn\n", "from mindspore import nn\n", "still names"),
])
def test_check_refuses_other_changes(original: str, tampered: str, message: str) -> None:
    with pytest.raises(port.PortError, match=message):
        port.check_port(original, tampered)


@pytest.mark.parametrize("original, ported, same", [
    *[(a, b, True) for a, b in REWRITES],
    ("s = 'é'; import mindspore.nn as nn  # é\nx = 1\n",
     "s = 'é'; import cellonnx.nn as nn  # é\nx = 1\n", True),
    ("if x:\n    from mindspore import (a,\n  b)\ny = 'é'\n",
     "if x:\n    from cellonnx import (a,\n  b)\ny = 'é'\n", True),
    ("import mindspore\nx = 1\n", "import cellonnx as mindspore\nx = 2\n", False),
    ("s = 'é'; import mindspore\n", "s = 'è'; import cellonnx as mindspore\n", False),
    ("import mindspore  # note\n", "import cellonnx as mindspore  # changed\n", False),
])
def test_same_text_outside_imports_means_same_tokens(original: str, ported: str, same: bool) -> None:
    """check_port's shortcut: where the text between the import statements is the same, so are the tokens
    outside them (otherwise it compares the tokens)."""
    a, b = port._imports(ast.parse(original)), port._imports(ast.parse(ported))
    text_same = port._outside_text(original, a) == port._outside_text(ported, b)
    assert text_same == same
    assert (port._outside_imports(original, a) == port._outside_imports(ported, b)) == same


@pytest.mark.parametrize("key", sorted(wheels.manifest()))
def test_every_file_of_the_wheels_ports(key: str) -> None:
    """Every Python file of every listed wheel or vendored folder ports and passes the check (not only the
    files used)."""
    entry = wheels.manifest()[key]
    framework = entry.get("framework", "mindspore")
    with wheels.source(key) as src:
        members = [m for m in src.namelist() if m.endswith(".py")]
        for member in members:
            text = src.read(member).decode("utf-8")
            rule = port.rule_for(framework, member, members)
            tree = port.port_parsed(text, member, rule)[1]
            imports = port._imports(tree)
            assert not any(port._names_old(node, rule) for node in imports), member
    assert len(members) > 50 or ("vendored" in entry and members == entry["files"])


def test_manifest_records_each_wheel() -> None:
    doc = json.loads(wheels.MANIFEST.read_text())
    for entry in doc["packages"]:
        assert set(entry) >= {"name", "version", "wheel", "sha256", "license", "homepage", "repository",
                              "commit", "files"}
        assert entry["license"] == "Apache-2.0"
        with zipfile.ZipFile(wheels.wheel(entry.get("id", entry["name"]))) as zf:
            names = set(zf.namelist())
            metadata = zf.read(f"{entry['name']}-{entry['version']}.dist-info/METADATA").decode()
        assert f"Version: {entry['version']}" in metadata
        assert entry["license_metadata"] in metadata
        assert set(entry["files"]) <= names


def test_vendored_entries_record_their_source() -> None:
    """vendored.json: each entry names its repository, path, tag and commit and licence; its folder keeps
    the project's LICENSE and NOTICE; every listed file is there byte-for-byte (its git blob id) with its
    licence header."""
    doc = json.loads(wheels.VENDORED.read_text())
    assert doc["packages"]
    for entry in doc["packages"]:
        assert set(entry) >= {"id", "name", "vendored", "license", "repository", "path", "tag", "commit",
                              "blobs", "files", "framework"}
        assert entry["license"] == "Apache-2.0" and set(entry["files"]) == set(entry["blobs"])
        folder = wheels.VENDORED_ROOT / entry["vendored"]
        assert "Apache License" in (folder / "LICENSE").read_text()
        assert (folder / "NOTICE").is_file()
        with wheels.source(entry["id"]) as src:
            for member in entry["files"]:
                assert member.startswith(entry["path"] + "/")
                assert "Licensed to the Apache Software Foundation" in src.read(member).decode()


def test_vendored_file_changed_is_refused(tmp_path, monkeypatch) -> None:
    entry = dict(wheels.manifest()["mxnet-example-word-lm"])
    member = entry["files"][0]
    copy = tmp_path / entry["vendored"] / member
    copy.parent.mkdir(parents=True)
    copy.write_bytes((wheels.VENDORED_ROOT / entry["vendored"] / member).read_bytes() + b"\n")
    monkeypatch.setattr(wheels, "VENDORED_ROOT", tmp_path)
    with pytest.raises(wheels.SourceError, match="git blob id"):
        wheels.read("mxnet-example-word-lm", member)


def test_download_failure_is_clear(tmp_path, monkeypatch) -> None:
    entry = dict(wheels.manifest()["mindcv"], version="0.0.0-missing", wheel="missing.whl")
    monkeypatch.setattr(wheels, "manifest", lambda: {"mindcv": entry})
    monkeypatch.setenv(wheels.CACHE_ENV, str(tmp_path))
    with pytest.raises(wheels.SourceError, match="could not download mindcv==0.0.0-missing"):
        wheels.wheel("mindcv")


def test_sha256_mismatch_is_refused(tmp_path, monkeypatch) -> None:
    entry = wheels.manifest()["mindcv"]
    monkeypatch.setenv(wheels.CACHE_ENV, str(tmp_path))
    fake = tmp_path / f"mindcv-{entry['version']}" / entry["wheel"]
    fake.parent.mkdir(parents=True)
    fake.write_bytes(b"not the wheel")
    with pytest.raises(wheels.SourceError, match="sha256"):
        wheels.wheel("mindcv")


MXNET_REWRITES = [
    ("import mxnet as mx\n", "import cellonnx.mxnet as mx\n"),
    ("import mxnet\n", "import cellonnx.mxnet as mxnet\n"),
    ("from mxnet import gluon, nd\n", "from cellonnx.mxnet import gluon, nd\n"),
    ("from mxnet.gluon.nn import BatchNorm\n", "from cellonnx.mxnet.gluon.nn import BatchNorm\n"),
    ("import mxnet.gluon.nn as nn\n", "import cellonnx.mxnet.gluon.nn as nn\n"),
    ("import mxnet.ndarray\n", "import cellonnx.mxnet.ndarray, cellonnx.mxnet as mxnet\n"),
    # a file outside MXNet's tree: its relative imports are its own package's
    ("from .model_store import get_model_file\n", "from .model_store import get_model_file\n"),
]


@pytest.mark.parametrize("original, expected", MXNET_REWRITES)
def test_mxnet_rewrites(original: str, expected: str) -> None:
    assert port.port_file(original, rule=port.MXNET) == expected


def test_mxnet_tree_relative_imports_reach_cellonnx() -> None:
    """A file of MXNet's own tree: relative imports of modules not ported with it become cellonnx.mxnet's;
    those of ported files stay relative."""
    files = ["mxnet/gluon/model_zoo/vision/__init__.py", "mxnet/gluon/model_zoo/vision/resnet.py"]
    rule = port.rule_for("mxnet", files[1], files)
    text = ("from ....context import cpu\nfrom ...block import HybridBlock\nfrom ... import nn\n"
            "from .... import base\nfrom . import resnet\n")
    assert port.port_file(text, rule=rule) == (
        "from cellonnx.mxnet.context import cpu\nfrom cellonnx.mxnet.gluon.block import HybridBlock\n"
        "from cellonnx.mxnet.gluon import nn\nfrom cellonnx.mxnet import base\nfrom . import resnet\n")
    with pytest.raises(port.PortError, match="binds"):
        port.check_port(text, text.replace("....context", "cellonnx.mxnet.device"), rule=rule)
