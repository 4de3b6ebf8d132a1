"""What pushed decisions cost: the decided listener on the hot path, the URL check, the delay.

Usage: .venv/bin/python bench/webhook_bench.py [--rounds 30] [--redis redis://127.0.0.1:6379/4]

- listener: ``decided_listener`` on a decided round *without* a callback URL (what every
  decided round now pays in the worker: one SELECT), on a SQLite file store, in microseconds;
- URL check: ``parse_callback_url`` on public URLs (no DNS), in microseconds;
- delay: a real Celery worker (thread pool) and a loopback receiver answering 200 at once:
  milliseconds from the decision's commit to the first attempt's commit (the enqueue, the
  job's pickup, the POST), and the POST's own latency.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from sqlmodel import Session, select  # noqa: E402

from qgs_worker.client import Client  # noqa: E402
from qgs_worker.config.webhook_settings import WebhookSettings  # noqa: E402
from qgs_worker.core.callback_url import parse_callback_url  # noqa: E402
from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy  # noqa: E402
from qgs_worker.queue import pipeline  # noqa: E402
from qgs_worker.queue.webhook_starts import decided_listener  # noqa: E402
from qgs_worker.service.submission import NewTask, Submission  # noqa: E402
from qgs_worker.store import DecisionRow, Repository, as_utc  # noqa: E402
from tests.integration.conftest import make_settings, running_worker  # noqa: E402
from tests.webhook_receiver import Receiver  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def listener_cost(rounds: int, folder: Path) -> list[float]:
    """Seconds per listener call on decided rounds without a callback."""
    repo = Repository(f"sqlite:///{folder / 'listener.db'}")
    policies = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy(critic_every=1000))
    service = pipeline.service_for(repo, policies)
    ids = []
    for i in range(rounds):
        service.intake(
            Submission(
                submission_id=f"s{i}",
                task_id=f"t{i}",
                deliverable=Deliverable(text="a draft"),
                task=NewTask(request="write an article about AI"),
            )
        )  # a draft the cadence does not review: decided as it is stored
        row_id = repo.get_round_by_submission(f"s{i}").id
        assert row_id is not None
        ids.append(row_id)
    sent: list[int] = []
    listen = decided_listener(repo, sent.append)
    took = []
    for round_id in ids:
        start = time.perf_counter()
        listen("t", round_id)
        took.append(time.perf_counter() - start)
    assert not sent
    repo.dispose()
    return took


def url_check_cost(n: int = 20_000) -> float:
    """Seconds per ``parse_callback_url`` call."""
    urls = [
        "https://agent.example.com/qgs-hook?x=1",
        "http://[::ffff:8.8.8.8]/h",
        "http://134744072/h",
    ]
    start = time.perf_counter()
    for i in range(n):
        parse_callback_url(urls[i % len(urls)])
    return (time.perf_counter() - start) / n


def delivery_delay(rounds: int, redis_url: str, folder: Path) -> tuple[list[float], list[float]]:
    """Milliseconds decision commit -> first attempt commit, and each POST's latency."""
    base = make_settings(redis_url, f"sqlite:///{folder / 'qgs.db'}", None, folder)
    settings = base.model_copy(
        update={"webhooks": WebhookSettings(secret="bench", allow_private=True)}
    )
    lags: list[float] = []
    posts: list[float] = []
    with Receiver(200) as receiver, running_worker(settings) as app:
        qgs = Client(settings, app=app)
        for i in range(rounds):
            task = qgs.start_task("write an article about AI", callback_url=receiver.url)
            sub = qgs.submit(task.id, "# AI\n\nA careful article about AI.\n", final=True)
            receiver.wait_for(i + 1)
            while (view := qgs.repo.webhook_view(sub.id)) is None or not view.attempts:
                time.sleep(0.005)
            round_id = qgs.repo.get_round_by_submission(sub.id).id
            with Session(qgs.repo.engine) as session:
                decided = session.exec(
                    select(DecisionRow).where(DecisionRow.round_id == round_id)
                ).one()
            lags.append((view.attempts[0].at - as_utc(decided.created_at)).total_seconds() * 1e3)
            posts.append(view.attempts[0].latency_ms)
        qgs.repo.dispose()
    return lags, posts


def main() -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/4")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="qgs-webhook-bench-"))
    took = listener_cost(max(args.rounds * 10, 100), folder)
    print(
        f"listener, decided round without a callback: median {statistics.median(took) * 1e6:.0f} us,"
        f" p90 {_pct(took, 0.9) * 1e6:.0f} us (n={len(took)}, SQLite file)"
    )
    print(f"parse_callback_url: {url_check_cost() * 1e6:.1f} us per URL")
    lags, posts = delivery_delay(args.rounds, args.redis, folder)
    print(
        f"decision commit -> first attempt stored: median {statistics.median(lags):.1f} ms, "
        f"p90 {_pct(lags, 0.9):.1f} ms, max {max(lags):.1f} ms; POST latency median "
        f"{statistics.median(posts):.1f} ms (n={len(lags)}, loopback receiver, thread pool)"
    )


if __name__ == "__main__":
    main()
