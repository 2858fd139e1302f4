"""`cellonnx serve MODEL.onnx [MORE.onnx ...]` or `cellonnx serve MODEL_REPOSITORY/`: serve ONNX files or a
Triton model repository over the KServe v2 HTTP protocol, and over its gRPC form with --grpc-port."""
from __future__ import annotations

import argparse
import signal
import socket
import sys
from pathlib import Path
from types import FrameType

from cellonnx.cli import CommandError, add_device_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "serve", help="serve ONNX models over the KServe v2 / Triton HTTP and gRPC protocols",
        description="Serve ONNX files, or a Triton model repository, with onnxruntime over the KServe v2 "
                    "(Open Inference) REST protocol, with Triton's binary tensor extension and dynamic "
                    "batching, and over its gRPC form with --grpc-port. Stops cleanly on SIGINT/SIGTERM.")
    p.add_argument("models", nargs="+", metavar="MODEL.onnx|REPOSITORY",
                   help="ONNX files to serve, or one Triton model repository folder (NAME/config.pbtxt, "
                   "NAME/<version>/model.onnx)")
    p.add_argument("--name", help="model name in URLs (one model only; default: the file stem)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on, 0 for any free one "
                   "(default: %(default)s)")
    p.add_argument("--grpc-port", type=int, default=None, metavar="P",
                   help="also serve the KServe v2 gRPC protocol on this port (Triton's is 8001; 0: any free "
                   "port) (default: no gRPC)")
    p.add_argument("--model-control-mode", choices=("none", "poll", "explicit"), default="none",
                   help="for a repository, as tritonserver's: none loads every model at start, poll also "
                   "picks up changes to the repository, explicit loads only --load-model models and lets the "
                   "repository API load and unload (default: %(default)s)")
    p.add_argument("--repository-poll-secs", type=float, default=15.0, metavar="S",
                   help="seconds between two reads of the repository in poll mode (default: %(default)s)")
    p.add_argument("--load-model", action="append", default=[], metavar="NAME",
                   help="in explicit mode, a model to load at start ('*': every one); repeat for more")
    add_device_argument(p, "where onnxruntime runs the models (a repository model's instance_group kind, "
                           "when KIND_CPU or KIND_GPU, takes precedence)")
    p.add_argument("--max-batch", type=int, default=32, metavar="N",
                   help="most rows merged into one run when a model's first axis is dynamic; 0 turns batching "
                   "off (default: %(default)s)")
    p.add_argument("--batch-delay-ms", type=float, default=0.0, metavar="T",
                   help="how long a request may wait for requests to the same model that are still being "
                   "received to join its batch; a lone request never waits (default: %(default)s: merge only "
                   "what queued up while the workers were busy)")
    p.add_argument("--max-body-mb", type=float, default=64.0, metavar="M",
                   help="largest request body accepted, in MiB (default: %(default)s)")
    p.add_argument("--workers", type=int, default=None, metavar="K",
                   help="threads running onnxruntime (default: one per core)")
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="S",
                   help="seconds a client has to send a complete request header, else 408 (default: %(default)s)")
    p.add_argument("--body-timeout", type=float, default=30.0, metavar="S",
                   help="longest pause in a request body, in seconds, else 408 (default: %(default)s)")
    p.add_argument("--max-connections", type=int, default=None, metavar="C",
                   help="most connections held at once (default: what the open-file limit leaves, at most "
                   "4096)")
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    p.set_defaults(func=run)


