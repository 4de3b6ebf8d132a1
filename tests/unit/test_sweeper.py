"""The sweeper on an in-memory store with fake actions: what it sends again, and when."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import Session

from qgs_worker.core.models import CadencePolicy, GatePolicy
from qgs_worker.queue import pipeline
from qgs_worker.queue.sweeper import Actions, SweepPolicy, overdue, sweep
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import DeadLetterRow, Repository, RoundRow
from qgs_worker.store.tables import utcnow

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
POLICY = SweepPolicy(bound_s=60.0, interval_s=1.0, max_redispatches=2)


@pytest.fixture
def repo() -> Repository:
    return Repository("sqlite://")


class Recorder:
    """Fake actions that record what the sweep asked for."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.published: list[dict[str, Any]] = []
        self.dispatched: list[int] = []

    def actions(self) -> Actions:
        return Actions(
            publish=self.published.append,
            dispatch=self.dispatched.append,
            claim=lambda task_id: pipeline.claim_next(self.repo, task_id, POLICIES),
            fail=lambda rid, why: pipeline.fail_round(self.repo, rid, why, POLICIES),
        )


def message(n: int = 1, sid: str = "s-1") -> Submission:
    # Final: the critic is due, so the round is dispatched (a round with nothing due is decided
    # as it is stored, and never sits dispatched).
    return Submission(
        submission_id=sid,
        task_id="t-1",
        round_number=n,
        final=True,
        deliverable={"text": f"round {n}: deployed billing v2"},
        task=NewTask(request="deploy this service"),
    )


def age(repo: Repository, round_id: int, seconds: float, **extra: Any) -> None:
    """Move a round's clock back by ``seconds`` (as if it sat there that long)."""
    with Session(repo.engine) as session:
        row = session.get(RoundRow, round_id)
        assert row is not None
        row.status_at = utcnow() - timedelta(seconds=seconds)
        for key, value in extra.items():
            setattr(row, key, value)
        session.add(row)
        session.commit()


def later(seconds: float) -> Any:
    return utcnow() + timedelta(seconds=seconds)


class TestOutbox:
    """A submission no intake took is published again after the bound, and only then."""

    def test_untaken_submission_is_published_again_after_the_bound(self, repo: Repository) -> None:
        sub = message()
        repo.add_outbox(sub.submission_id, sub.task_id, sub.model_dump_json())
        rec = Recorder(repo)
        assert [] == sweep(repo, POLICY, rec.actions()).republished  # within the bound
        done = sweep(repo, POLICY, rec.actions(), now=later(61))
        assert ["s-1"] == done.republished
        assert [sub.model_dump(mode="json")] == rec.published
        assert [] == sweep(repo, POLICY, rec.actions()).republished  # its clock restarted

    def test_taken_submission_is_left_alone(self, repo: Repository) -> None:
        sub = message()
        repo.add_outbox(sub.submission_id, sub.task_id, sub.model_dump_json())
        pipeline.intake(repo, sub, POLICIES)
        outbox = repo.get_outbox("s-1")
        assert outbox is not None and outbox.taken_at is not None
        assert [] == sweep(repo, POLICY, Recorder(repo).actions(), now=later(61)).republished

    def test_published_too_often_goes_to_the_dead_letters(self, repo: Repository) -> None:
        sub = message()
        repo.add_outbox(sub.submission_id, sub.task_id, sub.model_dump_json())
        rec = Recorder(repo)
        for minutes in (2, 4):
            sweep(repo, POLICY, rec.actions(), now=later(60 * minutes))
        done = sweep(repo, POLICY, rec.actions(), now=later(60 * 6))
        assert (["s-1"], 2) == (done.given_up, len(rec.published))
        letters = repo.list_dead_letters()
        assert ("s-1", "t-1") == (letters[0].submission_id, letters[0].task_id)
        assert "published 3 times" in letters[0].reason
        assert 1 == repo.count_rows(DeadLetterRow)

    def test_failed_publish_leaves_nothing_behind(self, repo: Repository) -> None:
        repo.add_outbox("s-2", "t-1", "{}")
        repo.drop_outbox("s-2")
        assert repo.get_outbox("s-2") is None


