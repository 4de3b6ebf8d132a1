"""A redis-server of a test's own, on a free loopback port: a test may stop, hang or restart it.

Never the shared Redis on 6379: the tests that break Redis start this one (``redis-server`` on
the PATH, as Debian's package installs it; missing, the test is skipped, or failed in CI).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.conftest import IN_CI


def free_port() -> int:
    """A TCP port nothing listens on now (loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    """``redis-server`` on ``127.0.0.1:port`` with AOF on, its files in ``folder``.

    Args:
        folder: Where the server keeps its append-only file (kept across :meth:`restart`).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        """Start the server and wait until it answers PING (at most 10 s)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        argv = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
        argv += ["--appendonly", "yes", "--dir", str(self.folder)]
        self.process = subprocess.Popen(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5, socket_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()
        return self

    def stop(self) -> None:
        """Stop the server (SIGTERM: it writes its AOF) and wait for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def restart(self, down_s: float = 2.0) -> None:
        """Stop, stay down ``down_s`` seconds (clients see refused connections), start again."""
        self.stop()
        time.sleep(down_s)
        self.start()

    def hang(self) -> None:
        """SIGSTOP the server: it still accepts TCP connections (the kernel does) but never answers."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after :meth:`hang`."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)


@contextlib.contextmanager
def private_redis(folder: Path) -> Iterator[PrivateRedis]:
    """A started :class:`PrivateRedis`, stopped at the end (skipped without ``redis-server``)."""
    if shutil.which("redis-server") is None:
        message = "redis-server is not on the PATH (Debian: apt-get install redis-server)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    server = PrivateRedis(folder).start()
    try:
        yield server
    finally:
        server.stop()
