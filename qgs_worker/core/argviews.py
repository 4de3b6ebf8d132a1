r"""The forms of a tool argument that the injection rules read (``argscan``), by its kind.

Normalization undoes what hides a keyword from a pattern without changing what the value does:

- every kind: zero-width characters (U+200B-U+200D, U+2060, U+FEFF) are removed;
- ``command``: ``${IFS}`` / ``$IFS`` read as a space, and the quoting the shell removes taken out
  (``shell.remove_quoting``: ``r''m``, ``r\m``, ``'r'm``);
- ``sql``: ``/* ... */`` read as a space (MySQL's ``/*! ... */`` as its body), a ``-- `` comment
  outside quotes read both as written and as spaces, and a "code" form with string literals
  blanked when where each one ends is certain in every dialect;
- ``url``, ``html``: character references decoded (``html.unescape``) except those of ``<`` and
  ``>``, and tabs and newlines inside a scheme ignored as a URL parser does;
- ``free_text``: NFKC and a small Cyrillic-to-Latin confusables map; with numeric character
  references (``&#x6A;``) also read decoded, for markup in text.

A view of another length keeps where its characters come from (``View.origin``), so evidence
quotes the value as written.
Pure: stdlib only.
"""

from __future__ import annotations

import bisect
import html
import re
import unicodedata
from typing import NamedTuple

from qgs_worker.core import shell
from qgs_worker.core.models import ArgumentKind

__all__ = [
    "IFS",
    "ZERO_WIDTH",
    "View",
    "html_decoded",
    "in_value",
    "sql_code",
    "sql_uncommented",
    "sql_without_line_comments",
    "unconfuse",
    "views",
    "visible",
]

# Invisible characters split a keyword (``rm\u200b -rf /``); ``${IFS}`` is a space to the shell;
# full-width letters and Cyrillic look-alikes hide an English keyword from the prompt rules.
ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
IFS = re.compile(r"\$\{IFS\}|\$IFS(?![A-Za-z0-9_])")
_CONFUSABLES = str.maketrans("аеорсухіАЕОРСУХІ", "aeopcyxiAEOPCYXI")


LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate alone: JSON's ``"\\ud800"`` escape reads as one, and UTF-8 cannot hold it."""


def replace_lone_surrogates(text: str) -> str:
    """``text`` with each lone surrogate as U+FFFD, as a UTF-8 decoder reads bad bytes."""
    return LONE_SURROGATE.sub("\ufffd", text)


def visible(text: str) -> str:
    """``text`` without its ``ZERO_WIDTH`` characters; an ASCII text (it has none) as it is.

    The check of ``isascii`` is much cheaper than ``str.translate`` with a dict, which reads the
    text a character at a time even when nothing changes (~25 ns a character).
    """
    return text if text.isascii() else text.translate(ZERO_WIDTH)


def unconfuse(value: str) -> str:
    """NFKC (full-width and compatibility forms) and Cyrillic look-alikes as Latin letters."""
    return unicodedata.normalize("NFKC", value).translate(_CONFUSABLES)


class View(NamedTuple):
    """One form of the value that rules read.

    Attributes:
        text: The form itself.
        lowered: Its lower-case form, for the keyword searches only.
        origin: For a form of another length, where its characters come from: sorted view
            offsets and the value offsets they start at; None when offsets are the value's.
    """

    text: str
    lowered: str
    origin: tuple[list[int], list[int]] | None = None


def views(value: str, lowered: str, kind: ArgumentKind) -> tuple[dict[str, tuple[View, ...]], str]:
    """The forms of the value the kind's rules read, and the text their evidence quotes.

    Returns:
        Views by name ("" for every rule, "code" for the SQL statement rules; a rule matches
        when one of its views matches), and the value evidence is taken from: the value as
        written, except for a command, whose normalized form is what the checks understood.
    """
    plain: tuple[View, ...] = (View(value, lowered),)
    if kind is ArgumentKind.COMMAND:
        flat = shell.remove_quoting(value)
        return ({"": (View(flat, flat.lower()),)}, flat) if flat != value else ({"": plain}, value)
    if kind is ArgumentKind.SQL:
        uncommented = sql_uncommented(value)
        if uncommented is not None:
            plain = (*plain, View(uncommented, uncommented.lower()))
        unlined = sql_without_line_comments(uncommented or value)
        if unlined is not None:  # UPDATE t SET a=1 -- WHERE id = 5: the WHERE never runs
            plain = (*plain, View(unlined, unlined.lower()))
        code = sql_code(value)
        return {"": plain, "code": plain if code is None else (View(code, code.lower()),)}, value
    if kind is ArgumentKind.HTML or kind is ArgumentKind.URL:
        decoded = html_decoded(value) if "&" in value else None
        view = decoded or plain[0]
        if "\t" in value or "\n" in value or "\r" in value:  # java\tscript: has no "script"
            view = view._replace(lowered=view.lowered.translate(_URL_BLANKS))
        return {"": (view,)}, value
    if "&#" in value and kind is ArgumentKind.FREE_TEXT:  # markup in text: href="&#x6A;avascript:
        decoded = html_decoded(value)
        return {"": plain if decoded is None else (*plain, decoded)}, value
    return {"": plain}, value


