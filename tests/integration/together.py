"""Processes that start a timed run together, once every one of them is ready.

A spawned process imports QGS before it can run: on a loaded machine that takes seconds, so a
start time fixed before the processes start (``now + 2 s``) can pass before one of them is ready,
and the run measures one process. ``run_together`` waits for every process to say it is ready,
then gives them all the same start time (``time.monotonic`` is one clock for every process of
the machine).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from multiprocessing.sharedctypes import Synchronized
from typing import Any

READY_TIMEOUT_S = 120.0
START_DELAY_S = 0.2


def wait_for_start(ready: Any, start: Synchronized) -> float:  # type: ignore[type-arg]
    """In the child: say it is ready, wait for the start time, return it (monotonic seconds)."""
    ready.put(None)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while start.value == 0.0 and time.monotonic() < deadline:
        time.sleep(0.001)
    start_at = float(start.value)
    while time.monotonic() < start_at:
        time.sleep(0.001)
    return start_at


def run_together(target: Callable[..., None], args: tuple[Any, ...], processes: int = 2) -> list[Any]:
    """Start ``processes`` spawned children of ``target(*args, ready, start, out)`` together.

    Returns:
        What each child put on ``out``, one item each.
    """
    context = multiprocessing.get_context("spawn")
    ready = context.Queue()
    out = context.Queue()
    start = context.Value("d", 0.0)
    workers = [context.Process(target=target, args=(*args, ready, start, out)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=READY_TIMEOUT_S)
    start.value = time.monotonic() + START_DELAY_S
    results = [out.get(timeout=READY_TIMEOUT_S) for _ in workers]
    for worker in workers:
        worker.join(10)
    return results
