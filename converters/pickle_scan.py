"""A dry run of a pickle's opcodes that bounds what the real unpickler would build, before it builds anything.

The C unpickler builds whatever a stream describes: a few hundred bytes can nest containers 200,000 deep (code
that later walks or prints the object overflows the C stack), a stream of DUP opcodes can fill memory with
stack entries, and integers can be tens of thousands of digits long. This scan keeps a shadow of the
unpickler's stack and memo in which every entry is only the nesting depth of the object it stands for, and
refuses a stream that nests deeper than ``MAX_DEPTH``, holds more than ``MAX_STACK`` entries, runs more than
``MAX_OPCODES`` opcodes or carries an integer of more than ``MAX_INT_BITS`` bits. It runs in time linear in
the stream's length and in memory bounded by the limits.
"""
from __future__ import annotations

import pickletools
from typing import Any

MAX_DEPTH = 100          # a torch state dict nests 2-5 levels; optimizer states a few more
MAX_STACK = 100_000      # the pickler batches containers by 1,000 items: the stack stays short
MAX_OPCODES = 1_000_000  # about 25 opcodes per tensor: 40,000 tensors
MAX_INT_BITS = 256       # epochs, steps and seeds fit in 64 bits

_MARK = -1
_SLICE, _MARKER, _ONE = 0, 1, 2
# what each opcode does to the stack: the items it pops (top first) and the kind of object it leaves
_GROWS = "grows"    # adds to the container below it: that container gets deeper, nothing new appears
_EMPTY = "empty"    # a new empty container
_LEAF = "leaf"      # a new scalar, string or global
_BUILT = "built"    # a new object made from what it popped (tuples, lists, REDUCE, NEWOBJ, BINPERSID ...)
_NONE = "none"      # leaves nothing
_GROWS_CONTAINER = {"APPEND", "APPENDS", "SETITEM", "SETITEMS", "ADDITEMS", "BUILD"}
_EMPTY_CONTAINERS = {"EMPTY_LIST", "EMPTY_TUPLE", "EMPTY_DICT", "EMPTY_SET"}
_PUTS = {"PUT", "BINPUT", "LONG_BINPUT", "MEMOIZE"}
_GETS = {"GET", "BINGET", "LONG_BINGET"}
_INTS = {"INT", "LONG", "LONG1", "LONG4"}


def _effect(op: pickletools.OpcodeInfo) -> tuple[tuple[int, ...], str]:
    pops = tuple(_SLICE if item is pickletools.stackslice else _MARKER if item is pickletools.markobject
                 else _ONE for item in reversed(op.stack_before))
    if not op.stack_after:
        kind = _NONE
    elif op.name in _GROWS_CONTAINER:
        kind = _GROWS
    elif op.name in _EMPTY_CONTAINERS:
        kind = _EMPTY
    elif op.name == "STACK_GLOBAL" or not pops:
        kind = _LEAF
    else:
        kind = _BUILT
    return pops, kind


_EFFECTS = {op.name: _effect(op) for op in pickletools.opcodes}


class PickleRefused(ValueError):
    """The stream would build something past the scan's limits (the message says what and where)."""


def scan(file: Any) -> int:
    """Scan the pickle in ``file`` (bytes, or a binary file at the pickle's start) to its STOP opcode; return
    the number of opcodes.

    Raises:
        PickleRefused: a limit is passed, or the stream is malformed (pickletools' own errors pass through as
            ValueError and others; callers treat every exception as a damaged file).
    """
    stack: list[int] = []
    memo: list[int] = []  # picklers number memo entries in order, so a list holds them
    count = 0
    try:
        for count, (op, arg, pos) in enumerate(pickletools.genops(file), 1):
            if count > MAX_OPCODES:
                raise PickleRefused(f"more than {MAX_OPCODES:,} opcodes")
            name = op.name
            if name in _PUTS:
                _store(name, len(memo) if name == "MEMOIZE" else int(arg), pos, stack, memo)
                continue
            if name in _GETS:
                if not 0 <= int(arg) < len(memo):
                    raise PickleRefused(f"{name} of memo entry {arg}, which was never stored (byte {pos})")
                stack.append(memo[int(arg)])
            elif name == "MARK":
                stack.append(_MARK)
            elif name == "DUP":
                if not stack or stack[-1] == _MARK:
                    raise PickleRefused(f"DUP on an empty stack at byte {pos}")
                stack.append(stack[-1])
            else:
                if name in _INTS and arg.bit_length() > MAX_INT_BITS:
                    raise PickleRefused(f"an integer of {arg.bit_length():,} bits at byte {pos}")
                _apply(name, stack, pos)
            if len(stack) > MAX_STACK:
                raise PickleRefused(f"more than {MAX_STACK:,} objects on the unpickler's stack at byte {pos}")
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's own limit on decimal digits
            raise PickleRefused("an integer of more than 4,300 decimal digits") from None
        raise
    return count


def _store(name: str, index: int, pos: int, stack: list[int], memo: list[int]) -> None:
    if not stack or stack[-1] == _MARK:
        raise PickleRefused(f"{name} with nothing to store at byte {pos}")
    if index > len(memo):  # the unpickler would grow its memo table to this index
        raise PickleRefused(f"{name} to memo entry {index:,} while {len(memo):,} exist (byte {pos})")
    if index == len(memo):
        memo.append(stack[-1])
    else:
        memo[index] = stack[-1]


def _apply(name: str, stack: list[int], pos: int) -> None:
    """Pop what the opcode consumes and push the depth of what it leaves."""
    pops, kind = _EFFECTS[name]
    popped: list[int] = []
    for item in pops:
        if item == _ONE:
            if not stack or stack[-1] == _MARK:
                raise PickleRefused(f"{name} on an empty stack at byte {pos}")
            popped.append(stack.pop())
        elif item == _SLICE:
            while stack and stack[-1] != _MARK:
                popped.append(stack.pop())
            if not stack:
                raise PickleRefused(f"{name} without a MARK at byte {pos}")
        elif not stack or stack.pop() != _MARK:
            raise PickleRefused(f"{name} expects a MARK at byte {pos}")
    if kind == _NONE:
        return
    if kind == _LEAF:
        stack.append(0)
        return
    if kind == _EMPTY:
        stack.append(1)
        return
    if kind == _GROWS:  # the container was popped last
        depth = max(popped[-1], 1 + max(popped[:-1], default=-1))
    else:
        depth = 1 + max(popped, default=0)
    if depth > MAX_DEPTH:
        raise PickleRefused(f"containers nest deeper than {MAX_DEPTH} levels at byte {pos}")
    stack.append(depth)
