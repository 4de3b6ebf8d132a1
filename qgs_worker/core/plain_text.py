r"""The plain view of a text: what obfuscation cannot change, for the rules, the model and the data flow.

A reader (a person, or the model an agent runs on) reads ``іgnоrе``, ``𝐢𝐠𝐧𝐨𝐫𝐞``,
``i g n o r e``, ``1gn0r3`` and ``aWdub3Jl`` as "ignore"; the detectors read text as written.
``plain(text)`` returns the text as read, in these steps (each one only where it applies):

1. **invisible characters** removed: format characters (zero-width space / joiner / non-joiner,
   word joiner, BOM, soft hyphen, bidirectional controls), and combining marks and variation
   selectors on a Latin letter (``i̸g̸n̸o̸r̸e̸``; an emoji keeps its selector); Unicode tag characters (U+E0020-E007E, an
   invisible copy of ASCII) read as the ASCII they copy.
2. **look-alike letters** (``lookalikes``, which says where each table comes from): compatibility
   forms (NFKC: full-width, mathematical, circled letters) read as ASCII everywhere; a letter of
   another script whose Unicode confusables prototype (UTS #39) is Latin read as that letter only
   where another script is mixed into Latin: inside a word that also has Latin letters
   (``іgnоrе``), or as a whole word on a line where Latin words outnumber words of another
   script (``bash -с``). A Russian, Greek or Chinese sentence stays itself. Full-width
   punctuation reads as ASCII in a text that uses full-width letters.
3. **encoded fragments** (``plain_decode``): base64, hex and rot13 fragments that decode to
   mostly printable words, appended to the view after a blank line.
4. **spaced-out letters** joined: four or more single letters split by spaces or one sign
   (``i g n o r e``, ``i.g.n.o.r.e``, ``i-g-n-o-r-e``); a wider gap is a word break, and a run
   with none is cut into the words of ``lookalikes.vocabulary`` where they cover it.
5. **leetspeak** read as letters inside a word that mixes letters with digits or signs
   (``1gn0r3``, ``pr0mpt``, ``$ystem``, ``@dmin``), not in numbers, versions (``sha256``,
   ``python3``), hex strings, addresses or words of 16 characters or more.

Cheap: an ASCII text without a digit or sign inside a word, a spaced-out run or a base64-,
hex- or rot13-looking fragment is returned as it is after a few C-level regex searches (a few
µs per KB); ``plain`` returns ``PlainText(text)`` with ``text`` itself when nothing changes.
Where each character of the view comes from is kept (``PlainText.in_original``), so evidence
quotes the text as written.
Pure: stdlib only (``lookalikes`` reads a data package's file).
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from qgs_worker.core import lookalikes, plain_decode

__all__ = ["PlainText", "forget", "plain", "plain_text"]

Edit = tuple[int, int, str]
"""(start, end, replacement) over a step's input: non-overlapping, in order."""
Origin = tuple[list[int], list[int]]
"""A step's output offsets where a segment starts, and the input offsets they come from."""

LOOK_ALIKE = "look-alike letters"
INVISIBLE = "invisible characters"
SPACED = "spaced-out letters"
LEET = "leetspeak"


