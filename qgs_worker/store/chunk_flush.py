"""Writing a chunk of ``qgs audit``'s batch path: every kept row in one transaction, in bulk.

``ChunkReviewStore`` keeps the rows the review steps would have written (``chunk_store``);
``write_chunk`` inserts them with one ``executemany`` per table and column set (rounds and
reviews with their new ids known in order, so the rows that point at them get the real ids),
and takes the chunk's outbox rows. Also the two reads the chunk job makes of the results store
(which tasks are stored, which rounds are done).

On SQLite the rows go to the driver's ``executemany`` directly (``_SqliteRows``): the statement
compiled once per column set, each value through its column type's own bind processor, the
column defaults filled in as Core fills them, and the new ids counted on from ``max(id)``
(read inside the transaction after its first insert, when SQLite's write lock keeps every
other writer out, so the ids are those SQLite would give). Core's per-row parameter handling
cost ~7.6% of ``qgs audit``'s worker CPU (issue 14, part 5); PostgreSQL keeps Core's path, its
ids from ``RETURNING``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection
from typing import Any, Protocol

from sqlalchemy import Column, Table, func, insert, select
from sqlalchemy.engine import Connection, Engine

from qgs_worker.core.models import ROUND_DONE
from qgs_worker.store.row_values import AUDIT_RUN as _run
from qgs_worker.store.row_values import DECISION as _d
from qgs_worker.store.row_values import DIMENSION as _dim
from qgs_worker.store.row_values import FINDING as _f
from qgs_worker.store.row_values import REVIEW as _rv
from qgs_worker.store.row_values import ROUND as _r
from qgs_worker.store.row_values import TAKE_OUTBOX as _TAKE_OUTBOX
from qgs_worker.store.row_values import TASK as _t
from qgs_worker.store.tables import utcnow


class ChunkRows(Protocol):
    """What ``write_chunk`` reads of a chunk: the insert values ``ChunkReviewStore`` kept.

    Rounds and reviews are keyed by their negative (not yet stored) ids; findings by round and
    fingerprint; runs by round and role.
    """

    tasks: dict[str, dict[str, Any]]
    rounds: dict[int, dict[str, Any]]
    reviews: dict[int, dict[str, Any]]
    dimensions: dict[int, list[dict[str, Any]]]
    findings: dict[int, dict[str, dict[str, Any]]]
    decisions: dict[int, dict[str, Any]]
    runs: dict[int, dict[str, dict[str, Any]]]
    taken: list[str]

__all__ = [
    "ChunkConflictError",
    "ChunkRows",
    "settled_submission_ids",
    "stored_task_ids",
    "write_chunk",
]


class ChunkConflictError(Exception):
    """Tasks of the chunk were stored by someone else before the flush (nothing was written).

    Attributes:
        task_ids: The tasks found in the results store.
    """

    def __init__(self, task_ids: Collection[str]) -> None:
        super().__init__(f"{len(task_ids)} of the chunk's tasks are stored already")
        self.task_ids = frozenset(task_ids)


def write_chunk(conn: Connection, chunk: ChunkRows) -> dict[int, int]:
    """Insert every row a chunk kept, in ``conn``'s transaction; the real id of each round.

    Raises:
        ChunkConflictError: a task of the chunk is stored already (nothing written).
    """
    if not chunk.tasks:
        return {}
    ids = list(chunk.tasks)
    stored = set(conn.scalars(select(_t.c.id).where(_t.c.id.in_(ids))))
    if stored:
        raise ChunkConflictError(stored)
    rows = _SqliteRows(conn) if conn.dialect.name == "sqlite" else _CoreRows(conn)
    rows.insert(_t, list(chunk.tasks.values()))
    round_ids = list(chunk.rounds)
    real_round = dict(
        zip(round_ids, rows.insert_new(_r, list(chunk.rounds.values())), strict=True)
    )
    reviews = []
    for v in chunk.reviews.values():
        row = {**v, "round_id": real_round[v["round_id"]]}
        reused = v.get("reused_from")
        if reused is not None and reused < 0:  # reused from a round of this chunk
            row["reused_from"] = real_round[reused]
        reviews.append(row)
    real_review = dict(zip(list(chunk.reviews), rows.insert_new(_rv, reviews), strict=True))
    dims = [
        {**d, "review_id": real_review[review_id]}
        for review_id, kept_dims in chunk.dimensions.items()
        for d in kept_dims
    ]
    rows.insert(_dim, dims)
    rows.insert(
        _f,
        [
            {**f, "round_id": real_round[rid]}
            for rid, kept in chunk.findings.items()
            for f in kept.values()
        ],
    )
    rows.insert(_d, [{**d, "round_id": real_round[rid]} for rid, d in chunk.decisions.items()])
    rows.insert(
        _run,
        [
            {**r, "round_id": real_round[rid]}
            for rid, runs in chunk.runs.items()
            for r in runs.values()
        ],
    )
    if chunk.taken:
        now = utcnow()
        conn.execute(_TAKE_OUTBOX, [{"sid": sid, "now": now} for sid in chunk.taken])
    return real_round


def _groups(rows: Any) -> dict[frozenset[str], list[tuple[int, dict[str, Any]]]]:
    """Rows by their set of columns (an executemany needs one), each with its position."""
    groups: dict[frozenset[str], list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for position, row in enumerate(rows):
        groups[frozenset(row)].append((position, row))
    return groups


def _same(value: Any) -> Any:
    return value


class _CoreRows:
    """Inserts through SQLAlchemy Core (any database): ``executemany``, ids by ``RETURNING``."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        for group in _groups(rows).values():
            self.conn.execute(insert(table), [row for _, row in group])

    def insert_new(self, table: Table, rows: list[dict[str, Any]]) -> list[int]:
        """Insert rows and return their new ids in the rows' order (one statement per column set)."""
        ids: list[int] = [0] * len(rows)
        for group in _groups(rows).values():
            stmt = insert(table).returning(table.c.id, sort_by_parameter_order=True)
            result = self.conn.execute(stmt, [row for _, row in group])
            for (position, _), new_id in zip(group, result.scalars(), strict=True):
                ids[position] = int(new_id)
        return ids


