"""Issue 32's experiments: other heads on the encoder, a third reader, other fusions, all LOSO.

Reads the folds' n-gram logits that ``train/loso_at_fp.py`` stored (``.train-cache/folds-loso.npz``:
one n-gram model per training source left out, fitted from scratch) and the cached encoder
vectors (``embed.py``; ``--minilm``: also all-MiniLM-L6-v2's, ``minilm.py``), then for each
variant fits the encoder heads again **in every fold, from scratch, on the other sources only**
and scores the left-out source:

- heads: the logistic regression at several C, class and source weights, a small MLP;
- fusions: the rank product of the readers' benign tail shares (today's, with its n-gram weight),
  and a logistic stacker over the readers' window logits fitted inside each fold on the training
  sources' out-of-fold logits only;
- windowing: the encoder reading every window instead of every other.

Every variant is measured as ``make train`` decides shipping: one threshold each, the lowest that
flags at most 1% (and 2%) of the benign records in the budget, and the attacks it catches, pooled
over the attack sources left out. A variant is chosen without the source it is measured on
(``nested``: for each source, the variant best on the other sources' records alone), so the
pooled figure of the chosen variants is not tuned on any left-out source. The held-out sets
(AgentDojo's workspace and travel suites, prompt-security-fuzzer) are never fitted or scored.

Usage: ``.venv-train/bin/python train/loso_readers.py [--minilm] [--only NAME ...]``; each variant's
out-of-fold encoder logits are cached in ``.train-cache/readers/`` (delete it to refit).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import embed  # noqa: E402
import fit  # noqa: E402
import sources  # noqa: E402
import stack  # noqa: E402
from qgs_worker.core.instruction_model import load_model  # noqa: E402
from qgs_worker.core.instruction_stack import tail_share  # noqa: E402

FOLDS = sources.CACHE / "folds-loso.npz"
OUT = sources.CACHE / "readers"
RATES = (0.01, 0.02)


class Data:
    """Records, windows and the cached vectors and n-gram logits, aligned by window."""

    def __init__(self, minilm: bool) -> None:
        started = time.perf_counter()
        self.records = sources.all_records()
        config = load_model().config
        windows = embed.window_texts(self.records, config)
        self.record_of = np.repeat(np.arange(len(self.records)), [len(w) for w in windows])
        self.position = np.concatenate([np.arange(len(w)) for w in windows])
        labels = []
        for r, per in zip(self.records, windows, strict=True):
            spans = list(_window_spans(r.text, config))
            assert len(spans) == len(per)
            labels.extend(fit._window_label(r, s, e) for s, e in spans)
        self.labels = np.array(labels, dtype=np.int8)
        self.feats = fit.Featurized([], self.labels, self.record_of, config)
        self.heldout = np.array([r.heldout for r in self.records])
        self.label = np.array([r.label for r in self.records])
        self.names = np.array([r.source for r in self.records])
        self.folds = stack.loso_folds(self.records)
        saved = np.load(FOLDS)
        self.ngrams = saved["ngrams"]
        assert self.ngrams.size == self.record_of.size, "folds-loso.npz is of other windows: run loso_at_fp.py"
        self.vectors = {"use": embed.window_vectors(self.records, config)}
        self.read = self.position % stack.EVERY == 0
        if minilm:
            import minilm as mini

            self.vectors["minilm"] = mini.window_vectors(self.records, config, only=self.read)
        self.in_budget = ~self.heldout & ~np.isin(self.names, list(sources.PROMPT_FAMILIES))
        self.attack = ~self.heldout & (self.label == 1)
        print(f"{len(self.records)} records, {self.record_of.size} windows, {len(self.folds)} folds, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


def _window_spans(text: str, config):
    from qgs_worker.core.instruction_text import windows

    return windows(text, config)


# --- heads ----------------------------------------------------------------------------------
def _weights(d: Data, rows: np.ndarray, spec: dict) -> np.ndarray:
    """Per-window weights: ``fit.sample_weights`` (1/sqrt(source size)), or 1/source size with
    ``"sources": "equal"``; the benign class's share ``spec["benign"]`` (default 0.5)."""
    w = fit.sample_weights(d.records, d.feats, rows)
    if spec.get("sources") == "equal":
        rec = d.record_of[rows]
        sizes = {}
        for s in set(d.names[rec]):
            sizes[s] = len(set(rec[d.names[rec] == s].tolist()))
        w = w / np.sqrt(np.array([sizes[s] for s in d.names[rec]], dtype=np.float64))
    share = spec.get("benign", 0.5)
    y = d.labels[rows]
    for value, part in ((0, share), (1, 1 - share)):
        m = y == value
        w[m] *= part / w[m].sum()
    return w * rows.size


