"""Constants of mx.contrib.text: the unknown token's index and the pre-trained embedding files MXNet 1.9.1
knows by name (pretrained_files.json, listed from MXNet's ``text._constants``)."""
from __future__ import annotations

import json
from pathlib import Path

UNKNOWN_IDX = 0

PRETRAINED_FILES: dict[str, list[str]] = json.loads(
    (Path(__file__).resolve().parent / "pretrained_files.json").read_text())
