"""Accuracy of the classifier's rule layer on the hand-labelled corpus.

Usage: .venv/bin/python bench/classifier_accuracy.py [PATH_TO_JSONL] [--errors]

Prints, for the rules alone (``classify_rules``; an unsettled request counts as wrong) and for
rules + default (``classify`` without an LLM layer): type accuracy, type+complexity accuracy, and
a confusion table (rows: label, columns: prediction, ``-`` = unsettled).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from qgs_worker.core.classifier import classify, classify_rules  # noqa: E402
from qgs_worker.core.models import TaskType  # noqa: E402

DEFAULT_CORPUS = ROOT / ".." / "shared" / "corpus" / "e_task_classification_labelled.jsonl"
TYPES = [t.value for t in TaskType]


def load(path: Path) -> list[dict[str, object]]:
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


def main(argv: list[str]) -> int:
    show_errors = "--errors" in argv
    args = [a for a in argv if not a.startswith("--")]
    path = Path(args[0]) if args else DEFAULT_CORPUS
    if not path.exists():
        print(f"corpus not found: {path}", file=sys.stderr)
        return 2
    records = load(path)
    n = len(records)
    for title, fn in (
        ("rules alone (classify_rules)", classify_rules),
        ("rules + default (classify)", classify),
    ):
        pairs: list[tuple[str, str]] = []
        both = 0
        errors: list[str] = []
        for r in records:
            text, label, cx = str(r["text"]), str(r["task_type"]), str(r["complexity"])
            got = fn(text)
            pred = got.task_type.value if got else "-"
            pairs.append((label, pred))
            if got and pred == label and got.complexity.value == cx:
                both += 1
            if pred != label:
                note = " (ambiguous)" if r.get("ambiguous") else ""
                errors.append(
                    f"  {label} -> {pred}{note}: {text[:110]!r} {got.matched if got else ()}"
                )
        right = sum(1 for label, pred in pairs if label == pred)
        clear = sum(1 for r in records if not r.get("ambiguous"))
        clear_right = sum(
            1
            for r, (label, pred) in zip(records, pairs, strict=True)
            if label == pred and not r.get("ambiguous")
        )
        settled = sum(1 for _, pred in pairs if pred != "-")
        print(f"== {title}: {n} requests")
        print(
            f"type accuracy {right}/{n} = {right / n:.1%}; "
            f"type+complexity {both}/{n} = {both / n:.1%}; settled {settled}/{n}; "
            f"unambiguous records {clear_right}/{clear} = {clear_right / clear:.1%}"
        )
        print(table(pairs))
        if show_errors:
            print("errors:")
            print("\n".join(errors))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
