"""The `cellonnx` command. Each subcommand lives in its own module of this package and registers itself
through `register(subparsers)`; `main` turns an argument error or any exception of a subcommand into one line
on stderr, `cellonnx <cmd>: error: <message>`, and exit status 2, so no usage block or traceback reaches a
command-line user (`--help` shows the usage)."""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

# subcommand modules, in the order `cellonnx --help` lists them
SUBCOMMANDS = ("quickstart", "train", "predict", "export", "verify", "convert", "inspect", "load_weights",
               "serve", "export_triton")


DEVICES = ("cpu", "gpu", "auto")


def add_device_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """The --device option every subcommand spells the same way: cpu, gpu (CUDA) or auto, any case.

    Examples:
        >>> import argparse
        >>> from cellonnx.cli import add_device_argument
        >>> parser = argparse.ArgumentParser()
        >>> add_device_argument(parser, "where to run")
        >>> print(parser.parse_args(["--device", "GPU"]).device)
        gpu
    """
    parser.add_argument("--device", type=str.lower, choices=DEVICES, default="cpu",
                        help=f"{what}: cpu, gpu (onnxruntime's CUDAExecutionProvider; an error without it) or "
                             f"auto (gpu when CUDA is there) (default: %(default)s)")


def device_target(device: str) -> str:
    """The --device value as cellonnx.set_context's device_target ("CPU", "GPU", "auto").

    Examples:
        >>> from cellonnx.cli import device_target
        >>> print(device_target("gpu"), device_target("cpu"), device_target("auto"))
        GPU CPU auto
    """
    return {"cpu": "CPU", "gpu": "GPU"}.get(device, device)


class CommandError(Exception):
    """A user-facing failure: printed as `cellonnx <cmd>: error: <message>` with exit status 2.

    A subcommand raises it for a mistake of the user's (a missing file, options that do not go together);
    ``main`` prints its message as one line, without a traceback.

    Examples:
        >>> import argparse
        >>> from cellonnx.cli import CommandError
        >>> def fail(args: argparse.Namespace) -> int:
        ...     raise CommandError("no model given")
        >>> try:
        ...     fail(argparse.Namespace())
        ... except CommandError as exc:
        ...     print(f"cellonnx predict: error: {exc}")
        cellonnx predict: error: no model given
    """


class _UsageError(Exception):
    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """argparse whose errors reach `main` as exceptions (the subcommands' parsers are of this class too)."""

    commands: dict[str, _Parser]

    def error(self, message: str) -> NoReturn:
        raise _UsageError(self.prog, message)


def build_parser() -> _Parser:
    """The ``cellonnx`` parser with every subcommand this installation has.

    Examples:
        >>> from cellonnx.cli import build_parser
        >>> parser = build_parser()
        >>> print("export" in parser.commands, "serve" in parser.commands)
        True True
    """
    from cellonnx import __version__

    parser = _Parser(prog="cellonnx", description="Train in NumPy, export to ONNX, serve with onnxruntime, "
                     "convert checkpoints between frameworks.")
    parser.add_argument("--version", action="version", version=f"cellonnx {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.commands = sub.choices
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"cellonnx.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cellonnx.cli.{name}":
                continue  # subcommand not built in this installation
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cellonnx`` command on ``argv`` (default: ``sys.argv[1:]``); the exit status.

    Args:
        argv: the command line after ``cellonnx``.

    Returns:
        int: the subcommand's exit status; 2 after a usage error or a failure (one line on stderr, no
        traceback), 130 when interrupted.

    Examples:
        >>> from cellonnx.cli import main
        >>> ms.save_checkpoint(nn.Dense(2, 1), "dense.ckpt")
        >>> main(["inspect", "dense.ckpt"])
        name    shape                dtype            bytes
        weight  (1, 2)               float32              8
        bias    (1,)                 float32              4
        total: 2 tensors, 3 values, 12 bytes
        0
        >>> main(["inspect", "missing.ckpt"])  # stderr: cellonnx inspect: error: missing.ckpt: no such ...
        2
    """
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # named by the subcommand they were given to
            parser.commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    except _UsageError as exc:
        return _fail(exc.prog, str(exc))
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    prog = f"cellonnx {args.command}"
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except (CommandError, ValueError, OSError, TypeError, KeyError) as exc:
        return _fail(prog, str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc))
    except Exception as exc:  # an unforeseen failure still reaches the user as one line, named by its type
        return _fail(prog, f"{type(exc).__name__}: {exc}")


def _fail(prog: str, message: str) -> int:
    """Print ``prog: error: message`` as one line on stderr; the exit status of a failed command."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    print(f"{prog}: error: {'; '.join(lines) or 'failed'}", file=sys.stderr)
    return 2
