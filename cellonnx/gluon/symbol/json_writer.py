"""symbol.json text laid out byte for byte as MXNet 1.9.1 writes it (dmlc's JSONWriter under nnvm's graph
saver): a multi-line scope puts each item on its own line, indented two spaces per open scope, items end with
", "; node lists are multi-line, arrays of numbers or input entries only past 10 items, attribute maps past
one key; strings escape only quote, backslash, newline, carriage return and tab."""
from __future__ import annotations

from typing import Any

__all__ = ["dumps_graph"]

_ESCAPES = {"\r": "\\r", "\n": "\\n", "\\": "\\\\", "\t": "\\t", '"': '\\"'}


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.scopes: list[bool] = []
        self.counts: list[int] = []

    def _sep(self) -> None:
        if not self.scopes or self.scopes[-1]:
            self.parts.append("\n" + " " * (2 * len(self.scopes)))

    def _begin(self, char: str, multi: bool) -> None:
        self.parts.append(char)
        self.scopes.append(multi)
        self.counts.append(0)

    def _end(self, char: str) -> None:
        count, multi = self.counts.pop(), self.scopes.pop()
        if multi and count:
            self._sep()
        self.parts.append(char)

    def _item(self) -> None:
        if self.counts[-1]:
            self.parts.append(", ")
        self._sep()
        self.counts[-1] += 1

    def string(self, s: str) -> None:
        self.parts.append('"' + "".join(_ESCAPES.get(c, c) for c in s) + '"')

    def value(self, v: Any) -> None:
        if isinstance(v, str):
            self.string(v)
        elif isinstance(v, bool):
            self.parts.append("true" if v else "false")
        else:
            self.parts.append(str(v))

    def array(self, items: list[Any], multi: bool, write: Any = None) -> None:
        self._begin("[", multi)
        for item in items:
            self._item()
            (write or self.value)(item)
        self._end("]")

    def obj(self, pairs: list[tuple[str, Any]], multi: bool) -> None:
        self._begin("{", multi)
        for key, write in pairs:
            self._item()
            self.string(key)
            self.parts.append(": ")
            write()
        self._end("}")


def dumps_graph(doc: dict[str, Any]) -> str:
    """``doc`` (nodes, arg_nodes, node_row_ptr, heads, attrs as ``tojson`` builds them; a fused operator's
    node may hold ``subgraphs``, documents of the same kind) as MXNet's text."""
    w = _Writer()
    _graph(w, doc)
    return "".join(w.parts)


def _graph(w: _Writer, doc: dict[str, Any]) -> None:

    def entry(e: list[int]) -> None:
        w.array(list(e), False)

    def numbers(key: str) -> Any:
        return lambda: w.array(doc[key], len(doc[key]) > 10)

    def str_map(m: dict[str, Any]) -> Any:
        return lambda: w.obj([(k, (lambda v=v: w.value(v))) for k, v in m.items()], len(m) > 1)

    def node(n: dict[str, Any]) -> None:
        pairs: list[tuple[str, Any]] = [("op", lambda: w.string(n["op"])),
                                        ("name", lambda: w.string(n["name"]))]
        if "attrs" in n:
            pairs.append(("attrs", str_map(n["attrs"])))
        pairs.append(("inputs", lambda: w.array(n["inputs"], len(n["inputs"]) > 10, entry)))
        if n.get("subgraphs"):
            pairs.append(("subgraphs", lambda: w.array(n["subgraphs"], True, lambda g: _graph(w, g))))
        w.obj(pairs, True)

    def graph_attrs() -> None:
        attrs = doc["attrs"]
        w.obj([(k, (lambda v=v: w.array(list(v), False))) for k, v in attrs.items()], len(attrs) > 1)

    pairs = [("nodes", lambda: w.array(doc["nodes"], True, node)), ("arg_nodes", numbers("arg_nodes")),
             ("node_row_ptr", numbers("node_row_ptr")),
             ("heads", lambda: w.array(doc["heads"], len(doc["heads"]) > 10, entry))]
    if doc.get("attrs"):
        pairs.append(("attrs", graph_attrs))
    w.obj(pairs, True)
