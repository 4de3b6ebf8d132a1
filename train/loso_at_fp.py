"""Leave-one-source-out recall of the n-grams, the encoder and their stack at chosen benign FP rates.

The proxy of issue 32's must-hold "at least 50% of attacks flagged at at most 2% false
positives": every training source left out in turn (one fold per source, both readers fitted
from scratch without it, as ``make eval`` does: ``compare.run`` without the leave-one-language-out
folds, the views or the shipped-model table), then, for each rate,

- one threshold: the lowest that flags at most that share of the benign records in the budget
  (prompts written for a model excluded, each source capped), and the attacks it catches, pooled;
- per source: each source at a threshold chosen without it, recall and false positives pooled.

It reads the same data as ``make train`` (``make train-data`` builds it) and writes only
``.train-cache/folds-loso.npz``; nothing of the shipped model changes. AgentDojo's workspace and
travel suites, BFCL, inspect-evals and the shared corpus are not read.

Usage: ``.venv-train/bin/python train/loso_at_fp.py [--fp 0.01 0.02] [--cached]`` (``--cached``:
reuse the folds' logits of the last run).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402
import embed  # noqa: E402
import fit  # noqa: E402
import sources  # noqa: E402
import stack  # noqa: E402
import train  # noqa: E402
from qgs_worker.core.instruction_model import load_model  # noqa: E402

FOLDS = sources.CACHE / "folds-loso.npz"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fp", type=float, nargs="+", default=[0.01, 0.02])
    parser.add_argument("--cached", action="store_true")
    args = parser.parse_args()
    records = sources.all_records()
    config = load_model().config
    feats = fit.featurize(records, config)
    more = stack.extras(records, config)
    folds = stack.loso_folds(records)
    if args.cached and FOLDS.exists():
        saved = np.load(FOLDS)
        logits = stack.Logits(saved["ngrams"], saved["encoder"],
                              [saved[f"extra_ngrams_{i}"] for i in range(len(more))],
                              [saved[f"extra_encoder_{i}"] for i in range(len(more))])  # fmt: skip
    else:
        vectors = embed.window_vectors(records, config)
        logits = stack.run_folds(records, feats, vectors, folds, more)
        np.savez(FOLDS, ngrams=logits.ngrams, encoder=logits.encoder,
                 **{f"extra_ngrams_{i}": a for i, a in enumerate(logits.extra_ngrams)},
                 **{f"extra_encoder_{i}": a for i, a in enumerate(logits.extra_encoder)})  # fmt: skip
    scores = stack.model_scores(records, feats, logits, more, folds)
    train_sources = sorted({r.source for r in records if not r.heldout})
    print(f"{len(records)} records, {len(folds)} folds (one per source)")
    for rate in args.fp:
        train.TARGET_FP = rate  # read by train.figures and compare.loso_summary at call time
        summary = compare.loso_summary(records, scores, train_sources, more[1].owner)
        print(f"== benign false positives <= {rate:.0%}")
        for model in compare.MODELS:
            s = summary[model]["written"]
            m = s["matched"]
            attacks = s["attacks"]
            budget = s["benign"]
            print(f"{model:8} one threshold {m['threshold']:.3f}: attacks caught {m['caught']}/{attacks} "
                  f"({m['caught'] / attacks:.1%}), benign flagged {m['flagged']}/{budget} "
                  f"({m['flagged'] / budget:.2%}); per-source thresholds: caught {s['caught']}/{attacks} "
                  f"({s['caught'] / attacks:.1%}), flagged {s['flagged']}/{budget} ({s['flagged'] / budget:.2%})")
        for model in ("ngrams", "stack"):
            table = summary[model]["written"]["table"]
            rows = [f"{name} {r['caught']}/{r['attacks']}" for name, r in table.items() if r["attacks"]]
            print(f"  {model} per attack source (per-source thresholds): " + "; ".join(rows))


if __name__ == "__main__":
    main()
