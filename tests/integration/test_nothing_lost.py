"""Nothing lost: what the queue drops, the store still knows, and the sweeper sends again.

Real ``qgs worker`` subprocesses on a real Redis (the test db), small visibility timeouts and
sweep intervals so the bound (visibility timeout + two sweep intervals) is a few seconds.
Each test reproduces one defect of issue 11 first (the message lost, the store down, ...).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from celery.signals import task_prerun

from qgs_worker.client import Client
from qgs_worker.store import DeadLetterRow, DecisionRow, OutboxRow, Repository, ReviewRow
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.conftest import make_settings, running_worker

pytestmark = [pytest.mark.integration, pytest.mark.slow]

FAST = {
    "QGS_JUDGE__TIMEOUT_S": "1.5",
    "QGS_WORKER__SOFT_TIME_LIMIT_S": "4",
    "QGS_WORKER__TIME_LIMIT_S": "5",
    "QGS_WORKER__VISIBILITY_TIMEOUT_S": "6",
    "QGS_WORKER__RESTORE_INTERVAL_S": "1",
    "QGS_WORKER__SWEEP_INTERVAL_S": "1",
    "QGS_WORKER__RETRY_HOLD_MAX_S": "1",
    "QGS_WORKER__STORE_MAX_RETRIES": "1",
}
"""A bound of 6 s (the visibility timeout) plus two 1 s sweeps; a critic job's worst case (three
judge calls of 1.5 s and a retry held 1 s) fits inside it, as ``Settings.check`` requires."""


def worker_env(redis_url: str, store: str, judge: FakeOpenAIServer | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env.update(FAST, QGS_BROKER_URL=redis_url, QGS_DATABASE_URL=store)
    if judge is not None:
        env.update(
            QGS_JUDGE__KIND="openai",
            QGS_JUDGE__BASE_URL=judge.base_url,
            QGS_JUDGE__API_KEY="test-key",
        )
    return env


def start_worker(env: dict[str, str], log: Path, queues: str = "all") -> subprocess.Popen[bytes]:
    """A real ``qgs worker``, returned once it said "ready" (so it is idle, in BRPOP)."""
    start = log.stat().st_size if log.exists() else 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "qgs_worker.cli", "worker", "--queues", queues,
         "--concurrency", "2", "--loglevel", "INFO"],
        env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    wait_for(lambda: "ready." in log.read_text(errors="replace")[start:], 60, log)
    return proc


def wait_for(condition: Callable[[], Any], timeout_s: float, log: Path | None = None) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < deadline, log.read_text(errors="replace") if log else "timeout"
        time.sleep(0.05)


def stop(*procs: subprocess.Popen[bytes] | None) -> None:
    for proc in procs:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


@pytest.fixture
def broker(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


class TestHandOff:
    """A job Redis handed to a worker that died before recording it is sent again (kombu#305)."""

    def test_sigstop_submit_sigkill_new_worker_decides(
        self, redis_url: str, broker: redis.Redis, tmp_path: Path
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        env = worker_env(redis_url, store)
        log = tmp_path / "worker.log"
        client = Client(make_settings(redis_url, store, None, tmp_path))
        task = client.start_task("deploy this service")
        idle = second = None
        try:
            for _attempt in range(3):  # a stop just before BRPOP returns leaves the job queued
                idle = start_worker(env, log, queues="critic")  # where intake runs
                sub = self.lose_one(client, task.id, idle, broker)
                if sub is not None:
                    break
                stop(idle)
            assert sub is not None, "the hand-off was not reproduced in 3 tries"
            # The defect: the job is neither queued nor unacknowledged, and no round is stored.
            assert (0, 0) == (broker.llen("qgs.critic"), broker.hlen("unacked"))
            assert client.repo.find_round_by_submission(sub.id) is None
            second = start_worker(env, log)
            decision = client.wait(sub.id, timeout_s=60)
            assert "pass" == decision.kind
            counts = (client.repo.count_rows(ReviewRow), client.repo.count_rows(DecisionRow))
            assert (1, 1) == counts
            outbox = client.repo.get_outbox(sub.id)
            assert outbox is not None and outbox.taken_at is not None
            assert 2 == outbox.published  # the client's publish, and the sweeper's
        finally:
            if idle is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(idle.pid, signal.SIGKILL)
            stop(idle, second)
            client.repo.dispose()

    @staticmethod
    def lose_one(
        client: Client, task_id: str, idle: subprocess.Popen[bytes], broker: redis.Redis
    ) -> Any:
        """SIGSTOP the idle worker, submit, SIGKILL it; the handle when the job was lost."""
        pending = client.make_submission(
            task_id, "Deployed billing v2; health checks green.", final=True, round_number=1
        )
        with client.app.producer_or_acquire() as producer:  # connected before the stop
            producer.connection.ensure_connection()
        time.sleep(1.5)  # the worker's next BRPOP (1 s) is under way
        os.kill(idle.pid, signal.SIGSTOP)  # blocked in BRPOP: Redis hands it the next job
        sent = client.send(pending)  # within the BRPOP's 1 s window
        time.sleep(0.3)
        os.kill(idle.pid, signal.SIGKILL)
        idle.wait(10)
        if broker.llen("qgs.critic"):  # not handed over: try again
            broker.delete("qgs.critic")
            client.repo.drop_outbox(sent.id)
            return None
        return sent


class FlakyProxy:
    """A TCP proxy to PostgreSQL that can refuse connections (a store that is down)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.up = True
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                conn.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self._open += [conn, upstream]
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.close()

    def down(self) -> None:
        self.up = False
        for s in self._open:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        self._open.clear()

    def close(self) -> None:
        self.down()
        self.listener.close()


class TestStoreDownAtIntake:
    """A worker whose store is down retries and never drops the submission."""

    def test_intake_is_not_dropped(
        self, redis_url: str, broker: redis.Redis, pg_database: str, tmp_path: Path
    ) -> None:
        proxy = FlakyProxy(5432)
        via_proxy = pg_database.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        env = worker_env(redis_url, via_proxy)
        log = tmp_path / "worker.log"
        Repository(pg_database).dispose()  # the schema exists before the worker starts
        client = Client(make_settings(redis_url, pg_database, None, tmp_path))
        proc = start_worker(env, log)
        try:
            task = client.start_task("deploy this service")
            proxy.down()
            sub = client.submit(task.id, "Deployed billing v2; health checks green.", final=True)
            wait_for(lambda: "the store is still unreachable" in log.read_text(), 60, log)
            assert client.repo.find_round_by_submission(sub.id) is None
            proxy.up = True
            decision = client.wait(sub.id, timeout_s=60)
            assert "pass" == decision.kind
            assert 1 == client.repo.count_rows(DecisionRow)
        finally:
            stop(proc)
            proxy.close()
            client.repo.dispose()


class TestPreflight:
    """`qgs worker` refuses to say ready without its store and broker (exit 2, the setting named)."""

    @pytest.mark.parametrize(
        ("variable", "value"),
        [
            ("QGS_DATABASE_URL", "postgresql://postgres@127.0.0.1:1/qgs"),
            ("QGS_BROKER_URL", "redis://127.0.0.1:1/0"),
        ],
    )
    def test_refuses_to_start(
        self, redis_url: str, tmp_path: Path, variable: str, value: str
    ) -> None:
        env = worker_env(redis_url, f"sqlite:///{tmp_path / 'qgs.db'}")
        env[variable] = value
        done = subprocess.run(
            [sys.executable, "-m", "qgs_worker.cli", "worker", "--queues", "default"],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert 2 == done.returncode
        assert variable in done.stderr
        assert "ready." not in done.stdout + done.stderr

    def test_submit_request_with_refused_broker_leaves_no_task(
        self, redis_url: str, tmp_path: Path
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        env = worker_env("redis://127.0.0.1:1/0", store)
        done = subprocess.run(
            [sys.executable, "-m", "qgs_worker.cli", "submit", "--request", "deploy it", "-"],
            env=env, input="Deployed.", capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert 2 == done.returncode, done.stderr
        assert "QGS_BROKER_URL" in done.stderr
        repo = Repository(store)
        assert [] == repo.list_tasks()
        repo.dispose()


class TestHeldRetries:
    """A long Retry-After is parked in the store: nothing piles up unacknowledged in a worker."""

    def test_429_retries_are_parked_not_held(
        self, redis_url: str, broker: redis.Redis, fake_judge: FakeOpenAIServer, tmp_path: Path
    ) -> None:
        fake_judge.default = Answer.status(429, headers={"Retry-After": "90"})
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = make_settings(
            redis_url, store, fake_judge, tmp_path, soft_time_limit_s=4.0, time_limit_s=5.0,
            visibility_timeout_s=60.0, retry_hold_max_s=1.0,
        )  # fmt: skip
        client = Client(settings)
        with running_worker(settings) as app:
            subs = []
            for n in range(10):
                task = client.start_task(f"deploy service {n}")
                subs.append(client.submit(task.id, f"Deployed service {n}.", final=True))
            rounds = lambda: [client.repo.find_round_by_submission(s.id) for s in subs]  # noqa: E731
            wait_for(lambda: all(r is not None and r.retry_at for r in rounds()), 60)
            # The defect: 10 critic jobs held with a 90 s countdown, unacknowledged (for 90 s);
            # parked, each is acknowledged right after its retry_at is stored.
            wait_for(lambda: 0 == broker.hlen("unacked"), 10)
            assert all(1 == r.judge_retries for r in rounds() if r is not None)
            assert 10 == len(fake_judge.requests)
            # When due, the sweeper brings them back; the judge now answers.
            fake_judge.default = Answer.auto("PASS", 90)
            from qgs_worker.queue.sweeper import Sweeper, SweepPolicy, sweep
            from qgs_worker.store.tables import utcnow

            sweeper = Sweeper(app, settings)
            done = sweep(
                sweeper.repo, SweepPolicy.from_settings(settings), sweeper._actions(),
                now=utcnow() + timedelta(seconds=91),
            )  # fmt: skip
            assert 10 == len(done.retried)
            assert all("pass" == client.wait(s.id, timeout_s=60).kind for s in subs)
            sweeper.repo.dispose()
        client.repo.dispose()


class TestRedeliveredReview:
    """A review longer than the visibility timeout is redelivered, and the judge is not called twice."""

    def test_one_call_plus_its_repair(
        self,
        redis_url: str,
        broker: redis.Redis,
        fake_judge: FakeOpenAIServer,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        from qgs_worker.config.settings import JudgeSettings, Settings

        # The start-up checks refuse these settings (a review, and its lease, can outlive the
        # visibility timeout); the review lease is the second line of defence, tested here
        # with them off.
        monkeypatch.setattr(Settings, "_check_worst_case", lambda self: None)
        monkeypatch.setattr(Settings, "_check_review_lease", lambda self: None)

        # Two calls of 3.8 s (the answer, then its repair): 7.6 s, past the 5.5 s timeout.
        fake_judge.script(
            Answer.delay(3.8, then=Answer.content("not json at all")),
            Answer.delay(3.8, then=Answer.auto("PASS", 90)),
        )
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = make_settings(
            redis_url, store, fake_judge, tmp_path, soft_time_limit_s=4.0, time_limit_s=5.0,
            visibility_timeout_s=5.5, restore_interval_s=1.0,
        ).model_copy(update={"judge": JudgeSettings(
            kind="openai", base_url=fake_judge.base_url, api_key="k", timeout_s=3.9)})  # fmt: skip
        client = Client(settings)
        runs: list[str] = []

        def count(sender: Any = None, **_: Any) -> None:
            # The review runs in the intake job (on the critic queue), or in a critic job.
            if getattr(sender, "name", "") in ("qgs.review.intake", "qgs.review.critic"):
                runs.append(sender.name)

        task_prerun.connect(count, weak=False)
        try:
            with running_worker(settings):
                task = client.start_task("deploy this service")
                sub = client.submit(
                    task.id, "Deployed billing v2; health checks green.", final=True
                )
                decision = client.wait(sub.id, timeout_s=60)
                row = client.repo.get_round_by_submission(sub.id)
        finally:
            task_prerun.disconnect(count)
        assert ("pass", 90) == (decision.kind, decision.score)
        assert 2 <= len(runs)  # the defect: Redis redelivered the reviewing job while it ran
        assert 2 == len(fake_judge.requests)  # one call plus its repair, never a second review
        assert 1 == row.attempts
        client.repo.dispose()


def publish_raw(broker: redis.Redis, body: bytes, task_name: str = "qgs.review.intake") -> str:
    """Put a Celery protocol-2 message with this exact body on ``qgs.default`` (kombu's format)."""
    import base64

    message_id = str(uuid.uuid4())
    envelope = {
        "body": base64.b64encode(body).decode(),
        "content-encoding": "utf-8",
        "content-type": "application/json",
        "headers": {
            "lang": "py", "task": task_name, "id": message_id, "root_id": message_id,
            "parent_id": None, "group": None, "retries": 0, "timelimit": [None, None],
            "eta": None, "expires": None, "argsrepr": "()", "kwargsrepr": "{}",
            "origin": "test", "ignore_result": True,
        },
        "properties": {
            "correlation_id": message_id, "delivery_mode": 2, "body_encoding": "base64",
            "delivery_info": {"exchange": "", "routing_key": "qgs.default"}, "priority": 0,
            "delivery_tag": str(uuid.uuid4()),
        },
    }  # fmt: skip
    broker.lpush("qgs.default", json.dumps(envelope))
    return message_id


def intake_body(message: dict[str, Any] | str) -> bytes:
    text = message if isinstance(message, str) else json.dumps(message)
    return f'[[{text}], {{}}, {{"callbacks": null, "errbacks": null, "chain": null, "chord": null}}]'.encode()


class TestWorkerOnAnotherStore:
    """A worker whose QGS_DATABASE_URL is not the client's does not swallow the submission."""

    def test_an_unknown_task_is_not_acknowledged_as_done(
        self, redis_url: str, broker: redis.Redis, tmp_path: Path
    ) -> None:
        from qgs_worker.store import AuditErrorRow

        client_store = f"sqlite:///{tmp_path / 'client.db'}"
        worker_store = f"sqlite:///{tmp_path / 'worker.db'}"
        client = Client(make_settings(redis_url, client_store, None, tmp_path))
        worker_settings = make_settings(
            redis_url, worker_store, None, tmp_path, store_max_retries=1, retry_hold_max_s=0.2
        )
        with running_worker(worker_settings):
            task = client.start_task("deploy this service")
            sub = client.submit(task.id, "Deployed billing v2.", final=True)
            time.sleep(3)  # the intake job ran, retried once and failed loudly
        wrong = Repository(worker_store)
        # The defect: an audit error in the wrong store, the job acknowledged as done.
        assert 0 == wrong.count_rows(AuditErrorRow)
        assert wrong.find_round_by_submission(sub.id) is None
        wrong.dispose()
        outbox = client.repo.count_rows(OutboxRow)
        assert 1 == outbox  # the client's store still has it, for its sweeper
        client.repo.dispose()


class TestBadRawMessages:
    """Forged or corrupted intake messages fail alone: a dead letter, a reason, a decision."""

    @pytest.fixture
    def world(
        self, redis_url: str, broker: redis.Redis, fake_judge: FakeOpenAIServer, tmp_path: Path
    ) -> Iterator[tuple[Client, redis.Redis, Path]]:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        client = Client(make_settings(redis_url, store, fake_judge, tmp_path))
        log = tmp_path / "worker.log"
        env = worker_env(redis_url, store, fake_judge)
        # With a judge, the audit roles' budgets count too (Settings.check): 3 x (1.2 s + 5 s).
        env["QGS_WORKER__VISIBILITY_TIMEOUT_S"] = "30"
        proc = start_worker(env, log)
        try:
            yield client, broker, log
        finally:
            stop(proc)
            client.repo.dispose()

    def message(self, client: Client, sid: str, deliverable: Any) -> dict[str, Any]:
        task = client.start_task("deploy this service")
        return {"submission_id": sid, "task_id": task.id, "round_number": 1,
                "deliverable": deliverable}  # fmt: skip

    def decided(self, client: Client, sid: str) -> DecisionRow:
        def found() -> DecisionRow | None:
            row = client.repo.find_round_by_submission(sid)
            return client.repo.get_decision(row.id) if row and row.id else None

        return wait_for(found, 60)  # type: ignore[no-any-return]

    @pytest.mark.parametrize(
        ("deliverable", "why"),
        [
            ({"text": "x" * 10_000_000}, "over the limit"),
            (["not", "an", "object"], "'deliverable' must be an object"),
            (
                {"text": "x", "tool_calls": [{"name": "f", "arguments": "DEEP"}]},
                "cannot be decoded",
            ),
        ],
        ids=["10MB", "non-dict", "100000-deep"],
    )
    def test_refused_with_a_decision(
        self, world: tuple[Client, redis.Redis, Path], deliverable: Any, why: str
    ) -> None:
        client, broker, _ = world
        sid = f"s-{uuid.uuid4().hex[:8]}"
        text = json.dumps(self.message(client, sid, deliverable))
        text = text.replace('"DEEP"', '{"a": ' * 100_000 + "1" + "}" * 100_000)
        publish_raw(broker, intake_body(text))
        decision = self.decided(client, sid)
        assert "revise" == decision.kind
        assert why in decision.reason
        letters = [d for d in client.repo.list_dead_letters() if d.submission_id == sid]
        assert 1 == len(letters) and why in letters[0].reason
        assert len(letters[0].raw_head.encode()) <= 2048
        assert 0 == client.repo.count_rows(ReviewRow)  # never sent to the judge

    def test_undecodable_body_is_a_dead_letter(
        self, world: tuple[Client, redis.Redis, Path]
    ) -> None:
        client, broker, _ = world
        message_id = publish_raw(broker, b"\xff\xfe{not json")
        letter = wait_for(
            lambda: next((d for d in client.repo.list_dead_letters() if d.message_id == message_id), None),
            60,
        )  # fmt: skip
        assert "cannot be decoded" in letter.reason
        assert "qgs.review.intake" == letter.job
        assert 0 == client.repo.count_rows(OutboxRow)
        assert 1 == client.repo.count_rows(DeadLetterRow)

    @pytest.mark.parametrize("body", [b"null", b'"hello"', b'{"not": "a list"}'])
    def test_a_malformed_body_does_not_stop_the_worker(
        self, world: tuple[Client, redis.Redis, Path], body: bytes
    ) -> None:
        """JSON that is not [args, kwargs, embed] stopped every worker that took it (a new
        user's try: "Unrecoverable error: TypeError"), and the queue behind it with it."""
        client, broker, log = world
        message_id = publish_raw(broker, body)
        letter = wait_for(
            lambda: next((d for d in client.repo.list_dead_letters() if d.message_id == message_id), None),
            60,
            log,
        )  # fmt: skip
        assert "[args, kwargs, embed]" in letter.reason
        # the worker is still up: a real submission behind the poison is decided
        task = client.start_task("summarize the notes", task_type="QUERY")
        sub = client.submit(task.id, "The notes say the release is on Friday.", final=True)
        assert client.wait(sub.id, timeout_s=60) is not None
        assert "Unrecoverable error" not in log.read_text(errors="replace")


def test_older_store_gets_the_new_columns(store_url: str) -> None:
    """A store an older QGS created gets the recovery columns and tables (SQLite, PostgreSQL)."""
    from sqlalchemy import inspect, text

    repo = Repository(store_url)
    new = ["status_at", "retry_at", "judge_retries", "retry_reason", "rate_waits", "sweeps",
           "lease_holder", "lease_until"]  # fmt: skip
    with repo.engine.begin() as conn:
        for column in new:
            conn.execute(text(f'ALTER TABLE "round" DROP COLUMN "{column}"'))
        for table in ("outbox", "lease", "dead_letter"):
            conn.execute(text(f'DROP TABLE "{table}"'))
    repo.dispose()
    again = Repository(store_url)
    inspector = inspect(again.engine)
    assert set(new) <= {c["name"] for c in inspector.get_columns("round")}
    assert all(inspector.has_table(t) for t in ("outbox", "lease", "dead_letter"))
    assert again.take_lease("sweeper", "a", 30) and not again.take_lease("sweeper", "b", 30)
    again.dispose()


def test_a_call_that_does_not_fit_its_job_is_a_dead_letter(
    redis_url: str, broker: redis.Redis, tmp_path: Path
) -> None:
    """Arguments that do not fit the job (an empty args list for intake) fail before the
    job's code runs: stored as a dead letter, not only logged (a new user's try)."""
    store = f"sqlite:///{tmp_path / 'qgs.db'}"
    settings = make_settings(redis_url, store, None, tmp_path)
    client = Client(settings)
    with running_worker(settings):
        message_id = publish_raw(broker, b"[[], {}, {}]")
        letter = wait_for(
            lambda: next((d for d in client.repo.list_dead_letters() if d.message_id == message_id), None),
            30,
        )  # fmt: skip
    assert "do not fit the job" in letter.reason and "qgs.review.intake" == letter.job
    client.repo.dispose()
