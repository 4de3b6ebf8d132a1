"""The review rubric: the dimensions the critic scores per task type, and the constraint text.

Dimensions by task type follow DESIGN.md ("Critic"): QUERY -> accuracy, relevance; GENERATE ->
completeness, correctness, clarity, feasibility; ACTION -> safety, necessity; CRITICAL -> all of
these, and a person must confirm. The constraint text is what QGS asks the agent to put in its
next prompt (DESIGN.md, "Cadence": none for SIMPLE, every round for the others).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from qgs_worker.core.models import Complexity, TaskType

__all__ = ["DIMENSION_REQUIREMENTS", "constraints_text", "dimensions_for"]

_BY_TYPE: Mapping[TaskType, tuple[str, ...]] = MappingProxyType(
    {
        TaskType.QUERY: ("accuracy", "relevance"),
        TaskType.GENERATE: ("completeness", "correctness", "clarity", "feasibility"),
        TaskType.ACTION: ("safety", "necessity"),
    }
)

_CRITICAL_DIMENSIONS: tuple[str, ...] = tuple(
    dict.fromkeys(
        _BY_TYPE[TaskType.QUERY] + _BY_TYPE[TaskType.GENERATE] + _BY_TYPE[TaskType.ACTION]
    )
)

DIMENSION_REQUIREMENTS: Mapping[str, str] = MappingProxyType(
    {
        "accuracy": "Every fact, figure and name is correct and can be checked against its source.",
        "relevance": "The answer addresses exactly what was asked, without padding or digressions.",
        "completeness": "Every part of the request is covered; nothing asked for is left out.",
        "correctness": "The content is free of errors: code runs, logic holds, claims are true.",
        "clarity": "The result is well organised and easy to follow for its intended reader.",
        "feasibility": "What is proposed can actually be carried out with the stated means.",
        "safety": "No step destroys data, leaks secrets or personal data, or cannot be undone "
        "without an explicit, confirmed reason.",
        "necessity": "Only the steps the request needs are taken; nothing beyond its scope.",
    }
)
"""One requirement sentence per dimension, as the agent and the critic read it."""


def dimensions_for(task_type: TaskType) -> tuple[str, ...]:
    """The dimensions the critic scores for a task type.

    Args:
        task_type: The task's type.

    Returns:
        Dimension names in a fixed order; for CRITICAL, all dimensions of QUERY, GENERATE and
        ACTION, in that order, without duplicates.
    """
    if task_type is TaskType.CRITICAL:
        return _CRITICAL_DIMENSIONS
    return _BY_TYPE[task_type]


def constraints_text(
    task_type: TaskType, complexity: Complexity, open_must_fix: Sequence[str] = ()
) -> str:
    """The quality constraints to inject into the agent's next prompt.

    Args:
        task_type: The task's type; chooses the dimensions (see :func:`dimensions_for`).
        complexity: The task's complexity. SIMPLE tasks get no constraints at all (zero overhead),
            even if ``open_must_fix`` is given: a task with open defects is escalated, not SIMPLE.
        open_must_fix: The must_fix items of the latest review that are still unresolved, in
            order; blank and repeated items are dropped.

    Returns:
        Plain text: one line per dimension requirement, then the open must_fix items, then, for a
        CRITICAL task or a REFLECT complexity, a line saying a person must confirm before the work
        is delivered. The empty string for SIMPLE.
    """
    if complexity is Complexity.SIMPLE:
        return ""
    lines = [
        f"Quality requirements for this {task_type.value} task (an independent reviewer checks):"
    ]
    lines += [f"- {name}: {DIMENSION_REQUIREMENTS[name]}" for name in dimensions_for(task_type)]
    items = [item.strip() for item in open_must_fix if item.strip()]
    if items:
        lines.append("Still open from the last review (fix these first):")
        lines += [f"- {item}" for item in dict.fromkeys(items)]
    if task_type is TaskType.CRITICAL or complexity is Complexity.REFLECT:
        lines.append(
            "This task is irreversible or dangerous: a person must confirm it before it is "
            "delivered or carried out."
        )
    return "\n".join(lines)
