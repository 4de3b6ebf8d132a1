"""The Redis sliding window holds across processes: two processes together never exceed it."""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

import pytest
import redis

from qgs_worker.errors import InputError
from qgs_worker.limits.ratelimit import KEY_PREFIX, USED_PREFIX, RedisRateLimiter
from tests.integration.together import run_together, wait_for_start

pytestmark = pytest.mark.integration

LIMIT = 5
WINDOW_S = 0.5
RUN_S = 2.0
LATENCY_SLACK_S = 0.05  # client-side times lag the Redis server's clock by a round trip


def most_in_any_window(times: list[float], window_s: float) -> int:
    """The most of ``times`` (sorted, client-side seconds) that fall in any one window."""
    return max(
        (
            sum(1 for t in times[i:] if t < start + window_s - LATENCY_SLACK_S)
            for i, start in enumerate(times)
        ),
        default=0,
    )


def hammer(url: str, key: str, ready: Any, start: Any, out: Any) -> None:
    limiter = RedisRateLimiter(redis.Redis.from_url(url))
    start_at = wait_for_start(ready, start)
    allowed = []
    while time.monotonic() < start_at + RUN_S:
        if limiter.hit(key, limit=LIMIT, window_s=WINDOW_S).allowed:
            allowed.append(time.monotonic())
    out.put(allowed)


def test_two_processes_never_exceed_the_limit(redis_url: str) -> None:
    key = "test:two-processes"
    client = redis.Redis.from_url(redis_url)
    client.delete(KEY_PREFIX + key)
    per_process = run_together(hammer, (redis_url, key))
    allowed = sorted(t for times in per_process for t in times)
    assert most_in_any_window(allowed, WINDOW_S) <= LIMIT
    assert all(per_process)  # both processes got some: the window is shared, not starved
    assert len(allowed) >= LIMIT * (RUN_S / WINDOW_S) * 0.5  # and it does let calls through
    client.delete(KEY_PREFIX + key)


class TestRunningTotal:
    """The window's running total agrees with its hits, however the keys got there."""

    def test_a_busy_window_counts_every_hit(self, redis_url: str) -> None:
        key = "test:busy"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client)
        used = [limiter.hit(key, limit=1000, window_s=60, cost=3).used for _ in range(250)]
        refused = limiter.hit(key, limit=1000, window_s=60, cost=251)
        assert used == [3 * (i + 1) for i in range(250)]
        assert (False, 750) == (refused.allowed, refused.used)
        # 1 unit more than is free: the oldest hit must leave, about a minute from now
        assert 59.0 < refused.retry_after_s <= 60.0
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    def test_a_retry_time_past_the_first_page_of_hits(self, redis_url: str) -> None:
        key = "test:pages"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client)
        for _ in range(150):
            limiter.hit(key, limit=150, window_s=60)
        time.sleep(0.05)
        refused = limiter.hit(key, limit=150, window_s=60, cost=120)
        # 120 of the 150 hits must leave: the 120th is on the second page of 100
        assert (False, 150) == (refused.allowed, refused.used)
        assert 59.0 < refused.retry_after_s <= 60.0
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    def test_hits_leaving_the_window_are_taken_off_the_total(self, redis_url: str) -> None:
        key = "test:leaving"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client)
        for _ in range(3):
            limiter.hit(key, limit=5, window_s=0.2, cost=2)  # the third is refused: 6 > 5
        time.sleep(0.25)
        after = limiter.hit(key, limit=5, window_s=0.2, cost=1)
        assert (True, 1) == (after.allowed, after.used)
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    @pytest.mark.parametrize("deleted", ["window", "total"])
    def test_a_key_deleted_by_hand_rebuilds_the_total(self, redis_url: str, deleted: str) -> None:
        key = f"test:deleted-{deleted}"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client)
        for _ in range(4):
            limiter.hit(key, limit=10, window_s=60)
        client.delete((KEY_PREFIX if deleted == "window" else USED_PREFIX) + key)
        got = limiter.hit(key, limit=10, window_s=60).used
        assert got == (1 if deleted == "window" else 5)
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def members(client: redis.Redis, key: str) -> list[str]:  # type: ignore[type-arg]
    """The window's members, oldest first: ``<id>:<units>``."""
    return [m.decode() for m in client.zrange(KEY_PREFIX + key, 0, -1)]


