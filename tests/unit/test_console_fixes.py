"""The console's fixes of issue 33's break test that need no server: hidden characters, the
live filter's choices, the review box, the event stream's re-check, sessions in the store, an
approval tied to its round."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from qgs_worker.api.console import events
from qgs_worker.api.console.pages import DECISION_CHOICES
from qgs_worker.api.console.render import environment, plain_marked, shown
from qgs_worker.api.console.sessions import Session
from qgs_worker.core.models import Complexity
from qgs_worker.errors import AuthenticationError, NotAwaitingApprovalError
from qgs_worker.service import approvals
from qgs_worker.service.console_model import LineFilter
from qgs_worker.service.records import ApprovalTarget
from qgs_worker.store import Repository

HIDDEN = [
    "\U000e0001",  # language tag
    "\U000e0041",  # tag latin capital A: hidden text
    "\U000e007f",  # cancel tag
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\u3164",  # Hangul filler
    "\uffa0",  # halfwidth Hangul filler
    "\u2028",  # line separator
    "\u2029",  # paragraph separator
    "\ufe00",  # variation selector 1
    "\ufe0f",  # variation selector 16
    "\U000e0100",  # variation selector 17
    "\U000e01ef",  # variation selector 256
    "\u034f",  # combining grapheme joiner
    "\u180b",  # Mongolian free variation selector
    "\u17b4",  # Khmer vowel inherent aq
    "\u2065",  # unassigned, default ignorable
    "\ufff0",  # unassigned, default ignorable
    "\u0085",  # next line (C1 control)
    "\u202e",  # RTL override (marked before too)
    "\u200b",  # zero-width space (marked before too)
]


class TestHiddenCharacters:
    """Unicode's invisible characters are marked (``⟦U+...⟧``); drawn marks are not."""

    @pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
    def test_marked_on_the_page_and_in_the_live_events(self, char: str) -> None:
        mark = f"⟦U+{ord(char):04X}⟧"
        page = str(shown(f"pay{char}me"))
        assert f'pay<span class="ctl" title="hidden character">{mark}</span>me' == page
        assert f"pay{mark}me" == plain_marked(f"pay{char}me")

    @pytest.mark.parametrize(
        "text", ["café", "cafe\u0301", "नमस्ते", "שָׁלוֹם", "مَرْحَبًا", "承認します", "tab\there\nnext\r\n"]
    )
    def test_drawn_text_is_left_as_it_is(self, text: str) -> None:
        assert text == plain_marked(text)


def test_the_live_filter_offers_each_decision_once() -> None:
    assert len(DECISION_CHOICES) == len(set(DECISION_CHOICES))
    assert 1 == DECISION_CHOICES.count("awaiting_approval")


class TestTheReviewBox:
    """A "Must fix" heading only on a review that failed; a passed one's notes say they did not hold it."""

    def _review(self, verdict: str) -> str:
        review = SimpleNamespace(
            verdict=verdict, status="ok", score=91, judge="j", error=None, summary="",
            dimensions=[], must_fix=["tighten the wording"], warnings=[],
        )  # fmt: skip
        macros = environment().get_template("macros.html.j2").module
        return str(macros.review(review))  # type: ignore[attr-defined]

    def test_a_passed_review(self) -> None:
        html = self._review("PASS")
        assert "Must fix" not in html and "did not hold the round back" in html
        assert "tighten the wording" in html

    def test_a_failed_review(self) -> None:
        html = self._review("FAIL")
        assert "<b>Must fix</b>" in html and "tighten the wording" in html


@dataclass
class _FakeOps:
    """Just what the event stream calls: a broker-less notifier that floods, the session check."""

    live: bool = True
    checks: int = 0
    settings: Any = field(default_factory=lambda: SimpleNamespace(broker_url="redis://x"))
    listeners: list[Callable[[str | None], None]] = field(default_factory=list)

    @property
    def notifier(self) -> Any:
        ops = self

        class Notifier:
            running = True

            def listen(self, heard: Callable[[str | None], None]) -> Callable[[], None]:
                ops.listeners.append(heard)
                return lambda: None

        return Notifier()

    def session(self, key_id: str, nonce: str) -> Any:
        self.checks += 1
        if not self.live:
            raise AuthenticationError("revoked")
        return SimpleNamespace(key_id=key_id)

    def task_lines(self, me: Any, where: LineFilter, *, limit: int = 100) -> list[Any]:
        return []


async def _run_stream(ops: _FakeOps, session: Session, revoke_after_checks: int) -> list[bytes]:
    """Read the stream while a notice arrives every few milliseconds; revoke after N checks."""
    got: list[bytes] = []
    stream = events._events(ops, SimpleNamespace(), session, LineFilter())  # type: ignore[arg-type]

    async def flood() -> None:
        while True:
            for heard in ops.listeners:
                heard("t-1")
            if ops.checks >= revoke_after_checks:
                ops.live = False
            await asyncio.sleep(0.001)

    flooding = asyncio.create_task(flood())
    try:
        async for chunk in stream:
            got.append(chunk)
    finally:
        flooding.cancel()
    return got


