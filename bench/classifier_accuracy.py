"""Accuracy of the classifier's rule layer on the shared corpus and on the held-out set.

Usage: .venv/bin/python bench/classifier_accuracy.py [PATH_TO_JSONL ...] [--errors]

With no path it reports both sets: the shared hand-labelled corpus
(``../shared/corpus/e_task_classification_labelled.jsonl``) and the held-out set
(``bench/data/classification_heldout.jsonl``: requests the rules were not written against,
split into a design half and a report half, see bench/README.md).

For each set, and for each half of a set that has a ``split`` field, it prints, for the rules
alone (``classify_rules``; an unsettled request counts as wrong) and for rules + default
(``classify`` without an LLM layer): type accuracy, type+complexity accuracy, per-type recall and
precision, CRITICAL recall, the false CRITICALs (requests labelled otherwise that were read as
CRITICAL) and a confusion table (rows: label, columns: prediction, ``-`` = unsettled).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from qgs_worker.core.classifier import classify, classify_rules  # noqa: E402
from qgs_worker.core.models import Classification, TaskType  # noqa: E402

SHARED_CORPUS = ROOT / ".." / "shared" / "corpus" / "e_task_classification_labelled.jsonl"
HELDOUT = ROOT / "bench" / "data" / "classification_heldout.jsonl"
TYPES = [t.value for t in TaskType]
Record = dict[str, object]


def load(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def table(pairs: list[tuple[str, str]]) -> str:
    cols = [*TYPES, "-"]
    counts = Counter(pairs)
    head = "label \\ predicted".ljust(18) + "".join(c.rjust(10) for c in cols)
    rows = [head]
    for label in TYPES:
        rows.append(label.ljust(18) + "".join(str(counts[(label, c)]).rjust(10) for c in cols))
    return "\n".join(rows)


def per_type(pairs: list[tuple[str, str]]) -> str:
    cells = []
    for t in TYPES:
        labelled = sum(1 for label, _ in pairs if label == t)
        predicted = sum(1 for _, pred in pairs if pred == t)
        hit = sum(1 for label, pred in pairs if label == pred == t)
        recall = f"{hit}/{labelled}" if labelled else "-"
        precision = f"{hit}/{predicted}" if predicted else "-"
        cells.append(f"{t} recall {recall} precision {precision}")
    return "; ".join(cells)


def report(
    title: str,
    records: list[Record],
    fn: Callable[[str], Classification | None],
    show_errors: bool,
) -> None:
    n = len(records)
    pairs: list[tuple[str, str]] = []
    both = 0
    errors: list[str] = []
    false_critical: list[str] = []
    for r in records:
        text, label, cx = str(r["text"]), str(r["task_type"]), str(r["complexity"])
        got = fn(text)
        pred = got.task_type.value if got else "-"
        pairs.append((label, pred))
        if got and pred == label and got.complexity.value == cx:
            both += 1
        if pred != label:
            note = " (ambiguous)" if r.get("ambiguous") else ""
            line = f"  {label} -> {pred}{note}: {text[:110]!r} {got.matched if got else ()}"
            errors.append(line)
            if pred == TaskType.CRITICAL.value:
                false_critical.append(line)
    right = sum(1 for label, pred in pairs if label == pred)
    clear = sum(1 for r in records if not r.get("ambiguous"))
    clear_right = sum(
        1
        for r, (label, pred) in zip(records, pairs, strict=True)
        if label == pred and not r.get("ambiguous")
    )
    settled = sum(1 for _, pred in pairs if pred != "-")
    critical = sum(1 for label, _ in pairs if label == "CRITICAL")
    critical_hit = sum(1 for label, pred in pairs if label == pred == "CRITICAL")
    print(f"== {title}: {n} requests")
    print(
        f"type accuracy {right}/{n} = {right / n:.1%}; "
        f"type+complexity {both}/{n} = {both / n:.1%}; settled {settled}/{n}; "
        f"unambiguous records {clear_right}/{clear} = {clear_right / max(clear, 1):.1%}"
    )
    if critical:
        print(
            f"CRITICAL recall {critical_hit}/{critical} = {critical_hit / critical:.1%}; "
            f"false CRITICAL {len(false_critical)}"
        )
    print(per_type(pairs))
    print(table(pairs))
    if show_errors:
        print("errors:")
        print("\n".join(errors))
    elif false_critical:
        print("false CRITICAL:")
        print("\n".join(false_critical))
    print()


def main(argv: list[str]) -> int:
    show_errors = "--errors" in argv
    paths = [Path(a) for a in argv if not a.startswith("--")] or [SHARED_CORPUS, HELDOUT]
    for path in paths:
        if not path.exists():
            print(f"corpus not found: {path}", file=sys.stderr)
            return 2
    for path in paths:
        records = load(path)
        name = path.name
        subsets: list[tuple[str, list[Record]]] = [(name, records)]
        for half in sorted({str(r["split"]) for r in records if "split" in r}):
            subsets.append((f"{name} [{half} half]", [r for r in records if r["split"] == half]))
        for label, subset in subsets:
            for title, fn in (
                ("rules alone (classify_rules)", classify_rules),
                ("rules + default (classify)", classify),
            ):
                report(f"{label}, {title}", subset, fn, show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
