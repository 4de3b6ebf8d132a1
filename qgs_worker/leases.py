"""The leases of ``RedisRateLimiter``: units of a window spent locally, and their renewal ahead.

A ``Lease`` is units of one Redis window granted to this process at once (see
``ratelimit.RedisRateLimiter``). With ``renew_ahead``, an ``Ahead`` holds the leases asked for
before the current ones run out, and the daemon thread that asks: the caller's thread only
queues a job (a few microseconds, once per lease), the thread makes the round trip (about
100 us to a local Redis, and what the tool gate's p99 was made of when the caller made it).
"""

from __future__ import annotations

import logging
import queue
import threading
import weakref
from typing import Any

__all__ = ["Ahead", "Lease"]

logger = logging.getLogger(__name__)


class Lease:
    """Units of one window taken from Redis at once, spent by this process without asking."""

    __slots__ = ("ends_at", "granted", "length_s", "limit", "member", "spent", "used", "window_s")

    def __init__(
        self,
        member: str,
        granted: int,
        used: int,
        ends_at: float,
        limit: int,
        window_s: float,
        length_s: float = 0.0,
    ) -> None:
        self.member = member
        self.granted = granted
        self.used = used  # the window's total in Redis when granted, the whole lease included
        self.ends_at = ends_at
        self.limit = limit
        self.window_s = window_s
        self.length_s = length_s  # how long its units may be spent, from the local grant time
        self.spent = 0

    def fits(self, now: float, cost: int, limit: int, window_s: float) -> bool:
        """Whether ``cost`` units of this window may be spent from the lease now."""
        return (
            now < self.ends_at
            and self.spent + cost <= self.granted
            and (self.limit, self.window_s) == (limit, window_s)
        )

    def renewal_due(self, now: float) -> bool:
        """Whether the lease after this one should be asked for now (``renew_ahead``).

        When half its units are spent, or half its time: a key hit at least every half lease
        always finds its next lease ready. A lease renewed ahead counts its time from its
        grant, so it is due itself soon after it replaces this one: a key in steady use is
        renewed about twice per lease time, from the thread.
        """
        return 2 * self.spent >= self.granted or now >= self.ends_at - self.length_s / 2


class Ahead:
    """A limiter's leases renewed ahead, and the daemon thread that asks Redis for them.

    The thread starts on the first job and holds only a weak reference to its limiter: it
    ends when the limiter is collected (or a ``None`` job comes). A forked child gets a new
    ``Ahead`` (``_forget_leases``); jobs of the old one no longer install their leases.
    """

    def __init__(self) -> None:
        self.ready: dict[str, Lease] = {}  # key -> the lease to spend once the current ends
        self.asked: set[str] = set()  # keys whose renewal is queued or under way
        self.closed = False
        self._jobs: queue.Queue[tuple[Any, ...] | None] | None = None

    def submit(self, limiter: Any, job: tuple[Any, ...]) -> None:
        """Queue one job (called holding the limiter's lock: a few microseconds)."""
        if self._jobs is None:
            self._jobs = queue.Queue()
            thread = threading.Thread(
                target=_renew_loop,
                args=(weakref.ref(limiter), self, self._jobs),
                name="qgs-ratelimit-renew",
                daemon=True,
            )
            thread.start()
            weakref.finalize(limiter, self._jobs.put, None)
        self._jobs.put(job)

    def close(self) -> None:
        """Stop the thread once the jobs queued so far are done (holding the limiter's lock).

        Leases asked for before and granted after are given back, not kept.
        """
        self.closed = True
        self.ready = {}
        if self._jobs is not None:
            self._jobs.put(None)

    def flush(self, timeout_s: float) -> bool:
        """Wait until every job queued so far is done; False after ``timeout_s`` seconds."""
        jobs = self._jobs
        if jobs is None:
            return True
        with jobs.all_tasks_done:
            return jobs.all_tasks_done.wait_for(lambda: jobs.unfinished_tasks == 0, timeout_s)


def _renew_loop(
    limiter_ref: weakref.ref[Any],
    ahead: Ahead,
    jobs: queue.Queue[tuple[Any, ...] | None],
) -> None:
    while (job := jobs.get()) is not None:
        limiter = limiter_ref()
        try:
            if limiter is not None:
                limiter._run_job(ahead, job)
        except Exception as error:  # the caller's path asks Redis itself when none is ready
            logger.debug("rate-limit lease not renewed ahead: %s", error)
        finally:
            limiter = None  # not kept alive by a thread that waits for the next job
            jobs.task_done()
