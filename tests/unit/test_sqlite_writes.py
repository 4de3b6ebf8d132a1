"""A SQLite file's writers in one process queue on a lock, and give it back when they end.

``store.sqlite_writes``: the lock is taken at a transaction's first write and released when the
DBAPI connection commits, rolls back or closes; reads never take it. Behaviour only: how much
latency it saves is measured by ``bench/pipeline_bench.py``, never asserted here.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from qgs_worker.store.schema import make_engine


def engine_at(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'w.db'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    return engine


def holds(engine: Engine) -> list[bool]:
    """Whether each pooled connection holds the writer lock (checked in the pool)."""
    pool = engine.pool
    flags = []
    for record in list(pool._pool.queue):
        flags.append(bool(record.dbapi_connection.holds_write_lock))
    return flags


class TestWriterLock:
    """Taken by a write, given back by commit, rollback and close; never by a read."""

    def test_a_commit_gives_it_back(self, tmp_path: Path) -> None:
        engine = engine_at(tmp_path)
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (1)"))
            assert conn.connection.dbapi_connection.holds_write_lock is True
        assert holds(engine) == [False]
        engine.dispose()

    def test_a_rollback_gives_it_back(self, tmp_path: Path) -> None:
        engine = engine_at(tmp_path)
        with pytest.raises(RuntimeError, match="abandon"), engine.begin() as conn:
            conn.execute(text("UPDATE t SET x = 2"))
            raise RuntimeError("abandon")
        assert holds(engine) == [False]
        engine.dispose()

    def test_a_read_does_not_take_it(self, tmp_path: Path) -> None:
        engine = engine_at(tmp_path)
        with engine.connect() as conn:
            conn.execute(text("SELECT count(*) FROM t")).scalar()
            assert conn.connection.dbapi_connection.holds_write_lock is False
        engine.dispose()

    def test_concurrent_writers_all_commit(self, tmp_path: Path) -> None:
        engine = engine_at(tmp_path)
        errors: list[BaseException] = []

        def write(n: int) -> None:
            try:
                for i in range(20):
                    with engine.begin() as conn:
                        conn.execute(text("INSERT INTO t VALUES (:x)"), {"x": n * 100 + i})
                        conn.execute(text("UPDATE t SET x = x WHERE x = :x"), {"x": i})
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM t")).scalar() == 160
        engine.dispose()

    def test_a_thread_holding_it_writes_again_through_another_connection(
        self, tmp_path: Path
    ) -> None:
        """Re-entrant: the same thread's second connection does not wait on its own lock."""
        engine = engine_at(tmp_path)
        with engine.begin() as first:
            first.execute(text("INSERT INTO t VALUES (1)"))
        with engine.begin() as a:
            a.execute(text("INSERT INTO t VALUES (2)"))
            with engine.connect() as b:
                assert b.execute(text("SELECT count(*) FROM t")).scalar() == 1
        assert sorted(holds(engine)) == [False, False]
        engine.dispose()
