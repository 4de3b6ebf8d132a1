"""The values of a text, in canonical form, for ``followed`` to compare (the table there).

``analyse(text)`` reads a text once (memoized: ``scan_round`` sees earlier tool outputs again on
every round) into typed units (an e-mail, a URL, an account or phone number, a date, an amount,
an identifier), each under a canonical key so that two spellings of one value meet
(``1,000.00`` / ``1000``; ``May 13th, 2024`` / ``2024-05-13``; ``WWW.Evil.com/x`` /
``https://evil.com/x``), and the word tokens left once those are cut out, for phrase matching.
A text is read in its plain view (``plain_text``: look-alike letters as Latin, spaced-out
letters joined, leetspeak as letters, base64 / hex / rot13 fragments decoded and appended), so
an attacker's ``аttacker@evil.com`` with a Cyrillic ``а`` meets the agent's ASCII one.

Pure: stdlib only.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from qgs_worker.core.plain_text import plain_text
from qgs_worker.core.stop_words import STOP_WORDS
from qgs_worker.core.tlds import TLDS

__all__ = ["ID_ARGUMENT", "STOP_WORDS", "TLDS", "Analysis", "analyse", "content_words", "joined"]

Unit = tuple[str, str]
"""(kind, canonical key): ``("email", "a@b.com")``, ``("date", "05-13")``, ``("number", "1000")``."""

ID_ARGUMENT = re.compile(r"(?:^|_)ids?$|[a-z]Ids?$", re.IGNORECASE)
"""An argument that names one object by its id (``file_id``, ``email_ids``, ``eventId``, ``id``)."""

_MIN_NUMBER_DIGITS = 3  # significant digits of an amount; two are a count, a day or an hour
_MIN_IDENTIFIER_CHARS = 4

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W\d_{_CJK}]+|\d+(?:\.\d+)?")

# entities (the patterns the entity rule of detectors.py used, issue 4)
_TLDS = TLDS
_EMAIL = re.compile(  # an address glued to a word of another script by a hyphen ("ל-a@b.test")
    r"(?:(?<![\w.%+-])|(?<=[^\W\dA-Za-z_]-))[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}"
)
_URL = re.compile(
    r"\b(?:https?|ftp)://(?:[^\s/@\"'<>]+@)?(?P<host>[A-Za-z0-9.-]+)(?::\d+)?(?P<path>/[^\s\"'<>)\]},]*)?",
    re.IGNORECASE,
)
_DOMAIN = re.compile(
    rf"(?<![\w@./-])(?P<host>(?:[a-z0-9](?:[a-z0-9-]{{0,61}}[a-z0-9])?\.){{1,8}}(?:{_TLDS}))"
    r"(?![\w-]|\.\w|\()(?P<path>/[^\s\"'<>)\]},]*)?",
    re.IGNORECASE,
)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
_CARD = re.compile(r"(?<![\w.-])\d{4}(?:[ -]\d{4}){3}(?![\w-])")
_ACCOUNT = re.compile(r"(?<![\w.,-])\d{9,34}(?![\w.-])")
_PHONE = re.compile(
    r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\w)"  # +44 7890 654321 (E.164 style)
    r"|(?<!\w)\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}(?!\w)"  # (212) 555-0100 (North American)
    r"|(?<![\w+])0\d{2,4}[ .-]\d{3,4}[ .-]\d{3,4}(?!\w)"  # 0917 555 0192 (a trunk 0, national)
)

# dates: ISO 8601, d/m/y or m/d/y, English month names (with day ranges), Chinese
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_ANY_MONTH = re.compile(rf"\b{_MONTH}", re.IGNORECASE)
_ORD = r"(?:st|nd|rd|th)?\b"
_RANGE = r"\s*(?:-|–|—|to|until|till|through|thru|and)\s*(?:the\s+)?"
_ISO_DATE = re.compile(r"(?<!\d)(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)")
_NUMERIC_DATE = re.compile(r"(?<![\d.])(?P<a>\d{1,2})[/.](?P<b>\d{1,2})[/.](?P<y>\d{4})(?!\d)")
_ZH_DATE = re.compile(r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]")
_MONTH_DAY = re.compile(
    rf"\b{_MONTH}\s+(?P<d>\d{{1,2}}){_ORD}(?:{_RANGE}(?P<d2>\d{{1,2}}){_ORD})?(?:,?\s+(?P<y>\d{{4}}))?",
    re.IGNORECASE,
)
_DAY_MONTH = re.compile(
    rf"\b(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}(?:{_RANGE}(?P<d2>\d{{1,2}}){_ORD})?\s+(?:of\s+)?"
    rf"{_MONTH}(?:,?\s+(?P<y>\d{{4}}))?",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[ap]\.?m\.?)?(?![\d:])", re.I
)
_IDENTIFIER = re.compile(r"(?<![\w.\-/+])[^\W_]\w*(?:[.\-/+]\w+)*")
_FILE_EXTENSION = re.compile(r"\.[a-z][a-z0-9]{1,4}$", re.IGNORECASE)
_NUMBER = re.compile(
    r"(?<![\w.,\-/])[$€£¥]?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?(?![\w]|[.,]\d)"
)


@dataclass(frozen=True, slots=True)
class Analysis:
    """One text's values.

    Attributes:
        units: Every value, as (kind, canonical key).
        shown: Each unit as first written in the text (its order: e-mails, URLs, accounts,
            phones, dates, identifiers, numbers).
        tokens: Word tokens, case-folded, with the units cut out (numbers as canonical keys;
            each CJK character a token).
        words: ``tokens`` as a set.
        joined: ``tokens`` joined by single spaces, with a space at each end (``" a b "``), so a
            run of words is found with ``" run " in joined``.
    """

    units: frozenset[Unit]
    shown: dict[Unit, str]
    tokens: tuple[str, ...]
    words: frozenset[str]
    joined: str


def joined(tokens: Iterable[str]) -> str:
    """Tokens as ``Analysis.joined`` holds them, without the outer spaces."""
    return " ".join(tokens)


def content_words(tokens: Iterable[str]) -> list[str]:
    """The tokens that carry meaning: 3+ letters, not a stop word, not a number."""
    return [t for t in tokens if len(t) >= 3 and t.isalpha() and t not in STOP_WORDS]


@lru_cache(maxsize=64)
def analyse(text: str) -> Analysis:
    """Read a text's values (memoized for the last 64 texts; a 30 KB output's takes ~0.2 MB).

    Args:
        text: Any text: an argument value, a tool output, a passage, a user turn.

    Returns:
        Its ``Analysis``. Never raises.
    """
    shown: dict[Unit, str] = {}
    flat = unicodedata.normalize("NFKC", plain_text(text))  # as read: look-alikes, encodings

    def take(pattern: re.Pattern[str], units: Callable[[re.Match[str]], list[Unit]]) -> None:
        nonlocal flat

        def cut(match: re.Match[str]) -> str:
            for unit in units(match):
                shown.setdefault(unit, match.group(0).strip())
            return " " * len(match.group(0))

        flat = pattern.sub(cut, flat)

    if "@" in flat:
        take(_EMAIL, lambda m: [("email", m.group(0).casefold())])
    if "://" in flat:
        take(_URL, _url_units)
    if "." in flat:
        take(_DOMAIN, _url_units)
    if any(c.isdigit() for c in flat):  # the rest all need a digit (a cheap pre-check)
        take(_IBAN, _iban_units)
        take(_CARD, lambda m: [("account", _digits(m.group(0)))])
        take(_PHONE, _phone_units)
        take(_ACCOUNT, _account_units)
        dates = [_ISO_DATE, _NUMERIC_DATE]
        if "月" in flat:
            dates.append(_ZH_DATE)
        if _ANY_MONTH.search(flat):
            dates += [_MONTH_DAY, _DAY_MONTH]
        for pattern in dates:
            take(pattern, _date_units)
        take(_TIME, lambda m: [])
    for match in _IDENTIFIER.finditer(flat):
        token = match.group(0)
        if _is_identifier(token):
            shown.setdefault(("identifier", token.casefold()), token)

    def number(match: re.Match[str]) -> str:
        key = _number_key(match)
        if len(key.replace(".", "").lstrip("0")) >= _MIN_NUMBER_DIGITS:
            shown.setdefault(("number", key), match.group(0))
        return f" {key} "

    flat = _NUMBER.sub(number, flat)
    tokens = tuple(sys.intern(t) for t in _TOKEN.findall(flat.casefold()))
    return Analysis(
        units=frozenset(shown),
        shown=shown,
        tokens=tokens,
        words=frozenset(tokens),
        joined=f" {joined(tokens)} ",
    )


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _url_units(match: re.Match[str]) -> list[Unit]:
    host = match.group("host").casefold().rstrip(".")
    host = host.removeprefix("www.")
    if "." not in host:
        return []
    units: list[Unit] = [("url", host)]
    path = (match.group("path") or "").rstrip("/.,;:!?")
    if path:
        units.append(("url", f"{host}{path.casefold()}"))
    return units


def _account_units(match: re.Match[str]) -> list[Unit]:
    """A run of digits; one of 10-11 with a trunk 0 (``09175550192``) may be a phone number too."""
    digits = match.group(0)
    units: list[Unit] = [("account", digits)]
    if digits.startswith("0") and len(digits) in (10, 11):
        units.append(("phone", digits))
    return units


def _iban_units(match: re.Match[str]) -> list[Unit]:
    value = match.group(0).replace(" ", "")
    return [("account", value)] if sum(c.isdigit() for c in value) >= 10 else []


def _phone_units(match: re.Match[str]) -> list[Unit]:
    digits = _digits(match.group(0))
    return [("phone", digits)] if len(digits) >= 8 else []


def _date_units(match: re.Match[str]) -> list[Unit]:
    groups = match.groupdict()
    if "month" in groups:
        months = [_MONTHS[groups["month"][:3].casefold()]]
        days = [int(d) for d in (groups["d"], groups.get("d2")) if d]
        return [u for d in days for u in _month_day(months[0], d)]
    if "a" in groups:  # 05/13/2024 or 13/05/2024: both readings that are dates
        a, b = int(groups["a"]), int(groups["b"])
        return [*_month_day(a, b), *_month_day(b, a)]
    return _month_day(int(groups["m"]), int(groups["d"]))


def _month_day(month: int, day: int) -> list[Unit]:
    return [("date", f"{month:02d}-{day:02d}")] if 1 <= month <= 12 and 1 <= day <= 31 else []


def _is_identifier(token: str) -> bool:
    if len(token) < _MIN_IDENTIFIER_CHARS:
        return False
    has_letter = any(c.isalpha() for c in token)
    if not has_letter:
        return False
    return (
        any(c.isdigit() for c in token) or "_" in token or _FILE_EXTENSION.search(token) is not None
    )


def _number_key(match: re.Match[str]) -> str:
    whole = str(int(match.group("int").replace(",", "")))
    frac = (match.group("frac") or "").rstrip("0")
    return f"{whole}.{frac}" if frac else whole
