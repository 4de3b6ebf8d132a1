"""The store's engine and schema.

SQLite (WAL, busy timeout) or PostgreSQL by URL; the tables are created, and the columns a newer
QGS added are added to an older store (the migrations: nullable columns only).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.pool import StaticPool
from sqlmodel import SQLModel, create_engine

from qgs_worker.config.settings_defaults import data_folder_error
from qgs_worker.core.models import split_round_prefix
from qgs_worker.store import console_sessions as _console_sessions  # noqa: F401  (console sessions)
from qgs_worker.store import idempotency as _idempotency  # noqa: F401  (the idempotency keys)
from qgs_worker.store import keys as _keys  # noqa: F401  (registers the api_key table)
from qgs_worker.store import runs as _runs  # noqa: F401  (registers the audit run tables)
from qgs_worker.store import spotcheck_rows as _spotchecks  # noqa: F401  (the spot-check tables)
from qgs_worker.store import tables as _tables  # noqa: F401  (registers every table's metadata)
from qgs_worker.store import webhooks as _webhooks  # noqa: F401  (and the webhook tables')
from qgs_worker.store.sqlite_writes import serialize_writes, writer_connection_class

__all__ = [
    "SQLITE_BUSY_TIMEOUT_MS",
    "add_missing_columns",
    "create_schema",
    "make_engine",
    "redact",
]

SQLITE_BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite writer waits for the lock, in milliseconds (workers write concurrently)."""


PG_CONNECT_ARGS: dict[str, Any] = {
    "connect_timeout": 10,  # seconds to connect, per address
    "keepalives": 1,
    "keepalives_idle": 30,  # seconds idle before the first probe
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "tcp_user_timeout": 30_000,  # ms sent data may stay unacknowledged before the socket fails
}
"""libpq options every PostgreSQL connection gets (a key in the URL's query wins).

A peer that is gone (a host down, a dropped route) then ends the request within about a minute
instead of hanging it. A peer that is connected but stopped (a SIGSTOPped proxy: the kernel
still acknowledges the bytes) is not detected by TCP: the request waits until it answers;
``/readyz`` is bounded by its own timeout all the same (``api.readiness``).
"""

PG_STATEMENT_TIMEOUT_MS = 60_000
"""The server cancels a statement running longer than this (milliseconds), unless the URL's
``options`` sets its own: no request holds a connection for ever behind a lock."""


def make_engine(url: str) -> Engine:
    """Create an engine for ``url``; SQLite files get WAL, a busy timeout and queued writers.

    A SQLite file's writers in this process queue on a lock (``sqlite_writes``) rather than
    on SQLite's busy handler, which sleeps between its tries.

    ``sqlite://`` (in memory) uses one shared connection (StaticPool) so tests see one database.
    PostgreSQL connections get ``PG_CONNECT_ARGS`` (connect timeout, TCP keepalives,
    ``tcp_user_timeout``) and a ``statement_timeout`` of ``PG_STATEMENT_TIMEOUT_MS``; an option
    written in the URL's query wins.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            folder = Path(path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a file in the way, no permission: one line, not a traceback
                where = "QGS_DATA_DIR or the SQLite path in QGS_DATABASE_URL"
                raise data_folder_error(folder, exc, setting=where) from exc
        in_memory = not path or path == ":memory:"
        writer_lock = threading.RLock()
        connect_args: dict[str, Any] = {"check_same_thread": False, "timeout": 30}
        if not in_memory:
            connect_args["factory"] = writer_connection_class(writer_lock)
        kwargs: dict[str, Any] = {"connect_args": connect_args}
        if in_memory:
            kwargs["poolclass"] = StaticPool
        engine = create_engine(url, **kwargs)
        if not in_memory:
            serialize_writes(engine, writer_lock, SQLITE_BUSY_TIMEOUT_MS / 1000)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if not url.startswith("postgresql"):
        return create_engine(url, pool_pre_ping=True)
    given = make_url(url).query
    connect_args = {k: v for k, v in PG_CONNECT_ARGS.items() if k not in given}
    if "options" not in given:
        connect_args["options"] = f"-c statement_timeout={PG_STATEMENT_TIMEOUT_MS}"
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


_SCHEMA_TRIES = 5
_SCHEMA_RACE = re.compile(
    r"already exists|duplicate column|pg_type_typname_nsp_index|DuplicateTable|DuplicateColumn"
    # SQLite: a process switching a fresh file to WAL, or a read transaction that then creates a
    # table, gets SQLITE_BUSY at once (the busy timeout does not apply to either).
    r"|database is locked",
    re.IGNORECASE,
)


def create_schema(engine: Engine) -> None:
    """Create the tables and add missing columns; a race lost to another process is retried.

    Workers started together on a fresh store each run ``CREATE TABLE``: the loser gets
    "table ... already exists" (SQLite), a unique violation on ``pg_type`` or a duplicate
    table (PostgreSQL), "duplicate column" from a concurrent ``ADD COLUMN``, or "database is
    locked" (SQLite, while another process switches the fresh file to WAL or creates a table).
    The winner's tables are there on the next try, which ``create_all`` then skips.
    """
    for attempt in range(_SCHEMA_TRIES):
        try:
            SQLModel.metadata.create_all(engine)
            add_missing_columns(engine)
            return
        except (OperationalError, IntegrityError, ProgrammingError) as exc:
            if attempt + 1 == _SCHEMA_TRIES or not _SCHEMA_RACE.search(str(exc)):
                raise
            time.sleep(0.05 * (attempt + 1))


def add_missing_columns(engine: Engine) -> None:
    """Add the nullable columns a newer QGS added to a store an older one created.

    A column whose values an older QGS kept elsewhere is filled from there in the same
    transaction (``_FILLS``): ``finding.round_number`` from the ``round N: `` prefix of
    ``finding.location``.
    """
    inspector = inspect(engine)
    with engine.begin() as conn:
        for table in SQLModel.metadata.sorted_tables:
            have = {c["name"] for c in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have and column.nullable:
                    kind = column.type.compile(dialect=engine.dialect)
                    conn.execute(
                        text(f'ALTER TABLE "{table.name}" ADD COLUMN "{column.name}" {kind}')
                    )
                    fill = _FILLS.get((table.name, column.name))
                    if fill is not None:
                        fill(conn)


_FILL_BATCH_ROWS = 1_000
"""How many rows a column fill updates in one statement."""


def _finding_round_numbers(conn: Connection) -> None:
    """Move an older store's ``round N: `` location prefix into ``finding.round_number``.

    The fingerprint column is left as it is: ``Finding.fingerprint`` is computed over the
    location as shown (``round N: <location>``), so it is the same for the migrated row.
    """
    rows = conn.execute(
        text("SELECT id, location FROM finding WHERE location LIKE 'round %'")
    ).all()
    updates: list[dict[str, Any]] = []
    for row_id, location in rows:
        number, rest = split_round_prefix(location)
        if number is not None:
            updates.append({"id": row_id, "number": number, "location": rest})
    update = text("UPDATE finding SET round_number = :number, location = :location WHERE id = :id")
    for start in range(0, len(updates), _FILL_BATCH_ROWS):
        conn.execute(update, updates[start : start + _FILL_BATCH_ROWS])


_FILLS: dict[tuple[str, str], Callable[[Connection], None]] = {
    ("finding", "round_number"): _finding_round_numbers,
}
"""``(table, column)`` -> what fills the column when it is added to an older store."""


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