@dataclass(frozen=True, slots=True)
class PlainText:
    """A text's plain view and where its characters come from.

    Attributes:
        text: The view (the original object itself when nothing changed).
        original: The text as written.
        undone: What was undone, in the module's step order (``"look-alike letters"``...).
        main_chars: How much of ``text`` is the original's own view; decoded fragments follow.
        fragments: Each appended fragment: (view start, view end, original start, original
            end, what it was: ``"base64"``, ``"hex"``, ``"rot13"``).
    """

    text: str
    original: str = ""
    undone: tuple[str, ...] = ()
    main_chars: int = 0
    fragments: tuple[tuple[int, int, int, int, str], ...] = ()
    _origins: tuple[Origin, ...] = field(default=(), repr=False)
    _focus: PlainText | None = field(default=None, repr=False)

    @property
    def focus(self) -> PlainText:
        """The view cut to the lines around its changes, and its decoded fragments.

        What the rules and the model read a second time: a long text with one changed word is
        not scanned twice whole. The whole view when the changes are spread over most of it.
        """
        return self if self._focus is None else self._focus

    @property
    def changed(self) -> bool:
        """Whether the view differs from the text as written."""
        return self.text is not self.original and self.text != self.original

    def in_original(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original that the view's ``[start, end)`` comes from."""
        for v_start, v_end, o_start, o_end, _ in self.fragments:
            if v_start <= start < v_end:
                return o_start, o_end
        start, end = min(start, self.main_chars), min(end, self.main_chars)
        return _back_span(self._origins, start, end, len(self.original))

    def why(self, start: int) -> str:
        """What was undone for the view's text at ``start``: "decoding a base64 fragment"..."""
        for v_start, v_end, *_, kind in self.fragments:
            if v_start <= start < v_end:
                return f"decoding a {kind} fragment"
        kinds = [u for u in self.undone if u in (LOOK_ALIKE, INVISIBLE, SPACED, LEET)]
        return "undoing " + (", ".join(kinds) or LOOK_ALIKE)


def plain_text(text: str) -> str:
    """The plain view's text (``plain(text).text``): ``text`` itself when nothing changes."""
    return plain(text).text


def plain(text: str) -> PlainText:
    """The plain view of ``text`` (memoized for the last 64 texts; the module's steps).

    Args:
        text: Any text, any length.

    Returns:
        Its ``PlainText``: ``.text is text`` and ``.changed`` False when nothing was undone.
        Never raises.
    """
    found = _plain(text)
    if found.changed or found.text is text:
        return found
    return PlainText(text, text, main_chars=len(text))  # an equal text's memo: this object


def forget() -> None:
    """Drop the memoized views (a benchmark's repetitions each measure a new text's cost)."""
    _plain.cache_clear()


@lru_cache(maxsize=64)
def _plain(text: str) -> PlainText:
    origins: list[Origin] = []
    undone: list[str] = []
    dirty: list[tuple[int, int]] = []  # the view's changed spans, in the current view's offsets
    view = text

    def step(name: str, edits: Sequence[Edit]) -> None:
        nonlocal view, dirty
        if edits:
            view, origin = _apply(view, edits)
            origins.append(origin)
            undone.append(name)
            view_at = origin[0]
            dirty = [(_forward(origin, s), _forward(origin, e)) for s, e in dirty]
            dirty += [(view_at[2 * k + 1], view_at[2 * k + 2]) for k in range(len(edits))]

    if not text.isascii():
        step(INVISIBLE, _invisible_edits(view))
        step(LOOK_ALIKE, _letter_edits(view))
    found = plain_decode.fragments(view)  # before leetspeak can touch a base64 run
    decoded_in = tuple(origins)  # the steps the fragments' offsets went through
    step(SPACED, _spaced_edits(view))
    step(LEET, _leet_edits(view))
    if not undone and not found:
        return PlainText(text, text, main_chars=len(text))
    decoded = [
        (_plain(fragment).text, *_back_span(decoded_in, start, end, len(text)), kind)
        for start, end, kind, fragment in found
    ]
    undone += [f"{kind} fragment" for *_, kind in decoded]
    whole = _with_fragments(view, text, tuple(undone), tuple(origins), decoded)
    gaps = _gaps(view, dirty)
    if not gaps:
        return whole
    focus_view, focus_origin = _apply(view, gaps)
    focus = _with_fragments(focus_view, text, tuple(undone), (*origins, focus_origin), decoded)
    return dataclasses.replace(whole, _focus=focus)


def _with_fragments(
    view: str,
    text: str,
    undone: tuple[str, ...],
    origins: tuple[Origin, ...],
    decoded: list[tuple[str, int, int, str]],
) -> PlainText:
    """``view`` with each decoded fragment appended after a blank line."""
    fragments: list[tuple[int, int, int, int, str]] = []
    pieces = [view]
    length = len(view)
    for readable, o_start, o_end, kind in decoded:
        pieces.append("\n\n" + readable)
        fragments.append((length + 2, length + 2 + len(readable), o_start, o_end, kind))
        length += 2 + len(readable)
    return PlainText("".join(pieces), text, undone, len(view), tuple(fragments), origins)


FOCUS_CONTEXT_CHARS = 600
"""How much of the view around each change ``PlainText.focus`` keeps, each side (then to the
line's end, at most 200 more): the rules' and the model's passages are a sentence to a
paragraph, so what they find in the view lies this close to a change."""


def _gaps(view: str, dirty: list[tuple[int, int]]) -> list[Edit]:
    """The stretches of ``view`` far from every change, each as a blank line (``focus``)."""
    kept: list[tuple[int, int]] = []
    for start, end in sorted(dirty):
        low = max(0, start - FOCUS_CONTEXT_CHARS)
        cut = view.rfind("\n", max(0, low - 200), low)
        low = 0 if low == 0 else (cut + 1 if cut >= 0 else low)
        high = min(len(view), end + FOCUS_CONTEXT_CHARS)
        cut = view.find("\n", high, high + 200)
        high = len(view) if high == len(view) else (cut if cut >= 0 else high)
        if kept and low <= kept[-1][1]:
            kept[-1] = (kept[-1][0], max(high, kept[-1][1]))
        else:
            kept.append((low, high))
    if sum(e - s for s, e in kept) > len(view) // 2:
        return []  # most of the view: the whole of it
    gaps: list[Edit] = []
    pos = 0
    for start, end in kept:
        if start > pos:
            gaps.append((pos, start, "\n\n"))
        pos = end
    if pos < len(view):
        gaps.append((pos, len(view), "\n\n"))
    return gaps


# --- offsets ------------------------------------------------------------------------------------
def _apply(text: str, edits: Sequence[Edit]) -> tuple[str, Origin]:
    pieces: list[str] = []
    view_at, value_at = [0], [0]
    pos = length = 0
    for start, end, replacement in edits:
        pieces.append(text[pos:start])
        length += start - pos
        view_at.append(length)
        value_at.append(start)
        pieces.append(replacement)
        length += len(replacement)
        view_at.append(length)
        value_at.append(end)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces), (view_at, value_at)


