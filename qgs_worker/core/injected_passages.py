"""The injected passages of a text: the rules' spans and the learned detector's, memoized.

What ``detectors.find_injected_instructions`` returns and ``argscan`` reads: tagged blocks
(``<INFORMATION>...</INFORMATION>``) whole, the sentence-to-paragraph around an override phrase
(the rules table's ``override_instructions``), and the learned detector's passages that overlap
no rule span, each run on to its paragraph's end. YAML line folding and escaped newlines are
unfolded first. The text's plain view (``plain_text``: look-alike letters, spaced-out letters,
leetspeak, encoded fragments) is read too: a passage found only there is given in the text as
written, and ``Injected.undone`` says what was undone. Split out of ``detectors`` along that seam.
Pure: stdlib, numpy (through ``instruction_model``, imported on first use) and pydantic only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from qgs_worker.core.argviews import ZERO_WIDTH
from qgs_worker.core.plain_text import PlainText, plain
from qgs_worker.core.rules import prompt as prompt_rules

if TYPE_CHECKING:  # imported where used: numpy loads only when a text is scored
    from qgs_worker.core import instruction_model

__all__ = ["MODEL_PASSAGE_TAIL_CHARS", "Injected", "injected", "unfold"]

_OVERRIDE = prompt_rules.OVERRIDE  # what the rule spans look for (the table's override rule)


class Injected(NamedTuple):
    """The injected passages of one text: the rules', the learned detector's, and its best score."""

    rules: tuple[str, ...]
    model: tuple[str, ...]  # the model's passages that overlap no rule passage
    model_count: int  # all the model's passages, covered or not
    model_score: float  # the highest score among them; 0.0 when none
    model_best: str  # the passage with that score
    undone: tuple[tuple[str, str], ...] = ()  # (passage, what was undone) for each passage
    # found only in the plain view: ("...", "undoing look-alike letters")

    def why(self, passage: str) -> str:
        """What was undone to find ``passage`` ("" when it was found as written)."""
        return next((why for found, why in self.undone if found == passage), "")


MODEL_PASSAGE_TAIL_CHARS = 300
"""How far past its scoring sentences a learned-detector passage runs to its paragraph's end.

The model's passages are tightened to the sentences that carry the score ("Ignore your previous
instructions."), but the order's body follows in the same paragraph ("Do X with Y instead."):
what follows the opener up to the paragraph's end (a blank line, a new serialized field, at most
this many characters) is the attacker's too, as for a rule passage (``followed.cut_passages``)."""
_PARAGRAPH_END = re.compile(
    r"\n[ \t]*\n|\n[ \t]*(?:-[ \t]+)?(?:[a-z_][a-z0-9_]*|\"[a-z_][a-z0-9_]*\"):(?:[ \t]|$)"
)


def _to_paragraph_end(text: str, passage: instruction_model.Passage) -> instruction_model.Passage:
    from qgs_worker.core.instruction_model import Passage

    limit = min(len(text), passage.end + MODEL_PASSAGE_TAIL_CHARS)
    stop = _PARAGRAPH_END.search(text, passage.end, limit)
    end = stop.start() if stop is not None else limit
    return Passage(passage.start, max(passage.end, end), passage.score)


@lru_cache(maxsize=64)
def injected(text: str) -> Injected:
    """The rules' passages and the learned detector's of ``text`` (memoized for 64 texts).

    Raises:
        ModelArtifactError: The learned detector's artifact is missing or corrupt.
    """
    from qgs_worker.core import instruction_model

    flat = unfold(text)
    rules = _rule_spans(flat)
    found = [_to_paragraph_end(flat, p) for p in instruction_model.passages(flat)]
    undone: list[tuple[str, str]] = []
    view = plain(flat).focus
    if view.changed:  # what the plain view adds: its spans back in the text as written
        more_rules, more_found, notes = _in_view(view, rules, found)
        undone = [(flat[s:e].strip(), why) for (s, e), why in notes]
        rules = sorted(rules + more_rules)
        found = sorted(found + more_found, key=lambda p: (p.start, p.end))
    uncovered = [p for p in found if not any(p.start < e and s < p.end for s, e in rules)]
    return Injected(
        tuple(flat[s:e].strip() for s, e in rules if flat[s:e].strip()),
        tuple(flat[p.start : p.end].strip() for p in uncovered if flat[p.start : p.end].strip()),
        len(found),
        max((p.score for p in found), default=0.0),
        _best_text(flat, found),
        tuple(undone),
    )


