"""What a person weighs beside a round: its score trajectory, what changed since the round before.

Pure functions over the report's values (``RoundFacts``); the templates draw what they return.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from qgs_worker.service.report_model import RoundFacts

__all__ = ["DIFF_LINES_MAX", "RoundChanges", "changes", "spark_points"]

DIFF_LINES_MAX = 200
"""A deliverable's diff is cut after this many lines (the rest counted)."""
SPARK_WIDTH = 160
SPARK_HEIGHT = 40


def spark_points(
    scores: Sequence[int], width: int = SPARK_WIDTH, height: int = SPARK_HEIGHT
) -> str:
    """The ``points`` of an SVG polyline drawing ``scores`` (0-100, oldest first).

    Returns:
        ``"x,y x,y ..."`` in a ``width`` x ``height`` box (100 at the top); one score is a
        flat line; no score is "".
    """
    if not scores:
        return ""
    values = list(scores) if len(scores) > 1 else [scores[0], scores[0]]
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - max(0, min(100, s)) * height / 100:.1f}"
        for i, s in enumerate(values)
    )


@dataclass(frozen=True)
class RoundChanges:
    """A round against the round before it.

    ``score_before`` / ``score_now`` the critic's scores (0-100, None: not reviewed);
    ``new_findings`` / ``gone_findings`` as ``(severity, rule, title)`` (a finding is the same
    when its rule and title are); ``new_must_fix`` / ``gone_must_fix`` the review's must-fix
    items; ``diff`` the deliverable's unified diff lines (``+``, ``-``, `` ``, ``@@``), at most
    ``DIFF_LINES_MAX``, ``diff_cut`` how many more there were.
    """

    score_before: int | None
    score_now: int | None
    new_findings: tuple[tuple[str, str, str], ...]
    gone_findings: tuple[tuple[str, str, str], ...]
    new_must_fix: tuple[str, ...]
    gone_must_fix: tuple[str, ...]
    diff: tuple[str, ...]
    diff_cut: int

    @property
    def score_delta(self) -> int | None:
        """The score's change, or None when either round has no score."""
        if self.score_before is None or self.score_now is None:
            return None
        return self.score_now - self.score_before


def _findings(r: RoundFacts) -> dict[tuple[str, str], tuple[str, str, str]]:
    return {
        (f.rule or f.category, f.title): (f.severity.value, f.rule or f.category, f.title)
        for f in r.findings
    }


def _must_fix(r: RoundFacts) -> list[str]:
    return list(r.review.must_fix) if r.review is not None else []


def changes(before: RoundFacts, now: RoundFacts) -> RoundChanges:
    """What changed from round ``before`` to round ``now`` of one task."""
    was, found = _findings(before), _findings(now)
    old_fix, new_fix = _must_fix(before), _must_fix(now)
    lines = list(
        difflib.unified_diff(
            before.content.splitlines(), now.content.splitlines(), lineterm="", n=1
        )
    )[2:]  # without the ---/+++ header
    return RoundChanges(
        score_before=before.review.score if before.review else None,
        score_now=now.review.score if now.review else None,
        new_findings=tuple(v for k, v in found.items() if k not in was),
        gone_findings=tuple(v for k, v in was.items() if k not in found),
        new_must_fix=tuple(m for m in new_fix if m not in old_fix),
        gone_must_fix=tuple(m for m in old_fix if m not in new_fix),
        diff=tuple(lines[:DIFF_LINES_MAX]),
        diff_cut=max(0, len(lines) - DIFF_LINES_MAX),
    )
