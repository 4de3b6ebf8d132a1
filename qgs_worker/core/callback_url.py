"""Callback URLs: where a webhook with a decision may be sent, and where never (SSRF).

A callback URL is given by an agent (``Client.start_task(..., callback_url=...)``,
``Client.submit(..., callback_url=...)``, the HTTP API) and POSTed to by a worker, from inside
the operator's network. So it is held to what the OWASP Server-Side Request Forgery Prevention
Cheat Sheet asks of a URL the server fetches for someone else:

- ``http`` or ``https`` only, a host, no userinfo (``https://user:pw@host`` is refused: a
  secret in a stored URL, and a classic way to hide the real host), at most
  ``CALLBACK_URL_MAX_CHARS`` characters, no whitespace or control characters;
- every address the host is or resolves to must be public. Refused always: cloud metadata
  addresses (169.254.169.254, fd00:ec2::254, 169.254.170.2, 100.100.100.200, 192.0.0.192,
  168.63.129.16)
  and names (``metadata.google.internal``...), the unspecified address (0.0.0.0, ``::``: the
  host itself), multicast and reserved addresses (240.0.0.0/4, 255.255.255.255). Refused
  unless ``allow_private`` (``QGS_WEBHOOKS__ALLOW_PRIVATE=true``, for tests and on-prem
  receivers): loopback (127.0.0.0/8, ::1, ``localhost``), private (RFC 1918, fc00::/7),
  shared (100.64.0.0/10), link-local (169.254.0.0/16, fe80::/10), and every other address
  that is not globally reachable (documentation and benchmark ranges, ...);
- an IPv6 address that carries an IPv4 one is judged by the IPv4 one too: IPv4-mapped
  (``::ffff:127.0.0.1``), IPv4-compatible (``::127.0.0.1``), 6to4 (``2002:7f00:1::``),
  Teredo, and the NAT64 well-known prefix (``64:ff9b::7f00:1``);
- IPv4 hosts in the forms ``inet_aton`` accepts (``2130706433``, ``0x7f000001``,
  ``0177.0.0.1``, ``127.1``) are read as the address they name, and full-width digits and dots
  (``２７.0.0.1``) as their ASCII ones (NFKC, UTS #46 dots).

A URL is read once, here, and kept in one form (``CallbackTarget.normalized``): the scheme and
host in lower case, an address host written as its standard text (``http://0177.0.0.1:8080/a``
is kept as ``http://127.0.0.1:8080/a``, the form a browser reads it as), the scheme's default
port and the fragment (never sent) left out. That form is what is stored and what the delivery
POSTs to; the adapter (``qgs_worker.webhooks.urls.sendable``) passes it through the HTTP
client's own parser once more, so a URL is refused where it is given, never at delivery.

This module is pure (stdlib): ``parse_callback_url`` checks the URL's form and any address or
name written in it; the adapter (``qgs_worker.webhooks.urls``) resolves the host and checks
every address with ``address_refusal``, at submit time and again at each delivery (DNS
rebinding), and connects to the address it checked.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit, urlunsplit

from qgs_worker.core.rules import ssrf as ssrf_rules
from qgs_worker.core.ssrf import encoded_ipv4
from qgs_worker.errors import CallbackUrlError

__all__ = [
    "ALLOW_PRIVATE_SETTING",
    "CALLBACK_URL_MAX_CHARS",
    "Address",
    "CallbackTarget",
    "address_refusal",
    "parse_callback_url",
    "refusal_error",
]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

CALLBACK_URL_MAX_CHARS = 2048
"""The longest callback URL accepted, in characters."""

ALLOW_PRIVATE_SETTING = "QGS_WEBHOOKS__ALLOW_PRIVATE"
"""The setting that allows loopback and private receivers (named in the errors)."""

_SCHEMES = {"http": 80, "https": 443}
_SHARED = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_DOTS = dict.fromkeys(map(ord, "\u3002\uff0e\uff61"), ".")  # UTS #46 label separators
_BAD_CHARS = re.compile(r"[\x00-\x20\x7f]")


@dataclass(frozen=True, slots=True)
class CallbackTarget:
    """A callback URL whose form is good, split for the delivery.

    Attributes:
        url: The URL as given.
        scheme: ``http`` or ``https``.
        host: The host, lower case, without brackets (an IPv6 literal) or a trailing dot.
        port: The port (the scheme's default when the URL names none).
        address: The address the host is written as (any spelling), or None for a name.
        normalized: The URL in the one form it is kept and sent in (see the module docstring).
    """

    url: str
    scheme: str
    host: str
    port: int
    address: Address | None
    normalized: str = ""


def parse_callback_url(
    url: object, *, field: str = "callback_url", allow_private: bool = False
) -> CallbackTarget:
    """Check a callback URL's form, and the address or name written in it.

    A host name is not resolved here (the adapter does, and checks each address it gets).

    Args:
        url: The value given for the field.
        field: The field's name, for the message (``callback_url``).
        allow_private: Allow loopback, private and link-local receivers
            (``QGS_WEBHOOKS__ALLOW_PRIVATE``); metadata, unspecified, multicast and reserved
            addresses stay refused.

    Returns:
        The URL split into scheme, host, port and (for a literal) address.

    Raises:
        CallbackUrlError: naming the field, what is wrong and the fix.
    """
    if not isinstance(url, str):
        raise CallbackUrlError(
            f"'{field}' must be a URL string such as https://agent.example.com/qgs-hook "
            f"(got {type(url).__name__})"
        )
    shown = _shown(url)
    if len(url) > CALLBACK_URL_MAX_CHARS:
        raise CallbackUrlError(
            f"'{field}' is {len(url):,} characters, over the limit of {CALLBACK_URL_MAX_CHARS:,}; "
            "use a shorter URL (an id in the path, not the data)"
        )
    if _BAD_CHARS.search(url):
        raise CallbackUrlError(
            f"'{field}' {shown} holds whitespace or control characters; percent-encode them"
        )
    try:
        parts = urlsplit(url)
        port = parts.port
        hostname = parts.hostname
    except ValueError as exc:
        raise CallbackUrlError(f"'{field}' {shown} is not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES:
        raise CallbackUrlError(
            f"'{field}' {shown} must be an http:// or https:// URL (got "
            f"{(scheme + '://') if scheme else 'no scheme'}); e.g. https://agent.example.com/qgs-hook"
        )
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise CallbackUrlError(
            f"'{field}' {shown} carries a user name or password; remove them from the URL "
            "(webhooks are signed with X-QGS-Signature: verify that instead)"
        )
    if port == 0:
        raise CallbackUrlError(f"'{field}' {shown} names port 0; name the receiver's port")
    host = (hostname or "").rstrip(".")
    if not host:
        raise CallbackUrlError(
            f"'{field}' {shown} has no host; e.g. https://agent.example.com/hook"
        )
    if not host.isascii():
        host = unicodedata.normalize("NFKC", host).translate(_DOTS).lower().rstrip(".")
    address = _literal(host)
    normalized = _normal_form(parts, scheme, host, address, port)
    target = CallbackTarget(url, scheme, host, port or _SCHEMES[scheme], address, normalized)
    if address is not None:
        why = address_refusal(address, allow_private=allow_private)
        if why is not None:
            raise refusal_error(field, url, why, address, allow_private=allow_private)
        return target
    why = _name_refusal(host, allow_private=allow_private)
    if why is not None:
        raise refusal_error(field, url, why, None, allow_private=allow_private)
    return target


def address_refusal(address: Address, *, allow_private: bool = False) -> str | None:
    """Why a webhook must not go to this address, or None when it may.

    Args:
        address: An address the callback's host is or resolves to.
        allow_private: Allow loopback, private, shared and link-local addresses (not metadata).

    Returns:
        What the address is (``a loopback address``, ``a cloud metadata address``...), or None.
    """
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address_refusal(address.ipv4_mapped, allow_private=allow_private)  # it is that one
    for inner in _embedded(address):
        why = address_refusal(inner, allow_private=allow_private)
        if why is not None:
            return f"{why} inside the IPv6 address"
    if address in ssrf_rules.METADATA_IPS:
        return "a cloud metadata address"
    if address.is_unspecified:
        return "the unspecified address, the host itself"
    if address.is_multicast:
        return "a multicast address"
    inside = _inside(address)
    if inside is not None:
        return None if allow_private else inside
    if isinstance(address, ipaddress.IPv4Address) and address == ipaddress.IPv4Address(
        "255.255.255.255"
    ):
        return "the broadcast address"
    if address.is_reserved:
        return "a reserved address"
    if not address.is_global:
        # Documentation, benchmarking and other special-purpose ranges: not a receiver on the
        # internet, so (like a private one) only with allow_private.
        return None if allow_private else "an address that is not globally reachable"
    return None


def refusal_error(
    field: str, url: str, why: str, address: Address | None, *, allow_private: bool
) -> CallbackUrlError:
    """The error for a callback URL whose host is, or resolves to, a refused address.

    Args:
        field: The field's name (``callback_url``).
        url: The URL as given.
        why: ``address_refusal``'s reason.
        address: The address (None when the host name itself is refused).
        allow_private: Whether private receivers were allowed (the fix differs).
    """
    at = f" ({address})" if address is not None else ""
    allowable = (
        address_refusal(address, allow_private=True) is None
        if address is not None
        else _allowable(why)
    )
    fix = (
        _never_fix(why)
        if allow_private or not allowable
        else "use a receiver with a public address, or set "
        f"{ALLOW_PRIVATE_SETTING}=true to allow loopback and private receivers (tests, on-prem)"
    )
    return CallbackUrlError(
        f"'{field}' {_shown(url)} points at {why}{at}: refused (SSRF protection); {fix}"
    )


def _never_fix(why: str) -> str:
    """The fix for an address no setting allows: why it is never a receiver."""
    if "metadata" in why:
        return (
            "webhooks are never sent there, whatever the settings: a cloud metadata service "
            "answers any request from the host with its credentials and configuration, so a "
            "request sent there on a caller's behalf could hand them out; use your receiver's "
            "own address"
        )
    if "unspecified" in why:
        return "webhooks are never sent there: 0.0.0.0 and :: name no host (they mean this one)"
    if any(word in why for word in ("multicast", "broadcast")):
        return "webhooks are never sent there: the address reaches many hosts, not one receiver"
    return "webhooks are never sent there: the address is reserved and reaches no receiver"


def _allowable(why: str) -> bool:
    """Whether ``allow_private`` would allow an address refused for ``why``."""
    never = ("metadata", "unspecified", "multicast", "reserved", "broadcast")
    return not any(word in why for word in never)


def _inside(address: Address) -> str | None:
    """What a loopback, link-local, private or shared address is; None for any other."""
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if isinstance(address, ipaddress.IPv4Address) and address in _SHARED:
        return "a shared (carrier-grade NAT) address"
    if address.is_private and not address.is_reserved:
        return "a private address"
    return None


def _embedded(address: Address) -> list[Address]:
    """The IPv4 addresses an IPv6 address carries (compatible, 6to4, Teredo, NAT64)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    inner: list[Address] = []
    if address.sixtofour is not None:
        inner.append(address.sixtofour)
    if address.teredo is not None:
        inner.extend(address.teredo)
    packed = int(address)
    if address in _NAT64 or (packed >> 32 == 0 and packed > 1):
        inner.append(ipaddress.IPv4Address(packed & 0xFFFFFFFF))  # NAT64 / IPv4-compatible
    return inner


def _literal(host: str) -> Address | None:
    """The address a host is written as (standard or ``inet_aton`` form), or None for a name."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass  # not a standard literal: try the inet_aton forms (decimal, hex, octal, short)
    return encoded_ipv4(host) if re.fullmatch(r"[0-9a-fA-FxX.]+", host) else None


def _normal_form(
    parts: SplitResult, scheme: str, host: str, address: Address | None, port: int | None
) -> str:
    """The URL rebuilt from its parts: lower-case scheme and host, an address in standard text.

    The scheme's default port and the fragment are left out; the path and query stay as given
    (the HTTP client percent-encodes what it must).
    """
    if isinstance(address, ipaddress.IPv6Address):
        shown = f"[{address}]"
    elif address is not None:
        shown = str(address)
    else:
        shown = host
    if port is not None and port != _SCHEMES[scheme]:
        shown += f":{port}"
    return urlunsplit((scheme, shown, parts.path or "/", parts.query, ""))


def _name_refusal(host: str, *, allow_private: bool) -> str | None:
    """Why a host name is refused without resolving it (metadata, loopback, internal names)."""
    if host in ssrf_rules.METADATA_NAMES:
        return "a cloud metadata host name"
    if allow_private:
        return None
    if host in ssrf_rules.LOOPBACK_NAMES or host.endswith(".localhost"):
        return "a loopback host name"
    wildcard = ssrf_rules.WILDCARD_DNS.match(host)
    if wildcard is not None:
        address = _literal(wildcard.group(1).replace("-", "."))
        if address is not None:
            why = address_refusal(address)
            if why is not None:
                return f"{why} (a wildcard-DNS name for {address})"
    if host.endswith(ssrf_rules.INTERNAL_SUFFIXES):
        return "an internal host name"
    return None


def _shown(url: str) -> str:
    """The URL for a message: at most 120 characters, repr-quoted."""
    return repr(url if len(url) <= 120 else url[:117] + "...")
