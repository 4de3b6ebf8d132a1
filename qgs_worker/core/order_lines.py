"""Hard-wrapped lines of a text joined into its sentences (``orders``' first step).

A README's, a comment's or an e-mail's sentence goes on over several lines; an order read line by
line would lose its object ("transfer the balance to" / "account NL91 ..."). Pure: stdlib only.
"""

from __future__ import annotations

import re

__all__ = ["unwrapped"]


def unwrapped(text: str, opens_line: re.Pattern[str]) -> tuple[str, list[int]]:
    """``text`` with hard-wrapped lines joined, and each character's index in ``text``.

    Two lines join when they carry the same comment marker (none, ``#``, ``//``...), the first
    ends inside a sentence (no closing punctuation, no code: ``=``, ``;``, a call) and the second
    goes on in lowercase, a command, a value or after an open word ("to the account"), and is
    not a serialized ``key: value`` field nor a line ``opens_line`` opens (a marker such as
    "SYSTEM OVERRIDE:"). The second line's marker is dropped from the view.
    """
    if "\n" not in text:
        return text, list(range(len(text)))
    lines = text.split("\n")
    marks = [_LINE_MARK.match(line) for line in lines]
    starts: list[int] = []
    at = 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    parts: list[str] = []
    origin: list[int] = []
    for index, line in enumerate(lines):
        mark = marks[index]
        keep_from = 0
        if index and _joins_previous(lines, marks, index, opens_line):
            keep_from = mark.end()  # type: ignore[union-attr]
        parts.append(line[keep_from:])
        origin.extend(range(starts[index] + keep_from, starts[index] + len(line)))
        if index + 1 < len(lines):
            joined = _joins_previous(lines, marks, index + 1, opens_line)
            parts.append(" " if joined else "\n")
            origin.append(starts[index] + len(line))
    return "".join(parts), origin


def _joins_previous(
    lines: list[str], marks: list[re.Match[str] | None], index: int, opens_line: re.Pattern[str]
) -> bool:
    before, here = marks[index - 1], marks[index]
    assert before is not None and here is not None  # the pattern matches every line
    return _joins(
        lines[index - 1][before.end() :],
        lines[index][here.end() :],
        same=before[1] == here[1],
        opens_line=opens_line,
    )


_LINE_MARK = re.compile(r"^[ \t]*(?:\d+(?:→|\t))?[ \t]*((?:#+|//+|--|\*|;+|>+)?)[ \t]*")
_CODE_LINE = re.compile(
    r"[=;{}]|\w\(|^\s*(?:import|from|def|class|return|const|let|var|function|fn|func)\b"
)
_CONTINUES = re.compile(r"[a-z`$(0-9]|[A-Z][A-Z0-9_]{2,}\b")
_OPEN_ENDED = re.compile(
    r"\b(?:to|the|a|an|of|with|at|in|on|for|from|by|and|or|account|address|number|is|be|are|this|that)$",
    re.IGNORECASE,
)
_FIELD = re.compile(r"[\w-]+:[ \t]|[\w./-]+:\d+[:-]|[\w-]+/[\w./-]+(?:\s|$)")  # a field, grep's path:line:


def _joins(line: str, following: str, *, same: bool, opens_line: re.Pattern[str]) -> bool:
    content = line.rstrip()
    return (
        same
        and bool(content)
        and content[-1] not in ".!?:;,{}[]\"'>()=+\\"
        and (_CONTINUES.match(following) is not None or _OPEN_ENDED.search(content) is not None)
        and opens_line.match(following) is None  # "SYSTEM OVERRIDE:" opens its own line
        and _FIELD.match(following) is None
        and _CODE_LINE.search(content) is None
    )
