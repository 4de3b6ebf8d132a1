"""Readers that turn transcript files into tasks and rounds (DESIGN.md, batch auditing).

A transcript is one agent run. It becomes a ``TranscriptTask``: the user's request, one round per
assistant message, and each round's user turn (the latest user message before it: in a
multi-turn run, the round is judged against the turn it answers). One reader module per format,
recognised from the file's content (``formats.detect_format``), or forced by name:

=============  ==========================================================  ====================
format         what                                                        module
=============  ==========================================================  ====================
chat           OpenAI chat / Anthropic messages / LangChain lists (JSONL,   ``chat_files``
               JSON)
langchain      the same files, LangChain dict form required                ``langchain``
otel           OpenTelemetry GenAI traces as OTLP/JSON (one per trace)      ``otel``
inspect        Inspect AI eval logs, ``.eval`` archives and ``.json`` logs  ``inspect_log``
               (one per sample)
claude-code    Claude Code / Agent SDK session JSONL (one per session)     ``claude_code``
=============  ==========================================================  ====================

A bad line, record, trace, session or sample comes back as a ``TranscriptError`` (file, line,
what is wrong and how to fix it) in the stream, so one broken item never stops a batch. Stdlib
and pydantic only (``zstandard`` for Inspect's compressed archives, imported when one is read).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``core``, ``errors``. Imported by: ``cli``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from qgs_worker.errors import InputError
from qgs_worker.transcripts.formats import TranscriptFormat, detect_format, read_as
from qgs_worker.transcripts.records import TranscriptError, TranscriptTask, transcript_key

__all__ = [
    "TranscriptError",
    "TranscriptFormat",
    "TranscriptTask",
    "detect_format",
    "iter_paths",
    "read_transcripts",
    "transcript_key",
]

TRANSCRIPT_SUFFIXES = (".json", ".jsonl", ".eval")
"""The file suffixes ``iter_paths`` picks up in a directory."""


def read_transcripts(
    path: Path, fmt: TranscriptFormat | str = TranscriptFormat.auto
) -> Iterator[TranscriptTask | TranscriptError]:
    """Read the transcripts of one file, lazily, in file order.

    Args:
        path: A transcript file of any supported format (see the module's table).
        fmt: ``auto`` to recognise the format from the content, or a format's name to force it.

    Returns:
        An iterator of tasks, with a ``TranscriptError`` in place of each line or record that
        could not be read (bad JSON, not UTF-8, no ``messages``, no assistant message...).

    Raises:
        InputError: ``path`` does not exist or is a directory, or ``fmt`` is not a format's
            name (raised at once, not on iteration).
    """
    if not path.exists():
        raise InputError(f"transcript file not found: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a directory: pass its files (iter_paths expands directories)")
    try:
        chosen = TranscriptFormat(fmt)
    except ValueError:
        names = ", ".join(f.value for f in TranscriptFormat)
        raise InputError(f"unknown transcript format {fmt!r}: use one of {names}") from None
    if chosen is TranscriptFormat.auto:
        chosen = detect_format(path)
    return read_as(path, chosen)


def iter_paths(paths: Sequence[Path]) -> list[Path]:
    """Expand directories to the transcript files they hold.

    Args:
        paths: Files and directories, e.g. from the command line.

    Returns:
        The files, each once, in the given order; a directory contributes its own ``*.json``,
        ``*.jsonl`` and ``*.eval`` files (not its subdirectories'), sorted by name. A file named
        explicitly is kept whatever its suffix.

    Raises:
        InputError: a path does not exist.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.is_file() and p.suffix.lower() in TRANSCRIPT_SUFFIXES
            )
        elif path.exists():
            found = [path]
        else:
            raise InputError(f"no such file or directory: {path}")
        files.extend(p for p in found if p not in files)
    return files