class TestRounds:
    """Rounds lost on the way are dispatched again; too often, and they fail with the reason."""

    def dispatched_round(self, repo: Repository) -> int:
        ready = pipeline.intake(repo, message(), POLICIES)
        assert ready is not None
        return ready

    def test_dispatched_round_past_the_bound_is_dispatched_again(self, repo: Repository) -> None:
        rid = self.dispatched_round(repo)
        rec = Recorder(repo)
        assert [] == sweep(repo, POLICY, rec.actions()).redispatched
        age(repo, rid, 61)
        assert "dispatched since" in (overdue(repo.get_round(rid), POLICY.bound_s) or "")
        assert [rid] == sweep(repo, POLICY, rec.actions()).redispatched
        assert 1 == repo.get_round(rid).sweeps
        assert overdue(repo.get_round(rid), POLICY.bound_s) is None  # its clock restarted

    def test_round_dispatched_too_often_fails_never_passes(self, repo: Repository) -> None:
        rid = self.dispatched_round(repo)
        age(repo, rid, 60 * 4 - 1, sweeps=2, retry_reason="HTTP 500")
        assert [] == sweep(repo, POLICY, Recorder(repo).actions()).failed  # the bound doubled twice
        age(repo, rid, 60 * 4 + 1, sweeps=2, retry_reason="HTTP 500")
        done = sweep(repo, POLICY, Recorder(repo).actions())
        decision = repo.get_decision(rid)
        assert [rid] == done.failed
        assert decision is not None and "revise" == decision.kind
        assert "dispatched 3 times without a decision" in decision.reason
        assert "HTTP 500" in decision.reason
        assert "failed" == repo.get_round(rid).status

    def test_running_review_is_not_dispatched_again(self, repo: Repository) -> None:
        rid = self.dispatched_round(repo)
        assert repo.claim_review(rid, "first-copy", 300)
        age(repo, rid, 61)
        assert [] == sweep(repo, POLICY, Recorder(repo).actions()).redispatched
        assert not repo.claim_review(rid, "redelivered-copy", 300)
        repo.release_review(rid, "first-copy")
        assert repo.claim_review(rid, "redelivered-copy", 300)

    def test_parked_retry_comes_back_when_due(self, repo: Repository) -> None:
        rid = self.dispatched_round(repo)
        repo.note_judge_retry(rid, "HTTP 429", utcnow() + timedelta(seconds=90))
        rec = Recorder(repo)
        assert [] == sweep(repo, POLICY, rec.actions(), now=later(30)).retried
        assert [rid] == sweep(repo, POLICY, rec.actions(), now=later(91)).retried
        row = repo.get_round(rid)
        assert (1, None, None) == (row.judge_retries, row.retry_at, row.sweeps)

    def test_queued_round_whose_turn_came_is_claimed(self, repo: Repository) -> None:
        pipeline.ensure_task(repo, message())
        pipeline.store_round(repo, message())  # stored, never claimed (lost dispatch)
        rec = Recorder(repo)
        done = sweep(repo, POLICY, rec.actions())
        assert 1 == len(done.claimed) == len(rec.dispatched)
        assert "dispatched" == repo.get_round(done.claimed[0]).status


class TestLease:
    """One sweeper at a time: the lease is taken by a conditional update."""

    def test_one_holder_at_a_time(self, repo: Repository) -> None:
        assert repo.take_lease("sweeper", "a", 30)
        assert not repo.take_lease("sweeper", "b", 30)
        assert repo.take_lease("sweeper", "a", 30)  # renewed by its holder
        repo.release_lease("sweeper", "a")
        assert repo.take_lease("sweeper", "b", 30)

    def test_expired_lease_is_taken_over(self, repo: Repository) -> None:
        assert repo.take_lease("sweeper", "a", -1)  # expired at once (a dead holder)
        assert repo.take_lease("sweeper", "b", 30)


def test_payload_round_trips_as_the_intake_message(repo: Repository) -> None:
    sub = message()
    repo.add_outbox(sub.submission_id, sub.task_id, json.dumps(sub.model_dump(mode="json")))
    outbox = repo.get_outbox("s-1")
    assert outbox is not None
    assert sub == Submission.model_validate(json.loads(outbox.payload))


