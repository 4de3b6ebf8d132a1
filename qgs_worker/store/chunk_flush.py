"""Writing a chunk of ``qgs audit``'s batch path: every kept row in one transaction, in bulk.

``ChunkReviewStore`` keeps the rows the review steps would have written (``chunk_store``);
``write_chunk`` inserts them with one ``executemany`` per table and column set (rounds and
reviews with their new ids returned in order, so the rows that point at them get the real ids),
and takes the chunk's outbox rows. Also the two reads the chunk job makes of the results store
(which tasks are stored, which rounds are done).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select
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

if TYPE_CHECKING:
    from qgs_worker.store.chunk_store import ChunkReviewStore

__all__ = ["ChunkConflictError", "settled_submission_ids", "stored_task_ids", "write_chunk"]


class ChunkConflictError(Exception):
    """Tasks of the chunk were stored by someone else before the flush (nothing was written).

    Attributes:
        task_ids: The tasks found in the results store.
    """

    def __init__(self, task_ids: Collection[str]) -> None:
        super().__init__(f"{len(task_ids)} of the chunk's tasks are stored already")
        self.task_ids = frozenset(task_ids)


def write_chunk(conn: Connection, chunk: ChunkReviewStore) -> dict[int, int]:
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
    conn.execute(insert(_t), list(chunk.tasks.values()))
    round_ids = list(chunk.rounds)
    real_round = dict(
        zip(round_ids, _insert_returning(conn, _r, chunk.rounds.values()), strict=True)
    )
    reviews = []
    for v in chunk.reviews.values():
        row = {**v, "round_id": real_round[v["round_id"]]}
        reused = v.get("reused_from")
        if reused is not None and reused < 0:  # reused from a round of this chunk
            row["reused_from"] = real_round[reused]
        reviews.append(row)
    real_review = dict(zip(list(chunk.reviews), _insert_returning(conn, _rv, reviews), strict=True))
    dims = [
        {**d, "review_id": real_review[review_id]}
        for review_id, rows in chunk.dimensions.items()
        for d in rows
    ]
    _insert_all(conn, _dim, dims)
    _insert_all(
        conn,
        _f,
        [
            {**f, "round_id": real_round[rid]}
            for rid, kept in chunk.findings.items()
            for f in kept.values()
        ],
    )
    _insert_all(
        conn, _d, [{**d, "round_id": real_round[rid]} for rid, d in chunk.decisions.items()]
    )
    _insert_all(
        conn,
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


def _insert_returning(conn: Connection, table: Any, rows: Any) -> list[int]:
    """Insert rows and return their new ids in the rows' order (one statement per column set)."""
    rows = list(rows)
    ids: list[int] = [0] * len(rows)
    for group in _groups(rows).values():
        stmt = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        result = conn.execute(stmt, [row for _, row in group])
        for (position, _), new_id in zip(group, result.scalars(), strict=True):
            ids[position] = int(new_id)
    return ids


def _insert_all(conn: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    for group in _groups(rows).values():
        conn.execute(insert(table), [row for _, row in group])


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
