"""The documentation site builds with warnings as errors (a broken reference, a docstring that is not valid
reStructuredText, a guide that links nowhere all fail), from the checkout as it stands."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_site_builds_without_warnings(tmp_path: Path) -> None:
    pytest.importorskip("sphinx", reason="the docs extra is not installed")
    pytest.importorskip("furo", reason="the docs extra is not installed")
    pytest.importorskip("myst_parser", reason="the docs extra is not installed")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(tmp_path / "doctrees"), str(ROOT / "docs"), str(tmp_path / "html")],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-6000:]
    html = tmp_path / "html"
    for page in ("index.html", "api/nn.html", "api/ops.html", "guides/getting-started.html",
                 "benchmarks.html"):
        assert (html / page).stat().st_size > 2000, page
    # the benchmark page is bench/RESULTS.md as it stands
    first_heading = next(line for line in (ROOT / "bench" / "RESULTS.md").read_text().splitlines()
                         if line.startswith("## "))[3:]
    assert first_heading.split("`")[0].strip() in (html / "benchmarks.html").read_text()
