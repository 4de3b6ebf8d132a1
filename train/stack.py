"""The encoder beside the n-grams: folds, the head, the rank fusion, and the figures of all three.

``make train`` and ``make eval`` run the folds here once for both models: in each fold the
n-gram model (``fit.fit``) and the encoder's head (``fit_head``, a logistic regression over the
encoder's 512-dim window vectors from ``embed.window_vectors``) are fitted **from scratch** on
every record outside the fold (never a warm start: a solver started from the previous fold's
weights carries the left-out source in), and score the fold's windows. The stack fuses the two
window logits by rank (``qgs_worker.core.instruction_stack``: the product of each model's benign
tail share), with the tail shares taken from benign windows outside the fold, scored out of
fold themselves. The encoder reads every ``EVERY``-th window of a text and the others take the
higher logit of their encoded neighbours (``instruction_stack.spread``), as inference does.

The head's regularisation (``HEAD_C``), its benign class's share of the weight
(``HEAD_NEGATIVE_SHARE``) and the fusion's n-gram weight (``NGRAM_WEIGHT``) are issue 32's
(``train/loso_readers.py``): C in {0.001 ... 1}, the benign share in {0.5, 0.7, 0.8, 0.9, 0.95},
the weight in {0.15 ... 0.5}, every fold fitted from scratch; chosen without the source left out,
13 of the 14 attack sources' folds pick C 0.01, share 0.9, weight 0.2 (earlier: C 0.003, share
0.5, weight 0.35, chosen on four folds of whole sources, ``--quick``). A small MLP head, a
logistic stacker fitted inside each fold, and the encoder reading every window did no better at
1% benign FP; an n-gram tail-share gate on which windows the encoder reads lost recall at every
level tried (0.03 to 0.7) and is not used.

Folds: one per training source (leave one source out, LOSO) and one per language that has
attack records (leave one language out, LOLO: every record ``langid`` reads as that language
left out of training, scored by models that never saw it).

Views: each record is also scored through its plain view (``core.plain_text``: look-alike
letters, leetspeak, spacing, encodings undone; what ``detectors.model_findings`` reads when the
text as written gives nothing), and each Latin-script attack record has an obfuscated copy
(``obfuscate``: look-alike Cyrillic letters or leetspeak in about half its words, seeded), scored
in the fold of its record. "Without views" reads the text as written; "with views" takes the
higher of the text and its plain view, as the product does.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import embed  # noqa: E402
import fit  # noqa: E402
import sources  # noqa: E402
from qgs_worker.core.instruction_stack import EncoderHead, spread, tail_share  # noqa: E402
from qgs_worker.core.plain_text import plain  # noqa: E402

HEAD_C = 0.01  # inverse L2 strength of the encoder's head (strong: 512 dense dims, few sources)
HEAD_NEGATIVE_SHARE = 0.9  # the benign windows' share of the head's weight (the operating point is 1% FP)
HEAD_MAX_ITER = 1000
NGRAM_WEIGHT = 0.2  # the n-gram model's weight in the rank fusion; the encoder's is the rest
EVERY = 2  # the encoder reads windows 0, 2, 4, ...: end to end, each character once
MIN_LANGUAGE_ATTACKS = 20  # a language with fewer attack records is in "other languages"


# --- texts beside the records ------------------------------------------------------------
@dataclass
class Extra:
    """Texts scored with the record each comes from (its plain view, an obfuscated copy).

    Attributes:
        owner: Per text, the position of its record.
        feats: The texts' windows (``record_of`` indexes ``owner``).
        vectors: The encoder's vector of each window.
    """

    name: str
    owner: np.ndarray
    feats: fit.Featurized
    vectors: np.ndarray


HOMOGLYPHS = {"a": "а", "c": "с", "e": "е", "i": "і", "o": "о", "p": "р", "x": "х", "y": "у"}
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


def obfuscate(text: str, rng: random.Random) -> str:
    """About half the words of four letters or more get look-alike Cyrillic letters or leetspeak."""
    out = []
    for word in text.split(" "):
        if len(word) >= 4 and word.isascii() and rng.random() < 0.5:
            table = HOMOGLYPHS if rng.random() < 0.5 else LEET
            word = "".join(table.get(c, c) if rng.random() < 0.6 else c for c in word)
        out.append(word)
    return " ".join(out)


def _latin(text: str) -> bool:
    letters = [c for c in text[:2000] if c.isalpha()]
    return bool(letters) and sum(c.isascii() for c in letters) >= 0.8 * len(letters)


def extras(records: list[sources.Record], config) -> list[Extra]:
    """The plain views (of the records where ``plain(...).focus`` changes) and the obfuscated copies."""
    rng = random.Random(sources.SEED)
    built = []
    view_owner, view_texts = [], []
    for i, r in enumerate(records):
        view = plain(r.text).focus
        if view.changed:
            view_owner.append(i)
            view_texts.append(view.text)
    obf_owner, obf_texts = [], []
    for i, r in enumerate(records):
        if r.label == 1 and not r.spans and _latin(r.text):
            obf_owner.append(i)
            obf_texts.append(obfuscate(r.text, rng))
    obf_view_owner, obf_view_texts = [], []
    for i, t in zip(obf_owner, obf_texts, strict=True):
        view = plain(t).focus
        obf_view_owner.append(i)
        obf_view_texts.append(view.text)
    for name, owner, texts in (("plain view", view_owner, view_texts), ("obfuscated", obf_owner, obf_texts),
                               ("obfuscated, plain view", obf_view_owner, obf_view_texts)):
        fake = [sources.Record(text=t, label=records[o].label, source=records[o].source, origin="", spans=[],
                               heldout=records[o].heldout) for o, t in zip(owner, texts, strict=True)]
        feats = fit.featurize(fake, config)
        built.append(Extra(name, np.array(owner, dtype=np.int64), feats, embed.window_vectors(fake, config)))
    return built


# --- fitting --------------------------------------------------------------------------------
def fit_head(records: Sequence[sources.Record], feats: fit.Featurized, vectors: np.ndarray,
             record_mask: np.ndarray) -> tuple[np.ndarray, float]:
    """The encoder's head on the labelled windows of the records in ``record_mask``, from scratch.

    Returns:
        (weights of shape (512,), bias).
    """
    rows = np.flatnonzero(record_mask[feats.record_of] & (feats.labels >= 0))
    model = LogisticRegression(C=HEAD_C, max_iter=HEAD_MAX_ITER)  # lbfgs, a new solver each fold
    model.fit(vectors[rows].astype(np.float32), feats.labels[rows],
              sample_weight=fit.sample_weights(records, feats, rows, HEAD_NEGATIVE_SHARE))
    return model.coef_[0].astype(np.float32), float(model.intercept_[0])


def ngram_logits(feats: fit.Featurized, weights: np.ndarray, bias: float, rows: np.ndarray) -> np.ndarray:
    """The n-gram model's logit of each window in ``rows`` (as inference computes it)."""
    out = np.empty(rows.size)
    for j, i in enumerate(rows):
        idx = feats.indices[i]
        out[j] = weights[idx].sum(dtype=np.float64) / np.sqrt(max(idx.size, 1)) + bias
    return np.clip(out, -50.0, 50.0)


