"""The one input contract: what every face (CLI, client, HTTP API, MCP) takes, and what it refuses.

Where the faces disagreed, the strict one wins: a value is refused, naming the field and the
fix, never coerced or silently repaired.

- **Files** (``read_text_file``, ``qgs submit FILE``, ``qgs scan FILE``): a folder is refused as a
  folder, a missing path as missing; UTF-16 or UTF-32 text (a byte order mark, or the NUL bytes
  of ASCII text in UTF-16) is refused with the command that converts it; anything else holding
  NUL bytes is refused as binary, before its size is counted (a 2 MB binary is "binary", not
  "over the limit"); then the size limit. ``decode_utf8`` refuses bytes that are not UTF-8,
  with the offset of the first bad byte, as the HTTP API refuses such a body (400).
  ``qgs scan`` alone reads bad bytes as U+FFFD, with a warning: it looks for danger in whatever
  it is given, and stores nothing.
- **Types** (``require_text``, ``require_bool``): a field's value has its type; ``final="yes"``
  is refused (the HTTP API's 422), not read as True; ``deliverable=None`` says it needs a string.
- **Tool calls**: one reader for every face, ``qgs_worker.core.tool_shapes`` for the rounds and
  ``qgs_worker.core.toolgate.calls`` for the check; both take QGS's own
  ``{"id", "name", "arguments"}`` besides the OpenAI, Responses, Anthropic and MCP shapes.
- **Text values** (``submission.check_value``): UTF-8 text without lone surrogates, at most 128
  levels deep; sizes by ``QGS_MAX_DELIVERABLE_BYTES`` and ``QGS_MAX_REQUEST_BYTES``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from qgs_worker.errors import InputError, TooLargeError

__all__ = [
    "SNIFF_BYTES",
    "binary_kind",
    "binary_refusal",
    "decode_utf8",
    "read_text_file",
    "require_bool",
    "require_number",
    "require_text",
    "require_texts",
]

SNIFF_BYTES = 8192
"""How many bytes of a file are read to tell text from binary (and UTF-16 from UTF-8)."""

_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-16 and UTF-32 byte order marks, either order
_TO_UTF8 = "save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.txt)"


def binary_kind(head: bytes) -> str | None:
    """What bytes are when they cannot be UTF-8 text (read off their first ``SNIFF_BYTES``).

    Args:
        head: The first bytes of a file or of standard input.

    Returns:
        ``UTF-16 or UTF-32 text`` (a byte order mark, or NUL bytes in every other position:
        ASCII in UTF-16), ``binary`` (any other NUL byte), or None for bytes that may be UTF-8.
    """
    head = head[:SNIFF_BYTES]
    if head.startswith(_WIDE_BOMS) or _utf16_pattern(head):
        return "UTF-16 or UTF-32 text"
    if b"\x00" in head:
        return "binary"
    return None


def binary_refusal(head: bytes) -> str | None:
    """Why bytes cannot be text to review (``binary_kind``), with the fix; None when they may be.

    Returns:
        ``is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8 …``, ``is binary, not text …``
        or None.
    """
    kind = binary_kind(head)
    if kind is None:
        return None
    if kind == "binary":
        return "is binary, not text (it holds NUL bytes): give a UTF-8 text file"
    return f"is {kind}, not UTF-8: {_TO_UTF8}"


def _utf16_pattern(head: bytes) -> bool:
    """ASCII text in UTF-16 without a byte order mark: NULs in every other byte."""
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]
    return even.count(0) == len(even) or odd.count(0) == len(odd)


def decode_utf8(data: bytes, source: str) -> str:
    """The bytes as UTF-8 text (a UTF-8 byte order mark dropped).

    Args:
        data: The bytes.
        source: What they are, for the message (``notes.txt``, ``standard input``).

    Raises:
        InputError: they are not UTF-8 (the first bad byte's value and offset, and the fix).
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{source} is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}; "
            "save it as UTF-8 (e.g. iconv -f LATIN1 -t UTF-8 FILE > FILE.txt)"
        ) from None


def read_text_file(name: str, *, what: str, limit_bytes: int, setting: str) -> str:
    """A text file's content (``-``: standard input), under the contract above.

    Args:
        name: The path as given, or ``-``.
        what: What the file is for the messages (``a deliverable file``).
        limit_bytes: The largest size taken, in bytes.
        setting: The setting that raises the limit, for the message.

    Returns:
        The text.

    Raises:
        InputError: a folder, no such file, UTF-16/32 or binary content, or not UTF-8.
        TooLargeError: over ``limit_bytes``.
    """
    if name == "-":
        data = sys.stdin.buffer.read(limit_bytes + 1)
        source = "standard input"
    else:
        path = Path(name)
        if path.is_dir():
            raise InputError(
                f"{name} is a folder, not a file: pass {what}, or - to read standard input"
            )
        if path.exists() and not path.is_file():
            raise InputError(
                f"{name} is not a regular file (a device, a pipe or a socket): pass {what}, "
                "or - to read standard input"
            )
        if not path.is_file():
            raise InputError(f"no such file: {name} (pass {what}, or - to read standard input)")
        with path.open("rb") as handle:
            data = handle.read(limit_bytes + 1)
        source = name
    why = binary_refusal(data)
    if why is not None:
        raise InputError(f"{source} {why}")
    if len(data) > limit_bytes:
        size = f" ({Path(name).stat().st_size:,} bytes)" if name != "-" else ""
        raise TooLargeError(
            f"{source}{size} is over the limit of {limit_bytes:,} bytes: send a smaller one "
            f"(a diff or a summary), or raise {setting}"
        )
    return decode_utf8(data, source)


def require_text(value: object, field: str, fix: str) -> str:
    """``value`` when it is a string; else refused, naming the field, the type sent and the fix.

    Raises:
        InputError: ``'deliverable' must be a string … (got NoneType); <fix>``.
    """
    if isinstance(value, str):
        return value
    raise InputError(f"'{field}' must be a string (got {type(value).__name__}): {fix}")


def require_number(value: object, field: str) -> float:
    """``value`` when it is an int or a float (not a boolean, not ``"5"``), as a float.

    Raises:
        InputError: naming the field and the value sent.
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise InputError(f"'{field}' must be a number (got {value!r}); pass seconds, e.g. 30")


def require_texts(value: object, field: str) -> tuple[str, ...]:
    """``value`` as a tuple when it is a list or tuple of strings; a lone string is refused.

    A string is a sequence of characters: ``requirements="cite sources"`` would otherwise be
    read as 12 one-letter requirements.

    Raises:
        InputError: naming the field (or its item, ``'requirements.1'``) and the type sent.
    """
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise InputError(
            f"'{field}' must be a list of strings (got {type(value).__name__}); "
            f'e.g. {field}=["cite the source"]'
        )
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise InputError(f"'{field}.{i}' must be a string (got {type(item).__name__})")
    return tuple(value)


def require_bool(value: object, field: str) -> bool:
    """``value`` when it is True or False; ``"yes"``, 1 or None are refused, never coerced.

    Raises:
        InputError: naming the field and the value sent.
    """
    if isinstance(value, bool):
        return value
    raise InputError(f"'{field}' must be true or false (got {value!r}); pass a boolean")
