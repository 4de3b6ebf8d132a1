"""A decided round whose sampling listener was lost is sampled by the sweeper, once.

The rounds here are decided by the service with no decided listener at all (as if the worker
died between the decision's commit and its sample); ``sweep`` then gives each its sampling
decision. ``tests/integration/test_spotcheck_stores.py`` runs these on a SQLite file and on
PostgreSQL, and kills the listener of a real worker.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from qgs_worker.core.spotcheck import SamplePolicy, sample_point
from qgs_worker.queue.sweeper import Actions, SweepPolicy, sweep
from qgs_worker.store import Repository, utcnow
from tests.unit.test_spotcheck import decided

EVERY = SamplePolicy(rate=1.0)


def nothing_to_send() -> Actions:
    """Actions that fail the test if the sweep sends anything but samples."""

    def never(*_: object) -> None:
        raise AssertionError("the sweep sent something: only samples were due")

    return Actions(publish=never, dispatch=never, claim=lambda _t: None, fail=lambda *_: None)


def policy(sample: SamplePolicy, window_s: float = 86_400.0) -> SweepPolicy:
    return SweepPolicy(sample=sample, sample_window_s=window_s)


class TestBackfill:
    """The sweeper samples what the listener never did; a second pass or a redelivery adds nothing."""

    @pytest.fixture
    def repo(self) -> Repository:
        return Repository("sqlite://")

    def test_a_round_the_listener_never_sampled_is_sampled_once(self, repo: Repository) -> None:
        round_id = decided(repo, "s-lost")
        assert [] == repo.spot_checks(None, status="all")  # the listener was lost
        done = sweep(repo, policy(EVERY), nothing_to_send())
        assert [round_id] == done.sampled and done.anything
        (item,) = repo.spot_checks(None, status="all")
        assert ("s-lost", "sampled") == (item.submission_id, item.reason)
        assert [] == sweep(repo, policy(EVERY), nothing_to_send()).sampled  # a second pass
        assert repo.sample_decided(round_id, EVERY)  # the listener's job delivered late
        assert 1 == len(repo.spot_checks(None, status="all"))

    def test_a_round_not_sampled_is_recorded_and_not_read_again(self, repo: Repository) -> None:
        round_id = decided(repo, "s-skip")
        below = SamplePolicy(rate=sample_point("s-skip") / 2)  # this round falls above it
        assert [round_id] == sweep(repo, policy(below), nothing_to_send()).sampled
        assert [] == repo.spot_checks(None, status="all")
        assert [] == repo.unsampled_rounds(utcnow() - timedelta(days=1))
        assert [] == sweep(repo, policy(EVERY), nothing_to_send()).sampled  # decided once

    def test_the_listener_records_its_decision_too(self, repo: Repository) -> None:
        round_id = decided(repo, "s-listened")
        assert repo.sample_decided(round_id, EVERY)  # the listener ran
        assert [] == sweep(repo, policy(EVERY), nothing_to_send()).sampled
        assert 1 == len(repo.spot_checks(None, status="all"))

    def test_only_rounds_within_the_window_and_nothing_when_off(self, repo: Repository) -> None:
        decided(repo, "s-old")
        later = utcnow() + timedelta(hours=2)
        assert [] == sweep(repo, policy(EVERY, window_s=3600), nothing_to_send(), later).sampled
        assert [] == sweep(repo, policy(SamplePolicy()), nothing_to_send()).sampled
        assert [] == repo.spot_checks(None, status="all")
        assert 1 == len(repo.unsampled_rounds(utcnow() - timedelta(days=1)))  # still due
