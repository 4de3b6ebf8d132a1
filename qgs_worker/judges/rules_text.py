"""The rules judge's reading of a deliverable: its text measured once, and a dimension's tally.

``Text.of`` splits fenced code from prose, counts words and paragraphs and lists the tool-call
lines; ``Score`` is one dimension losing points with an issue for each; ``pattern`` and
``find`` are the judge's own patterns (needles first, then the regex). Split from
``rules_judge`` (the checks and the verdict), which reads the text through these.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from qgs_worker.core import rules
from qgs_worker.core.models import DimensionScore
from qgs_worker.judges.request_words import word_runs

__all__ = [
    "MAX_ISSUES_PER_DIMENSION",
    "Pattern",
    "Score",
    "Text",
    "find",
    "may_match",
    "pattern",
    "quote",
    "split_fences",
]

MAX_ISSUES_PER_DIMENSION = 10
"""The most issues one dimension reports (the rest still cost their points)."""

_FENCE = re.compile(r"^[ \t]*(```|~~~)[ \t]*([\w+.-]*)[^\n]*$", re.MULTILINE)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_TOOL_CALL_LINE = "[tool call] "


@dataclass(frozen=True)
class Pattern:
    """One of the judge's own patterns: what it is called, its regex and the points it costs."""

    label: str
    regex: re.Pattern[str]
    points: int
    accept: Callable[[re.Match[str]], bool] | None = None
    needles: tuple[str, ...] = ()
    """Lower-case strings one of which every text with a match holds (none: always run)."""


def pattern(
    label: str,
    regex: str,
    points: int,
    flags: int = re.IGNORECASE,
    accept: Callable[[re.Match[str]], bool] | None = None,
    needles: tuple[str, ...] = (),
) -> Pattern:
    """A ``Pattern``, its regex compiled with ``flags`` (case-insensitive by default)."""
    return Pattern(label, re.compile(regex, flags), points, accept, needles)


@dataclass
class Score:
    """A dimension being scored: starts at 100, loses points with an issue for each."""

    name: str
    score: int = 100
    issues: list[str] = field(default_factory=list)

    def take(self, points: int, issue: str) -> None:
        """Take ``points`` off for ``issue``."""
        self.score -= points
        self.issues.append(issue)

    def result(self) -> DimensionScore:
        """The dimension's score (clamped to 0-100) and its first issues."""
        return DimensionScore(
            name=self.name,
            score=max(0, min(100, self.score)),
            issues=tuple(self.issues[:MAX_ISSUES_PER_DIMENSION]),
        )


@dataclass(frozen=True)
class Text:
    """The deliverable, measured once."""

    raw: str
    lowered: str  # raw.lower(), what the rules' needles are looked for in
    prose: str  # without fenced code blocks
    words: int  # WORD runs
    prose_words: int
    paragraphs: tuple[str, ...]
    blocks: tuple[tuple[str, str, int], ...]  # (language tag, code, first line number)
    unclosed_fence: bool
    tool_calls: tuple[str, ...]
    only_calls: bool  # tool calls and no other non-blank line

    @classmethod
    def of(cls, raw: str) -> Text:
        """``raw`` measured: fences split off, words and paragraphs counted, calls listed."""
        blocks, prose, unclosed = split_fences(raw)
        paragraphs = tuple(p.strip() for p in _PARAGRAPH_BREAK.split(prose) if p.strip())
        lines = [stripped for line in raw.splitlines() if (stripped := line.strip())]
        calls = tuple(
            line[len(_TOOL_CALL_LINE) :] for line in lines if line.startswith(_TOOL_CALL_LINE)
        )
        words = word_runs(raw)
        prose_words = words if prose == raw else word_runs(prose)
        only_calls = bool(calls) and len(calls) == len(lines)
        return cls(
            raw, raw.lower(), prose, words, prose_words, paragraphs, blocks, unclosed, calls,
            only_calls,
        )  # fmt: skip


# -- text helpers ------------------------------------------------------------------------------


def split_fences(raw: str) -> tuple[tuple[tuple[str, str, int], ...], str, bool]:
    """Fenced blocks (tag, code, first line), the prose around them, and whether one is unclosed."""
    if "```" not in raw and "~~~" not in raw:  # no fence: the whole text is prose
        return (), raw, False
    blocks: list[tuple[str, str, int]] = []
    prose: list[str] = []
    position = 0
    opening: re.Match[str] | None = None
    for match in _FENCE.finditer(raw):
        if opening is None:
            prose.append(raw[position : match.start()])
            opening = match
        elif match.group(1) == opening.group(1) and not match.group(2):
            code = raw[opening.end() + 1 : match.start()]
            line = raw.count("\n", 0, opening.start()) + 2
            blocks.append((opening.group(2).lower(), code, line))
            opening = None
        else:
            continue
        position = match.end()
    unclosed = opening is not None
    if opening is None:
        prose.append(raw[position:])
    return tuple(blocks), "".join(prose), unclosed


def find(pattern: Pattern, text: Text) -> list[str]:
    """The matches of ``pattern`` in ``text`` (none without a needle of it in the text)."""
    if pattern.needles and not any(needle in text.lowered for needle in pattern.needles):
        return []
    return [
        m.group(0)
        for m in pattern.regex.finditer(text.raw)
        if pattern.accept is None or pattern.accept(m)
    ]


def may_match(rule: rules.Rule, text: Text) -> bool:
    """Whether ``text`` holds one of the rule's needles (a rule without needles always may)."""
    return not rule.needles or any(needle in text.lowered for needle in rule.needles)


def quote(text: str, limit: int = 80) -> str:
    """``text`` on one line, at most ``limit`` characters, quoted (``repr``)."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")
