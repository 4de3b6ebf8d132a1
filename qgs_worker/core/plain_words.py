"""Steps 4 and 5 of the plain view (``plain_text``): spaced-out letters and leetspeak.

4. Spaced-out letters joined: four or more single characters split by spaces
   (``i g n o r e``, ``r m   - r f   /``), or three or more letters split by one sign
   (``i.g.n.o.r.e``, ``i-g-n-o-r-e``; two letters only beside a longer such run); a gap other
   than the run's narrowest is a word break, and a run of 8+ letters with none is cut into
   the words of ``lookalikes.vocabulary`` where that reads better.
5. Leetspeak read as letters inside a word that mixes letters with digits or signs
   (``1gn0r3``, ``pr0mpt``, ``$ystem``, ``7h3``): a reading that is a known word is taken;
   another only for a word of three letters and two signs or more, without three digits in a
   row, that is no hex string (not ``s3fs``, ``sha256``, ``python3``, ``i18n``); never in an
   identifier in mixed case (``S3Client``), a path, an address, a file name or a shell variable
   (``$HOME``).

Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections import Counter

from qgs_worker.core import lookalikes
from qgs_worker.core.plain_letters import Edit

__all__ = ["leet_edits", "may_be_leet", "may_be_spaced", "spaced_edits"]


# --- step 4: spaced-out letters -----------------------------------------------------------------
# Single characters split by spaces (``r m   - r f   /``: any sign, digits too), or letters
# split by one sign (``i.g.n.o.r.e``, ``t.o``: letters only, so ``1.2.3.4`` stays; two letters
# only in a text with a longer such run).
# the run's last character may be followed by a closing quote or bracket (``"... m a t h"}``)
_SPACED = re.compile(r"(?<!\S)\S(?:[ \t]{1,4}\S(?=[\s\"'`)\]},;]|$)){3,400}")  # a longer run: in pieces
_SIGNED = re.compile(r"(?<![^\W_])[A-Za-z](?:[._*\-·|/+~][A-Za-z](?![^\W_])){1,400}")
_ALNUM = re.compile(r"[A-Za-z0-9]")


_SPACED_HINT = re.compile(r"[ \t]\S[ \t]+\S[ \t]")  # cheap: starts with a class
_SIGNED_HINT = re.compile(r"[._*\-·|/+~][A-Za-z][._*\-·|/+~][A-Za-z]")


def may_be_spaced(text: str) -> bool:
    """Whether ``text`` may hold a spaced-out or sign-split run (one or two fast searches)."""
    return (
        text[1:2] in (" ", "\t")
        or _SPACED_HINT.search(text) is not None
        or _SIGNED_HINT.search(text) is not None
    )


def may_be_leet(text: str) -> bool:
    """Whether ``text`` has a digit or sign beside a letter (one fast search)."""
    return _LEET_HINT.search(text) is not None


def spaced_edits(text: str) -> list[Edit]:
    """Step 4's edits: each spaced-out or sign-split run as its words."""
    edits: list[Edit] = []
    for match in _runs(_SPACED, _SPACED_HINT, text):
        run = match.group()
        chars = run.split()
        if len(_ALNUM.findall(run)) < 4 or sum(c.isalpha() for c in chars) < 2:
            continue  # "a + b = c", "| | |": signs, not a word
        gaps = re.findall(r"[ \t]+", run)
        joined = _words(chars, gaps)
        if joined != run:
            edits.append((match.start(), match.end(), joined))
    signed = [
        m
        for m in _runs(_SIGNED, _SIGNED_HINT, text)
        if not any(s <= m.start() < e for s, e, _ in edits)
    ]
    if not any(len(m.group()) >= 5 for m in signed):
        signed = []  # "e.g.", "a-b": two letters are a word split by signs only beside longer ones
    for match in signed:
        run = match.group()
        gaps = re.findall(r"[^A-Za-z]", run)
        edits.append((match.start(), match.end(), _words(re.findall(r"[A-Za-z]", run), gaps)))
    return sorted(edits)


