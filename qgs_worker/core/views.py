"""How a decision reads once made: the one ``DecisionView`` the client, the CLI and the report share.

The gate (``core/gate.py``) decides a round; a decision that waits for a person
(``needs_approval``: ``awaiting_approval``, or ``force_deliver`` on a REFLECT task) is settled
by their approval or rejection (``qgs approve``). This module says, in one place, what such a
decision amounts to: its ``outcome`` (``approved`` / ``rejected`` / ``awaiting_approval`` /
the gate's kind), whether the round may be ``delivered``, and which round to deliver. The
views are built from core values (``Decision``, ``Complexity``) and plain numbers; the
adapters that read the store (``client/views.py``, ``report.py``) only gather those values.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, computed_field

from qgs_worker.core.gate import needs_approval
from qgs_worker.core.models import Complexity, Decision, DecisionKind, Replan

__all__ = ["DELIVERED_KINDS", "ApprovalView", "DecisionView", "approval_outcome"]

DELIVERED_KINDS = frozenset(
    {DecisionKind.PASS, DecisionKind.PASS_WITH_SUGGESTIONS, DecisionKind.FORCE_DELIVER}
)
"""Decision kinds whose round (or best round) is delivered without a person's approval."""


def approval_outcome(approved: bool) -> str:
    """``approved`` or ``rejected``: the outcome a person's decision gives a round."""
    return "approved" if approved else "rejected"


class ApprovalView(BaseModel):
    """A person's decision on a round that waited for one.

    ``decision`` is the gate's decision that awaited approval (``awaiting_approval``, or
    ``force_deliver`` on a REFLECT task); ``approved`` False is a rejection; ``created_at`` is
    timezone-aware UTC.
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    round_number: int
    decision: str
    approved: bool
    by: str
    note: str = ""
    created_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> str:
        """``approved`` or ``rejected``."""
        return approval_outcome(self.approved)


class DecisionView(BaseModel):
    """A decision as the agent reads it: the gate's outcome plus the round's score.

    ``kind`` is the gate's decision, as stored. When it waits for a person
    (``approval_required``: ``awaiting_approval``, or ``force_deliver`` on a REFLECT task),
    ``approval`` holds their decision once made, and ``outcome`` / ``delivered`` follow it.
    ``score`` (0-100) and ``verdict`` are the critic's on this round, None when it was not
    reviewed (or the judge failed). ``replan`` is set on every ``force_deliver`` (the loop
    stopped without a pass: the criteria never met and the must_fix items that kept coming
    back, for the agent's planner; ``core/replan.py``), None otherwise. Build one with
    :meth:`of`.

    ``awaiting_approval``, ``outcome``, ``delivered`` and ``deliver_round`` are computed, and
    serialised with the fields (``model_dump``, the HTTP API's and MCP's JSON): an agent in
    any language reads whether the round may be delivered instead of re-deriving the rule
    (``force_deliver`` on a REFLECT task is not delivered until a person approves it).
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    submission_id: str
    round_number: int
    kind: str
    reason: str
    termination: str | None = None
    best_round: int | None = None
    must_fix: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    risk: int = 0
    score: int | None = None
    verdict: str | None = None
    approval_required: bool = False
    approval: ApprovalView | None = None
    replan: Replan | None = None

    @classmethod
    def of(
        cls,
        decision: Decision,
        *,
        task_id: str,
        submission_id: str,
        round_number: int,
        complexity: Complexity | str,
        score: int | None = None,
        verdict: str | None = None,
        approval: ApprovalView | None = None,
    ) -> DecisionView:
        """The view of the gate's ``decision`` on round ``round_number`` of a task.

        Args:
            decision: The gate's decision, as the store returns it.
            task_id: The task's id.
            submission_id: The id the agent's ``submit`` returned for this round.
            round_number: The round's number (from 1).
            complexity: The task's complexity: with the decision's kind it says whether a
                person must confirm (``needs_approval``).
            score: The critic's score of the round, 0-100, or None.
            verdict: The critic's verdict text (``PASS``...), or None.
            approval: The person's decision on this round, if any; ignored (None in the view)
                when the decision does not wait for one.

        Returns:
            The view; ``outcome``, ``delivered`` and ``deliver_round`` follow from it.
        """
        required = needs_approval(decision.kind, complexity)
        return cls(
            task_id=task_id,
            submission_id=submission_id,
            round_number=round_number,
            kind=decision.kind.value,
            reason=decision.reason,
            termination=decision.termination.value if decision.termination else None,
            best_round=decision.best_round,
            must_fix=decision.must_fix,
            suggestions=decision.suggestions,
            risk=decision.risk,
            score=score,
            verdict=verdict,
            approval_required=required,
            approval=approval if required else None,
            replan=decision.replan,
        )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def awaiting_approval(self) -> bool:
        """True while the decision waits for a person (``qgs approve``)."""
        return self.approval_required and self.approval is None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> str:
        """The effective outcome, as a person would say it.

        ``approved`` or ``rejected`` once a person decided; ``awaiting_approval`` while one
        must (``force_deliver`` on a REFLECT task included); ``kind`` otherwise.
        """
        if self.approval is not None:
            return self.approval.outcome
        return DecisionKind.AWAITING_APPROVAL.value if self.approval_required else self.kind

    @computed_field  # type: ignore[prop-decorator]
    @property
    def delivered(self) -> bool:
        """True when the round (or the best round, on force_deliver) may be delivered now.

        A decision that waits for a person is delivered only once approved; a rejected one is
        blocked for good.
        """
        if self.approval_required:
            return self.approval is not None and self.approval.approved
        return self.kind in DELIVERED_KINDS

    @computed_field  # type: ignore[prop-decorator]
    @property
    def deliver_round(self) -> int:
        """The round to deliver: the best-scoring one on ``force_deliver``, else this one."""
        if self.kind == DecisionKind.FORCE_DELIVER and self.best_round:
            return self.best_round
        return self.round_number
