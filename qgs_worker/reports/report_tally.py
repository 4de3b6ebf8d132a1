"""The report's summary counted as its tasks go by, and a task list spooled to a temporary file.

``build_report`` once counted its summary over a list of every task entry it had built, and a
JSON report held that list whole until the last byte was written: the client's peak RSS at the
end of ``qgs audit --format json`` grew with the audit (148 / 337 / 598 MB at 1,000 / 5,000 /
10,000 transcripts, ``bench/audit_batch_bench.py``), where issue 15 asks for it flat. ``Tally``
counts the same figures one entry at a time, in the same order (the same dictionaries, the same
float sums); ``SpooledTasks`` keeps the entries as JSON lines in a temporary file and gives them
back one at a time to the JSON encoder (``terminal.write_json``), so the text written is the
same and at most one entry is held as objects.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Iterator
from typing import Any

from qgs_worker.core.models import ROLE_FAILED, ROUND_UNFINISHED, ReviewStatus
from qgs_worker.judges.panel import length_bias

__all__ = ["SpooledTasks", "Tally"]


class Tally:
    """The report's summary, judges and unfinished rounds, counted one task entry at a time.

    ``add`` each entry (``report.task_entry``'s dictionaries) in report order, then read
    ``summary``, ``judges`` and ``unfinished``: the values ``build_report`` puts in the report.
    """

    def __init__(self) -> None:
        self.tasks = 0
        self.decided = 0
        self.decisions: Counter[str] = Counter()
        self.escalated = 0
        self.severities: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.role_failures = 0
        self.judge_calls = 0
        self.reviews_reused = 0
        self.judge_failures = 0
        self.classified_by: Counter[str] = Counter()
        self.scored: list[tuple[int, int]] = []  # (length, score) of each round judged here
        self.review_warnings = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.judge_latency_ms = 0.0
        self.unfinished_rounds = 0
        self.overdue = 0
        self._judges: set[str] = set()

    def add(self, entry: dict[str, Any]) -> None:
        """Count one task entry (its decision, findings and rounds)."""
        self.tasks += 1
        decision = entry["decision"]
        if decision:
            self.decided += 1
            self.decisions[decision["kind"]] += 1
            self.outcomes[decision["outcome"]] += 1
        self.escalated += 1 if entry["escalated"] else 0
        for finding in entry["findings"]:
            self.severities[finding["severity"]] += 1
            self.role_failures += 1 if finding["category"] == ROLE_FAILED else 0
        self.classified_by[entry["classification_source"]] += 1
        for r in entry["rounds"]:
            if r["judge"]:
                self._judges.add(r["judge"])
            if r["reused_from"]:
                self.reviews_reused += 1
            elif r["review_status"]:
                self.judge_calls += 1
            if r["review_status"] == ReviewStatus.FAILED:
                self.judge_failures += 1
            if r["score"] is not None and not r["reused_from"]:
                self.scored.append((r["length"], r["score"]))
            self.review_warnings += len(r["warnings"])
            self.prompt_tokens += r["prompt_tokens"]
            self.completion_tokens += r["completion_tokens"]
            self.judge_latency_ms += r["latency_ms"]
            self.unfinished_rounds += 1 if r["status"] in ROUND_UNFINISHED else 0
            self.overdue += 1 if r["overdue"] else 0

    @property
    def judges(self) -> list[str]:
        """The judges of every round counted, sorted."""
        return sorted(self._judges)

    def summary(self, errors: int) -> dict[str, Any]:
        """The report's ``summary``; ``errors`` is the count of input errors reported."""
        return {
            "tasks": self.tasks,
            "decided": self.decided,
            "decisions": dict(self.decisions),
            "escalated": self.escalated,
            "p0": self.severities.get("P0", 0),
            "p1": self.severities.get("P1", 0),
            "errors": errors,
            "approvals": {
                "awaiting": self.outcomes.get("awaiting_approval", 0),
                "approved": self.outcomes.get("approved", 0),
                "rejected": self.outcomes.get("rejected", 0),
            },
            "role_failures": self.role_failures,
            "judge_calls": self.judge_calls,
            "reviews_reused": self.reviews_reused,
            "judge_failures": self.judge_failures,
            "classified_by": dict(self.classified_by),
            "length_bias": round(length_bias(self.scored), 3),
            "review_warnings": self.review_warnings,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "judge_latency_ms": round(self.judge_latency_ms, 1),
        }

    def unfinished(self, outbox_waiting: int) -> dict[str, int]:
        """The report's ``unfinished``: rounds not done, overdue ones, submissions waiting."""
        return {
            "rounds": self.unfinished_rounds,
            "overdue": self.overdue,
            "outbox_waiting": outbox_waiting,
        }


class SpooledTasks(list):  # type: ignore[type-arg]
    """A report's task entries kept as JSON lines in a temporary file, read back one at a time.

    A ``list`` to the JSON encoder, which iterates a list with ``for`` and tests it with
    ``len`` (``write_json`` writes the same text as for a list of the entries); nothing else
    of a list is meant to work (no indexing). Lines are written with ``ensure_ascii`` so any
    string, lone surrogates too, comes back the same. The file is deleted when closed or
    collected.
    """

    def __init__(self) -> None:
        super().__init__()
        self._file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed by close)
        self._count = 0

    def append(self, entry: dict[str, Any]) -> None:
        """Keep one entry (JSON-ready values, as ``write_json`` takes them), as a list would."""
        self._file.write(json.dumps(entry) + "\n")
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __iter__(self) -> Iterator[Any]:
        self._file.flush()
        self._file.seek(0)
        for line in self._file:
            yield json.loads(line)

    def close(self) -> None:
        """Delete the temporary file."""
        self._file.close()
