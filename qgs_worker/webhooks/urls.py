"""Callback URLs at the edge: resolved, every address checked (SSRF), and a secret to sign with.

``check_callback`` is what the client (and the HTTP API) calls when a task or a submission is
given a callback URL: the URL's form and the address written in it
(``core.callback_url.parse_callback_url``), then every address its host resolves to (one
private address among public ones is enough to refuse: a resolver may hand out either), then
the signing secret (``webhook_secret_for``): a webhook is never sent unsigned, so a callback
with no secret is refused at submit. ``resolve_callback`` does the same at each delivery, and
the delivery connects to the addresses it checked (DNS rebinding: the name is not resolved a
second time by the HTTP client).

A URL is read once, the way the delivery will read it (``sendable``): the core's normal form
(``CallbackTarget.normalized``: an address in standard text, full-width digits as ASCII ones)
passed through httpx's own parser (an IDNA name becomes its ``xn--`` form), so what is stored
is what is POSTed to, and a URL httpx cannot send is refused where it is given (a 422 over
HTTP), not found out by a delivery that could never succeed. httpx is imported only when a
callback URL is checked: a worker that pushes no webhook never loads it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from qgs_worker.config.settings import Settings
from qgs_worker.core.callback_url import (
    Address,
    CallbackTarget,
    address_refusal,
    parse_callback_url,
    refusal_error,
)
from qgs_worker.errors import CallbackUrlError, WebhookSecretMissingError

__all__ = [
    "CallbackUnresolvedError",
    "Resolved",
    "Resolver",
    "check_callback",
    "resolve_callback",
    "sendable",
    "system_resolver",
    "webhook_secret_for",
]

Resolver = Callable[[str, int], Sequence[Address]]
"""``(host, port) -> addresses``; raises ``OSError`` when the name does not resolve."""

SECRET_SETTING = "QGS_WEBHOOKS__SECRET"


class CallbackUnresolvedError(CallbackUrlError):
    """Raised when a callback URL's host does not resolve (at submit: refused; at delivery: retried)."""


class TaskLike(Protocol):
    """What ``webhook_secret_for`` reads of a task (a ``TaskRow``, a ``TaskRecord``)."""

    @property
    def id(self) -> str:
        """The task's id."""


@dataclass(frozen=True, slots=True)
class Resolved:
    """A callback URL whose every address was checked: where the delivery may connect."""

    target: CallbackTarget
    addresses: tuple[Address, ...]


def system_resolver(host: str, port: int) -> list[Address]:
    """The host's addresses from the system resolver (``getaddrinfo``), in its order, no repeats.

    Raises:
        OSError: the name does not resolve (``socket.gaierror``).
    """
    found: list[Address] = []
    for *_, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found


def sendable(url: object, *, field: str = "callback_url", allow_private: bool) -> CallbackTarget:
    """Read a callback URL once, into the form the delivery's HTTP client sends to.

    Args:
        url: The value given.
        field: The field's name, for the message.
        allow_private: ``QGS_WEBHOOKS__ALLOW_PRIVATE``.

    Returns:
        The URL's target, its host as httpx sends it (``xn--`` for an IDNA name) and
        ``normalized`` the exact URL string to store and to POST to.

    Raises:
        CallbackUrlError: the URL's form or its written address is refused, or httpx
            cannot send to it (a host name that is not valid IDNA).
    """
    import httpx  # only where a callback URL is checked or sent

    target = parse_callback_url(url, field=field, allow_private=allow_private)
    try:
        sent = str(httpx.URL(target.normalized))
    except httpx.InvalidURL as exc:
        raise CallbackUrlError(
            f"'{field}' {target.url!r} cannot be sent to ({exc}); write the host as a DNS "
            "name (an international one as its IDNA xn-- form) or as an address "
            "(203.0.113.7, [2001:db8::7]), e.g. https://agent.example.com/qgs-hook"
        ) from None
    if sent == target.normalized:
        return target
    again = parse_callback_url(sent, field=field, allow_private=allow_private)
    return replace(again, url=target.url, normalized=sent)


