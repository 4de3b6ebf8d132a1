"""A new task's class: the caller's task type, else the classifier's answer."""

from __future__ import annotations

from collections.abc import Callable

from qgs_worker.core import classifier
from qgs_worker.core.models import DEFAULT_COMPLEXITY, Classification, TaskType

__all__ = ["classify"]


def classify(
    request: str,
    task_type: TaskType | None = None,
    *,
    llm: Callable[[str], Classification] | None = None,
) -> Classification:
    """The caller's ``task_type`` (with its default complexity), else the classifier's answer.

    ``llm`` is the classifier's LLM layer (``judges.LLMClassifier``), asked only when the rules
    cannot settle the request; when it fails, the rules' default stands (a classifier failure
    never stops an intake).
    """
    if task_type is None and llm is not None:
        from qgs_worker.judges.llm_classifier import classify_with_llm

        return classify_with_llm(request, llm)
    if task_type is None:
        return classifier.classify(request)
    return Classification(
        task_type=task_type,
        complexity=DEFAULT_COMPLEXITY[task_type],
        confidence=1.0,
        source="given",
    )
