"""Work a review hands off its path: ``BackgroundBatches``, the webhook start, ``advance``'s read.

The time these save on a review's path is measured by ``bench/pipeline_bench.py`` (issue 15,
P2), never asserted here; these tests pin what must hold while the work moves: every item is
handled once and in order, a failure holds nothing else, and a decided round's step reads the
task again only when a queued round waits in it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.core.models import GatePolicy, RoundStatus
from qgs_worker.queue.background import BackgroundBatches
from qgs_worker.queue.webhook_starts import decided_listener
from qgs_worker.service import Policies, ReviewService
from qgs_worker.service.records import Dispatch
from qgs_worker.store import Repository
from qgs_worker.store.chunk_store import ChunkReviewStore
from qgs_worker.store.sql_review import SqlReviewStore
from tests.unit.test_pipeline_steps import ScriptedJudge
from tests.unit.test_review_at_intake import EVERY_ROUND, service, submission


class TestBackgroundBatches:
    def test_every_item_once_in_order_off_the_callers_thread(self) -> None:
        gate = threading.Event()
        seen: list[int] = []
        batches: list[int] = []
        threads: set[str] = set()

        def handle(batch: list[int]) -> None:
            gate.wait(10)
            threads.add(threading.current_thread().name)
            batches.append(len(batch))
            seen.extend(batch)

        work = BackgroundBatches(handle, "test-batches")
        for n in range(20):
            work.put(n)  # returns while the handler is held at the gate
        assert [] == seen
        gate.set()
        assert work.flush(10)
        assert list(range(20)) == seen
        assert {"test-batches"} == threads
        assert len(batches) < 20  # what queued while a batch was handled went together

    def test_a_failing_batch_is_logged_and_the_thread_goes_on(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        seen: list[str] = []

        def handle(batch: list[str]) -> None:
            if "bad" in batch:
                raise OSError("the store is away")
            seen.extend(batch)

        work = BackgroundBatches(handle, "test-failing")
        work.put("bad")
        assert work.flush(10)
        work.put("good")
        assert work.flush(10)
        assert ["good"] == seen
        assert "test-failing: a batch of 1 failed" in caplog.text

    def test_flush_says_when_the_work_is_not_done_in_time(self) -> None:
        gate = threading.Event()
        work: BackgroundBatches[int] = BackgroundBatches(lambda _b: gate.wait(10), "test-slow")
        work.put(1)
        assert not work.flush(0.05)
        gate.set()
        assert work.flush(10)


class TestWebhookStartInTheBackground:
    def test_one_rounds_failure_holds_no_other(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
    ) -> None:
        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        started: list[int] = []

        def start_webhook(round_id: int) -> bool:
            if round_id == 2:
                raise OSError("the store is away")
            return True

        monkeypatch.setattr(repo, "start_webhook", start_webhook)
        listener = decided_listener(repo, started.append, in_background=True)
        for round_id in (1, 2, 3):
            listener("t", round_id)
        pause = threading.Event()
        for _ in range(200):  # the listener's thread works on its own: wait up to 10 s
            if len(started) == 2:
                break
            pause.wait(0.05)
        assert [1, 3] == started
        assert "round 2: the webhook delivery was not started" in caplog.text
        repo.dispose()


class CountedLoads:
    """Counts ``load_task`` on a store (the read ``advance`` skips when nothing is queued)."""

    def __init__(self, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        original = store.load_task

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(store, "load_task", counted)


class TestAdvanceReadsOnlyWithAQueuedRound:
    def test_the_latest_round_decided_reads_no_task(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        svc = service(repo, ScriptedJudge())
        ready = svc.intake(submission(1), review_holder="h")
        assert ready is not None
        loads = CountedLoads(svc.store, monkeypatch)
        outcome = svc.review(ready.round_id, then_decide=True, holder="h", lease=ready.lease)
        assert outcome.next is None and 0 == loads.calls
        assert svc.advance("tx", redelivered=True) is None  # a redelivery still reads it
        assert 1 == loads.calls
        repo.dispose()

    def test_a_queued_round_is_claimed_when_its_turn_comes(self, tmp_path: Path) -> None:
        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        svc = service(repo, ScriptedJudge())
        first = svc.intake(submission(1), review_holder="h")
        assert first is not None
        assert svc.intake(submission(2)) is None  # stored queued behind round 1
        store = svc.store
        assert isinstance(store, SqlReviewStore) and store.has_queued_round("tx")
        outcome = svc.review(first.round_id, then_decide=True, holder="h", lease=first.lease)
        assert isinstance(outcome.next, Dispatch)
        assert not store.has_queued_round("tx")
        assert RoundStatus.DISPATCHED == store.load_round(outcome.next.round_id).round(
            outcome.next.round_id
        ).status
        repo.dispose()

    def test_the_chunk_store_answers_the_same(self) -> None:
        chunk = ChunkReviewStore()
        svc = ReviewService(
            chunk, Policies(gate=GatePolicy(), cadence=EVERY_ROUND), judge=ScriptedJudge()
        )
        first = svc.intake(submission(1))
        assert first is not None and not chunk.has_queued_round("tx")
        assert svc.intake(submission(2)) is None
        assert chunk.has_queued_round("tx")
        outcome = svc.review(first.round_id, then_decide=True)
        assert outcome.next is not None and not chunk.has_queued_round("tx")
