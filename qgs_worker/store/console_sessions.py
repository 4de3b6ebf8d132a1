"""The console's sessions, kept in the store so signing out ends one everywhere at once.

A console session cookie is signed (``api.console.sessions``) and names its key and a random
nonce; the store keeps one ``console_session`` row per sign-in, keyed by the SHA-256 of the
nonce (never the nonce itself: with the row alone nobody can forge the session's CSRF tokens),
with its key id, its expiry and, once signed out, ``ended_at``. Every console request and every
re-check of an open event stream asks ``console_session_live``: a cookie replayed after
``POST /ui/logout`` (or past its expiry) is refused although its signature is still good.

Rows expired for more than a day are deleted when a new session opens (no sweeper needed).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from sqlalchemy import Column, DateTime, delete, update
from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel

from qgs_worker.store.base import as_utc, utcnow

__all__ = ["ConsoleSessionRow", "ConsoleSessionStore", "session_row_id"]

_KEEP_ENDED = timedelta(days=1)


def session_row_id(nonce: str) -> str:
    """The row id of a session's nonce: SHA-256, hex (64 characters)."""
    return hashlib.sha256(b"qgs-console-session/" + nonce.encode("utf-8")).hexdigest()


class ConsoleSessionRow(SQLModel, table=True):
    """One console sign-in: its key, when it expires, when it was signed out (None: not yet)."""

    __tablename__ = "console_session"

    id: str = Field(primary_key=True, max_length=64)
    key_id: str = Field(index=True, max_length=12)
    created_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )
    expires_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    ended_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


_s = ConsoleSessionRow.__table__  # type: ignore[attr-defined]


class ConsoleSessionStore:
    """Console sessions (a part of ``Repository``)."""

    engine: Engine

    def open_console_session(self, nonce: str, key_id: str, expires_at: datetime) -> None:
        """Record a new sign-in (and drop rows expired more than a day ago)."""
        now = utcnow()
        with Session(self.engine) as session:
            session.execute(delete(_s).where(_s.c.expires_at < now - _KEEP_ENDED))
            session.add(
                ConsoleSessionRow(
                    id=session_row_id(nonce), key_id=key_id, created_at=now, expires_at=expires_at
                )
            )
            session.commit()

    def console_session_live(self, nonce: str, key_id: str) -> bool:
        """Whether the session of ``nonce`` is of ``key_id``, not signed out and not expired."""
        with Session(self.engine) as session:
            row = session.get(ConsoleSessionRow, session_row_id(nonce))
        return (
            row is not None
            and row.key_id == key_id
            and row.ended_at is None
            and as_utc(row.expires_at) > utcnow()
        )

    def end_console_session(self, nonce: str) -> None:
        """Sign the session of ``nonce`` out (no row, or already ended: nothing changes)."""
        with Session(self.engine) as session:
            session.execute(
                update(_s)
                .where(_s.c.id == session_row_id(nonce), _s.c.ended_at.is_(None))
                .values(ended_at=utcnow())
            )
            session.commit()
