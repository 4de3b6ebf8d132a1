"""The learned instruction detector in plain Python: numpy's indices and scores, without numpy.

``qgs check-tool`` and ``qgs scan`` score a few short texts (a tool argument, a small file) and
exit; importing numpy took about 100 ms of their start-up, more than the whole check (issue 15).
This module computes the same thing in plain Python, slower per character but with nothing to
import:

- ``indices``: the feature indices of one normalised text, equal element for element (same
  order) to ``instruction_features.batch_indices([text], config)``: character n-grams by length,
  then word n-grams by length, each by position, with the same rolling hash modulo 2**64 and
  splitmix64 finaliser (``instruction_features`` describes the hash).
- ``npz_arrays`` and ``PackedWeights``: the artifact's arrays read from the ``.npz`` archive,
  the float16 weights each decoded when a window reads it (no array of a million weights is
  built).
- ``sequential_sum``, ``window_logit`` and ``probability``: a window's score with the float64
  arithmetic of the numpy path, in the same order (a sequential sum of the weights, as
  ``np.cumsum`` and ``np.bincount`` add, IEEE division by the same square root, the same clip);
  the numpy path takes its logit and sigmoid from these functions too, so both give the same
  score bit for bit.

``InstructionModel`` scores with this path in a short command (``qgs check-tool``, ``qgs scan``:
``instruction_model.start_without_numpy``) while numpy is not imported, for its first
``PURE_BUDGET_CHARS`` characters, then with numpy.
Pure: stdlib only.
"""

from __future__ import annotations

import ast
import io
import math
import operator
import re
import struct
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from functools import reduce
from itertools import repeat
from typing import NamedTuple

from qgs_worker.core.instruction_text import (
    BASE,
    IDEOGRAPH,
    MIX1,
    MIX2,
    PAIR_BASE,
    SALT_CHAR,
    SALT_WORD,
    WORD,
    FeatureConfig,
    char_kind,
    salt,
)

__all__ = [
    "SCALAR_DESCRS",
    "NpyArray",
    "PackedWeights",
    "first_value",
    "indices",
    "npz_arrays",
    "probability",
    "sequential_sum",
    "window_logit",
]

_MASK = (1 << 64) - 1
_ASCII_WORD = re.compile(r"[0-9A-Za-z_]+")  # str.isalnum() or "_", in ASCII
_CLIP = 50.0  # logits beyond +-50 are clipped, as the numpy path always did


def indices(normalized: str, config: FeatureConfig) -> list[int]:
    """The feature indices of one normalised text, as ``batch_indices([normalized], config)``.

    Args:
        normalized: A text already passed through ``instruction_text.normalize``.
        config: Which n-grams, and the size of the hash space.

    Returns:
        Indices in ``[0, 2**config.hash_bits)``, one per n-gram occurrence, in the order of
        ``batch_indices`` (character n-grams by length, then word n-grams by length, each by
        position); empty for an empty text. A 300-character text gives about 1,000.

    Raises:
        UnicodeEncodeError: The text holds a lone surrogate (as ``batch_indices`` raises).
    """
    if not normalized:
        return []
    joined = f" {normalized} "
    points: bytes | list[int]
    if joined.isascii():
        points = joined.encode("ascii")  # indexing bytes gives the code points
        spans = [m.span() for m in _ASCII_WORD.finditer(joined)]
    else:
        joined.encode("utf-32-le")  # a lone surrogate fails here, as it does in batch_indices
        points = [ord(c) for c in joined]
        spans = _word_spans(points)
    shift = 64 - config.hash_bits
    out: list[int] = []
    lengths = frozenset(config.char_ngrams)
    rolling = [0] * len(points)
    for n in range(1, max(lengths, default=0) + 1):
        if n > len(points):
            break
        # zip stops at the shorter: the hashes of the n-grams starting at 0 .. len - n
        rolling = [(h * BASE + p) & _MASK for h, p in zip(rolling, points[n - 1 :], strict=False)]
        if n in lengths:
            out += _indices(rolling, salt(SALT_CHAR, n), shift)
    if not spans or not config.word_ngrams:
        return out
    words = [_hash(points[start:end]) for start, end in spans]
    lengths = frozenset(config.word_ngrams)
    combined = [0] * len(words)
    for n in range(1, max(lengths) + 1):
        if n > len(words):
            break
        combined = [
            (c * PAIR_BASE + w) & _MASK for c, w in zip(combined, words[n - 1 :], strict=False)
        ]
        if n in lengths:
            out += _indices(combined, salt(SALT_WORD, n), shift)
    return out


def _indices(hashes: list[int], salted: int, shift: int) -> Iterator[int]:
    """splitmix64's finaliser on each salted hash, cut to the hash space's top bits."""
    for h in hashes:
        x = (h + salted) & _MASK
        x ^= x >> 30
        x = (x * MIX1) & _MASK
        x ^= x >> 27
        x = (x * MIX2) & _MASK
        yield (x ^ (x >> 31)) >> shift


def _hash(points: Iterable[int]) -> int:
    """The polynomial hash of a run of code points, modulo 2**64 (a word's hash)."""
    h = 0
    for p in points:
        h = (h * BASE + p) & _MASK
    return h


def _word_spans(points: list[int]) -> list[tuple[int, int]]:
    """Each word's ``(start, end)``: a run of word characters, or one ideograph (``char_kind``)."""
    spans: list[tuple[int, int]] = []
    start = -1
    for at, point in enumerate(points):
        kind = char_kind(point)
        if kind == WORD:
            if start < 0:
                start = at
            continue
        if start >= 0:
            spans.append((start, at))
            start = -1
        if kind == IDEOGRAPH:
            spans.append((at, at + 1))
    if start >= 0:  # never: the text is padded with a space; kept for any caller's text
        spans.append((start, len(points)))
    return spans


