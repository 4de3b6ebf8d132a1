"""A real uvicorn server for the HTTP API on a loopback port, in a thread of the test process."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def serving(app: Any, *, log_config: Any = None) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (a free port); yields the base URL."""
    import uvicorn

    # IPPROTO_TCP, not the default proto 0: asyncio sets TCP_NODELAY on accepted connections
    # only when the listening socket says IPPROTO_TCP (base_events._set_nodelay). Without it, h11
    # writes a response's head and body in two sends, Nagle holds the second until the client
    # ACKs the first, and the client delays that ACK: every request took ~44 ms instead of ~1 ms
    # (bench/api_bench.py measures both). `qgs serve` binds by host and port: not affected.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, log_level="info", lifespan="on", log_config=log_config, timeout_graceful_shutdown=5
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:  # observable state: uvicorn says it is serving
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


def wait_until(predicate: Any, timeout_s: float = 30.0, what: str = "a condition") -> None:
    """Wait for observable state (never a fixed sleep); fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)
