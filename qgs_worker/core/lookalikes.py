"""Where the plain view's letters come from: Unicode's confusables, compatibility forms, a vocabulary.

``plain_text`` reads every character that stands for a Latin letter or digit as that letter.
Its tables, built on first use (once per process, ~30 ms) and only for a text that needs them:

- **compatibility forms** (``compat``): each code point of the blocks that hold Latin letters
  and digits in disguise whose NFKC form (Python's ``unicodedata``, the Unicode Character
  Database of the running Python) is ASCII: full-width ``ｉｇｎｏｒｅ``, mathematical
  alphanumerics ``𝐢𝐠𝐧𝐨𝐫𝐞`` / ``𝔦𝔤𝔫𝔬𝔯𝔢``, circled and parenthesised letters ``ⓘ⒤``,
  super- and subscripts, ligatures ``ﬁ``, Roman numerals ``ⅰ``.
- **confusables** (``confusable``): Unicode's own confusables data (UTS #39, ``confusables.txt``,
  the skeleton's prototypes) as shipped by the ``confusable-homoglyphs`` package (3.3.1, MIT,
  ``confusable_homoglyphs/confusables.json``, generated from unicode.org's
  ``security/latest/confusables.txt``): every single code point outside ASCII whose prototype
  is ASCII letters or digits (``а`` Cyrillic → ``a``, ``ο`` Greek → ``o``, ``Ꭵ`` Cherokee → ``i``,
  ``б`` → ``6``), ~1,400 of them. The package's file lists each pair in both directions: the
  ASCII side of a pair is the prototype (ASCII letters are prototypes in the data, never
  sources of a non-ASCII one). Those NFKC already maps are left to ``compat``. One change:
  a capital whose prototype is ``l`` (Greek Ι, Cyrillic І, Ӏ) reads as ``I``, the letter it
  shows (the skeleton maps Latin ``I`` itself to ``l``).
- **vocabulary** (``vocabulary``): the words the detectors look for, to cut a run of joined
  letters into words and to choose ``i`` or ``l`` for a ``1``: the stop words of
  ``followed_values`` (the Glasgow list, 318 words), the rules table's keywords and the
  words of three letters or more in its patterns' sources (``rules``).

Pure: stdlib only (the data package is read as a file, never imported as code).
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from functools import lru_cache
from importlib import resources

from qgs_worker.errors import ConfigurationError

__all__ = ["DATA_PACKAGE", "compat", "confusable", "vocabulary"]

DATA_PACKAGE = "confusable_homoglyphs"
"""The package whose ``confusables.json`` holds Unicode's confusables (UTS #39)."""

# The blocks where NFKC turns a character into ASCII letters or digits (scanned once, ~6,000
# code points): Latin-1 ordinals and superscripts, phonetic modifiers, super/subscripts,
# letterlike symbols and Roman numerals, enclosed alphanumerics, squared Latin abbreviations,
# ligatures, full-width forms, mathematical alphanumerics, enclosed supplement, segmented digits.
_COMPAT_BLOCKS = (
    (0x00A0, 0x02FF), (0x1D2C, 0x1DBF), (0x2070, 0x209F), (0x2100, 0x218F), (0x2460, 0x24FF),
    (0x3371, 0x33DF), (0xFB00, 0xFB06), (0xFF10, 0xFF5A), (0x1D400, 0x1D7FF),
    (0x1F100, 0x1F1FF), (0x1FBF0, 0x1FBF9),
)  # fmt: skip
_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]+")
_LOCK = threading.Lock()
_ESCAPE = re.compile(r"\\[A-Za-z]|\(\?P?<[^>]*>")  # \b, \s...; a group's name
_WORD = re.compile(r"[A-Za-z]{3,}")


@lru_cache(maxsize=1)
def compat() -> dict[str, str]:
    """Each character whose NFKC form is ASCII letters or digits, with that form."""
    table: dict[str, str] = {}
    for first, last in _COMPAT_BLOCKS:
        for point in range(first, last + 1):
            char = chr(point)
            flat = unicodedata.normalize("NFKC", char)
            if flat != char and _ASCII_ALNUM.fullmatch(flat):
                table[char] = flat
    return table


@lru_cache(maxsize=1)
def confusable() -> dict[str, str]:
    """Each non-ASCII character whose UTS #39 prototype is ASCII letters or digits, with it.

    Raises:
        ConfigurationError: The data package is not installed or its file is unreadable (a
            dependency of the project: never a silent pass without the table).
    """
    try:
        with _LOCK:
            data = json.loads(
                resources.files(DATA_PACKAGE).joinpath("confusables.json").read_text("utf-8")
            )
    except (ModuleNotFoundError, OSError, ValueError) as exc:
        raise ConfigurationError(
            f"Unicode's confusables data could not be read from the {DATA_PACKAGE!r} package "
            f"({exc}): install it with `pip install confusable-homoglyphs` (a dependency of qgs)"
        ) from exc
    table: dict[str, str] = {}
    for char, pairs in data.items():
        if len(char) != 1 or char.isascii() or unicodedata.normalize("NFKC", char) != char:
            continue
        for pair in pairs:
            other = pair["c"]
            if _ASCII_ALNUM.fullmatch(other):
                # The skeleton's prototype of a capital I is "l" (as is Latin I's own): a
                # capital that looks like I reads as I, so that "Ιgnore" is "Ignore".
                table[char] = "I" if other == "l" and char.isupper() else other
                break
    return table


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """Lower-case English words the detectors know (the module's list), for splitting runs."""
    from qgs_worker.core import rules
    from qgs_worker.core.stop_words import STOP_WORDS

    words: set[str] = set(STOP_WORDS)
    for rule in rules.all_rules():
        for needle in rule.needles or ():
            words.update(re.findall(r"[a-z]{2,}", needle.lower()))
        for source in rule.patterns.sources():
            words.update(w.lower() for w in _WORD.findall(_ESCAPE.sub(" ", source)))
    return frozenset(words)
