"""API keys: made once, stored hashed, found by their id, revocable (``qgs keys``).

A key reads ``qgs_<key_id>_<secret>``: ``key_id`` (12 hex digits) is stored in clear and finds
the row; the ``secret`` (43 URL-safe characters, 256 random bits) is never stored: the row
keeps a random 16-byte salt and ``HMAC-SHA256(salt, secret)``, compared in constant time. A
key is shown once, when made; so is its **webhook signing secret** (``whsec_...``), which the
store must keep as it is, since the webhook job signs with it (``webhook_secret``).

Scopes: every key may start tasks, submit rounds, read its own tasks and check tool calls;
``approve`` (``SCOPE_APPROVE``) also lets it approve or reject its principal's tasks.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Text
from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel, col, select

from qgs_worker.errors import InputError
from qgs_worker.store.tables import utcnow

__all__ = [
    "KEY_PREFIX",
    "SCOPES",
    "SCOPE_APPROVE",
    "ApiKeyRow",
    "KeyInfo",
    "NewKey",
    "VerifiedKey",
    "check_principal",
    "create_key",
    "key_is_live",
    "list_keys",
    "parse_key",
    "revoke_key",
    "verify_key",
    "webhook_secret",
]

KEY_PREFIX = "qgs_"
"""Every API key starts with this (so a leaked one is recognisable in a secret scanner)."""

SCOPE_APPROVE = "approve"
"""The scope that lets a key approve or reject a task (``POST /v1/tasks/{id}/approval``)."""

SCOPES = frozenset({SCOPE_APPROVE})
"""The scopes a key may be given beyond the default rights."""

PRINCIPAL_MAX_CHARS = 128
_PRINCIPAL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$")
_KEY = re.compile(r"^qgs_(?P<id>[0-9a-f]{12})_(?P<secret>[A-Za-z0-9_-]{43})$")


class ApiKeyRow(SQLModel, table=True):
    """One API key: its id, principal, scopes, salted hash, webhook secret; revoked or not.

    ``secret_hash`` is ``HMAC-SHA256(salt, secret)`` in hex; the secret itself is not stored.
    ``scopes`` is a JSON list. ``revoked_at`` (UTC) is set once by ``revoke_key``.
    """

    __tablename__ = "api_key"

    key_id: str = Field(primary_key=True, max_length=12)
    principal: str = Field(index=True, max_length=PRINCIPAL_MAX_CHARS)
    scopes: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    salt: str = Field(max_length=32)
    secret_hash: str = Field(max_length=64)
    webhook_secret: str = Field(max_length=64)
    note: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )
    revoked_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


@dataclass(frozen=True)
class NewKey:
    """A key just made: ``key`` and ``webhook_secret`` are shown to the caller once, never again."""

    key_id: str
    principal: str
    scopes: tuple[str, ...]
    key: str
    webhook_secret: str


@dataclass(frozen=True)
class KeyInfo:
    """What ``qgs keys list`` shows of a key (never its secret)."""

    key_id: str
    principal: str
    scopes: tuple[str, ...]
    created_at: datetime
    revoked_at: datetime | None
    note: str


def _engine(store: Any) -> Engine:
    """The engine of a ``Repository`` (anything with ``.engine``) or an ``Engine``."""
    return store if isinstance(store, Engine) else store.engine


def _hash(salt: str, secret: str) -> str:
    return hmac.new(bytes.fromhex(salt), secret.encode("ascii"), hashlib.sha256).hexdigest()


def check_principal(principal: str) -> str:
    """The principal name, checked.

    Raises:
        InputError: empty, over 128 characters, or with characters other than letters, digits
            and ``. _ @ : -`` (it appears in URLs of reports and in log lines).
    """
    if not _PRINCIPAL.match(principal or ""):
        raise InputError(
            f"'principal' must be 1-{PRINCIPAL_MAX_CHARS} letters, digits or . _ @ : - , "
            f"starting with a letter or digit (got {principal!r})"
        )
    return principal


def create_key(
    store: Any, principal: str, *, scopes: tuple[str, ...] = (), note: str = ""
) -> NewKey:
    """Make and store a key for ``principal``; the returned secrets are shown once.

    Args:
        store: A ``Repository`` or an ``Engine`` whose schema includes ``api_key``.
        principal: Who the key acts for (tasks it starts are that principal's).
        scopes: Extra rights, from ``SCOPES`` (``approve``).
        note: Free text kept with the key (what it is for).

    Raises:
        InputError: a bad principal name or an unknown scope.
    """
    check_principal(principal)
    unknown = sorted(set(scopes) - SCOPES)
    if unknown:
        raise InputError(
            f"unknown scope {unknown[0]!r}: the scopes are {', '.join(sorted(SCOPES))}"
        )
    key_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_hex(16)
    hook = "whsec_" + secrets.token_urlsafe(32)
    ordered = tuple(sorted(set(scopes)))
    row = ApiKeyRow(
        key_id=key_id,
        principal=principal,
        scopes=json.dumps(list(ordered)),
        salt=salt,
        secret_hash=_hash(salt, secret),
        webhook_secret=hook,
        note=note,
    )
    with Session(_engine(store)) as session:
        session.add(row)
        session.commit()
    return NewKey(key_id, principal, ordered, f"{KEY_PREFIX}{key_id}_{secret}", hook)


def parse_key(key: str) -> tuple[str, str] | None:
    """``(key_id, secret)`` of a well-formed key, else None."""
    found = _KEY.match(key.strip())
    return (found["id"], found["secret"]) if found else None


@dataclass(frozen=True)
class VerifiedKey:
    """A key that matched a live row: who it acts for and with which scopes."""

    key_id: str
    principal: str
    scopes: frozenset[str]


def verify_key(store: Any, key: str) -> VerifiedKey | None:
    """The key's principal and scopes when it is well formed, known, unrevoked and matches.

    One read by primary key, then a constant-time comparison of the salted hashes. Every
    failure is the same None: the caller says "invalid or revoked key" whatever the reason.
    """
    parsed = parse_key(key)
    if parsed is None:
        return None
    key_id, secret = parsed
    with Session(_engine(store)) as session:
        row = session.get(ApiKeyRow, key_id)
    if row is None or row.revoked_at is not None:
        return None
    if not hmac.compare_digest(_hash(row.salt, secret), row.secret_hash):
        return None
    return VerifiedKey(row.key_id, row.principal, frozenset(json.loads(row.scopes)))


def key_is_live(store: Any, key_id: str) -> bool:
    """Whether the key with this id exists and is not revoked (one read by primary key)."""
    with Session(_engine(store)) as session:
        row = session.get(ApiKeyRow, key_id)
    return row is not None and row.revoked_at is None


def list_keys(store: Any, *, principal: str | None = None) -> list[KeyInfo]:
    """Every key (or ``principal``'s), oldest first, without secrets."""
    with Session(_engine(store)) as session:
        query = select(ApiKeyRow).order_by(col(ApiKeyRow.created_at), col(ApiKeyRow.key_id))
        if principal is not None:
            query = query.where(col(ApiKeyRow.principal) == principal)
        rows = list(session.exec(query))
    return [
        KeyInfo(
            r.key_id, r.principal, tuple(json.loads(r.scopes)), r.created_at, r.revoked_at, r.note
        )
        for r in rows
    ]


def revoke_key(store: Any, key_id: str) -> bool:
    """Revoke a key by its id; True when it was live (revoking twice changes nothing).

    Raises:
        InputError: no key has this id.
    """
    with Session(_engine(store)) as session:
        row = session.get(ApiKeyRow, key_id)
        if row is None:
            raise InputError(f"no API key with id {key_id!r}: `qgs keys list` shows the ids")
        if row.revoked_at is not None:
            return False
        row.revoked_at = utcnow()
        session.add(row)
        session.commit()
    return True


def webhook_secret(store: Any, principal: str, key_id: str | None = None) -> bytes | None:
    """The secret that signs a task's webhooks: its key's, else its principal's newest live key's.

    A task is signed with the secret of the key that created it (``TaskRow.key_id``), so making
    another key (an approve key, a rotation) changes nothing for the agent that checks it. When
    that key is revoked (or the task predates the column), the principal's newest live key signs.

    Args:
        store: A ``Repository`` or an ``Engine``.
        principal: The task's principal (``TaskRow.principal``).
        key_id: The key that created the task (``TaskRow.key_id``); None: the newest live key.

    Returns:
        The secret's bytes (the whole ``whsec_...`` text, UTF-8), or None when the principal has
        no live key (``webhook_secret_for`` then falls back to ``QGS_WEBHOOKS__SECRET``).
    """
    with Session(_engine(store)) as session:
        if key_id is not None:
            own = session.exec(
                select(ApiKeyRow.webhook_secret).where(
                    col(ApiKeyRow.key_id) == key_id,
                    col(ApiKeyRow.principal) == principal,
                    col(ApiKeyRow.revoked_at).is_(None),
                )
            ).first()
            if own is not None:
                return own.encode("utf-8")
        hook = session.exec(
            select(ApiKeyRow.webhook_secret)
            .where(col(ApiKeyRow.principal) == principal, col(ApiKeyRow.revoked_at).is_(None))
            .order_by(col(ApiKeyRow.created_at).desc(), col(ApiKeyRow.key_id).desc())
        ).first()
    return hook.encode("utf-8") if hook is not None else None
