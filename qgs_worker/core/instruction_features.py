"""Features of the learned instruction detector: normalised text to hashed n-gram indices.

One featurizer for training and inference (``make train`` imports this module and adds only
scikit-learn on top of the indices it returns), so the shipped model sees exactly the features
it was fitted on. Everything is computed with numpy over the text's code-point array:

1. ``normalize``: NFKC (full-width letters, ligatures), format characters removed (zero-width
   spaces, joiners, soft hyphens, bidirectional controls), lower case, Cyrillic and Greek
   look-alikes read as Latin letters (the map ``argscan`` uses for free text, plus Greek),
   every digit read as ``0`` (amounts, IBANs and dates say nothing about intent), runs of
   whitespace as one space.
2. ``ngram_indices`` / ``batch_indices``: character n-grams (3, 4, 5 by default, over the text
   padded with a space at each end) and word n-grams (1 and 2) hashed into ``2**hash_bits``
   slots, one index per occurrence (a text's vector: counts over the square root of its number
   of n-grams). Words are
   runs of letters, digits and ``_``; a CJK ideograph or kana is a word of its own, so Chinese
   and Japanese get character unigrams and bigrams as words.
3. ``windows``: a long text is read as overlapping windows (``window_chars``, every
   ``window_stride`` characters, ends moved to a nearby space), each scored on its own, so an
   instruction inside a long benign tool output is not diluted by the rest of it.

The hash is a polynomial rolling hash modulo 2**64 (base ``_BASE``) over code points, with a
splitmix64 finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014); it never depends on Python's salted ``hash()``, so indices are the same in every
process and on every machine. Pure: stdlib and numpy.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "FEATURES_VERSION",
    "FeatureConfig",
    "batch_indices",
    "ngram_indices",
    "normalize",
    "windows",
]

FEATURES_VERSION = 2
"""Bumped whenever ``normalize`` or the hashing changes: an artifact of another version is refused."""

IndexArray = npt.NDArray[np.int64]


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


# --- hashing ----------------------------------------------------------------------------------
_BASE = 0x100000001B3  # the 64-bit FNV prime: odd, so invertible modulo 2**64
_BASE_INVERSE = pow(_BASE, -1, 2**64)
_U64 = np.uint64
_SALT_CHAR = 0x9E3779B97F4A7C15  # odd constants keep the n-gram families apart
_SALT_WORD = 0xC2B2AE3D27D4EB4F
_MIX1 = _U64(0xBF58476D1CE4E5B9)
_MIX2 = _U64(0x94D049BB133111EB)


def _salt(family: int, n: int) -> np.uint64:
    """The salt of n-grams of length ``n`` of a family, computed in Python (numpy scalars warn on wrap)."""
    return _U64((family * n) % 2**64)


def _mix(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's finaliser: every input bit reaches every output bit."""
    x = values ^ (values >> _U64(30))
    x = x * _MIX1
    x = x ^ (x >> _U64(27))
    x = x * _MIX2
    mixed: npt.NDArray[np.uint64] = x ^ (x >> _U64(31))
    return mixed


@lru_cache(maxsize=8)
def _powers(length: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """BASE**i and BASE**-i modulo 2**64 for i < length (length rounded up to a power of 2)."""
    forward = np.full(length, _BASE, dtype=np.uint64)
    forward[0] = 1
    inverse = np.full(length, _BASE_INVERSE, dtype=np.uint64)
    inverse[0] = 1
    return np.cumprod(forward, dtype=np.uint64), np.cumprod(inverse, dtype=np.uint64)


def _power_tables(length: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    return _powers(max(1024, 1 << max(0, length - 1).bit_length()))


_NOT_WORD, _WORD, _IDEOGRAPH = 0, 1, 2


@lru_cache(maxsize=1)
def _bmp_kinds() -> npt.NDArray[np.uint8]:
    """For each code point of the Basic Multilingual Plane: separator, word character or ideograph."""
    kinds = np.fromiter(
        (_WORD if chr(cp).isalnum() or cp == 0x5F else _NOT_WORD for cp in range(0x10000)),
        dtype=np.uint8,
        count=0x10000,
    )
    for low, high in ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)):
        kinds[low : high + 1] = _IDEOGRAPH  # kana and CJK ideographs: no spaces between words
    return kinds


