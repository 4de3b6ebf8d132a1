"""``qgs audit``'s batch path without a broker: the chunk store and ``audit_chunk`` on SQLite.

The same transcripts go through the review steps one store call at a time on the results store
(``SqlReviewStore``), and as a chunk (``ChunkReviewStore``, written by one ``flush``): both
stores must read back the same. Then what a chunk does with what does not fit it: a message
that does not validate, a task already stored, a step that raises, a chunk delivered twice, a
task stored by someone else before the flush.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.judges import make_judge
from qgs_worker.queue import audit_chunk as audit_chunk_module
from qgs_worker.queue.audit_chunk import audit_chunk
from qgs_worker.queue.worker_runtime import Runtime, _audit, _audit_lock, policies_for
from qgs_worker.service import ReviewService
from qgs_worker.service.batch import run_chunk
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from qgs_worker.store.chunk_store import ChunkConflictError, ChunkReviewStore
from qgs_worker.store.tables import RoundRow, TaskRow
from qgs_worker.transcripts import TranscriptTask, read_transcripts
from tests.conftest import CORPUS, agentdojo_held_back
from tests.store_snapshot import compare, snapshot

ROOT = Path(__file__).resolve().parents[2]


def _runtime(tmp_path: Path, name: str) -> Runtime:
    settings = Settings(data_dir=tmp_path / name, database_url=f"sqlite:///{tmp_path / name}.db")
    judge = make_judge("rules")
    return Runtime(
        settings=settings,
        repo=Repository(settings.resolved_database_url),
        judge=judge,
        policies=policies_for(settings),
        audit=_audit(settings, judge),
    )


def _transcripts(client: Client) -> list[list[Submission]]:
    """Every transcript of tasks/ (and the shared corpus's, when present) as submissions."""
    paths = sorted((ROOT / "tasks").glob("*.json*"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.glob("d_transcripts_*.jsonl"))
    out = []
    for path in paths:
        for item in read_transcripts(path):
            if not isinstance(item, TranscriptTask) or agentdojo_held_back(
                item.transcript_id or ""
            ):
                continue  # AgentDojo's travel and workspace: held back
            new = NewTask(request=item.request, agent_model=item.agent_model,
                          source_file=item.source_file, source_line=item.line,
                          transcript_id=item.transcript_id)  # fmt: skip
            out.append([
                client.make_submission(item.key, d, final=n == len(item.rounds), round_number=n,
                                       submission_id=f"{item.key}:{n}", task=new,
                                       turn=item.turn_of(n))
                for n, d in enumerate(item.rounds, start=1)
            ])  # fmt: skip
    return out


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory: pytest.TempPathFactory) -> list[list[Submission]]:
    folder = tmp_path_factory.mktemp("client")
    return _transcripts(Client(Settings(data_dir=folder, database_url=f"sqlite:///{folder}/c.db")))


def _messages(transcripts: list[list[Submission]]) -> list[dict[str, Any]]:
    return [s.intake_message() for subs in transcripts for s in subs]


class TestSameRows:
    def test_chunk_stores_what_the_steps_store_one_call_at_a_time(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        one_by_one = _runtime(tmp_path, "a")
        result = run_chunk(
            one_by_one.service, one_by_one.audit, transcripts,
            drop_task=lambda _: None, audit_lock=_audit_lock,
        )  # fmt: skip
        assert not result.handed_back
        chunked = _runtime(tmp_path, "b")
        sent: list[dict[str, Any]] = []
        outcome = audit_chunk(chunked, _messages(transcripts), publish=sent.append)
        assert (len(transcripts), {}, []) == (outcome.stored_tasks, outcome.per_round, sent)
        compare(snapshot(one_by_one.settings.resolved_database_url),
                snapshot(chunked.settings.resolved_database_url))  # fmt: skip

    def test_a_chunk_reuses_the_reviews_the_store_holds(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        rt = _runtime(tmp_path, "s")
        audit_chunk(rt, _messages(transcripts[:4]), publish=lambda m: None)
        again = [
            [s.model_copy(update={"task_id": s.task_id + "-r2",
                                  "submission_id": s.submission_id + "-r2"}) for s in subs]
            for subs in transcripts[:4]
        ]  # fmt: skip
        calls: list[Any] = []
        review = rt.judge.review
        rt.judge.review = lambda request: calls.append(request) or review(request)  # type: ignore[method-assign]
        audit_chunk(rt, _messages(again), publish=lambda m: None)
        assert [] == calls, "every round's review was in the store already"


_IDS = {"id", "round_id", "review_id", "reused_from", "latency_ms", "duration_ms"}
"""Columns two writes of the same chunk may give other values: ids (assigned per column set in
another order) and the audit roles' measured times."""
_TIME = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d)?")


def _raw_rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows as SQLite holds them, sorted, without ``_IDS``; times as their shape."""
    conn = sqlite3.connect(db)
    try:
        out = {}
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            names = [c[1] for c in conn.execute(f'PRAGMA table_info("{table}")')]
            keep = [i for i, name in enumerate(names) if name not in _IDS]
            rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()
            out[table] = sorted(
                (tuple(_shape(row[i]) for i in keep) for row in rows), key=repr
            )
        return out
    finally:
        conn.close()


def _shape(value: Any) -> Any:
    return re.sub(r"\d", "9", value) if isinstance(value, str) and _TIME.fullmatch(value) else value


class TestTheDriversInserts:
    def test_sqlite_rows_as_core_writes_them(
        self, tmp_path: Path, transcripts: list[list[Submission]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The flush writes through the SQLite driver's executemany (chunk_flush._SqliteRows):
        # the same rows, defaults and stored formats as Core's inserts (_CoreRows); the ids
        # point at the same rows (TestSameRows reads both stores back by task and round).
        from qgs_worker.store import chunk_flush

        fast = _runtime(tmp_path, "fast")
        audit_chunk(fast, _messages(transcripts), publish=lambda m: None)
        monkeypatch.setattr(chunk_flush, "_SqliteRows", chunk_flush._CoreRows)
        core = _runtime(tmp_path, "core")
        audit_chunk(core, _messages(transcripts), publish=lambda m: None)
        fast_rows, core_rows = _raw_rows(tmp_path / "fast.db"), _raw_rows(tmp_path / "core.db")
        assert all(fast_rows[t] for t in ("task", "round", "review", "finding", "audit_run"))
        for table in core_rows:
            assert core_rows[table] == fast_rows[table], table
        with sqlite3.connect(tmp_path / "fast.db") as conn:
            ids = [i for (i,) in conn.execute("SELECT id FROM round ORDER BY id")]
        assert list(range(1, len(ids) + 1)) == ids, "the ids SQLite would have given"


class TestTheInMemoryLock:
    def test_the_reviews_run_under_the_lock_and_the_write_after_it(
        self, tmp_path: Path, transcripts: list[list[Submission]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The job's lock keeps one chunk at a time in memory; the chunk's transaction runs
        # without it, so the next chunk's reviews overlap this one's writes.
        import threading

        lock = threading.Lock()
        held_at: dict[str, bool] = {}
        flush, intake = ChunkReviewStore.flush, ReviewService.intake

        def flush_seen(store: ChunkReviewStore, engine: Any) -> dict[int, int]:
            held_at["flush"] = lock.locked()
            return flush(store, engine)

        def intake_seen(service: ReviewService, *args: Any, **kwargs: Any) -> Any:
            held_at.setdefault("intake", lock.locked())
            return intake(service, *args, **kwargs)

        monkeypatch.setattr(ChunkReviewStore, "flush", flush_seen)
        monkeypatch.setattr(ReviewService, "intake", intake_seen)
        rt = _runtime(tmp_path, "l")
        outcome = audit_chunk(rt, _messages(transcripts[:3]), publish=lambda m: None,
                              in_memory=lock)  # fmt: skip
        assert 3 == outcome.stored_tasks == rt.repo.count_rows(TaskRow)
        assert {"intake": True, "flush": False} == held_at
        assert not lock.locked()


class TestWhatDoesNotFit:
    def test_a_message_that_does_not_validate_goes_round_by_round(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        rt = _runtime(tmp_path, "p")
        messages = _messages(transcripts[:3])
        poisoned = transcripts[1][0].task_id
        for m in messages:
            if m["task_id"] == poisoned:
                m["deliverable"] = "not an object"
        sent: list[dict[str, Any]] = []
        outcome = audit_chunk(rt, messages, publish=sent.append)
        assert {poisoned} == set(outcome.per_round)
        assert "does not validate" in outcome.per_round[poisoned]
        assert [m for m in messages if m["task_id"] == poisoned] == sent
        assert 2 == outcome.stored_tasks == rt.repo.count_rows(TaskRow)

    def test_a_stored_task_goes_round_by_round_and_stored_rounds_are_not_sent(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        rt = _runtime(tmp_path, "t")
        multi = next(subs for subs in transcripts if len(subs) >= 3)
        rt.service.intake(multi[0])  # round 1 stored by the per-round path
        sent: list[dict[str, Any]] = []
        outcome = audit_chunk(rt, _messages([multi, transcripts[0]]), publish=sent.append)
        assert {multi[0].task_id} == set(outcome.per_round)
        assert [s.submission_id for s in multi[1:]] == [m["submission_id"] for m in sent]
        assert 1 == outcome.stored_tasks

    def test_a_step_that_raises_hands_its_task_back(
        self, tmp_path: Path, transcripts: list[list[Submission]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        rt = _runtime(tmp_path, "r")
        chosen = transcripts[:6]
        broken = next(subs[0].task_id for subs in chosen if len(subs) > 1)
        real = ReviewService.intake

        def intake(self: ReviewService, sub: Submission, *, redelivered: bool = False) -> Any:
            if sub.task_id == broken and sub.round_number == 2:
                raise RuntimeError("disk on fire")
            return real(self, sub, redelivered=redelivered)

        monkeypatch.setattr(ReviewService, "intake", intake)
        sent: list[dict[str, Any]] = []
        outcome = audit_chunk(rt, _messages(chosen), publish=sent.append)
        assert {broken} == set(outcome.per_round)
        assert "disk on fire" in outcome.per_round[broken]
        assert {broken} == {m["task_id"] for m in sent}
        assert len(chosen) - 1 == outcome.stored_tasks
        with rt.repo.engine.connect() as conn:  # round 1 went through, and was dropped with it
            stored = set(conn.scalars(select(RoundRow.__table__.c.task_id)))  # type: ignore[attr-defined]
        assert broken not in stored

    def test_a_chunk_delivered_twice_stores_and_sends_nothing_twice(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        rt = _runtime(tmp_path, "d")
        messages = _messages(transcripts[:5])
        audit_chunk(rt, messages, publish=lambda m: None)
        rows = (rt.repo.count_rows(TaskRow), rt.repo.count_rows(RoundRow))
        sent: list[dict[str, Any]] = []
        again = audit_chunk(rt, messages, publish=sent.append)
        assert (0, 0, []) == (again.stored_tasks, again.stored_rounds, sent)
        assert rows == (rt.repo.count_rows(TaskRow), rt.repo.count_rows(RoundRow))

    def test_a_reopened_round_is_sent_again_with_the_rounds_after_it(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        rt = _runtime(tmp_path, "o")
        multi = next(subs for subs in transcripts if len(subs) >= 3)
        audit_chunk(rt, _messages([multi]), publish=lambda m: None)
        with rt.repo.engine.begin() as conn:  # as `qgs audit --retry-failed` reopens round 2
            table = RoundRow.__table__  # type: ignore[attr-defined]
            conn.execute(
                table.update()
                .where(table.c.task_id == multi[0].task_id, table.c.number >= 2)
                .values(status="queued")
            )
        sent: list[dict[str, Any]] = []
        audit_chunk(rt, _messages([multi]), publish=sent.append)
        assert [s.submission_id for s in multi[1:]] == [m["submission_id"] for m in sent]

    def test_a_task_stored_before_the_flush_is_refused_and_nothing_written(
        self, tmp_path: Path, transcripts: list[list[Submission]]
    ) -> None:
        rt = _runtime(tmp_path, "f")
        store = ChunkReviewStore(rt.store, rt.repo.engine)
        service = ReviewService(store, rt.policies, judge=rt.judge)
        run_chunk(service, rt.audit, transcripts[:3], drop_task=store.drop_task)
        raced = transcripts[1][0]
        rt.service.intake(raced)  # the sweeper's per-round intake got there first
        with pytest.raises(ChunkConflictError) as caught:
            store.flush(rt.repo.engine)
        assert {raced.task_id} == caught.value.task_ids
        assert 1 == rt.repo.count_rows(TaskRow)
        store.drop_task(raced.task_id)
        ids = store.flush(rt.repo.engine)
        others = [subs for subs in transcripts[:3] if subs[0].task_id != raced.task_id]
        assert sum(len(subs) for subs in others) == len(ids) == len(set(ids.values()))
        assert all(rid < 0 < real for rid, real in ids.items())
        assert 3 == rt.repo.count_rows(TaskRow)

    def test_the_job_module_reads_no_rows(self) -> None:
        assert "TaskRow" not in vars(audit_chunk_module)
