"""Server-side request forgery targets in URL-like values (CWE-918).

Rules follow the OWASP Server-Side Request Forgery Prevention Cheat Sheet.

A URL an agent asks a tool to fetch may point where the tool's host can reach and the requester
should not: the cloud metadata service (instance credentials), the host itself, the private
network. Recognized, with the stdlib ``ipaddress`` and ``urllib.parse``:

- cloud metadata services: 169.254.169.254 (AWS, Azure, GCP, OCI, DigitalOcean), fd00:ec2::254
  (AWS IPv6), 169.254.170.2 (AWS ECS task credentials), 100.100.100.200 (Alibaba Cloud),
  192.0.0.192 (Oracle Cloud), 168.63.129.16 (Azure WireServer, the host agent), ``metadata.google.internal`` / ``metadata.goog`` / ``metadata``, ``instance-data`` (AWS);
- loopback (127.0.0.0/8, ::1, ``localhost``, ``*.localhost`` per RFC 6761, and wildcard-DNS
  names that resolve to it: ``localtest.me``, ``lvh.me``, ``127.0.0.1.nip.io``...), the
  unspecified address 0.0.0.0/8 and ``::`` (reaches the host itself on Linux), private ranges
  (10/8, 172.16/12, 192.168/16 per RFC 1918, 100.64/10 per RFC 6598, IPv6 ULA fc00::/7 per
  RFC 4193), link-local (169.254/16, fe80::/10), IPv4-mapped IPv6 (``[::ffff:127.0.0.1]``),
  and internal names (``.internal``, ``.local`` per RFC 6762, ``.localdomain``, ``.home.arpa``
  per RFC 8375);
- IPv4 addresses in the forms ``inet_aton`` accepts (decimal ``2130706433``, hex
  ``0x7f000001``, octal ``0177.0.0.1``, short ``127.1``, ``0`` for 0.0.0.0): the
  filter-evasion forms of PayloadsAllTheThings' SSRF page;
- hosts written with compatibility characters, read after NFKC as a browser's IDNA mapping
  (UTS #46) reads them: circled or full-width digits (``①②⑦.0.0.1``, ``１２７.０.０.１``),
  full-width letters, ideographic full stops as dots (``127。0。0。1``);
- schemes that turn a fetch into a file read or a raw-protocol request: ``file``, ``gopher``,
  ``dict``, ``tftp``, ``netdoc``, ``jar``.

Severity (the rules table's, ``rules/ssrf.py``, which also holds the address classes): in a
tool-call argument P1, a metadata address P0 (credential theft), an encoded form of a public
address P2 (evasion, nothing internal). In a shell command only metadata addresses
count: an agent with a shell already reaches the host and its network. In prose nothing is
reported (tutorials mention localhost all the time); an instruction to fetch one, injected in a
tool output, is ``injection_in_tool_output``'s, and the agent's fetch is this module's.

Pure: stdlib and pydantic only (through ``models``).
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from qgs_worker.core.filewrites import is_shell_tool, tool_words
from qgs_worker.core.models import Finding, Severity, ToolCall
from qgs_worker.core.rules import Context, Rule
from qgs_worker.core.rules import ssrf as ssrf_rules

__all__ = ["SsrfTarget", "encoded_ipv4", "find_ssrf", "scan_ssrf_call"]

_ROLE = "detectors"  # detectors.DETECTOR_ROLE (a test keeps them equal)

_Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_METADATA_IPS = ssrf_rules.METADATA_IPS
_METADATA_NAMES = ssrf_rules.METADATA_NAMES
_LOOPBACK_NAMES = ssrf_rules.LOOPBACK_NAMES
_INTERNAL_SUFFIXES = ssrf_rules.INTERNAL_SUFFIXES
_INTERNAL_NETS = ssrf_rules.INTERNAL_NETS
_BAD_SCHEMES = ssrf_rules.BAD_SCHEMES
_WILDCARD_DNS = ssrf_rules.WILDCARD_DNS
_BY_ID = {r.rule_id: r for r in ssrf_rules.RULES}
_METADATA, _INTERNAL, _SCHEME, _ENCODED = (
    _BY_ID[i] for i in ("ssrf_metadata", "ssrf_internal", "ssrf_scheme", "ssrf_encoded")
)
_DOTS = dict.fromkeys(map(ord, "\u3002\uff0e\uff61"), ".")  # UTS #46 label separators
_FETCH_SCHEMES = frozenset({"http", "https", "ftp", "ws", "wss"})
_URL = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]{1,15}):(//[^\s\"'<>`\\{}|^]+|/[^\s\"'<>`]+)")
_NOT_NUMERIC = re.compile(r"[g-wyzG-WYZ_-]")
# argument names that hold a URL or a host; tools whose every string argument is one
_URL_KEYS = frozenset(
    {
        "url", "uri", "link", "href", "endpoint", "webhook", "webhook_url", "callback",
        "callback_url", "redirect", "redirect_uri", "redirect_url", "host", "hostname",
        "server", "base_url", "target_url", "image_url", "src", "source_url", "feed_url",
        "ip", "ip_address", "remote", "proxy",
    }
)  # fmt: skip
_FETCH_WORDS = frozenset(
    {
        "fetch", "http", "request", "get_webpage", "webpage", "browse", "browser", "navigate",
        "download", "scrape", "crawl", "curl", "wget", "url", "open_url", "visit", "goto",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SsrfTarget:
    """One URL that points somewhere a fetch should not go.

    Attributes:
        url: The URL or host as written (at most 200 characters).
        reason: What it points at, e.g. ``a cloud metadata address (169.254.169.254)``.
        severity: P0 for a metadata address, P1 for an internal target or a dangerous scheme,
            P2 for an encoded public address.
        rule: The rules table's id of its class (``ssrf_metadata``, ``ssrf_internal``,
            ``ssrf_scheme``, ``ssrf_encoded``).
    """

    url: str
    reason: str
    severity: Severity
    rule: str = ""


def find_ssrf(value: str, *, whole: bool = False) -> list[SsrfTarget]:
    """Find SSRF targets in a text (the module docstring's list).

    Args:
        value: Any text; URLs with a scheme are found inside it.
        whole: The value is itself a URL or a host (an argument named ``url`` / ``host``, a
            parameter of kind url): a scheme-less ``10.0.0.5:8080/x`` counts too.

    Returns:
        One target per offending URL, in order of appearance. Never raises.
    """
    found: list[SsrfTarget] = []
    candidates = [m.group(0) for m in _URL.finditer(value)] if "/" in value else []
    stripped = value.strip()
    if whole and not candidates and stripped and not re.search(r"\s", stripped):
        candidates = [stripped if "://" in stripped else f"http://{stripped}"]
    for url in candidates:
        target = _judge(url)
        if target is not None:
            found.append(target)
    return found


def scan_ssrf_call(call: ToolCall) -> list[Finding]:
    """Report the SSRF targets in a tool call's URL-like arguments.

    Which values are URL-like: arguments named like ``url``, ``host``, ``endpoint`` (the whole
    value), every string argument of a fetching tool (``fetch``, ``http_request``,
    ``get_webpage``, ``browser``...), and URLs inside a shell command (metadata addresses only).

    Args:
        call: The tool call.

    Returns:
        One ``ssrf`` finding per argument and target: P0 / P1 / P2 as the module docstring says.
    """
    shell = is_shell_tool(call.name)
    fetching = bool(tool_words(call.name) & _FETCH_WORDS) or call.name.lower() in _FETCH_WORDS
    findings: list[Finding] = []
    for path, value in call.argument_values():
        leaf = re.sub(r"\[\d+\]", "", path).rsplit(".", 1)[-1].lower()
        url_key = leaf in _URL_KEYS or leaf.endswith("_url")
        if not (shell or fetching or url_key):
            continue
        for target in find_ssrf(value, whole=url_key):
            if shell and _BY_ID[target.rule].severity_in(Context.COMMAND) is None:
                continue  # in a shell command only the classes the table checks there
            findings.append(
                Finding(
                    role=_ROLE,
                    category="ssrf",
                    severity=target.severity,
                    title=f"tool call {call.name} fetches {target.reason} (SSRF)",
                    evidence=target.url,
                    location=f"tool_call:{call.name}.{path}",
                    rule=target.rule,
                )
            )
    return findings


def _judge(url: str) -> SsrfTarget | None:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").rstrip(".")
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme in _BAD_SCHEMES:
        what = "reads a local file" if scheme == "file" else "a raw-protocol request"
        return _target(url, f"a {scheme}:// URL ({what})", _SCHEME)
    if scheme not in _FETCH_SCHEMES or not host:
        return None
    if not host.isascii():
        host = unicodedata.normalize("NFKC", host).translate(_DOTS).lower().rstrip(".")
    judged = _judge_host(host)
    return None if judged is None else _target(url, *judged)


def _target(url: str, reason: str, rule: Rule) -> SsrfTarget:
    """A target at its class's severity in a URL (the rules table's ``url`` column)."""
    return SsrfTarget(url[:200], reason, rule.severity_in(Context.URL) or Severity.P1, rule.rule_id)


@lru_cache(maxsize=1024)
def _judge_host(host: str) -> tuple[str, Rule] | None:
    """``(reason, rule)`` for a host a fetch should not reach; memoized (hosts repeat)."""
    if host in _METADATA_NAMES:
        return f"a cloud metadata address ({host})", _METADATA
    if host in _LOOPBACK_NAMES:
        return f"a loopback address ({host})", _INTERNAL
    if host.endswith(_INTERNAL_SUFFIXES):
        return f"an internal host name ({host})", _INTERNAL
    wildcard = _WILDCARD_DNS.match(host)
    if wildcard is None and ":" not in host and _NOT_NUMERIC.search(host):
        return None  # a host name: no IPv4 form has letters beyond hex digits and x
    address, encoded = _address(wildcard.group(1).replace("-", ".") if wildcard else host)
    if address is None:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    written = f" written as {host}" if encoded or wildcard else ""
    if address in _METADATA_IPS:
        return f"a cloud metadata address ({address}{written})", _METADATA
    for network, why in _INTERNAL_NETS:
        if address.version == network.version and address in network:
            return f"{why} ({address}{written})", _INTERNAL
    if encoded:
        return f"an IP address in encoded form ({address}{written})", _ENCODED
    return None


def _address(host: str) -> tuple[_Address | None, bool]:
    """The IP address a host names, and whether it is written in a non-standard form."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]), False
    except ValueError:
        pass  # not a standard literal: try the encoded forms (decimal, hex, octal) below
    if not re.fullmatch(r"[0-9a-fA-FxX.]+", host) or not host[0].isdigit():
        return None, False
    value = _inet_aton(host)
    return (ipaddress.IPv4Address(value), True) if value is not None else (None, False)


