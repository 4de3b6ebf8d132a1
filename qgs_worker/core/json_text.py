"""A tool output that is a JSON document, read as one: its string values and its objects' rows.

Tools return JSON more often than prose; a reader that wants a record's fields (an ``email``, a
``subject`` beside its ``id``) reads the document, not its lines. Shared by ``outside_party``
(which values stand alone in a field) and ``order_scope`` (which listing row the user named).
Pure: stdlib only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

__all__ = ["document", "object_rows", "string_values"]


def document(text: str) -> object | None:
    """``text`` parsed, where it is a JSON object or array; None for anything else (never raises)."""
    stripped = text.strip()
    if stripped[:1] not in ("[", "{"):
        return None
    try:
        parsed: object = json.loads(stripped)
    except ValueError:  # a log line that starts with a bracket, a truncated output
        return None
    return parsed


def string_values(node: object) -> Iterator[str]:
    """Every string value of a parsed document, depth first."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from string_values(value)
    elif isinstance(node, list):
        for value in node:
            yield from string_values(value)


def object_rows(node: object) -> Iterator[str]:
    """Each object's scalar values joined by spaces (a listing's row: ``msg_91 Riverside ...``)."""
    if isinstance(node, dict):
        scalars = [str(v) for v in node.values() if isinstance(v, str | int | float)]
        if scalars:
            yield " ".join(scalars)
        for value in node.values():
            if isinstance(value, dict | list):
                yield from object_rows(value)
    elif isinstance(node, list):
        for value in node:
            yield from object_rows(value)
