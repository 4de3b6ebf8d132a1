"""Leases renewed ahead (issue 15): the caller never waits for the round trip, the limit holds."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from qgs_worker.limits.leases import BATCH_S, POLL_S, LeaseStats
from qgs_worker.limits.ratelimit import KEY_PREFIX, USED_PREFIX, RedisRateLimiter
from tests.integration.test_ratelimit_redis import (
    LEASE_FRACTION,
    LEASED_LIMIT,
    RUN_S,
    WINDOW_S,
    FakeClock,
    members,
    most_in_any_window,
    units,
)
from tests.integration.together import run_together, wait_for_start

pytestmark = pytest.mark.integration


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:  # type: ignore[type-arg]
    client = redis.Redis.from_url(redis_url)
    yield client
    keys = client.keys("qgs:ratelimit*")
    if keys:
        client.delete(*keys)


class TestOffTheCallersPath:
    """A caller that keeps hitting never waits for Redis once its first lease is taken."""

    def test_renewed_when_half_spent(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        limiter = RedisRateLimiter(
            client, lease_fraction=0.01, clock=FakeClock(), renew_ahead=True
        )  # leases of 10 units of 1000
        for _ in range(100):
            assert limiter.hit("test:ahead", limit=1000, window_s=60).allowed
            assert limiter.flush_renewals()
        # the caller waited for the first lease only; the ten after it were sent ahead
        assert LeaseStats(caller_round_trips=1, sent_ahead=10, waits=0) == limiter.stats
        # every lease counts in Redis: 100 units spent, and the one renewed ahead of the last
        assert [10] * 11 == units(client, "test:ahead")

    def test_no_request_while_a_lease_is_live(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        clock = FakeClock()
        limiter = RedisRateLimiter(
            client, lease_fraction=0.1, clock=clock, renew_ahead=True
        )  # a lease of 100 units of 1000: due when 50 are spent
        limiter.hit("test:ahead-live", limit=1000, window_s=60)
        taken = limiter.stats
        for _ in range(48):
            assert limiter.hit("test:ahead-live", limit=1000, window_s=60).allowed
        assert taken == limiter.stats == LeaseStats(1, 0, 0)
        limiter.hit("test:ahead-live", limit=1000, window_s=60)  # the 50th: renewal due
        assert LeaseStats(1, 0, 0) == limiter.stats  # queued, to go with others
        clock.now += BATCH_S
        limiter.hit("test:ahead-live", limit=1000, window_s=60)
        assert LeaseStats(1, 1, 0) == limiter.stats  # sent, not waited for

    def test_renewed_when_half_its_time_is_past(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        clock = FakeClock()
        limiter = RedisRateLimiter(
            client, lease_fraction=0.01, lease_s=1.0, clock=clock, renew_ahead=True
        )
        limiter.hit("test:ahead-time", limit=1000, window_s=60)
        clock.now += 0.6  # past half the lease, 1 unit of 10 spent
        limiter.hit("test:ahead-time", limit=1000, window_s=60)
        assert limiter.flush_renewals()
        clock.now += 0.5  # the first lease ended with 8 units unspent
        assert limiter.hit("test:ahead-time", limit=1000, window_s=60).allowed
        assert limiter.flush_renewals()
        # the caller asked once, the next lease was sent ahead; the lease now spent runs a
        # whole second after the first ended, so it is not due yet, and the first one's
        # unspent units wait to go back with its renewal
        assert LeaseStats(caller_round_trips=1, sent_ahead=1, waits=0) == limiter.stats
        assert [10, 10] == units(client, "test:ahead-time")
        clock.now += 0.5  # half of it is past now
        limiter.hit("test:ahead-time", limit=1000, window_s=60)
        assert limiter.flush_renewals()
        assert LeaseStats(caller_round_trips=1, sent_ahead=2, waits=0) == limiter.stats
        # the first lease shrank to the 2 units it spent, in the request of the third
        assert [2, 10, 10] == sorted(units(client, "test:ahead-time"))
        assert [":2"] == [m[-2:] for m in members(client, "test:ahead-time") if "r:" in m]

    def test_a_lease_renewed_ahead_runs_its_length_after_the_one_before(
        self,
        client: redis.Redis,  # type: ignore[type-arg]
    ) -> None:
        """One renewal per lease time for a key in steady use, not two."""
        clock = FakeClock()
        limiter = RedisRateLimiter(
            client, lease_fraction=0.01, lease_s=1.0, clock=clock, renew_ahead=True
        )
        for _ in range(40):  # 4 s of hits every 0.1 s, 4 units a lease of 10
            limiter.hit("test:ahead-steady", limit=1000, window_s=60)
            assert limiter.flush_renewals()
            clock.now += 0.1
        assert LeaseStats(caller_round_trips=1, sent_ahead=4, waits=0) == limiter.stats

    def test_a_changed_limit_asks_on_the_callers_path(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock(), renew_ahead=True)
        for _ in range(6):
            limiter.hit("test:ahead-changed", limit=1000, window_s=60)
        assert limiter.flush_renewals()
        assert limiter.hit("test:ahead-changed", limit=2000, window_s=60).allowed
        assert limiter.flush_renewals()
        assert 2 == limiter.stats.caller_round_trips
        # both leases of the old limit went back to what they spent (6 and 0 units)
        assert [6, 20] == sorted(units(client, "test:ahead-changed"))

    def test_a_later_hit_reads_the_answer_without_waiting(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        clock = FakeClock()
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=clock, renew_ahead=True)
        for _ in range(5):  # half of a lease of 10: the next one is asked for
            limiter.hit("test:ahead-read", limit=1000, window_s=60)
        clock.now += BATCH_S
        limiter.hit("test:ahead-read", limit=1000, window_s=60)  # sends it
        assert LeaseStats(1, 1, 0) == limiter.stats
        deadline = time.monotonic() + 10  # till Redis answers: a wait for state, not a time
        while not limiter._ahead.ready and time.monotonic() < deadline:
            clock.now += POLL_S  # a hit looks at the socket at most once per POLL_S
            limiter.hit("test:ahead-read", limit=1000, window_s=60)
            time.sleep(0.001)
        assert "test:ahead-read" in limiter._ahead.ready
        assert 0 == limiter.stats.waits

    def test_a_lease_spent_before_its_renewal_is_read_waits_for_that_answer(
        self,
        client: redis.Redis,  # type: ignore[type-arg]
    ) -> None:
        """The renewal already sent is waited for, not sent again."""
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock(), renew_ahead=True)
        for _ in range(11):  # the 11th finds the first lease spent, its successor unread
            assert limiter.hit("test:ahead-wait", limit=1000, window_s=60).allowed
        assert LeaseStats(caller_round_trips=1, sent_ahead=1, waits=1) == limiter.stats
        assert [10, 10] == units(client, "test:ahead-wait")

    def test_no_thread(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        before = set(threading.enumerate())
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock(), renew_ahead=True)
        for _ in range(30):  # leases of 10: the 2nd, 3rd and 4th sent for ahead
            limiter.hit("test:ahead-threads", limit=1000, window_s=60)
        assert limiter.flush_renewals() and limiter.stats.sent_ahead == 3
        assert before == set(threading.enumerate())


class TestTheLimitHolds:
    """Leases renewed ahead count in Redis like any other: never more than the limit."""

    def test_two_leaseholders(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        holders = [
            RedisRateLimiter(client, lease_fraction=0.1, clock=FakeClock(), renew_ahead=True)
            for _ in range(2)
        ]
        allowed = 0
        for i in range(400):  # renewals race the hits: no flush
            allowed += holders[i % 2].hit("test:ahead-two", limit=100, window_s=60).allowed
        for holder in holders:
            assert holder.flush_renewals()
        for i in range(100):  # whatever was renewed ahead is spent now
            allowed += holders[i % 2].hit("test:ahead-two", limit=100, window_s=60).allowed
        assert 100 == allowed

    def test_release_gives_back_the_leases_renewed_ahead(self, client: redis.Redis) -> None:  # type: ignore[type-arg]
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock(), renew_ahead=True)
        for _ in range(6):
            limiter.hit("test:ahead-release", limit=1000, window_s=60)
        assert limiter.flush_renewals()
        assert 4 + 10 == limiter.release()
        assert [6] == units(client, "test:ahead-release")

    def test_two_processes(self, redis_url: str, client: redis.Redis) -> None:  # type: ignore[type-arg]
        key = "test:ahead-processes"
        per_process = run_together(hammer_ahead, (redis_url, key))
        allowed = sorted(t for times in per_process for t in times)
        assert most_in_any_window(allowed, WINDOW_S) <= LEASED_LIMIT
        assert all(per_process)
        assert len(allowed) >= LEASED_LIMIT * (RUN_S / WINDOW_S) * 0.5


def hammer_ahead(url: str, key: str, ready: Any, start: Any, out: Any) -> None:
    limiter = RedisRateLimiter(
        redis.Redis.from_url(url), lease_fraction=LEASE_FRACTION, renew_ahead=True
    )
    start_at = wait_for_start(ready, start)
    allowed = []
    while time.monotonic() < start_at + RUN_S:
        if limiter.hit(key, limit=LEASED_LIMIT, window_s=WINDOW_S).allowed:
            allowed.append(time.monotonic())
    out.put(allowed)


def _spend_in_child(out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(sum(_FORKED.hit("test:ahead-fork", limit=100, window_s=60).allowed for _ in range(120)))


_FORKED: RedisRateLimiter


def test_a_forked_child_spends_neither_lease_of_the_parent(client: redis.Redis) -> None:  # type: ignore[type-arg]
    """The lease being spent and the one renewed ahead both stay the parent's."""
    global _FORKED
    _FORKED = RedisRateLimiter(client, lease_fraction=0.5, renew_ahead=True)
    for _ in range(30):  # a lease of 50, 30 spent: the next 50 are renewed ahead
        assert _FORKED.hit("test:ahead-fork", limit=100, window_s=60).allowed
    assert _FORKED.flush_renewals()
    context = multiprocessing.get_context("fork")
    out: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
    child = context.Process(target=_spend_in_child, args=(out,))
    child.start()
    in_child = out.get(timeout=30)
    child.join(10)
    in_parent = sum(
        _FORKED.hit("test:ahead-fork", limit=100, window_s=60).allowed for _ in range(120)
    )
    assert (0, 100) == (in_child, 30 + in_parent)  # the child found the window full
    client.delete(KEY_PREFIX + "test:ahead-fork", USED_PREFIX + "test:ahead-fork")
