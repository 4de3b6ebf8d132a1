"""``DecisionPublisher``: a decided round's notice, published by the caller or by its own thread."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from qgs_worker.queue.notify import DECIDED_CHANNEL, DecisionPublisher


class FakeRedis:
    """Records what is published, alone or in a pipeline; ``gate`` holds the publishes back."""

    def __init__(self) -> None:
        self.published: list[dict[str, Any]] = []
        self.round_trips = 0
        self.callers: set[str] = set()
        self.gate = threading.Event()
        self.gate.set()

    def publish(self, channel: str, text: str) -> None:
        self.gate.wait(10)
        assert DECIDED_CHANNEL == channel
        self.round_trips += 1
        self.callers.add(threading.current_thread().name)
        self.published.append(json.loads(text))

    def pipeline(self, transaction: bool = True) -> FakePipeline:
        return FakePipeline(self)


class FakePipeline:
    def __init__(self, redis: FakeRedis) -> None:
        self.redis = redis
        self.queued: list[str] = []

    def publish(self, channel: str, text: str) -> None:
        self.queued.append(text)

    def execute(self) -> None:
        self.redis.gate.wait(10)
        self.redis.round_trips += 1
        self.redis.callers.add(threading.current_thread().name)
        self.redis.published += [json.loads(t) for t in self.queued]


def submission_of(round_id: int) -> str | None:
    return None if round_id < 0 else f"s-{round_id}"


class TestInTheCallersThread:
    """By default the call publishes before it returns (the approval's announcement uses it)."""

    def test_published_at_once(self) -> None:
        redis = FakeRedis()
        DecisionPublisher(redis, submission_of)("t1", 7)
        assert [{"task_id": "t1", "round_id": 7, "submission_id": "s-7"}] == redis.published
        assert {threading.current_thread().name} == redis.callers

    def test_a_round_not_in_this_store_is_not_announced(self) -> None:
        redis = FakeRedis()
        DecisionPublisher(redis, submission_of)("t1", -1)
        assert [] == redis.published


class TestInTheBackground:
    """``in_background``: the call queues; the publisher's thread publishes what queued, together."""

    def test_the_call_does_not_wait_on_redis(self) -> None:
        redis = FakeRedis()
        redis.gate.clear()  # Redis answers nothing until the gate opens
        publisher = DecisionPublisher(redis, submission_of, in_background=True)
        for n in range(5):
            publisher("t", n)  # returns at once although no publish can finish
        assert [] == redis.published
        redis.gate.set()
        assert publisher.flush(10)
        assert [f"s-{n}" for n in range(5)] == [p["submission_id"] for p in redis.published]
        assert {"qgs-decision-notices"} == redis.callers
        assert 5 == publisher.published
        assert redis.round_trips < 5  # those queued while one was published went together

    def test_errors_are_logged_not_raised(self, caplog: pytest.LogCaptureFixture) -> None:
        def broken(_round_id: int) -> str | None:
            raise OSError("the store is away")

        publisher = DecisionPublisher(FakeRedis(), broken, in_background=True)
        publisher("t", 1)
        assert publisher.flush(10)
        assert "not announced" in caplog.text
        publisher("t", 2)  # the thread goes on after a failure
        assert publisher.flush(10)
        assert 2 == caplog.text.count("not announced")

    def test_flush_times_out_while_redis_holds(self) -> None:
        redis = FakeRedis()
        redis.gate.clear()
        publisher = DecisionPublisher(redis, submission_of, in_background=True)
        publisher("t", 1)
        assert not publisher.flush(0.05)
        redis.gate.set()
        assert publisher.flush(10)