RUN_WINDOW_CHARS = 400
"""How far past a hint ``_runs`` reads the full pattern (a quarter of it before): a longer run
has more hints inside, and their windows join."""


def _runs(pattern: re.Pattern[str], hint: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """``pattern``'s matches, read only in windows around what ``hint`` (a fast pattern) finds.

    Text without a hint (most prose) costs one search of the hint; a text with some (a path,
    ``a = b``) the full pattern over ``RUN_WINDOW_CHARS`` around each, not over all of it.
    """
    windows: list[list[int]] = []
    if text[1:2] in (" ", "\t"):  # a run at the very start has no hint
        windows.append([0, min(len(text), RUN_WINDOW_CHARS)])
    for found in hint.finditer(text):
        low = max(0, found.start() - RUN_WINDOW_CHARS // 4)
        high = min(len(text), found.end() + RUN_WINDOW_CHARS)
        if windows and low <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], high)
        else:
            windows.append([low, high])
    matches: list[re.Match[str]] = []
    for low, high in windows:
        for match in pattern.finditer(text, low, high):
            if not matches or match.start() >= matches[-1].end():
                matches.append(match)
    return matches


def _words(chars: list[str], gaps: list[str]) -> str:
    """Characters split by ``gaps`` as words: the narrowest, most common gap joins, others part."""
    counts = Counter(gaps)
    common = min(counts, key=lambda g: (len(g), -counts[g]))
    words: list[list[str]] = [[chars[0]]]
    for gap, char in zip(gaps, chars[1:], strict=True):
        if gap != common:
            words.append([])
        words[-1].append(char)
    return " ".join(_segment("".join(w)) for w in words)


_LONG_LETTERS = re.compile(r"[A-Za-z]{8,64}(?![A-Za-z])")  # longer: left whole (linear cost)


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
_TOKEN_REST = re.compile(r"[\w@$!]*")
_LEET = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", "$": "s"}
_I_OR_L = "1!"
_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]+")


def leet_edits(text: str) -> list[Edit]:
    """Step 5's edits: each leetspeak word as letters (the module's conditions)."""
    edits: list[Edit] = []
    end = 0
    for hint in _LEET_HINT.finditer(text):
        if hint.start() < end:
            continue  # inside the word just read
        # whatever this hint gives, the rest of its token is read: a long one is no word
        end = _TOKEN_REST.match(text, hint.start()).end()  # type: ignore[union-attr]
        limit = min(len(text), hint.end() + 16)  # a word is at most 15 characters
        match = _LEET_WORD.search(text, max(0, hint.start() - 16), limit)
        while match is not None and match.end() <= hint.start():
            match = _LEET_WORD.search(text, match.end(), limit)
        if match is None or match.start() > hint.start() or match.end() == limit < len(text):
            continue
        word = match.group().rstrip("!")
        read = _unleet(word)
        if read is not None and read != word:
            edits.append((match.start(), match.start() + len(word), read))
    return edits


def _unleet(word: str) -> str | None:
    """The word with its digits and signs read as letters, or None where it is no leetspeak.

    A reading that is a known word (``7h3``, ``r473``, ``1n57ruc710n5``) is taken; another only
    for a word with three letters or more, two signs or more, no three digits in a row, and no
    hex string (``5ubm15510n``; not ``s3fs``, ``sha256``, ``i18n``, ``c0ffee``).
    """
    letters = sum(c.isalpha() for c in word)
    signs = sum(c in _LEET or c in _I_OR_L for c in word)
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
    if read.lower() not in lookalikes.vocabulary() and (
        letters < 3 or signs < 2 or _DIGITS3.search(word) or _HEX.fullmatch(word)
    ):
        return None  # s3fs, armv7l, i18n, c0ffee: one sign in a name is no leetspeak
    return read.upper() if cased.isupper() else read


_DIGITS3 = re.compile(r"\d{3}")


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