def resolve_callback(
    url: str,
    *,
    allow_private: bool,
    field: str = "callback_url",
    resolve: Resolver = system_resolver,
) -> Resolved:
    """Check a callback URL and every address its host is or resolves to.

    Args:
        url: The callback URL.
        allow_private: ``QGS_WEBHOOKS__ALLOW_PRIVATE``.
        field: The field's name, for the message.
        resolve: The resolver (the system's; tests pass a table).

    Returns:
        The URL (read by ``sendable``) and the addresses a delivery may connect to (all of
        them allowed).

    Raises:
        CallbackUnresolvedError: the host does not resolve.
        CallbackUrlError: the URL's form, or any of its addresses, is refused, or the HTTP
            client cannot send to it.
    """
    target = sendable(url, field=field, allow_private=allow_private)
    if target.address is not None:
        return Resolved(target, (target.address,))
    try:
        addresses = tuple(resolve(target.host, target.port))
    except (OSError, UnicodeError) as exc:
        raise CallbackUnresolvedError(
            f"'{field}' {url!r}: the host {target.host!r} does not resolve ({exc}); check the "
            "host name (the workers resolve it again at each delivery)"
        ) from None
    if not addresses:
        raise CallbackUnresolvedError(f"'{field}' {url!r}: the host {target.host!r} has no address")
    for address in addresses:
        why = address_refusal(address, allow_private=allow_private)
        if why is not None:
            raise refusal_error(
                field, url, f"{why} (the host resolves to it)", address, allow_private=allow_private
            )
    return Resolved(target, addresses)


def webhook_secret_for(
    task: TaskLike | None,
    settings: Settings | None = None,
    *,
    principal: str | None = None,
    key_id: str | None = None,
    store: Any = None,
) -> bytes:
    """The secret a task's webhooks are signed with.

    A task owned by an API key's principal (the HTTP API and MCP) is signed with the webhook
    secret of the key that created it (``store.keys.webhook_secret``: derived from the master
    secret and the key id, shown once when the key was made); when that key is revoked, with the principal's newest live key's: each team
    verifies with its own, and a new key (an approve key, a rotation) changes nothing for tasks
    already started. Any other task (started in-process, or a principal with no live key) is
    signed with ``QGS_WEBHOOKS__SECRET``.

    Args:
        task: The task (None at ``start_task``, before it is stored).
        settings: QGS settings (read from the environment when None).
        principal: The task's principal when ``task`` is None (or carries none).
        key_id: The id of the key that created the task (None: the principal's newest).
        store: A ``Repository`` or engine to read the key's secret from (None: the setting only).

    Raises:
        WebhookSecretMissingError: no secret is set, the key's was derived from another
            master secret, or the master cannot be read (its file is empty or unreadable);
            the message names the setting.
    """
    owner = principal or getattr(task, "principal", None)
    settings = settings or Settings()
    if owner and store is not None:
        from qgs_worker.store.keys import webhook_secret
        from qgs_worker.webhooks.key_secrets import master_secret

        def master() -> bytes:
            try:
                return master_secret(settings)
            except OSError as exc:  # unreadable or empty file: say so, never sign with it
                raise WebhookSecretMissingError(
                    f"the webhook master secret cannot be read: {exc}"
                ) from None

        found = webhook_secret(
            store,
            owner,
            key_id or getattr(task, "key_id", None),
            master=master,
        )
        if found:
            return found
    secret = settings.webhooks.secret.get_secret_value()
    if not secret:
        raise WebhookSecretMissingError(
            f"a callback URL needs a secret to sign its webhooks and none is set: set "
            f"{SECRET_SETTING} (e.g. `openssl rand -hex 32`) on the client and the workers, "
            "create an API key for the task's principal (`qgs keys create`), "
            "or leave out callback_url and wait for the decision instead"
        )
    return secret.encode()


def check_callback(
    url: object,
    settings: Settings,
    *,
    task: TaskLike | None = None,
    field: str = "callback_url",
    resolve: Resolver = system_resolver,
    principal: str | None = None,
    key_id: str | None = None,
    store: Any = None,
) -> str:
    """What the client checks before it stores a callback URL: the URL, its addresses, a secret.

    Args:
        url: The value given (a string, else refused).
        settings: QGS settings (``QGS_WEBHOOKS__ALLOW_PRIVATE``, ``QGS_WEBHOOKS__SECRET``).
        task: The task the callback is for (None when it is being started).
        field: The field's name, for the messages.
        resolve: The resolver.
        principal: The task's owner, when ``task`` is None (see ``webhook_secret_for``).
        key_id: The key that created the task (see ``webhook_secret_for``).
        store: Where the owner's key secret is read (see ``webhook_secret_for``).

    Returns:
        The URL in the form to store and send to (``sendable``: ``http://0177.0.0.1/h``
        comes back as ``http://127.0.0.1/h``).

    Raises:
        CallbackUrlError: the URL is malformed, does not resolve, or points inside (SSRF).
        WebhookSecretMissingError: no secret can sign the task's webhooks.
    """
    if not isinstance(url, str):
        parse_callback_url(url, field=field)  # raises, naming the type
        raise AssertionError("unreachable")  # pragma: no cover
    resolved = resolve_callback(
        url, allow_private=settings.webhooks.allow_private, field=field, resolve=resolve
    )
    webhook_secret_for(task, settings, principal=principal, key_id=key_id, store=store)
    return resolved.target.normalized
