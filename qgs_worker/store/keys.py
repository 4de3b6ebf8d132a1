"""API keys: made once, stored hashed, found by their id, revocable (``qgs keys``).

A key reads ``qgs_<key_id>_<secret>``: ``key_id`` (12 hex digits) is stored in clear and finds
the row; the ``secret`` (43 URL-safe characters, 256 random bits) is never stored: the row
keeps a random 16-byte salt and ``HMAC-SHA256(salt, secret)``, compared in constant time. A
key is shown once, when made; so is its **webhook signing secret** (``whsec_...``), which is
not stored either: it is ``HMAC-SHA256(master, key id)`` (``derive_webhook_secret``; the
master secret comes from ``qgs_worker.webhooks.key_secrets``), derived again by the webhook job
(``webhook_secret``). The row keeps ``webhook_check``, an HMAC of the secret that tells a wrong
master (another data folder, another setting) from the right one. A key made by an older QGS
kept its webhook secret in ``webhook_secret``: that one still signs its tasks.

Scopes: every key may start tasks, submit rounds, read its own tasks and check tool calls;
``approve`` (``SCOPE_APPROVE``) also lets it approve or reject its principal's tasks;
``spot-check`` (``SCOPE_SPOT_CHECK``) lets it ask for spot-checks of its principal's rounds,
label them, and move a judge or rule in or out of shadow (``docs/spot-checks.md``).

An **operator key** (``qgs keys create --operator NAME``) is a person's, not an agent's: it signs
in to the console (``/ui``), never to the agents' API. Its principal is the person's name, its
scopes come from ``OPERATOR_SCOPES`` (``view``, always given, ``approve``, ``spot-check``) and ``sees`` names
the agents' principals whose tasks it may see: some, or ``*`` (``ALL_PRINCIPALS``) for every task,
those started in-process (no principal) included. Both are nullable columns: a row an older QGS
stored is an agent key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from base64 import urlsafe_b64encode
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Text
from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel, col, select

from qgs_worker.errors import InputError, WebhookSecretMissingError
from qgs_worker.store.tables import utcnow

__all__ = [
    "ALL_PRINCIPALS",
    "KEY_PREFIX",
    "OPERATOR_SCOPES",
    "SCOPES",
    "SCOPE_APPROVE",
    "SCOPE_SPOT_CHECK",
    "SCOPE_VIEW",
    "ApiKeyRow",
    "KeyInfo",
    "NewKey",
    "VerifiedKey",
    "check_principal",
    "create_key",
    "derive_webhook_secret",
    "key_is_live",
    "list_keys",
    "live_key",
    "parse_key",
    "revoke_key",
    "verify_key",
    "webhook_check_of",
    "webhook_secret",
]

KEY_PREFIX = "qgs_"
"""Every API key starts with this (so a leaked one is recognisable in a secret scanner)."""

SCOPE_APPROVE = "approve"
"""The scope that lets a key approve or reject a task (``POST /v1/tasks/{id}/approval``)."""

SCOPE_VIEW = "view"
"""An operator key's right to see tasks in the console (of the principals it ``sees``)."""

SCOPE_SPOT_CHECK = "spot-check"
"""The scope that lets a key ask for and label spot-checks and decide shadow (``/v1/spot-checks``;
an operator's, the console's spot-checks)."""

SCOPES = frozenset({SCOPE_APPROVE, SCOPE_SPOT_CHECK})
"""The scopes an agent's key may be given beyond the default rights."""

OPERATOR_SCOPES = frozenset({SCOPE_VIEW, SCOPE_APPROVE, SCOPE_SPOT_CHECK})
"""The scopes an operator key may be given (``view`` it always has)."""

ALL_PRINCIPALS = "*"
"""In an operator key's ``sees``: every principal, and tasks that belong to none."""

PRINCIPAL_MAX_CHARS = 128
_PRINCIPAL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$")
_KEY = re.compile(r"^qgs_(?P<id>[0-9a-f]{12})_(?P<secret>[A-Za-z0-9_-]{43})$")


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


@dataclass(frozen=True)
class NewKey:
    """A key just made: ``key`` and ``webhook_secret`` are shown to the caller once, never again."""

    key_id: str
    principal: str
    scopes: tuple[str, ...]
    key: str
    webhook_secret: str
    operator: bool = False
    sees: tuple[str, ...] = ()


@dataclass(frozen=True)
class KeyInfo:
    """What ``qgs keys list`` shows of a key (never its secret); ``sees``: an operator's."""

    key_id: str
    principal: str
    scopes: tuple[str, ...]
    created_at: datetime
    revoked_at: datetime | None
    note: str
    operator: bool = False
    sees: tuple[str, ...] = ()


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


