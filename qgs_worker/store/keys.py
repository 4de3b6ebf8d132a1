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

The table is ``store.key_rows``'; the names a key may carry are checked by ``store.key_names``
(``all`` is no one's name, an agent and a person never share one, a ``sees`` typo is refused);
the webhook secrets are ``store.key_webhooks``' (re-exported here).
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

from sqlmodel import Session, col, select

from qgs_worker.core.free_text import check_free_text
from qgs_worker.errors import InputError
from qgs_worker.store.key_names import ALL_PRINCIPALS, check_kind, check_principal, check_sees
from qgs_worker.store.key_rows import PRINCIPAL_MAX_CHARS, ApiKeyRow, engine_of
from qgs_worker.store.key_webhooks import (
    derive_webhook_secret,
    keys_by_master,
    webhook_check_of,
    webhook_secret,
)
from qgs_worker.store.tables import utcnow

__all__ = [
    "ALL_PRINCIPALS",
    "KEY_PREFIX",
    "OPERATOR_SCOPES",
    "PRINCIPAL_MAX_CHARS",
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
    "keys_by_master",
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

_KEY = re.compile(r"^qgs_(?P<id>[0-9a-f]{12})_(?P<secret>[A-Za-z0-9_-]{43})$")


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


def _hash(salt: str, secret: str) -> str:
    return hmac.new(bytes.fromhex(salt), secret.encode("ascii"), hashlib.sha256).hexdigest()


def create_key(
    store: Any,
    principal: str,
    *,
    master: bytes,
    scopes: tuple[str, ...] = (),
    note: str = "",
    operator: bool = False,
    sees: tuple[str, ...] = (),
    allow_unknown: bool = False,
) -> NewKey:
    """Make and store a key for ``principal``; the returned secrets are shown once.

    Neither secret is stored: the key's as a salted hash, the webhook secret not at all (it is
    derived from ``master`` and the key id, and derived again to sign).

    Args:
        store: A ``Repository`` or an ``Engine`` whose schema includes ``api_key``.
        principal: Who the key acts for (tasks it starts are that principal's).
        master: The master secret (``qgs_worker.webhooks.key_secrets.master_secret``).
        scopes: Extra rights, from ``SCOPES`` (``approve``); an operator's from
            ``OPERATOR_SCOPES`` (``view`` is always added).
        note: Free text kept with the key (what it is for).
        operator: A person's key for the console (``principal`` is their name).
        sees: An operator's principals (``*`` or ``all``: every task); required for one.
        allow_unknown: Keep a ``sees`` name no agent key or task has yet (``--allow-unknown``).

    Raises:
        InputError: a bad principal name (``all`` and ``*`` included), a name the other kind
            of key has (``key_names.check_kind``), an unknown scope, ``sees`` on an agent's
            key, an operator key that sees nobody, or a ``sees`` name QGS does not know (with
            the close ones), or a note with a control character (a NUL: PostgreSQL refuses
            it). Each names the ``qgs keys create`` option.
    """
    check_principal(principal, "--operator" if operator else "--principal")
    try:
        check_free_text(note, "--note")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    allowed = OPERATOR_SCOPES if operator else SCOPES
    unknown = sorted(set(scopes) - allowed)
    if unknown:
        kind = "an operator key's" if operator else "an agent key's"
        raise InputError(
            f"unknown scope {unknown[0]!r}: {kind} scopes are {', '.join(sorted(allowed))}"
        )
    seen = check_sees(store, sees, operator=operator, allow_unknown=allow_unknown)
    check_kind(store, principal, operator=operator)
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
    with Session(engine_of(store)) as session:
        session.add(row)
        session.commit()
    return NewKey(
        key_id, principal, ordered, f"{KEY_PREFIX}{key_id}_{secret}", hook, operator, seen
    )


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
    with Session(engine_of(store)) as session:
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
    with Session(engine_of(store)) as session:
        row = session.get(ApiKeyRow, key_id)
    return None if row is None or row.revoked_at is not None else _verified(row)


def key_is_live(store: Any, key_id: str) -> bool:
    """Whether the key with this id exists and is not revoked (one read by primary key)."""
    with Session(engine_of(store)) as session:
        row = session.get(ApiKeyRow, key_id)
    return row is not None and row.revoked_at is None


def list_keys(store: Any, *, principal: str | None = None) -> list[KeyInfo]:
    """Every key (or ``principal``'s), oldest first, without secrets."""
    with Session(engine_of(store)) as session:
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
    with Session(engine_of(store)) as session:
        row = session.get(ApiKeyRow, key_id)
        if row is None:
            raise InputError(f"no API key with id {key_id!r}: `qgs keys list` shows the ids")
        if row.revoked_at is not None:
            return False
        row.revoked_at = utcnow()
        session.add(row)
        session.commit()
    return True