def fit_predict(spec: dict, x_fit: np.ndarray, y: np.ndarray, w: np.ndarray, x_out: np.ndarray) -> np.ndarray:
    """Fit the head ``spec`` and return its logits of ``x_out``."""
    if spec["kind"] == "logreg":
        from sklearn.linear_model import LogisticRegression

        model = LogisticRegression(C=spec["C"], max_iter=2000)
        model.fit(x_fit, y, sample_weight=w)
        return x_out @ model.coef_[0] + model.intercept_[0]
    if spec["kind"] == "mlp":
        from sklearn.neural_network import MLPClassifier

        model = MLPClassifier(hidden_layer_sizes=(spec["hidden"],), alpha=spec["alpha"], max_iter=spec.get("iter", 150),
                              solver="lbfgs", random_state=sources.SEED)
        model.fit(x_fit, y, sample_weight=w)
        p = np.clip(model.predict_proba(x_out)[:, 1], 1e-7, 1 - 1e-7)
        return np.log(p / (1 - p))
    raise ValueError(spec)


def head_logits(d: Data, name: str, spec: dict) -> np.ndarray:
    """Out-of-fold logits of the head ``spec`` on the reader ``spec["reader"]``, every fold fitted
    from scratch without its source; cached as ``readers/<name>.npy``."""
    path = OUT / f"{name}.npy"
    if path.exists():
        return np.load(path)
    x = d.vectors[spec["reader"]].astype(np.float32)
    trained_on = d.read if spec["reader"] != "use" or spec.get("read_only") else np.ones_like(d.read)
    out = np.full(d.record_of.size, np.nan)
    started = time.perf_counter()
    for _, left_out in d.folds:
        inside = ~left_out & ~d.heldout
        rows = np.flatnonzero(inside[d.record_of] & (d.labels >= 0) & trained_on)
        scored = np.flatnonzero(left_out[d.record_of])
        out[scored] = fit_predict(spec, x[rows], d.labels[rows], _weights(d, rows, spec), x[scored])
    OUT.mkdir(parents=True, exist_ok=True)
    np.save(path, out)
    print(f"  head {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


# --- fusions --------------------------------------------------------------------------------
def window_log_tails(d: Data, readers: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per reader, ln(benign tail share) of each window, the pool being the benign windows outside
    the window's fold (their out-of-fold logits), as ``stack.model_scores`` takes it."""
    benign = stack.benign_windows(d.records, d.feats)
    out = {k: np.full(d.record_of.size, np.nan) for k in readers}
    for _, left_out in d.folds:
        rows = left_out[d.record_of]
        for k, v in readers.items():
            pool = benign & ~rows & ~np.isnan(v)
            out[k][rows] = np.log(tail_share(np.sort(v[pool]), v[rows]))
    return out


def rank_fusion(tails: dict[str, np.ndarray], weights: dict[str, float]) -> np.ndarray:
    """Today's fusion, any number of readers: the weighted sum of ln tail shares, negated (the
    shipped score divides it by its floor; a positive constant changes no ranking)."""
    return -sum(weights[k] * tails[k] for k in weights)


def stacker(d: Data, feats: dict[str, np.ndarray], names: list[str], c: float = 1.0) -> np.ndarray:
    """A logistic stacker over the readers' window features, fitted in each fold on the training
    sources' windows only (their out-of-fold values), scoring the left-out source's windows."""
    from sklearn.linear_model import LogisticRegression

    x = np.column_stack([feats[k] for k in names])
    ok = ~np.isnan(x).any(axis=1)
    out = np.full(d.record_of.size, np.nan)
    for _, left_out in d.folds:
        inside = ~left_out & ~d.heldout
        rows = np.flatnonzero(inside[d.record_of] & (d.labels >= 0) & ok)
        model = LogisticRegression(C=c, max_iter=1000)
        model.fit(x[rows], d.labels[rows], sample_weight=_weights(d, rows, {}))
        scored = np.flatnonzero(left_out[d.record_of] & ok)
        out[scored] = model.decision_function(x[scored])
    return out


# --- measures -------------------------------------------------------------------------------
def cut_for(pools: dict[str, np.ndarray], rate: float) -> float:
    """``fit.threshold_for`` without its clamp to 0.01-0.999 (the scores here are on any scale):
    the lowest threshold at which at most ``rate`` of the pooled benign scores are at or above it."""
    pooled = np.sort(np.concatenate(list(pools.values())))
    allowed = int(np.floor(rate * pooled.size))
    return float(np.nextafter(pooled[pooled.size - allowed - 1], np.inf))


def record_scores(d: Data, window: np.ndarray) -> np.ndarray:
    return stack.record_max(window, d.record_of, len(d.records))


def matched(d: Data, scores: np.ndarray, rate: float, keep: np.ndarray | None = None) -> tuple[int, int, int, int]:
    """One threshold flagging at most ``rate`` of the benign records in the budget (each source
    capped, ``fit.threshold_for``), restricted to records in ``keep``: (caught, attacks, flagged, benign)."""
    keep = np.ones(len(d.records), bool) if keep is None else keep
    benign = d.in_budget & (d.label == 0) & keep
    pools = {s: scores[benign & (d.names == s)] for s in set(d.names[benign])}
    cut = cut_for(pools, rate)
    attack = d.attack & keep
    return (int(np.sum(scores[attack] >= cut)), int(attack.sum()),
            int(np.sum(scores[benign] >= cut)), int(benign.sum()))


def per_source(d: Data, scores: np.ndarray, rate: float) -> dict[str, tuple[int, int]]:
    """Recall of each attack source at the one threshold (pooled benign, ``rate``)."""
    benign = d.in_budget & (d.label == 0)
    cut = cut_for({s: scores[benign & (d.names == s)] for s in set(d.names[benign])}, rate)
    out = {}
    for s in sorted(set(d.names[d.attack])):
        m = d.attack & (d.names == s)
        out[s] = (int(np.sum(scores[m] >= cut)), int(m.sum()))
    return out


def nested(d: Data, variants: dict[str, np.ndarray], rate: float) -> tuple[int, int, dict[str, str]]:
    """For each source, the variant with the most attacks caught at ``rate`` on the *other* sources'
    records alone (their benign records setting the threshold): the choice never sees the source.
    Pooled over the sources: the attacks each source's chosen variant catches at its one threshold
    (``matched``, every benign record in the budget, as ``make train`` compares)."""
    cuts = {}
    for k, scores in variants.items():
        benign = d.in_budget & (d.label == 0)
        cuts[k] = cut_for({t: scores[benign & (d.names == t)] for t in set(d.names[benign])}, rate)
    caught = attacks = 0
    chosen = {}
    for s, left_out in d.folds:
        if not (d.attack & left_out).any():
            continue
        best = max(variants, key=lambda k: matched(d, variants[k], rate, ~left_out)[0])
        chosen[s] = best
        m = d.attack & left_out
        caught += int(np.sum(variants[best][m] >= cuts[best]))
        attacks += int(m.sum())
    return caught, attacks, chosen


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minilm", action="store_true")
    parser.add_argument("--stackers", action="store_true", help="also the logistic stackers (slower)")
    parser.add_argument("--json", type=Path, default=sources.CACHE / "readers.json")
    args = parser.parse_args()
    d = Data(args.minilm)
    heads = {
        "use_c0.003": {"reader": "use", "kind": "logreg", "C": 0.003},  # today's head
        "use_c0.001": {"reader": "use", "kind": "logreg", "C": 0.001},
        "use_c0.01": {"reader": "use", "kind": "logreg", "C": 0.01},
        "use_c0.03": {"reader": "use", "kind": "logreg", "C": 0.03},
        "use_c0.1": {"reader": "use", "kind": "logreg", "C": 0.1},
        "use_c1": {"reader": "use", "kind": "logreg", "C": 1.0},
        "use_c0.003_equal": {"reader": "use", "kind": "logreg", "C": 0.003, "sources": "equal"},
        "use_c0.003_b0.8": {"reader": "use", "kind": "logreg", "C": 0.003, "benign": 0.8},
        "use_c0.01_equal": {"reader": "use", "kind": "logreg", "C": 0.01, "sources": "equal"},
        "use_c0.003_b0.7": {"reader": "use", "kind": "logreg", "C": 0.003, "benign": 0.7},
        "use_c0.003_b0.9": {"reader": "use", "kind": "logreg", "C": 0.003, "benign": 0.9},
        "use_c0.003_b0.95": {"reader": "use", "kind": "logreg", "C": 0.003, "benign": 0.95},
        "use_c0.01_b0.8": {"reader": "use", "kind": "logreg", "C": 0.01, "benign": 0.8},
        "use_c0.01_b0.9": {"reader": "use", "kind": "logreg", "C": 0.01, "benign": 0.9},
        "use_c0.001_b0.8": {"reader": "use", "kind": "logreg", "C": 0.001, "benign": 0.8},
        "use_c0.001_b0.9": {"reader": "use", "kind": "logreg", "C": 0.001, "benign": 0.9},
        "use_mlp32_a3": {"reader": "use", "kind": "mlp", "hidden": 32, "alpha": 3.0},
    }
    if args.minilm:
        heads.update({
            "minilm_c0.003": {"reader": "minilm", "kind": "logreg", "C": 0.003},
            "minilm_c0.03": {"reader": "minilm", "kind": "logreg", "C": 0.03},
            "minilm_c0.3": {"reader": "minilm", "kind": "logreg", "C": 0.3},
        })
    logits = {k: head_logits(d, k, v) for k, v in heads.items()}
    spread = {k: stack.spread_all(v, d.record_of) for k, v in logits.items()}
    results: dict[str, dict] = {}
    variants: dict[str, np.ndarray] = {}

    def add(name: str, window: np.ndarray) -> None:
        scores = record_scores(d, window)
        variants[name] = scores
        row = {}
        for rate in RATES:
            c, a, f, b = matched(d, scores, rate)
            row[f"{rate:.0%}"] = [c, a, f, b]
        results[name] = row
        print(f"{name:44} " + "  ".join(f"@{k}: {v[0]}/{v[1]} {v[0] / v[1]:.1%} (FP {v[2]}/{v[3]})"
                                       for k, v in row.items()), flush=True)

    add("ngrams", d.ngrams)
    for k in heads:
        add(f"{k} alone", spread[k])
    add("use_c0.003 alone, every window", logits["use_c0.003"])
    tails = window_log_tails(d, {"ngrams": d.ngrams, **spread})
    for k in heads:
        for w in (0.15, 0.2, 0.25, 0.3, 0.35, 0.5):
            add(f"rank ngrams {w} + {k}", rank_fusion(tails, {"ngrams": w, k: 1 - w}))
    every1 = window_log_tails(d, {"ngrams": d.ngrams, "use1": logits["use_c0.003"]})
    add("rank ngrams 0.35 + use_c0.003, every window", rank_fusion(every1, {"ngrams": 0.35, "use1": 0.65}))
    for k in heads if args.stackers else ():
        add(f"stacker logits ngrams + {k}", stacker(d, {"ngrams": d.ngrams, k: spread[k]}, ["ngrams", k]))
        add(f"stacker tails ngrams + {k}", stacker(d, tails, ["ngrams", k]))
    if args.minilm:
        for m in ("minilm_c0.003", "minilm_c0.03", "minilm_c0.3"):
            for w in ((0.35, 0.45, 0.2), (0.3, 0.4, 0.3), (0.25, 0.5, 0.25)):
                add(f"rank ngrams {w[0]} + use {w[1]} + {m} {w[2]}",
                    rank_fusion(tails, {"ngrams": w[0], "use_c0.003": w[1], m: w[2]}))
            add(f"stacker tails ngrams + use + {m}", stacker(d, tails, ["ngrams", "use_c0.003", m]))
            add(f"stacker logits ngrams + use + {m}",
                stacker(d, {"ngrams": d.ngrams, "use": spread["use_c0.003"], m: spread[m]}, ["ngrams", "use", m]))
    for rate in RATES:
        caught, attacks, chosen = nested(d, variants, rate)
        print(f"nested choice at {rate:.0%}: {caught}/{attacks} ({caught / attacks:.1%}); chosen {chosen}")
        results[f"nested {rate:.0%}"] = {"caught": caught, "attacks": attacks, "chosen": chosen}
    args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
