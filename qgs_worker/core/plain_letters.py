r"""Steps 1 and 2 of the plain view (``plain_text``): invisible characters, look-alike letters.

Each step returns its edits of a text, ``(start, end, replacement)`` in order; ``plain_text``
applies them and keeps where each character came from.

1. Invisible characters: format characters (zero-width space / joiner / non-joiner, word joiner,
   BOM, soft hyphen, bidirectional controls) removed; combining marks and variation selectors
   removed after a Latin letter (``i̸g̸n̸o̸r̸e̸``; an emoji keeps its selector, an accent on
   another script stays); Unicode tag characters (U+E0020-E007E) read as the ASCII they copy.
2. Look-alike letters (``lookalikes`` says where each table comes from): compatibility forms
   read as ASCII everywhere; a letter of another script whose confusables prototype is Latin
   read as that letter only inside a word with Latin letters, or as a whole word on a line where
   Latin words outnumber words of another script. Full-width signs read as ASCII in a text
   with full-width letters.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from qgs_worker.core import lookalikes

__all__ = ["Edit", "invisible_edits", "letter_edits"]

Edit = tuple[int, int, str]
"""(start, end, replacement) over a step's input: non-overlapping, in order."""


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


def invisible_edits(text: str) -> list[Edit]:
    """Step 1's edits: invisible characters removed, tag characters read (the module's list)."""
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


def letter_edits(text: str) -> list[Edit]:
    """Step 2's edits: each look-alike letter as the ASCII it stands for, where it applies.

    A text without a character of either table costs one search of a character class.
    """
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
