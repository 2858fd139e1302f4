"""Sphinx configuration for the cellonnx documentation (``sphinx-build -W -b html docs docs/_build/html``)."""
from __future__ import annotations

import cellonnx

project = "cellonnx"
author = "the cellonnx authors"
copyright = "2026, the cellonnx authors"
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
# signatures as MindSpore's reference shows them (names and defaults); the annotations go into the
# parameter descriptions, where a long ``Callable[[Any], Any]`` does not push the signature over three lines
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
# members are named per directive (``:members:`` for all): Sphinx 9 lets a default "members" override a
# directive's own list (``:members: construct, set_train``), so the default would undo every chosen subset
autodoc_default_options = {"show-inheritance": False}
# the signatures as written (``dtype=mstype.float32``), not the repr of the default object
autodoc_preserve_defaults = True

html_theme = "furo"
# the page's table of contents lists its sections, not every method of every class (Cell alone has 60)
toc_object_entries = False
html_title = f"cellonnx {release}"
html_static_path = ["_static"]
html_css_files = ["cellonnx.css"]


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


def _first_line(obj: object) -> str:
    """The docstring's summary line as plain text (reST roles and literals unwrapped, never parsed)."""
    import inspect
    import re

    doc = inspect.getdoc(obj) or ""
    line = doc.strip().split("\n\n", 1)[0].replace("\n", " ").replace("``", "")
    return re.sub(r":\w+:`~?([^`]*)`", r"\1", line)  # :func:`addn` -> addn


def _signature(obj: object) -> str:
    import inspect

    if not callable(obj):
        return ""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    # annotations make the table unreadable; the names and defaults are what a porting user looks for
    plain = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=plain, return_annotation=inspect.Signature.empty))


def _names_table(module_name: str, skip: tuple[str, ...] = ()) -> list:
    """A table of a namespace's public names: name and signature, and the docstring's first line.

    The MindSpore and MXNet namespaces hold thousands of names that mirror those frameworks' own references;
    a table keeps the build fast (full autodoc of every name takes minutes) while listing everything."""
    import importlib

    from docutils import nodes

    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    table = nodes.table(classes=["cellonnx-names"])
    group = nodes.tgroup(cols=2)
    table += group
    group += nodes.colspec(colwidth=40)
    group += nodes.colspec(colwidth=60)
    body = nodes.tbody()
    group += body
    for name in sorted({n for n in names if not n.startswith("_")} - set(skip), key=str.lower):
        obj = getattr(module, name, None)
        if obj is None or isinstance(obj, type(importlib)):
            continue
        row = nodes.row()
        row += nodes.entry("", nodes.paragraph("", "", nodes.literal(text=f"{name}{_signature(obj)}")))
        row += nodes.entry("", nodes.paragraph("", "", *_summary(obj)))
        body += row
    return [table]


def _summary(obj: object) -> list:
    """The table's description of ``obj``: a constant's value (a float's own docstring describes ``float``,
    not ``pi``), else the docstring's first line."""
    from docutils import nodes

    if isinstance(obj, (bool, int, float, complex, str)) and not callable(obj):
        return [nodes.Text("constant "), nodes.literal(text=repr(obj))]
    return [nodes.Text(_first_line(obj))]


def setup(app: object) -> dict:
    from docutils.parsers.rst import Directive, directives

    class NamesTable(Directive):
        required_arguments = 1
        option_spec = {"skip": directives.unchanged}  # noqa: RUF012 (docutils reads a class dict)

        def run(self) -> list:
            return _names_table(self.arguments[0], tuple(self.options.get("skip", "").split()))

    app.add_directive("cellonnx-names", NamesTable)

    class CliHelp(Directive):
        def run(self) -> list:
            return _cli_help_nodes()

    app.add_directive("cellonnx-help", CliHelp)
    return {"parallel_read_safe": True}
