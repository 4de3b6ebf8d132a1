"""Every error a caller of the public API sees is a QGS error: a dead store, a dead broker, a bad data folder.

Issue 31, item 3: with the store refusing connections, ``Client.submit``, ``start_task`` and
``decision`` raised ``sqlalchemy.exc.OperationalError``; ``QGS_DATA_DIR`` pointing at a file
gave every command a ``FileExistsError`` traceback and exit 1.

The store dies under a live client: the client talks to PostgreSQL through a loopback TCP relay
that the test closes (its port then refuses connections, as a stopped database's does).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import qgs_worker
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.errors import (
    BrokerUnavailableError,
    ConfigurationError,
    QGSError,
    StoreUnavailableError,
)

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


class Relay:
    """A loopback TCP relay to ``target``; ``close`` ends every connection and refuses new ones."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self.listener, selectors.EVENT_READ)
        peer: dict[socket.socket, socket.socket] = {}
        while not self.stop.is_set():
            for key, _ in sel.select(timeout=0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock is self.listener:
                    inside, _addr = self.listener.accept()
                    outside = socket.create_connection(self.target)
                    peer[inside], peer[outside] = outside, inside
                    self.pairs.append((inside, outside))
                    sel.register(inside, selectors.EVENT_READ)
                    sel.register(outside, selectors.EVENT_READ)
                    continue
                try:
                    data = sock.recv(65536)
                    if data:
                        peer[sock].sendall(data)
                except OSError:
                    data = b""
                if not data:
                    for end in (sock, peer[sock]):
                        with contextlib.suppress(KeyError, ValueError):
                            sel.unregister(end)
                        end.close()
        sel.close()

    def close(self) -> None:
        """Refuse new connections and drop the open ones (the database stopped)."""
        self.stop.set()
        self.thread.join(timeout=5)
        self.listener.close()
        for inside, outside in self.pairs:
            for end in (inside, outside):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()


@pytest.fixture
def relayed(pg_database: str) -> Iterator[tuple[str, Relay]]:
    """The session's PostgreSQL database through a relay: (its URL through the relay, the relay)."""
    relay = Relay(("127.0.0.1", 5432))
    head, _, rest = pg_database.partition("@127.0.0.1:5432/")
    yield f"{head}@127.0.0.1:{relay.port}/{rest}", relay
    relay.close()
    engine = create_engine(pg_database)  # the session's database: the next test finds it empty
    SQLModel.metadata.drop_all(engine)
    engine.dispose()


def exported(exc: BaseException) -> bool:
    """The error is one of the package's exported QGS errors."""
    return isinstance(exc, QGSError) and type(exc).__name__ in qgs_worker.__all__


class TestDeadStore:
    """A store that stops answering under a live client: StoreUnavailableError from each method."""

    def test_every_client_method_raises_store_unavailable(
        self, relayed: tuple[str, Relay], tmp_path: Path
    ) -> None:
        url, relay = relayed
        settings = Settings(data_dir=tmp_path / ".qgs", database_url=url, broker_url="")
        qgs = Client(settings, app=object())
        task = qgs.start_task("write an article about AI")  # the store answers
        relay.close()
        calls = {
            "start_task": lambda: qgs.start_task("write an article about AI"),
            "submit": lambda: qgs.submit(task.id, "the article"),
            "decision": lambda: qgs.decision("s-1"),
            "wait": lambda: qgs.wait("s-1", timeout_s=0.5),
            "constraints": lambda: qgs.constraints(task.id),
            "task_decision": lambda: qgs.task_decision(task.id),
            "approve": lambda: qgs.approve(task.id, by="ops"),
            "approvals": lambda: qgs.approvals(task.id),
        }
        raised: dict[str, str] = {}
        for name, call in calls.items():
            with pytest.raises(Exception) as caught:
                call()
            raised[name] = type(caught.value).__name__
            assert exported(caught.value), (name, repr(caught.value))
            assert "QGS_DATABASE_URL" in str(caught.value), (name, str(caught.value))
        assert dict.fromkeys(calls, "StoreUnavailableError") == raised
        qgs.repo.dispose()

    def test_a_store_that_never_answered_is_store_unavailable(self, tmp_path: Path) -> None:
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            port = free.getsockname()[1]
        url = f"postgresql+psycopg://qgs:pw@127.0.0.1:{port}/qgs"
        with pytest.raises(StoreUnavailableError, match="QGS_DATABASE_URL") as caught:
            Client(Settings(data_dir=tmp_path, database_url=url))
        assert "pw" not in str(caught.value)  # the password is never shown


class TestDeadBroker:
    """A broker that refuses connections: BrokerUnavailableError, nothing queued."""

    def test_submit_raises_broker_unavailable(self, tmp_path: Path) -> None:
        settings = Settings(
            data_dir=tmp_path / ".qgs",
            database_url=f"sqlite:///{tmp_path / 'q.db'}",
            broker_url="redis://127.0.0.1:1/15",
            broker_timeout_s=1.0,
        )
        qgs = Client(settings)
        task = qgs.start_task("write an article about AI")
        with pytest.raises(BrokerUnavailableError) as caught:
            qgs.submit(task.id, "the article")
        assert exported(caught.value)
        qgs.repo.dispose()


def qgs_cli(
    args: list[str], data_dir: str, tmp_path: Path, **more: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("QGS_")} | {
        "QGS_DATA_DIR": data_dir,
        "PYTHONPATH": str(ROOT),
        **more,
    }
    return subprocess.run(
        [sys.executable, "-m", "qgs_worker.cli", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


class TestCommandsOnDeadServices:
    """A dead store or broker is one line naming its setting and exit 2 for a command."""

    def test_a_dead_store(self, tmp_path: Path) -> None:
        url = f"postgresql+psycopg://qgs:pw@127.0.0.1:{closed_port()}/qgs"
        for args in (["status", "t-1"], ["runs"], ["report"]):
            done = qgs_cli(args, str(tmp_path / ".qgs"), tmp_path, QGS_DATABASE_URL=url)
            assert 2 == done.returncode, done.stderr
            [line] = [line for line in done.stderr.splitlines() if line.strip()]
            assert "QGS_DATABASE_URL" in line and ":pw@" not in line, line

    def test_a_dead_broker(self, tmp_path: Path) -> None:
        article = tmp_path / "a.md"
        article.write_text("an article\n")
        done = qgs_cli(
            ["submit", "--request", "write an article", "--no-wait", str(article)],
            str(tmp_path / ".qgs"),
            tmp_path,
            QGS_BROKER_URL=f"redis://127.0.0.1:{closed_port()}/0",
            QGS_BROKER_TIMEOUT_S="1",
        )
        assert 2 == done.returncode, done.stderr
        assert "Traceback" not in done.stderr and "QGS_BROKER_URL" in done.stderr


class TestBadDataFolder:
    """QGS_DATA_DIR at a file, under a file, or where no folder can be made: one line, exit 2."""

    @pytest.fixture
    def a_file(self, tmp_path: Path) -> Path:
        path = tmp_path / "not-a-folder"
        path.write_text("x")
        return path

    @pytest.mark.parametrize(
        "args",
        [
            ["status", "t-1"],
            ["runs"],
            ["report"],
            ["keys", "list"],
            ["submit", "--request", "hi", "-"],
        ],
    )
    def test_a_file_is_one_line_naming_the_variable_and_exit_2(
        self, args: list[str], a_file: Path, tmp_path: Path
    ) -> None:
        done = qgs_cli(args, str(a_file), tmp_path)
        assert 2 == done.returncode, done.stderr
        assert "Traceback" not in done.stderr
        [line] = [line for line in done.stderr.splitlines() if line.strip()]
        assert "QGS_DATA_DIR" in line and "is a file" in line, line

    @pytest.mark.parametrize("where", ["under-file", "uncreatable"])
    def test_no_folder_can_be_made_is_one_line_and_exit_2(
        self, where: str, a_file: Path, tmp_path: Path
    ) -> None:
        folder = str(a_file / "qgs") if where == "under-file" else "/proc/qgs-no-such/qgs"
        done = qgs_cli(["status", "t-1"], folder, tmp_path)
        assert 2 == done.returncode, done.stderr
        assert "Traceback" not in done.stderr
        [line] = [line for line in done.stderr.splitlines() if line.strip()]
        assert "QGS_DATA_DIR" in line and folder in line, line

    def test_in_python_a_configuration_error(self, a_file: Path) -> None:
        with pytest.raises(ConfigurationError, match="QGS_DATA_DIR") as caught:
            Settings(data_dir=a_file)
        assert exported(caught.value)
        with pytest.raises(ConfigurationError, match="QGS_DATA_DIR") as made:
            Client(Settings(data_dir=Path("/proc/qgs-no-such/qgs")))
        assert exported(made.value)
