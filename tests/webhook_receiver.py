"""A real HTTP receiver on loopback (``http.server`` in a thread) that scripts its answers.

Each POST is recorded (headers, body) and answered by the next step of the script: an HTTP
status to send, or ``HANG`` (accept the request and answer nothing until the test ends, or
until ``release`` is called). When the script runs out, the last step repeats.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HANG = "hang"


@dataclass(frozen=True)
class Received:
    """One POST as the receiver got it."""

    path: str
    headers: dict[str, str]
    body: bytes
    answered: int | None  # the status sent; None: no answer (HANG)


class Receiver:
    """A webhook receiver on 127.0.0.1 with a scripted answer per request.

    Args:
        script: Statuses (``200``, ``500``...) or ``HANG``, one per request in order.
    """

    def __init__(self, *script: int | str) -> None:
        self.script = list(script) or [200]
        self.received: list[Received] = []
        self.got_one = threading.Condition()
        self.released = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with receiver.got_one:
                    step = receiver.script[min(len(receiver.received), len(receiver.script) - 1)]
                    answered = None if step == HANG else int(step)
                    receiver.received.append(
                        Received(self.path, dict(self.headers.items()), body, answered)
                    )
                    receiver.got_one.notify_all()
                if answered is None:
                    receiver.released.wait(60)
                    return  # the client gave up long ago; close without an answer
                self.send_response(answered)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The receiver's URL (``http://127.0.0.1:PORT/hook``)."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def wait_for(self, count: int, timeout_s: float = 30.0) -> list[Received]:
        """Block until ``count`` requests arrived (observable state, not a sleep); all of them.

        Raises:
            AssertionError: fewer arrived within ``timeout_s`` seconds.
        """
        with self.got_one:
            arrived = self.got_one.wait_for(lambda: len(self.received) >= count, timeout_s)
            assert arrived, f"{len(self.received)} of {count} webhook requests arrived"
            return list(self.received)

    def release(self) -> None:
        """Let hanging requests end (without an answer)."""
        self.released.set()

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


class Trickler:
    """A receiver that answers ``HTTP/1.1 200 OK ...`` one byte every ``every_s`` seconds.

    A slow-loris receiver: each read of the client gets a byte well within any per-read
    timeout, so only a whole-request deadline ends the POST. Counts the requests it got.

    Args:
        every_s: Seconds between two bytes of the answer.
    """

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Padding: " + b"x" * 4096 + b"\r\n\r\nok"

    def __init__(self, every_s: float = 0.2) -> None:
        import socket

        self.every_s = every_s
        self.stopped = threading.Event()
        self.requests = 0
        self.closed_by_client = 0
        self.lock = threading.Lock()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        """The receiver's URL (``http://127.0.0.1:PORT/hook``)."""
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: Any) -> None:
        with conn:
            conn.settimeout(5)
            got = b""
            try:
                while b"\r\n\r\n" not in got:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    got += chunk
                with self.lock:
                    self.requests += 1
                for i in range(len(self.ANSWER)):
                    if self.stopped.wait(self.every_s):
                        return
                    conn.sendall(self.ANSWER[i : i + 1])
            except OSError:  # the client closed the connection: what a deadline does
                with self.lock:
                    self.closed_by_client += 1

    def __enter__(self) -> Trickler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.sock.close()
