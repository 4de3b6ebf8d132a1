"""Readers that turn transcript files into tasks and rounds (DESIGN.md, batch auditing).

A transcript is one agent run: a list of chat messages (OpenAI chat or Anthropic messages form),
alone or in an object with a ``messages`` field. It becomes a ``TranscriptTask``: the user's
request, one round per assistant message, and each round's user turn (the latest user message
before it: in a multi-turn run, the round is judged against the turn it answers). Files::

    runs.jsonl   one transcript per line (blank lines skipped)
    run.json     one transcript, a list of transcripts, or a list of messages

A bad line or record comes back as a ``TranscriptError`` (file, line, what is wrong and how to fix
it) in the stream, so one broken line never stops a batch. Stdlib and pydantic only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from qgs_worker.core.models import Deliverable
from qgs_worker.errors import InputError
from qgs_worker.transcripts.anthropic import to_openai_messages
from qgs_worker.transcripts.openai_chat import read_chat

__all__ = ["TranscriptError", "TranscriptTask", "iter_paths", "read_transcripts", "transcript_key"]

TRANSCRIPT_SUFFIXES = (".json", ".jsonl")
"""The file suffixes ``iter_paths`` picks up in a directory."""


class TranscriptTask(BaseModel):
    """One transcript read from a file: a task and its rounds.

    ``key`` is stable across re-runs (see ``transcript_key``) so a second audit of the same file
    skips what is done. ``line`` is the 1-based line in a JSONL file, 1 for a whole-JSON file,
    and the 1-based position for a record of a JSON list. ``turns`` holds, for each round in
    the same order, the user turn it answers (the latest user message before it; ``request`` for
    the rounds of the first turn); empty when the reader had none to give.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    source_file: str
    line: int
    transcript_id: str | None = None
    request: str
    agent_model: str | None = None
    rounds: list[Deliverable]
    turns: list[str] = []

    @model_validator(mode="after")
    def _one_turn_per_round(self) -> TranscriptTask:
        if self.turns and len(self.turns) != len(self.rounds):
            raise ValueError(
                f"'turns' has {len(self.turns)} entries for {len(self.rounds)} rounds: give one "
                "user turn per round, or none"
            )
        return self

    def turn_of(self, number: int) -> str | None:
        """The user turn round ``number`` (1-based) answers, or None when it is the request."""
        turn = self.turns[number - 1] if 0 < number <= len(self.turns) else None
        return None if turn is None or turn == self.request else turn


class TranscriptError(BaseModel):
    """A line or record that could not be read; ``message`` names the problem and the fix."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.source_file}: {self.message}"


def transcript_key(record: Any) -> str:
    """The stable id of a transcript record.

    Args:
        record: The record as parsed from JSON (an object, or a bare list of messages).

    Returns:
        ``"tx-"`` + the first 16 hex digits of the SHA-256 of its canonical JSON (keys sorted,
        no spaces, UTF-8 unescaped): the same record gives the same key in any file, at any line.
    """
    canonical = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "tx-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def read_transcripts(path: Path) -> Iterator[TranscriptTask | TranscriptError]:
    """Read the transcripts of one file, lazily, in file order.

    Args:
        path: A ``.json`` file (read whole), or any other file read as JSONL.

    Returns:
        An iterator of tasks, with a ``TranscriptError`` in place of each line or record that
        could not be read (bad JSON, not UTF-8, no ``messages``, no assistant message...).

    Raises:
        InputError: ``path`` does not exist or is a directory (raised at once, not on iteration).
    """
    if not path.exists():
        raise InputError(f"transcript file not found: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a directory: pass its files (iter_paths expands directories)")
    if path.suffix.lower() == ".json":
        return _read_json(path)
    return _read_jsonl(path)


def iter_paths(paths: Sequence[Path]) -> list[Path]:
    """Expand directories to the transcript files they hold.

    Args:
        paths: Files and directories, e.g. from the command line.

    Returns:
        The files, each once, in the given order; a directory contributes its own ``*.json`` and
        ``*.jsonl`` files (not its subdirectories'), sorted by name. A file named explicitly is
        kept whatever its suffix.

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


def _read_jsonl(path: Path) -> Iterator[TranscriptTask | TranscriptError]:
    source = str(path)
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, start=1):
            where = f"line {number}: "
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                yield TranscriptError(
                    source_file=source,
                    line=number,
                    message=f"{where}not valid UTF-8 ({exc.reason} at byte {exc.start}): "
                    "save the file as UTF-8",
                )
                continue
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                yield TranscriptError(
                    source_file=source,
                    line=number,
                    message=f"{where}not valid JSON ({exc.msg} at column {exc.colno}): "
                    "each line must be one JSON object",
                )
                continue
            except RecursionError:
                yield TranscriptError(
                    source_file=source,
                    line=number,
                    message=f"{where}JSON nested too deeply to read: flatten the record",
                )
                continue
            yield _task(record, source, number, where)


def _read_json(path: Path) -> Iterator[TranscriptTask | TranscriptError]:
    source = str(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as exc:
        yield TranscriptError(
            source_file=source,
            line=1,
            message=f"not valid UTF-8 ({exc.reason} at byte {exc.start}): save the file as UTF-8",
        )
        return
    except json.JSONDecodeError as exc:
        yield TranscriptError(
            source_file=source,
            line=exc.lineno,
            message=f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): a .json "
            "file must hold one transcript, a list of transcripts or a list of messages",
        )
        return
    if isinstance(document, list) and document and all(_is_message(m) for m in document):
        yield _task(document, source, 1, "")
    elif isinstance(document, list):
        for index, record in enumerate(document, start=1):
            yield _task(record, source, index, f"record {index}: ")
    else:
        yield _task(document, source, 1, "")


def _is_message(item: Any) -> bool:
    return isinstance(item, dict) and "role" in item and "messages" not in item


def _task(record: Any, source: str, line: int, where: str) -> TranscriptTask | TranscriptError:
    def error(message: str) -> TranscriptError:
        return TranscriptError(source_file=source, line=line, message=f"{where}{message}")

    system: Any = None
    if isinstance(record, dict):
        messages = record.get("messages")
        system = record.get("system")
        if messages is None:
            return error(
                "no 'messages': a transcript is an object with a 'messages' list of "
                "{role, content} objects, or that list itself"
            )
        if not isinstance(messages, list):
            return error(f"'messages' must be a list of messages (got {type(messages).__name__})")
    elif isinstance(record, list):
        messages = record
    else:
        return error(
            "a transcript must be an object with 'messages' or a list of messages "
            f"(got {type(record).__name__})"
        )
    try:
        request, rounds, turns = read_chat(to_openai_messages(messages, system=system))
        meta = record if isinstance(record, dict) else {}
        rid, model = meta.get("id"), meta.get("model")
        return TranscriptTask(
            key=transcript_key(record),
            source_file=source,
            line=line,
            transcript_id=str(rid)
            if isinstance(rid, str | int) and not isinstance(rid, bool)
            else None,
            request=request,
            agent_model=model if isinstance(model, str) else None,
            rounds=rounds,
            turns=turns,
        )
    except ValueError as exc:  # InputError, or pydantic's ValidationError on odd values
        return error(str(exc))
