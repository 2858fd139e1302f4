"""ValueType and ScopedValue: the names and constants a rewrite Node reads and writes."""
from __future__ import annotations

import ast
from enum import Enum
from typing import Any

__all__ = ["ScopedValue", "ValueType"]


class ValueType(Enum):
    """ValueType represents type of `ScopedValue`.

    - A `NamingValue` represents a reference to another variable.
    - A `CustomObjValue` represents an instance of custom class or an object whose type is out of range of
      base-type and container-type of ValueType.

    Examples:
        >>> from cellonnx.rewrite import ValueType
        >>> print(ValueType.NamingValue.value)
        40
    """

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


def _check_str(what: str, value: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"For 'ScopedValue', the type of '{what}' should be str, but got "
                        f"{type(value).__name__}.")


class ScopedValue:
    """`ScopedValue` represents a value with its full-scope.

    It stands for a left value (the target of an assignment), a callable (the function of a call) or a right
    value (an argument of a call).

    Args:
        arg_type (ValueType): the kind of value.
        scope (str, optional): the scope of the value: in ``self.var1``, the scope of ``var1`` is ``"self"``.
            Default: ``""``.
        value: the value itself, of the kind `arg_type` names. Default: ``None``.

    Examples:
        >>> from cellonnx.rewrite import ScopedValue, ValueType
        >>> print(ScopedValue(ValueType.NamingValue, "self", "conv"))
        self.conv
    """

    def __init__(self, arg_type: ValueType, scope: str = "", value: Any = None) -> None:
        if not isinstance(arg_type, ValueType):
            raise TypeError(f"For 'ScopedValue', the type of 'arg_type' should be ValueType, but got "
                            f"{type(arg_type).__name__}.")
        _check_str("scope", scope)
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value: Any) -> ScopedValue:
        """Create `ScopedValue` from a variable; its type follows the type of `value`, its scope is empty.

        Args:
            value: the value to convert (containers are converted element by element).

        Returns:
            An instance of `ScopedValue`.

        Examples:
            >>> from cellonnx.rewrite import ScopedValue
            >>> print(ScopedValue.create_variable_value(2))
            2
        """
        if value is None or isinstance(value, (int, float, str, bool)):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(v) for v in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(v) for v in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {cls.create_variable_value(k): cls.create_variable_value(v)
                                                 for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> ScopedValue:
        """Create a naming `ScopedValue`: a reference to another variable.

        Args:
            name (str): the identifier of the variable.
            scope (str, optional): the scope of the variable. Default: ``""``.

        Returns:
            An instance of `ScopedValue`.

        Raises:
            TypeError: If `name` or `scope` is not a `str`.

        Examples:
            >>> from cellonnx.rewrite import ScopedValue
            >>> print(ScopedValue.create_naming_value("conv", "self"))
            self.conv
        """
        _check_str("name", name)
        _check_str("scope", scope)
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names: list[str] | tuple[str, ...],
                           scopes: list[str] | tuple[str, ...] | None = None) -> list[ScopedValue]:
        """Create a list of naming `ScopedValue`.

        Args:
            names (List[str] or Tuple[str]): the names of the referenced variables.
            scopes (List[str] or Tuple[str], optional): their scopes. Default: ``None``.

        Returns:
            A list of `ScopedValue`.

        Raises:
            TypeError: If `names` or `scopes` is not a list or tuple of `str`.
            ValueError: If `scopes` is given and its length differs from that of `names`.

        Examples:
            >>> from cellonnx.rewrite import ScopedValue
            >>> print(ScopedValue.create_name_values(names=["z", "z_1"], scopes=["self", "self"]))
            [self.z, self.z_1]
        """
        for what, seq in (("names", names), ("scopes", scopes)):
            if seq is None:
                continue
            if not isinstance(seq, (list, tuple)) or not all(isinstance(s, str) for s in seq):
                raise TypeError(f"For 'ScopedValue', '{what}' should be a list or tuple of str, but got "
                                f"{seq!r}.")
        if scopes is not None and len(names) != len(scopes):
            raise ValueError(f"For 'ScopedValue', the length of names ({len(names)}) should equal the length "
                             f"of scopes ({len(scopes)}).")
        return [ScopedValue.create_naming_value(n, scopes[i] if scopes is not None else "")
                for i, n in enumerate(names)]

    def __str__(self) -> str:
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        return f"Illegal ValueType: {self.type}"

    def __repr__(self) -> str:
        return str(self)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, ScopedValue):
            return False
        return self.type == other.type and self.scope == other.scope and self.value == other.value

    def __hash__(self) -> int:
        value = self.value
        if isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, dict):
            value = tuple(value.items())
        try:
            return hash((self.type, self.scope, value))
        except TypeError:
            return hash((self.type, self.scope, id(value)))


# ---------------------------------------------------------------- ast <-> ScopedValue
def from_ast(node: ast.AST) -> ScopedValue:
    """The ScopedValue an expression of construct reads: a name, ``scope.name``, a constant, or a tuple/list
    of these (whose names are kept as strings, as MindSpore keeps them); anything else is an UnsupportedValue
    holding the expression's source."""
    if isinstance(node, ast.Name):
        return ScopedValue.create_naming_value(node.id)
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name):
            return ScopedValue.create_naming_value(node.attr, node.value.id)
        return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(node))
    if isinstance(node, (ast.Tuple, ast.List)):
        items: list[Any] = []
        for elt in node.elts:
            if isinstance(elt, ast.Constant):
                items.append(elt.value)
            elif isinstance(elt, ast.Name):
                items.append(elt.id)
            elif isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name):
                items.append(f"{elt.value.id}.{elt.attr}")
            else:
                return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(node))
        return ScopedValue.create_variable_value(tuple(items))
    if isinstance(node, ast.Constant):
        return ScopedValue.create_variable_value(node.value)
    return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(node))


def to_ast(value: ScopedValue) -> ast.expr:
    """The expression that reads `value` in generated code."""
    if value.type == ValueType.NamingValue:
        return ast.parse(str(value), mode="eval").body
    if value.type == ValueType.ConstantValue:
        return ast.Constant(value=value.value)
    if value.type in (ValueType.TupleValue, ValueType.ListValue):
        elts = [to_ast(v) for v in value.value]
        if value.type == ValueType.TupleValue:
            return ast.Tuple(elts=elts, ctx=ast.Load())
        return ast.List(elts=elts, ctx=ast.Load())
    if value.type == ValueType.DictValue:
        return ast.Dict(keys=[to_ast(k) for k in value.value],
                        values=[to_ast(v) for v in value.value.values()])
    if value.type == ValueType.UnsupportedValue:
        return ast.parse(str(value.value), mode="eval").body
    raise TypeError(f"For rewrite, a {value.type} value ({value}) cannot be written as code; insert the node "
                    "into a SymbolTree first so that the object is stored on the network.")
