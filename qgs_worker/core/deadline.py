"""Wall-clock deadlines that nest: the time a piece of work may still take, whoever asks.

A review attempt holds its round's lease for a fixed time; each judge call inside it has its own
timeout. Both are deadlines on the monotonic clock, and the innermost one that ends first wins:

    with within(lease_left_s):          # the review attempt (service.review)
        with within(judge_timeout_s):   # one HTTP call (judges.endpoint)
            ...                         # left_s() is the smaller of the two, minus time spent

The deadline is held in a :class:`contextvars.ContextVar`, so it follows the code that runs
under it (the openai client's HTTP calls run in the caller's thread) and never leaks into
another thread. The network layer (``judges.deadline_transport``) bounds every connect, read
and write by :func:`left_s`: a server that trickles a byte every half second cannot keep a call
open past its deadline, as it could when only each read was bounded.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["deadline_at", "left_s", "within"]

_DEADLINE: ContextVar[float | None] = ContextVar("qgs_deadline", default=None)
"""The monotonic time (``time.monotonic()``, in seconds) the current work must end by."""


@contextmanager
def within(seconds: float) -> Iterator[float]:
    """Run the block under a deadline ``seconds`` from now, or the enclosing one if sooner.

    Args:
        seconds: How long the block may take, in seconds (0 or less: it is already late).

    Yields:
        The deadline in force, on the ``time.monotonic()`` clock, in seconds.
    """
    at = time.monotonic() + seconds
    outer = _DEADLINE.get()
    if outer is not None:
        at = min(at, outer)
    token = _DEADLINE.set(at)
    try:
        yield at
    finally:
        _DEADLINE.reset(token)


def deadline_at() -> float | None:
    """The deadline in force (``time.monotonic()`` clock, in seconds), or None outside any."""
    return _DEADLINE.get()


def left_s(cap_s: float | None = None) -> float | None:
    """Seconds left before the deadline in force, at most ``cap_s``.

    Args:
        cap_s: A phase's own timeout, in seconds (None: no cap).

    Returns:
        ``min(cap_s, time left)``; ``cap_s`` outside any deadline; 0.0 or less once the
        deadline has passed (the caller raises its own timeout then).
    """
    at = _DEADLINE.get()
    if at is None:
        return cap_s
    left = at - time.monotonic()
    return left if cap_s is None else min(cap_s, left)
