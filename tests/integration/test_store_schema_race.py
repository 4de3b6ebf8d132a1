"""Workers started together on a fresh store all open it (the loser of CREATE TABLE retries).

Found by the chaos run: three `qgs worker` processes started at once on a new SQLite file or
PostgreSQL database; one failed with "table round already exists" (SQLite) or a unique
violation on ``pg_type_typname_nsp_index`` (PostgreSQL) and exited 2 at start.
"""

from __future__ import annotations

import multiprocessing as mp
from typing import Any

import pytest

pytestmark = pytest.mark.integration

_OPENERS = 6


def _open(url: str, barrier: Any, results: Any) -> None:
    from qgs_worker.store import Repository

    barrier.wait()
    try:
        Repository(url).dispose()
        results.put("ok")
    except Exception as exc:  # reported to the test, which names it
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_opening_a_fresh_store_at_once_all_succeed(store_url: str) -> None:
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(_OPENERS)
    results = ctx.Queue()
    procs = [ctx.Process(target=_open, args=(store_url, barrier, results)) for _ in range(_OPENERS)]
    for proc in procs:
        proc.start()
    outcomes = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)
    assert outcomes == ["ok"] * _OPENERS
