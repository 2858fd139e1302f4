"""Sphinx configuration for the cellonnx documentation (``sphinx-build -W -b html docs docs/_build/html``)."""
from __future__ import annotations

import cellonnx

project = "cellonnx"
author = "the cellonnx authors"
copyright = "2026, the cellonnx authors"  # noqa: A001 (Sphinx's name)
version = release = cellonnx.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3

# Docstrings are written the MindSpore way: Google-style sections (Args, Returns, Raises, Examples) plus
# Shape, Inputs, Outputs and Supported Platforms.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_custom_sections = [("Inputs", "params_style"), ("Outputs", "returns_style"), "Shape",
                            "Supported Platforms"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}
# the signatures as written (``dtype=mstype.float32``), not the repr of the default object
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"cellonnx {release}"
html_static_path: list[str] = []


def _cli_help_nodes() -> list:
    """``cellonnx --help`` and every subcommand's ``--help``, as sections of literal blocks."""
    import os

    from docutils import nodes

    from cellonnx.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal width: one width for every build
    parser = build_parser()
    out = [nodes.literal_block(text=parser.format_help())]
    for name, sub in parser.commands.items():
        section = nodes.section(ids=[f"cellonnx-{name}"])
        section += nodes.title(text=f"cellonnx {name}")
        section += nodes.literal_block(text=sub.format_help())
        out.append(section)
    return out


def setup(app):  # noqa: ANN001, ANN201 (Sphinx's hook)
    from docutils.parsers.rst import Directive

    class CliHelp(Directive):
        def run(self) -> list:
            return _cli_help_nodes()

    app.add_directive("cellonnx-help", CliHelp)
    return {"parallel_read_safe": True}
