"""Containers: SequentialCell, CellList and CellDict, with MindSpore's naming of their children
("0", "1", ... or the dict keys) and of the parameters below them."""
from __future__ import annotations

from collections import OrderedDict, abc
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cellonnx.nn.cell import Cell

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["CellDict", "CellList", "SequentialCell"]


def _valid_index(n: int, index: Any, owner: str) -> int:
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"For '{owner}', the type of 'index' must be int, but got {type(index).__name__}.")
    if not -n <= index < n:
        raise IndexError(f"For '{owner}', the value of 'index' must be a number in range [{-n}, {n}), but got "
                         f"{index}.")
    return index % n


def _valid_insert_index(n: int, index: Any, owner: str) -> int:
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"For '{owner}', the type of 'index' must be int, but got {type(index).__name__}.")
    if not -n <= index <= n:
        raise IndexError(f"For '{owner}', the value of 'index' must be a number in range [{-n}, {n}], but got "
                         f"{index}.")
    return index % n if n and index != n else index


def _check_cell(cell: Any, owner: str) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{owner}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


def _prefix_and_depth(cells: OrderedDict) -> tuple[str, int]:
    """The name prefix the container's children carry (``"backbone.layers."``) and the position of the child
    key among the dot-separated parts, read from the names of the children's parameters: a container that
    was already assigned into a network names later children the same way."""
    first = second = None
    for key, cell in cells.items():
        try:
            _, p = next(cell.parameters_and_names())
        except StopIteration:
            continue
        if first is None:
            first = (key, p)
        else:
            second = (key, p)
            break
    if first is None:
        return "", 0
    key, p = first
    parts = p.name.split(".")
    prefix, depth = "", 0
    for i, part in enumerate(parts):
        if part == key:
            prefix = ".".join(parts[:i])
            prefix = prefix + "." if prefix else prefix
            depth = i
            if second is not None and second[1].name.split(".")[i:i + 1] == [second[0]]:
                break
    return prefix, depth


def _rename_below(cell: Cell, prefix: str, key: str, depth: int) -> None:
    for _, p in cell.parameters_and_names():
        p.name = prefix + key + "." + ".".join(p.name.split(".")[depth + 1:])


def _order_key(key: str) -> tuple:
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


class _CellSequence(Cell):
    """What SequentialCell and CellList share: length, truth, iteration over the cells, set_grad reaching
    every cell, and inserting at a position."""

    def __len__(self) -> int:
        return len(self._cells)

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells.values())

    def set_grad(self, flag: bool = True) -> Self:
        self.__dict__["requires_grad"] = flag
        for cell in self._cells.values():
            cell.set_grad(flag)
        return self

    def _insert_cell(self, index: int, cell: Cell) -> int:
        """Put ``cell`` at position ``index`` (checked); the cells after it move up one key and, with
        auto_prefix, one name. Returns the position."""
        owner = type(self).__name__
        idx = _valid_insert_index(len(self), index, owner)
        _check_cell(cell, owner)
        n = len(self)
        prefix, depth = _prefix_and_depth(self._cells)
        while n > idx:
            moved = self._cells[str(n - 1)]
            if self._auto_prefix:
                _rename_below(moved, prefix, str(n), depth)
            self._cells[str(n)] = moved
            n -= 1
        self._cells[str(idx)] = cell
        if self._auto_prefix:
            cell.update_parameters_name(prefix + str(idx) + ".")
        self.__dict__["_cells"] = OrderedDict(sorted(self._cells.items(), key=lambda kv: _order_key(kv[0])))
        return idx


