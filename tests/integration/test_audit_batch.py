"""``qgs audit``'s batch path against the per-round path: the same files, the same decisions.

Each test audits the same transcripts twice with a real worker, once a job a round
(``--chunk-size 0``) and once in chunks (``qgs.audit.chunk``), on SQLite and PostgreSQL, and
compares every stored result of every round: the task's class and escalation, the round's status
and plan, its review (verdict, score, dimensions, must_fix, warnings, failure), its findings
and its decision (kind, reason, termination, best round, must_fix, suggestions, risk).
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from tests.conftest import CORPUS as SHARED_CORPUS
from tests.conftest import without_held_back
from tests.fake_openai import (
    Answer,
    FakeOpenAIServer,
    is_audit_request,
    message_texts,
    requested_dimensions,
)
from tests.integration.conftest import make_settings, running_worker
from tests.store_snapshot import compare, reset, snapshot

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]

BROKEN = (
    '{"id": "fine", "messages": [{"role": "user", "content": "write a haiku about rain"}, '
    '{"role": "assistant", "content": "Rain taps the window"}]}\n'
    "{not json\n"
    '{"id": "no-assistant", "messages": [{"role": "user", "content": "hello"}]}\n'
)


@pytest.fixture
def transcripts(tmp_path: Path) -> Path:
    """tasks/ (every task type, revision loops, incidents) and the shared corpus's transcripts."""
    folder = tmp_path / "transcripts"
    folder.mkdir()
    for path in sorted((ROOT / "tasks").glob("*.json*")):
        shutil.copy(path, folder / path.name)
    if SHARED_CORPUS.is_dir():
        for path in sorted(SHARED_CORPUS.glob("d_transcripts_*.jsonl")):
            without_held_back(path, folder)  # AgentDojo's travel, workspace: held back
    (folder / "zz_broken.jsonl").write_text(BROKEN, encoding="utf-8")
    return folder


def _audit(
    redis_url: str,
    store_url: str,
    tmp_path: Path,
    folder: Path,
    chunk_size: int,
    monkeypatch: pytest.MonkeyPatch,
    judge: FakeOpenAIServer | None = None,
) -> dict[str, Any]:
    settings = make_settings(redis_url, store_url, judge, tmp_path)
    monkeypatch.setenv("QGS_BROKER_URL", redis_url)
    monkeypatch.setenv("QGS_DATABASE_URL", store_url)
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
    if judge is not None:
        monkeypatch.setenv("QGS_JUDGE__KIND", "openai")
        monkeypatch.setenv("QGS_JUDGE__BASE_URL", judge.base_url)
        monkeypatch.setenv("QGS_JUDGE__API_KEY", "test-key")
    with running_worker(settings):
        result = CliRunner().invoke(
            app,
            ["audit", str(folder), "--no-worker", "--format", "json", "--timeout-s", "180",
             "--chunk-size", str(chunk_size)],
            catch_exceptions=False,
        )  # fmt: skip
        # the folder holds a broken file (zz_broken.jsonl): some input unusable, exit 1
        assert 1 == result.exit_code, result.output
    return snapshot(store_url)


