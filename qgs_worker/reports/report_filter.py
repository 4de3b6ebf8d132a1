"""Which tasks a report keeps: ``--decision``, ``--severity``, ``--task-type``, ``--run``.

Applied by ``report.build_report`` to the report's task entries before anything is counted, so
every format (table, Markdown, JSON, HTML) and the summary show the same tasks. Within one
option the values are alternatives (``--decision block --decision revise``: either); the
options together must all hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from qgs_worker.core.models import DecisionKind, Severity, TaskType
from qgs_worker.errors import InputError

__all__ = ["PENDING", "ReportFilter"]

PENDING = "pending"
"""The ``--decision`` value of a task with no decision yet."""

_OUTCOMES = ("approved", "rejected")
"""Approval outcomes ``--decision`` also accepts (the latest decision's ``outcome``)."""


def _values(option: str, given: Iterable[str] | None, allowed: Iterable[str]) -> frozenset[str]:
    """``given`` normalised to the allowed spellings (case-insensitive, ``-`` as ``_``).

    Raises:
        InputError: a value is not allowed; the message names the option and the choices.
    """
    choices = {a.lower(): a for a in allowed}
    out = set()
    for value in given or ():
        for part in value.split(","):
            key = part.strip().lower().replace("-", "_")
            if not key:
                continue
            if key not in choices:
                raise InputError(
                    f"{option} must be one of {', '.join(sorted(choices.values()))} "
                    f"(got {part.strip()!r})"
                )
            out.add(choices[key])
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class ReportFilter:
    """What a report keeps; an empty set keeps everything for that option.

    Attributes:
        decisions: Decision kinds (``pass``, ``block``...), ``pending``, or an approval outcome
            (``approved``, ``rejected``) of the task's latest decision.
        severities: ``P0``...``P4``: tasks with at least one finding of one of them.
        task_types: ``QUERY``, ``GENERATE``, ``ACTION``, ``CRITICAL`` (as stored, after any
            escalation).
        run: An audit run (an id, ``r3``, or ``last``): only its tasks (``qgs runs``).
    """

    decisions: frozenset[str] = frozenset()
    severities: frozenset[str] = frozenset()
    task_types: frozenset[str] = frozenset()
    run: str | None = None

    @classmethod
    def parse(
        cls,
        *,
        decision: Iterable[str] | None = None,
        severity: Iterable[str] | None = None,
        task_type: Iterable[str] | None = None,
        run: str | None = None,
    ) -> ReportFilter:
        """The filter the CLI options give (repeatable, or comma-separated).

        Raises:
            InputError: a value is not one of the choices (named with the option).
        """
        return cls(
            decisions=_values(
                "--decision", decision, [*(k.value for k in DecisionKind), PENDING, *_OUTCOMES]
            ),
            severities=_values("--severity", severity, [s.value for s in Severity]),
            task_types=_values("--task-type", task_type, [t.value for t in TaskType]),
            run=run,
        )

    @property
    def active(self) -> bool:
        """Whether the filter leaves anything out."""
        return bool(self.decisions or self.severities or self.task_types or self.run)

    def keeps(self, entry: dict[str, Any]) -> bool:
        """Whether a report task entry (``report.task_entry``) passes the filter.

        ``run`` is not checked here: the report applies it when it picks the tasks.
        """
        if self.task_types and entry["task_type"] not in self.task_types:
            return False
        if self.severities and not any(f["severity"] in self.severities for f in entry["findings"]):
            return False
        if self.decisions:
            d = entry["decision"]
            said = {PENDING} if d is None else {d["kind"], d["outcome"]}
            if not said & self.decisions:
                return False
        return True

    def describe(self) -> str:
        """The filter in words, for the report's header (empty when inactive)."""
        parts = [
            f"{name} {', '.join(sorted(values))}"
            for name, values in (
                ("decision", self.decisions),
                ("severity", self.severities),
                ("task type", self.task_types),
            )
            if values
        ]
        if self.run:
            parts.append(f"run {self.run}")
        return "; ".join(parts)
