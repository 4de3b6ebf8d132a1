"""A round reviewed where its intake runs: the review lease is taken with the round's insert.

The intake job that came on the critic queue reviews its round in place (``jobs._review_here``);
``ReviewService.intake(..., review_holder=...)`` stores such a round holding that holder's review
lease, so the round costs two write transactions (its insert, its settlement) where it cost three
(issue 15, P2: each write transaction queues on the SQLite writer lock). The lease keeps every
guarantee of ``begin_review``: a redelivered copy does not call the judge while it is held, an
expired one is taken over and counted, and the store's counts are the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, update
from sqlalchemy.engine import Engine

from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
from qgs_worker.service import Policies, ReviewService
from qgs_worker.service.policies import ReviewLimits
from qgs_worker.service.records import ReviewAttempt
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from qgs_worker.store.sql_review import SqlReviewStore
from qgs_worker.store.tables import RoundRow, utcnow
from tests.unit.test_pipeline_steps import ScriptedJudge

EVERY_ROUND = CadencePolicy(critic_every=1, discriminator_every=1000)
"""The critic on every round and no audit: a round is reviewed and decided in one step."""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    """A SQLite file store: its writers queue on the writer lock (``store.sqlite_writes``)."""
    repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
    yield repo
    repo.dispose()


def service(repo: Repository, judge: ScriptedJudge, **limits: Any) -> ReviewService:
    return ReviewService(
        SqlReviewStore(repo.engine),
        Policies(gate=GatePolicy(), cadence=EVERY_ROUND),
        judge=judge,
        limits=ReviewLimits(**limits),
    )


def submission(n: int, text: str = "score=90", *, task: str = "tx") -> Submission:
    return Submission(
        submission_id=f"{task}:{n}",
        task_id=task,
        round_number=n,
        deliverable=Deliverable(text=f"Round {n}. {text}"),
        task=NewTask(request="write an article about AI"),
    )


@contextmanager
def write_transactions(engine: Engine) -> Iterator[list[list[str]]]:
    """The write transactions committed on ``engine`` while inside, each its statements' verbs.

    A transaction counts when it sent an ``INSERT``, ``UPDATE`` or ``DELETE`` (reads end in a
    rollback or a commit of nothing: not a write).
    """
    done: list[list[str]] = []
    open_: dict[int, list[str]] = {}

    def statement(conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        verb = sql.split(None, 1)[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE") or id(conn) in open_:
            open_.setdefault(id(conn), []).append(verb)

    def commit(conn: Any) -> None:
        if id(conn) in open_:
            done.append(open_.pop(id(conn)))

    def rollback(conn: Any) -> None:
        open_.pop(id(conn), None)

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(engine, "commit", commit)
    event.listen(engine, "rollback", rollback)
    try:
        yield done
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(engine, "commit", commit)
        event.remove(engine, "rollback", rollback)


def expire_lease(repo: Repository, round_id: int) -> None:
    """Make the round's review lease one that ran out (its holder's worker was lost)."""
    with repo.engine.begin() as conn:
        conn.execute(
            update(RoundRow)
            .where(RoundRow.id == round_id)  # type: ignore[arg-type]
            .values(lease_until=utcnow() - timedelta(seconds=1))
        )


class TestTwoWriteTransactions:
    """A round reviewed at intake is written twice: its insert (with the lease), its settlement."""

    def test_intake_and_review_in_place(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        svc = service(repo, judge)
        first = svc.intake(submission(1))  # round 1 stores the task: not counted below
        assert first is not None
        svc.review(first.round_id, then_decide=True)
        with write_transactions(repo.engine) as writes:
            ready = svc.intake(submission(2), review_holder="h-1")
            assert ready is not None and ready.lease == ReviewAttempt(1, 0, 0)
            outcome = svc.review(ready.round_id, then_decide=True, holder="h-1", lease=ready.lease)
        assert outcome.next is None and 2 == judge.calls
        assert [["INSERT", "UPDATE"], ["INSERT", "INSERT", "INSERT", "UPDATE"]] == writes
        row = repo.get_round(ready.round_id)
        assert ("decided", 1, None, None) == (
            row.status,
            row.attempts,
            row.lease_holder,
            row.lease_until,
        )

    def test_without_a_holder_the_lease_is_its_own_transaction(self, repo: Repository) -> None:
        svc = service(repo, ScriptedJudge())
        with write_transactions(repo.engine) as writes:
            ready = svc.intake(submission(1))
            assert ready is not None and ready.lease is None
            svc.review(ready.round_id, then_decide=True, holder="h-1")
        assert 4 == len(writes)  # the task, the round, the lease, the settlement


class TestLeaseTakenWithTheRound:
    """The round is stored holding the lease, its first attempt counted, as begin_review writes it."""

    def test_stored_with_the_holder_and_one_attempt(self, repo: Repository) -> None:
        before = utcnow()
        ready = service(repo, ScriptedJudge(), lease_s=90.0).intake(
            submission(1), review_holder="h-1"
        )
        assert ready is not None
        row = repo.get_round(ready.round_id)
        assert ("dispatched", "h-1", 1) == (row.status, row.lease_holder, row.attempts)
        assert row.lease_until is not None
        until = row.lease_until.replace(tzinfo=before.tzinfo)
        assert before + timedelta(seconds=89) <= until <= utcnow() + timedelta(seconds=91)

    def test_a_round_queued_behind_another_takes_no_lease(self, repo: Repository) -> None:
        svc = service(repo, ScriptedJudge())
        assert svc.intake(submission(2), review_holder="h-2") is None  # round 1 not yet in
        row = repo.get_round_by_submission("tx:2")
        assert ("queued", None, 0) == (row.status, row.lease_holder, row.attempts)

    def test_a_round_with_nothing_due_takes_no_lease(self, repo: Repository) -> None:
        svc = ReviewService(
            SqlReviewStore(repo.engine),
            Policies(gate=GatePolicy(), cadence=CadencePolicy()),  # critic every 2nd round
            judge=ScriptedJudge(),
        )
        assert svc.intake(submission(1), review_holder="h-1") is None  # decided at once
        row = repo.get_round_by_submission("tx:1")
        assert ("decided", None, 0) == (row.status, row.lease_holder, row.attempts)

    def test_a_copy_of_a_stored_submission_takes_no_lease(self, repo: Repository) -> None:
        svc = service(repo, ScriptedJudge())
        first = svc.intake(submission(1), review_holder="h-1")
        again = svc.intake(submission(1), redelivered=True, review_holder="h-2")
        assert first is not None and again is not None
        assert (first.round_id, None) == (again.round_id, again.lease)
        assert "h-1" == repo.get_round(first.round_id).lease_holder


class TestRedeliveredIntake:
    """A copy of the intake redelivered while the first holds the lease does not call the judge."""

    def test_held_lease_means_no_second_call(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        svc = service(repo, judge)
        first = svc.intake(submission(1), review_holder="h-1")
        assert first is not None
        # The first copy is still waiting on the judge; Redis hands the message out again.
        again = svc.intake(submission(1), redelivered=True, review_holder="h-2")
        assert again is not None and again.lease is None
        outcome = svc.review(again.round_id, then_decide=True, holder="h-2", lease=again.lease)
        assert (True, 0) == (outcome.held_elsewhere, judge.calls)
        assert 1 == repo.get_round(first.round_id).attempts
        # The first copy finishes: one call, one review, one decision.
        svc.review(first.round_id, then_decide=True, holder="h-1", lease=first.lease)
        assert 1 == judge.calls
        assert repo.get_decision(first.round_id) is not None

    def test_expired_lease_is_taken_over_and_counted(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        svc = service(repo, judge)
        first = svc.intake(submission(1), review_holder="h-1")
        assert first is not None
        expire_lease(repo, first.round_id)  # the first copy's worker was lost
        again = svc.intake(submission(1), redelivered=True, review_holder="h-2")
        assert again is not None
        outcome = svc.review(again.round_id, then_decide=True, holder="h-2", lease=again.lease)
        assert (False, 1) == (outcome.held_elsewhere, judge.calls)
        row = repo.get_round(first.round_id)
        assert ("decided", 2) == (row.status, row.attempts)

    def test_lost_deliveries_still_end_in_a_stored_failure(self, repo: Repository) -> None:
        """The lease taken at intake is a delivery that tried a review (``max_lost``)."""
        judge = ScriptedJudge()
        svc = service(repo, judge, max_lost=1)
        first = svc.intake(submission(1), review_holder="h-1")
        assert first is not None
        expire_lease(repo, first.round_id)
        svc.review(first.round_id, then_decide=True, holder="h-2")  # attempts 2 > max_lost 1
        assert 0 == judge.calls
        review = repo.get_review(first.round_id)
        assert review is not None and "delivered 2 times" in (review.error or "")


class TestLeasePassedToReview:
    """``review(lease=...)`` uses the lease it is given and takes none itself."""

    def test_no_begin_review_with_a_lease(self, repo: Repository) -> None:
        svc = service(repo, ScriptedJudge())
        ready = svc.intake(submission(1), review_holder="h-1")
        assert ready is not None and ready.lease is not None
        store = svc.store
        assert isinstance(store, SqlReviewStore)
        calls: list[int] = []
        original = store.begin_review

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            return original(*args, **kwargs)

        store.begin_review = counted  # type: ignore[method-assign]
        svc.review(ready.round_id, then_decide=True, holder="h-1", lease=ready.lease)
        assert [] == calls

    def test_counts_given_are_the_ones_used(self, repo: Repository) -> None:
        """A lease's counts decide as begin_review's would: lost deliveries over the limit fail."""
        judge = ScriptedJudge()
        svc = service(repo, judge, max_lost=1)
        ready = svc.intake(submission(1), review_holder="h-1")
        assert ready is not None and ready.lease is not None
        svc.review(
            ready.round_id, then_decide=True, holder="h-1", lease=replace(ready.lease, attempts=2)
        )
        assert 0 == judge.calls


class TestIntakeJob:
    """``qgs.review.intake`` takes the lease with the round only when it reviews in place."""

    @pytest.fixture
    def job_store(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Repository]:
        from qgs_worker.config.settings import Settings
        from qgs_worker.queue import jobs

        url = f"sqlite:///{tmp_path / 'qgs.db'}"
        app = jobs.intake_job.app
        settings = Settings(  # the rules judge (offline); the critic on every round
            data_dir=tmp_path / ".qgs", database_url=url, cadence=EVERY_ROUND
        )
        monkeypatch.setattr(app, "qgs_settings", settings, raising=False)
        monkeypatch.setattr(app, "qgs_runtime", None, raising=False)
        repo = Repository(url)
        yield repo
        repo.dispose()

    def run_intake(self, sub: Submission, queue: str) -> None:
        from qgs_worker.queue import jobs
        jobs.intake_job.push_request(delivery_info={"routing_key": queue})
        try:
            jobs.intake_job.run(sub.model_dump(mode="json"))
        finally:
            jobs.intake_job.pop_request()

    @pytest.fixture
    def sent(self, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
        """What the job sends on (``jobs.send``), kept instead of published."""
        from qgs_worker.queue import jobs
        kept: list[Any] = []
        monkeypatch.setattr(
            jobs, "send", lambda ready, app=None, countdown_s=None: kept.append(ready)
        )
        return kept

    def test_on_the_critic_queue_no_lease_of_its_own(
        self, job_store: Repository, sent: list[Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def no_second_lease(*_: Any, **__: Any) -> None:
            raise AssertionError("the lease was taken with the round")

        monkeypatch.setattr(SqlReviewStore, "begin_review", no_second_lease)
        self.run_intake(submission(1), "qgs.critic")
        row = job_store.get_round_by_submission("tx:1")
        assert ([], "decided", 1, None) == (sent, row.status, row.attempts, row.lease_holder)

    def test_on_another_queue_sent_on_without_a_lease(
        self, job_store: Repository, sent: list[Any]
    ) -> None:
        self.run_intake(submission(1), "qgs.default")
        row = job_store.get_round_by_submission("tx:1")
        assert 1 == len(sent) and sent[0].lease is None
        assert ("dispatched", 0, None) == (row.status, row.attempts, row.lease_holder)
