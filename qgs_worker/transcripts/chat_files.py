"""Files of chat transcripts: OpenAI chat, Anthropic messages and LangChain message lists.

A transcript is a list of messages, alone or in an object with a ``messages`` field (a LangGraph
state; a checkpoint's ``values.messages`` too). Files::

    runs.jsonl   one transcript per line (blank lines skipped)
    run.json     one transcript, a list of transcripts, or a list of messages
                 (a ``.json`` file that turns out to hold JSON lines is read as JSONL)

Each record's messages are recognised by their shape: LangChain dict forms are rewritten by
``transcripts.langchain``, Anthropic blocks by ``transcripts.anthropic``, then ``read_chat``
builds the rounds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from qgs_worker.transcripts import anthropic, langchain
from qgs_worker.transcripts.records import (
    TranscriptError,
    TranscriptTask,
    chat_task,
    iter_json_lines,
    text_id,
)

__all__ = ["read_chat_file"]


def read_chat_file(
    path: Path, *, langchain_form: bool | None = None
) -> Iterator[TranscriptTask | TranscriptError]:
    """Read the chat transcripts of one file, lazily, in file order.

    Args:
        path: A ``.json`` file (read whole), or any other file read as JSONL.
        langchain_form: True to require the LangChain dict form (``--input-format langchain``:
            a record in another form is an error), False to never rewrite it (``chat``), None
            to recognise it per record.

    Returns:
        Tasks, with a ``TranscriptError`` in place of each line or record that could not be read.
    """
    if path.suffix.lower() == ".json":
        return _read_json(path, langchain_form)
    return _read_jsonl(path, langchain_form)


def _read_jsonl(
    path: Path, langchain_form: bool | None
) -> Iterator[TranscriptTask | TranscriptError]:
    for item in iter_json_lines(path):
        if isinstance(item, TranscriptError):
            yield item
        else:
            number, record = item
            yield _task(record, str(path), number, f"line {number}: ", langchain_form)


def _read_json(
    path: Path, langchain_form: bool | None
) -> Iterator[TranscriptTask | TranscriptError]:
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
        document = json.loads(text)
    except UnicodeDecodeError as exc:
        yield TranscriptError(
            source_file=source,
            line=1,
            message=f"not valid UTF-8 ({exc.reason} at byte {exc.start}): save the file as UTF-8",
        )
        return
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and exc.lineno > 1:  # JSON lines in a .json file
            yield from _read_jsonl(path, langchain_form)
            return
        yield TranscriptError(
            source_file=source,
            line=exc.lineno,
            message=f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): a .json "
            "file must hold one transcript, a list of transcripts or a list of messages",
        )
        return
    if isinstance(document, list) and document and all(_is_message(m) for m in document):
        yield _task(document, source, 1, "", langchain_form)
    elif isinstance(document, list):
        lines = element_lines(text)
        for index, record in enumerate(document, start=1):
            yield _task(record, source, lines[index - 1], f"record {index}: ", langchain_form)
    else:
        yield _task(document, source, 1, "", langchain_form)


def element_lines(text: str) -> list[int]:
    """The line (1-based) on which each element of the JSON array ``text`` begins.

    ``text`` must be a valid JSON array (it was parsed already); each element is decoded again
    from its offset to find the next one (``raw_decode``), so ``file:line`` of a record in a
    pretty-printed list names where it starts, not its index (break test).
    """
    decoder = json.JSONDecoder()
    lines: list[int] = []
    at = text.index("[") + 1
    newlines, counted = 0, 0
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text) or text[at] == "]":
            return lines
        newlines += text.count("\n", counted, at)
        counted = at
        lines.append(newlines + 1)
        _, at = decoder.raw_decode(text, at)


def _is_message(item: Any) -> bool:
    if not isinstance(item, dict) or "messages" in item:
        return False
    return "role" in item or langchain.is_langchain([item])


def _task(
    record: Any, source: str, line: int, where: str, langchain_form: bool | None
) -> TranscriptTask | TranscriptError:
    def error(message: str) -> TranscriptError:
        return TranscriptError(source_file=source, line=line, message=f"{where}{message}")

    system: Any = None
    if isinstance(record, dict):
        messages = record.get("messages")
        values = record.get("values")
        if messages is None and isinstance(values, dict):  # a LangGraph checkpoint
            messages = values.get("messages")
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
        is_lc = langchain.is_langchain(messages) if langchain_form is None else langchain_form
        if langchain_form and not langchain.is_langchain(messages):
            return error(
                "not a LangChain message list (no message has a 'type' such as human/ai/tool or "
                "a 'data' object): drop --input-format langchain to read it as chat messages"
            )
        if is_lc:
            messages = langchain.to_openai_messages(messages)
        chat = anthropic.to_openai_messages(messages, system=system)
    except ValueError as exc:  # InputError from a converter
        return error(str(exc))
    meta = record if isinstance(record, dict) else {}
    model = meta.get("model")
    return chat_task(
        chat,
        key_record=record,
        source=source,
        line=line,
        where=where,
        transcript_id=text_id(meta.get("id")),
        agent_model=model if isinstance(model, str) else None,
    )
