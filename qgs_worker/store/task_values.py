"""A task's row values: what a classified request stores, and the stored task as a record.

Shared by the stores that write tasks (``RoundStore``, ``SqlReviewStore``, ``ChunkReviewStore``).
"""

from __future__ import annotations

from typing import Any

from qgs_worker.core.models import Classification, Complexity, TaskType
from qgs_worker.service.records import TaskRecord
from qgs_worker.service.submission import NewTask
from qgs_worker.store.base import dumps, loads_list
from qgs_worker.store.tables import TaskRow, utcnow

__all__ = ["task_record", "task_row", "task_values"]


def task_row(
    task_id: str,
    found: Classification,
    new: NewTask,
    *,
    principal: str | None = None,
    key_id: str | None = None,
) -> TaskRow:
    """A TaskRow for a classified request, with the agent and source fields of ``new``."""
    return TaskRow(**task_values(task_id, found, new, principal=principal, key_id=key_id))


def task_values(
    task_id: str,
    found: Classification,
    new: NewTask,
    *,
    principal: str | None = None,
    key_id: str | None = None,
) -> dict[str, Any]:
    """``task_row(...).model_dump()``, without building the row.

    A SQLModel table row costs about a millisecond to make; a chunk of ``qgs audit``'s batch
    path stores hundreds of tasks.
    """
    return {
        "id": task_id,
        "request": new.request,
        "agent": new.agent,
        "agent_model": new.agent_model,
        "task_type": found.task_type.value,
        "complexity": found.complexity.value,
        "classification_source": found.source,
        "confidence": found.confidence,
        "matched": dumps(found.matched),
        "requirements": dumps(new.requirements),
        "criteria": dumps(new.criteria),
        "source_file": new.source_file,
        "source_line": new.source_line,
        "transcript_id": new.transcript_id,
        "callback_url": new.callback_url,
        "principal": principal,
        "key_id": key_id,
        "escalated": False,
        "escalation_reason": None,
        "created_at": utcnow(),
    }


def task_record(row: Any, *, task_id: str) -> TaskRecord:
    """A stored task (a ``TaskRow`` or a result row with its columns) as the service's record."""
    return TaskRecord(
        id=task_id,
        request=row.request,
        task_type=TaskType(row.task_type),
        complexity=Complexity(row.complexity),
        agent=row.agent,
        agent_model=row.agent_model,
        requirements=tuple(loads_list(row.requirements)),
        criteria=tuple(loads_list(row.criteria)),
        escalated=bool(row.escalated),
    )
