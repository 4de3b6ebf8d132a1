"""A person's approval or rejection of a task's latest decision (``qgs approve``).

The rules are the service's (``service.approvals.approve``); the client only calls them.
"""

from __future__ import annotations

from qgs_worker.core.views import ApprovalView
from qgs_worker.service import approvals
from qgs_worker.service.inputs import require_bool, require_text
from qgs_worker.store import Repository
from qgs_worker.store.failures import store_guarded


class ApprovalsMixin:
    """``approve`` and ``approvals`` (a part of ``Client``)."""

    repo: Repository

    def approve(
        self,
        task_id: str,
        *,
        by: str,
        note: str = "",
        reject: bool = False,
        round_number: int | None = None,
    ) -> ApprovalView:
        """Record a person's decision on the task's latest decision, which must await one.

        That decision is ``awaiting_approval``, or ``force_deliver`` on a REFLECT task, and
        no round after it is still undecided. Approving releases the task (``delivered`` is
        True: the round, or on force_deliver the best round); rejecting blocks it. Calling
        again with the same values changes nothing and returns the stored approval.

        Args:
            task_id: The task's id (as ``qgs status`` and ``qgs report`` show it).
            by: Who decides (required, at most 128 characters).
            note: Why (at most 2,000 characters); required when rejecting.
            reject: Reject instead of approve.
            round_number: The round the person looked at (None: the one awaiting); when the
                task moved on past it, nothing is recorded (``NotAwaitingApprovalError``).

        Returns:
            The stored approval.

        Raises:
            InputError: ``by`` is empty or too long, ``note`` is too long, or ``note`` is
                empty on a rejection.
            TaskNotFoundError: no such task.
            NotAwaitingApprovalError: the task's latest decision does not wait for a person
                (the message names it and its round), there is none yet, or a later round is
                still undecided.
            ApprovalConflictError: a person already decided that round the other way (the
                message names who and when).
        """
        require_text(task_id, "task_id", "pass the task's id")
        require_text(by, "by", "pass who decides, e.g. by='ops'")
        require_text(note, "note", "pass why, or leave it out")
        require_bool(reject, "reject")
        return approvals.approve(
            self.repo, task_id, by=by, note=note, reject=reject, round_number=round_number
        )

    @store_guarded
    def approvals(self, task_id: str) -> list[ApprovalView]:
        """Every approval and rejection of the task's rounds, oldest first.

        Raises:
            TaskNotFoundError: no such task.
        """
        return self.repo.approval_views(task_id)
