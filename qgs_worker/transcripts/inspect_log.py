"""Inspect AI eval logs -> one transcript per sample.

Two files hold the same log (``inspect_ai.log``)::

    task.eval   a zip archive: header.json ({"eval": {"task", "task_id", "model", ...}}),
                samples/<id>_epoch_<n>.json (one sample each), summaries.json, _journal/...;
                members are zstd-compressed (method 93) by current Inspect, deflated by older
    task.json   one JSON object {"version", "status", "eval", "plan", "results", "samples": [...]}

A sample is ``{"id", "epoch", "input", "messages": [ChatMessage...], "output", "scores", ...}``;
its messages are Inspect's ``ChatMessage`` values (``role`` system/user/assistant/tool; an
assistant's ``tool_calls`` are ``{"id", "function": "<name>", "arguments": {...}}``; a tool
message names its call in ``tool_call_id`` and carries ``error`` when the tool failed), which
become OpenAI chat messages. Reasoning content is dropped (the judge never sees it). A sample
that cannot be read fails alone, named by its position and id.
"""

from __future__ import annotations

import json
import struct
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from qgs_worker.errors import InputError, json_type_name
from qgs_worker.transcripts.openai_chat import content_text
from qgs_worker.transcripts.records import TranscriptError, TranscriptTask, chat_task, text_id

__all__ = ["MAX_SAMPLE_BYTES", "read_inspect_file"]

MAX_SAMPLE_BYTES = 512 * 1024 * 1024
"""The largest sample member of an ``.eval`` archive read, uncompressed, in bytes (512 MiB): a
bigger one is reported, not read (an archive's sizes are not to be trusted)."""

_ZSTD = 93  # zip compression method of Zstandard (APPNOTE 4.4.5); Python's zipfile lacks it
_LOCAL_HEADER = struct.Struct("<IHHHHHIIIHH")  # a zip local file header, 30 bytes


def read_inspect_file(
    path: Path, *, max_sample_bytes: int = MAX_SAMPLE_BYTES
) -> Iterator[TranscriptTask | TranscriptError]:
    """Read every sample of an Inspect log (``.eval`` archive or ``.json`` log) as a transcript.

    Args:
        path: The log file.
        max_sample_bytes: The largest sample member of an archive to read, uncompressed.

    Returns:
        One task per sample in log order (its ``line`` is the sample's 1-based position, its
        ``transcript_id`` ``"<sample id>:<epoch>"``), with a ``TranscriptError`` for each sample
        that could not be read, or one for the whole file when it is no readable log.
    """
    with path.open("rb") as stream:
        is_zip = stream.read(4) == b"PK\x03\x04"
    if is_zip:
        return _read_archive(path, max_sample_bytes)
    return _read_json_log(path)


