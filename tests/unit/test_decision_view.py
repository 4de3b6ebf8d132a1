"""The one DecisionView (``core/views.py``): outcome, delivery and approval, in one place."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from qgs_worker.core.models import Complexity, Decision, DecisionKind, TerminationReason
from qgs_worker.core.views import ApprovalView, DecisionView, approval_outcome

K = DecisionKind
C = Complexity
WHEN = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def approval(approved: bool, decision: str = "awaiting_approval") -> ApprovalView:
    return ApprovalView(
        task_id="t",
        round_number=2,
        decision=decision,
        approved=approved,
        by="alice",
        note="" if approved else "wrong host",
        created_at=WHEN,
    )


def view(
    kind: DecisionKind,
    complexity: Complexity = Complexity.COMPLEX,
    person: ApprovalView | None = None,
    best_round: int | None = None,
) -> DecisionView:
    return DecisionView.of(
        Decision(kind=kind, reason="why", best_round=best_round),
        task_id="t",
        submission_id="s2",
        round_number=2,
        complexity=complexity,
        approval=person,
    )


class TestOutcome:
    """What a decision amounts to, with and without a person's approval."""

    @pytest.mark.parametrize(
        ("kind", "complexity", "person", "outcome", "delivered", "waiting"),
        [
            (K.PASS, C.COMPLEX, None, "pass", True, False),
            (K.PASS_WITH_SUGGESTIONS, C.COMPLEX, None, "pass_with_suggestions", True, False),
            (K.REVISE, C.COMPLEX, None, "revise", False, False),
            (K.BLOCK, C.REFLECT, None, "block", False, False),
            (K.CONTINUE, C.SIMPLE, None, "continue", False, False),
            (K.FORCE_DELIVER, C.COMPLEX, None, "force_deliver", True, False),
            # a REFLECT task's force_deliver waits for a person, like awaiting_approval
            (K.FORCE_DELIVER, C.REFLECT, None, "awaiting_approval", False, True),
            (K.AWAITING_APPROVAL, C.REFLECT, None, "awaiting_approval", False, True),
            (K.AWAITING_APPROVAL, C.REFLECT, True, "approved", True, False),
            (K.AWAITING_APPROVAL, C.REFLECT, False, "rejected", False, False),
            (K.FORCE_DELIVER, C.REFLECT, True, "approved", True, False),
            (K.FORCE_DELIVER, C.REFLECT, False, "rejected", False, False),
        ],
    )
    def test_outcome_delivered_and_waiting(
        self,
        kind: DecisionKind,
        complexity: Complexity,
        person: bool | None,
        outcome: str,
        delivered: bool,
        waiting: bool,
    ) -> None:
        got = view(kind, complexity, None if person is None else approval(person))
        assert (outcome, delivered, waiting) == (
            got.outcome,
            got.delivered,
            got.awaiting_approval,
        )

    def test_an_approval_counts_only_where_one_is_needed(self) -> None:
        got = view(DecisionKind.REVISE, Complexity.REFLECT, approval(True))
        assert (False, None, "revise", False) == (
            got.approval_required,
            got.approval,
            got.outcome,
            got.delivered,
        )

    def test_stored_text_complexity_is_read_like_the_enum(self) -> None:
        assert "awaiting_approval" == view(DecisionKind.FORCE_DELIVER, "REFLECT").outcome  # type: ignore[arg-type]

    def test_approval_outcome_words(self) -> None:
        assert ("approved", "rejected") == (approval_outcome(True), approval_outcome(False))
        assert "rejected" == approval(False).outcome


class TestFromCoreValues:
    """``DecisionView.of`` copies the gate's decision as stored text and numbers."""

    def test_fields(self) -> None:
        decision = Decision(
            kind=DecisionKind.FORCE_DELIVER,
            reason="the loop stopped",
            termination=TerminationReason.CONVERGED,
            best_round=1,
            must_fix=("fix a",),
            suggestions=("try b",),
            risk=70,
        )
        got = DecisionView.of(
            decision,
            task_id="t",
            submission_id="s3",
            round_number=3,
            complexity=Complexity.COMPLEX,
            score=61,
            verdict="FAIL",
        )
        assert {
            "task_id": "t",
            "submission_id": "s3",
            "round_number": 3,
            "kind": "force_deliver",
            "reason": "the loop stopped",
            "termination": "converged",
            "best_round": 1,
            "must_fix": ("fix a",),
            "suggestions": ("try b",),
            "risk": 70,
            "score": 61,
            "verdict": "FAIL",
            "approval_required": False,
            "approval": None,
            "replan": None,  # a Decision built without one (the gate sets it on force_deliver)
            # Computed, and serialised: an agent in any language reads them (break test 3).
            "awaiting_approval": False,
            "outcome": "force_deliver",
            "delivered": True,
            "deliver_round": 1,
        } == got.model_dump()
        assert type(got.kind) is str and type(got.termination) is str

    def test_a_reflect_force_deliver_is_serialised_as_not_delivered_until_approved(self) -> None:
        decision = Decision(kind=DecisionKind.FORCE_DELIVER, reason="stopped", best_round=2)
        got = DecisionView.of(
            decision, task_id="t", submission_id="s", round_number=3, complexity="REFLECT"
        )
        sent = got.model_dump(mode="json")
        assert (True, "awaiting_approval", False, 2) == (
            sent["awaiting_approval"],
            sent["outcome"],
            sent["delivered"],
            sent["deliver_round"],
        )
        approved = got.model_copy(update={"approval": approval(True)}).model_dump(mode="json")
        assert ("approved", True, "approved") == (
            approved["outcome"],
            approved["delivered"],
            approved["approval"]["outcome"],
        )
        # What the JSON says is read back as the same view (computed fields are not inputs).
        assert got == DecisionView.model_validate(sent)

    @pytest.mark.parametrize(
        ("kind", "best_round", "deliver"),
        [
            (DecisionKind.FORCE_DELIVER, 1, 1),
            (DecisionKind.FORCE_DELIVER, None, 2),
            (DecisionKind.PASS, 1, 2),
        ],
    )
    def test_the_round_to_deliver(
        self, kind: DecisionKind, best_round: int | None, deliver: int
    ) -> None:
        assert deliver == view(kind, best_round=best_round).deliver_round


class TestOneHome:
    """The client, the package's public face and the core hand out the same classes."""

    def test_reexports(self) -> None:
        import qgs_worker
        from qgs_worker import client
        from qgs_worker.client import views

        assert DecisionView is client.DecisionView is views.DecisionView is qgs_worker.DecisionView
        assert ApprovalView is client.ApprovalView is qgs_worker.ApprovalView
