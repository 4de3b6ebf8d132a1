"""The rules judge on BFCL's multi-turn ground truth: each round judged against its turn or not.

BFCL's ``multi_turn_base`` set (bfcl-eval 2026.3.23, Apache-2.0) holds 200 conversations of
several user turns, each answered by ground-truth calls
(``bfcl_eval/data/BFCL_v4_multi_turn_base.json`` and ``possible_answer/`` of the same name).
Every call is right by construction, so a judge should pass it. Each call becomes one round
(``[tool call] name(args)``, as QGS renders a transcript's calls), classified by the first
request, and is reviewed twice by the rules judge: against the first request only (QGS before
multi-turn transcripts) and against the turn it answers with the first request as context. The
five conversations of ``../shared/corpus/d_transcripts_bfcl_multiturn_executed.jsonl`` are left
out (the turn rules were checked on them).

    pip download --no-deps -d /tmp/bfcl bfcl-eval==2026.3.23
    .venv/bin/python bench/multiturn_rules_judge.py /tmp/bfcl/bfcl_eval-2026.3.23-py3-none-any.whl

Prints the rounds that are not FAIL, for the rounds of the first turn and of later turns.
"""

from __future__ import annotations

import json
import sys
import zipfile
from collections import Counter

from qgs_worker.core import classifier, rubric
from qgs_worker.core.models import ReviewRequest
from qgs_worker.judges.rules_judge import RulesJudge

QUESTIONS = "bfcl_eval/data/BFCL_v4_multi_turn_base.json"
ANSWERS = "bfcl_eval/data/possible_answer/BFCL_v4_multi_turn_base.json"
IN_THE_CORPUS = {f"multi_turn_base_{n}" for n in (38, 41, 131, 151, 184)}


def main(wheel: str) -> None:
    """Print the table (see the module docstring)."""
    with zipfile.ZipFile(wheel) as archive:
        questions = [json.loads(line) for line in archive.read(QUESTIONS).decode().splitlines()]
        answers = {
            a["id"]: a["ground_truth"]
            for a in map(json.loads, archive.read(ANSWERS).decode().splitlines())
        }
    judge = RulesJudge()
    passed: Counter[str] = Counter()
    for entry in questions:
        if entry["id"] in IN_THE_CORPUS:
            continue
        turns = [
            " ".join(m["content"] for m in t if m["role"] == "user") for t in entry["question"]
        ]
        request = turns[0]
        found = classifier.classify(request)
        for number, (turn, calls) in enumerate(zip(turns, answers[entry["id"]], strict=True)):
            which = "first turn" if number == 0 else "later turns"
            for call in calls:
                base = ReviewRequest(
                    task_type=found.task_type,
                    request=request,
                    deliverable=f"[tool call] {call}",
                    dimensions=rubric.dimensions_for(found.task_type),
                )
                on_turn = base.model_copy(update={"turn": "" if number == 0 else turn})
                passed[f"{which} rounds"] += 1
                passed[f"{which} request only"] += judge.review(base).verdict.value != "FAIL"
                passed[f"{which} on the turn"] += judge.review(on_turn).verdict.value != "FAIL"
    print("rounds not FAIL (ground-truth calls, all correct) | judged on the request | on the turn")
    for which in ("first turn", "later turns"):
        n = passed[f"{which} rounds"]
        old, new = passed[f"{which} request only"], passed[f"{which} on the turn"]
        print(f"{which}: {n} rounds | {old} ({old / n:.0%}) | {new} ({new / n:.0%})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
