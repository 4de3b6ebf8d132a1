"""The in-process sliding window: never more than the limit in any window."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qgs_worker.core.models import RateDecision
from qgs_worker.errors import InputError
from qgs_worker.limits.ratelimit import LocalRateLimiter


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class TestLocalRateLimiter:
    """Sliding-window counting, refusals with a retry time, and bad arguments."""

    def test_refuses_over_the_limit_and_says_when(self) -> None:
        clock = FakeClock()
        limiter = LocalRateLimiter(clock)
        got = [limiter.hit("k", limit=2, window_s=10).allowed for _ in range(3)]
        clock.now += 4
        refused = limiter.hit("k", limit=2, window_s=10)
        assert ([True, True, False], False, 6.0) == (got, refused.allowed, refused.retry_after_s)

    def test_window_slides(self) -> None:
        clock = FakeClock()
        limiter = LocalRateLimiter(clock)
        limiter.hit("k", limit=1, window_s=1)
        clock.now += 1.0
        assert limiter.hit("k", limit=1, window_s=1).allowed

    def test_costs_count_as_tokens(self) -> None:
        limiter = LocalRateLimiter(FakeClock())
        first = limiter.hit("tokens", limit=1000, window_s=60, cost=800)
        second = limiter.hit("tokens", limit=1000, window_s=60, cost=300)
        assert (True, 800, False) == (first.allowed, first.used, second.allowed)

    def test_keys_are_separate(self) -> None:
        limiter = LocalRateLimiter(FakeClock())
        limiter.hit("a", limit=1, window_s=60)
        assert limiter.hit("b", limit=1, window_s=60).allowed

    def test_idle_keys_are_forgotten(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import qgs_worker.limits.limiters as limiters

        monkeypatch.setattr(limiters, "_PRUNE_FLOOR", 10)
        clock = FakeClock()
        limiter = LocalRateLimiter(clock)
        for agent in range(10):
            limiter.hit(f"agent-{agent}", limit=1, window_s=5)
        clock.now += 3
        limiter.hit("busy", limit=2, window_s=60)  # 11 keys: the 10 idle ones are still in window
        assert 11 == limiter.keys_held
        clock.now += 3  # now the first ten windows are empty
        for agent in range(10, 21):
            limiter.hit(f"agent-{agent}", limit=1, window_s=5)
        assert 12 == limiter.keys_held  # busy + 11 new ones; the ten old ones are gone
        assert 2 == limiter.hit("busy", limit=2, window_s=60).used  # kept: its window is live

    @pytest.mark.parametrize(
        ("limit", "window_s", "cost", "field"),
        [(0, 1, 1, "limit"), (1, 0, 1, "window_s"), (1, 1, 0, "cost")],
    )
    def test_bad_arguments_name_the_field(
        self, limit: int, window_s: float, cost: int, field: str
    ) -> None:
        with pytest.raises(InputError, match=f"'{field}'"):
            LocalRateLimiter().hit("k", limit=limit, window_s=window_s, cost=cost)

    @given(
        gaps=st.lists(st.floats(min_value=0, max_value=2), min_size=1, max_size=60),
        limit=st.integers(1, 5),
        window_s=st.floats(min_value=0.1, max_value=3),
    )
    def test_never_more_than_limit_in_any_window(
        self, gaps: list[float], limit: int, window_s: float
    ) -> None:
        clock = FakeClock()
        limiter = LocalRateLimiter(clock)
        allowed: list[float] = []
        for gap in gaps:
            clock.now += gap
            if limiter.hit("k", limit=limit, window_s=window_s).allowed:
                allowed.append(clock.now)
        for i, start in enumerate(allowed):
            assert sum(1 for t in allowed[i:] if t < start + window_s) <= limit


class TestJudgeRateLimit:
    """Requests/min and estimated tokens/min in front of the judge."""

    def test_requests_per_minute(self) -> None:
        from qgs_worker.limits.ratelimit import JudgeRateLimit

        clock = FakeClock()
        limit = JudgeRateLimit(LocalRateLimiter(clock), "ep", requests_per_minute=2)
        waits = [limit.admit(100) for _ in range(3)]
        assert [0.0, 0.0, 60.0] == waits

    def test_tokens_per_minute(self) -> None:
        from qgs_worker.limits.ratelimit import JudgeRateLimit

        limit = JudgeRateLimit(
            LocalRateLimiter(FakeClock()), "ep", tokens_per_minute=2000, answer_tokens=800
        )
        assert (0.0, True) == (
            limit.admit(400),
            limit.admit(4000) > 0,
        )  # 900 tokens, then 1800 more

    def test_no_limits_admit_everything(self) -> None:
        from qgs_worker.limits.ratelimit import JudgeRateLimit

        limit = JudgeRateLimit(LocalRateLimiter(FakeClock()), "ep")
        assert {0.0} == {limit.admit(10**6) for _ in range(100)}


class TestCircuitBreaker:
    """A failing backend is asked once per cooldown, not on every call."""

    def test_open_then_half_open(self) -> None:
        from qgs_worker.limits.ratelimit import CircuitBreakerLimiter, RateLimiterUnavailableError

        class Flaky:
            calls = 0
            fail = True

            def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
                self.calls += 1
                if self.fail:
                    raise TimeoutError("Timeout reading from socket")
                return RateDecision(allowed=True, used=1, limit=limit)

        now = [100.0]
        inner = Flaky()
        breaker = CircuitBreakerLimiter(inner, cooldown_s=5.0, clock=lambda: now[0])
        with pytest.raises(TimeoutError):
            breaker.hit("k", limit=3, window_s=60)
        for _ in range(10):
            with pytest.raises(RateLimiterUnavailableError, match="not asked again"):
                breaker.hit("k", limit=3, window_s=60)
        assert 1 == inner.calls
        now[0] += 5.1
        inner.fail = False
        assert breaker.hit("k", limit=3, window_s=60).allowed
        assert 2 == inner.calls


def test_one_in_process_window_per_process() -> None:
    from qgs_worker.config.settings import Settings
    from qgs_worker.config.toolgate_io import rate_limiter

    assert rate_limiter(Settings()) is rate_limiter(Settings())


def test_one_redis_limiter_per_broker_per_process() -> None:
    """Gates built for many tools lists share one Redis client (no connection per gate)."""
    from qgs_worker.config.settings import Settings
    from qgs_worker.config.toolgate_io import rate_limiter

    url = "redis://127.0.0.1:1/0"  # never connected to: building a client does not connect
    first = rate_limiter(Settings(broker_url=url))
    assert first is rate_limiter(Settings(broker_url=url))
    other = Settings(broker_url=url, toolgate={"rate_limit_lease": 0})  # type: ignore[arg-type]
    assert rate_limiter(other) is not first