class SequentialCell(_CellSequence):
    """Cells run one after the other, each on the previous one's output.

    Args:
        args: a list of cells, an OrderedDict of name -> cell, or the cells themselves. List children are named
            "0", "1", ...; OrderedDict children keep their keys.

    Examples:
        >>> net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
        >>> [p.name for p in net.trainable_params()]
        ['0.weight', '0.bias', '2.weight', '2.bias']
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        self._is_dynamic_name: list[bool] = []
        if len(args) == 1 and not isinstance(args[0], Cell):
            cells = args[0]
            if isinstance(cells, OrderedDict):
                items = [(name, cell, False) for name, cell in cells.items()]
            elif isinstance(cells, list):
                items = [(str(i), cell, True) for i, cell in enumerate(cells)]
            else:
                raise TypeError(f"For '{type(self).__name__}', the 'args[0]' must be Cell, list or orderedDict, but "
                                f"got {type(cells).__name__}")
        else:
            items = [(str(i), cell, True) for i, cell in enumerate(args)]
        for name, cell, dynamic in items:
            _check_cell(cell, type(self).__name__)
            self.insert_child_to_cell(name, cell)
            cell.update_parameters_name(name + ".")
            self._is_dynamic_name.append(dynamic)
        self.cell_list = list(self._cells.values())

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            # a view: the cells keep their parameter names (MindSpore renames them to the slice's keys)
            view = type(self).__new__(type(self))
            SequentialCell.__init__(view)
            for key, cell in list(self._cells.items())[index]:
                view.insert_child_to_cell(key, cell)
            view._is_dynamic_name = self._is_dynamic_name[index]
            view.cell_list = list(view._cells.values())
            return view
        return list(self._cells.values())[_valid_index(len(self), index, type(self).__name__)]

    def __setitem__(self, index: int, cell: Cell) -> None:
        owner = type(self).__name__
        _check_cell(cell, owner)
        prefix, _ = _prefix_and_depth(self._cells)
        key = list(self._cells.keys())[_valid_index(len(self), index, owner)]
        self._cells[key] = cell
        cell.update_parameters_name(prefix + key + ".")
        self.cell_list = list(self._cells.values())

    def __delitem__(self, index: int | slice) -> None:
        owner = type(self).__name__
        if isinstance(index, slice):
            for key in list(self._cells.keys())[index]:
                del self._cells[key]
            del self._is_dynamic_name[index]
        elif isinstance(index, int):
            i = _valid_index(len(self), index, owner)
            del self._cells[list(self._cells.keys())[i]]
            del self._is_dynamic_name[i]
        else:
            raise TypeError(f"For '{owner}', the type of index must be int type or slice type, but got "
                            f"{type(index).__name__}")
        prefix, depth = _prefix_and_depth(self._cells)
        renamed: OrderedDict = OrderedDict()
        for i, (key, cell) in enumerate(self._cells.items()):
            if self._is_dynamic_name[i]:
                _rename_below(cell, prefix, str(i), depth)
                renamed[str(i)] = cell
            else:
                renamed[key] = cell
        self.__dict__["_cells"] = renamed
        self.cell_list = list(renamed.values())

    def append(self, cell: Cell) -> SequentialCell:
        """Add ``cell`` at the end (named by its position)."""
        _check_cell(cell, type(self).__name__)
        prefix, _ = _prefix_and_depth(self._cells)
        cell.update_parameters_name(prefix + str(len(self)) + ".")
        self._is_dynamic_name.append(True)
        self._cells[str(len(self))] = cell
        self.cell_list = list(self._cells.values())
        return self

    def insert(self, index: int, cell: Cell) -> SequentialCell:
        """Insert ``cell`` before position ``index``; the cells after it move up one name."""
        idx = self._insert_cell(index, cell)
        self.cell_list = list(self._cells.values())
        self._is_dynamic_name.insert(idx, True)
        return self

    def extend(self, cells: Iterable[Cell]) -> SequentialCell:
        for cell in cells:
            self.append(cell)
        return self

    def construct(self, input_data: Any) -> Any:
        for cell in self.cell_list:
            input_data = cell(input_data)
        return input_data

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_cells":
            self.__dict__["_cells"] = value
            return
        super().__setattr__(name, value)


class CellList(_CellSequence):
    """A list of cells (not callable itself): indexing, slicing, append, insert, extend, iteration.

    Args:
        args: optionally one list of cells.
        auto_prefix: keyword; as Cell's. Default: True.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> layers = nn.CellList([nn.Dense(4, 8), nn.ReLU()])
        >>> layers.append(nn.Dense(8, 2))
        >>> len(layers)
        3
        >>> layers[1]
        ReLU()
        >>> x = ms.ops.ones((3, 4))
        >>> for layer in layers:
        ...     x = layer(x)
        >>> x.shape
        (3, 2)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index: int | slice) -> Any:
        owner = type(self).__name__
        if isinstance(index, slice):
            # a view: the cells keep their parameter names (MindSpore renames them to the slice's positions)
            return CellList(list(self._cells.values())[index], auto_prefix=False)
        if isinstance(index, int):
            return self._cells[str(_valid_index(len(self), index, owner))]
        raise TypeError(f"For '{owner}', the type of 'index' must be int or slice, but got {type(index).__name__}.")

    def __setitem__(self, index: int, cell: Cell) -> None:
        owner = type(self).__name__
        _check_cell(cell, owner)
        i = _valid_index(len(self), index, owner)
        if self._auto_prefix:
            prefix, _ = _prefix_and_depth(self._cells)
            cell.update_parameters_name(prefix + str(i) + ".")
        self._cells[str(i)] = cell

    def __delitem__(self, index: int | slice) -> None:
        owner = type(self).__name__
        if isinstance(index, int):
            del self._cells[str(_valid_index(len(self), index, owner))]
        elif isinstance(index, slice):
            for key in list(self._cells.keys())[index]:
                del self._cells[key]
        else:
            raise TypeError(f"For '{owner}', the type of 'index' must be int or slice, but got "
                            f"{type(index).__name__}.")
        prefix, depth = _prefix_and_depth(self._cells)
        renamed: OrderedDict = OrderedDict()
        for i, cell in enumerate(self._cells.values()):
            if self._auto_prefix:
                _rename_below(cell, prefix, str(i), depth)
            renamed[str(i)] = cell
        self.__dict__["_cells"] = renamed

    def __iadd__(self, cells: list[Cell]) -> Self:
        self.extend(cells)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``; the cells after it move up one name."""
        self._insert_cell(index, cell)

    def extend(self, cells: list[Cell]) -> CellList:
        owner = type(self).__name__
        if not isinstance(cells, list):
            raise TypeError(f"For '{owner}', the new cells wanted to append should be instance of list, but got "
                            f"{type(cells).__name__}.")
        prefix, _ = _prefix_and_depth(self._cells)
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError(f"For '{owner}', the type of cell can not be CellDict, but got "
                                f"{type(cell).__name__}.")
            _check_cell(cell, owner)
            if self._auto_prefix:
                cell.update_parameters_name(prefix + str(len(self)) + ".")
            self._cells[str(len(self))] = cell
        return self

    def append(self, cell: Cell) -> None:
        _check_cell(cell, type(self).__name__)
        if self._auto_prefix:
            prefix, _ = _prefix_and_depth(self._cells)
            cell.update_parameters_name(prefix + str(len(self)) + ".")
        self._cells[str(len(self))] = cell

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} is a container: call its cells, not the list")


class CellDict(Cell):
    """An ordered dict of cells (not callable itself): keys are names, values are cells.

    Args:
        args: optionally a mapping or an iterable of (key, cell) pairs.
        auto_prefix: keyword; as Cell's. Default: True.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> cells = nn.CellDict({'conv': nn.Conv2d(1, 2, 3), 'relu': nn.ReLU()})
        >>> sorted(cells.keys())
        ['conv', 'relu']
        >>> x = ms.ops.ones((1, 1, 4, 4))
        >>> cells['relu'](cells['conv'](x)).shape
        (1, 2, 4, 4)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        owner = type(self).__name__
        if not isinstance(key, str):
            raise TypeError(f"For '{owner}', the type of key should be string but got {type(key).__name__}.")
        if hasattr(self, key) and key not in self._cells:
            raise KeyError(f"For '{owner}', the key can not be same with the attributes of Cell, but got key {key}.")
        if "." in key:
            raise KeyError(f'For \'{owner}\', key can not contain ".", but got key {key}')
        if key == "":
            raise KeyError(f'For \'{owner}\', key can not be empty string "", but got key {key}')
        if cell is None:
            raise TypeError(f"For '{owner}', cell can not be None.")
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{owner}', the type of cell should be Cell, but got {type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For '{owner}', the type of cell can not be CellDict, CellList or SequentialCell, but "
                            f"got {type(cell).__name__}.")
        if self._auto_prefix:
            prefix, _ = _prefix_and_depth(self._cells)
            cell.update_parameters_name(prefix + key + ".")
        self._cells[key] = cell

    def __delitem__(self, key: str) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    def clear(self) -> None:
        self._cells.clear()

    def pop(self, key: str) -> Cell:
        value = self[key]
        del self[key]
        return value

    def keys(self) -> Any:
        return self._cells.keys()

    def values(self) -> Any:
        return self._cells.values()

    def items(self) -> Any:
        return self._cells.items()

    def update(self, cells: Any) -> None:
        if not isinstance(cells, abc.Iterable):
            raise TypeError("CellDict.update() should be called with an iterable of key-value pairs, but got "
                            + type(cells).__name__)
        if isinstance(cells, (abc.Mapping, CellDict)):
            for key, cell in cells.items():
                self[key] = cell
            return
        for i, kv in enumerate(cells):
            if not isinstance(kv, abc.Iterable):
                raise TypeError(f"CellDict update sequence element #{i} should be Iterable; but got "
                                f"{type(kv).__name__}")
            kv = tuple(kv)
            if len(kv) != 2:
                raise ValueError(f"CellDict update sequence element #{i}, length should be 2; but has length "
                                 f"{len(kv)}")
            self[kv[0]] = kv[1]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} is a container: call its cells, not the dict")