class TestTheEventStreamChecksTheSession:
    """A revoked key or an ended session stops a busy stream too (every KEEPALIVE_S)."""

    @pytest.fixture(autouse=True)
    def _fast(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(events, "KEEPALIVE_S", 0.05)
        monkeypatch.setattr(events, "BATCH_S", 0.001)

    def test_a_key_revoked_during_a_flood_of_notices_ends_the_stream(self) -> None:
        ops = _FakeOps()
        session = Session("k1", "n1", time.time() + 3600)
        got = asyncio.run(_run_stream(ops, session, revoke_after_checks=2))
        assert got[-1].startswith(b"event: signed-out")
        assert ops.checks == 3  # checked while notices kept coming; the third saw the revocation

    def test_an_expired_session_ends_the_stream(self) -> None:
        ops = _FakeOps()
        session = Session("k1", "n1", time.time() - 1)
        got = asyncio.run(_run_stream(ops, session, revoke_after_checks=10**6))
        assert got[-1].startswith(b"event: signed-out") and ops.live


class TestSessionsInTheStore:
    """A session is live until signed out or expired, and only for its key."""

    def test_open_check_end(self) -> None:
        repo = Repository("sqlite://")
        later = datetime.now(UTC) + timedelta(hours=8)
        repo.open_console_session("nonce-1", "abc123abc123", later)
        assert repo.console_session_live("nonce-1", "abc123abc123")
        assert not repo.console_session_live("nonce-1", "ffffffffffff")  # another key
        assert not repo.console_session_live("nonce-2", "abc123abc123")  # never opened
        repo.end_console_session("nonce-1")
        assert not repo.console_session_live("nonce-1", "abc123abc123")
        repo.open_console_session("nonce-3", "abc123abc123", datetime.now(UTC) - timedelta(1))
        assert not repo.console_session_live("nonce-3", "abc123abc123")  # expired
        repo.dispose()


@dataclass
class _Store:
    target: ApprovalTarget
    recorded: list[int] = field(default_factory=list)
    sent: int = 0  # the highest round number submitted and not yet stored (0: none)

    def approval_target(self, task_id: str) -> ApprovalTarget:
        return self.target

    def round_numbers(self, task_id: str, number: int | None = None) -> tuple[int, bool]:
        later = self.target.later[0] if self.target.later else self.target.round_number
        return max(later, self.target.round_number, self.sent) + 1, False

    def record_approval(self, target: ApprovalTarget, **kwargs: Any) -> Any:
        self.recorded.append(target.round_number)
        return target


class TestAnApprovalTiedToItsRound:
    """``round_number``: the round the person looked at; a task that moved on approves nothing."""

    def _target(
        self, number: int, later: Any = None, kind: str = "awaiting_approval", best: Any = None
    ) -> ApprovalTarget:
        return ApprovalTarget(
            task_id="t", complexity=Complexity.REFLECT, round_id=number, round_number=number,
            decision_kind=kind, later=later, best_round=best,
        )  # fmt: skip

    def test_a_later_round_decided_since_is_refused(self) -> None:
        store = _Store(self._target(2))
        with pytest.raises(NotAwaitingApprovalError, match="moved on to round 2 since you opened"):
            approvals.approve(store, "t", by="olivia", round_number=1)
        assert [] == store.recorded

    def test_a_later_round_on_its_way_is_refused(self) -> None:
        store = _Store(self._target(1, later=(2, "reviewing")))
        with pytest.raises(NotAwaitingApprovalError, match="moved on to round 2"):
            approvals.approve(store, "t", by="olivia", round_number=1)
        assert [] == store.recorded

    def test_the_round_looked_at_is_approved(self) -> None:
        store = _Store(self._target(2))
        approvals.approve(store, "t", by="olivia", round_number=2)
        approvals.approve(store, "t", by="olivia")  # None: the round awaiting, as before
        assert [2, 2] == store.recorded

    def test_a_force_deliver_is_approved_from_the_round_it_delivers(self) -> None:
        store = _Store(self._target(3, kind="force_deliver", best=2))
        approvals.approve(store, "t", by="olivia", round_number=2)  # the card shows round 2
        approvals.approve(store, "t", by="olivia", round_number=3)
        with pytest.raises(NotAwaitingApprovalError, match="moved on to round 3 since you opened"):
            approvals.approve(store, "t", by="olivia", round_number=1)
        assert [3, 3] == store.recorded  # the decision's round: approving delivers round 2

    def test_a_force_deliver_shown_then_a_round_submitted_is_refused(self) -> None:
        store = _Store(self._target(3, kind="force_deliver", best=2), sent=4)
        with pytest.raises(NotAwaitingApprovalError, match="moved on to round 4 since you opened"):
            approvals.approve(store, "t", by="olivia", round_number=2)
        assert [] == store.recorded


class TestARoundOnItsWay:
    """A round submitted (202) and not yet stored by a worker blocks an approval (real store)."""

    def test_an_old_page_is_refused_while_the_new_round_is_queued(self) -> None:
        from qgs_worker.core.models import Deliverable
        from qgs_worker.queue import pipeline
        from qgs_worker.service.submission import NewTask, Submission
        from qgs_worker.store import Repository
        from tests.unit.test_pipeline_steps import ScriptedJudge
        from tests.unit.test_review_path_edges import POLICIES, decide_through

        repo = Repository("sqlite://")
        ask = "delete all records in the database"
        first = Submission(
            submission_id="s1", task_id="tx", round_number=1, renumber_on_conflict=False,
            final=True, deliverable=Deliverable(text="score=95"), task=NewTask(request=ask),
        )  # fmt: skip
        decide_through(repo, pipeline.intake(repo, first, POLICIES), ScriptedJudge())
        assert "awaiting_approval" == repo.get_decision(repo.get_round_by_submission("s1").id).kind
        # Round 2 is submitted (202): recorded, no worker has stored it.
        repo.add_outbox("s2", "tx", "{}", round_number=2)
        with pytest.raises(NotAwaitingApprovalError, match="moved on to round 2 since you opened"):
            approvals.approve(repo, "tx", by="olivia", round_number=1)
        with pytest.raises(NotAwaitingApprovalError, match=r"round 2 came after .* on its way"):
            approvals.approve(repo, "tx", by="olivia")
        assert [] == repo.list_approvals("tx")
        repo.dispose()