def _in_view(
    view: PlainText, rules: list[tuple[int, int]], found: list[instruction_model.Passage]
) -> tuple[
    list[tuple[int, int]], list[instruction_model.Passage], list[tuple[tuple[int, int], str]]
]:
    """The rule spans and model passages of the plain view that overlap none found as written.

    Returns:
        Rule spans and passages in the offsets of the text as written, and each one's span
        with what was undone to find it.
    """
    from qgs_worker.core import instruction_model
    from qgs_worker.core.instruction_model import Passage

    def new(start: int, end: int) -> bool:
        return not any(
            start < e and s < end for s, e in (*rules, *((p.start, p.end) for p in found))
        )

    more_rules: list[tuple[int, int]] = []
    undone: list[tuple[tuple[int, int], str]] = []
    for start, end in _rule_spans(view.text):
        span = view.in_original(start, end)
        if new(*span):
            more_rules.append(span)
            undone.append((span, view.why(start)))
    more_found: list[Passage] = []
    for passage in instruction_model.passages(view.text):
        passage = _to_paragraph_end(view.text, passage)
        span = view.in_original(passage.start, passage.end)
        if new(*span) and not any(span[0] < e and s < span[1] for s, e in more_rules):
            more_found.append(Passage(*span, passage.score))
            undone.append((span, view.why(passage.start)))
    return more_rules, more_found, undone


def _best_text(flat: str, found: list[instruction_model.Passage]) -> str:
    if not found:
        return ""
    best = max(found, key=lambda p: p.score)
    return flat[best.start : best.end].strip()


def _rule_spans(flat: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = [m.span() for m in _TAGGED_BLOCK.finditer(flat)]
    lowered = flat.lower()
    if not any(needle in lowered for needle in _OVERRIDE.needles):
        return spans
    for pattern in _OVERRIDE.patterns:
        for m in pattern.finditer(flat):
            if not any(s <= m.start() < e for s, e in spans):
                spans.append(_passage_span(flat, m.start(), m.end()))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


_TAGGED_BLOCK = re.compile(
    r"<(INFORMATION|INSTRUCTIONS?|IMPORTANT|SYSTEM|ADMIN|PROMPT)>(?:.{0,4000}?)</\1>",
    re.IGNORECASE | re.DOTALL,
)
_YAML_FOLD = re.compile(r"\\\n[ \t]*\\?")
_SENTENCE_START = re.compile(r"[.!?。！？\n\"'{}\[\]]")
_PASSAGE_END = re.compile(r"\n\s*\n|(?<!\\)[\"'](?=\s*[,}\]])")


def unfold(text: str) -> str:
    r"""Undo YAML line folding, escaped newlines and JSON's ``\uXXXX`` escapes; drop zero-width characters.

    YAML folding is ``\\`` + newline + indent + ``\\``. Zero-width characters
    (``argviews.ZERO_WIDTH``) split an order letter by letter for the rules and the model, not
    for the agent that reads it (the break test's ``I\u200dg\u200dn\u200do\u200dr\u200de``).
    """
    if "\\u" in text:  # JSON's ASCII escapes (Python's json.dumps default): "\u0410pprov\u0435"
        text = _JSON_ESCAPE.sub(_unescaped, text)
    return _YAML_FOLD.sub("", text.translate(ZERO_WIDTH)).replace("\\n", "\n")


_JSON_ESCAPE = re.compile(
    r"(?<!\\)(?:\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})|\\u([0-9a-f]{4}))", re.IGNORECASE
)


def _unescaped(match: re.Match[str]) -> str:
    r"""A JSON ``\uXXXX`` escape (or a surrogate pair) as its character.

    Quotes, backslashes and control characters stay escaped, so the JSON still parses.
    """
    high, low, single = match.groups()
    code = (0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00) if high else int(single, 16)
    if code < 0x20 or chr(code) in "\"\\" or 0xD800 <= code <= 0xDFFF:
        return match.group(0)
    return chr(code)


def _passage_span(text: str, start: int, end: int) -> tuple[int, int]:
    """From the start of the trigger's sentence (within 150 chars) to its paragraph's end (500)."""
    floor = max(0, start - 150)
    ends = [m.end() for m in _SENTENCE_START.finditer(text, floor, start)]
    begin = ends[-1] if ends else floor
    stop = _PASSAGE_END.search(text, end, min(len(text), end + 500))
    return begin, stop.start() if stop is not None else min(len(text), end + 500)
