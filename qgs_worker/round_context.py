"""What a round is judged on: its deliverable, the user turn it answers, the judge's request.

The review steps (``pipeline``) and the reports read a stored round through these: the
deliverable rebuilt from its columns, the user turn it answers in a multi-turn run (``""`` when
it answers the task's request), everything the user said up to it (what the detectors count as
the user's own words), the ``ReviewRequest`` the judge is given, and the key under which an
identical review is reused.
"""

from __future__ import annotations

from collections.abc import Sequence

from qgs_worker.core.models import Deliverable, ReviewRequest, TaskType, ToolCall, ToolResult
from qgs_worker.service import requests
from qgs_worker.service.requests import review_key
from qgs_worker.store import RoundRow, TaskRow, loads_list

__all__ = ["deliverable_of", "review_key", "review_request", "round_turn", "user_words"]


def deliverable_of(row: RoundRow) -> Deliverable:
    """Rebuild a round's Deliverable from its stored columns."""
    return Deliverable(
        text=row.content,
        tool_calls=tuple(ToolCall.model_validate(c) for c in loads_list(row.tool_calls)),
        tool_results=tuple(ToolResult.model_validate(r) for r in loads_list(row.tool_results)),
    )


def round_turn(task: TaskRow, row: RoundRow) -> str:
    """The user turn a round answers, or ``""`` when it answers the task's request itself."""
    return requests.round_turn(task.request, row.turn)


def user_words(task: TaskRow, rows: Sequence[RoundRow]) -> str:
    """Everything the user said up to the last of ``rows`` (``service.requests.user_words``)."""
    return requests.user_words(task.request, (row.turn for row in rows))


def review_request(task: TaskRow, row: RoundRow) -> ReviewRequest:
    """What the judge sees of a stored round (``service.requests.review_request_for``)."""
    return requests.review_request_for(
        task_type=TaskType(task.task_type),
        request=task.request,
        requirements=loads_list(task.requirements),
        criteria=loads_list(task.criteria),
        deliverable=deliverable_of(row),
        turn=row.turn,
    )