_DERIVE_LABEL = b"qgs-webhook-secret/v1/"
_CHECK_LABEL = b"qgs-webhook-secret-check/v1"


def derive_webhook_secret(master: bytes, key_id: str) -> str:
    """A key's webhook signing secret: ``whsec_`` + HMAC-SHA256(master, key id), base64url.

    Args:
        master: The master secret (``key_secrets.master_secret``).
        key_id: The key's id (12 hex digits).

    Returns:
        ``whsec_`` and 43 URL-safe characters (the same form as a stored, older secret).
    """
    mac = hmac.new(master, _DERIVE_LABEL + key_id.encode("ascii"), hashlib.sha256).digest()
    return "whsec_" + urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def webhook_check_of(secret: str) -> str:
    """The stored check value of a webhook secret (hex HMAC keyed by it: reveals nothing)."""
    return hmac.new(secret.encode("utf-8"), _CHECK_LABEL, hashlib.sha256).hexdigest()


def create_key(
    store: Any,
    principal: str,
    *,
    master: bytes,
    scopes: tuple[str, ...] = (),
    note: str = "",
    operator: bool = False,
    sees: tuple[str, ...] = (),
) -> NewKey:
    """Make and store a key for ``principal``; the returned secrets are shown once.

    Neither secret is stored: the key's as a salted hash, the webhook secret not at all (it is
    derived from ``master`` and the key id, and derived again to sign).

    Args:
        store: A ``Repository`` or an ``Engine`` whose schema includes ``api_key``.
        principal: Who the key acts for (tasks it starts are that principal's).
        master: The master secret (``qgs_worker.webhooks.key_secrets.master_secret``).
        scopes: Extra rights, from ``SCOPES`` (``approve``); an operator's from
            ``OPERATOR_SCOPES`` (``view`` when none is given).
        note: Free text kept with the key (what it is for).
        operator: A person's key for the console (``principal`` is their name).
        sees: An operator's principals (``*`` or ``all``: every task); required for one.

    Raises:
        InputError: a bad principal name, an unknown scope, ``sees`` on an agent's key, or an
            operator key that sees nobody.
    """
    check_principal(principal)
    allowed = OPERATOR_SCOPES if operator else SCOPES
    unknown = sorted(set(scopes) - allowed)
    if unknown:
        kind = "an operator key's" if operator else "an agent key's"
        raise InputError(
            f"unknown scope {unknown[0]!r}: {kind} scopes are {', '.join(sorted(allowed))}"
        )
    seen = _check_sees(sees, operator)
    if operator:  # every right of a person's key acts on tasks they must see: view comes with them
        scopes = (*scopes, SCOPE_VIEW)
    key_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_hex(16)
    hook = derive_webhook_secret(master, key_id)
    ordered = tuple(sorted(set(scopes)))
    row = ApiKeyRow(
        key_id=key_id,
        principal=principal,
        scopes=json.dumps(list(ordered)),
        salt=salt,
        secret_hash=_hash(salt, secret),
        webhook_secret="",
        webhook_check=webhook_check_of(hook),
        note=note,
        operator=True if operator else None,
        sees=json.dumps(list(seen)) if operator else None,
    )
    with Session(_engine(store)) as session:
        session.add(row)
        session.commit()
    return NewKey(
        key_id, principal, ordered, f"{KEY_PREFIX}{key_id}_{secret}", hook, operator, seen
    )


def _check_sees(sees: tuple[str, ...], operator: bool) -> tuple[str, ...]:
    """An operator's principals, checked and sorted (``all`` is ``*``); () for an agent."""
    if not operator:
        if sees:
            raise InputError(
                "'sees' is for operator keys: an agent's key sees its own principal's tasks "
                "(make a person's key with `qgs keys create --operator NAME --sees PRINCIPAL`)"
            )
        return ()
    if not sees:
        raise InputError(
            "an operator key must see some principals: pass --sees PRINCIPAL (repeatable) "
            "or --sees all (every task, those started in-process included)"
        )
    names = {ALL_PRINCIPALS if s.strip() in ("all", ALL_PRINCIPALS) else s.strip() for s in sees}
    if ALL_PRINCIPALS in names:
        return (ALL_PRINCIPALS,)
    return tuple(sorted(check_principal(n) for n in names))