# --- the artifact's arrays, weights and scores ------------------------------------------------
_CODES = {"<f2": "<e", "<f4": "<f", "<f8": "<d"}  # little-endian floats: numpy's descr -> struct's
SCALAR_DESCRS = frozenset(_CODES)
"""The dtypes ``first_value`` reads (a model's bias)."""
_FIRST = operator.itemgetter(0)


class NpyArray(NamedTuple):
    """One array of an ``.npz`` archive, unread: numpy's dtype string, its shape, its bytes."""

    descr: str
    shape: tuple[int, ...]
    data: memoryview


def npz_arrays(data: bytes) -> dict[str, NpyArray]:
    """The arrays of an ``.npz`` archive (what ``numpy.savez`` writes), read without numpy.

    Args:
        data: The archive's bytes.

    Returns:
        Each array by its name (the member's name without ``.npy``).

    Raises:
        ValueError: Not a zip archive, or a member is not an ``.npy`` array in C order.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = {
                info.filename[: -len(".npy")]: archive.read(info)
                for info in archive.infolist()
                if info.filename.endswith(".npy")
            }
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise ValueError(f"not a readable .npz archive: {exc}") from exc
    return {name: _npy(name, raw) for name, raw in members.items()}


def _npy(name: str, raw: bytes) -> NpyArray:
    """An ``.npy`` file's header and data (the format of numpy's ``lib.format``, versions 1-3)."""
    if raw[:6] != b"\x93NUMPY" or raw[6:7] not in (b"\x01", b"\x02", b"\x03"):
        raise ValueError(f"{name}.npy is not a numpy array file")
    version = raw[6]
    size_format, start = ("<H", 10) if version == 1 else ("<I", 12)
    (header_bytes,) = struct.unpack_from(size_format, raw, 8)
    text = raw[start : start + header_bytes].decode("utf-8" if version == 3 else "latin-1")
    try:
        header = ast.literal_eval(text)
        descr, shape, fortran = header["descr"], tuple(header["shape"]), header["fortran_order"]
    except (ValueError, SyntaxError, TypeError, KeyError) as exc:
        raise ValueError(f"{name}.npy has an unreadable header {text.strip()!r}") from exc
    if fortran and len(shape) > 1:
        raise ValueError(f"{name}.npy is in Fortran order")
    return NpyArray(str(descr), shape, memoryview(raw)[start + header_bytes :])


def first_value(array: NpyArray) -> float:
    """The first element of a float array (``SCALAR_DESCRS``), as a Python float.

    Raises:
        ValueError: The array is empty.
    """
    code = struct.Struct(_CODES[array.descr])
    if len(array.data) < code.size:
        raise ValueError(f"an empty {array.descr} array has no first value")
    return float(code.unpack_from(array.data)[0])


class PackedWeights:
    """A model's weights read from their bytes (float16 or float32, little-endian), not unpacked.

    Nothing is decoded up front: each weight is unpacked when a window reads it (about 0.2 us
    a weight, as fast as a decoded table's look-up on these machines, with no table to build).

    Args:
        raw: The weights' bytes (an ``.npy`` array's data); not copied.
        descr: numpy's dtype string, one of ``DESCRS``.
        shape: The array's shape, as the artifact gives it (the model checks it).

    Raises:
        ValueError: ``descr`` is not one of ``DESCRS``, or ``raw`` does not hold the shape.
    """

    DESCRS = frozenset({"<f2", "<f4"})
    """What ``make train`` writes (float16) and float32: both are exact in a float32 array."""

    def __init__(self, raw: bytes | memoryview, descr: str, shape: tuple[int, ...]) -> None:
        if descr not in self.DESCRS:
            raise ValueError(f"weights of dtype {descr!r}: expected one of {sorted(self.DESCRS)}")
        self._code = struct.Struct(_CODES[descr])
        if len(raw) != self._code.size * math.prod(shape):
            raise ValueError(f"{len(raw)} bytes do not hold {descr} weights of shape {shape}")
        self.raw, self.descr, self.shape = raw, descr, shape

    def values(self, at: Iterable[int]) -> Iterator[float]:
        """The weights at these indices, as Python floats (exact: float16 and float32 fit).

        Raises:
            struct.error: An index is past the last weight.
        """
        offsets = map(self._code.size.__mul__, at)
        return map(_FIRST, map(self._code.unpack_from, repeat(self.raw), offsets))


def sequential_sum(values: Iterable[float]) -> float:
    """The float64 sum of ``values``, added left to right.

    As numpy's ``cumsum`` and ``bincount`` add; not ``sum()``, which Python 3.12+ compensates,
    nor numpy's pairwise ``sum``.
    """
    return reduce(operator.add, values, 0.0)


def window_logit(total: float, count: int, bias: float) -> float:
    """A window's logit: the sum of its weights over the square root of their count, plus bias.

    Args:
        total: ``sequential_sum`` of the weight of each of the window's n-gram occurrences.
        count: How many there are (0 for an empty window).
        bias: The model's intercept, in logits.

    Returns:
        The logit, clipped to -50..50 (IEEE division by the correctly rounded square root: the
        same value with numpy's arrays or Python floats).
    """
    logit = total / math.sqrt(max(count, 1)) + bias
    return min(max(logit, -_CLIP), _CLIP)


def probability(logit: float) -> float:
    """The logistic function of a clipped logit: a window's score, 0-1 (every engine's sigmoid)."""
    return 1.0 / (1.0 + math.exp(-logit))