def test_status_names_overdue_rounds_and_refused_messages(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from qgs_worker.cli import app

    store = f"sqlite:///{tmp_path / 'qgs.db'}"
    monkeypatch.setenv("QGS_DATABASE_URL", store)
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
    monkeypatch.setenv("QGS_WORKER__VISIBILITY_TIMEOUT_S", "600")
    monkeypatch.setenv("COLUMNS", "200")
    repo = Repository(store)
    rid = pipeline.intake(repo, message(), POLICIES)
    assert rid is not None
    age(repo, rid, 601)
    repo.save_dead_letter("qgs.review.intake", "not an object", "[]", task_id="t-1")
    out = CliRunner().invoke(app, ["status", "t-1"], catch_exceptions=False).output
    assert "overdue: dispatched since" in out
    assert "refused message (qgs.review.intake" in out and "not an object" in out
    repo.dispose()


def test_status_names_a_later_submission_not_yet_taken(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task with stored rounds and one more submission in the outbox says so (a new user
    saw only the stored rounds while the hand-off's round waited for the sweeper)."""
    from typer.testing import CliRunner

    from qgs_worker.cli import app

    store = f"sqlite:///{tmp_path / 'qgs.db'}"
    monkeypatch.setenv("QGS_DATABASE_URL", store)
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
    monkeypatch.setenv("COLUMNS", "200")
    repo = Repository(store)
    assert pipeline.intake(repo, message(), POLICIES) is not None
    later = message().model_copy(update={"submission_id": "s-2", "round_number": 2})
    repo.add_outbox(later.submission_id, later.task_id, json.dumps(later.model_dump(mode="json")))
    out = CliRunner().invoke(app, ["status", "t-1"], catch_exceptions=False).output
    assert "round 1" in out
    assert "1 more submission(s) sent and not yet taken by a worker" in out
    repo.dispose()


class TestOneItemFailsAlone:
    """A poisoned item (an outbox row whose payload no longer parses, an action that raises)
    fails alone: logged and noted, and the sweep goes on with the others."""

    def test_a_corrupt_outbox_payload_does_not_stop_the_others(self, repo: Repository) -> None:
        good = message(sid="s-good")
        repo.add_outbox("s-bad", "t-1", "{not json")
        repo.add_outbox(good.submission_id, good.task_id, good.model_dump_json())
        rec = Recorder(repo)
        done = sweep(repo, POLICY, rec.actions(), now=later(61))
        assert [m["submission_id"] for m in rec.published] == ["s-good"]
        assert "s-good" in done.republished
        assert len(done.errors) == 1 and "'s-bad'" in done.errors[0]

    def test_a_failing_dispatch_does_not_stop_the_next_round(self, repo: Repository) -> None:
        first = pipeline.intake(repo, message(sid="s-1"), POLICIES)
        other = message(sid="s-2").model_copy(update={"task_id": "t-2"})
        second = pipeline.intake(repo, other, POLICIES)
        assert first is not None and second is not None
        age(repo, first, 3600)
        age(repo, second, 3600)
        sent: list[int] = []

        def dispatch(round_id: int) -> None:
            if round_id == first:
                raise ValueError("a message that cannot be built")
            sent.append(round_id)

        actions = Recorder(repo).actions()
        done = sweep(repo, POLICY, dataclasses.replace(actions, dispatch=dispatch), now=later(0))
        assert sent == [second]
        assert len(done.errors) == 1 and f"round {first}" in done.errors[0]

    def test_a_store_that_is_down_stops_the_sweep(self, repo: Repository) -> None:
        from sqlalchemy.exc import OperationalError

        sub = message()
        repo.add_outbox(sub.submission_id, sub.task_id, sub.model_dump_json())

        def down(_: dict[str, Any]) -> None:
            raise OperationalError("publish", {}, Exception("connection refused"))

        actions = Recorder(repo).actions()
        with pytest.raises(OperationalError):
            sweep(repo, POLICY, dataclasses.replace(actions, publish=down), now=later(61))
