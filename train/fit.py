"""Fitting the instruction detector: features from the package's own featurizer, then scikit-learn.

The features come from ``qgs_worker.core.instruction_model.window_indices`` (the code the product
runs), so what is trained is what is served; scikit-learn only fits the weights.

Windows and labels: a record is read as the windows inference reads. Every window of an attack
text is positive; a benign document that carries an attack (``spans``) gives positive windows
where the attack fills at least half of the window or the window holds at least half of the
attack, negative windows where the attack is absent, and nothing in between. Every window of a
benign text is negative.

Weights: a record weighs 1 / sqrt(records of its source) (a source of 2,500 pieces does not
outweigh one of 50 by fifty to one), split evenly over its labelled windows; the two classes
then weigh the same in total.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qgs_worker.core.instruction_model import window_indices  # noqa: E402
from qgs_worker.core.instruction_text import FeatureConfig  # noqa: E402
from sources import Record  # noqa: E402

C = float(os.environ.get("QGS_TRAIN_C", "1.0"))  # inverse L2 strength (see the model card)
MAX_ITER = 200
NEGATIVE_SHARE = float(os.environ.get("QGS_TRAIN_NEGATIVE_SHARE", "0.5"))  # the benign class's share of the weight


@dataclass
class Featurized:
    """All records' windows: feature indices, labels (-1: not trained on), and which record."""

    indices: list[np.ndarray]
    labels: np.ndarray  # per window: 1, 0, or -1 (ambiguous: never fitted)
    record_of: np.ndarray  # per window: the record's position
    config: FeatureConfig


def featurize(records: Sequence[Record], config: FeatureConfig) -> Featurized:
    """Windows and labels of every record (see the module docstring)."""
    indices: list[np.ndarray] = []
    labels: list[int] = []
    record_of: list[int] = []
    for position, record in enumerate(records):
        for start, end, idx in window_indices(record.text, config):
            indices.append(idx.astype(np.int32))
            record_of.append(position)
            labels.append(_window_label(record, start, end))
    return Featurized(indices, np.array(labels, dtype=np.int8), np.array(record_of), config)


def _window_label(record: Record, start: int, end: int) -> int:
    if record.label == 0:
        return 0
    if not record.spans:
        return 1
    best = 0.0
    for s, e in record.spans:
        overlap = max(0, min(end, e) - max(start, s))
        best = max(best, overlap / max(1, min(end - start, e - s)))
    if best >= 0.5:
        return 1
    return 0 if best == 0 else -1


def matrix(feats: Featurized, rows: np.ndarray) -> sp.csr_matrix:
    """The feature matrix of the given windows: n-gram counts over sqrt(the window's n-grams),
    as ``InstructionModel.window_scores`` reads them (scipy sums the repeated indices)."""
    lengths = np.array([feats.indices[r].size for r in rows], dtype=np.int64)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    cols = np.concatenate([feats.indices[r] for r in rows]) if rows.size else np.zeros(0, np.int32)
    values = np.repeat(1.0 / np.sqrt(np.maximum(lengths, 1)), lengths).astype(np.float32)
    out = sp.csr_matrix((values, cols, indptr), shape=(rows.size, 1 << feats.config.hash_bits))
    out.sum_duplicates()
    return out


def sample_weights(records: Sequence[Record], feats: Featurized, rows: np.ndarray,
                   negative_share: float | None = None) -> np.ndarray:
    """Per-window weights: 1/sqrt(source size) per record, split over its windows; the benign
    class weighs ``negative_share`` of the total (default ``NEGATIVE_SHARE``: classes equal)."""
    negative = NEGATIVE_SHARE if negative_share is None else negative_share
    record_rows = feats.record_of[rows]
    per_source = Counter(records[r].source for r in set(record_rows.tolist()))
    windows_per_record = Counter(record_rows.tolist())
    weights = np.array(
        [
            1.0 / np.sqrt(per_source[records[r].source]) / windows_per_record[r]
            for r in record_rows
        ]
    )
    labels = feats.labels[rows]
    for value, share in ((0, negative), (1, 1 - negative)):
        mask = labels == value
        weights[mask] *= share / weights[mask].sum()
    return weights * rows.size


def fit(records: Sequence[Record], feats: Featurized, record_mask: np.ndarray) -> tuple[np.ndarray, float]:
    """Fit on the labelled windows of the records where ``record_mask`` is True.

    Returns:
        (weights of shape 2**hash_bits, bias).
    """
    rows = np.flatnonzero(record_mask[feats.record_of] & (feats.labels >= 0))
    x = matrix(feats, rows)
    y = feats.labels[rows]
    model = LogisticRegression(C=C, solver="liblinear", max_iter=MAX_ITER)
    model.fit(x, y, sample_weight=sample_weights(records, feats, rows))
    return model.coef_[0].astype(np.float32), float(model.intercept_[0])


def record_scores(
    feats: Featurized, weights: np.ndarray, bias: float, n_records: int
) -> np.ndarray:
    """Each record's score: the highest probability over all its windows (as inference does)."""
    logits = np.empty(len(feats.indices))
    for i, idx in enumerate(feats.indices):
        logits[i] = weights[idx].sum(dtype=np.float64) / np.sqrt(max(idx.size, 1)) + bias
    best = np.full(n_records, -np.inf)
    np.maximum.at(best, feats.record_of, logits)
    return 1.0 / (1.0 + np.exp(-best))


def threshold_for(benign_scores: dict[str, np.ndarray], target_fp: float = 0.01) -> float:
    """The lowest threshold at which at most ``target_fp`` of the benign records score at or
    above it, pooled over the benign sources given (each capped at ``sources.PER_SOURCE_CAP``
    records, so no one source is most of the pool).

    Args:
        benign_scores: Per benign source, the scores of its records by a model that never saw it.
        target_fp: The largest acceptable rate (0.01 = 1%).
    """
    pooled = np.sort(np.concatenate(list(benign_scores.values())))
    allowed = int(np.floor(target_fp * pooled.size))  # records that may score at or above it
    if allowed >= pooled.size:
        return 0.01
    cut = float(np.nextafter(pooled[pooled.size - allowed - 1], 2.0))  # just above the next one
    return float(min(max(cut, 0.01), 0.999))