def _kinds(points: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    bmp = _bmp_kinds()
    small = points < 0x10000
    if bool(small.all()):
        return bmp[points.astype(np.intp)]
    kinds = np.where(small, bmp[np.where(small, points, 0).astype(np.intp)], _WORD)
    ideograph = (points >= 0x20000) & (points < 0x40000)  # CJK extensions B and later
    return np.where(ideograph, _IDEOGRAPH, kinds).astype(np.uint8)


def ngram_indices(normalized: str, config: FeatureConfig) -> IndexArray:
    """The feature indices of one normalised text, one per n-gram occurrence.

    Args:
        normalized: A text already passed through ``normalize``.
        config: Which n-grams, and the size of the hash space.

    Returns:
        A 1-D int64 array of indices in ``[0, 2**config.hash_bits)``, one per character and
        word n-gram of the text (repeated n-grams repeat their index), in no particular order;
        empty for an empty text. A text of 600 characters gives about 2,000 indices.
    """
    _, indices = batch_indices([normalized], config)
    return indices


def batch_indices(normalized: list[str], config: FeatureConfig) -> tuple[IndexArray, IndexArray]:
    """The feature indices of several normalised texts at once (one pass of numpy).

    The texts are joined, each padded with a space at both ends, and hashed together; an
    n-gram that would span two texts is dropped, so each text gets exactly the features it
    would get alone. Reading a text's windows this way costs a few dozen numpy calls in all,
    instead of that many per window.

    A text's feature vector is the count of each index divided by the square root of the
    text's number of n-grams (``InstructionModel.logit``; ``train/fit.py`` builds the same).

    Args:
        normalized: Texts already passed through ``normalize``.
        config: Which n-grams, and the size of the hash space.

    Returns:
        ``(text_ids, indices)``: parallel int64 arrays, one entry per n-gram occurrence, the
        position of its text in ``normalized`` and its index; in no particular order.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not any(normalized):
        return empty, empty
    joined = "".join(f" {t} " for t in normalized)
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    if len(normalized) == 1:  # one text (a short one is one window): no owner to track
        owner = np.zeros(points.size, dtype=np.int64)
    else:
        lengths = np.fromiter(
            (len(t) + 2 for t in normalized), dtype=np.int64, count=len(normalized)
        )
        owner = np.repeat(np.arange(len(normalized), dtype=np.int64), lengths)
    single = len(normalized) == 1
    ids: list[IndexArray] = []
    hashes: list[npt.NDArray[np.uint64]] = []
    rolling = np.zeros(points.size, dtype=np.uint64)
    base = _U64(_BASE)
    for n in range(1, max(config.char_ngrams, default=0) + 1):
        if n > points.size:
            break
        rolling = rolling[: points.size - n + 1] * base + points[n - 1 :]
        if n in config.char_ngrams:
            if single:
                hashes.append(rolling + _salt(_SALT_CHAR, n))
                ids.append(owner[: rolling.size])
                continue
            inside = owner[: points.size - n + 1] == owner[n - 1 :]  # no n-gram across two texts
            hashes.append(rolling[inside] + _salt(_SALT_CHAR, n))
            ids.append(owner[: points.size - n + 1][inside])
    word_ids, word_hashes = _word_hashes(points, owner, config.word_ngrams, single=single)
    ids.extend(word_ids)
    hashes.extend(word_hashes)
    if not hashes:
        return empty, empty
    mixed = _mix(np.concatenate(hashes))
    return np.concatenate(ids), (mixed >> _U64(64 - config.hash_bits)).astype(np.int64)


def _word_hashes(
    points: npt.NDArray[np.uint64], owner: IndexArray, lengths: tuple[int, ...], *, single: bool
) -> tuple[list[IndexArray], list[npt.NDArray[np.uint64]]]:
    """Hashes of the word n-grams, before mixing.

    Each word's polynomial hash comes from prefix sums, then is combined with the next words'.
    """
    if not lengths:
        return [], []
    kinds = _kinds(points)
    word = kinds == _WORD
    ideograph = kinds == _IDEOGRAPH
    before = np.concatenate(([False], word[:-1]))
    after = np.concatenate((word[1:], [False]))
    starts = np.flatnonzero(ideograph | (word & ~before))
    ends = np.flatnonzero(ideograph | (word & ~after)) + 1
    if starts.size == 0:
        return [], []
    forward, inverse = _power_tables(points.size + 1)
    prefix = np.zeros(points.size + 1, dtype=np.uint64)
    np.cumsum(points * inverse[: points.size], dtype=np.uint64, out=prefix[1:])
    words = (prefix[ends] - prefix[starts]) * forward[ends - 1]  # sum of c[k] * BASE**(end-1-k)
    word_owner = owner[starts]  # a word never spans two texts: each is padded with spaces
    ids: list[IndexArray] = []
    out: list[npt.NDArray[np.uint64]] = []
    combined = np.zeros(words.size, dtype=np.uint64)
    pair_base = _U64(0x2545F4914F6CDD1D)
    for n in range(1, max(lengths) + 1):
        if n > words.size:
            break
        combined = combined[: words.size - n + 1] * pair_base + words[n - 1 :]
        if n in lengths and single:
            out.append(combined + _salt(_SALT_WORD, n))
            ids.append(word_owner[: combined.size])
        elif n in lengths:
            inside = word_owner[: words.size - n + 1] == word_owner[n - 1 :]
            out.append(combined[inside] + _salt(_SALT_WORD, n))
            ids.append(word_owner[: words.size - n + 1][inside])
    return ids, out


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
