"""Port MindSpore code to cellonnx by rewriting its import statements, and prove nothing else changed.

``port_source(text)`` rewrites ``mindspore`` to ``cellonnx`` in import statements only, wherever they stand
(module level, in functions, in try blocks; multi-line imports included), keeping every line where it was:

    import mindspore                      ->  import cellonnx as mindspore
    import mindspore as ms                ->  import cellonnx as ms
    import mindspore.nn as nn             ->  import cellonnx.nn as nn
    import mindspore.ops.operations       ->  import cellonnx.ops.operations, cellonnx as mindspore
    from mindspore import nn, ops         ->  from cellonnx import nn, ops
    from mindspore.common.initializer import (Normal,
        initializer)                      ->  from cellonnx.common.initializer import (Normal,
                                                  initializer)

Each statement binds the names it bound before to the matching cellonnx objects. Relative imports and
imports of the package itself are left as they are, so they resolve against the ported package.

``check_port(original, ported)`` then refuses (PortError) unless the token streams of the two files are
equal outside import statements, each import statement binds the same names from the same modules (up to
``mindspore`` -> ``cellonnx``), and the line count is unchanged. ``port_tree`` ports the files of a package
into a directory (the porting suite writes them to a temporary directory and imports them from there).
"""
from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

OLD, NEW = "mindspore", "cellonnx"


class PortError(ValueError):
    """A port changed something other than the module names of import statements."""


def _is_old(module: str | None) -> bool:
    return module is not None and (module == OLD or module.startswith(OLD + "."))


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _offsets(text: str) -> list[int]:
    """The character offset of each line's start (1-based line numbers index it directly)."""
    starts = [0, 0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _tokens_of(segment: str) -> list[tokenize.TokenInfo]:
    return [t for t in tokenize.generate_tokens(io.StringIO(segment).readline)
            if t.type in (tokenize.NAME, tokenize.OP)]


def _rewrite_import(segment: str, node: ast.Import | ast.ImportFrom) -> str:
    """``segment`` (the statement's source text) with ``mindspore`` replaced by ``cellonnx`` where it is the
    first part of a module name; an ``import mindspore[.x]`` without ``as`` also binds ``mindspore``."""
    line_starts = _offsets(segment)
    toks = _tokens_of(segment)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in segment offsets

    def at(tok: tokenize.TokenInfo) -> tuple[int, int]:
        (r0, c0), (r1, c1) = tok.start, tok.end
        return line_starts[r0] + c0, line_starts[r1] + c1

    if isinstance(node, ast.ImportFrom):
        # `from` NAME ('.' NAME)* ...: the module is the first NAME after `from` when level is 0
        if node.level == 0 and _is_old(node.module):
            first = toks[1]
            assert first.string == OLD, segment
            start, end = at(first)
            edits.append((start, end, NEW))
    else:
        i = 1  # after `import`
        for alias in node.names:
            # alias: NAME ('.' NAME)* ['as' NAME], then ',' or the end
            j = i
            while j < len(toks) and not (toks[j].type == tokenize.OP and toks[j].string == ","):
                j += 1
            part = toks[i:j]
            if _is_old(alias.name):
                start, end = at(part[0])
                edits.append((start, end, NEW))
                if alias.asname is None:
                    tail = at(part[-1])[1]
                    bind = f" as {OLD}" if alias.name == OLD else f", {NEW} as {OLD}"
                    edits.append((tail, tail, bind))
            i = j + 1
    for start, end, new in sorted(edits, reverse=True):
        segment = segment[:start] + new + segment[end:]
    return segment


def port_source(text: str) -> str:
    """``text`` with its import statements naming ``mindspore`` rewritten to ``cellonnx``."""
    tree = ast.parse(text)
    starts = _offsets(text)
    nodes = sorted((n for n in _imports(tree) if _names_old(n)),
                   key=lambda n: (n.lineno, n.col_offset), reverse=True)
    for node in nodes:
        a = starts[node.lineno] + node.col_offset
        b = starts[node.end_lineno] + node.end_col_offset
        text = text[:a] + _rewrite_import(text[a:b], node) + text[b:]
    return text


def _names_old(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and _is_old(node.module)
    return any(_is_old(a.name) for a in node.names)


def _bindings(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
    """(bound name, what it is bound to) for one import statement."""
    if isinstance(node, ast.ImportFrom):
        module = "." * node.level + (node.module or "")
        return sorted((a.asname or a.name, f"{module}:{a.name}") for a in node.names)
    out = []
    for a in node.names:
        if a.asname:
            out.append((a.asname, a.name))
        else:
            top = a.name.split(".")[0]
            out.append((top, top))
    return sorted(set(out))


def _outside_imports(text: str, tree: ast.AST) -> list[tuple[int, str]]:
    """The tokens of ``text`` (type, string; comments included) that are not inside an import statement."""
    spans = [((n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset)) for n in _imports(tree)]
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if any(a <= tok.start and tok.end <= b for a, b in spans):
            continue
        out.append((tok.type, tok.string))
    return out


def check_port(original: str, ported: str, where: str = "<source>") -> None:
    """Refuse a port that changed anything but the ``mindspore`` module names of import statements.

    Raises:
        PortError: naming the file, the line and what differs.
    """
    if original.count("\n") != ported.count("\n"):
        raise PortError(f"{where}: the port has {ported.count(chr(10))} lines, the original "
                        f"{original.count(chr(10))}")
    tree_a, tree_b = ast.parse(original), ast.parse(ported)
    imports_a, imports_b = _imports(tree_a), _imports(tree_b)
    if len(imports_a) != len(imports_b):
        raise PortError(f"{where}: {len(imports_b)} import statements after the port, "
                        f"{len(imports_a)} before")
    for a, b in zip(imports_a, imports_b):
        if (a.lineno, type(a)) != (b.lineno, type(b)):
            raise PortError(f"{where}:{a.lineno}: an import statement moved or changed kind")
        back = [(name, target.replace(NEW, OLD, 1) if target.startswith(NEW) else target)
                for name, target in _bindings(b) if not (name == NEW and target == NEW)]
        if back != _bindings(a):
            raise PortError(f"{where}:{a.lineno}: the import binds {_bindings(b)} after the port, "
                            f"{_bindings(a)} before")
        if _names_old(b):
            raise PortError(f"{where}:{b.lineno}: the ported import still names {OLD}")
    rest_a, rest_b = _outside_imports(original, tree_a), _outside_imports(ported, tree_b)
    if rest_a != rest_b:
        index = next((i for i, (x, y) in enumerate(zip(rest_a, rest_b)) if x != y), min(len(rest_a),
                                                                                        len(rest_b)))
        got = rest_b[index][1] if index < len(rest_b) else "<end>"
        want = rest_a[index][1] if index < len(rest_a) else "<end>"
        raise PortError(f"{where}: the code outside import statements changed at token {index}: "
                        f"{got!r} where the original has {want!r}")


def port_file(original: str, where: str = "<source>") -> str:
    """The checked port of one file's text."""
    ported = port_source(original)
    check_port(original, ported, where)
    return ported


def port_tree(files: dict[str, str], dest: Path) -> list[Path]:
    """Port ``{relative path: text}`` into ``dest``: Python files ported and checked, others copied."""
    written = []
    for rel, text in files.items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(port_file(text, rel) if rel.endswith(".py") else text)
        written.append(target)
    return written


def main(argv: list[str]) -> int:
    """``python tests/ports/port.py FILE...``: print each file's port (checked) to standard output."""
    for path in argv:
        sys.stdout.write(port_file(Path(path).read_text(), path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
