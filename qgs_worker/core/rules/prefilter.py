r"""A literal pre-scan that finds where a rule's patterns can start, so they run only there.

Python's ``re`` tries a case-insensitive pattern that begins with ``\b`` or a lookbehind at every
position of the text (no literal prefix to skip to): about 25 ns a character for even the
simplest pattern, so a rule of a dozen patterns costs ~30 ms per 100 KB of prose before any of
them matches. Most patterns begin with a word from a short list ("ignore|disregard|forget...",
"rate|score|grade|mark", 评审|评委...). ``start_words`` reads that list from the pattern's parse
tree; ``Prefilter`` registers it with a shared pre-scan (``prescan``: two passes over the
lower-cased text find where every registered pattern's start words begin, for all the rules of
a scan at once), and ``Prefilter.finditer`` tries the full pattern with
``pattern.match(text, position)`` at those positions only. A pattern without start words may
still have an ``anchor``, a literal at a fixed distance from its start.

Why the matches are the same as ``pattern.finditer(text)``'s (the tests check it on the corpus,
adversarial texts and random ones):

- every match of the pattern begins with one of its start words, compared after ``normalise``
  (``re.IGNORECASE`` folds ``K`` and ``K``, ``ſ`` and ``s``, ``ı`` and ``İ`` with ``i``, and
  ``normalise`` folds them the same way), so no position the pattern matches at is skipped;
- ``pattern.match(text, pos)`` sees the whole string (``\b``, ``\A`` and lookbehinds look before
  ``pos``), so it matches at ``pos`` exactly when ``finditer``'s search would;
- a start word is never empty, so every match is non-empty, and the next search starts at the
  previous match's end, as in ``finditer``.

A pattern whose start cannot be read (it may begin with ``\s``, ``\w``, ``.``, or match the empty
string) has no start words: it runs as a plain ``finditer``. A match object's ``pos`` is the
position it was tried at (``re``'s own is where the search started); nothing here reads it.
Pure: stdlib only.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from qgs_worker.core.rules.prescan import OtherWord, Prescan, SlotWords, TokenWord, group

try:  # the parser behind re.compile (Python 3.11+); without it every pattern runs plainly
    _c: Any = importlib.import_module("re._constants")
    _sre_parse: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - older or other Pythons
    _sre_parse = None

__all__ = ["Prefilter", "anchor", "normalise", "slot_words", "start_words", "starts_at_boundary"]

MAX_WORD = 6
"""Start words are cut to this many characters: enough to be rare in prose."""
MAX_WORDS = 300
"""A pattern with more possible starts than this is read only as far as the set stays small."""
MIN_WORD = 2
"""A pattern whose shortest start word is shorter than this runs plainly (one letter is in
every other word of prose: the pre-scan would cost more than it saves), unless that word is a
character other than a letter or digit (``<``, ``[``, ``{``: rare in prose)."""

# The characters ``re.IGNORECASE`` matches to an ASCII letter whose ``str.lower`` is not that
# letter (``re._casefix``; K and K lower-case to k by themselves). İ is also the only character
# whose ``str.lower`` is two characters long, which would shift every position after it.
_FOLD = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"))
# Every character ``\s`` matches (``str.isspace``, all below U+3001) but the newline reads as a
# space, so a pattern's ``\s`` is two characters of its start words (a space or a newline) and
# a lookbehind for a newline (a line start) stays selective.
_SPACES = tuple(c for c in map(chr, range(0x3001)) if c.isspace() and c not in " \n")


def normalise(text: str) -> str | None:
    """``text`` lower-cased as the pre-scan reads it, position for position.

    Returns:
        A string of the same length, or None when ``str.lower`` would change the length (a
        character outside the folds above expands): the caller then scans plainly.
    """
    for char, ascii_char in _FOLD:
        if char in text:
            text = text.replace(char, ascii_char)
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    for space in _SPACES:
        if space in lowered:
            lowered = lowered.replace(space, " ")
    return lowered


def _norm_char(code: int) -> str | None:
    """The character a literal of a pattern is compared as, or None when it cannot be."""
    char = chr(code)
    if char.isspace():
        return "\n" if char == "\n" else " "
    if char.isascii():
        return char.lower()
    if char in "\u0130\u0131\u017f":
        return None
    # Uncased characters (CJK, punctuation, symbols, digits) are themselves in any case.
    category = unicodedata.category(char)
    if category == "Lo" or category[0] in "PSN":
        return char if char.lower() == char == char.upper() else None
    return None


Word = tuple[str, str]
r"""A start word: the characters just before the match (from a lookbehind such as ``(?<=\n)``,
often empty) and its first characters, both as ``normalise`` reads them."""
AT_START: Word = ("\x00", "")
r"""The word of a match that can only begin the text (``\A``): position 0 is tried for it."""


def _extend(open_: set[Word], chars: Sequence[str], closed: set[Word]) -> set[Word]:
    if len(open_) * len(chars) > MAX_WORDS:  # too many: the words end here
        closed |= open_
        return set()
    grown: set[Word] = set()
    for before, word in open_:
        for char in chars:
            (closed if len(word) + 1 >= MAX_WORD else grown).add((before, word + char))
    return grown


def _at(op: object, av: object, open_: set[Word], multiline: bool) -> set[Word]:
    r"""Read a zero-width item: a lookbehind or a text start narrows where a fresh word stands.

    Anything else (``\b``, lookaheads, a lookbehind after the first character) is skipped.
    """
    fresh = {w for w in open_ if w == ("", "")}
    if not fresh:
        return open_
    rest = open_ - fresh
    if op is _c.AT and av is _c.AT_BEGINNING_STRING:
        return rest | {AT_START}
    if op is _c.AT and av is _c.AT_BEGINNING:
        return rest | ({AT_START, ("\n", "")} if multiline else {AT_START})
    if op is _c.ASSERT and av[0] == -1:  # type: ignore[index]
        strings = _fixed_strings(av[1])  # type: ignore[index]
        if strings is not None:
            return rest | {(b, "") for b in strings}
    return open_


def _fixed_strings(items: object) -> set[str] | None:
    """Every string a lookbehind's content matches, when few and known, else None."""
    words: set[Word] = {("", "")}
    closed: set[Word] = set()
    try:
        words = _sequence(items, words, closed, multiline=False, whole=True)
    except _Unknown:
        return None
    if closed or not words or any(before for before, _ in words):
        return None
    return {after for _, after in words}


class _Unknown(Exception):
    """A lookbehind's content that is not a short list of strings."""


def _sequence(
    items: object, open_: set[Word], closed: set[Word], *, multiline: bool, whole: bool = False
) -> set[Word]:
    """Read parse-tree ``items`` in order; return the words still open (extendable).

    ``whole``: every string must be read to its end (a lookbehind's content): raise
    ``_Unknown`` instead of ending the words early.
    """
    for op, av in items:  # type: ignore[attr-defined]
        if not open_:
            return open_
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            if not whole:
                open_ = _at(op, av, open_, multiline)
            continue  # zero width: no character of the match
        if op is _c.LITERAL:
            char = _norm_char(av)
            if char is None:
                break
            chars = [char]
        elif op is _c.IN:
            found = _class_chars(av)
            if found is None:
                break
            chars = found
        elif op is _c.SUBPATTERN:
            open_ = _sequence(av[-1], open_, closed, multiline=multiline, whole=whole)
            continue
        elif op is _c.ATOMIC_GROUP:
            open_ = _sequence(av, open_, closed, multiline=multiline, whole=whole)
            continue
        elif op is _c.BRANCH:
            grown: set[Word] = set()
            for alternative in av[1]:
                grown |= _sequence(
                    alternative, set(open_), closed, multiline=multiline, whole=whole
                )
            if len(grown) > MAX_WORDS:  # too many: the words end before the alternatives
                break
            open_ = grown
            continue
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and not whole:
            low, high, sub = av
            once = _sequence(sub, set(open_), closed, multiline=multiline)
            if low == high == 1:
                open_ = once
            elif low == 0 and high == 1:  # optional: with it or without it
                open_ = open_ | once
            else:  # one pass through the repeat, then the words end (what follows is unknown)
                closed |= once
                if low >= 1:
                    open_ = set()
            continue
        else:  # \w, ., a negated class, a back-reference...: the words end here
            break
        if whole and len(open_) * len(chars) > MAX_WORDS:
            raise _Unknown
        open_ = _extend(open_, chars, closed)
    else:
        return open_
    if whole:
        raise _Unknown
    closed |= open_
    return set()


def _class_chars(items: object) -> list[str] | None:
    chars: set[str] = set()
    for op, av in items:  # type: ignore[attr-defined]
        if op is _c.CATEGORY and av is _c.CATEGORY_SPACE:
            chars.update((" ", "\n"))
            continue
        if op is _c.LITERAL:
            codes = [av]
        elif op is _c.RANGE and av[1] - av[0] < 16:
            codes = list(range(av[0], av[1] + 1))
        else:  # a category, a negation, a wide range
            return None
        for code in codes:
            char = _norm_char(code)
            if char is None:
                return None
            chars.add(char)
    return sorted(chars)


def _selective(word: Word) -> bool:
    """Whether a word is rarer in prose than a letter.

    Two characters or more, or one sign (``<``, a newline, a CJK character); not a lone
    letter, digit or space.
    """
    whole = word[0] + word[1]
    if word[0] == AT_START[0] or len(whole) >= MIN_WORD:
        return True
    return len(whole) == 1 and (not whole.isascii() or not (whole.isalnum() or whole == " "))


def start_words(pattern: re.Pattern[str]) -> frozenset[Word] | None:
    r"""The words one of which begins every match of ``pattern`` (after ``normalise``).

    Returns:
        ``(before, first)`` pairs: what must stand just before the match (often nothing) and
        its first characters (at most ``MAX_WORD``), or ``AT_START``; None when some match may
        begin otherwise (with a class such as ``\w`` or ``.``, or with nothing), or when a
        word would be too short to be rarer than a letter of prose.
    """
    if _sre_parse is None:
        return None
    try:
        tree = _sre_parse.parse(pattern.pattern, pattern.flags)
        multiline = bool(tree.state.flags & re.MULTILINE)
        closed: set[Word] = set()
        closed |= _sequence(tree, {("", "")}, closed, multiline=multiline)
    except (RecursionError, re.error, _Unknown):
        return None
    if not closed or not all(map(_selective, closed)):
        return None
    # A word that extends another is redundant: the shorter one already marks the position.
    # (Its proper prefixes are looked up, not every other word compared: thousands of words.)
    return frozenset(
        (b, w) for b, w in closed if not any((b, w[:n]) in closed for n in range(len(w)))
    )


MIN_ANCHOR = 4
"""The shortest literal ``anchor`` reads: rarer in prose than a start word of two characters."""


def anchor(pattern: re.Pattern[str]) -> tuple[str, int] | None:
    r"""A literal every match holds at a fixed distance from its start (no start words needed).

    ``(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{30}EXAMPLEKEY`` has ``examplekey`` at 30: the pattern is
    tried 30 characters before each ``examplekey`` of the text, not at every position.

    Returns:
        ``(literal, offset)``, the literal as ``normalise`` reads it (at least ``MIN_ANCHOR``
        characters); None when what comes before the first such literal has no fixed width.
    """
    if _sre_parse is None:
        return None
    try:
        tree = _sre_parse.parse(pattern.pattern, pattern.flags)
    except (RecursionError, re.error):
        return None
    offset, run = 0, ""
    for op, av in tree.data:
        char = _norm_char(av) if op is _c.LITERAL else None
        if char is not None:
            run += char
            continue
        if len(run) >= MIN_ANCHOR:
            return run, offset
        low, high = _sre_parse.SubPattern(tree.state, [(op, av)]).getwidth()
        if low != high:
            return None
        offset, run = offset + len(run) + low, ""
    return (run, offset) if len(run) >= MIN_ANCHOR else None


_WORD_CHAR = re.compile(r"\w")
_WORD_RUN = re.compile(r"\w+")


def _boundary_first(items: object) -> bool | None:
    r"""Whether ``\b`` stands before the first character the items consume.

    Returns:
        True when it does on every path, False when it may not, None when the items consume
        nothing and assert no ``\b`` (what follows them decides).
    """
    for op, av in items:  # type: ignore[attr-defined]
        if op is _c.AT:
            if av is _c.AT_BOUNDARY:
                return True
            continue  # another zero-width test at the same position
        if op in (_c.ASSERT, _c.ASSERT_NOT):
            continue  # a lookaround: zero width
        if op is _c.SUBPATTERN:
            if av[1] & (re.ASCII | re.LOCALE):  # (?a:...): another \b
                return False
            inner = _boundary_first(av[-1])
            if inner is None:
                continue
            return inner
        if op is _c.BRANCH:
            return all(_boundary_first(alternative) is True for alternative in av[1])
        return False
    return None


def starts_at_boundary(pattern: re.Pattern[str]) -> bool:
    r"""Whether every match of ``pattern`` begins at a ``\b`` (Unicode word characters).

    False when it cannot be read, or its ``\b`` is the ASCII or locale one (``re.ASCII``): the
    pre-scan's tokens are Unicode runs of word characters.
    """
    if _sre_parse is None or pattern.flags & (re.ASCII | re.LOCALE):
        return False
    try:
        return _boundary_first(_sre_parse.parse(pattern.pattern, pattern.flags)) is True
    except (RecursionError, re.error):
        return False


def slot_words(pattern: re.Pattern[str], words: frozenset[Word]) -> SlotWords:
    r"""``words`` (``start_words(pattern)``) split for the shared pre-scan's two passes.

    A word that begins with a word character where the character before is not one (``\b``
    before the pattern, or a ``before`` ending with a non-word character) is a token word; any
    other is searched at every position. The word of ``\A`` becomes ``at_start``: position 0 is
    tried for that pattern (for the others, 0 only where a word stands, like any position).
    """
    at_boundary = starts_at_boundary(pattern)
    tokens: list[TokenWord] = []
    others: list[OtherWord] = []
    at_start = False
    for before, after in sorted(words):
        if before.startswith(AT_START[0]):
            at_start = True
            continue
        leads = after and _WORD_CHAR.match(after[0]) is not None
        if leads and (at_boundary or (before and _WORD_CHAR.match(before[-1]) is None)):
            head = _WORD_RUN.match(after).group()  # type: ignore[union-attr]
            tokens.append((head, before, len(head) < len(after)))
        else:
            others.append((before + after, len(before)))
    return SlotWords(
        tokens=tuple(dict.fromkeys(tokens)), others=tuple(others), at_start=at_start
    )


class Prefilter:
    """The pre-scan of one rule's patterns: a slot of a shared pre-scan per pattern.

    Args:
        patterns: The rule's compiled patterns; each with start words is pre-scanned, the others
            run plainly.
        shared: The pre-scan to register with (``prescan.group``: the rules table registers each
            rule by where it is checked); the ``"default"`` group when None.
    """

    def __init__(self, patterns: Sequence[re.Pattern[str]], shared: Prescan | None = None) -> None:
        shared = shared if shared is not None else group("default")
        self.words: tuple[frozenset[Word] | None, ...] = tuple(start_words(p) for p in patterns)
        self._shared = shared
        self.slots: tuple[int | None, ...] = tuple(
            None if w is None else shared.add(slot_words(p, w))
            for p, w in zip(patterns, self.words, strict=True)
        )
        self.anchors: tuple[tuple[str, int] | None, ...] = tuple(
            anchor(p) if w is None else None for p, w in zip(patterns, self.words, strict=True)
        )

    @property
    def useful(self) -> bool:
        """Whether any pattern of the rule is pre-scanned."""
        return any(s is not None for s in self.slots) or any(self.anchors)

    def starts(self, lowered: str) -> list[list[int] | None]:
        r"""For each pattern, the positions of ``lowered`` (``normalise``'s) where it may start.

        Position 0 is among them when a match may begin the text with no word (``\A``). For a
        pattern without start words, its ``anchor``'s occurrences less its offset; None when it
        has neither (it runs at every position). The lists are shared: do not change them.
        """
        found = self._shared.positions_of(lowered, self.slots)
        return [
            at if slot is not None else _anchored(lowered, a)
            for at, slot, a in zip(found, self.slots, self.anchors, strict=True)
        ]

    def finditer(
        self, pattern: re.Pattern[str], text: str, starts: list[int] | None
    ) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)``, tried only at ``starts`` (all positions when None)."""
        if starts is None:
            yield from pattern.finditer(text)
            return
        yield from matches_at(pattern, text, starts)


def matches_at(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``'s matches, tried at ``starts`` only (ascending positions).

    A start inside the previous match is skipped, as ``finditer`` does not overlap its matches.
    """
    end = 0
    for pos in starts:
        if pos < end:
            continue
        match = pattern.match(text, pos)
        if match is not None:
            end = match.end()
            yield match


def _anchored(lowered: str, found: tuple[str, int] | None) -> list[int] | None:
    """Where a pattern with this ``anchor`` may start: each occurrence less the offset."""
    if found is None:
        return None
    literal, offset = found
    starts = []
    at = lowered.find(literal, offset)
    while at >= 0:
        starts.append(at - offset)
        at = lowered.find(literal, at + 1)
    return starts
