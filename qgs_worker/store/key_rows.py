"""The ``api_key`` table (``store.keys`` makes, checks and lists its rows).

Nullable columns a newer QGS added (``operator``, ``sees``, ``webhook_check``) are added to an
older store by ``store.schema``; a row an older QGS stored is an agent's key.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Text
from sqlalchemy.engine import Engine
from sqlmodel import Field, SQLModel

from qgs_worker.store.tables import utcnow

__all__ = ["PRINCIPAL_MAX_CHARS", "ApiKeyRow", "engine_of"]

PRINCIPAL_MAX_CHARS = 128
"""The longest principal (or operator) name, in characters."""


class ApiKeyRow(SQLModel, table=True):
    """One API key: its id, principal, scopes, salted hash, webhook secret check; revoked or not.

    ``secret_hash`` is ``HMAC-SHA256(salt, secret)`` in hex; the secret itself is not stored.
    ``webhook_secret`` is empty for a key made since webhook secrets are derived (a key made by
    an older QGS keeps its secret there, and it still signs); ``webhook_check`` is
    ``webhook_check_of`` the derived secret. ``scopes`` is a JSON list. ``revoked_at`` (UTC) is
    set once by ``revoke_key``. ``operator`` is true for a person's key (NULL: an agent's, as in
    rows an older QGS stored); ``sees`` its principals as a JSON list (``["*"]``: all).
    """

    __tablename__ = "api_key"

    key_id: str = Field(primary_key=True, max_length=12)
    principal: str = Field(index=True, max_length=PRINCIPAL_MAX_CHARS)
    scopes: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    salt: str = Field(max_length=32)
    secret_hash: str = Field(max_length=64)
    webhook_secret: str = Field(default="", max_length=64)
    webhook_check: str | None = Field(default=None, max_length=64)
    note: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )
    revoked_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    operator: bool | None = Field(default=None, nullable=True)
    sees: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


def engine_of(store: Any) -> Engine:
    """The engine of a ``Repository`` (anything with ``.engine``) or an ``Engine``."""
    return store if isinstance(store, Engine) else store.engine
