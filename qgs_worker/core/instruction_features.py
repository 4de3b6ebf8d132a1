"""Features of the learned instruction detector with numpy: normalised texts to hashed n-gram indices.

One featurizer for training and inference (``make train`` imports this module and adds only
scikit-learn on top of the indices it returns), so the shipped model sees exactly the features
it was fitted on. ``instruction_text`` holds what it shares with the plain-Python featurizer
(``instruction_pure``, which gives the same indices in the same order): the config,
``normalize`` and ``windows``. Here everything is computed with numpy over the text's
code-point array:

``ngram_indices`` / ``batch_indices``: character n-grams (3, 4, 5 by default, over the text
padded with a space at each end) and word n-grams (1 and 2) hashed into ``2**hash_bits``
slots, one index per occurrence (a text's vector: counts over the square root of its number
of n-grams). Words are runs of letters, digits and ``_``; a CJK ideograph or kana is a word of
its own, so Chinese and Japanese get character unigrams and bigrams as words.

The hash is a polynomial rolling hash modulo 2**64 (base ``BASE``) over code points, with a
splitmix64 finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014); it never depends on Python's salted ``hash()``, so indices are the same in every
process and on every machine. Pure: stdlib and numpy.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from qgs_worker.core.instruction_text import (
    BASE,
    BASE_INVERSE,
    IDEOGRAPH,
    IDEOGRAPH_RANGES,
    MIX1,
    MIX2,
    NOT_WORD,
    PAIR_BASE,
    SALT_CHAR,
    SALT_WORD,
    WORD,
    FeatureConfig,
    salt,
)

__all__ = ["batch_indices", "ngram_indices"]

IndexArray = npt.NDArray[np.int64]


# --- hashing ----------------------------------------------------------------------------------
_U64 = np.uint64
_MIX1 = _U64(MIX1)
_MIX2 = _U64(MIX2)


def _salt(family: int, n: int) -> np.uint64:
    """The salt of n-grams of length ``n`` of a family, computed in Python (numpy scalars warn on wrap)."""
    return _U64(salt(family, n))


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
    forward = np.full(length, BASE, dtype=np.uint64)
    forward[0] = 1
    inverse = np.full(length, BASE_INVERSE, dtype=np.uint64)
    inverse[0] = 1
    return np.cumprod(forward, dtype=np.uint64), np.cumprod(inverse, dtype=np.uint64)


def _power_tables(length: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    return _powers(max(1024, 1 << max(0, length - 1).bit_length()))


@lru_cache(maxsize=1)
def _bmp_kinds() -> npt.NDArray[np.uint8]:
    """For each code point of the Basic Multilingual Plane: separator, word character or ideograph."""
    kinds = np.fromiter(
        (WORD if chr(cp).isalnum() or cp == 0x5F else NOT_WORD for cp in range(0x10000)),
        dtype=np.uint8,
        count=0x10000,
    )
    for low, high in IDEOGRAPH_RANGES:
        kinds[low : high + 1] = IDEOGRAPH  # kana and CJK ideographs: no spaces between words
    return kinds


def _kinds(points: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    bmp = _bmp_kinds()
    small = points < 0x10000
    if bool(small.all()):
        return bmp[points.astype(np.intp)]
    kinds = np.where(small, bmp[np.where(small, points, 0).astype(np.intp)], WORD)
    ideograph = (points >= 0x20000) & (points < 0x40000)  # CJK extensions B and later
    return np.where(ideograph, IDEOGRAPH, kinds).astype(np.uint8)


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
    base = _U64(BASE)
    for n in range(1, max(config.char_ngrams, default=0) + 1):
        if n > points.size:
            break
        rolling = rolling[: points.size - n + 1] * base + points[n - 1 :]
        if n in config.char_ngrams:
            if single:
                hashes.append(rolling + _salt(SALT_CHAR, n))
                ids.append(owner[: rolling.size])
                continue
            inside = owner[: points.size - n + 1] == owner[n - 1 :]  # no n-gram across two texts
            hashes.append(rolling[inside] + _salt(SALT_CHAR, n))
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
    word = kinds == WORD
    ideograph = kinds == IDEOGRAPH
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
    pair_base = _U64(PAIR_BASE)
    for n in range(1, max(lengths) + 1):
        if n > words.size:
            break
        combined = combined[: words.size - n + 1] * pair_base + words[n - 1 :]
        if n in lengths and single:
            out.append(combined + _salt(SALT_WORD, n))
            ids.append(word_owner[: combined.size])
        elif n in lengths:
            inside = word_owner[: words.size - n + 1] == word_owner[n - 1 :]
            out.append(combined[inside] + _salt(SALT_WORD, n))
            ids.append(word_owner[: words.size - n + 1][inside])
    return ids, out
