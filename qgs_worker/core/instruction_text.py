"""The learned instruction detector's text side, without numpy: config, normalisation, windows.

What every featurizer shares (``instruction_features`` with numpy, ``instruction_pure`` in
plain Python), so that ``qgs scan`` and ``qgs check-tool`` can score a short text without
importing numpy (issue 15: numpy is a third of their start-up):

- ``FeatureConfig``: which n-grams, the hash space, the windows; stored in the artifact.
- ``normalize``: NFKC (full-width letters, ligatures), format characters removed (zero-width
  spaces, joiners, soft hyphens, bidirectional controls), lower case, Cyrillic and Greek
  look-alikes read as Latin letters (the map ``argscan`` uses for free text, plus Greek),
  every digit read as ``0`` (amounts, IBANs and dates say nothing about intent), runs of
  whitespace as one space.
- ``windows``: a long text is read as overlapping windows (``window_chars``, every
  ``window_stride`` characters, ends moved to a nearby space), each scored on its own, so an
  instruction inside a long benign tool output is not diluted by the rest of it.
- The hash's constants (``instruction_features`` describes the hash) and which code points
  make words (``char_kind``). Pure: stdlib only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "FEATURES_VERSION",
    "FeatureConfig",
    "char_kind",
    "normalize",
    "windows",
]

FEATURES_VERSION = 2
"""Bumped whenever ``normalize`` or the hashing changes: an artifact of another version is refused."""


@dataclass(frozen=True, slots=True)
class FeatureConfig:
    """How texts become features; stored in the artifact so training and serving agree.

    Attributes:
        hash_bits: The feature space has ``2**hash_bits`` slots (20: 1,048,576 weights).
        char_ngrams: Lengths of the character n-grams, in code points.
        word_ngrams: Lengths of the word n-grams, in words.
        window_chars: Length of a scoring window, in characters of the original text (300: an
            injected passage of a tool output is typically 100-400 characters, and a longer
            window dilutes it with the benign text around it).
        window_stride: Distance between window starts, in characters (half a window: every
            passage shorter than half a window lies whole inside one window).
    """

    hash_bits: int = 20
    char_ngrams: tuple[int, ...] = (3, 4, 5)
    word_ngrams: tuple[int, ...] = (1, 2)
    window_chars: int = 300
    window_stride: int = 150

    def to_json(self) -> dict[str, Any]:
        """The config as a JSON object (tuples as lists), for the artifact's metadata."""
        return {"features_version": FEATURES_VERSION, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FeatureConfig:
        """Read a config written by ``to_json``.

        Raises:
            ValueError: The config is of another ``FEATURES_VERSION`` or has bad fields.
        """
        version = data.get("features_version")
        if version != FEATURES_VERSION:
            raise ValueError(
                f"features_version {version!r} in the artifact, this code reads {FEATURES_VERSION}"
            )
        try:
            config = cls(
                hash_bits=int(data["hash_bits"]),
                char_ngrams=tuple(int(n) for n in data["char_ngrams"]),
                word_ngrams=tuple(int(n) for n in data["word_ngrams"]),
                window_chars=int(data["window_chars"]),
                window_stride=int(data["window_stride"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad feature config {data!r}: {exc}") from exc
        if not (
            8 <= config.hash_bits <= 24
            and 0 < config.window_stride <= config.window_chars
            and all(n >= 1 for n in (*config.char_ngrams, *config.word_ngrams))
        ):
            raise ValueError(f"feature config out of range: {data!r}")
        return config


# --- normalisation --------------------------------------------------------------------------
# Format characters split a keyword without showing (``ig\u200bnore``); look-alike letters hide
# it (``ignоre`` with a Cyrillic о). The Cyrillic map is argscan's; Greek adds the capitals and
# small letters that NFKC leaves Greek.
_INVISIBLE = dict.fromkeys(
    map(ord, "\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b"
        "\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff")
)  # fmt: skip
_CONFUSABLES = str.maketrans("аеорсухіјѕԁԛԝαοτνικρ", "aeopcyxijsdqwaotvikp")
_DIGIT = re.compile(r"\d")
_ASCII_DIGITS = str.maketrans("123456789", "000000000")
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Normalise a text the way every feature reads it (see the module's steps).

    Args:
        text: Any string, any length.

    Returns:
        The normalised text: NFKC, no format characters, lower case, look-alikes as Latin,
        digits as ``0``, single spaces, stripped. Never raises.
    """
    if text.isascii():  # most text: NFKC, format characters and look-alikes change nothing
        return " ".join(text.lower().translate(_ASCII_DIGITS).split())
    flat = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).lower()
    flat = flat.translate(_CONFUSABLES)
    return _SPACE.sub(" ", _DIGIT.sub("0", flat)).strip()


# --- the hash's constants (instruction_features and instruction_pure compute the same hash) ---
BASE = 0x100000001B3  # the 64-bit FNV prime: odd, so invertible modulo 2**64
BASE_INVERSE = pow(BASE, -1, 2**64)
SALT_CHAR = 0x9E3779B97F4A7C15  # odd constants keep the n-gram families apart
SALT_WORD = 0xC2B2AE3D27D4EB4F
PAIR_BASE = 0x2545F4914F6CDD1D  # combines a word's hash with the next words'
MIX1 = 0xBF58476D1CE4E5B9  # splitmix64's finaliser
MIX2 = 0x94D049BB133111EB


def salt(family: int, n: int) -> int:
    """The salt of n-grams of length ``n`` of a family (``SALT_CHAR`` or ``SALT_WORD``), mod 2**64."""
    return (family * n) % 2**64


NOT_WORD, WORD, IDEOGRAPH = 0, 1, 2
IDEOGRAPH_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
"""Kana and CJK ideographs of the Basic Multilingual Plane: no spaces between words, so each is a
word of its own; above it, CJK extensions B and later (U+20000-U+3FFFF) are too."""


def char_kind(point: int) -> int:
    """What a code point is to the word n-grams: ``NOT_WORD``, ``WORD`` or ``IDEOGRAPH``.

    In the Basic Multilingual Plane a word character is what ``str.isalnum`` says, or ``_``;
    above it every code point is a word character, except the CJK extensions (ideographs).
    """
    if point >= 0x10000:
        return IDEOGRAPH if 0x20000 <= point < 0x40000 else WORD
    for low, high in IDEOGRAPH_RANGES:
        if low <= point <= high:
            return IDEOGRAPH
    return WORD if chr(point).isalnum() or point == 0x5F else NOT_WORD


# --- windows ----------------------------------------------------------------------------------
_SNAP_CHARS = 40  # how far a window's edge may move to fall on a space


def windows(text: str, config: FeatureConfig) -> list[tuple[int, int]]:
    """The spans of ``text`` that are scored one by one, as (start, end) character offsets.

    A text of at most ``window_chars`` characters is one window. A longer one gets a window
    starting every ``window_stride`` characters, each edge moved to the next space within 40
    characters (so a window does not cut a word), the last one ending at the end of the text.

    Args:
        text: The original text (not normalised: offsets are the caller's).
        config: Window length and stride.

    Returns:
        Spans in order, covering the whole text; ``[(0, 0)]`` for an empty text.
    """
    size = len(text)
    if size <= config.window_chars:
        return [(0, size)]
    spans: list[tuple[int, int]] = []
    start = 0
    while True:
        end = _snap(text, start + config.window_chars)
        if end >= size or size - start <= config.window_chars:
            spans.append((start, size))
            return spans
        spans.append((start, end))
        start = _snap(text, start + config.window_stride)


def _snap(text: str, at: int) -> int:
    """``at`` moved forward to just after the next whitespace, within ``_SNAP_CHARS``."""
    if at >= len(text):
        return len(text)
    limit = min(len(text), at + _SNAP_CHARS)
    for index in range(at, limit):
        if text[index].isspace():
            return index + 1
    return at
