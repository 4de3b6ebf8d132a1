"""What every part of the store shares: the engine, the idempotent insert, the JSON and time helpers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

if TYPE_CHECKING:
    from sqlalchemy.dialects.sqlite.dml import Insert

__all__ = ["StoreBase", "as_utc", "clean_row", "dialect_insert", "dumps", "loads_list", "utcnow"]


def utcnow() -> datetime:
    """Now, timezone-aware UTC."""
    return datetime.now(UTC)


_LIST_JSON = json.JSONEncoder(ensure_ascii=False)
"""``json.dumps(..., ensure_ascii=False)``'s encoder, made once: a review writes a list column per
dimension, and making the encoder cost a third of each call (issue 14's batch path)."""


def dumps(items: Iterable[Any]) -> str:
    """A JSON list column's text (non-ASCII kept as is)."""
    listed = list(items)
    return _LIST_JSON.encode(listed) if listed else "[]"  # most issue lists are empty


def loads_list(text: str | None) -> list[Any]:
    """Decode a JSON list column (``[]`` for NULL)."""
    return list(json.loads(text)) if text else []


def as_utc(moment: datetime) -> datetime:
    """A stored timestamp as timezone-aware UTC (SQLite hands back naive UTC datetimes)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def clean_row(row: dict[str, Any]) -> dict[str, Any]:
    """Text as every store can keep it: PostgreSQL refuses NUL characters, so they become U+FFFD."""
    return {k: v.replace("\x00", "\ufffd") if isinstance(v, str) else v for k, v in row.items()}


def dialect_insert(dialect: str) -> Callable[[Any], Insert]:
    """The ``INSERT`` construct with ``ON CONFLICT`` of a dialect: PostgreSQL's, else SQLite's.

    Each dialect's module is imported when first asked for: a worker on a SQLite store never
    loads PostgreSQL's (its drivers' modules: ~2 MB of the worker's memory, issue 15, part 4).

    Args:
        dialect: The engine's dialect name (``engine.dialect.name``).

    Returns:
        ``sqlalchemy.dialects.postgresql.insert`` or ``sqlalchemy.dialects.sqlite.insert``;
        both build statements with ``on_conflict_do_nothing()`` and ``returning()``.
    """
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert  # type: ignore[return-value]  # the same API, PostgreSQL's compiler
    from sqlalchemy.dialects.sqlite import insert

    return insert


class StoreBase:
    """The engine and URL every store part works on, and the insert that ignores a conflict.

    ``Repository`` sets ``engine`` and ``url``; the parts (``RoundStore``, ``ReviewStore``, ...)
    are mixins of it.
    """

    engine: Engine
    url: str

    def _insert_ignore(
        self, session: Session, table: type[SQLModel], rows: Sequence[dict[str, Any]]
    ) -> None:
        if not rows:
            return
        insert = dialect_insert(self.engine.dialect.name)
        # Rows as parameters (not .values()): the statement compiles once and is cached.
        session.execute(insert(table).on_conflict_do_nothing(), [clean_row(r) for r in rows])

    def count_rows(self, table: type[SQLModel]) -> int:
        """How many rows a table holds (for tests and reports)."""
        with Session(self.engine) as session:
            return int(session.exec(select(func.count()).select_from(table)).one())
