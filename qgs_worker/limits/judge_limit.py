"""The judge's shared rate limit: one budget for every call to the judge's endpoint.

``JudgeRateLimit`` counts requests and estimated tokens in windows kept by a rate limiter
(``qgs_worker.limits.ratelimit.RedisRateLimiter``, shared by every worker through the broker's Redis).
The critic job asks :meth:`JudgeRateLimit.admit` before a review; the judge adapters call
:meth:`JudgeRateLimit.before_call` before each HTTP request (``OpenAIJudge(call_gate=...)``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from qgs_worker.errors import JudgeUnavailableError

__all__ = ["JudgeRateLimit"]

_log = logging.getLogger(__name__)


class JudgeRateLimit:
    """The shared rate limit in front of the judge endpoint: requests/min and tokens/min.

    Every call to the endpoint counts: reviews, their repair requests and JSON-mode fallbacks,
    every judge of a panel, the audit roles' LLM passes and the classifier's LLM layer. The
    adapters (``qgs_worker.judges``) call :meth:`before_call` before each HTTP request; the
    critic job also asks :meth:`admit` before a review starts, so that a review the limit
    refuses waits as a Celery retry (its thread is free meanwhile) instead of in a sleep. A
    call :meth:`admit` let through is counted once: the review's first HTTP request, in the
    same thread, spends that admission (``before_call`` does not count it again).

    Tokens are estimated before the call (prompt characters / 4 + the answer's token budget),
    since the exact count is known only afterwards. A limit of 0 means no limit.

    Args:
        limiter: Where the windows live (``RedisRateLimiter`` so every worker shares them).
        endpoint: The judge endpoint's name, part of the key.
        requests_per_minute: At most this many judge calls a window (0: no limit).
        tokens_per_minute: At most this many estimated tokens a window (0: no limit).
        answer_tokens: The answer's token budget, added to each estimate.
        window_s: The window both limits count in, in seconds (60: per minute; tests shorten it).
        max_wait_s: How long :meth:`before_call` may hold one call waiting for the limit, in
            seconds, before it raises ``JudgeUnavailableError`` (a transient failure: the job
            retries it). It adds at most this much to each judge call's time
            (``Settings.check`` counts it in the worst case of a job).
    """

    CHARS_PER_TOKEN = 4
    """A common rule of thumb for English text with OpenAI tokenizers."""

    ADMISSION_FRESH_S = 5.0
    """How long an admission from :meth:`admit` waits for its call, in seconds, before it lapses."""

    LIMITER_DOWN_WAIT_S = 5.0
    """The wait :meth:`admit` asks for while the limiter's Redis cannot be reached, in seconds."""

    def __init__(
        self,
        limiter: Any,
        endpoint: str,
        *,
        requests_per_minute: int = 0,
        tokens_per_minute: int = 0,
        answer_tokens: int = 800,
        window_s: float = 60.0,
        max_wait_s: float = 30.0,
        sleep: Any = time.sleep,
    ) -> None:
        self.limiter = limiter
        self.endpoint = endpoint
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.answer_tokens = answer_tokens
        self.window_s = window_s
        self.max_wait_s = max_wait_s
        self._sleep = sleep
        self._admitted = threading.local()

    def admit(self, prompt_chars: int) -> float:
        """Count one call of ``prompt_chars`` characters; 0.0 if it may go now, else seconds to wait.

        An admission is spent by this thread's next :meth:`before_call` (within
        ``ADMISSION_FRESH_S``). A limiter that cannot be reached asks for
        ``LIMITER_DOWN_WAIT_S`` (logged): the judge budget is never skipped.
        """
        try:
            wait_s = self._ask(prompt_chars)
        except Exception as exc:
            _log.warning(
                "the judge's shared rate limit cannot be reached (%s: %s); waiting %s s",
                type(exc).__name__, exc, self.LIMITER_DOWN_WAIT_S,
            )  # fmt: skip
            return self.LIMITER_DOWN_WAIT_S
        if wait_s == 0.0:
            self._admitted.at = time.monotonic()
        return wait_s

    def before_call(self, prompt_chars: int) -> None:
        """Hold one HTTP call to the judge endpoint until the shared limit lets it go.

        Args:
            prompt_chars: The request's size in characters (all messages).

        Raises:
            JudgeUnavailableError: The limit held the call ``max_wait_s`` and still refuses,
                or its Redis cannot be reached; ``retry_after_s`` is the wait it asks for.
        """
        admitted = getattr(self._admitted, "at", None)
        if admitted is not None:
            self._admitted.at = None
            if time.monotonic() - admitted <= self.ADMISSION_FRESH_S:
                return  # counted by admit()
        waited = 0.0
        while True:
            try:
                wait_s = self._ask(prompt_chars)
            except Exception as exc:
                raise JudgeUnavailableError(
                    f"the judge's shared rate limit cannot be reached ({type(exc).__name__}: "
                    f"{exc})",
                    retry_after_s=self.LIMITER_DOWN_WAIT_S,
                ) from exc
            if wait_s == 0.0:
                return
            if waited + wait_s > self.max_wait_s:
                raise JudgeUnavailableError(
                    f"the judge's shared rate limit ({self._limits()}) held this call "
                    f"{waited:.1f} s and asks for {wait_s:.1f} s more",
                    retry_after_s=wait_s,
                )
            self._sleep(wait_s)
            waited += wait_s

    def _limits(self) -> str:
        parts = []
        if self.requests_per_minute:
            parts.append(f"{self.requests_per_minute} requests")
        if self.tokens_per_minute:
            parts.append(f"{self.tokens_per_minute} tokens")
        return f"{' and '.join(parts) or 'no limit'} per {self.window_s:g} s"

    def _ask(self, prompt_chars: int) -> float:
        if self.requests_per_minute:
            got = self.limiter.hit(
                f"judge:{self.endpoint}:requests",
                limit=self.requests_per_minute,
                window_s=self.window_s,
            )
            if not got.allowed:
                return max(float(got.retry_after_s), 0.05)
        if self.tokens_per_minute:
            cost = min(
                self.tokens_per_minute, prompt_chars // self.CHARS_PER_TOKEN + self.answer_tokens
            )
            got = self.limiter.hit(
                f"judge:{self.endpoint}:tokens",
                limit=self.tokens_per_minute,
                window_s=self.window_s,
                cost=cost,
            )
            if not got.allowed:
                return max(float(got.retry_after_s), 0.05)
        return 0.0
