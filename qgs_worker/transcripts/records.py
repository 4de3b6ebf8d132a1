"""The values every transcript reader yields, and the helpers they share.

A reader turns one file into ``TranscriptTask`` values, with a ``TranscriptError`` in place of
each line, record, trace, session or sample it could not read, so one broken item never stops a
batch. Every reader ends in ``chat_task``: its format is first rewritten as OpenAI chat messages,
then ``read_chat`` builds the request, the rounds and the turns, so all formats give the same
values. Stdlib and pydantic only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from qgs_worker.core.models import Deliverable
from qgs_worker.transcripts.openai_chat import read_chat

__all__ = [
    "TranscriptError",
    "TranscriptTask",
    "chat_task",
    "iter_json_lines",
    "text_id",
    "transcript_key",
]


class TranscriptTask(BaseModel):
    """One transcript read from a file: a task and its rounds.

    ``key`` is stable across re-runs (see ``transcript_key``) so a second audit of the same file
    skips what is done. ``line`` is the 1-based line in a JSONL file, 1 for a whole-JSON file,
    the 1-based position for a record of a JSON list, the first line of a trace or session, or
    the 1-based position of a sample in an Inspect log. ``turns`` holds, for each round in the
    same order, the user turn it answers (the latest user message before it; ``request`` for
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


def text_id(value: Any) -> str | None:
    """``value`` as a transcript id: a string, or an integer as text; None for anything else."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def chat_task(
    messages: Sequence[Any],
    *,
    key_record: Any,
    source: str,
    line: int,
    where: str,
    transcript_id: str | None = None,
    agent_model: str | None = None,
) -> TranscriptTask | TranscriptError:
    """Build a task from OpenAI chat messages, or the error that says why not.

    Args:
        messages: The transcript as OpenAI chat messages, oldest first.
        key_record: What the task's ``key`` is the hash of (the record as read, so a re-run of
            the same file finds the same key).
        source: The file, as shown to the user.
        line: The line (or position) the task is named by.
        where: The prefix of an error message, e.g. ``"line 3: "`` or ``"sample s1: "``.
        transcript_id: The id the producing tool gave the transcript, if any.
        agent_model: The agent's model, if the file says.

    Returns:
        The task, or a ``TranscriptError`` (no assistant message, a message without a role...).
    """
    try:
        request, rounds, turns = read_chat(messages)
        return TranscriptTask(
            key=transcript_key(key_record),
            source_file=source,
            line=line,
            transcript_id=transcript_id,
            request=request,
            agent_model=agent_model,
            rounds=rounds,
            turns=turns,
        )
    except UnicodeEncodeError as exc:  # a "\ud800" escape: JSON reads it, UTF-8 cannot hold it
        return TranscriptError(
            source_file=source,
            line=line,
            message=f"{where}holds text that is not valid Unicode (a lone surrogate "
            f"{exc.object[exc.start : exc.end]!r}, written as a \\u escape by a tool that split "
            "a character): fix the file (e.g. replace it with \\ufffd) and audit it again",
        )
    except ValueError as exc:  # InputError, or pydantic's ValidationError on odd values
        return TranscriptError(source_file=source, line=line, message=f"{where}{exc}")


def iter_json_lines(path: Path) -> Iterator[tuple[int, Any] | TranscriptError]:
    """The JSON value of each non-blank line of a JSONL file, with its 1-based line number.

    Returns:
        ``(line, value)`` pairs, with a ``TranscriptError`` in place of a line that is not
        UTF-8 or not one JSON value (its message starts with ``line N:``).
    """
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
                # without its line ending: an error at the end of the line is named at its own
                # column, not at column 1 of the next line
                yield number, json.loads(line.rstrip("\r\n"))
            except json.JSONDecodeError as exc:
                yield TranscriptError(
                    source_file=source,
                    line=number,
                    message=f"{where}not valid JSON ({exc.msg} at column {exc.colno}): "
                    "each line must be one JSON object",
                )
            except RecursionError:
                yield TranscriptError(
                    source_file=source,
                    line=number,
                    message=f"{where}JSON nested too deeply to read: flatten the record",
                )
