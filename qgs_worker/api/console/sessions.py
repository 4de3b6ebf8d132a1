"""The console's session cookie and CSRF tokens: signed, short, holding no secret.

A session cookie (``qgs_session``, ``HttpOnly``, ``SameSite=Strict``, ``Secure`` when the
request came over TLS, path ``/ui``) holds the signed-in key's id, a random nonce and its
expiry, signed with HMAC-SHA256 under a key derived from the webhook master secret
(``QGS_WEBHOOKS__MASTER_SECRET`` or the data folder's ``webhook-master.key``): every server
process of one deployment accepts it, and it carries no key secret. The key is read again from
the store on each request (``Operations.session``): revoking it ends its sessions at once. So is
the session itself (the store keeps a row per sign-in): signing out ends it wherever the
cookie is replayed, not only in the browser that signed out.

Both cookies are set and cleared with the same attributes (``set_cookie``, ``clear_cookie``):
``HttpOnly``, ``SameSite=Strict``, path ``/ui``, ``Secure`` over TLS.

CSRF: every form carries a token, ``HMAC(signing key, "csrf/" + nonce)``; a POST whose token
does not match its session's (or, before signing in, the sign-in cookie's) is refused with 403,
as is one whose ``Origin`` header names another site.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = [
    "LOGIN_COOKIE",
    "LOGIN_S",
    "SESSION_COOKIE",
    "SESSION_S",
    "Session",
    "SessionCodec",
    "clear_cookie",
    "set_cookie",
]

SESSION_COOKIE = "qgs_session"
"""The session cookie's name."""
LOGIN_COOKIE = "qgs_signin"
"""The cookie that ties the sign-in form's CSRF token to its browser, before a session."""
SESSION_S = 8 * 3600
"""How long a session lasts after signing in, in seconds (then sign in again)."""
LOGIN_S = 3600
"""How long a sign-in form stays valid, in seconds."""
_LABEL = b"qgs-console-session/v1"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Session:
    """A signed-in browser: the key's id, the session's nonce, its expiry (Unix seconds)."""

    key_id: str
    nonce: str
    expires_at: float


class SessionCodec:
    """Makes and checks session cookies and CSRF tokens under one signing key.

    Args:
        master: The webhook master secret (``webhooks.key_secrets.master_secret``); the signing
            key is ``HMAC-SHA256(master, "qgs-console-session/v1")``.
    """

    def __init__(self, master: bytes) -> None:
        self._key = hmac.new(master, _LABEL, hashlib.sha256).digest()

    def _mac(self, data: bytes) -> str:
        return _b64(hmac.new(self._key, data, hashlib.sha256).digest())

    def issue(self, key_id: str, *, now: float | None = None) -> tuple[str, Session]:
        """A new session's cookie value for ``key_id``, and the session."""
        session = Session(key_id, secrets.token_urlsafe(16), (now or time.time()) + SESSION_S)
        body = _b64(
            json.dumps(
                {"k": session.key_id, "n": session.nonce, "e": int(session.expires_at)}
            ).encode("utf-8")
        )
        return f"{body}.{self._mac(body.encode('ascii'))}", session

    def read(self, cookie: str | None, *, now: float | None = None) -> Session | None:
        """The session a cookie holds, or None: absent, altered, malformed or expired."""
        if not cookie or "." not in cookie or len(cookie) > 512:
            return None
        body, mac = cookie.rsplit(".", 1)
        if not hmac.compare_digest(mac, self._mac(body.encode("ascii", "replace"))):
            return None
        try:
            found = json.loads(_unb64(body))
            session = Session(str(found["k"]), str(found["n"]), float(found["e"]))
        except (ValueError, KeyError, TypeError):
            return None
        return session if session.expires_at > (now or time.time()) else None

    def csrf(self, nonce: str) -> str:
        """The CSRF token of a session's (or a sign-in form's) nonce."""
        return self._mac(b"csrf/" + nonce.encode("utf-8"))

    def csrf_ok(self, nonce: str | None, token: str | None) -> bool:
        """Whether ``token`` is the CSRF token of ``nonce`` (constant time)."""
        if not nonce or not token:
            return False
        return hmac.compare_digest(self.csrf(nonce), token)

    def login_nonce(self) -> str:
        """A fresh sign-in form's nonce with its expiry (the ``LOGIN_COOKIE`` value)."""
        return f"{secrets.token_urlsafe(16)}~{int(time.time()) + LOGIN_S}"

    @staticmethod
    def login_live(nonce: str | None) -> bool:
        """Whether a sign-in cookie's nonce is well formed and not past its expiry."""
        if not nonce or "~" not in nonce:
            return False
        try:
            return float(nonce.rsplit("~", 1)[1]) > time.time()
        except ValueError:
            return False


def set_cookie(response: Response, request: Request, name: str, value: str, max_age: int) -> None:
    """Set a console cookie: ``HttpOnly``, ``SameSite=Strict``, path ``/ui``, ``Secure`` over TLS."""
    response.set_cookie(
        name, value, max_age=max_age, path="/ui", httponly=True,
        secure=request.url.scheme == "https", samesite="strict",
    )  # fmt: skip


def clear_cookie(response: Response, request: Request, name: str) -> None:
    """Clear a console cookie with the attributes it was set with (``set_cookie``)."""
    response.delete_cookie(
        name, path="/ui", httponly=True, secure=request.url.scheme == "https", samesite="strict"
    )
