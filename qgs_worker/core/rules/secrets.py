"""Secrets: keys and passwords in the clear.

| rule | what | prose | deliverable | tool call |
| --- | --- | --- | --- | --- |
| ``private_key`` | a private key block with its body (RFC 7468 / RFC 4880 armour) | P1 | P1 | P1 |
| ``private_key_header`` | the armour line alone (``-----BEGIN RSA PRIVATE KEY-----``): in a deliverable the body may have been cut by the render; in prose it is how docs name the format | - | P1 | - |
| ``vendor_token`` | an API key or token in a documented vendor format: AWS ``AKIA`` / ``ASIA`` key ids and 40-character secrets, GitHub ``ghp_`` / ``github_pat_``, OpenAI ``sk-`` / ``sk-proj-``, Anthropic ``sk-ant-``, Slack ``xox?-``, Stripe ``sk_live_`` / ``rk_live_``, Google ``AIza`` | P1 | P1 | P1 |
| ``example_secret`` | a documented example value: AWS's ``AKIAIOSFODNN7EXAMPLE`` / ``wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`` (any key in the format ending in ``EXAMPLE`` / ``EXAMPLEKEY``), Stripe's docs test keys, the published test card numbers (``4111 1111 1111 1111``, ``4242 4242 4242 4242``, ``5555 5555 5555 4444``...; category ``pii``) | P4 | P4 (noted, no points) | P4 |
| ``assigned_secret`` | ``password=...``, ``api_key: "..."``, credentials in a URL (``user:pw@host``) | P2 | P1 | P1 |

Placeholders are not secrets: ``example``, ``your``, ``xxxx``, ``<...>``, ``${...}``, ``changeme``,
fewer than 5 distinct characters. Evidence shows the first 4 characters of a secret (1 of a
short one), never the rest (``detectors``).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import re

from qgs_worker.core.rules.base import P1, P2, P4, Rule, rule

__all__ = ["EXAMPLE_SECRET", "PRIVATE_KEY_HEADER", "RULES", "SECRETS", "is_real_secret"]

FAMILY = "secrets"

# Vendor formats: RFC 7468 / RFC 4880 private key armour; AWS IAM "unique ID prefixes" (AKIA long
# term, ASIA temporary access keys); GitHub's token formats (ghp_/gho_/ghu_/ghs_/ghr_, github_pat_);
# OpenAI (sk-, sk-proj-) and Anthropic (sk-ant-) API keys; Slack token types (xoxb-, xoxp-...);
# Stripe live secret / restricted keys; Google API keys (AIza). AWS's documented example keys
# (…EXAMPLE) and placeholders (xxxx, <your-key>) are not secrets.
_PLACEHOLDER = re.compile(
    r"example|your|xxxx|\*\*\*|\.\.\.|…|placeholder|dummy|redacted|changeme|sample|fake|<|\{|\$|%s",
    re.IGNORECASE,
)


def is_real_secret(value: str) -> bool:
    """Not a placeholder (``example``, ``xxxx``, ``<...>``...) and 5+ distinct characters."""
    return _PLACEHOLDER.search(value) is None and len(set(value)) >= 5


def _real_token(match: re.Match[str]) -> bool:
    value = match.group(0)
    return (
        is_real_secret(value)
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
    )


def _real_assignment(match: re.Match[str]) -> bool:
    value = match.group("value")
    if not is_real_secret(value) or value.lower() in {
        "password",
        "passwd",
        "secret",
        "none",
        "null",
    }:
        return False
    if match.group("quote"):
        return True
    # unquoted: `password=hunter22` (CLI, URL, env) yes; `password=db_password` (code: a name) no
    is_name = re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", value) is not None
    return not is_name or any(c.isdigit() for c in value)


_SECRET_KEYS = (
    r"(?i:(?<![a-z0-9])(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token"
    r"|client[_-]?secret|secret[_-]?key|private[_-]?key)\b)"
)
# fmt: off
SECRETS: tuple[Rule, ...] = (
    rule(
        "private_key", FAMILY, "secret",
        "a private key block",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n)*"
        r"(?P<body>[A-Za-z0-9+/=]{40,}|Proc-Type:)",
        prose=P1, deliverable=P1, tool_call=P1,
        source="RFC 7468 (textual encodings: PRIVATE KEY), RFC 4880 (OpenPGP armor)", flags=0,
        needles=("private key",),
        secret_group="body",
    ),
    rule(
        "vendor_token", FAMILY, "secret",
        "an API key or access token in a documented vendor format",
        r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
        r"(?i:aws_?secret_?access_?key)\s*[=:]\s*[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
        r"\bgh[pousr]_[A-Za-z0-9]{36,}\b",
        r"\bgithub_pat_[A-Za-z0-9_]{60,}\b",
        # a project / service-account / admin key: the prefix says what it is, 20 characters on
        r"\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{48}\b)",
        r"\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}",
        r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
        r"\b(?:sk|rk)_live_[A-Za-z0-9]{20,}",
        r"\bAIza[0-9A-Za-z_-]{35}\b",
        prose=P1, deliverable=P1, tool_call=P1,
        source="AWS IAM unique ID prefixes (AKIA, ASIA); GitHub token formats; OpenAI, Anthropic, Slack, Stripe, Google API key formats", flags=0,
        needles=("akia", "asia", "aws", "gh", "github_pat", "sk-", "xox", "_live_", "aiza"),
        accept=_real_token,
        secret_group="0",
    ),
    rule(
        "assigned_secret", FAMILY, "secret",
        "a password or key assigned in clear",
        rf"""{_SECRET_KEYS}["']?\s*[=:]\s*(?P<quote>["'])(?P<value>[^"'\s]{{4,}})(?P=quote)""",
        rf"""{_SECRET_KEYS}(?P<quote>)=(?P<value>[^\s"'&;,<>{{}}()\[\]$]{{4,}})""",
        r"""\b[a-z][a-z0-9+.-]{0,20}://[^\s:/@"']+:(?P<quote>)(?P<value>[^\s:/@"']{3,})@[\w.-]+""",
        prose=P2, deliverable=P1, tool_call=P1,
        source="CWE-798 (hard-coded credentials); RFC 3986 userinfo (user:password@host)", flags=0,
        needles=("pass", "pwd", "secret", "key", "token", "://"),
        accept=_real_assignment,
        secret_group="value",
    ),
)
PRIVATE_KEY_HEADER = rule(
    "private_key_header", FAMILY, "secret",
    "a private key's armour line",
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----",
    deliverable=P1, flags=0,
    source="RFC 7468 (textual encodings: PRIVATE KEY), RFC 4880 (OpenPGP armor)",
    needles=("private key",),
)
# The documented example values: AWS's example access key id and secret (IAM User Guide,
# "Managing access keys": AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY, and
# the same convention in other pages: a key in the vendor format ending in EXAMPLE / EXAMPLEKEY),
# Stripe's documentation test keys, and the card networks' and processors' published test card
# numbers (pii.TEST_CARDS, found by ``pii.example_cards``). Not a leak, not silence: a P4 note.
EXAMPLE_SECRET = rule(
    "example_secret", FAMILY, "secret",
    "an example value (a documented example key or a published test card number)",
    r"\b(?:AKIA|ASIA)(?=[A-Z0-9]{16}\b)[A-Z0-9]{9}EXAMPLE\b",
    r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{30}EXAMPLEKEY(?![A-Za-z0-9/+])",
    r"\b(?:sk_test_4eC39HqLyjWDarjtT1zdp7dc|sk_test_BQokikJOvBiI2HlWgH4olfQ2|pk_test_TYooMQauvdEDq54NiTphI7jx)\b",
    prose=P4, deliverable=P4, tool_call=P4, flags=0,
    source="AWS IAM User Guide (example access keys); Stripe API docs (test keys); Visa, Mastercard, Stripe and PayPal published test card numbers",
    needles=("example", "_test_"),
    matched_by="detectors (keys by these patterns; test cards by pii.example_cards, category pii)",
)
# fmt: on

RULES: tuple[Rule, ...] = (*SECRETS, PRIVATE_KEY_HEADER, EXAMPLE_SECRET)
