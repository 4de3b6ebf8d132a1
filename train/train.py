"""Train the instruction detector and write the artifact, its manifest and the figures.

Steps (``make train`` runs this after the data is in ``.train-cache``):

1. Read every record (``sources.all_records``) and featurize it with the package's featurizer.
2. Leave one source out: for each training source S, fit on every other training source and
   score S's records. These scores are S's figures (recall for an attack source, false
   positives for a benign one) and the benign ones choose the threshold.
3. The threshold: the lowest one at which at most 1% of the benign records, pooled over the
   benign sources, score at or above it by a model that never saw their source
   (``fit.threshold_for``); prompts written for a model
   (``sources.PROMPT_FAMILIES``) are reported but not in that budget. For the figures of source
   S, the threshold is chosen the same way from the other sources' scores only.
4. Fit on every training source, write ``qgs_worker/core/data/instruction_model.npz`` (float16
   weights and the bias), ``instruction_model.json`` (sha256, threshold, feature config, data
   and package versions) and ``.train-cache/metrics.json`` (the figures ``model_card.py`` writes
   into the model card).

5. The encoder beside the n-grams (``compare``, ``stack``): the same folds fit the encoder's head
   too (every window's vector from ``embed``, cached), and leave one language out; the stack
   (rank fusion, ``qgs_worker.core.instruction_stack``) ships as
   ``qgs_worker/core/data/instruction_encoder.npz`` and ``.json`` only when its pooled
   leave-one-source-out recall beats the n-grams' at the same 1% budget.

Usage: ``.venv-train/bin/python train/train.py [--quick] [--keep-ngrams]`` (``--quick``: no
leave-one-out, the threshold from a 4-fold split by source; for trying features, never for a
shipped model. ``--keep-ngrams``: the n-gram artifact as shipped is kept, only the encoder's head
is fitted and written; the figures are recomputed all the same).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import platform
import sys
import time
from collections import Counter, defaultdict
from importlib import metadata
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fit  # noqa: E402
import sources  # noqa: E402
import stack  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT / "qgs_worker" / "core" / "data"
METRICS = sources.CACHE / "metrics.json"
TARGET_FP = 0.01
BLOCK_FP = 0.001  # the tool gate stops a free-text argument on the model alone only above this


def loso_scores(
    records: list[sources.Record], feats: fit.Featurized, train_sources: list[str], groups: int = 0
) -> np.ndarray:
    """Each training record's score by a model fitted without its source (or its group of sources).

    Args:
        groups: 0 for one fold per source (leave-one-source-out); N for N folds of whole sources.
    """
    names = np.array([r.source for r in records])
    heldout = np.array([r.heldout for r in records])
    out = np.full(len(records), np.nan)
    folds = [[s] for s in train_sources] if groups == 0 else [train_sources[i::groups] for i in range(groups)]
    for number, fold in enumerate(folds, start=1):
        started = time.perf_counter()
        inside = np.isin(names, fold)
        weights, bias = fit.fit(records, feats, ~inside & ~heldout)
        scores = fit.record_scores(feats, weights, bias, len(records))
        out[inside] = scores[inside]
        print(f"  fold {number}/{len(folds)} {','.join(fold)}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


def figures(records: list[sources.Record], scores: np.ndarray, train_sources: list[str]) -> dict:
    """Per source: recall or false-positive rate at a threshold chosen without that source."""
    by_source: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(records):
        by_source[r.source].append(i)
    benign = {
        s: scores[idx] for s in train_sources
        if s not in sources.PROMPT_FAMILIES
        and (idx := [i for i in by_source[s] if records[i].label == 0])
    }  # fmt: skip
    table = {}
    for s in train_sources:
        others = {k: v for k, v in benign.items() if k != s}
        cut = fit.threshold_for(others, TARGET_FP)
        pos = [i for i in by_source[s] if records[i].label == 1]
        neg = [i for i in by_source[s] if records[i].label == 0]
        table[s] = {
            "threshold": round(cut, 4),
            "attacks": len(pos),
            "caught": int(np.sum(scores[pos] >= cut)) if pos else 0,
            "benign": len(neg),
            "flagged": int(np.sum(scores[neg] >= cut)) if neg else 0,
        }
    return {
        "table": table,
        "threshold": fit.threshold_for(benign, TARGET_FP),
        "block_threshold": fit.threshold_for(benign, BLOCK_FP),
    }


def write_artifact(
    weights: np.ndarray, bias: float, threshold: float, block_threshold: float, config, extra: dict
) -> dict:
    """Write the .npz and its manifest; return the manifest."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, weights=weights.astype(np.float16), bias=np.array([bias], dtype=np.float32))
    data = buffer.getvalue()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    (DATA_DIR / "instruction_model.npz").write_bytes(data)
    manifest = {
        "artifact": "instruction_model.npz",
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "threshold": round(threshold, 6),
        "block_threshold": round(max(block_threshold, threshold), 6),
        "features": config.to_json(),
        "model": f"logistic regression (scikit-learn liblinear, C={fit.C}), float16 weights",
        **extra,
    }
    (DATA_DIR / "instruction_model.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--keep-ngrams", action="store_true",
                        help="keep the shipped n-gram artifact (fit and ship only the encoder's head)")
    args = parser.parse_args()
    np.random.seed(sources.SEED)
    started = time.perf_counter()
    records = sources.all_records()
    config = fit.FeatureConfig(**json.loads(os.environ.get("QGS_TRAIN_FEATURES", "{}")))
    import compare  # the encoder beside the n-grams: every fold of both models, once

    both = compare.run(records, config, quick=args.quick)
    feats = both["feats"]
    print(f"{len(records)} records, {len(feats.indices)} windows, folds done in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    train_sources = sorted({r.source for r in records if not r.heldout})
    scores = stack.sigmoid(stack.record_max(both["loso_logits"].ngrams, feats.record_of, len(records)))
    result = figures(records, scores, train_sources)
    heldout = np.array([r.heldout for r in records])
    if args.keep_ngrams:
        from qgs_worker.core.instruction_model import load_model

        kept = load_model()
        weights, bias = np.asarray(kept.weights, dtype=np.float32), kept.bias
        threshold = kept.threshold
    else:
        weights, bias = fit.fit(records, feats, ~heldout)
        threshold = result["threshold"]
    final = fit.record_scores(feats, weights, bias, len(records))
    held = {}
    for s in sorted({r.source for r in records if r.heldout}):
        pos = [i for i, r in enumerate(records) if r.source == s and r.label == 1]
        neg = [i for i, r in enumerate(records) if r.source == s and r.label == 0]
        held[s] = {"attacks": len(pos), "caught": int(np.sum(final[pos] >= threshold)),
                   "benign": len(neg), "flagged": int(np.sum(final[neg] >= threshold))}
    counts = Counter((r.source, r.label, r.heldout) for r in records)
    origins = Counter((r.source, r.origin.rsplit(" attack=", 1)[0]) for r in records)
    data_digest = hashlib.sha256("\n".join(sorted(sources._key(r.text) + str(r.label) for r in records)).encode()).hexdigest()
    versions = {p: metadata.version(p) for p in ("numpy", "scipy", "scikit-learn", "PyYAML")}
    if args.keep_ngrams:
        manifest = kept.metadata
    else:
        manifest = write_artifact(weights, bias, threshold, result["block_threshold"], config, {
            "trained_on_records": int(np.sum(~heldout)),
            "data_sha256": data_digest,
            "python": platform.python_version(),
            "training_packages": versions,
            "quick": args.quick,
        })
    shipped = ship_stack(records, both, manifest)
    metrics = {
        "manifest": manifest,
        "comparison": {**both["figures"], "languages": both["languages"], "stack_shipped": shipped,
                       "ngram_weight": stack.NGRAM_WEIGHT, "every": stack.EVERY, "head_c": stack.HEAD_C,
                       "head_negative_share": stack.HEAD_NEGATIVE_SHARE},
        "loso": result["table"],
        "heldout": held,
        "counts": [{"source": s, "label": lab, "heldout": h, "records": n} for (s, lab, h), n in sorted(counts.items())],
        "origins": [{"source": s, "origin": o, "records": n} for (s, o), n in sorted(origins.items())],
        "seconds": round(time.perf_counter() - started),
    }
    METRICS.write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    with (sources.CACHE / "scores.jsonl").open("w", encoding="utf-8") as out:  # for error analysis
        for r, oof, mine in zip(records, scores, final, strict=True):
            out.write(json.dumps({"source": r.source, "label": r.label, "origin": r.origin, "loso": oof,
                                  "shipped": mine, "text": r.text[:300]}, ensure_ascii=False) + "\n")
    print_table(metrics)
    compare.print_comparison(metrics["comparison"])
    print(f"stack {'shipped' if shipped else 'NOT shipped (it does not beat the n-grams)'}: "
          f"{stack.HEAD_ARTIFACT if shipped else '-'}")


def ship_stack(records: list[sources.Record], both: dict, ngram_manifest: dict) -> dict | None:
    """Write the encoder's head when the stack beats the n-grams: more attacks caught, leave one
    source out, at one threshold each that flags 1% of the benign records (``matched``).

    The head is fitted on every training record; the tail shares' pools are the benign windows'
    leave-one-source-out logits; the thresholds are the stack's LOSO ones. Where
    the stack does not beat the n-grams, an earlier head is removed: the product reads the
    n-grams alone even with the encoder installed.

    Returns:
        The head's manifest, or None when it does not ship.
    """
    import embed

    loso = both["figures"]["loso"]
    ngrams, stacked = loso["ngrams"]["written"], loso["stack"]["written"]
    # the same benign false positives: one threshold each, at 1% of every benign source's records
    better = stacked["matched"]["caught"] > ngrams["matched"]["caught"]
    paths = [stack.DATA_DIR / stack.HEAD_ARTIFACT, (stack.DATA_DIR / stack.HEAD_ARTIFACT).with_suffix(".json")]
    if not better:
        for path in paths:
            path.unlink(missing_ok=True)
        return None
    feats, vectors, logits = both["feats"], both["vectors"], both["loso_logits"]
    heldout = np.array([r.heldout for r in records])
    head_w, head_b = stack.fit_head(records, feats, vectors, ~heldout)
    encoder_logits = stack.spread_all(logits.encoder, feats.record_of)
    pool = stack.benign_windows(records, feats) & ~np.isnan(logits.ngrams) & ~np.isnan(encoder_logits)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, weights=head_w.astype(np.float32), bias=np.array([head_b], dtype=np.float32),
                        ngram_benign=np.sort(logits.ngrams[pool]).astype(np.float32),
                        encoder_benign=np.sort(encoder_logits[pool]).astype(np.float32))
    data = buffer.getvalue()
    paths[0].write_bytes(data)
    encoder = embed.UniversalSentenceEncoder(cache_texts=0)
    manifest = {
        "artifact": stack.HEAD_ARTIFACT,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "encoder": encoder.name,
        "threshold": round(stacked["threshold"], 6),
        "block_threshold": round(max(stacked["block_threshold"], stacked["threshold"]), 6),
        "ngram_weight": stack.NGRAM_WEIGHT,
        "every": stack.EVERY,
        "benign_windows": int(pool.sum()),
        "protocol": both["figures"]["protocol"],
        "head": f"logistic regression (scikit-learn lbfgs, C={stack.HEAD_C}, benign windows "
                f"{stack.HEAD_NEGATIVE_SHARE:.0%} of the weight) over the encoder's 512-dim vector",
        "fusion": "rank: (w ln t_ngrams + (1 - w) ln t_encoder) / (w ln t_min_ngrams + (1 - w) ln t_min_encoder), "
                  "t = benign tail share, w = ngram_weight",
        "ngram_sha256": ngram_manifest["sha256"],
    }
    paths[1].write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def print_table(metrics: dict) -> None:
    """The leave-one-source-out table and the held-out figures, as ``make eval`` prints them."""
    print(f"threshold {metrics['manifest']['threshold']:.3f} (benign FP <= {TARGET_FP:.0%} pooled, leave-one-source-out;"
          " * = prompts written for a model: reported, not in that budget)")
    print(f"{'source (left out of training)':32} {'recall':>16} {'false positives':>18}")
    for s, row in metrics["loso"].items():
        recall = f"{row['caught']}/{row['attacks']} {row['caught'] / row['attacks']:6.1%}" if row["attacks"] else "-"
        fp = f"{row['flagged']}/{row['benign']} {row['flagged'] / row['benign']:6.2%}" if row["benign"] else "-"
        print(f"{s + (' *' if s in sources.PROMPT_FAMILIES else ''):32} {recall:>16} {fp:>18}")
    print("shipped model on sources never trained on:")
    for s, row in metrics["heldout"].items():
        recall = f"{row['caught']}/{row['attacks']} {row['caught'] / row['attacks']:6.1%}" if row["attacks"] else "-"
        fp = f"{row['flagged']}/{row['benign']} {row['flagged'] / row['benign']:6.2%}" if row["benign"] else "-"
        print(f"{s:32} {recall:>16} {fp:>18}")


if __name__ == "__main__":
    main()
