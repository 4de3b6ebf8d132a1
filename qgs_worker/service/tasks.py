"""A new task's class: the caller's task type, else the classifier's answer.

A caller may name the type (an agent that knows it is answering a question), but may not lower a
request the rules read as CRITICAL: "wire 50000 EUR to IBAN ..." sent with ``task_type=QUERY``
would otherwise pass with no review and no person confirming. CRITICAL patterns win over every
other type (DESIGN.md, "Classifier"), a caller's word included.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from qgs_worker.core import classifier
from qgs_worker.core.models import DEFAULT_COMPLEXITY, Classification, TaskType

__all__ = ["classify", "classify_with_llm"]

_log = logging.getLogger(__name__)


def classify(
    request: str,
    task_type: TaskType | None = None,
    *,
    llm: Callable[[str], Classification] | None = None,
) -> Classification:
    """The caller's ``task_type`` (with its default complexity), else the classifier's answer.

    A given type below CRITICAL does not stand against the rule layer's CRITICAL: the rules'
    classification is returned, its reason naming the type the caller gave. A given CRITICAL,
    or any given type on a request the rules do not read as CRITICAL, stands (``source="given"``).

    ``llm`` is the classifier's LLM layer (``judges.LLMClassifier``), asked only when the rules
    cannot settle the request; when it fails, the rules' default stands (a classifier failure
    never stops an intake).
    """
    if task_type is None and llm is not None:
        return classify_with_llm(request, llm)
    if task_type is None:
        return classifier.classify(request)
    if task_type is not TaskType.CRITICAL:
        settled = classifier.classify_rules(request)
        if settled is not None and settled.task_type is TaskType.CRITICAL:
            return settled.model_copy(
                update={
                    "reason": f"{settled.reason}; the caller's task_type {task_type.value} "
                    "cannot lower a CRITICAL request"
                }
            )
    return Classification(
        task_type=task_type,
        complexity=DEFAULT_COMPLEXITY[task_type],
        confidence=1.0,
        source="given",
    )


def classify_with_llm(request: str, llm: Callable[[str], Classification] | None) -> Classification:
    """Classify for intake: rules, then the LLM layer, then the rules' default; never blocks.

    Args:
        request: The user's request.
        llm: The LLM layer (an :class:`LLMClassifier`), or None for rules + default only.

    Returns:
        The rules' classification when they settle the request; else the LLM layer's; when the
        LLM layer raises anything (unavailable endpoint, malformed answers, a bug), the default
        of :func:`~qgs_worker.core.classifier.classify` without a fallback (``source="default"``:
        precedence among conflicting matches, else ``GENERATE``/``COMPLEX``), its ``reason``
        saying that the LLM layer failed and why.

    Raises:
        InputError: ``request`` is empty or only whitespace (a bad submission, not a classifier
            failure).
    """
    try:
        return classifier.classify(request, fallback=llm)
    except Exception as exc:  # a classifier failure must never block intake
        settled = classifier.classify(request)  # re-raises InputError for an empty request
        failure = f"{type(exc).__name__}: {exc}"
        _log.warning("LLM classifier failed, using the rules' default: %s", failure)
        return settled.model_copy(
            update={"reason": f"{settled.reason}; LLM layer failed ({failure})"}
        )