# --- SQL: comments and string literals ----------------------------------------------------------
# ``DROP/**/TABLE`` is DROP TABLE (a comment is a space); MySQL runs the body of ``/*! ... */``.
# The statement rules skip string literals (``VALUES ('drop table is a bad idea')``) only when
# where a literal ends is certain in every dialect: no comment, backslash, backquote, bracket or
# dollar quote outside literals, no backslash or quote inside them, every quote closed.
_MYSQL_EXECUTED = re.compile(r"/\*!\d{0,6}")
_SQL_QUOTE = re.compile(r"""['"]""")
_SQL_LITERAL = re.compile(r"'(?:[^'\\]|'')*+'")
_SQL_QUOTED_NAME = re.compile(r'"[^"\\\']*+"')
_SQL_UNSURE = re.compile(r"/\*|--|#|[`\[\\]|\$\w*\$")


_LINE_COMMENT = re.compile(r"--(?=\s|$)[^\n]*")


def sql_without_line_comments(value: str) -> str | None:
    """``-- ...`` comments as spaces, outside single-quoted text; None when there is none.

    A space after the dashes is every dialect's form; a comment is outside text when an even
    number of single quotes comes before it.
    """
    if "--" not in value:
        return None
    pieces: list[str] = []
    pos = 0
    quotes = 0  # single quotes before ``counted``, counted once each (linear)
    counted = 0
    for comment in _LINE_COMMENT.finditer(value):
        quotes += value.count("'", counted, comment.start())
        counted = comment.start()
        if quotes % 2:
            continue  # inside a literal ('a -- b')
        pieces.append(value[pos : comment.start()] + " " * (comment.end() - comment.start()))
        pos = comment.end()
    if not pieces:
        return None
    return "".join(pieces) + value[pos:]


def sql_uncommented(value: str) -> str | None:
    """``/* ... */`` comments as spaces, the length kept; None when the value has none."""
    start = value.find("/*")
    if start < 0:
        return None
    pieces: list[str] = []
    pos = 0
    while start >= 0:
        end = value.find("*/", start + 2)
        if end < 0:
            break  # an unclosed comment: left as written
        pieces.append(value[pos:start])
        executed = _MYSQL_EXECUTED.match(value, start)
        if executed is not None:  # /*!50000 DROP */: only the markers go
            pieces.append(" " * (executed.end() - start) + value[executed.end() : end] + "  ")
        else:
            pieces.append(" " * (end + 2 - start))
        pos = end + 2
        start = value.find("/*", pos)
    pieces.append(value[pos:])
    return "".join(pieces)


def sql_code(value: str) -> str | None:
    """The value with every string literal that could hold a statement blanked, the length kept.

    A literal with a space in it is blanked (every statement rule needs a space between its
    keywords); a short one stays, so ``WHERE '1'='1'`` still reads as always true.

    Returns:
        None when there is no such literal, or when where a literal ends is not certain.
    """
    if "'" not in value:
        return None
    pieces: list[str] = []
    pos = 0
    blanked = False
    while (quote := _SQL_QUOTE.search(value, pos)) is not None:
        between = value[pos : quote.start()]
        if _SQL_UNSURE.search(between):
            return None
        literal = quote.group() == "'"
        token = (_SQL_LITERAL if literal else _SQL_QUOTED_NAME).match(value, quote.start())
        if token is None:
            return None  # not closed, or a backslash escape / a quote in a name: dialects differ
        text = token.group()
        if literal and re.search(r"\s", text):
            text = "'" + " " * (len(text) - 2) + "'"
            blanked = True
        pieces += (between, text)
        pos = token.end()
    rest = value[pos:]
    if not blanked or _SQL_UNSURE.search(rest):
        return None
    return "".join((*pieces, rest))


# --- html: character references -------------------------------------------------------------------
# A browser decodes character references in attribute values before it reads a URL, and drops
# tabs and newlines from the URL: ``&#106;avascript:``, ``&#x6A;avascript:`` and ``java&#x09;script:``
# are all javascript:. References to < and > stay as written: ``&lt;script&gt;`` is escaped text.
_CHARREF = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")  # as html's
_URL_BLANKS = dict.fromkeys(map(ord, "\t\n\r"))


def html_decoded(value: str) -> View | None:
    """The value with its character references decoded (``html.unescape``), or None if none."""
    pieces: list[str] = []
    view_at, value_at = [0], [0]
    pos = length = 0
    for ref in _CHARREF.finditer(value):
        char = html.unescape(ref.group())
        if char == ref.group() or "<" in char or ">" in char:
            continue
        before = value[pos : ref.start()]
        pieces += (before, char)
        length += len(before)
        view_at.append(length)
        value_at.append(ref.start())
        length += len(char)
        view_at.append(length)
        value_at.append(ref.end())
        pos = ref.end()
    if not pieces:
        return None
    pieces.append(value[pos:])
    text = "".join(pieces)
    return View(text, text.lower(), (view_at, value_at))


def in_value(origin: tuple[list[int], list[int]], index: int) -> int:
    """Where a view's character ``index`` comes from in the value (``View.origin``)."""
    view_at, value_at = origin
    segment = bisect.bisect_right(view_at, index) - 1
    return value_at[segment] + index - view_at[segment]