def keys_by_master(store: Any, master: bytes) -> tuple[int, int]:
    """How many live keys' webhook secrets ``master`` derives, and how many another master's.

    Keys made by an older QGS (a stored secret, no check value) count in neither.
    """
    with Session(_engine(store)) as session:
        rows = session.exec(
            select(ApiKeyRow.key_id, ApiKeyRow.webhook_check).where(
                col(ApiKeyRow.revoked_at).is_(None), col(ApiKeyRow.webhook_check).is_not(None)
            )
        ).all()
    same = 0
    for key_id, check in rows:
        derived = webhook_check_of(derive_webhook_secret(master, key_id))
        same += check is not None and hmac.compare_digest(check, derived)
    return same, len(rows) - same


def parse_key(key: str) -> tuple[str, str] | None:
    """``(key_id, secret)`` of a well-formed key, else None."""
    found = _KEY.match(key.strip())
    return (found["id"], found["secret"]) if found else None


@dataclass(frozen=True)
class VerifiedKey:
    """A key that matched a live row: who it acts for, its scopes; an operator's principals."""

    key_id: str
    principal: str
    scopes: frozenset[str]
    operator: bool = False
    sees: frozenset[str] = frozenset()


def _verified(row: ApiKeyRow) -> VerifiedKey:
    return VerifiedKey(
        row.key_id,
        row.principal,
        frozenset(json.loads(row.scopes)),
        bool(row.operator),
        frozenset(json.loads(row.sees or "[]")),
    )


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
    return _verified(row)


def live_key(store: Any, key_id: str) -> VerifiedKey | None:
    """The live key with this id, as ``verify_key`` finds it, without its secret (a session's).

    One read by primary key; None when there is no such key or it is revoked.
    """
    with Session(_engine(store)) as session:
        row = session.get(ApiKeyRow, key_id)
    return None if row is None or row.revoked_at is not None else _verified(row)


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
            r.key_id,
            r.principal,
            tuple(json.loads(r.scopes)),
            r.created_at,
            r.revoked_at,
            r.note,
            bool(r.operator),
            tuple(json.loads(r.sees or "[]")),
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


def webhook_secret(
    store: Any,
    principal: str,
    key_id: str | None = None,
    *,
    master: Callable[[], bytes],
) -> bytes | None:
    """The secret that signs a task's webhooks: its key's, else its principal's newest live key's.

    A task is signed with the secret of the key that created it (``TaskRow.key_id``), so making
    another key (an approve key, a rotation) changes nothing for the agent that checks it. When
    that key is revoked (or the task predates the column), the principal's newest live key signs.
    The secret is derived from the master and the key id; a key made by an older QGS signs with
    the secret it stored.

    Args:
        store: A ``Repository`` or an ``Engine``.
        principal: The task's principal (``TaskRow.principal``).
        key_id: The key that created the task (``TaskRow.key_id``); None: the newest live key.
        master: Gives the master secret (called only for a key whose secret is derived).

    Returns:
        The secret's bytes (the whole ``whsec_...`` text, UTF-8), or None when the principal has
        no live key (``webhook_secret_for`` then falls back to ``QGS_WEBHOOKS__SECRET``).

    Raises:
        WebhookSecretMissingError: the master is not the one the key was made with (its check
            value differs): signing with it would send signatures nobody can verify.
    """
    with Session(_engine(store)) as session:
        found = None
        if key_id is not None:
            found = session.exec(
                select(ApiKeyRow).where(
                    col(ApiKeyRow.key_id) == key_id,
                    col(ApiKeyRow.principal) == principal,
                    col(ApiKeyRow.revoked_at).is_(None),
                )
            ).first()
        if found is None:
            found = session.exec(
                select(ApiKeyRow)
                .where(
                    col(ApiKeyRow.principal) == principal,
                    col(ApiKeyRow.revoked_at).is_(None),
                    col(ApiKeyRow.operator).is_not(True),  # a person's key signs no webhook
                )
                .order_by(col(ApiKeyRow.created_at).desc(), col(ApiKeyRow.key_id).desc())
            ).first()
    if found is None:
        return None
    row_id, stored, check = found.key_id, found.webhook_secret, found.webhook_check
    if stored:
        return stored.encode("utf-8")  # a key made by an older QGS
    hook = derive_webhook_secret(master(), row_id)
    if check is not None and not hmac.compare_digest(check, webhook_check_of(hook)):
        raise WebhookSecretMissingError(
            f"API key {row_id}'s webhook secret was derived from another master secret than "
            "this process's: set the same QGS_WEBHOOKS__MASTER_SECRET on the process that made "
            "the key and on this one (or let them share the data folder, whose "
            "webhook-master.key holds the generated one)"
        )
    return hook.encode("utf-8")