@dataclass
class Logits:
    """Out-of-fold window logits of both models, for the records' windows and each extra's."""

    ngrams: np.ndarray
    encoder: np.ndarray
    extra_ngrams: list[np.ndarray] = field(default_factory=list)
    extra_encoder: list[np.ndarray] = field(default_factory=list)


def run_folds(records: list[sources.Record], feats: fit.Featurized, vectors: np.ndarray,
              folds: list[tuple[str, np.ndarray]], more: list[Extra]) -> Logits:
    """Fit both models without each fold's records and score the fold's windows (and its extras')."""
    heldout = np.array([r.heldout for r in records])
    out = Logits(np.full(len(feats.indices), np.nan), np.full(len(feats.indices), np.nan),
                 [np.full(len(x.feats.indices), np.nan) for x in more],
                 [np.full(len(x.feats.indices), np.nan) for x in more])
    for number, (name, left_out) in enumerate(folds, start=1):
        started = time.perf_counter()
        inside = ~left_out & ~heldout
        weights, bias = fit.fit(records, feats, inside)
        head_w, head_b = fit_head(records, feats, vectors, inside)
        rows = np.flatnonzero(left_out[feats.record_of])
        out.ngrams[rows] = ngram_logits(feats, weights, bias, rows)
        out.encoder[rows] = vectors[rows].astype(np.float32) @ head_w + head_b
        for x, ng, en in zip(more, out.extra_ngrams, out.extra_encoder, strict=True):
            rows = np.flatnonzero(left_out[x.owner[x.feats.record_of]])
            ng[rows] = ngram_logits(x.feats, weights, bias, rows)
            en[rows] = x.vectors[rows].astype(np.float32) @ head_w + head_b
        print(f"  fold {number}/{len(folds)} {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


# --- scoring ----------------------------------------------------------------------------------
def benign_windows(records: Sequence[sources.Record], feats: fit.Featurized) -> np.ndarray:
    """Windows of benign records (the tail shares' pool)."""
    labels = np.array([r.label for r in records])
    heldout = np.array([r.heldout for r in records])
    return (labels[feats.record_of] == 0) & ~heldout[feats.record_of] & (feats.labels == 0)


def head_for(ng_pool: np.ndarray, en_pool: np.ndarray) -> EncoderHead:
    """An ``EncoderHead`` carrying only the fusion's tables (its weights are not used here)."""
    return EncoderHead(np.zeros(0, np.float32), 0.0, np.sort(ng_pool).astype(np.float32),
                       np.sort(en_pool).astype(np.float32), 0.5, 0.5, NGRAM_WEIGHT, EVERY, "", {})


def spread_all(encoder: np.ndarray, record_of: np.ndarray) -> np.ndarray:
    """The encoder logit each window is scored with: read windows their own, the others their
    encoded neighbours' higher (``instruction_stack.spread`` per text, as inference)."""
    out = np.full(encoder.size, np.nan)
    cuts = np.flatnonzero(np.r_[True, record_of[1:] != record_of[:-1], True])
    for first, end in zip(cuts[:-1], cuts[1:], strict=True):
        part = encoder[first:end]
        if not np.isnan(part).any():
            out[first:end] = spread(part[::EVERY], end - first, EVERY)
    return out


def fused(head: EncoderHead, ng: np.ndarray, en: np.ndarray) -> np.ndarray:
    """The shipped fusion on precomputed logits (``en`` already spread): ``EncoderHead.scores``."""
    return head.fuse(head.ngram_tail(ng), tail_share(head.encoder_benign, en))


def record_max(values: np.ndarray, record_of: np.ndarray, n: int) -> np.ndarray:
    """The highest window value of each record (-inf where it has none scored)."""
    best = np.full(n, -np.inf)
    ok = ~np.isnan(values)
    np.maximum.at(best, record_of[ok], values[ok])
    return best


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function."""
    return 1.0 / (1.0 + np.exp(-x))


Scorer = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def model_scores(records: list[sources.Record], feats: fit.Featurized, logits: Logits, more: list[Extra],
                 groups: list[tuple[str, np.ndarray]]) -> dict[str, dict[str, np.ndarray]]:
    """Record scores of the n-grams, the encoder and the stack, as written and with views.

    Args:
        groups: The folds (record masks): the stack's tail shares for a fold's windows come
            from benign windows outside it.

    Returns:
        ``{"ngrams" | "encoder" | "stack": {"written": scores, "views": scores,
        "obfuscated": scores, "obfuscated_views": scores}}``; the obfuscated arrays are per
        obfuscated copy (``more[1].owner``).
    """
    n = len(records)
    benign = benign_windows(records, feats)
    encoder = spread_all(logits.encoder, feats.record_of)
    extra_encoder = [spread_all(en, x.feats.record_of) for x, en in zip(more, logits.extra_encoder, strict=True)]
    stack_w = np.full(len(feats.indices), np.nan)
    stack_x = [np.full(len(x.feats.indices), np.nan) for x in more]
    for _, left_out in groups:
        pool = benign & ~left_out[feats.record_of] & ~np.isnan(logits.ngrams) & ~np.isnan(encoder)
        head = head_for(logits.ngrams[pool], encoder[pool])
        rows = left_out[feats.record_of]
        stack_w[rows] = fused(head, logits.ngrams[rows], encoder[rows])
        for x, ng, en, out in zip(more, logits.extra_ngrams, extra_encoder, stack_x, strict=True):
            rows = left_out[x.owner[x.feats.record_of]]
            out[rows] = fused(head, ng[rows], en[rows])
    result = {}
    for name, windows, extra in (
        ("ngrams", sigmoid(logits.ngrams), [sigmoid(v) for v in logits.extra_ngrams]),
        ("encoder", sigmoid(encoder), [sigmoid(v) for v in extra_encoder]),
        ("stack", stack_w, stack_x),
    ):
        written = record_max(windows, feats.record_of, n)
        view, obf, obf_view = (record_max(v, x.feats.record_of, len(x.owner)) for v, x in zip(extra, more, strict=True))
        with_views = written.copy()
        np.maximum.at(with_views, more[0].owner, view)
        result[name] = {"written": written, "views": with_views, "obfuscated": obf,
                        "obfuscated_views": np.maximum(obf, obf_view)}
    return result


def loso_folds(records: list[sources.Record]) -> list[tuple[str, np.ndarray]]:
    """One fold per training source."""
    names = np.array([r.source for r in records])
    return [(s, names == s) for s in sorted({r.source for r in records if not r.heldout})]


def lolo_folds(records: list[sources.Record], langs: list[str]) -> list[tuple[str, np.ndarray]]:
    """One fold per language with at least ``MIN_LANGUAGE_ATTACKS`` attack records, and one fold
    ``other`` that leaves out every other language with attack records at once (``und`` never)."""
    codes = np.array(langs)
    counts: dict[str, int] = {}
    for c, r in zip(langs, records, strict=True):
        if r.label == 1 and not r.heldout and c != "und":
            counts[c] = counts.get(c, 0) + 1
    big = sorted(c for c, n in counts.items() if n >= MIN_LANGUAGE_ATTACKS)
    small = sorted(c for c, n in counts.items() if n < MIN_LANGUAGE_ATTACKS)
    folds = [(c, codes == c) for c in big]
    if small:
        folds.append(("other", np.isin(codes, small)))
    return folds

DATA_DIR = Path(__file__).resolve().parents[1] / "qgs_worker" / "core" / "data"
HEAD_ARTIFACT = "instruction_encoder.npz"
