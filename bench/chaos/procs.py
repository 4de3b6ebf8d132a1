"""The processes a chaos run starts: a private redis-server and one ``qgs worker`` per queue.

Everything started here is remembered by PID and ended by PID (:meth:`Processes.close`), also
when the run fails or is interrupted: nothing else on the machine is touched.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

QUEUES = ("default", "critic", "discriminator")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _end(proc: subprocess.Popen[bytes], timeout_s: float = 10.0) -> None:
    """SIGTERM one process we started (SIGCONT first, in case it is stopped), then SIGKILL."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGCONT)
        os.kill(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)


@dataclass
class Redis:
    """A private redis-server with AOF on a free port, its files in ``folder``."""

    folder: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout_s: float = 10.0) -> None:
        """Start (or restart, on the same port and files) and wait until it answers PING."""
        self.folder.mkdir(parents=True, exist_ok=True)
        log = (self.folder / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "everysec",
             "--save", "", "--daemonize", "no", "--protected-mode", "no"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1) as r:
                    if r.ping():
                        return
            except redis.RedisError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server on port {self.port} did not start: see {log.name}"
                )
            time.sleep(0.05)

    def stop(self, sig: int) -> None:
        """Send ``sig`` (SIGTERM: clean shutdown, SIGKILL: crash) and wait for the exit."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            self.proc.wait(30)

    def client(self) -> redis.Redis:
        """A redis-py client with short timeouts (the harness must never hang on Redis)."""
        return redis.Redis(port=self.port, socket_timeout=2, socket_connect_timeout=2)

    def close(self) -> None:
        """End the server if it runs."""
        if self.proc is not None:
            _end(self.proc)


@dataclass
class Worker:
    """One ``qgs worker --queue NAME`` subprocess (restartable)."""

    queue: str
    env: dict[str, str]
    folder: Path
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def log_path(self) -> Path:
        """The worker's log (every start appends)."""
        return self.folder / f"worker-{self.queue}.log"

    def start(self) -> None:
        """Start the worker process; returns at once (see :meth:`wait_ready`)."""
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"\n==== chaos: start {self.starts} at {time.time():.3f}\n".encode())
        log.flush()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "qgs_worker.cli", "worker", "--queue", self.queue,
             "--loglevel", "INFO", "--name", f"chaos-{self.queue}-{self.starts}@%h"],
            env=self.env, cwd=self.folder, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def wait_ready(self, timeout_s: float = 60.0) -> bool:
        """Wait until this start of the worker logged Celery's ``ready.`` line; False on exit."""
        marker = f"==== chaos: start {self.starts} at"
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            text = self.log_path.read_text(errors="replace")
            if " ready." in text[text.rfind(marker) :]:
                return True
            if self.proc is None or self.proc.poll() is not None:
                return False
            time.sleep(0.1)
        return False

    @property
    def running(self) -> bool:
        """The process exists and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the worker process (our own child, by PID)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL the worker and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def close(self) -> None:
        """End the worker if it runs (warm shutdown first)."""
        if self.proc is not None:
            _end(self.proc, timeout_s=15)


@dataclass
class Processes:
    """The run's redis-server and workers, and a supervisor that restarts exited workers.

    A worker that exits without the harness killing it is an *unexpected exit* (for example
    the critic worker on a Redis restart, issue 11 item 3): it is counted, named in
    ``exits`` and restarted, like a process manager would.
    """

    redis: Redis
    workers: dict[str, Worker]
    exits: list[dict[str, object]] = field(default_factory=list)
    t0: float = field(default_factory=time.monotonic)
    _held: set[str] = field(default_factory=set)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start_workers(self, tries: int = 3) -> None:
        """Start every worker (all at once, as a process manager does) and wait until each is ready.

        A worker that exits before it is ready is counted in ``exits`` (phase ``start``) and
        started again, up to ``tries`` starts.

        Raises:
            RuntimeError: a worker did not get ready in ``tries`` starts; its log's last lines.
        """
        for w in self.workers.values():
            w.start()
        for w in self.workers.values():
            while not w.wait_ready():
                tail = w.log_path.read_text(errors="replace").strip().splitlines()[-3:]
                code = w.proc.poll() if w.proc is not None else None
                self.exits.append(
                    {"worker": w.queue, "code": code, "phase": "start", "log": " | ".join(tail)}
                )
                if w.starts >= tries:
                    raise RuntimeError(
                        f"worker {w.queue} did not start ({w.log_path}): " + " | ".join(tail)
                    )
                w.close()
                w.start()
        self._thread = threading.Thread(
            target=self._supervise, name="chaos-supervisor", daemon=True
        )
        self._thread.start()

    def hold(self, queue: str) -> None:
        """The harness is about to kill this worker itself: the supervisor leaves it alone."""
        with self.lock:
            self._held.add(queue)

    def release(self, queue: str) -> None:
        """Restart a held worker and hand it back to the supervisor."""
        with self.lock:
            self.workers[queue].start()
            self._held.discard(queue)

    def _supervise(self) -> None:
        while not self._stop.wait(0.5):
            with self.lock:
                for name, w in self.workers.items():
                    if name in self._held or w.proc is None or w.proc.poll() is None:
                        continue
                    self.exits.append(
                        {"worker": name, "code": w.proc.returncode,
                         "at_s": round(time.monotonic() - self.t0, 1)}
                    )  # fmt: skip
                    w.start()

    def close(self) -> None:
        """End every worker and the redis-server (by PID), the supervisor first."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        for w in self.workers.values():
            w.close()
        self.redis.close()
