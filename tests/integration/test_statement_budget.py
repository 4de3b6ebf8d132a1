"""SQL statements per reviewed round, end to end, counted on SQLite and PostgreSQL.

Issue 12's budget: at most 12 statements for one round from the client's submit to its decision,
when the critic is due and no audit is (the common round). Counted with SQLAlchemy's
``before_cursor_execute`` event on every engine of the process: the client's submit (task check,
outbox row), then the jobs' steps as the worker runs them (``ReviewService.intake``, then
``review(then_decide=True)``), on the real store. The publish is captured instead of sent (no
broker statement is a SQL statement); the worker's steps are what ``jobs.py`` calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import CadencePolicy, GatePolicy
from qgs_worker.judges.rules_judge import RulesJudge
from qgs_worker.service import Policies, ReviewService
from qgs_worker.service.submission import validate_message
from qgs_worker.store.sql_review import SqlReviewStore

BUDGET = 12
"""Issue 12: SQL statements per reviewed round, submit to decision."""


class CapturedApp:
    """Stands in for the Celery app: the intake message is kept, not published."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send_task(self, name: str, args: tuple[Any, ...] = (), **_: Any) -> None:
        assert name == "qgs.review.intake"
        self.sent.append(args[0])


@contextmanager
def counting() -> Iterator[list[str]]:
    """Every SQL statement any engine of this process sends while inside."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement.split(None, 1)[0].upper())

    event.listen(Engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", count)


def test_reviewed_round_within_the_budget(store_url: str, tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path / ".qgs",
        database_url=store_url,
        cadence=CadencePolicy(critic_every=1, discriminator_every=1000),
    )
    app = CapturedApp()
    client = Client(settings, app=app)
    task = client.start_task("Write a short note on tide pools for a school newsletter.")
    store = SqlReviewStore(client.repo.engine)
    service = ReviewService(
        store,
        Policies(
            gate=GatePolicy(), cadence=CadencePolicy(critic_every=1, discriminator_every=1000)
        ),
        judge=RulesJudge(),
    )
    per_round: list[list[str]] = []
    for n in (1, 2, 3):
        text = f"Round {n}. Tide pools hold anemones, crabs and snails; visit at low tide. " * 4
        with counting() as seen:
            handle = client.submit(task.id, text)
            sub = validate_message(app.sent[-1], settings.max_deliverable_bytes)
            ready = service.intake(sub)
            assert ready is not None and (ready.plan.critic, ready.plan.discriminate) == (
                True,
                False,
            )
            outcome = service.review(ready.round_id, then_decide=True)
            assert outcome.next is None
        per_round.append(seen)
        decision = client.decision(handle.id)
        assert decision is not None, f"round {n} was not decided"
    counts = [len(s) for s in per_round]
    assert max(counts) <= BUDGET, f"statements per round {counts}: {per_round}"


def test_round_with_nothing_due_needs_no_job(store_url: str, tmp_path: Path) -> None:
    """Round 1 of a COMPLEX task (critic every 2nd round) is decided as it is stored."""
    settings = Settings(data_dir=tmp_path / ".qgs", database_url=store_url)
    app = CapturedApp()
    client = Client(settings, app=app)
    task = client.start_task("Write a short note on tide pools.", task_type="GENERATE")
    service = ReviewService(
        SqlReviewStore(client.repo.engine), Policies(gate=GatePolicy(), cadence=CadencePolicy())
    )
    with counting() as seen:
        handle = client.submit(task.id, "Tide pools hold anemones and crabs.")
        ready = service.intake(validate_message(app.sent[-1], settings.max_deliverable_bytes))
    decision = client.decision(handle.id)
    assert (ready, decision is not None and decision.kind) == (None, "continue")
    assert len(seen) <= 7, seen  # submit 2, intake 5 (load, round, decision, outbox, next)


@pytest.fixture(autouse=True)
def _no_worker_needed() -> None:
    """These tests call the worker's steps in process; nothing is published."""