def _back(origin: Origin, index: int) -> int:
    view_at, value_at = origin
    segment = bisect.bisect_right(view_at, index) - 1
    found = value_at[segment] + index - view_at[segment]
    if segment + 1 < len(value_at):
        found = min(found, max(value_at[segment], value_at[segment + 1] - 1))
    return found


def _forward(origin: Origin, index: int) -> int:
    """Where the input's ``index`` is in a step's output."""
    view_at, value_at = origin
    segment = bisect.bisect_right(value_at, index) - 1
    found = view_at[segment] + index - value_at[segment]
    if segment + 1 < len(view_at):
        found = min(found, view_at[segment + 1])
    return found


def _back_span(origins: Sequence[Origin], start: int, end: int, size: int) -> tuple[int, int]:
    """A span of the view after ``origins``' steps, back in the original (of ``size`` chars)."""
    first, last = start, max(start, end - 1)
    for origin in reversed(origins):
        first, last = _back(origin, first), _back(origin, last)
    return first, min(size, last + 1) if end > start else first


# --- step 1: invisible characters ---------------------------------------------------------------
# One class for every invisible character (a class is a fast scan): format characters go,
# combining marks and variation selectors go after a Latin letter, tag characters are read.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\U000e0001\U000e007f"
    "\u0300-\u036f\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f"
    "\U000e0100-\U000e01ef\U000e0020-\U000e007e]+"
)
_MARK = re.compile(
    "[\u0300-\u036f\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f"
    "\U000e0100-\U000e01ef]"
)


def _invisible_edits(text: str) -> list[Edit]:
    edits: list[Edit] = []
    for match in _INVISIBLE.finditer(text):
        start = match.start()
        after_letter = start > 0 and text[start - 1].isascii() and text[start - 1].isalpha()
        kept: list[str] = []
        for char in match.group():
            if "\U000e0020" <= char <= "\U000e007e":  # a tag character: invisible ASCII
                kept.append(chr(ord(char) - 0xE0000))
            elif _MARK.match(char) and not after_letter:
                kept.append(char)  # an accent or an emoji's selector, not on a Latin letter
        replacement = "".join(kept)
        if any("\U000e0020" <= c <= "\U000e007e" for c in match.group()):
            replacement = f" {replacement} "
        if replacement != match.group():
            edits.append((start, match.end(), replacement))
    return edits


