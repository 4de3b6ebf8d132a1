"""Ports: what the core needs from the outside, as Protocols the adapters implement."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from qgs_worker.core.models import RateDecision, Review, ReviewRequest


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


class RateLimiter(Protocol):
    """A sliding-window rate limit, shared by every process that uses the same backend.

    Implementations: ``qgs_worker.ratelimit.RedisRateLimiter`` (across processes and machines)
    and ``qgs_worker.ratelimit.LocalRateLimiter`` (one process).
    """

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """Count ``cost`` units against ``key`` if the last ``window_s`` seconds leave room.

        A refused hit counts nothing. ``cost`` is 1 for a request, or a token count.
        """
        ...