class _SqliteRows:
    """Inserts through the SQLite driver's ``executemany``, as Core would write them.

    Per table and column set: the statement Core compiles for those columns (with every column
    that has a Python-side default, as Core adds them), each value through its column type's
    bind processor (dates as SQLAlchemy stores them), a missing defaulted value from the
    column's default (a scalar, or a callable called per row as Core calls it). Goes through
    ``Connection.exec_driver_sql``, so the engine's events (the writer lock,
    ``sqlite_writes``) see it.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._compiled: dict[tuple[str, frozenset[str]], tuple[str, list[Callable[[Any], Any]]]] = {}

    def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        for columns, group in _groups(rows).items():
            sql, values = self._statement(table, columns)
            self.conn.exec_driver_sql(sql, [tuple(v(row) for v in values) for _, row in group])

    def insert_new(self, table: Table, rows: list[dict[str, Any]]) -> list[int]:
        """Insert rows with the ids SQLite would give them (``max(id) + 1`` on), in order."""
        if not rows:
            return []
        last = self.conn.scalar(select(func.max(table.c.id))) or 0
        ids = list(range(last + 1, last + 1 + len(rows)))
        self.insert(table, [{**row, "id": new_id} for row, new_id in zip(rows, ids, strict=True)])
        return ids

    def _statement(
        self, table: Table, columns: frozenset[str]
    ) -> tuple[str, list[Callable[[Any], Any]]]:
        key = (table.name, columns)
        found = self._compiled.get(key)
        if found is None:
            dialect = self.conn.dialect
            compiled = insert(table).compile(dialect=dialect, column_keys=sorted(columns))
            names = list(compiled.positiontup or ())
            found = (str(compiled), [self._value(table.c[name], dialect) for name in names])
            self._compiled[key] = found
        return found

    @staticmethod
    def _value(column: Column[Any], dialect: Any) -> Callable[[dict[str, Any]], Any]:
        """How a row gives this column's parameter: its value or default, bind-processed."""
        impl = column.type.dialect_impl(dialect)  # SQLite's DATETIME, not the generic type
        process: Callable[[Any], Any] = impl.bind_processor(dialect) or _same
        name = column.key
        default = column.default
        if default is None:
            return lambda row: process(row.get(name))
        if getattr(default, "is_callable", False):
            make = default.arg  # type: ignore[attr-defined]
            return lambda row: process(row[name] if name in row else make(None))
        fixed = getattr(default, "arg", None)
        return lambda row: process(row.get(name, fixed))


def stored_task_ids(engine: Engine, task_ids: Collection[str]) -> set[str]:
    """Which of ``task_ids`` the results store holds (one query)."""
    if not task_ids:
        return set()
    with engine.connect() as conn:
        return set(conn.scalars(select(_t.c.id).where(_t.c.id.in_(list(task_ids)))))


def settled_submission_ids(engine: Engine, submission_ids: Collection[str]) -> set[str]:
    """Which of ``submission_ids`` have their round stored and done (decided or failed).

    One query. A round reopened by ``qgs audit --retry-failed`` is stored and not done.
    """
    if not submission_ids:
        return set()
    done = [status.value for status in ROUND_DONE]
    with engine.connect() as conn:
        query = select(_r.c.submission_id).where(
            _r.c.submission_id.in_(list(submission_ids)), _r.c.status.in_(done)
        )
        return set(conn.scalars(query))