# --- step 2: look-alike letters -----------------------------------------------------------------
_WORD = re.compile(r"\w+")
_FULL_WIDTH_LETTER = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
_FULL_WIDTH_SIGN = re.compile("[\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff5e\u3000]")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_ASCII_LETTER = re.compile("[A-Za-z]")


@lru_cache(maxsize=4)
def _class_of(table: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The characters of a table (``compat`` or both) as a BMP class and an astral class.

    ``re`` checks a BMP class against a bitmap, an astral one range by range: the astral class
    (mathematical letters) runs only on a text that has an astral character.
    """
    chars = (
        sorted(lookalikes.compat())
        if table == "compat"
        else sorted({*lookalikes.compat(), *lookalikes.confusable()})
    )
    classes = []
    for low, high in ((0, 0xFFFF), (0x10000, 0x10FFFF)):
        points = [ord(c) for c in chars if low <= ord(c) <= high]
        ranges: list[list[int]] = []
        for point in points:
            if ranges and ranges[-1][1] == point - 1:
                ranges[-1][1] = point
            else:
                ranges.append([point, point])
        body = "".join(
            re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges
        )
        classes.append(re.compile(f"[{body}]"))
    return classes[0], classes[1]


def _has(table: str, text: str) -> bool:
    bmp, astral = _class_of(table)
    return bmp.search(text) is not None or (
        _ASTRAL.search(text) is not None and astral.search(text) is not None
    )


def _letter_edits(text: str) -> list[Edit]:
    if not _has("both", text):
        return []
    compat, confusable = lookalikes.compat(), lookalikes.confusable()
    edits: list[Edit] = []
    for line in _lines(text):
        start, end = line
        chunk = text[start:end]
        if not ((_ASCII_LETTER.search(chunk) and _has("both", chunk)) or _has("compat", chunk)):
            continue  # no Latin letter for a look-alike to be mixed into, no compatibility form
        words = [(m.start() + start, m.group()) for m in _WORD.finditer(chunk)]
        kinds = [_kind(word, compat, confusable) for _, word in words]
        latin_line = kinds.count("latin") + kinds.count("mixed") > kinds.count("foreign")
        for (at, word), kind in zip(words, kinds, strict=True):
            if kind == "foreign" or (kind == "latin" and not any(c in compat for c in word)):
                continue
            mixed = kind == "mixed" or (kind == "lookalike" and latin_line)
            for offset, char in enumerate(word):
                to = compat.get(char) or (confusable.get(char) if mixed else None)
                if to is not None:
                    edits.append((at + offset, at + offset + 1, to))
    if _FULL_WIDTH_LETTER.search(text):
        edits.extend((m.start(), m.end(), " " if m.group() == "\u3000" else chr(ord(m.group()) - 0xFEE0))
                     for m in _FULL_WIDTH_SIGN.finditer(text))  # fmt: skip
        edits.sort()
    return edits


def _lines(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        spans.append((start, end))
        start = end + 1
    return spans


def _kind(word: str, compat: dict[str, str], confusable: dict[str, str]) -> str:
    """What a word's letters are: ``latin``, ``mixed``, ``lookalike`` or ``foreign``.

    ``latin``: ASCII or compatibility forms; ``mixed``: Latin letters and look-alikes of
    another script; ``lookalike``: only look-alikes; ``foreign``: another script's letters.
    """
    latin = lookalike = False
    for char in word:
        if char.isascii() or char in compat:
            latin = latin or char.isalpha() or char in compat
        elif char in confusable:
            lookalike = True
        elif char.isalpha() and not _is_latin(char):
            return "foreign"
        else:
            latin = True
    if lookalike:
        return "mixed" if latin else "lookalike"
    return "latin"


def _is_latin(char: str) -> bool:
    point = ord(char)
    return (
        point < 0x250
        or 0x1E00 <= point < 0x1F00
        or 0x2C60 <= point < 0x2C80
        or 0xA720 <= point < 0xA800
    )


# --- step 4: spaced-out letters -----------------------------------------------------------------
# Single characters split by spaces (``r m   - r f   /``: any sign, digits too), or letters
# split by one sign (``i.g.n.o.r.e``, ``t.o``: letters only, so ``1.2.3.4`` stays; two letters
# only in a text with a longer such run).
_SPACED = re.compile(r"(?<!\S)\S(?:[ \t]{1,4}\S(?!\S)){3,}")
_SIGNED = re.compile(r"(?<![^\W_])[A-Za-z](?:[._*\-·|/+~][A-Za-z](?![^\W_])){1,}")
_ALNUM = re.compile(r"[A-Za-z0-9]")


_SPACED_HINT = re.compile(r"[ \t]\S[ \t]+\S[ \t]")  # cheap: starts with a class
_SIGNED_HINT = re.compile(r"[._*\-·|/+~][A-Za-z][._*\-·|/+~][A-Za-z]")


def _spaced_edits(text: str) -> list[Edit]:
    edits: list[Edit] = []
    for match in _runs(_SPACED, _SPACED_HINT, text, (-1, 1)):
        run = match.group()
        chars = run.split()
        if len(_ALNUM.findall(run)) < 4 or sum(c.isalpha() for c in chars) < 2:
            continue  # "a + b = c", "| | |": signs, not a word
        gaps = re.findall(r"[ \t]+", run)
        edits.append((match.start(), match.end(), _words(chars, gaps)))
    signed = [
        m
        for m in _runs(_SIGNED, _SIGNED_HINT, text, (-1,))
        if not any(s <= m.start() < e for s, e, _ in edits)
    ]
    if not any(len(m.group()) >= 5 for m in signed):
        signed = []  # "e.g.", "a-b": two letters are a word split by signs only beside longer ones
    for match in signed:
        run = match.group()
        gaps = re.findall(r"[^A-Za-z]", run)
        edits.append((match.start(), match.end(), _words(re.findall(r"[A-Za-z]", run), gaps)))
    return sorted(edits)


def _runs(
    pattern: re.Pattern[str], hint: re.Pattern[str], text: str, offsets: tuple[int, ...]
) -> list[re.Match[str]]:
    """``pattern``'s matches, tried only where ``hint`` (a fast pattern) is found.

    A run starts at one of ``offsets`` from its hint's start (the hint is the run's first few
    characters); hints inside a run already found are skipped. Text without a hint (most
    prose) costs one search of the hint.
    """
    found: list[re.Match[str]] = []
    end = -1
    starts = [0] if text[1:2] in (" ", "\t") else []  # a run at the very start has no hint
    for at in starts + [h.start() for h in hint.finditer(text)]:
        if at < end:
            continue
        for offset in offsets if at else (0,):
            match = pattern.match(text, max(0, at + offset))
            if match is not None:
                found.append(match)
                end = match.end()
                break
    return found


def _words(chars: list[str], gaps: list[str]) -> str:
    """Characters split by ``gaps`` as words: the narrowest, most common gap joins, others part."""
    common = min(gaps, key=lambda g: (len(g), -gaps.count(g)))
    words: list[list[str]] = [[chars[0]]]
    for gap, char in zip(gaps, chars[1:], strict=True):
        if gap != common:
            words.append([])
        words[-1].append(char)
    return " ".join(_segment("".join(w)) for w in words)


_LONG_LETTERS = re.compile(r"[A-Za-z]{8,}")


def _segment(word: str) -> str:
    """Each run of 8+ letters of ``word`` cut into vocabulary words where that reads better.

    A known word costs 1, an unknown piece 3 plus 0.1 a letter: ``ignoreallprevious`` reads as
    three words, ``preserve`` (unknown) stays whole rather than ``p re serve``.
    """
    return _LONG_LETTERS.sub(lambda m: _cut(m.group()), word)


def _cut(letters: str) -> str:
    vocabulary = lookalikes.vocabulary()
    lowered = letters.lower()
    if lowered in vocabulary:
        return letters
    size = len(lowered)
    cost = [0.0] + [float("inf")] * size
    cut = [0] * (size + 1)  # where the last piece ending here starts
    for end in range(1, size + 1):
        for start in range(max(0, end - 24), end):
            piece = 1.0 if lowered[start:end] in vocabulary else 3.0 + 0.1 * (end - start)
            if cost[start] + piece < cost[end]:
                cost[end], cut[end] = cost[start] + piece, start
    pieces: list[str] = []
    end = size
    while end > 0:
        pieces.append(letters[cut[end] : end])
        end = cut[end]
    return " ".join(reversed(pieces))


# --- step 5: leetspeak --------------------------------------------------------------------------
_LEET_WORD = re.compile(r"(?<![\w@$!|.\-/\\:#%&=+])[A-Za-z0-9@$!]{3,15}(?![\w@$|\-/\\#%&=+]|\.\w)")
_LEET_HINT = re.compile(r"[0-9@$!](?:(?<=[A-Za-z].)|(?=[A-Za-z]))")  # a class first: fast
_LEET = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", "$": "s"}
_I_OR_L = "1!"
_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]+")
_VERSION = re.compile(r"[A-Za-z]+[0-9]+|[0-9]+[A-Za-z]{1,2}")


def _leet_edits(text: str) -> list[Edit]:
    edits: list[Edit] = []
    end = 0
    for hint in _LEET_HINT.finditer(text):
        if hint.start() < end:
            continue  # inside the word just read
        limit = min(len(text), hint.end() + 16)  # a word is at most 15 characters
        match = _LEET_WORD.search(text, max(0, hint.start() - 16), limit)
        while match is not None and match.end() <= hint.start():
            match = _LEET_WORD.search(text, match.end(), limit)
        if match is None or match.start() > hint.start() or match.end() == limit < len(text):
            continue
        end = match.end()
        word = match.group().rstrip("!")
        read = _unleet(word)
        if read is not None:
            edits.append((match.start(), match.start() + len(word), read))
    return edits


def _unleet(word: str) -> str | None:
    """The word with its digits and signs read as letters, or None where it is no leetspeak.

    A reading that is a known word (``7h3``, ``r473``, ``1n57ruc710n5``) is taken; another only
    for a word with two letters or more, no four digits in a row, and neither a hex string nor
    a name with a version (``c0ffee``, ``sha256``, ``python3``, ``4th``).
    """
    letters = sum(c.isalpha() for c in word)
    if letters in (0, len(word)) or word[0] in "@!":
        return None
    cased = "".join(c for c in word if c.isalpha())
    if not (cased.islower() or cased.isupper() or (cased[0].isupper() and cased[1:].islower())):
        return None  # S3Client, SOCKS4a: an identifier's own case
    if word[0] == "$" and (word[1:].isupper() or len(word) < 5):  # $HOME, $dir: a variable
        return None
    plain = [_LEET.get(c, c) for c in word]
    ambiguous = [i for i, c in enumerate(word) if c in _I_OR_L]
    if ambiguous:
        plain = _choose(plain, ambiguous)
    read = "".join(plain)
    known = read.lower() in lookalikes.vocabulary()
    if not known and (
        letters < 2 or _DIGITS4.search(word) or _HEX.fullmatch(word) or _VERSION.fullmatch(word)
    ):
        return None
    return read.upper() if cased.isupper() else read


_DIGITS4 = re.compile(r"\d{4}")


def _choose(plain: list[str], ambiguous: list[int]) -> list[str]:
    """``1``, ``|`` and ``!`` as ``i`` or ``l``: the reading that is a known word, else ``i``."""
    vocabulary = lookalikes.vocabulary()
    for mask in range(1 << min(len(ambiguous), 3)):
        trial = list(plain)
        for bit, index in enumerate(ambiguous):
            trial[index] = "l" if mask >> bit & 1 else "i"
        if "".join(trial).lower() in vocabulary:
            return trial
    for index in ambiguous:
        plain[index] = "i"
    return plain