def units(client: redis.Redis, key: str) -> list[int]:  # type: ignore[type-arg]
    return [int(m.rsplit(":", 1)[1]) for m in members(client, key)]


class TestLeases:
    """A process takes a share of the window at once; the window is still never exceeded."""

    def test_a_lease_is_one_round_trip_for_many_hits(self, redis_url: str) -> None:
        key = "test:lease-many"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock())
        got = [limiter.hit(key, limit=1000, window_s=60) for _ in range(25)]
        assert all(d.allowed for d in got)
        assert [10, 10, 10] == units(client, key)  # 3 leases of 1% of 1000 for 25 hits
        other = RedisRateLimiter(client)  # another process, no leases: sees all 30 taken
        assert 31 == other.hit(key, limit=1000, window_s=60).used
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    def test_unspent_units_go_back_with_the_next_lease(self, redis_url: str) -> None:
        key = "test:lease-back"
        client = redis.Redis.from_url(redis_url)
        clock = FakeClock()
        limiter = RedisRateLimiter(client, lease_fraction=0.01, lease_s=1.0, clock=clock)
        for _ in range(3):
            limiter.hit(key, limit=1000, window_s=60)
        clock.now += 1.5  # the lease ended with 7 of its 10 units unspent
        after = limiter.hit(key, limit=1000, window_s=60)
        # the first lease shrunk to the 3 units spent (its id marked "r"), and a new one
        shrunk = sorted(m for m in members(client, key) if m.split(":")[0].endswith("r"))
        assert ([3, 10], 1) == (sorted(units(client, key)), len(shrunk))
        assert shrunk[0].endswith(":3")
        assert (True, 13) == (after.allowed, after.used)
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    def test_two_leaseholders_get_exactly_the_limit(self, redis_url: str) -> None:
        key = "test:lease-exact"
        client = redis.Redis.from_url(redis_url)
        first, second = (
            RedisRateLimiter(client, lease_fraction=0.5, clock=FakeClock()) for _ in range(2)
        )
        allowed = 0
        for _ in range(80):  # they take turns: 50 + 50 units, then both are refused
            for limiter in (first, second):
                allowed += limiter.hit(key, limit=100, window_s=60).allowed
        refused = first.hit(key, limit=100, window_s=60)
        assert 100 == allowed
        assert (False, 100) == (refused.allowed, refused.used)
        assert 60.0 < refused.retry_after_s <= 61.1  # the leases count until they end, 1 s on
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    def test_small_limits_ask_redis_every_time(self, redis_url: str) -> None:
        key = "test:lease-small"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client, lease_fraction=0.1, clock=FakeClock())
        got = [limiter.hit(key, limit=10, window_s=60).allowed for _ in range(12)]
        assert [True] * 10 + [False] * 2 == got
        assert [1] * 10 == units(client, key)  # 10% of 10 is one unit: no lease
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    def test_a_changed_limit_ends_the_lease(self, redis_url: str) -> None:
        key = "test:lease-changed"
        client = redis.Redis.from_url(redis_url)
        limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock())
        limiter.hit(key, limit=1000, window_s=60)
        limiter.hit(key, limit=500, window_s=60)
        assert [1, 5] == sorted(units(client, key))  # 9 units given back, 1% of 500 taken
        client.delete(KEY_PREFIX + key, USED_PREFIX + key)

    @pytest.mark.parametrize(("fraction", "lease_s"), [(-0.1, 1.0), (1.5, 1.0), (0.1, 0.0)])
    def test_bad_lease_settings_name_the_field(
        self, redis_url: str, fraction: float, lease_s: float
    ) -> None:
        field = "lease_s" if lease_s <= 0 else "lease_fraction"
        with pytest.raises(InputError, match=f"'{field}'"):
            RedisRateLimiter(
                redis.Redis.from_url(redis_url), lease_fraction=fraction, lease_s=lease_s
            )


