"""ops.TCPStore: one master and clients (threads and another process) sharing keys and counters, the waits
and timeouts, MindSpore's argument checks, and a malformed frame that must not take the store down."""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest

from cellonnx.ops import TCPStore

SHORT = timedelta(seconds=2)


@pytest.fixture()
def master() -> TCPStore:
    return TCPStore("127.0.0.1", 0, is_master=True, timeout=SHORT)


def test_set_get_add_delete_across_clients(master) -> None:
    client = TCPStore("127.0.0.1", master.port, timeout=SHORT)
    master.set("addr", "10.0.0.1:29500")
    client.set("blob", b"\x00\xffbytes")
    assert client.get("addr") == b"10.0.0.1:29500"
    assert master.get("blob") == b"\x00\xffbytes"
    assert [master.add("n", 2), client.add("n", 3), client.add("n", -1)] == [2, 5, 4]
    assert master.get("n") == b"4"
    assert client.delete_key("n") is True
    assert master.delete_key("n") is False


def test_counter_from_many_threads(master) -> None:
    clients = [TCPStore("127.0.0.1", master.port, timeout=SHORT) for _ in range(4)]
    threads = [threading.Thread(target=lambda c=c: [c.add("hits", 1) for _ in range(50)]) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert master.add("hits", 0) == 200


def test_get_waits_for_a_later_set_and_times_out(master) -> None:
    client = TCPStore("127.0.0.1", master.port, timeout=SHORT)
    threading.Timer(0.2, lambda: master.set("late", "here")).start()
    assert client.get("late") == b"here"
    quick = TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=0.3))
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="'never' was not set within 0.3 s"):
        quick.get("never")
    assert time.monotonic() - start < 2


def test_master_waits_for_workers_in_another_process() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    worker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "from datetime import timedelta; from cellonnx.ops import TCPStore; "
                f"s = TCPStore('127.0.0.1', {port}, timeout=timedelta(seconds=20)); "
                "s.set('from_worker', str(s.add('joined', 1)))"
            ),
        ]
    )
    try:
        master = TCPStore("127.0.0.1", port, world_size=2, is_master=True, timeout=timedelta(seconds=20))
        assert master.get("from_worker") == b"1"
    finally:
        assert worker.wait(timeout=30) == 0


def test_master_alone_times_out_waiting_for_workers() -> None:
    with pytest.raises(RuntimeError, match="waiting for 2 workers"):
        TCPStore("127.0.0.1", 0, world_size=3, is_master=True, timeout=timedelta(seconds=0.3))


def test_no_master_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(RuntimeError, match=f"no store answered at 127.0.0.1:{port}"):
        TCPStore("127.0.0.1", port, timeout=timedelta(seconds=0.3))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"host_name": 1, "port": 0}, TypeError, "'host_name' must be type of str"),
        ({"host_name": "127.0.0.1", "port": "0"}, TypeError, "'port' must be type of int"),
        (
            {"host_name": "127.0.0.1", "port": 0, "is_master": 1},
            TypeError,
            "'is_master' must be type of bool",
        ),
        (
            {"host_name": "127.0.0.1", "port": 0, "timeout": 5},
            TypeError,
            "'timeout' must be type of timedelta",
        ),
        ({"host_name": "127.0.0.1", "port": 70000}, ValueError, "'port' must be legal, but got 70000"),
        ({"host_name": "127.0.0.1", "port": 0, "world_size": 0}, ValueError, "'world_size' must be legal"),
    ],
)
def test_constructor_checks(kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        TCPStore(**kwargs)


def test_method_checks(master) -> None:
    with pytest.raises(TypeError, match="'key' must be type of str"):
        master.set(1, "v")
    with pytest.raises(TypeError, match="'value' must be type of bytes or str"):
        master.set("k", 3)
    with pytest.raises(TypeError, match="'amount' must be type of int"):
        master.add("k", 1.5)
    master.set("text", "abc")
    with pytest.raises(RuntimeError, match="the value of key 'text' is not an integer"):
        master.add("text", 1)
    with pytest.raises(ValueError, match="the key must be under 4096 bytes"):
        master.set("k" * 5000, "v")


def test_malformed_frame_leaves_the_store_serving(master) -> None:
    with socket.create_connection(("127.0.0.1", master.port), timeout=2) as raw:
        raw.sendall(struct.pack("!BIQ", 0, 1 << 20, 0))  # a key length over the limit
        status = raw.recv(9)[0]
        assert status == 2
    with socket.create_connection(("127.0.0.1", master.port), timeout=2) as raw:
        raw.sendall(b"\x01\x00")  # a truncated frame, then hang up
    master.set("still", "up")
    assert TCPStore("127.0.0.1", master.port, timeout=SHORT).get("still") == b"up"