class TestSameDecisions:
    """The batch path stores exactly what the per-round path stores, round for round."""

    def test_rules_judge(
        self,
        redis_url: str,
        store_url: str,
        transcripts: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        monkeypatch.delenv("QGS_POLICY_FILE", raising=False)
        per_round = _audit(redis_url, store_url, tmp_path, transcripts, 0, monkeypatch)
        reset(store_url)
        chunked = _audit(redis_url, store_url, tmp_path, transcripts, 7, monkeypatch)
        tasks = [k for k in chunked if not k.startswith("_")]
        assert len(tasks) >= 17
        rounds = [r for k in tasks for r in chunked[k]["rounds"].values()]
        assert all(r["decision"] for r in rounds), "every round decided once"
        assert {"block", "pass", "force_deliver"} <= {r["decision"][0][0] for r in rounds}
        assert 0 == chunked["_untaken_outbox"] == per_round["_untaken_outbox"]
        # The per-round path's four worker threads may judge two identical rounds of two tasks
        # at once (neither finds the other's review yet), so its count of reused reviews varies
        # with timing; a chunk with the rules judge runs its transcripts in order and reuses.
        assert chunked["_reused"] >= 1
        del per_round["_reused"], chunked["_reused"]
        compare(per_round, chunked)

    def test_llm_judge_with_failures(
        self,
        redis_url: str,
        transcripts: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """A loopback OpenAI judge whose answer depends on the prompt alone: scores, FAILs,
        malformed JSON (stored failures, never a pass), and 429s that are retried."""

        def answer(request: dict[str, Any]) -> Answer:
            if is_audit_request(request):
                return Answer.findings()
            # The fences carry a fresh nonce each call: the answer depends on the rest.
            text = re.sub(r"[0-9a-f]{32}", "", "\n".join(message_texts(request)))
            digest = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
            if re.search(r"haiku|rate limiting|exponential backoff", text, re.IGNORECASE):
                return Answer.content("I think it is fine, more or less.")  # not JSON, ever
            if digest % 3 == 0:
                score = 40 + digest % 30
                names = requested_dimensions(request)
                return Answer.review(
                    "FAIL", score, dict.fromkeys(names, score), must_fix=["cite a source"]
                )
            return Answer.auto("PASS", 70 + digest % 30)

        store_url = f"sqlite:///{tmp_path / 'llm.db'}"
        with FakeOpenAIServer() as judge:
            judge.default = Answer.dynamic(answer)
            judge.script(Answer.status(429, headers={"retry-after": "0"}))
            per_round = _audit(redis_url, store_url, tmp_path, transcripts, 0, monkeypatch, judge)
            reset(store_url)
            judge.script(Answer.status(429, headers={"retry-after": "0"}))
            chunked = _audit(redis_url, store_url, tmp_path, transcripts, 5, monkeypatch, judge)
        reviews = [
            r["review"] for k, t in chunked.items() if not k.startswith("_")
            for r in t["rounds"].values() if r["review"]
        ]  # fmt: skip
        assert any(r[0] == "failed" for r in reviews), "a malformed answer is a stored failure"
        assert any(r[1] == "FAIL" for r in reviews)
        # A chunk reviews its transcripts in 8 threads with an LLM judge: two identical rounds
        # of two tasks may both be judged at once (as two critic jobs may), so the number of
        # reused reviews is left out; every review itself must be the same.
        del per_round["_reused"], chunked["_reused"]
        compare(per_round, chunked)


class TestNothingLost:
    """A chunk the queue lost is sent again round by round, from its outbox rows."""

    def test_a_lost_chunk_comes_back_round_by_round(
        self, redis_url: str, transcripts: Path, tmp_path: Path
    ) -> None:
        from datetime import timedelta

        from qgs_worker.client import Client
        from qgs_worker.client.chunks import send_chunk
        from qgs_worker.queue.sweeper import Sweeper, SweepPolicy, sweep
        from qgs_worker.service.submission import NewTask
        from qgs_worker.store.tables import utcnow
        from qgs_worker.transcripts import TranscriptTask, read_transcripts

        store_url = f"sqlite:///{tmp_path / 'lost.db'}"
        settings = make_settings(redis_url, store_url, None, tmp_path)
        client = Client(settings)
        subs = []
        for item in read_transcripts(transcripts / "03_revision_loops.jsonl"):
            assert isinstance(item, TranscriptTask)
            new = NewTask(request=item.request, source_file=item.source_file)
            subs += [
                client.make_submission(item.key, d, final=n == len(item.rounds), round_number=n,
                                       submission_id=f"{item.key}:{n}", task=new)
                for n, d in enumerate(item.rounds, start=1)
            ]  # fmt: skip
        assert len(subs) == send_chunk(client, subs)
        # The worker that took the chunk died before kombu recorded it (kombu#305): the queue
        # has nothing; only the outbox knows the submissions.
        with client.app.connection_for_write() as conn:
            conn.default_channel.queue_purge("qgs.critic")
        assert len(subs) == client.repo.count_untaken_outbox()
        with running_worker(settings) as app:
            sweeper = Sweeper(app, settings)
            done = sweep(
                sweeper.repo, SweepPolicy.from_settings(settings), sweeper._actions(),
                now=utcnow() + timedelta(seconds=settings.worker.visibility_timeout_s + 1),
            )  # fmt: skip
            assert sorted(s.submission_id for s in subs) == sorted(done.republished)
            decided = [client.wait(s.submission_id, timeout_s=60) for s in subs]
            sweeper.repo.dispose()
        assert all(d is not None for d in decided)
        assert 0 == client.repo.count_untaken_outbox()
        client.repo.dispose()

    def test_a_chunk_the_broker_refuses_leaves_no_outbox_row(self, tmp_path: Path) -> None:
        from qgs_worker.client import Client
        from qgs_worker.client.chunks import send_chunk
        from qgs_worker.config.settings import Settings
        from qgs_worker.errors import BrokerUnavailableError
        from qgs_worker.service.submission import NewTask

        settings = Settings(
            data_dir=tmp_path / ".qgs",
            broker_url="redis://127.0.0.1:1/0",  # nothing listens there
            broker_timeout_s=1.0,
            database_url=f"sqlite:///{tmp_path / 'refused.db'}",
        )
        client = Client(settings)
        new = NewTask(request="deploy the billing service")
        subs = [
            client.make_submission("t-refused", f"Round {n}.", round_number=n,
                                   submission_id=f"t-refused:{n}", task=new, final=n == 2)
            for n in (1, 2)
        ]  # fmt: skip
        with pytest.raises(BrokerUnavailableError, match="QGS_BROKER_URL"):
            send_chunk(client, subs)
        assert 0 == client.repo.count_untaken_outbox(), "told it was not queued: nothing left"
        client.repo.dispose()
