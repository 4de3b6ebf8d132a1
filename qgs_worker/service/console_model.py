"""What the operator console reads from the store: task lines and the store's health figures.

The store's console part (``store/console_views.py``, a part of ``Repository``) answers in these
frozen values, never rows; ``api.operator_views`` adds what the broker and the workers say.
Times are timezone-aware UTC; text fields are the strings the store holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["LineFilter", "StoreHealth", "TaskLine"]


@dataclass(frozen=True, slots=True)
class TaskLine:
    """One task as the console's lists show it: its latest decided round and its standing.

    ``principal`` is the key's principal that started it (None: in-process); ``request`` the
    request's first ``preview`` characters; ``rounds`` how many rounds it has; ``round_number``,
    ``decision``, ``score`` (0-100) and ``decided_at`` describe its latest decided round (None
    while none is); ``approved`` a person's decision on that round (None: none yet);
    ``awaiting`` whether that decision waits for a person who has not decided; ``worst`` the
    most severe finding of any round (``P0``-``P4``, None: no finding).
    """

    id: str
    principal: str | None
    agent: str | None
    task_type: str
    complexity: str
    created_at: datetime
    request: str
    rounds: int = 0
    round_number: int | None = None
    decision: str | None = None
    score: int | None = None
    decided_at: datetime | None = None
    approved: bool | None = None
    awaiting: bool = False
    worst: str | None = None

    @property
    def outcome(self) -> str:
        """Where the task stands, in one word.

        ``approved`` / ``rejected`` once a person decided, ``awaiting_approval`` while one
        must, the decision's kind otherwise, ``undecided`` before any.
        """
        if self.approved is not None:
            return "approved" if self.approved else "rejected"
        if self.awaiting:
            return "awaiting_approval"
        return self.decision or "undecided"


@dataclass(frozen=True, slots=True)
class LineFilter:
    """Which task lines a console list shows (every field None: all).

    ``principals``: the principals whose tasks are visible (None: every task, of no principal
    too; ``[]``: none); ``decision``: the latest decision's kind, or an outcome
    (``awaiting_approval``, ``approved``, ``rejected``, ``undecided``); ``task_type``:
    ``CRITICAL``...; ``severity``: a finding at least this severe (``P1`` keeps P0 and P1);
    ``agent``: the agent's name, exactly; ``task_ids``: only these tasks (a live update).
    """

    principals: tuple[str, ...] | None = None
    decision: str | None = None
    task_type: str | None = None
    severity: str | None = None
    agent: str | None = None
    task_ids: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class StoreHealth:
    """What the store says when an operator asks why "nothing is happening".

    ``unfinished`` rounds wait for a decision, ``overdue`` of them sit past the sweeper's bound
    (with ``oldest_overdue``, the words of the oldest); ``outbox_waiting`` submissions no intake
    took yet; ``dead_letters`` counted, with the newest few as ``(received_at, job, reason,
    task_id)``; webhooks ``failing`` (failed for good) and ``retrying`` (pending after a failed
    attempt), with the newest few failures as ``(task_id, event, error)``.
    """

    unfinished: int = 0
    overdue: int = 0
    oldest_overdue: str | None = None
    outbox_waiting: int = 0
    dead_letters: int = 0
    recent_dead_letters: tuple[tuple[datetime, str, str, str | None], ...] = ()
    webhooks_failing: int = 0
    webhooks_retrying: int = 0
    recent_webhook_failures: tuple[tuple[str, str, str], ...] = ()
