"""A person's approval or rejection of a task's latest decision (``qgs approve``).

The rules are the service's: the latest decision must wait for a person (``needs_approval``:
``awaiting_approval``, or ``force_deliver`` on a REFLECT task), and no later round may still be
on its way (stored, or submitted and not yet stored by a worker: ``round_numbers``, the
source the rounds route numbers by); a rejection says why. The store records it once (``ApprovalTarget``).
"""

from __future__ import annotations

from typing import Protocol

from qgs_worker.core.free_text import check_free_text, is_blank
from qgs_worker.core.gate import needs_approval
from qgs_worker.core.views import ApprovalView
from qgs_worker.errors import InputError, NotAwaitingApprovalError
from qgs_worker.service.records import ApprovalTarget

__all__ = ["APPROVAL_NOTE_MAX_CHARS", "APPROVER_MAX_CHARS", "ApprovalStore", "approve"]

APPROVER_MAX_CHARS = 128
"""The longest name ``approve(by=...)`` accepts, in characters."""

APPROVAL_NOTE_MAX_CHARS = 2_000
"""The longest note ``approve(note=...)`` (``qgs approve --note``) accepts, in characters."""


class ApprovalStore(Protocol):
    """The store as the approval use case sees it (``Repository`` implements it)."""

    def approval_target(self, task_id: str) -> ApprovalTarget | None:
        """The task's latest decided round and its decision, or None; ``TaskNotFoundError``."""
        ...

    def round_numbers(self, task_id: str, number: int | None = None) -> tuple[int, bool]:
        """``(next_number, taken)``: one more than the highest round stored or on its way."""
        ...

    def record_approval(
        self, target: ApprovalTarget, *, approved: bool, by: str, note: str
    ) -> ApprovalView:
        """Store a person's decision on the target's round, once."""
        ...


def approve(
    store: ApprovalStore,
    task_id: str,
    *,
    by: str,
    note: str = "",
    reject: bool = False,
    round_number: int | None = None,
) -> ApprovalView:
    """Record a person's decision on the task's latest decision, which must await one.

    Approving releases the task (``delivered`` is True: the round, or on force_deliver the best
    round); rejecting blocks it for good. The same values again change nothing.

    ``round_number`` (the round the person looked at; None: whatever round awaits) ties the
    decision to that round: when the task moved on to a later round since (decided, stored
    and undecided, or submitted and not yet stored), nothing is recorded. On a force_deliver
    the round looked at may be the round it delivers (``best_round``) or its own round.

    Raises:
        InputError: ``by`` is empty or too long, ``note`` is too long, or ``note`` is empty on
            a rejection; either holds a control character (``core.free_text``).
        TaskNotFoundError: no such task.
        NotAwaitingApprovalError: the latest decision does not wait for a person (the message
            names it and its round), there is none yet, a later round is still undecided (or
            submitted and not yet stored), a
            person rejected another round of the task (a rejected task is never released), or
            the task moved on past ``round_number`` ("moved on to round N since you opened it").
        ApprovalConflictError: a person already decided that round the other way.
    """
    for text, field in ((by, "by"), (note, "note")):
        try:
            check_free_text(text, field)
        except ValueError as error:  # every face: the API, the console's forms, the client
            raise InputError(str(error)) from None
    by = "" if is_blank(by) else by.strip()
    note = "" if is_blank(note) else note.strip()
    if not by:
        raise InputError("'by' is empty: pass the name of the person who decides (e.g. 'alice')")
    if len(by) > APPROVER_MAX_CHARS:
        raise InputError(
            f"'by' must be at most {APPROVER_MAX_CHARS} characters (got {len(by)}): "
            "pass a name; the reason goes in 'note'"
        )
    if reject and not note:
        raise InputError(
            "'note' is required to reject: say why the task is refused (e.g. 'wrong host')"
        )
    if len(note) > APPROVAL_NOTE_MAX_CHARS:
        raise InputError(
            f"'note' must be at most {APPROVAL_NOTE_MAX_CHARS:,} characters "
            f"(got {len(note):,}): say why in a few sentences, and link to a longer text"
        )
    target = store.approval_target(task_id)
    if target is None:
        raise NotAwaitingApprovalError(
            f"task {task_id} is not awaiting approval: no round of it is decided yet "
            f"(`qgs wait {task_id}` waits for the decision)"
        )
    # A round submitted (202) and not yet stored by a worker is a round too: the same source
    # of truth as the rounds route's "already stored or held by a submission on its way".
    next_number, _ = store.round_numbers(task_id)
    newest = max(target.round_number, next_number - 1)
    if target.later is not None:
        newest = max(newest, target.later[0])
    if round_number is not None:
        shown = {target.round_number}
        if target.decision_kind == "force_deliver" and target.best_round is not None:
            shown.add(target.best_round)  # the round approving delivers, as the console shows
        if newest != target.round_number or round_number not in shown:
            raise NotAwaitingApprovalError(
                f"task {task_id} moved on to round {newest} since you opened round "
                f"{round_number}: review it again"
            )
    if target.rejection is not None and not reject:
        # A rejection recorded while this round was being decided: the gate of every later
        # round blocks the task, and no approval releases it.
        raise NotAwaitingApprovalError(f"task {task_id} cannot be approved: {target.rejection}")
    if not needs_approval(target.decision_kind, target.complexity):
        why = (
            " (force_deliver waits for a person only on a REFLECT task)"
            if target.decision_kind == "force_deliver"
            else ""
        )
        raise NotAwaitingApprovalError(
            f"task {task_id} is not awaiting approval: its latest decision is "
            f"{target.decision_kind} (round {target.round_number}){why}"
        )
    if target.later is not None:
        number, status = target.later
        raise NotAwaitingApprovalError(
            f"task {task_id}: round {number} came after the round awaiting approval "
            f"({target.round_number}) and is {status}, not decided; approve once it is "
            f"(`qgs wait {task_id}`), so the decision is on what the agent delivers"
        )
    if newest > target.round_number:
        raise NotAwaitingApprovalError(
            f"task {task_id}: round {newest} came after the round awaiting approval "
            f"({target.round_number}) and is on its way (submitted, not yet stored), not "
            f"decided; approve once it is (`qgs wait {task_id}`), so the decision is on what "
            "the agent delivers"
        )
    return store.record_approval(target, approved=not reject, by=by, note=note)
