"""What a round is judged on: the user turn it answers, the user's words, the judge's request.

The review steps work on ``TaskRecord`` / ``RoundRecord`` values; the reports call
``round_turn`` on the values the store's report part returns (``report_model.RoundFacts``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from qgs_worker.core import rubric
from qgs_worker.core.models import Deliverable, ReviewRequest, TaskType
from qgs_worker.service.ports import NewRound, Prepared, ReviewLease
from qgs_worker.service.records import TaskRecord
from qgs_worker.service.submission import Submission, content_hash

__all__ = [
    "new_round",
    "review_key",
    "review_request_for",
    "review_request_of",
    "round_turn",
    "user_words",
]


def round_turn(request: str, turn: str | None) -> str:
    """The user turn a round answers, or ``""`` when it answers the task's request itself."""
    turn = turn or ""
    return "" if not turn.strip() or turn.strip() == request.strip() else turn


def user_words(request: str, turns: Iterable[str | None]) -> str:
    """Everything the user said: the request, then each later turn (a repeated turn once).

    The detectors read this as "the user's request": a value the user named in any turn so far
    is the user's own, not an attacker's.
    """
    said = [request]
    for raw in turns:
        turn = round_turn(request, raw)
        if turn and turn not in said:
            said.append(turn)
    return "\n".join(said)


def review_request_for(
    *,
    task_type: TaskType,
    request: str,
    requirements: Iterable[str],
    criteria: Iterable[str],
    deliverable: Deliverable,
    turn: str | None,
) -> ReviewRequest:
    """What the judge sees: request, requirements, criteria and the output (never the reasoning).

    ``turn`` is the user turn the round answers (``round_turn``): the judge scores the round
    against it, with the task's first request as context.
    """
    return ReviewRequest(
        task_type=task_type,
        request=request,
        deliverable=deliverable.render(),
        dimensions=rubric.dimensions_for(task_type),
        requirements=tuple(requirements),
        criteria=tuple(criteria),
        turn=round_turn(request, turn),
    )


def review_request_of(
    task: TaskRecord, deliverable: Deliverable, turn: str | None
) -> ReviewRequest:
    """``review_request_for`` a task record's request, requirements and criteria."""
    return review_request_for(
        task_type=task.task_type,
        request=task.request,
        requirements=task.requirements,
        criteria=task.criteria,
        deliverable=deliverable,
        turn=turn,
    )


def new_round(
    sub: Submission,
    task_id: str,
    number: int,
    *,
    review_key: str | None = None,
    prepared: Prepared | None = None,
    lease: ReviewLease | None = None,
) -> NewRound:
    """What the store keeps of a submitted round (``prepared`` when its turn has come).

    ``lease``: the round is stored holding its review lease (see ``NewRound``).
    """
    d = sub.deliverable
    return NewRound(
        submission_id=sub.submission_id,
        task_id=task_id,
        number=number,
        final=sub.final,
        content=d.text,
        tool_calls_json=_json_list([c.model_dump(mode="json") for c in d.tool_calls]),
        tool_results_json=_json_list([r.model_dump(mode="json") for r in d.tool_results]),
        turn=sub.turn,
        content_hash=content_hash(d),
        review_key=review_key,
        prepared=prepared,
        callback_url=sub.callback_url,
        lease=lease,
    )


_JSON = json.JSONEncoder(ensure_ascii=False)


def _json_list(items: list[Any]) -> str:
    """``json.dumps(items, ensure_ascii=False)``; an empty list without the encoder's set-up."""
    return _JSON.encode(items) if items else "[]"


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
