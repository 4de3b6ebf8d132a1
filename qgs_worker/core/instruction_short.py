"""The fast path of the instruction detector's features: one short ASCII text, the same indices.

The tool gate reads many short free-text arguments (a subject line, a message, a file name); each
is one window, and ``instruction_features.batch_indices`` spends most of its time on the fixed
cost of some eighty small numpy calls, not on the text. ``single_indices`` computes the same
indices for one ASCII text with about a third as many calls: every n-gram's polynomial hash,
character or word, is read off one prefix sum of the text's code points,
``hash(c[s:e]) = (P[e] - P[s]) * BASE**(e-1)`` with ``P[i] = sum_{k<i} c[k] * BASE**-k``
(mod 2**64), which is what the rolling hash of ``batch_indices`` computes step by step (and
how ``instruction_features._word_hashes`` hashes words). The character n-grams' start and end
offsets depend on the text's length only, so they are cached; words are runs of
``[0-9A-Za-z_]`` (what ``str.isalnum`` or ``_`` is in ASCII), found by one regular expression.

The indices come out in the same order as ``batch_indices`` gives them (character n-grams by
length, then word n-grams by length, each by position), so the model's float64 sums over them,
and therefore its scores, are bit for bit the same (``tests/unit/test_instruction_model.py``
asserts it on many texts). Non-ASCII text (look-alikes, CJK ideographs, astral characters) takes
the general path. Pure: stdlib and numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from qgs_worker.core.instruction_features import IndexArray, _mix, _power_tables, _salt
from qgs_worker.core.instruction_text import PAIR_BASE, SALT_CHAR, SALT_WORD, FeatureConfig

__all__ = ["single_indices"]

_U64 = np.uint64
_ASCII_WORD = re.compile(r"[0-9A-Za-z_]+")
_PAIR_BASE = _U64(PAIR_BASE)


@lru_cache(maxsize=128)  # at most ~21 KB each (a 300-character text): under 3 MB in all
def _layout(
    size: int, lengths: tuple[int, ...]
) -> tuple[IndexArray, IndexArray, npt.NDArray[np.uint64]]:
    """The character n-grams of a text of ``size`` points: starts, ends and salts.

    In the order of ``batch_indices``: by length, then by position.
    """
    starts = [np.arange(size - n + 1, dtype=np.intp) for n in lengths if n <= size]
    ends = [s + n for s, n in zip(starts, lengths, strict=False)]
    salts = [
        np.full(s.size, _salt(SALT_CHAR, n), dtype=np.uint64)
        for s, n in zip(starts, lengths, strict=False)
    ]
    if not starts:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, np.zeros(0, dtype=np.uint64)
    return np.concatenate(starts), np.concatenate(ends), np.concatenate(salts)


def single_indices(normalized: str, config: FeatureConfig) -> IndexArray | None:
    """The feature indices of one normalised ASCII text, as ``batch_indices([normalized])`` gives.

    Every n-gram's polynomial hash, character or word, is read off one prefix sum of the text's
    code points: ``hash(c[s:e]) = (P[e] - P[s]) * BASE**(e-1)`` with ``P[i] = sum_{k<i} c[k] *
    BASE**-k`` (mod 2**64), as ``instruction_features._word_hashes`` computes words.

    Args:
        normalized: A text already passed through ``instruction_text.normalize``.
        config: Which n-grams, and the size of the hash space.

    Returns:
        A 1-D int64 array equal element for element (same order) to the indices of
        ``batch_indices([normalized], config)``; None when the text is empty or not ASCII (the
        caller then takes the general path).
    """
    if not normalized or not normalized.isascii():
        return None
    joined = f" {normalized} "
    size = len(joined)
    points = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).astype(np.uint64)
    forward, inverse = _power_tables(size + 1)
    prefix = np.zeros(size + 1, dtype=np.uint64)
    np.cumsum(points * inverse[:size], dtype=np.uint64, out=prefix[1:])
    char_starts, char_ends, char_salts = _layout(size, tuple(sorted(set(config.char_ngrams))))
    lengths = tuple(sorted(set(config.word_ngrams)))
    spans = [m.span() for m in _ASCII_WORD.finditer(joined)] if lengths else []
    if spans:
        bounds = np.array(spans, dtype=np.intp)
        starts = np.concatenate((char_starts, bounds[:, 0]))
        ends = np.concatenate((char_ends, bounds[:, 1]))
    else:
        starts, ends = char_starts, char_ends
    hashes = (prefix[ends] - prefix[starts]) * forward[ends - 1]
    parts = [hashes[: char_salts.size] + char_salts]
    words = hashes[char_salts.size :]
    combined = np.zeros(words.size, dtype=np.uint64)
    for n in range(1, (lengths[-1] if lengths else 0) + 1):
        if n > words.size:
            break
        combined = combined[: words.size - n + 1] * _PAIR_BASE + words[n - 1 :] if n > 1 else words
        if n in lengths:
            parts.append(combined + _salt(SALT_WORD, n))
    mixed = _mix(np.concatenate(parts) if len(parts) > 1 else parts[0])
    return (mixed >> _U64(64 - config.hash_bits)).astype(np.int64)
