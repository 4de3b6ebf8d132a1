"""Server-side request forgery: the address classes a fetch should not reach (CWE-918).

``core/ssrf.py`` parses URLs and hosts (``urllib.parse``, ``ipaddress``, ``inet_aton``'s encoded
forms, NFKC) and applies these classes; the rules carry no patterns, the data below is theirs:

| rule | what | ``url`` argument, tool call | ``command`` argument |
| --- | --- | --- | --- |
| ``ssrf_metadata`` | a cloud metadata service: ``METADATA_IPS`` (169.254.169.254, fd00:ec2::254, 169.254.170.2, 100.100.100.200, 192.0.0.192, 168.63.129.16) and ``METADATA_NAMES`` (``metadata.google.internal``, ``instance-data``...): instance credentials | P0 | P0 |
| ``ssrf_internal`` | loopback, the unspecified address, private, shared, link-local and ULA networks (``INTERNAL_NETS``), loopback names and wildcard-DNS names that resolve to one (``localtest.me``, ``127.0.0.1.nip.io``), internal name suffixes (``.internal``, ``.local``, ``.home.arpa``) | P1 | - |
| ``ssrf_scheme`` | a scheme that turns a fetch into a file read or a raw-protocol request (``file``, ``gopher``, ``dict``, ``tftp``, ``netdoc``, ``jar``) | P1 | - |
| ``ssrf_encoded`` | a public IP address in an encoded form (decimal, hex, octal, short): filter evasion | P2 | - |

In a shell command only the metadata class counts: an agent with a shell already reaches the
host and its network. In prose nothing is reported (tutorials mention localhost all the time).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import ipaddress
import re

from qgs_worker.core.rules.base import P0, P1, P2, Rule, rule

__all__ = [
    "BAD_SCHEMES",
    "INTERNAL_NETS",
    "INTERNAL_SUFFIXES",
    "LOOPBACK_NAMES",
    "METADATA_IPS",
    "METADATA_NAMES",
    "METADATA_NEEDLES",
    "RULES",
    "WILDCARD_DNS",
]

FAMILY = "ssrf"
_OWASP = "OWASP Server-Side Request Forgery Prevention Cheat Sheet; CWE-918"

METADATA_IPS = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "fd00:ec2::254",
        "169.254.170.2",
        "100.100.100.200",
        "192.0.0.192",
        # Azure WireServer / host agent: public-looking, yet the host's own configuration service
        "168.63.129.16",
    )
)
METADATA_NAMES = frozenset(
    {
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",  # AWS: resolves to 169.254.169.254 inside EC2
        "instance-data.ec2.internal",
    }
)
METADATA_NEEDLES = (
    "169.254", "metadata", "fd00:ec2", "100.100", "192.0.0.192", "168.63.129.16", "instance-data",
)  # fmt: skip
"""Substrings one of which every metadata address in a command contains (a cheap pre-check)."""
LOOPBACK_NAMES = frozenset({"localhost", "localtest.me", "lvh.me", "vcap.me"})
INTERNAL_SUFFIXES = (".internal", ".local", ".localdomain", ".home.arpa", ".localhost")
INTERNAL_NETS = tuple(
    (ipaddress.ip_network(net), why)
    for net, why in (
        ("127.0.0.0/8", "a loopback address"),
        ("0.0.0.0/8", "the unspecified address, the host itself"),
        ("10.0.0.0/8", "a private network address"),
        ("172.16.0.0/12", "a private network address"),
        ("192.168.0.0/16", "a private network address"),
        ("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
        ("169.254.0.0/16", "a link-local address"),
        ("::1/128", "a loopback address"),
        ("::/128", "the unspecified address, the host itself"),
        ("fc00::/7", "a unique local (private) IPv6 address"),
        ("fe80::/10", "a link-local address"),
    )
)
BAD_SCHEMES = frozenset({"file", "gopher", "dict", "tftp", "netdoc", "jar"})
WILDCARD_DNS = re.compile(
    r"^(?:.*?[.-])?(\d{1,3}[.-]\d{1,3}[.-]\d{1,3}[.-]\d{1,3})\.(?:nip\.io|sslip\.io|xip\.io)$"
)
"""Wildcard-DNS services that resolve a name to the address written in it."""

# fmt: off
RULES: tuple[Rule, ...] = (
    rule(
        "ssrf_metadata", FAMILY, "ssrf", "a cloud metadata address",
        url=P0, tool_call=P0, command=P0, matched_by="core/ssrf.py",
        source="AWS, Azure, GCP, Alibaba Cloud, Oracle Cloud instance metadata docs; " + _OWASP,
    ),
    rule(
        "ssrf_internal", FAMILY, "ssrf", "an internal address (loopback, private, link-local, internal name)",
        url=P1, tool_call=P1, matched_by="core/ssrf.py",
        source="RFC 1918, RFC 6598, RFC 4193, RFC 6761, RFC 6762, RFC 8375; " + _OWASP,
    ),
    rule(
        "ssrf_scheme", FAMILY, "ssrf", "a file:// or raw-protocol URL (file, gopher, dict...)",
        url=P1, tool_call=P1, matched_by="core/ssrf.py",
        source="PayloadsAllTheThings, Server Side Request Forgery; " + _OWASP,
    ),
    rule(
        "ssrf_encoded", FAMILY, "ssrf", "an IP address in encoded form",
        url=P2, tool_call=P2, matched_by="core/ssrf.py",
        source="inet_aton(3) address forms; PayloadsAllTheThings SSRF filter bypasses",
    ),
)
# fmt: on
