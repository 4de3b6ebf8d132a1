"""The spot-check store on a SQLite file and on PostgreSQL, and the sweeper's backfill on a worker.

The unit tests' store classes (``test_spotcheck.TestQueueAndLabels``, ``test_spot_backfill.
TestBackfill``) run again here on the ``store_url`` fixture's two stores; then a real worker's
sampling listener crashes after a decision, and the sweeper samples the round it lost, once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.unit.test_spot_backfill as backfill
import tests.unit.test_spotcheck as unit
from qgs_worker.client import Client
from qgs_worker.config.settings import SpotCheckSettings
from qgs_worker.core.spotcheck import SamplePolicy
from qgs_worker.queue.sweeper import Sweeper
from qgs_worker.store import Repository
from qgs_worker.store.spotchecks import SpotCheckStore
from tests.integration.api_server import wait_until
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration


@pytest.fixture
def store(store_url: str) -> Iterator[Repository]:
    """A repository on the test's store (a SQLite file, or a PostgreSQL database)."""
    repo = Repository(store_url)
    yield repo
    repo.dispose()


class TestQueueAndLabelsOnStores(unit.TestQueueAndLabels):
    """The queue, its idempotent writes and its refused labels, on both stores."""

    @pytest.fixture
    def repo(self, store: Repository) -> Repository:
        return store


class TestBackfillOnStores(backfill.TestBackfill):
    """The sweeper's backfill of lost samples, on both stores."""

    @pytest.fixture
    def repo(self, store: Repository) -> Repository:
        return store


class TestLostListener:
    """A worker's sampling listener crashes after the decision: the sweeper samples the round."""

    def test_the_sweeper_samples_what_the_crashed_listener_lost(
        self, redis_url: str, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        settings = make_settings(redis_url, store_url, None, tmp_path).model_copy(
            update={"spotcheck": SpotCheckSettings(rate=1.0)}
        )
        real = SpotCheckStore.sample_decided
        crashed: list[int] = []

        def crash(self: SpotCheckStore, round_id: int, policy: SamplePolicy) -> bool:
            crashed.append(round_id)
            raise RuntimeError("the worker was lost between the decision and its sample")

        monkeypatch.setattr(SpotCheckStore, "sample_decided", crash)
        client = Client(settings)
        try:
            with running_worker(settings) as app:
                task = client.start_task("write an article about AI")
                sub = client.submit(task.id, "# AI\n\nA short article about AI.", final=True)
                client.wait(sub.id, timeout_s=60)
                wait_until(lambda: bool(crashed), what="the listener's crash")
                monkeypatch.setattr(SpotCheckStore, "sample_decided", real)
                assert [] == client.repo.spot_checks(None, status="all")  # the sample was lost
                sweeper = Sweeper(app, settings)
                try:
                    first = sweeper.sweep_once()
                    again = sweeper.sweep_once()
                finally:
                    sweeper.stop()
            assert first is not None and crashed == first.sampled
            assert again is not None and [] == again.sampled
            (item,) = client.repo.spot_checks(None, status="all")
            assert (sub.id, "sampled") == (item.submission_id, item.reason)
        finally:
            client.repo.dispose()
