"""``ReviewService.on_decided``: told once a round's decision is stored, on every path."""

from __future__ import annotations

from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
from qgs_worker.queue import pipeline
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from tests.unit.test_pipeline_steps import BrokenJudge, ScriptedJudge

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())


def sub(sid: str, text: str, *, final: bool = True) -> Submission:
    return Submission(
        submission_id=sid,
        task_id="t1",
        final=final,
        deliverable=Deliverable(text=text),
        task=NewTask(request="write an article about AI"),
    )


class Recorder:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.seen: list[tuple[str, int, str]] = []

    def __call__(self, task_id: str, round_id: int) -> None:
        # The decision is readable when the listener runs: it is called after the commit.
        self.seen.append((task_id, round_id, self.repo.get_decision(round_id).kind))


def test_review_then_decide_tells_the_listener_once() -> None:
    repo = Repository("sqlite://")
    heard = Recorder(repo)
    service = pipeline.service_for(repo, POLICIES, judge=ScriptedJudge(), on_decided=heard)
    ready = service.intake(sub("s1", "score=92"))
    assert ready is not None and heard.seen == []  # dispatched, not decided yet
    service.review(ready.round_id, then_decide=True)
    assert heard.seen == [("t1", ready.round_id, "pass")]
    service.review(ready.round_id, then_decide=True)  # a redelivered copy stores nothing new
    assert len(heard.seen) == 1


def test_intake_decide_step_and_failed_round_tell_the_listener() -> None:
    repo = Repository("sqlite://")
    heard = Recorder(repo)
    service = pipeline.service_for(repo, POLICIES, judge=BrokenJudge(), on_decided=heard)
    # A draft on which the cadence skips the critic is decided as it is stored.
    assert service.intake(sub("s1", "draft one", final=False)) is None
    first = repo.get_round_by_submission("s1").id
    reviewed = service.intake(sub("s2", "the final text"))
    assert reviewed is not None
    service.review(reviewed.round_id)  # the judge fails: stored, and the gate holds the round
    service.decide(reviewed.round_id)
    failed = service.intake(sub("s3", "the final text, again"))
    assert failed is not None
    service.fail(failed.round_id, "worker lost")
    assert [r for _, r, _ in heard.seen] == [first, reviewed.round_id, failed.round_id]
    assert all(kind != "pass" for _, _, kind in heard.seen[1:])  # a judge failure never passes


def test_a_failing_listener_does_not_fail_the_step() -> None:
    repo = Repository("sqlite://")

    def broken(task_id: str, round_id: int) -> None:
        raise RuntimeError("listener down")

    service = pipeline.service_for(repo, POLICIES, judge=ScriptedJudge(), on_decided=broken)
    ready = service.intake(sub("s1", "score=92"))
    assert ready is not None
    service.review(ready.round_id, then_decide=True)
    assert repo.get_decision(ready.round_id).kind == "pass"
