"""A person's approval or rejection of a task's latest decision (``qgs approve``)."""

from __future__ import annotations

from qgs_worker.client.views import (
    APPROVAL_NOTE_MAX_CHARS,
    APPROVER_MAX_CHARS,
    ApprovalView,
    approval_view,
)
from qgs_worker.core.gate import needs_approval
from qgs_worker.errors import (
    InputError,
    NotAwaitingApprovalError,
)
from qgs_worker.store import (
    Repository,
)


class ApprovalsMixin:
    """``approve`` and ``approvals`` (a part of ``Client``)."""

    repo: Repository

    def approve(
        self, task_id: str, *, by: str, note: str = "", reject: bool = False
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
        by, note = by.strip(), note.strip()
        if not by:
            raise InputError(
                "'by' (--by) is empty: pass the name of the person who decides (e.g. --by alice)"
            )
        if len(by) > APPROVER_MAX_CHARS:
            raise InputError(
                f"'by' (--by) must be at most {APPROVER_MAX_CHARS} characters (got {len(by)}): "
                "pass a name; the reason goes in 'note' (--note TEXT)"
            )
        if reject and not note:
            raise InputError(
                "'note' (--note) is required to reject: say why (e.g. --note 'wrong host')"
            )
        if len(note) > APPROVAL_NOTE_MAX_CHARS:
            raise InputError(
                f"'note' (--note) must be at most {APPROVAL_NOTE_MAX_CHARS:,} characters "
                f"(got {len(note):,}): say why in a few sentences, and link to a longer text"
            )
        task = self.repo.get_task(task_id)
        latest = self.repo.latest_decision(task.id)
        if latest is None:
            raise NotAwaitingApprovalError(
                f"task {task.id} is not awaiting approval: no round of it is decided yet "
                f"(`qgs wait {task.id}` waits for the decision)"
            )
        row, decision = latest
        assert row.id is not None
        if not needs_approval(decision.kind, task.complexity):
            why = (
                " (force_deliver waits for a person only on a REFLECT task)"
                if decision.kind == "force_deliver"
                else ""
            )
            raise NotAwaitingApprovalError(
                f"task {task.id} is not awaiting approval: its latest decision is "
                f"{decision.kind} (round {row.number}){why}"
            )
        later = [
            r
            for r in self.repo.list_rounds(task.id)
            if r.number > row.number and r.status != "decided"
        ]
        if later:
            raise NotAwaitingApprovalError(
                f"task {task.id}: round {later[0].number} came after the round awaiting "
                f"approval ({row.number}) and is {later[0].status}, not decided; approve once "
                f"it is (`qgs wait {task.id}`), so the decision is on what the agent delivers"
            )
        stored = self.repo.save_approval(
            task.id, row.id, decision=decision.kind, approved=not reject, by=by, note=note
        )
        return approval_view(stored, row.number)

    def approvals(self, task_id: str) -> list[ApprovalView]:
        """Every approval and rejection of the task's rounds, oldest first.

        Raises:
            TaskNotFoundError: no such task.
        """
        self.repo.get_task(task_id)
        numbers = {r.id: r.number for r in self.repo.list_rounds(task_id)}
        return [approval_view(a, numbers[a.round_id]) for a in self.repo.list_approvals(task_id)]
