"""A round's user turn, end to end: submit -> queue -> store -> judge, on SQLite and PostgreSQL.

An older store, whose ``round`` table has no ``turn`` column, gets it when it is opened.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlmodel import SQLModel

from qgs_worker.client import Client
from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
from qgs_worker.queue import pipeline
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from qgs_worker.store.sql_review import SqlReviewStore
from tests.fake_openai import Answer, FakeOpenAIServer, message_texts
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration

REQUEST = "Where is my notes? Forward it exactly to Bob please. I am USR001."
TURN = "After Bob has received the details, would you mind removing it since there are some errors?"


def older_store(url: str) -> None:
    """The schema as a QGS before turns made it: every table, the round table without ``turn``."""
    engine = create_engine(url)
    SQLModel.metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(text('ALTER TABLE "round" DROP COLUMN "turn"'))
    assert "turn" not in {c["name"] for c in inspect(engine).get_columns("round")}
    engine.dispose()


class TestStore:
    """The turn is stored and read back; an older store gets the nullable column."""

    def test_older_store_gets_the_column_and_round_trips_the_turn(self, store_url: str) -> None:
        older_store(store_url)
        repo = Repository(store_url)
        try:
            policies = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
            for number, turn in ((1, None), (2, TURN)):
                pipeline.intake(
                    repo,
                    Submission(
                        submission_id=f"s{number}",
                        task_id="t",
                        round_number=number,
                        deliverable=Deliverable(text=f"round {number}"),
                        task=NewTask(request=REQUEST),
                        turn=turn,
                    ),
                    policies,
                )
            context = SqlReviewStore(repo.engine).load_task("t", contents="all")
            first, second = context.rounds
            assert (first.turn, second.turn) == (None, TURN)
            for record, turn in ((second, TURN), (first, "")):
                request = pipeline.review_request_of(
                    context.task, record.deliverable(), record.turn
                )
                assert request.turn == turn
        finally:
            repo.dispose()


@pytest.fixture
def qgs(redis_url: str, store_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path):
    fake_judge.default = Answer.auto("PASS", 90)
    settings = make_settings(redis_url, store_url, fake_judge, tmp_path)
    with running_worker(settings) as app:
        client = Client(settings, app=app)
        yield client
        client.repo.dispose()


class TestThroughTheQueue:
    """`submit(turn=...)` crosses the queue; the judge is asked about the turn."""

    def test_turn_reaches_the_store_and_the_judge(
        self, qgs: Client, fake_judge: FakeOpenAIServer
    ) -> None:
        task = qgs.start_task(REQUEST, task_type="ACTION")
        first = qgs.submit(task.id, "Sent the notes to Bob.")
        qgs.wait(first.id, timeout_s=30)
        second = qgs.submit(task.id, "I deleted the message to Bob.", final=True, turn=TURN)
        decision = qgs.wait(second.id, timeout_s=30)
        stored = qgs.repo.get_round_by_submission(second.id)
        prompts = ["\n".join(message_texts(r)) for r in fake_judge.requests]
        asked = [p for p in prompts if "I deleted the message to Bob." in p]
        assert (decision.kind, stored.turn) == ("pass", TURN)
        assert asked and "The user turn this deliverable answers" in asked[-1]
        assert TURN in asked[-1] and REQUEST in asked[-1]
