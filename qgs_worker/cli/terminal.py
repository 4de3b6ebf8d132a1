"""Untrusted text made safe to print on a terminal (call ids, tool names, arguments, transcripts).

A value an agent or a transcript wrote must not move the cursor, erase or recolour lines, or
reorder what a person reads: control characters become visible escapes, and rich markup in
the text is escaped. JSON output keeps every value exact.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any, TextIO

__all__ = ["json_line", "json_text", "markup_safe", "printable_report", "visible"]

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
_ONE_LINE_CONTROLS = re.compile(f"[\t\n{_CONTROLS}]")
_MULTILINE_CONTROLS = re.compile(f"[{_CONTROLS}]")
_SHORT_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def visible(text: object, *, lines: bool = False) -> str:
    r"""``text`` safe to print on a terminal: control characters shown as escapes (``\x1b``).

    Untrusted text (call ids, tool names, arguments, error texts, transcripts) must not move the
    cursor, erase or recolour lines, or reorder what is shown. Every C0 and C1 control character,
    DEL and the bidirectional overrides become visible escapes (``\x1b``, ``\r``,
    ``\u202e``); ``lines`` keeps newlines and tabs (text shown on several lines), else they
    are escaped too (a one-line field).
    """
    pattern = _MULTILINE_CONTROLS if lines else _ONE_LINE_CONTROLS
    return pattern.sub(_escape_control, str(text))


def _escape_control(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _SHORT_ESCAPES.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def markup_safe(text: object, *, lines: bool = True) -> str:
    """Untrusted ``text`` for a rich markup string: controls made visible, ``[...]`` escaped."""
    from rich.markup import escape  # here: ``qgs check-tool`` and ``qgs scan`` print without rich

    return escape(visible(text, lines=lines))


_JSON_INVISIBLE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def json_text(value: Any) -> str:
    r"""``value`` as indented JSON and a newline: the same value, safe to print on a terminal.

    ``json.dumps`` escapes C0 controls; DEL, C1 controls and bidirectional overrides (only ever
    inside strings) are written as ``\u`` escapes too, which parse back to the same text.
    """
    out = io.StringIO()
    write_json(value, out)  # one encoding path: the streamed one
    return out.getvalue()


def write_json(value: Any, out: TextIO) -> None:
    """Write ``value`` as ``json_text`` gives it to ``out`` as it is encoded, 64 KB at a time.

    The text of ``json.dumps(value, indent=2, ensure_ascii=False)`` plus a newline, escaped
    as the module says, without holding it whole: the report of a 10,000-task
    audit is ~60 MB of JSON, and ``json.dumps`` with an indent built it from some two million
    pieces first (the client's peak RSS at the end of ``qgs audit --format json``). The
    encoder yields whole tokens, so escaping each piece escapes the text.
    """
    encoder = json.JSONEncoder(indent=2, ensure_ascii=False)
    pieces: list[str] = []
    size = 0
    for piece in encoder.iterencode(value):
        pieces.append(piece)
        size += len(piece)
        if size >= 65_536:
            out.write(_escape_invisible("".join(pieces)))
            pieces, size = [], 0
    out.write(_escape_invisible("".join(pieces)) + "\n")


def json_line(value: Any) -> str:
    """``value`` as compact JSON on one line (no newline), escaped as ``json_text`` escapes it."""
    return _escape_invisible(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _escape_invisible(text: str) -> str:
    r"""DEL, C1 controls and bidirectional overrides as ``\u`` escapes (JSON text only)."""
    return _JSON_INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def printable_report(report: dict[str, Any]) -> dict[str, Any]:
    """The report with its text safe for a terminal (``visible``); JSON output keeps it exact.

    Tool-call fields (tool names, call ids, errors) are one-line; the rest may span lines.
    """

    def clean(value: Any, lines: bool) -> Any:
        if isinstance(value, str):
            return visible(value, lines=lines)
        if isinstance(value, dict):
            return {clean(k, lines): clean(v, lines) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v, lines) for v in value]
        return value

    return {key: clean(value, lines=key != "tool_calls") for key, value in report.items()}
