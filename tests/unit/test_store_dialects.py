"""The store's conflict-ignoring inserts load only the dialect the store speaks (issue 15, part 4).

A worker on a SQLite store never imports SQLAlchemy's PostgreSQL dialect (its module and its
drivers' modules: ~2 MB of the worker's memory); a PostgreSQL store gets PostgreSQL's insert.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy.dialects import postgresql, sqlite

from qgs_worker.store.base import dialect_insert
from qgs_worker.store.tables import ToolCallCheckRow

SCRIPT = """
import json, sys
from datetime import UTC, datetime
from qgs_worker.store import Repository

repo = Repository(sys.argv[1])
saved = [
    repo.save_tool_call_check(check_id="a" * 32, created_at=datetime.now(UTC), shape="openai",
                              allowed=True, latency_us=1.0)
    for _ in range(2)
]
print(json.dumps({"saved": saved, "postgresql": "sqlalchemy.dialects.postgresql" in sys.modules}))
"""


class TestDialectInsert:
    """Each dialect gets its own insert; a SQLite store's writes never load PostgreSQL's."""

    def test_each_dialect_gets_its_insert(self) -> None:
        table = ToolCallCheckRow.__table__  # type: ignore[attr-defined]
        pg = dialect_insert("postgresql")(table).on_conflict_do_nothing()
        lite = dialect_insert("sqlite")(table).on_conflict_do_nothing()
        assert "ON CONFLICT DO NOTHING" in str(pg.compile(dialect=postgresql.dialect()))
        assert "ON CONFLICT DO NOTHING" in str(lite.compile(dialect=sqlite.dialect()))
        assert dialect_insert("sqlite") is sqlite.insert
        assert dialect_insert("postgresql") is postgresql.insert

    def test_a_sqlite_store_writes_without_postgresql(self, tmp_path: Path) -> None:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, f"sqlite:///{tmp_path / 'qgs.db'}"],
            capture_output=True, text=True, check=False, timeout=120, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result == {"saved": [True, False], "postgresql": False}
