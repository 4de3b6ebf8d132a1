"""Ports: what the core needs from the outside, as Protocols the adapters implement."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from qgs_worker.core.models import Review, ReviewRequest


@runtime_checkable
class Judge(Protocol):
    """An independent LLM judge (the critic), or a deterministic stand-in.

    Implementations: ``qgs_worker.judges.openai_judge.OpenAIJudge`` (any OpenAI-compatible
    endpoint) and ``qgs_worker.judges.rules_judge.RulesJudge`` (offline).
    """

    @property
    def name(self) -> str:
        """A label for reports, e.g. ``rules judge`` or ``openai:gpt-4o-mini``."""
        ...

    def review(self, request: ReviewRequest) -> Review:
        """Review one round.

        Raises:
            JudgeUnavailableError: transient failure (timeout, 429, 5xx); the caller may retry.
            JudgeResponseError: the answer was not a valid review, even after one repair request.
        """
        ...


class Clock(Protocol):
    """A source of time in seconds (monotonic), so tests can control it."""

    def __call__(self) -> float:
        """Now, in seconds."""
        ...
