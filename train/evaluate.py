"""``make eval``: the instruction detector measured on data it was not fitted to.

Prints three tables:

1. Leave one source out (recomputed, as ``train.py`` does): for each training source, recall
   (attack sources) and false-positive rate (benign sources) of a model fitted on every other
   source, at a threshold chosen from the other sources only.
2. The n-grams, the encoder and their stack side by side (``compare``): pooled and per-source
   LOSO, leave one language out, each as written and with the plain views, and obfuscated copies
   of the attacks.
3. The shipped model (``qgs_worker/core/data``, loaded by the product's own loader) on sets it
   never saw: AgentDojo's workspace and travel suites (attack texts, tool outputs carrying them,
   benign tool outputs and user prompts), prompt-security-fuzzer's attack templates, and the
   shared corpus (``../shared/corpus``: ``b_injection_payloads.jsonl``'s prompt categories and
   ``c_benign_scary_texts.jsonl``), which no training step reads.

Usage: ``.venv-train/bin/python train/evaluate.py [--cached] [--quick]`` (``--cached``: print
the tables ``make train`` stored in ``.train-cache/metrics.json`` instead of recomputing them;
``--quick``: four folds of whole sources instead of one per source; the shipped-model table is
always computed). The encoder's vectors are cached in ``.train-cache/embeddings``: the first run
encodes ~80,000 windows (~6 minutes on one core), later ones read them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402
import sources  # noqa: E402
import train  # noqa: E402
from qgs_worker.core.instruction_model import StackedModel, load_model  # noqa: E402
from qgs_worker.core.instruction_stack import load_head  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PROMPT_CATEGORIES = ("system_prompt_extraction", "prompt_injection_direct", "indirect_prompt_injection", "jailbreak")


def shipped_on_heldout(records: list[sources.Record], model=None) -> dict[str, dict[str, int]]:
    """The shipped model's counts on the held-out records and the shared corpus.

    Args:
        model: The model to score with; default: the n-gram model (``load_model``).
    """
    model = model or load_model()
    table: dict[str, dict[str, int]] = defaultdict(lambda: {"attacks": 0, "caught": 0, "benign": 0, "flagged": 0})
    for r in records:
        if not r.heldout:
            continue
        row = table[f"{r.source} ({'injected outputs' if r.spans else 'texts'})" if r.label else r.source]
        hit = model.score(r.text) >= model.threshold
        if r.label:
            row["attacks"] += 1
            row["caught"] += hit
        else:
            row["benign"] += 1
            row["flagged"] += hit
    if CORPUS.is_dir():
        for line in (CORPUS / "b_injection_payloads.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r["category"] in PROMPT_CATEGORIES:
                row = table[f"shared corpus b_ {r['category']}"]
                row["attacks"] += 1
                row["caught"] += model.score(r["text"]) >= model.threshold
        for line in (CORPUS / "c_benign_scary_texts.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            row = table["shared corpus c_benign_scary_texts"]
            row["benign"] += 1
            row["flagged"] += model.score(r["text"]) >= model.threshold
    return dict(table)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cached", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    records = sources.all_records()
    if args.cached:
        metrics = json.loads(train.METRICS.read_text(encoding="utf-8"))
    else:
        both = compare.run(records, load_model().config, quick=args.quick)
        metrics = {"loso": both["figures"]["loso"]["ngrams"]["written"]["table"], "comparison": both["figures"]}
    metrics["heldout"] = shipped_on_heldout(records)
    metrics["manifest"] = load_model().metadata
    train.print_table(metrics)
    head = load_head()
    if head is not None:
        from qgs_worker.encoders.use_m3 import UniversalSentenceEncoder

        stacked = StackedModel(load_model(), head, UniversalSentenceEncoder())
        print(f"shipped stack (threshold {head.threshold:.3f}) on sources never trained on:")
        for s, row in shipped_on_heldout(records, stacked).items():
            recall = f"{row['caught']}/{row['attacks']} {row['caught'] / row['attacks']:6.1%}" if row["attacks"] else "-"
            fp = f"{row['flagged']}/{row['benign']} {row['flagged'] / row['benign']:6.2%}" if row["benign"] else "-"
            print(f"{s:32} {recall:>16} {fp:>18}")
    if "comparison" in metrics:
        compare.print_comparison(metrics["comparison"])
    caught = [row for row in metrics["loso"].values() if row["attacks"]]
    benign = [row for s, row in metrics["loso"].items() if row["benign"] and s not in sources.PROMPT_FAMILIES]
    print(
        f"leave-one-source-out, mean over sources: recall "
        f"{np.mean([r['caught'] / r['attacks'] for r in caught]):.1%}, false positives "
        f"{np.mean([r['flagged'] / r['benign'] for r in benign]):.2%} (prompts written for a model excluded)"
    )


if __name__ == "__main__":
    main()
