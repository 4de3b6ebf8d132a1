"""``Idempotency-Key`` on the creating operations: the same key and request, the same answer.

``Replays.once`` runs an operation (start a task, submit a round) at most once per principal,
key and request content:

- the key is claimed in the store (``store.idempotency``) with the route and a digest of the
  request (``fingerprint``); the id the operation makes is derived from the principal, the key
  and the digest, so a retry makes the same id even when the first answer was lost;
- the same key with the same request gets the stored answer, or (when the first attempt stored
  its work but not its answer) the work found by its id, or the operation run again with that
  id (idempotent: ``start_task`` with a known id, a submission id already sent);
- the same key with another request, or on another route, is an
  ``IdempotencyKeyReusedError`` (HTTP 409) naming the key;
- an operation that fails (refused, not queued) forgets the key it claimed: nothing was made.

Keys are kept ``QGS_API__IDEMPOTENCY_TTL_S`` seconds (24 h by default).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from qgs_worker.errors import IdempotencyKeyReusedError, InputError

__all__ = ["KEY_MAX_CHARS", "Replays", "check_key"]

T = TypeVar("T")

KEY_MAX_CHARS = 255
"""The longest ``Idempotency-Key`` taken, in characters (printable ASCII, no spaces)."""


def check_key(key: str) -> str:
    """The key, when it is 1-255 printable ASCII characters without spaces.

    Raises:
        InputError: naming ``Idempotency-Key`` and what it must be.
    """
    if not key or len(key) > KEY_MAX_CHARS or not all("!" <= ch <= "~" for ch in key):
        raise InputError(
            f"'Idempotency-Key' must be 1 to {KEY_MAX_CHARS} printable ASCII characters without "
            "spaces (a UUID is a good one): send a new one for each new request, and the same "
            "one again only to retry that request"
        )
    return key


class Replays:
    """Idempotent runs of the creating operations, over the store's keys.

    Args:
        store: The ``Repository`` (its ``IdempotencyStore`` part).
        ttl_s: How long a key is kept, in seconds.
    """

    def __init__(self, store: Any, ttl_s: float) -> None:
        self.store = store
        self.ttl_s = ttl_s

    def once(
        self,
        principal: str,
        key: str,
        *,
        route: str,
        content: dict[str, Any],
        prefix: str,
        run: Callable[[str], T],
        dump: Callable[[T], str],
        load: Callable[[str], T],
        found: Callable[[str], T | None] = lambda _id: None,
    ) -> T:
        """Run ``run(id)`` once for this principal, key and content; replay its answer after.

        Args:
            principal: Whose key.
            key: The ``Idempotency-Key`` as sent.
            route: What the request does (``POST /v1/tasks``).
            content: The request's content (JSON data): its digest is the fingerprint.
            prefix: The made id's prefix (``t-`` for a task, ``s-`` for a submission).
            run: The operation, given the id to make.
            dump: The answer as JSON text, to keep.
            load: A kept answer back.
            found: The answer for an id whose work is stored but whose answer is not (None:
                not stored; then ``run`` again).

        Raises:
            IdempotencyKeyReusedError: the key was used with another request or route.
            InputError: the key is malformed.
            Whatever ``run`` raises (the key is then forgotten).
        """
        check_key(key)
        canonical = json.dumps([route, content], sort_keys=True, ensure_ascii=False, default=str)
        fingerprint = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()
        made = hashlib.sha256(f"{principal}\0{key}\0{fingerprint}".encode()).hexdigest()
        claim = self.store.claim_idempotency(
            principal,
            key,
            route=route,
            fingerprint=fingerprint,
            resource_id=prefix + made[: 16 if prefix == "t-" else 32],
            ttl_s=self.ttl_s,
        )
        if (claim.route, claim.fingerprint) != (route, fingerprint):
            what = "another request" if claim.route == route else f"{claim.route}"
            raise IdempotencyKeyReusedError(
                f"the Idempotency-Key {key[:64]!r} was used with {what} in the last "
                f"{self.ttl_s:g} s (it made {claim.resource_id}): send a new key for a new "
                "request, and the same key again only with the same request"
            )
        if claim.response is not None:
            return load(claim.response)
        answer = found(claim.resource_id)
        if answer is None:
            try:
                answer = run(claim.resource_id)
            except Exception:
                if claim.created:
                    self.store.release_idempotency(principal, key, fingerprint)
                raise
        self.store.answer_idempotency(principal, key, dump(answer))
        return answer
