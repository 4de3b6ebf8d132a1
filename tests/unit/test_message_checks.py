"""One set of checks for a submission, in the client and in the worker: bad input fails alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from kombu.exceptions import OperationalError

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy, ToolCall
from qgs_worker.errors import (
    BrokerUnavailableError,
    DeliverableTooLargeError,
    InputError,
    SubmissionRefusedError,
    WaitTimeoutError,
)
from qgs_worker.queue import pipeline
from qgs_worker.queue.deadletters import refuse_submission
from qgs_worker.service.submission import MAX_NESTING_DEPTH, NewTask, validate_message
from qgs_worker.store import DeadLetterRow, OutboxRow, Repository

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
LIMIT = 1_000_000


def deep(levels: int) -> dict[str, Any]:
    """A dict nested ``levels`` deep, built without recursion."""
    root: dict[str, Any] = {}
    node = root
    for _ in range(levels):
        node["a"] = {}
        node = node["a"]
    return root


def raw(**deliverable: Any) -> dict[str, Any]:
    return {
        "submission_id": "s-1",
        "task_id": "t-1",
        "round_number": 1,
        "deliverable": deliverable or {"text": "ok"},
    }


class TestWorkerChecks:
    """``validate_message`` refuses what a forged or corrupted intake message may hold."""

    def test_ten_megabyte_deliverable(self) -> None:
        with pytest.raises(DeliverableTooLargeError, match="QGS_MAX_DELIVERABLE_BYTES"):
            validate_message(raw(text="x" * 10_000_000), LIMIT)

    def test_nesting_100000_deep(self) -> None:
        message = raw(text="ok", tool_calls=[{"name": "f", "arguments": deep(100_000)}])
        with pytest.raises(InputError, match=f"more than {MAX_NESTING_DEPTH} levels"):
            validate_message(message, LIMIT)

    @pytest.mark.parametrize("deliverable", ["just text", ["a", "list"], None, 42])
    def test_deliverable_that_is_not_an_object(self, deliverable: object) -> None:
        message = raw()
        message["deliverable"] = deliverable
        with pytest.raises(InputError, match="'deliverable' must be an object"):
            validate_message(message, LIMIT)

    def test_lone_surrogate(self) -> None:
        with pytest.raises(InputError, match="not valid UTF-8"):
            validate_message(raw(text="abc\ud800"), LIMIT)

    @pytest.mark.parametrize("message", [["a"], "text", None])
    def test_message_that_is_not_an_object(self, message: object) -> None:
        with pytest.raises(InputError, match="must be a JSON object"):
            validate_message(message, LIMIT)

    def test_good_message_passes(self) -> None:
        assert "ok" == validate_message(raw(), LIMIT).deliverable.text


class TestClientChecks:
    """The client raises InputError, not RecursionError or UnicodeEncodeError."""

    @pytest.fixture
    def client(self, tmp_path: Path) -> Client:
        return Client(Settings(data_dir=tmp_path))

    def test_deep_tool_call_arguments(self, client: Client) -> None:
        call = ToolCall(name="f", arguments=deep(1_500))
        with pytest.raises(InputError, match="levels deep"):
            client.make_submission("t-1", Deliverable(text="x", tool_calls=(call,)))

    def test_lone_surrogate(self, client: Client) -> None:
        with pytest.raises(InputError, match="not valid UTF-8"):
            client.make_submission("t-1", "abc\ud800")

    def test_lone_surrogate_in_turn(self, client: Client) -> None:
        with pytest.raises(InputError, match="'turn'"):
            client.make_submission("t-1", "ok", turn="\udfff")


class RefusingApp:
    """A Celery app whose broker refuses every publish."""

    def send_task(self, *args: Any, **kwargs: Any) -> None:
        raise OperationalError("Connection refused")


class RecordingApp:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send_task(self, name: str, args: Any = (), **kwargs: Any) -> None:
        self.sent.append((name, args))


class TestOutboxFirst:
    """A submission is in the store before it is published, and only if it was."""

    def test_sent_submission_is_in_the_outbox(self, tmp_path: Path) -> None:
        app = RecordingApp()
        client = Client(Settings(data_dir=tmp_path), app=app)
        task = client.start_task("write an article about AI")
        sent = client.submit(task.id, "an article")
        outbox = client.repo.get_outbox(sent.id)
        assert outbox is not None and outbox.taken_at is None
        ((name, args),) = app.sent
        assert ("qgs.review.intake", sent.id) == (name, args[0]["submission_id"])
        assert args[0] == json.loads(outbox.payload)

    def test_refused_publish_removes_the_outbox_row(self, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path), app=RefusingApp())
        task = client.start_task("write an article about AI")
        with pytest.raises(BrokerUnavailableError, match="was not queued"):
            client.submit(task.id, "an article")
        assert 0 == client.repo.count_rows(OutboxRow)
        assert client.repo.delete_task_if_empty(task.id)  # what `qgs submit --request` does
        assert client.repo.find_task(task.id) is None


class TestRefusedMessage:
    """A message that does not validate gets a dead letter and, when its round is known, a decision."""

    def test_round_is_decided_revise_with_the_reason(self) -> None:
        repo = Repository("sqlite://")
        message = raw()
        message["deliverable"] = ["not", "an", "object"]
        message["task"] = {"request": "deploy this service"}
        repo.add_outbox("s-1", "t-1", "{}")
        round_id = refuse_submission(
            repo, POLICIES, message, "'deliverable' must be an object", job="qgs.review.intake"
        )
        assert round_id is not None
        decision = repo.get_decision(round_id)
        assert decision is not None and "revise" == decision.kind
        assert "'deliverable' must be an object" in decision.reason
        letter = repo.list_dead_letters(task_id="t-1")[0]
        assert ("qgs.review.intake", "s-1") == (letter.job, letter.submission_id)
        assert '"not"' in letter.raw_head
        outbox = repo.get_outbox("s-1")
        assert outbox is not None and outbox.taken_at is not None  # not published again

    def test_unidentifiable_message_is_a_dead_letter_only(self) -> None:
        repo = Repository("sqlite://")
        assert (
            refuse_submission(repo, POLICIES, ["x"], "not an object", job="qgs.review.intake")
            is None
        )
        assert 1 == repo.count_rows(DeadLetterRow)


class TestWaitSaysWhy:
    """A wait that times out names the real cause, not "is a worker running?"."""

    def test_submission_nobody_took(self, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path), app=RecordingApp())
        task = client.start_task("write an article about AI")
        sent = client.submit(task.id, "an article")
        seen: list[str] = []
        with pytest.raises(WaitTimeoutError, match="no worker took it yet") as caught:
            client.wait(sent.id, timeout_s=0.0, on_progress=lambda p: seen.append(p.state))
        assert str(tmp_path / "qgs.db") in str(caught.value)
        assert ["sent"] == seen

    def test_unknown_submission_names_the_store(self, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path))
        with pytest.raises(WaitTimeoutError, match="uses another store"):
            client.wait("s-nope", timeout_s=0.0)

    def test_refused_submission_says_why(self, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path))
        client.repo.save_dead_letter(
            "qgs.review.intake", "not an object", "[]", submission_id="s-x"
        )
        # Never to be decided: said as a refusal at once, not as a timeout after the wait.
        with pytest.raises(SubmissionRefusedError, match="the worker refused it: not an object"):
            client.wait("s-x", timeout_s=30.0)

    def test_stored_round_shows_its_judge_retries(self, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path))
        sub = validate_message(raw(), LIMIT).model_copy(
            update={"task": NewTask(request="deploy this service"), "final": True}
        )
        round_id = pipeline.intake(client.repo, sub, POLICIES)
        assert round_id is not None
        client.repo.note_judge_retry(round_id, "HTTP 500 from the judge", None)
        with pytest.raises(WaitTimeoutError, match=r"judge retries so far: 1 \(last: HTTP 500"):
            client.wait("s-1", timeout_s=0.0)


def test_report_lists_dead_letters_and_unfinished_rounds(tmp_path: Path) -> None:
    from qgs_worker.reports.report import build_report

    repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
    repo.save_dead_letter("qgs.review.intake", "cannot be decoded", b"\xff{", message_id="m-1")
    repo.add_outbox("s-9", "t-9", "{}")
    report = build_report(repo)
    assert [("qgs.review.intake", "cannot be decoded", "m-1")] == [
        (d["job"], d["reason"], d["message_id"]) for d in report["dead_letters"]
    ]
    assert {"rounds": 0, "overdue": 0, "outbox_waiting": 1} == report["unfinished"]


def test_older_store_gets_the_new_columns(tmp_path: Path) -> None:
    from sqlalchemy import inspect, text

    url = f"sqlite:///{tmp_path / 'old.db'}"
    repo = Repository(url)
    new = ["status_at", "retry_at", "judge_retries", "retry_reason", "rate_waits", "sweeps",
           "lease_holder", "lease_until"]  # fmt: skip
    with repo.engine.begin() as conn:
        for column in new:
            conn.execute(text(f'ALTER TABLE "round" DROP COLUMN "{column}"'))
        conn.execute(text('DROP TABLE "outbox"'))
    repo.dispose()
    again = Repository(url)
    have = {c["name"] for c in inspect(again.engine).get_columns("round")}
    assert set(new) <= have
    assert inspect(again.engine).has_table("outbox")
    again.dispose()
