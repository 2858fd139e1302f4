"""The public packages the porting suite reads, fetched from PyPI at test time and never committed.

Standard library only: the fixture generator imports this module from MindSpore's own environment.

sources.json beside this file records, for each package, the released wheel (name, version, sha256), its
licence and home, the framework its code is written for ("mindspore", the default, or "mxnet") and the files
of it the suite uses; entries are keyed by ``id`` (the name unless two versions of one package are listed,
as MXNet 1.9.1 and 2.0.0b1 are). ``wheel(id)`` downloads the wheel with ``pip download --no-deps`` into a
cache outside the repository (``$CELLONNX_PORTS_CACHE``, by default ``~/.cache/cellonnx-ports``) and checks
its sha256; ``extract(ids, dest)`` writes the listed files under ``dest`` (the top folder renamed to the
entry's ``import_root`` when it has one, so that two versions of a package import side by side), with an
empty ``__init__.py`` for every package folder whose own ``__init__.py`` is not listed (a package's
``__init__`` usually imports all of it, data loaders and downloaders included).

vendored.json lists public code that no wheel ships (MXNet's example/ folder), kept byte-for-byte under
``vendored/<entry's vendored folder>``: ``source(id)`` opens a wheel or such a folder behind the same two
calls (``namelist()``, ``read(member)``), each vendored file checked against its git blob id, so ``read``
and ``extract`` serve both alike.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "sources.json"
VENDORED = HERE / "vendored.json"
VENDORED_ROOT = HERE / "vendored"
CACHE_ENV = "CELLONNX_PORTS_CACHE"


class SourceError(RuntimeError):
    """A package of sources.json could not be downloaded, or is not the wheel the manifest names."""


def manifest() -> dict[str, dict[str, Any]]:
    """The packages of sources.json and vendored.json by id (their name unless the entry gives an id)."""
    entries = [p for path in (MANIFEST, VENDORED) for p in json.loads(path.read_text())["packages"]]
    return {p.get("id", p["name"]): p for p in entries}


def target(entry: dict[str, Any], member: str) -> str:
    """Where file ``member`` of the entry's wheel is written (its top folder renamed to ``import_root``)."""
    root = entry.get("import_root")
    if not root:
        return member
    return root + member[member.index("/"):] if "/" in member else member


def cache_dir() -> Path:
    """Where wheels are kept between runs: ``$CELLONNX_PORTS_CACHE`` or ``~/.cache/cellonnx-ports``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "cellonnx-ports")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel(key: str) -> Path:
    """The verified wheel of package ``key`` (an id of sources.json; downloaded on first use).

    Raises:
        SourceError: pip could not download it, or its sha256 is not the manifest's.
    """
    entry = manifest()[key]
    name = entry["name"]
    folder = cache_dir() / f"{name}-{entry['version']}"
    path = folder / entry["wheel"]
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        # into a folder of this process's own, then renamed: parallel test workers may download at once
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
                   "--disable-pip-version-check", "-d", tmp, f"{name}=={entry['version']}"]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode == 0 and (Path(tmp) / entry["wheel"]).is_file():
                os.replace(Path(tmp) / entry["wheel"], path)
        if not path.is_file():
            raise SourceError(
                f"porting suite: could not download {name}=={entry['version']} ({entry['wheel']}) from PyPI "
                f"with `{' '.join(cmd)}` (exit {done.returncode}); the port tests read public model code "
                f"from this wheel and need PyPI, or a cache holding it ({CACHE_ENV}={folder.parent}).\n"
                f"{done.stderr.strip()[-2000:]}")
    got = sha256(path)
    if got != entry["sha256"]:
        raise SourceError(f"porting suite: {path} has sha256 {got}, sources.json expects {entry['sha256']} "
                          f"for {name}=={entry['version']}; delete the file to download it again")
    return path


def git_blob_id(data: bytes) -> str:
    """The id git gives a file's bytes (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class Vendored:
    """A vendored entry's folder, read as a wheel is: ``namelist()`` (the entry's files) and ``read(member)``
    (the file's bytes, refused unless their git blob id is the one vendored.json records)."""

    def __init__(self, entry: dict[str, Any]) -> None:
        self.entry = entry
        self.folder = VENDORED_ROOT / entry["vendored"]

    def __enter__(self) -> Vendored:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def namelist(self) -> list[str]:
        return list(self.entry["files"])

    def read(self, member: str) -> bytes:
        path = self.folder / member
        if member not in self.entry["blobs"] or not path.is_file():
            raise SourceError(f"porting suite: {member} is not a vendored file of {self.entry['name']} "
                              f"(vendored.json lists {sorted(self.entry['blobs'])} under {self.folder})")
        data = path.read_bytes()
        got, want = git_blob_id(data), self.entry["blobs"][member]
        if got != want:
            raise SourceError(f"porting suite: {path} has git blob id {got}, vendored.json expects {want} "
                              f"({self.entry['repository']} {self.entry['tag']}:{member}); vendored files "
                              "are kept byte-for-byte")
        return data


def source(key: str) -> zipfile.ZipFile | Vendored:
    """Package ``key``'s files: its verified wheel, or its vendored folder (both with ``namelist()`` and
    ``read(member)``; use as a context manager)."""
    entry = manifest()[key]
    return Vendored(entry) if "vendored" in entry else zipfile.ZipFile(wheel(key))


def read(key: str, member: str) -> str:
    """The text of file ``member`` (a path inside the wheel or the repository) of package ``key``."""
    with source(key) as src:
        return src.read(member).decode("utf-8")


def extract(keys: list[str], dest: Path, transform: Any = None) -> list[Path]:
    """Write the listed files of packages ``keys`` under ``dest`` (``transform(entry, member, text)`` may
    rewrite each one first) and stub ``__init__.py`` files for the folders in between; returns the written
    files."""
    written = []
    for key in keys:
        entry = manifest()[key]
        members = entry["files"]
        with source(key) as src:
            for member in members:
                text = src.read(member).decode("utf-8")
                path = dest / target(entry, member)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(transform(entry, member, text) if transform else text)
                written.append(path)
        for member in members:
            folder = (dest / target(entry, member)).parent
            while folder != dest:
                init = folder / "__init__.py"
                if not init.exists():
                    init.write_text('"""Stub: this package\'s own __init__ is not part of the port."""\n')
                folder = folder.parent
    return written