class _Stop(Exception):
    """Raised by the signal handlers once uvicorn has shut down gracefully and re-sent the signal."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop(signal.Signals(signum).name)


def _check(args: argparse.Namespace) -> None:
    repository = [m for m in args.models if Path(m).is_dir()]
    if repository and len(args.models) > 1:
        raise CommandError(f"{repository[0]} is a model repository folder: serve it alone, or serve ONNX "
                           "files")
    if repository and args.name:
        raise CommandError("--name names an ONNX file's model; a repository's models are named by their "
                           "folders")
    if not repository and (args.model_control_mode != "none" or args.load_model):
        raise CommandError("--model-control-mode and --load-model apply to a model repository folder")
    if args.load_model and args.model_control_mode != "explicit":
        raise CommandError("--load-model needs --model-control-mode explicit (the other modes load every "
                           "model)")
    if args.repository_poll_secs <= 0:
        raise CommandError(f"--repository-poll-secs must be > 0, got {args.repository_poll_secs}")
    if args.grpc_port is not None and not 0 <= args.grpc_port <= 65535:
        raise CommandError(f"--grpc-port must be in 0..65535, got {args.grpc_port}")
    if args.grpc_port is not None and args.grpc_port and args.grpc_port == args.port:
        raise CommandError(f"--grpc-port and --port are both {args.port}; give them different ports")
    if args.name and len(args.models) > 1:
        raise CommandError("--name names a single model; with several files each is named by its file stem")
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be in 0..65535, got {args.port}")
    if args.max_batch < 0:
        raise CommandError(f"--max-batch must be >= 0, got {args.max_batch}")
    if args.batch_delay_ms < 0:
        raise CommandError(f"--batch-delay-ms must be >= 0, got {args.batch_delay_ms}")
    if args.max_body_mb <= 0:
        raise CommandError(f"--max-body-mb must be > 0, got {args.max_body_mb}")
    if args.workers is not None and args.workers < 1:
        raise CommandError(f"--workers must be >= 1, got {args.workers}")
    for flag, value in (("--header-timeout", args.header_timeout), ("--body-timeout", args.body_timeout)):
        if value <= 0:
            raise CommandError(f"{flag} must be > 0 seconds, got {value}")
    if args.max_connections is not None and args.max_connections < 1:
        raise CommandError(f"--max-connections must be >= 1, got {args.max_connections}")
    names = [args.name or Path(m).stem for m in args.models]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise CommandError(f"several files would be served as {twice}; rename them or serve them apart")
    _check_address(args.host, args.port)
    if args.grpc_port:
        _check_address(args.host, args.grpc_port)


def _check_address(host: str, port: int) -> None:
    """Fail in one line when the address cannot be listened on (uvicorn would log it and stop)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                              flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            sock.bind(address)
    except OSError as exc:
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _resolve(device: str) -> str:
    if device != "auto":
        return device
    import onnxruntime as ort

    return "gpu" if "CUDAExecutionProvider" in ort.get_available_providers() else "cpu"


def run(args: argparse.Namespace) -> int:
    _check(args)
    from cellonnx.serve import ModelLoadError, Registry, ServedModel, ServerConfig, create_app, make_server

    options = {"max_batch": args.max_batch, "batch_delay_ms": args.batch_delay_ms,
               "max_body_bytes": int(args.max_body_mb * 2**20), "header_timeout_s": args.header_timeout,
               "body_timeout_s": args.body_timeout, "grpc_port": args.grpc_port, "grpc_host": args.host}
    if args.workers:
        options["workers"] = args.workers
    if args.max_connections:
        options["max_connections"] = args.max_connections
    config = ServerConfig(**options)
    device = _resolve(args.device)
    try:
        if Path(args.models[0]).is_dir():
            registry = Registry(config, repository=args.models[0], control=args.model_control_mode,
                                load=args.load_model, poll_s=args.repository_poll_secs, device=device)
        else:
            registry = Registry(config, [ServedModel(path, args.name, device) for path in args.models])
    except ModelLoadError as exc:
        raise CommandError(str(exc)) from None
    app = create_app(registry)
    for entry in registry.entries.values():
        if entry.state != "READY":
            print(f"cellonnx serve: model '{entry.name}' is unavailable: {entry.reason}", file=sys.stderr,
                  flush=True)
            continue
        for version in entry.versions.values():
            model = version.model
            batching = (f"batching up to {entry.config.max_batch_size}" if version.scheduler.batching
                        else "no batching")
            signature = ", ".join(f"{t.name} {t.datatype.name} {list(t.shape)}" for t in model.inputs)
            print(f"cellonnx serve: model '{model.name}' version {model.version} from {model.path} on "
                  f"{model.device} ({signature}; {batching})", file=sys.stderr, flush=True)

    def listening(addresses: list[str]) -> None:
        print(f"cellonnx serve: listening on {', '.join('http://' + a for a in addresses)}", file=sys.stderr,
              flush=True)
        if app.state.grpc_port is not None:
            print(f"cellonnx serve: gRPC listening on {args.host}:{app.state.grpc_port}", file=sys.stderr,
                  flush=True)

    server = make_server(app, args.host, args.port, args.log_level, listening)
    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal to the previous handler:
    # ours turns it into a clean exit instead of a KeyboardInterrupt or a kill
    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run()
    except _Stop as stop:
        print(f"cellonnx serve: stopped by {stop}", file=sys.stderr)
        return 0
    except SystemExit as exc:  # uvicorn exits when it cannot bind
        raise CommandError(f"could not serve on {args.host}:{args.port} (see the log above)") from exc
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0 if server.started else 1
