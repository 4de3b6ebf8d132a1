"""Webhook signing secrets of API keys: derived from the master secret, never stored.

A key's secret is ``HMAC-SHA256(master, key id)`` (``derive_webhook_secret``); its row keeps a
check value (``webhook_check_of``) that tells a wrong master from the right one. A key made by
an older QGS kept its secret in ``api_key.webhook_secret``: that one still signs.
``store.keys`` re-exports these names.
"""

from __future__ import annotations

import hashlib
import hmac
from base64 import urlsafe_b64encode
from collections.abc import Callable
from typing import Any

from sqlmodel import Session, col, select

from qgs_worker.errors import WebhookSecretMissingError
from qgs_worker.store.key_rows import ApiKeyRow, engine_of

__all__ = ["derive_webhook_secret", "keys_by_master", "webhook_check_of", "webhook_secret"]

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


def keys_by_master(store: Any, master: bytes) -> tuple[int, int]:
    """How many live keys' webhook secrets ``master`` derives, and how many another master's.

    Keys made by an older QGS (a stored secret, no check value) count in neither.
    """
    with Session(engine_of(store)) as session:
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
    with Session(engine_of(store)) as session:
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
