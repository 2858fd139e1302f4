"""Port MindSpore or MXNet code to cellonnx by rewriting its import statements, and prove nothing else
changed.

A ``Rule`` names the framework's package and cellonnx's counterpart: ``MINDSPORE`` (``mindspore`` ->
``cellonnx``, the default) or ``MXNET`` (``mxnet`` -> ``cellonnx.mxnet``). ``port_source(text, rule)``
rewrites the framework's package to cellonnx's in import statements only, wherever they stand (module level,
in functions, in try blocks; multi-line imports included), keeping every line where it was:

    import mindspore                      ->  import cellonnx as mindspore
    import mindspore as ms                ->  import cellonnx as ms
    import mindspore.nn as nn             ->  import cellonnx.nn as nn
    import mindspore.ops.operations       ->  import cellonnx.ops.operations, cellonnx as mindspore
    from mindspore import nn, ops         ->  from cellonnx import nn, ops
    from mindspore.common.initializer import (Normal,
        initializer)                      ->  from cellonnx.common.initializer import (Normal,
                                                  initializer)

    import mxnet as mx                    ->  import cellonnx.mxnet as mx
    import mxnet.gluon.nn as nn           ->  import cellonnx.mxnet.gluon.nn as nn
    from mxnet.gluon import nn            ->  from cellonnx.mxnet.gluon import nn

Each statement binds the names it bound before to the matching cellonnx objects. Imports of the ported
package itself are left as they are, and so are relative imports, with one exception: a file of the
framework's own tree (MXNet's model zoo: ``module`` names it, ``mxnet.gluon.model_zoo.vision.resnet``) whose
relative import reaches a module of the framework that is not among the ported files (``from ....context
import cpu`` is ``mxnet.context``) gets that module's absolute cellonnx name (``from cellonnx.mxnet.context
import cpu``): the same module, as the framework resolves it.

``check_port(original, ported)`` then refuses (PortError) unless the token streams of the two files are equal
outside import statements, each import statement binds the same names from the same modules (up to the rule's
rewrite, relative imports resolved), and the line count is unchanged. ``port_tree`` ports the files of a
package into a directory (the porting suite writes them to a temporary directory and imports them from there).
"""
from __future__ import annotations

import ast
import functools
import io
import sys
import tokenize
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Rule:
    """What a port rewrites: the framework's top package ``old`` to cellonnx's ``new``; ``module`` is the
    ported file's dotted name inside the framework's own tree (for its relative imports) and ``local`` the
    dotted names of the files ported with it."""

    old: str
    new: str
    module: str | None = None
    is_package: bool = False
    local: frozenset[str] = field(default_factory=frozenset)

    def within(self, module: str | None) -> bool:
        return module is not None and (module == self.old or module.startswith(self.old + "."))

    def resolve(self, node: ast.ImportFrom) -> str | None:
        """The absolute module a relative import names, from ``module`` (None if unknown)."""
        if not node.level or self.module is None:
            return None
        parts = self.module.split(".")
        base = parts if self.is_package else parts[:-1]
        if node.level - 1 > len(base) - 1:
            return None
        base = base[:len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))

    def reaches_out(self, node: ast.ImportFrom) -> str | None:
        """The absolute module of a relative import into the framework outside the ported files, or None."""
        target = self.resolve(node)
        if target is None or not self.within(target) or target in self.local:
            return None
        return target


MINDSPORE = Rule("mindspore", "cellonnx")
MXNET = Rule("mxnet", "cellonnx.mxnet")
RULES = {"mindspore": MINDSPORE, "mxnet": MXNET}
OLD, NEW = MINDSPORE.old, MINDSPORE.new


class PortError(ValueError):
    """A port changed something other than the module names of import statements."""


def _is_old(module: str | None, rule: Rule = MINDSPORE) -> bool:
    return rule.within(module)


