"""The baselines' Celery apps: a no-op job, a chain of no-ops, and a bare openai review job.

Each runs on a worker with QGS's own Celery configuration (``celery_config``: acks late,
prefetch 1, JSON, events), the same pool, concurrency, queues and flags as ``qgs worker``
(started by ``bench/worker_probe.py baseline ...``), so what differs from the pipeline is only
the work a job does:

- ``bench.noop``: nothing;
- ``bench.noop_chain(queues)``: nothing, then publishes a chain of ``bench.noop`` on
  ``queues``, as ``qgs.review.intake`` publishes a round's chain (critic?, discriminate?,
  decide) with ``dispatch``;
- ``bench.noop_chunk(transcripts)`` / ``bench.detect_chunk(transcripts)``: a chunk of
  transcripts carried in one message, then nothing / the deterministic detectors over every
  round (``bench/audit_batch_bench.py``'s baselines);
- ``bench.bare_review(index)``: one ``chat.completions.create`` on the loopback judge with
  the messages and ``response_format`` of a request QGS sent (read once from the file
  ``QGS_BENCH_REQUESTS``), through one shared ``openai.OpenAI`` client like QGS's, and
  ``json.loads`` of the answer: what a bare Celery + openai worker does for a review.

Only what these jobs need is imported (Celery, kombu, QGS's settings; openai on the first bare
review), so the baseline worker's memory is Celery's, not SQLModel's.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
from collections.abc import Sequence
from typing import Any

from celery import Celery, chain

from qgs_worker.config.settings import Settings
from qgs_worker.queue.celery_app import QUEUES, celery_config

REQUESTS_ENV = "QGS_BENCH_REQUESTS"
"""A JSON file: the request bodies ``bench.bare_review`` sends (a list of chat-completions bodies)."""
JUDGE_URL_ENV = "QGS_BENCH_JUDGE_URL"
"""The loopback judge's base URL for ``bench.bare_review``."""


def baseline_app(broker_url: str) -> Celery:
    """The baselines' app on ``broker_url``, with QGS's Celery configuration."""
    app = Celery("qgs-bench-baseline")
    app.conf.update(celery_config(Settings(broker_url=broker_url)))
    shared: dict[str, Any] = {}
    lock = threading.Lock()

    @app.task(name="bench.noop", acks_late=True)
    def noop() -> None:
        """Nothing: the cost of a Celery job alone."""

    @app.task(name="bench.noop_chain", acks_late=True)
    def noop_chain(queues: Sequence[str]) -> None:
        """Nothing, then a chain of no-ops on ``queues`` (one hop each)."""
        if queues:
            chain(*(noop.si().set(queue=q) for q in queues)).apply_async()

    @app.task(name="bench.noop_chunk", acks_late=True)
    def noop_chunk(transcripts: list[dict[str, Any]]) -> int:
        """Nothing with a chunk of transcripts: the cost of carrying them in one message."""
        return len(transcripts)

    @app.task(name="bench.detect_chunk", acks_late=True)
    def detect_chunk(transcripts: list[dict[str, Any]]) -> int:
        """The deterministic detectors over a chunk, round by round, as a round's intake runs them.

        Each transcript is ``{"request": str, "rounds": [Deliverable as JSON, ...]}``; each
        round is validated and scanned (``round_scan.scan_round``) with the earlier rounds' tool
        outputs, as ``prepare_round`` does. Returns the findings' count.
        """
        from qgs_worker.core import round_scan
        from qgs_worker.core.models import Deliverable

        found = 0
        for transcript in transcripts:
            earlier: list[Any] = []
            for raw in transcript["rounds"]:
                deliverable = Deliverable.model_validate(raw)
                found += len(
                    round_scan.scan_round(
                        deliverable, request=transcript["request"], earlier_tool_results=earlier
                    )
                )
                earlier.extend(deliverable.tool_results)
        return found

    @app.task(name="bench.bare_review", acks_late=True)
    def bare_review(index: int) -> int:
        """One review call as a bare worker makes it; returns the answer's size in characters."""
        if not shared:
            with lock:
                if not shared:
                    import openai

                    path = os.environ[REQUESTS_ENV]
                    with open(path, encoding="utf-8") as stream:
                        shared["bodies"] = json.load(stream)
                    shared["client"] = openai.OpenAI(
                        base_url=os.environ[JUDGE_URL_ENV],
                        api_key="bench",
                        timeout=30.0,
                        max_retries=0,
                    )
        bodies = shared["bodies"]
        body = bodies[index % len(bodies)]
        answer = shared["client"].chat.completions.create(
            model=body.get("model", "gpt-4o-mini"),
            messages=body["messages"],
            response_format=body.get("response_format", {"type": "json_object"}),
            max_tokens=body.get("max_tokens", 800),
            temperature=body.get("temperature", 0.0),
        )
        content = answer.choices[0].message.content or ""
        json.loads(content)
        return len(content)

    return app


def run_baseline_worker(argv: Sequence[str]) -> None:
    """The baseline worker process: the same argv ``qgs worker`` gives Celery (``cli.worker``)."""
    parser = argparse.ArgumentParser(prog="worker_probe.py baseline")
    parser.add_argument("--pool", default="threads")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--name", default="bench-baseline")
    args = parser.parse_args(list(argv))
    app = baseline_app(os.environ["QGS_BROKER_URL"])
    app.worker_main(
        [
            "worker",
            f"--queues={','.join(QUEUES)}",
            f"--pool={args.pool}",
            f"--concurrency={args.concurrency}",
            f"--hostname={args.name}@%h",
            "--loglevel=WARNING",
            "--task-events",
            "--without-mingle",
            "--without-gossip",
        ]
    )
