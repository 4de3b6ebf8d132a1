"""The n-grams, the encoder and the stack side by side: LOSO and LOLO, as written and with views.

``run`` does every fold once for both models (``stack.run_folds``), scores the three ways, and
returns the figures ``train.py`` stores in ``metrics.json`` (and
``model_card.py`` and ``evaluate.py`` print). ``print_comparison`` prints them.

Figures: LOSO recall and false positives at each source's own threshold, chosen without it
(``train.figures``: at most 1% of the other benign sources' records, pooled, prompts written for
a model excluded); pooled = caught / attacks over every attack source, flagged / benign over
every benign source in the budget. LOLO: the left-out language's records scored by models that
never saw it, at the threshold that keeps the *other* languages' benign records (scored LOSO) at
1%.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import embed  # noqa: E402
import fit  # noqa: E402
import languages  # noqa: E402
import sources  # noqa: E402
import stack  # noqa: E402
import train  # noqa: E402

MODELS = ("ngrams", "encoder", "stack")
VARIANTS = ("written", "views")


def loso_summary(records: list[sources.Record], scores: dict, train_sources: list[str], obf_owner: np.ndarray) -> dict:
    """Per model and variant: the per-source table, the pooled figures, and the obfuscated copies' recall.

    ``matched``: one threshold over every source's out-of-fold scores, the lowest that flags at
    most 1% of the benign records in the budget (each source capped as ``fit.threshold_for``
    caps it), and the attacks it catches: the three models at the same benign false positives.
    """
    names = np.array([r.source for r in records])
    out: dict = {}
    for model in MODELS:
        out[model] = {}
        for variant in VARIANTS:
            result = train.figures(records, scores[model][variant], train_sources)
            table = result["table"]
            attacks = sum(r["attacks"] for r in table.values())
            caught = sum(r["caught"] for r in table.values())
            budget = [r for s, r in table.items() if r["benign"] and s not in sources.PROMPT_FAMILIES]
            obf = scores[model]["obfuscated_views" if variant == "views" else "obfuscated"]
            cut = np.array([table.get(records[o].source, {"threshold": np.inf})["threshold"] for o in obf_owner])
            scores_now = scores[model][variant]
            labels = np.array([r.label for r in records])
            in_budget = np.array([not r.heldout and r.source not in sources.PROMPT_FAMILIES for r in records])
            attack = np.array([not r.heldout for r in records]) & (labels == 1)
            pools = {s: scores_now[in_budget & (labels == 0) & (names == s)] for s in train_sources}
            pools = {s: v for s, v in pools.items() if v.size}
            cut = fit.threshold_for(pools, train.TARGET_FP)  # one threshold, every benign source in
            out[model][variant] = {
                "matched": {"threshold": cut, "caught": int(np.sum(scores_now[attack] >= cut)),
                            "flagged": int(np.sum(scores_now[in_budget & (labels == 0)] >= cut))},
                "table": table, "threshold": result["threshold"], "block_threshold": result["block_threshold"],
                "attacks": attacks, "caught": caught,
                "benign": sum(r["benign"] for r in budget), "flagged": sum(r["flagged"] for r in budget),
                "obfuscated": int(len(obf_owner)), "obfuscated_caught": int(np.sum(obf >= cut)),
            }
    return out


def lolo_summary(records: list[sources.Record], langs: list[str], lolo: dict, loso: dict,
                 folds: list[tuple[str, np.ndarray]]) -> dict:
    """Per model and variant, per left-out language (small ones pooled as ``other``): recall and FP."""
    labels = np.array([r.label for r in records])
    names = np.array([r.source for r in records])
    budget = np.array([not r.heldout and r.source not in sources.PROMPT_FAMILIES for r in records])
    out: dict = {}
    for model in MODELS:
        out[model] = {}
        for variant in VARIANTS:
            rows: dict[str, dict[str, int]] = defaultdict(lambda: {"attacks": 0, "caught": 0, "benign": 0, "flagged": 0})
            for code, left_out in folds:
                others = budget & ~left_out & (labels == 0)
                pools = {s: loso[model][variant][others & (names == s)] for s in set(names[others])}
                cut = fit.threshold_for(pools, train.TARGET_FP)
                got = lolo[model][variant]
                key = code
                pos = left_out & (labels == 1) & np.array([not r.heldout for r in records])
                neg = left_out & (labels == 0) & budget
                rows[key]["attacks"] += int(pos.sum())
                rows[key]["caught"] += int(np.sum(got[pos] >= cut))
                rows[key]["benign"] += int(neg.sum())
                rows[key]["flagged"] += int(np.sum(got[neg] >= cut))
            out[model][variant] = dict(rows)
    return out


def run(records: list[sources.Record], config, quick: bool = False) -> dict:
    """Every fold of both models: the figures and what shipping the stack needs.

    Args:
        quick: Four folds of whole sources instead of one per source (each source's figures from
            the fold that left it out with a quarter of the others); LOLO as always.

    Returns:
        ``{"feats", "vectors", "loso_logits", "figures": {"loso": ..., "lolo": ...},
        "languages": {...}}`` (the arrays for ``train.py``, the rest for ``metrics.json``).
    """
    started = time.perf_counter()
    feats = fit.featurize(records, config)
    vectors = embed.window_vectors(records, config)
    more = stack.extras(records, config)
    print(f"{len(records)} records, {len(feats.indices)} windows, {sum(len(x.owner) for x in more)} extra texts, "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    train_sources = sorted({r.source for r in records if not r.heldout})
    folds = stack.loso_folds(records)
    if quick:
        names = np.array([r.source for r in records])
        folds = [(f"group {i}", np.isin(names, train_sources[i::4])) for i in range(4)]
    loso_logits = stack.run_folds(records, feats, vectors, folds, more)
    langs = languages.languages(records)
    lolo_f = stack.lolo_folds(records, langs)
    lolo_logits = stack.run_folds(records, feats, vectors, lolo_f, more) if lolo_f else None
    np.savez(sources.CACHE / f"folds-{'quick' if quick else 'full'}.npz", ngrams=loso_logits.ngrams,
             encoder=loso_logits.encoder, **({"lolo_ngrams": lolo_logits.ngrams, "lolo_encoder": lolo_logits.encoder}
                                           if lolo_logits is not None else {}))
    loso = stack.model_scores(records, feats, loso_logits, more, folds)
    figures = {"loso": loso_summary(records, loso, train_sources, more[1].owner)}
    if lolo_logits is not None:
        lolo = stack.model_scores(records, feats, lolo_logits, more, lolo_f)
        figures["lolo"] = lolo_summary(records, langs, lolo, loso, lolo_f)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for code, r in zip(langs, records, strict=True):
        if not r.heldout:
            counts[code][r.label] += 1
    figures["protocol"] = "four folds of whole sources" if quick else "one fold per source"
    return {"feats": feats, "vectors": vectors, "loso_logits": loso_logits, "figures": figures,
            "languages": {c: {"benign": b, "attacks": a} for c, (b, a) in sorted(counts.items())}}


def _rate(hit: int, total: int) -> str:
    return f"{hit}/{total} {hit / total:6.1%}" if total else "-"


def print_comparison(entry: dict) -> None:
    """The three models' pooled LOSO, per-source recall, obfuscated copies and LOLO."""
    loso = entry["loso"]
    print(f"\nn-grams vs encoder vs stack (rank fusion, n-gram weight {stack.NGRAM_WEIGHT}, the encoder "
          f"reading every {stack.EVERY}nd window); each at its own threshold for <= 1% benign FP, leave one source out")
    print(f"{'':34}" + "".join(f"{m + ' ' + v:>24}" for m in MODELS for v in ("written", "+views")))
    for label, key in (("pooled recall", "recall"), ("pooled benign FP", "fp"), ("obfuscated attacks", "obf"),
                       ("recall at one threshold, 1% FP", "matched")):
        cells = []
        for m in MODELS:
            for v in VARIANTS:
                row = loso[m][v]
                if key == "recall":
                    cells.append(_rate(row["caught"], row["attacks"]))
                elif key == "fp":
                    cells.append(_rate(row["flagged"], row["benign"]))
                elif key == "matched":
                    cells.append(_rate(row["matched"]["caught"], row["attacks"]))
                else:
                    cells.append(_rate(row["obfuscated_caught"], row["obfuscated"]))
        print(f"{label:34}" + "".join(f"{c:>24}" for c in cells))
    for s, row in loso["ngrams"]["written"]["table"].items():
        if not row["attacks"]:
            continue
        cells = [_rate(loso[m][v]["table"][s]["caught"], row["attacks"]) for m in MODELS for v in VARIANTS]
        print(f"{s:34}" + "".join(f"{c:>24}" for c in cells))
    if "lolo" in entry:
        print("\nleave one language out (langid; the languages with fewer than "
              f"{stack.MIN_LANGUAGE_ATTACKS} attack records left out together as 'other'): recall / benign FP")
        lolo = entry["lolo"]
        for code in sorted(lolo["ngrams"]["written"], key=lambda c: -lolo["ngrams"]["written"][c]["attacks"]):
            cells = []
            for m in MODELS:
                for v in VARIANTS:
                    row = lolo[m][v][code]
                    cells.append(f"{_rate(row['caught'], row['attacks']).split(' ')[-1]} / "
                                 f"{row['flagged'] / max(row['benign'], 1):.1%}")
            n = lolo["ngrams"]["written"][code]
            print(f"{code + ' (' + str(n['attacks']) + ' att, ' + str(n['benign']) + ' ben)':34}"
                  + "".join(f"{c:>24}" for c in cells))
