"""The agents' API latency with no console open, and with one console open on many live tasks.

    PYTHONPATH=. .venv/bin/python bench/console_bench.py [--quick] [--tasks 1000] [--seconds 10]
        [--repeats 3]

On one Redis broker (``QGS_BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/13``; it must
be empty, and is flushed after), one SQLite store and one worker (a real Celery worker, threads,
in this process, rules judge), ``qgs serve`` (the real command, a subprocess) holds ``--tasks``
decided tasks. Then ``--repeats`` pairs of phases of ``--seconds`` each, alternated, under the
same load: an agent submits rounds and long-polls their decisions in a background thread (so
decisions keep landing), while a second agent measures ``POST /v1/tool-calls/check`` and ``GET
/v1/tasks/{id}`` one after the other. Phase ``closed`` has no console; phase ``open`` has one
operator who signs in, opens the inbox, the live list and queue health, and keeps the live
list's event stream (``/ui/events``) open, receiving every decision. Printed: each phase's p50
/ p99 in milliseconds, the rounds decided, the events the console received, its slowest page,
and the ratio of the median p99s (open / closed), which issue 33 wants within 1.2. Then, with
no console open, a worker's idle RSS with the console's code and without it, side by side
(``bench/console_worker_rss.py``; ``--repeats`` pairs), and their ratio: issue 33 wants the
worker's memory unchanged.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import redis

from bench.api_bench import CALL, TOOLS, bench_settings, qgs_serve
from bench.console_worker_rss import worker_rss
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.store.keys import create_key
from qgs_worker.webhooks.key_secrets import master_secret

ARTICLE = "# AI\n\nAn article about AI: what it is, what it does, where it fails.\n" * 5


def p(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` in milliseconds (values in seconds)."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(fn: Callable[[], object], seconds: float) -> list[float]:
    """Each call's wall time (seconds) of ``fn`` called one after another for ``seconds``."""
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


class Console:
    """One operator's browser: signed in, the live list loaded, its event stream read."""

    def __init__(self, url: str, key: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=60, follow_redirects=False)
        form = self.http.get("/ui/login").text
        token = re.search(r'name="csrf" value="([^"]+)"', form)
        assert token is not None
        done = self.http.post("/ui/login", data={"csrf": token[1], "key": key, "next": ""})
        assert done.status_code == 303, done.text
        self.events = 0
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.ready.wait(30), "the console's event stream did not open"

    def _read(self) -> None:
        with self.http.stream("GET", "/ui/events", timeout=None) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: ready"):
                    self.ready.set()
                elif line.startswith("event: task"):
                    self.events += 1
                if self.stop.is_set():
                    return

    def load_pages(self) -> list[float]:
        """Load the inbox and the live list once, as a person opening the console does.

        Returns:
            Each page's wall time, in seconds.
        """
        took = []
        for path in ("/ui/inbox", "/ui/live", "/ui/queue"):
            start = time.perf_counter()
            assert self.http.get(path).status_code == 200, path
            took.append(time.perf_counter() - start)
        return took

    def close(self) -> None:
        self.stop.set()
        self.http.close()


