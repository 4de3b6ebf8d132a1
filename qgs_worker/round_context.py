"""What a round is judged on: its deliverable, the user turn it answers, the judge's request.

The review steps (``pipeline``) and the reports read a stored round through these: the
deliverable rebuilt from its columns, the user turn it answers in a multi-turn run (``""`` when
it answers the task's request), everything the user said up to it (what the detectors count as
the user's own words), the ``ReviewRequest`` the judge is given, and the key under which an
identical review is reused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from qgs_worker.core import rubric
from qgs_worker.core.models import Deliverable, ReviewRequest, TaskType, ToolCall, ToolResult
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
    turn = row.turn or ""
    return "" if not turn.strip() or turn.strip() == task.request.strip() else turn


def user_words(task: TaskRow, rows: Sequence[RoundRow]) -> str:
    """Everything the user said up to the last of ``rows``: the request, then each later turn.

    A turn repeated in several rounds (the rounds of one turn, or a harness that sends the same
    prompt every step) counts once. The detectors read this as "the user's request": a value
    the user named in any turn so far is the user's own, not an attacker's.
    """
    said = [task.request]
    for row in rows:
        turn = round_turn(task, row)
        if turn and turn not in said:
            said.append(turn)
    return "\n".join(said)


def review_request(task: TaskRow, row: RoundRow) -> ReviewRequest:
    """What the judge sees: request, requirements, criteria and the output (never the reasoning).

    ``turn`` is the user turn the round answers (``round_turn``): the judge scores the round
    against it, with the task's first request as context.
    """
    task_type = TaskType(task.task_type)
    return ReviewRequest(
        task_type=task_type,
        request=task.request,
        deliverable=deliverable_of(row).render(),
        dimensions=rubric.dimensions_for(task_type),
        requirements=tuple(loads_list(task.requirements)),
        criteria=tuple(loads_list(task.criteria)),
        turn=round_turn(task, row),
    )


def review_key(request: ReviewRequest, judge_name: str) -> str:
    """What identifies a review: the output, request, turn, criteria, task type and judge.

    Two rounds with the same key would get the same review, so the second reuses the first: the
    same output answering two different user turns is reviewed twice. A round without a turn
    keeps the key it had before turns existed (the empty ``turn`` is left out), so the reviews
    of an older store are still reused.

    Returns:
        SHA-256 hex digest of the canonical JSON of the request and the judge's name.
    """
    fields = request.model_dump(mode="json", exclude=None if request.turn else {"turn"})
    canonical = json.dumps([fields, judge_name], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
