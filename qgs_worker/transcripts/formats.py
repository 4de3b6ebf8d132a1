"""Which reader a transcript file needs, told from its content (never from its suffix alone).

``detect_format`` looks at the first bytes and the first record only, so a 1 GB file costs one
line: a zip archive is an Inspect ``.eval`` log; otherwise the first line (or, for a JSON
document spread over several lines, the start of the document) is matched against each
format's marks. Anything unrecognised is read as chat messages, whose reader names what is
wrong with each record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

from qgs_worker.transcripts.records import TranscriptError, TranscriptTask

__all__ = ["TranscriptFormat", "detect_format", "read_as"]

_ZIP_MAGIC = b"PK\x03\x04"
_HEAD_BYTES = 1 << 20  # how much of a first line is looked at: 1 MiB
_OTEL_DOC = re.compile(r'^\s*\{\s*"resource(Spans|Logs)"\s*:')
_INSPECT_DOC = re.compile(r'^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:')
_SESSION_TYPES = {
    "user",
    "assistant",
    "system",
    "summary",
    "result",
    "file-history-snapshot",
    "queue-operation",
}
"""Record types of Claude Code session logs and Agent SDK message streams."""
_SESSION_MARKS = ("sessionId", "session_id", "uuid", "leafUuid", "parentUuid")


class TranscriptFormat(StrEnum):
    """The transcript formats ``qgs audit --input-format`` accepts."""

    auto = "auto"
    chat = "chat"
    langchain = "langchain"
    otel = "otel"
    inspect = "inspect"
    claude_code = "claude-code"


def detect_format(path: Path) -> TranscriptFormat:
    """The format of a transcript file, from its first bytes and first record.

    Args:
        path: An existing file.

    Returns:
        A concrete format (never ``auto``); ``chat`` when nothing else matches.
    """
    with path.open("rb") as stream:
        if stream.read(4) == _ZIP_MAGIC:
            return TranscriptFormat.inspect
        stream.seek(0)
        head = stream.readline(_HEAD_BYTES).decode("utf-8-sig", errors="replace")
        while not head.strip() and head:
            head = stream.readline(_HEAD_BYTES).decode("utf-8", errors="replace")
    try:
        first = json.loads(head)
    except ValueError:  # a JSON document over several lines (or broken): look at its start
        if _OTEL_DOC.match(head):
            return TranscriptFormat.otel
        if _INSPECT_DOC.match(head):
            return TranscriptFormat.inspect
        with path.open("rb") as stream:
            start = stream.read(4096).decode("utf-8-sig", errors="replace")
        if _OTEL_DOC.match(start):
            return TranscriptFormat.otel
        if _INSPECT_DOC.match(start):
            return TranscriptFormat.inspect
        return TranscriptFormat.chat
    return _record_format(first)


def _record_format(record: Any) -> TranscriptFormat:
    if not isinstance(record, dict):
        return TranscriptFormat.chat
    if "resourceSpans" in record or "resourceLogs" in record:
        return TranscriptFormat.otel
    if isinstance(record.get("eval"), dict) and "version" in record:
        return TranscriptFormat.inspect
    if (
        record.get("type") in _SESSION_TYPES
        and "messages" not in record
        and ("message" in record or any(mark in record for mark in _SESSION_MARKS))
    ):
        return TranscriptFormat.claude_code
    return TranscriptFormat.chat


_SNIFF_BYTES = 8192
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-16/32 byte order marks, either byte order


def not_text(path: Path) -> str:
    """Why a file cannot hold text transcripts at all ("" when it may): UTF-16/32, or binary.

    Read off its first 8 KB: a UTF-16 or UTF-32 byte order mark, or a NUL byte (no UTF-8 text
    has one; a ``.eval`` zip archive is recognised before this is asked). Such a file fails as
    one error, not one per line (break test: a 2.4 MB binary gave 7,018 errors).
    """
    with path.open("rb") as stream:
        head = stream.read(_SNIFF_BYTES)
    if head.startswith(_ZIP_MAGIC):
        return ""
    if head.startswith(_WIDE_BOMS):
        return "the file is UTF-16 or UTF-32 text: save it as UTF-8 (e.g. iconv -t UTF-8)"
    if b"\x00" in head:
        return "the file is binary, not JSON or JSONL text: give transcript files (UTF-8 JSON)"
    return ""


def read_as(path: Path, fmt: TranscriptFormat) -> Iterator[TranscriptTask | TranscriptError]:
    """Read ``path`` with the reader of ``fmt`` (``auto`` detects it first).

    Each reader module is imported here, when a file of its format is read. A file that is not
    text (``not_text``) is one ``TranscriptError`` at line 1.
    """
    if fmt is not TranscriptFormat.inspect and (why := not_text(path)):
        return iter([TranscriptError(source_file=str(path), line=1, message=why)])
    if fmt is TranscriptFormat.auto:
        fmt = detect_format(path)
    if fmt is TranscriptFormat.otel:
        from qgs_worker.transcripts.otel import read_otel_file

        return read_otel_file(path)
    if fmt is TranscriptFormat.inspect:
        from qgs_worker.transcripts.inspect_log import read_inspect_file

        return read_inspect_file(path)
    if fmt is TranscriptFormat.claude_code:
        from qgs_worker.transcripts.claude_code import read_session_file

        return read_session_file(path)
    from qgs_worker.transcripts.chat_files import read_chat_file

    langchain_form = {TranscriptFormat.langchain: True}.get(fmt)
    return read_chat_file(path, langchain_form=langchain_form)