def phase(
    url: str, agent_key: str, tasks: tuple[str, str], seconds: float, console: Console | None
) -> dict[str, float | str]:
    """One phase's figures (see the module docstring)."""
    headers = {"Authorization": f"Bearer {agent_key}"}
    busy, read = tasks  # rounds keep landing on the first; the second is read (it stays as it is)
    rounds = 0
    done = threading.Event()

    def submitter() -> None:
        nonlocal rounds
        with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
            while not done.is_set():
                sub = http.post(f"/v1/tasks/{busy}/rounds", json={"deliverable": ARTICLE})
                sid = sub.json()["submission_id"]
                http.get(f"/v1/submissions/{sid}/decision", params={"wait_s": 30})
                rounds += 1

    background = threading.Thread(target=submitter, daemon=True)
    background.start()
    events_before = console.events if console else 0
    loads: list[float] = []
    if console is not None:  # the person opens the pages; the live list then follows events
        loader = threading.Thread(target=lambda: loads.extend(console.load_pages()), daemon=True)
        loader.start()
    with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
        body = {"call": CALL, "tools": TOOLS, "agent": "bench"}
        half = seconds / 2
        checks = timed(lambda: http.post("/v1/tool-calls/check", json=body), half)
        reads = timed(lambda: http.get(f"/v1/tasks/{read}"), half)
    done.set()
    background.join(60)
    if console is not None:
        loader.join(30)
    both = checks + reads
    return {
        "p50": p(both, 0.5),
        "p99": p(both, 0.99),
        "check_p99": p(checks, 0.99),
        "read_p99": p(reads, 0.99),
        "requests": len(both),
        "rounds": rounds,
        "events": (console.events - events_before) if console else 0,
        "page_ms": 1000 * max(loads, default=0.0),
        "pages": " ".join(f"{1000 * t:.0f}" for t in loads),
        "mean_ms": 1000 * statistics.fmean(both),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (tests use it)")
    parser.add_argument("--tasks", type=int, default=1000, help="decided tasks in the store")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase")
    parser.add_argument("--repeats", type=int, default=3, help="closed/open phase pairs")
    args = parser.parse_args()
    tasks, seconds = (100, 3.0) if args.quick else (args.tasks, args.seconds)
    repeats = 1 if args.quick else args.repeats
    settings, folder = bench_settings("redis://127.0.0.1:6379/13", "qgs-console-bench-")
    try:
        run(settings, tasks, seconds, repeats)
        worker_rss(settings, 1 if args.quick else args.repeats)
    finally:
        redis.Redis.from_url(settings.broker_url or "").flushdb()
        shutil.rmtree(folder, ignore_errors=True)


def run(settings: Settings, tasks: int, seconds: float, repeats: int) -> None:
    from celery.contrib.testing.worker import start_worker

    from qgs_worker.queue.celery_app import create_celery_app

    app = create_celery_app(settings)
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      loglevel="WARNING"):  # fmt: skip
        client = Client(settings, app=app)
        master = master_secret(client.settings)
        agent = create_key(client.repo, "bench", master=master)
        operator = create_key(
            client.repo, "ops", master=master, operator=True, scopes=("view",), sees=("all",)
        )
        started = time.perf_counter()
        subs = []
        for i in range(tasks):
            requests = ("write an article about AI", "wire 500 EUR to the supplier")
            task = client.start_task(requests[i % 2], agent=f"agent-{i % 7}")
            subs.append(client.submit(task.id, ARTICLE, final=True).id)
        for sid in subs:
            client.wait(sid, timeout_s=120)
        seeded_s = time.perf_counter() - started
        with qgs_serve(settings) as (url, _server):
            with httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {agent.key}"}
            ) as http:
                made = [http.post("/v1/tasks", json={"request": "write about AI"}) for _ in "ab"]
                pair = (made[0].json()["id"], made[1].json()["id"])
                first = http.post(f"/v1/tasks/{pair[1]}/rounds", json={"deliverable": ARTICLE})
                http.get(
                    f"/v1/submissions/{first.json()['submission_id']}/decision",
                    params={"wait_s": 30},
                )
            phase(url, agent.key, pair, 1.0, None)  # warm up
            results: dict[str, list[dict[str, float | str]]] = {"closed": [], "open": []}
            for _ in range(repeats):  # alternated: the machine's drift hits both alike
                results["closed"].append(phase(url, agent.key, pair, seconds, None))
                console = Console(url, operator.key)
                try:
                    results["open"].append(phase(url, agent.key, pair, seconds, console))
                finally:
                    console.close()
        client.repo.dispose()
    print(f"{tasks} decided tasks seeded in {seeded_s:.1f} s; {repeats} x 2 phases of {seconds:g} s")
    for name, runs in results.items():
        for f in runs:
            print(
                f"console {name:6s}: p50 {f['p50']:6.1f} ms  p99 {f['p99']:6.1f} ms "
                f"(check {f['check_p99']:.1f}, read {f['read_p99']:.1f})  "
                f"{f['requests']:5.0f} requests  {f['rounds']:4.0f} rounds decided  "
                f"{f['events']:4.0f} console events  pages {f['pages'] or '-'} ms"
            )
    p99 = {
        name: statistics.median(float(f["p99"]) for f in runs) for name, runs in results.items()
    }
    print(f"median p99: closed {p99['closed']:.1f} ms, open {p99['open']:.1f} ms")
    print(f"ratio p99 console open / closed = {p99['open'] / p99['closed']:.3f}")


if __name__ == "__main__":
    main()