def encoded_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a host written in an ``inet_aton`` form names, or None.

    ``2130706433``, ``0x7f000001``, ``0177.0.0.1``, ``127.1`` all name 127.0.0.1 (a resolver
    that calls ``inet_aton`` connects there); a bare decimal under 2**24 is not taken as one.
    """
    if not re.fullmatch(r"[0-9a-fA-FxX.]+", host) or not host[0].isdigit():
        return None
    value = _inet_aton(host)
    return ipaddress.IPv4Address(value) if value is not None else None


def _inet_aton(host: str) -> int | None:
    """IPv4 parsing as inet_aton(3) does it: 1-4 parts, each decimal, 0x-hex or 0-octal."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers: list[int] = []
    for part in parts:
        if re.fullmatch(r"0[xX][0-9a-fA-F]*", part):
            numbers.append(int(part[2:] or "0", 16))
        elif re.fullmatch(r"0[0-7]*", part):
            numbers.append(int(part, 8))
        elif re.fullmatch(r"[1-9]\d{0,9}", part):  # more digits: over 2**32 (and slow to convert)
            numbers.append(int(part))
        else:
            return None
    *head, last = numbers
    room = 1 << (8 * (4 - len(head)))  # what the last part may fill: 2**32 down to 2**8
    if any(n > 255 for n in head) or last >= room:
        return None
    if len(parts) == 1 and 0 < last < 2**24 and parts[0].isdigit():
        return None  # a bare small decimal is a port or an id, not an address (0 is 0.0.0.0)
    value = 0
    for n in head:
        value = value * 256 + n
    return value * room + last