# statements nest only in statements, except handlers and match cases: the walk skips expressions
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` in ``ast.walk``'s order (breadth first)."""
    out, todo = [], deque([tree])
    while todo:
        node = todo.popleft()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _HOLDS_STATEMENTS))
    return out


def _offsets(text: str) -> list[int]:
    """The character offset of each line's start (1-based line numbers index it directly)."""
    starts = [0, 0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _tokens_of(segment: str) -> list[tokenize.TokenInfo]:
    return [t for t in tokenize.generate_tokens(io.StringIO(segment).readline)
            if t.type in (tokenize.NAME, tokenize.OP)]


def _rewrite_import(segment: str, node: ast.Import | ast.ImportFrom, rule: Rule = MINDSPORE) -> str:
    """``segment`` (the statement's source text) with the rule's package replaced where it is the first part
    of a module name (an ``import old[.x]`` without ``as`` also binds ``old``), or a relative module reaching
    out of the ported files replaced by its absolute cellonnx name."""
    line_starts = _offsets(segment)
    toks = _tokens_of(segment)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in segment offsets

    def at(tok: tokenize.TokenInfo) -> tuple[int, int]:
        (r0, c0), (r1, c1) = tok.start, tok.end
        return line_starts[r0] + c0, line_starts[r1] + c1

    if isinstance(node, ast.ImportFrom):
        target = rule.reaches_out(node)
        if target is not None:
            # `from` ('.')* [NAME ('.' NAME)*] `import`: replace everything between the two keywords
            end = next(i for i, t in enumerate(toks) if t.type == tokenize.NAME and t.string == "import")
            start_tok, last_tok = toks[1], toks[end - 1]
            edits.append((at(start_tok)[0], at(last_tok)[1], rule.new + target[len(rule.old):]))
        elif node.level == 0 and _is_old(node.module, rule):
            # `from` NAME ('.' NAME)* ...: the module is the first NAME after `from` when level is 0
            first = toks[1]
            assert first.string == rule.old.split(".")[0] or first.string == rule.old, segment
            start, end = at(first)
            edits.append((start, end, rule.new))
    else:
        i = 1  # after `import`
        for alias in node.names:
            # alias: NAME ('.' NAME)* ['as' NAME], then ',' or the end
            j = i
            while j < len(toks) and not (toks[j].type == tokenize.OP and toks[j].string == ","):
                j += 1
            part = toks[i:j]
            if _is_old(alias.name, rule):
                start, end = at(part[0])
                edits.append((start, end, rule.new))
                if alias.asname is None:
                    tail = at(part[-1])[1]
                    bind = f" as {rule.old}" if alias.name == rule.old else f", {rule.new} as {rule.old}"
                    edits.append((tail, tail, bind))
            i = j + 1
    for start, end, new in sorted(edits, reverse=True):
        segment = segment[:start] + new + segment[end:]
    return segment


def port_source(text: str, rule: Rule = MINDSPORE, tree: ast.AST | None = None) -> str:
    """``text`` with its import statements naming the rule's package rewritten to cellonnx's (``tree``:
    ``text`` already parsed)."""
    tree = tree or ast.parse(text)
    starts = _offsets(text)
    nodes = sorted((n for n in _imports(tree) if _names_old(n, rule)),
                   key=lambda n: (n.lineno, n.col_offset), reverse=True)
    for node in nodes:
        a = starts[node.lineno] + node.col_offset
        b = starts[node.end_lineno] + node.end_col_offset
        text = text[:a] + _rewrite_import(text[a:b], node, rule) + text[b:]
    return text


def _names_old(node: ast.Import | ast.ImportFrom, rule: Rule = MINDSPORE) -> bool:
    if isinstance(node, ast.ImportFrom):
        return (node.level == 0 and _is_old(node.module, rule)) or rule.reaches_out(node) is not None
    return any(_is_old(a.name, rule) for a in node.names)


def _bindings(node: ast.Import | ast.ImportFrom, rule: Rule = MINDSPORE) -> list[tuple[str, str]]:
    """(bound name, what it is bound to) for one import statement; relative modules resolved when the rule
    knows the file's place in the framework's tree."""
    if isinstance(node, ast.ImportFrom):
        module = rule.resolve(node) or "." * node.level + (node.module or "")
        return sorted((a.asname or a.name, f"{module}:{a.name}") for a in node.names)
    out = []
    for a in node.names:
        if a.asname:
            out.append((a.asname, a.name))
        else:
            top = a.name.split(".")[0]
            out.append((top, top))
    return sorted(set(out))


def _back(target: str, rule: Rule) -> str:
    """A ported binding's target in the framework's names (``cellonnx.mxnet.context:cpu`` ->
    ``mxnet.context:cpu``)."""
    if target == rule.new or target.startswith((rule.new + ".", rule.new + ":")):
        return rule.old + target[len(rule.new):]
    return target


def _outside_imports(text: str, imports: list[ast.Import | ast.ImportFrom]) -> list[tuple[int, str]]:
    """The tokens of ``text`` (type, string; comments included) that are not inside one of its import
    statements ``imports``."""
    # import statements never nest: in source order, a token is inside the first span not yet behind it
    spans = sorted(((n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset)) for n in imports)
    out, i = [], 0
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        while i < len(spans) and spans[i][1] < tok.end:
            i += 1
        if i < len(spans) and spans[i][0] <= tok.start:
            continue
        out.append((tok.type, tok.string))
    return out


def _outside_text(text: str, imports: list[ast.Import | ast.ImportFrom]) -> list[bytes]:
    """The UTF-8 text of ``text`` between its import statements ``imports`` (whose columns are byte
    offsets)."""
    data = text.encode()
    starts = [0, 0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = sorted((starts[n.lineno] + n.col_offset, starts[n.end_lineno] + n.end_col_offset)
                   for n in imports)
    out, pos = [], 0
    for a, b in spans:
        out.append(data[pos:a])
        pos = b
    return [*out, data[pos:]]


def check_port(original: str, ported: str, where: str = "<source>", rule: Rule = MINDSPORE,
               trees: tuple[ast.AST, ast.AST] | None = None) -> None:
    """Refuse a port that changed anything but the framework's module names of import statements
    (``trees``: the two texts already parsed).

    Raises:
        PortError: naming the file, the line and what differs.
    """
    if original.count("\n") != ported.count("\n"):
        raise PortError(f"{where}: the port has {ported.count(chr(10))} lines, the original "
                        f"{original.count(chr(10))}")
    if trees is None:
        tree_a = ast.parse(original)
        tree_b = tree_a if ported == original else ast.parse(ported)
    else:
        tree_a, tree_b = trees
    imports_a, imports_b = _imports(tree_a), _imports(tree_b)
    if len(imports_a) != len(imports_b):
        raise PortError(f"{where}: {len(imports_b)} import statements after the port, "
                        f"{len(imports_a)} before")
    top = rule.new.split(".")[0]
    for a, b in zip(imports_a, imports_b):
        if (a.lineno, type(a)) != (b.lineno, type(b)):
            raise PortError(f"{where}:{a.lineno}: an import statement moved or changed kind")
        back = sorted((name, _back(target, rule)) for name, target in _bindings(b, rule)
                      if not (name == top and target == top))
        if back != _bindings(a, rule):
            raise PortError(f"{where}:{a.lineno}: the import binds {_bindings(b, rule)} after the port, "
                            f"{_bindings(a, rule)} before")
        if _names_old(b, rule):
            raise PortError(f"{where}:{b.lineno}: the ported import still names {rule.old}")
    if ported == original:  # the same text: the same tokens outside its import statements
        return
    if "\r" not in original + ported and \
            _outside_text(original, imports_a) == _outside_text(ported, imports_b):
        # the same text around the same number of import statements, each a whole balanced statement: the
        # tokenizer leaves each span in the state it entered it, so the tokens outside are the same
        return
    rest_a, rest_b = _outside_imports(original, imports_a), _outside_imports(ported, imports_b)
    if rest_a != rest_b:
        index = next((i for i, (x, y) in enumerate(zip(rest_a, rest_b)) if x != y), min(len(rest_a),
                                                                                        len(rest_b)))
        got = rest_b[index][1] if index < len(rest_b) else "<end>"
        want = rest_a[index][1] if index < len(rest_a) else "<end>"
        raise PortError(f"{where}: the code outside import statements changed at token {index}: "
                        f"{got!r} where the original has {want!r}")


def port_file(original: str, where: str = "<source>", rule: Rule = MINDSPORE) -> str:
    """The checked port of one file's text."""
    return port_parsed(original, where, rule)[0]


def port_parsed(original: str, where: str = "<source>", rule: Rule = MINDSPORE) -> tuple[str, ast.AST]:
    """The checked port of one file's text and its syntax tree (each text parsed once)."""
    tree = ast.parse(original)
    ported = port_source(original, rule, tree)
    ported_tree = tree if ported == original else ast.parse(ported)
    check_port(original, ported, where, rule, (tree, ported_tree))
    return ported, ported_tree


def module_name(member: str) -> tuple[str, bool]:
    """(dotted module name, is a package) of a file path inside a wheel (``mxnet/gluon/__init__.py`` ->
    ``mxnet.gluon``, True)."""
    parts = member[:-3].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def rule_for(framework: str, member: str | None = None, members: list[str] | tuple[str, ...] = ()) -> Rule:
    """The rule porting file ``member`` of a wheel of ``framework`` code shipped with ``members``."""
    base = RULES[framework]
    if member is None:
        return base
    module, is_package = module_name(member)
    return Rule(base.old, base.new, module, is_package, _modules(tuple(members)))


@functools.lru_cache(maxsize=16)
def _modules(members: tuple[str, ...]) -> frozenset[str]:
    """The dotted modules of a wheel's files (each file of a wheel is ported with the same list)."""
    return frozenset(module_name(m)[0] for m in members if m.endswith(".py"))


def port_tree(files: dict[str, str], dest: Path, rule: Rule = MINDSPORE) -> list[Path]:
    """Port ``{relative path: text}`` into ``dest``: Python files ported and checked, others copied."""
    from cellonnx.progress import track

    written = []
    for rel, text in track(files.items(), f"porting to {dest.name}", total=len(files), unit="file"):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(port_file(text, rel, rule_for(rule.old, rel, tuple(files)) if rule.old == "mxnet"
                                    else rule) if rel.endswith(".py") else text)
        written.append(target)
    return written


def main(argv: list[str]) -> int:
    """``python tests/ports/port.py [--mxnet] FILE...``: print each file's port (checked) to standard output
    (MindSpore's rule unless --mxnet)."""
    from cellonnx.progress import track

    rule = MXNET if argv and argv[0] == "--mxnet" else MINDSPORE
    for path in track(argv[1:] if rule is MXNET else argv, "porting", unit="file"):
        sys.stdout.write(port_file(Path(path).read_text(), path, rule))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
