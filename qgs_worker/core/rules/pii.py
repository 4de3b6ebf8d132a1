"""Personal data: the shapes of e-mail addresses, phone numbers, card numbers and national IDs.

The checks that are logic (a Luhn check digit, an issuer prefix, a real birth date, a check
character) live in ``core/pii.py``, which applies these rules; the severities are theirs:

| rule | what | prose | sent out by a tool call | written to a file | any other tool argument |
| --- | --- | --- | --- | --- | --- |
| ``pii_card`` | a payment card number: 13-19 digits, plain or grouped, an issuer prefix in use (ISO/IEC 7812) and a valid Luhn digit | P1 | P0 | P2 | P4 |
| ``pii_us_ssn`` | a US Social Security number ``AAA-GG-SSSS``, never-issued areas (000, 666, 900-999), group 00 and serial 0000 excluded (SSA) | P1 | P0 | P2 | P4 |
| ``pii_uk_nino`` | a UK National Insurance number (HMRC's prefix and suffix letters) | P1 | P0 | P2 | P4 |
| ``pii_cn_id`` | a Chinese 18-digit resident identity number (GB 11643-1999: birth date, ISO 7064 MOD 11-2 check) | P1 | P0 | P2 | P4 |
| ``pii_email`` | an e-mail address (RFC 5322 addr-spec, simplified); not the reserved example domains of RFC 2606 / RFC 6761 | - | P2 | P2 | - |
| ``pii_phone`` | a phone number: E.164 ``+CC ...``, NANP, UK (Ofcom), Chinese mobiles (MIIT), French (ARCEP) | - | P2 | P2 | - |

The user's own data (also in the request) is never reported. Sample values (the networks'
published test cards, the SSA's publicized sample SSNs, one or two repeated digits, a run) are
not a person's data.
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import re

from qgs_worker.core.rules.base import P0, P1, P2, P4, Rule, rule

__all__ = [
    "BY_ID",
    "CARD",
    "CN_ID",
    "EMAIL",
    "NINO",
    "PHONE",
    "RESERVED_DOMAIN",
    "RULES",
    "SSN",
    "SSN_SAMPLES",
    "TEST_CARDS",
]

FAMILY = "pii"

EMAIL = re.compile(
    r"(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
    r"[A-Za-z]{2,24}(?![\w-])"
)
RESERVED_DOMAIN = re.compile(
    r"(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$", re.IGNORECASE
)
"""The example domains of RFC 2606 / RFC 6761: an address there is nobody's."""
CARD = re.compile(
    r"(?<![\w.,/-])(?:\d{13,19}|\d{4}(?P<s>[ -])\d{4}(?P=s)\d{4}(?P=s)\d{1,7}"
    r"|\d{4}(?P<t>[ -])\d{6}(?P=t)\d{4,5})(?![\w]|[.,/-]\d)"
)
TEST_CARDS = frozenset(
    {
        "378282246310005", "371449635398431", "378734493671000", "6011111111111117",
        "6011000990139424", "3530111333300000", "3566002020360505", "30569309025904",
        "38520000023237", "4012888888881881", "5105105105105100", "4000056655665556",
        "5200828282828210", "2223003122003222", "6200000000000005", "4000000000000002",
        "4111111111111111", "4242424242424242", "5555555555554444",
    }
)  # Stripe and PayPal sandbox documentation  # fmt: skip
"""Card numbers the networks and payment processors publish for testing (digits only)."""
SSN = re.compile(r"(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])")
SSN_SAMPLES = frozenset({"078051120", "219099999", "123456789"})
"""SSNs the SSA says were publicized as samples (the Woolworth wallet card, 1938...)."""
NINO = re.compile(
    r"(?<!\w)(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?: ?\d{2}){3} ?[A-D](?!\w)"
)
CN_ID = re.compile(
    r"(?<![\w])[1-8]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?!\w)"
)
PHONE = re.compile(
    r"(?<![\w+])\+[1-9]\d{0,2}(?:[ .-]?\(?\d{1,5}\)?){2,6}(?![\w])"  # E.164: +44 7890 654321
    r"|(?<![\w+-])(?:\([2-9]\d{2}\)\s?|[2-9]\d{2}[ .-])[2-9]\d{2}[ .-]\d{4}(?![\w-])"  # NANP
    r"|(?<![\w+])0(?:7\d{3}[ -]?\d{6}|20[ -]?\d{4}[ -]?\d{4}|1\d{3}[ -]?\d{6}|1\d{2}[ -]\d{3}[ -]\d{4})"
    r"(?![\w])"  # UK (Ofcom)
    r"|(?<![\w+])1[3-9]\d(?:[ -]?\d{4}){2}(?![\w])"  # Chinese mobiles (MIIT)
    r"|(?<![\w+])0[1-9](?:[ .]\d{2}){4}(?![\w])"  # French (ARCEP)
)


def _pii_rule(
    rule_id: str, title: str, pattern: re.Pattern[str], source: str, *, sensitive: bool
) -> Rule:
    args = (rule_id, FAMILY, "pii", title, pattern.pattern)
    if sensitive:
        return rule(
            *args, source=source, flags=pattern.flags, matched_by="core/pii.py",
            prose=P1, sent=P0, written=P2, tool_call=P4,
        )  # fmt: skip
    return rule(
        *args, source=source, flags=pattern.flags, matched_by="core/pii.py", sent=P2, written=P2
    )


RULES: tuple[Rule, ...] = (
    _pii_rule("pii_card", "a payment card number", CARD, "ISO/IEC 7812 (issuer prefixes), the Luhn check (ISO/IEC 7812-1 annex B)", sensitive=True),
    _pii_rule("pii_us_ssn", "a US social security number", SSN, "SSA: SSN randomization and never-issued numbers", sensitive=True),
    _pii_rule("pii_uk_nino", "a UK national insurance number", NINO, "HMRC National Insurance Manual NIM39110", sensitive=True),
    _pii_rule("pii_cn_id", "a Chinese resident identity number", CN_ID, "GB 11643-1999; ISO 7064 MOD 11-2", sensitive=True),
    _pii_rule("pii_email", "an e-mail address", EMAIL, "RFC 5322 addr-spec; RFC 2606 / RFC 6761 reserved names", sensitive=False),
    _pii_rule("pii_phone", "a phone number", PHONE, "ITU-T E.164; NANP; Ofcom, MIIT, ARCEP numbering plans", sensitive=False),
)  # fmt: skip

BY_ID = {r.rule_id: r for r in RULES}
"""The family's rules by id (``core/pii.py`` reads their severities)."""