def hammer_leased(url: str, key: str, ready: Any, start: Any, out: Any) -> None:
    limiter = RedisRateLimiter(redis.Redis.from_url(url), lease_fraction=LEASE_FRACTION)
    start_at = wait_for_start(ready, start)
    allowed = []
    while time.monotonic() < start_at + RUN_S:
        if limiter.hit(key, limit=LEASED_LIMIT, window_s=WINDOW_S).allowed:
            allowed.append(time.monotonic())
    out.put(allowed)


LEASED_LIMIT = 400
LEASE_FRACTION = 0.05  # leases of 20 units, each spent within 0.05 s (a tenth of the window)


def test_two_leasing_processes_never_exceed_the_limit(redis_url: str) -> None:
    key = "test:two-leasing-processes"
    client = redis.Redis.from_url(redis_url)
    client.delete(KEY_PREFIX + key, USED_PREFIX + key)
    per_process = run_together(hammer_leased, (redis_url, key))
    allowed = sorted(t for times in per_process for t in times)
    assert most_in_any_window(allowed, WINDOW_S) <= LEASED_LIMIT
    assert all(per_process)
    # leases waste some of the window (unspent units wait for the next lease): not much
    assert len(allowed) >= LEASED_LIMIT * (RUN_S / WINDOW_S) * 0.5
    client.delete(KEY_PREFIX + key, USED_PREFIX + key)


def test_ended_leases_are_forgotten_beyond_the_cap(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import qgs_worker.limits.ratelimit as ratelimit

    monkeypatch.setattr(ratelimit, "_MAX_LEASES", 3)
    client = redis.Redis.from_url(redis_url)
    clock = FakeClock()
    limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=clock)
    keys = [f"test:cap-{i}" for i in range(5)]
    for key in keys[:3]:
        limiter.hit(key, limit=1000, window_s=60)
    clock.now += 10  # those three leases end
    for key in keys[3:]:
        assert limiter.hit(key, limit=1000, window_s=60).allowed
    assert set(keys[3:]) == set(limiter._leases)
    client.delete(*(KEY_PREFIX + k for k in keys), *(USED_PREFIX + k for k in keys))


def test_release_gives_back_what_leases_did_not_spend(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    limiter = RedisRateLimiter(client, lease_fraction=0.01, clock=FakeClock())
    for _ in range(3):
        limiter.hit("test:release-a", limit=1000, window_s=60)
    limiter.hit("test:release-b", limit=500, window_s=60)
    assert 7 + 4 == limiter.release()
    assert [3] == units(client, "test:release-a") and [1] == units(client, "test:release-b")
    other = RedisRateLimiter(client)
    assert (4, 2) == (
        other.hit("test:release-a", limit=1000, window_s=60).used,
        other.hit("test:release-b", limit=500, window_s=60).used,
    )
    assert 0 == limiter.release()  # nothing is held any more
    keys = ("test:release-a", "test:release-b")
    client.delete(*(KEY_PREFIX + k for k in keys), *(USED_PREFIX + k for k in keys))


def _spend_in_child(url: str, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(sum(_FORKED.hit("test:fork", limit=100, window_s=60).allowed for _ in range(120)))


_FORKED: RedisRateLimiter


def test_a_forked_child_does_not_spend_the_parents_lease(redis_url: str) -> None:
    """Celery's prefork pool forks after the gate is built: leases must not be copied."""
    global _FORKED
    client = redis.Redis.from_url(redis_url)
    client.delete(KEY_PREFIX + "test:fork", USED_PREFIX + "test:fork")
    _FORKED = RedisRateLimiter(client, lease_fraction=0.5)
    assert _FORKED.hit("test:fork", limit=100, window_s=60).allowed  # a lease of 50, 1 spent
    context = multiprocessing.get_context("fork")
    out: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
    child = context.Process(target=_spend_in_child, args=(redis_url, out))
    child.start()
    in_child = out.get(timeout=30)
    child.join(10)
    in_parent = sum(_FORKED.hit("test:fork", limit=100, window_s=60).allowed for _ in range(120))
    assert 100 == 1 + in_child + in_parent  # not 149: the child took a lease of its own
    client.delete(KEY_PREFIX + "test:fork", USED_PREFIX + "test:fork")