def _read_json_log(path: Path) -> Iterator[TranscriptTask | TranscriptError]:
    source = str(path)
    try:
        log = json.loads(path.read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        yield TranscriptError(
            source_file=source,
            line=getattr(exc, "lineno", 1),
            message=f"not a readable Inspect log ({exc}): the file is truncated or not JSON; "
            "re-write it with `inspect log convert`",
        )
        return
    if not isinstance(log, dict) or not isinstance(log.get("eval"), dict):
        yield TranscriptError(
            source_file=source,
            line=1,
            message="not an Inspect log: expected an object with 'eval' and 'samples' "
            f"(got {json_type_name(log)} without 'eval')",
        )
        return
    samples = log.get("samples")
    if not isinstance(samples, list) or not samples:
        yield TranscriptError(
            source_file=source,
            line=1,
            message="the Inspect log has no 'samples' list: it was written without samples "
            "(--no-log-samples) or the eval did not run; nothing to audit",
        )
        return
    for position, sample in enumerate(samples, start=1):
        yield _sample_task(sample, log["eval"], source, position)


def _read_archive(path: Path, max_sample_bytes: int) -> Iterator[TranscriptTask | TranscriptError]:
    source = str(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        yield TranscriptError(
            source_file=source,
            line=1,
            message=f"not a readable .eval archive ({exc}): the file is truncated or not a zip; "
            "copy it again, or re-write it with `inspect log convert`",
        )
        return
    with archive, path.open("rb") as raw:
        members = [i for i in archive.infolist() if i.filename.startswith("samples/")]
        try:
            header = _load_member(archive, raw, "header.json", max_sample_bytes)
            meta = header.get("eval") if isinstance(header, dict) else None
        except (KeyError, ValueError, OSError):
            meta = None  # an archive written while the eval ran has no header yet
        if not isinstance(meta, dict):
            start = _try_load(archive, raw, "_journal/start.json", max_sample_bytes)
            meta = start.get("eval") if isinstance(start, dict) else None
        if not members:
            yield TranscriptError(
                source_file=source,
                line=1,
                message="the .eval archive has no samples/ members: the eval logged no samples; "
                "nothing to audit",
            )
            return
        for position, info in enumerate(members, start=1):
            try:
                sample = _load_member(archive, raw, info.filename, max_sample_bytes)
            except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
                yield TranscriptError(
                    source_file=source,
                    line=position,
                    message=f"sample {info.filename}: could not be read ({exc})",
                )
                continue
            yield _sample_task(sample, meta if isinstance(meta, dict) else {}, source, position)


def _try_load(archive: zipfile.ZipFile, raw: Any, name: str, limit: int) -> Any:
    try:
        return _load_member(archive, raw, name, limit)
    except (KeyError, ValueError, OSError):
        return None


def _load_member(archive: zipfile.ZipFile, raw: Any, name: str, limit: int) -> Any:
    """The JSON value of one archive member (zstd members decompressed by ``zstandard``).

    Raises:
        KeyError: no such member.
        ValueError: over ``limit`` bytes, not decompressible, not UTF-8 or not JSON.
    """
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise ValueError(
            f"{info.file_size / 1e6:.0f} MB uncompressed, over the reader's "
            f"{limit / 1e6:.0f} MB limit for one sample"
        )
    data = _zstd_member(raw, info, limit) if info.compress_type == _ZSTD else archive.read(info)
    return json.loads(data.decode("utf-8"))


def _zstd_member(raw: Any, info: zipfile.ZipInfo, limit: int) -> bytes:
    import zstandard  # only an archive with zstd members needs it

    raw.seek(info.header_offset)
    fields = _LOCAL_HEADER.unpack(raw.read(_LOCAL_HEADER.size))
    if fields[0] != 0x04034B50:
        raise ValueError("bad local header (the archive is damaged)")
    raw.seek(info.header_offset + _LOCAL_HEADER.size + fields[-2] + fields[-1])
    compressed = raw.read(info.compress_size)
    try:
        data: bytes = zstandard.ZstdDecompressor().decompress(
            compressed, max_output_size=max(info.file_size, 1)
        )
    except zstandard.ZstdError as exc:
        raise ValueError(f"zstd data is damaged or truncated: {exc}") from None
    if len(data) > limit:
        raise ValueError(f"over the reader's {limit / 1e6:.0f} MB limit for one sample")
    return data


def _sample_task(
    sample: Any, meta: dict[str, Any], source: str, position: int
) -> TranscriptTask | TranscriptError:
    if not isinstance(sample, dict):
        return TranscriptError(
            source_file=source,
            line=position,
            message=f"sample {position}: not an object (got {json_type_name(sample)})",
        )
    sample_id = text_id(sample.get("id")) or str(position)
    epoch = sample.get("epoch") if isinstance(sample.get("epoch"), int) else 1
    where = f"sample {sample_id} (epoch {epoch}): "
    messages = sample.get("messages")
    if not isinstance(messages, list):
        return TranscriptError(
            source_file=source,
            line=position,
            message=f"{where}'messages' must be a list of chat messages "
            f"(got {json_type_name(messages)})",
        )
    try:
        chat = [_chat_message(m, n) for n, m in enumerate(messages, start=1)]
    except InputError as exc:
        return TranscriptError(source_file=source, line=position, message=f"{where}{exc}")
    model = meta.get("model")
    return chat_task(
        chat,
        key_record={
            "task_id": meta.get("task_id"),
            "id": sample_id,
            "epoch": epoch,
            "messages": messages,
        },
        source=source,
        line=position,
        where=where,
        transcript_id=f"{sample_id}:{epoch}",
        agent_model=model if isinstance(model, str) else None,
    )


def _chat_message(message: Any, number: int) -> Any:
    """One Inspect ``ChatMessage`` as an OpenAI chat message (others pass on to be reported)."""
    if not isinstance(message, dict):
        return message
    role = message.get("role")
    if role == "tool":
        text = content_text(message.get("content"))
        error = message.get("error")
        if isinstance(error, dict):
            text = f"[tool error] {error.get('message', '')}\n{text}".rstrip()
        name = message.get("function")
        return {
            "role": "tool",
            "tool_call_id": str(message.get("tool_call_id") or ""),
            "name": name if isinstance(name, str) else None,
            "content": text,
        }
    if role != "assistant":
        return message
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise InputError(
            f"message {number}: 'tool_calls' must be a list of calls (got {json_type_name(raw_calls)})"
        )
    calls = []
    for index, call in enumerate(raw_calls):
        if not isinstance(call, dict):
            raise InputError(
                f"message {number}: tool call {index} is not an object (got {json_type_name(call)})"
            )
        function = call.get("function")
        name = function.get("name") if isinstance(function, dict) else function
        calls.append(
            {
                "id": str(call.get("id") or ""),
                "type": "function",
                "function": {"name": name, "arguments": call.get("arguments")},
            }
        )
    return {"role": "assistant", "content": message.get("content"), "tool_calls": calls}
