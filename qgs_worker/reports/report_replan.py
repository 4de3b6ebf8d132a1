"""The replan of a force_deliver in words: for ``qgs status``, the terminal table and Markdown.

A ``force_deliver`` decision carries a replan (``core.models.Replan``, JSON in the report's
``decision.replan``): the loop stopped without a pass, and this is what goes back to the
agent's planner. These helpers say it in plain lines; the callers make them safe for their
medium (rich markup, Markdown).
"""

from __future__ import annotations

from typing import Any

__all__ = ["replan_lines", "replan_summary", "rounds_words"]


def _rounds(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def rounds_words(numbers: list[int]) -> str:
    """``round 2``, ``rounds 2 and 4``, ``rounds 1, 2 and 4`` (``""`` for none)."""
    words = [str(n) for n in numbers]
    if len(words) <= 1:
        return f"round {words[0]}" if words else ""
    return "rounds " + ", ".join(words[:-1]) + " and " + words[-1]


def replan_lines(replan: dict[str, Any]) -> list[str]:
    """The replan as lines of text, most telling first.

    Args:
        replan: A report's ``decision.replan`` (``Replan.model_dump(mode="json")``).

    Returns:
        Why the loop stopped, the scores by round (the round delivered and those within the
        noise of it), one line per criterion never met and per must_fix item that kept coming
        back.
    """
    lines = [
        f"stopped: {replan['termination']}"
        + (f" ({replan['detail']})" if replan.get("detail") else "")
    ]
    pairs = zip(replan.get("rounds", []), replan.get("scores", []), strict=False)
    scores = ", ".join(f"round {n}: {s}" for n, s in pairs)
    if scores:
        close = replan.get("close_rounds") or []
        noise = f"; within the noise of it: {rounds_words(close)}" if close else ""
        lines.append(f"scores {scores} (delivered: round {replan.get('best_round')}{noise})")
    for c in replan.get("unmet_criteria", []):
        if c["source"] == "rubric":
            why = f" — {c['requirement']}" if c.get("requirement") else ""
            lines.append(
                f"never met: {c['criterion']} (best {c['best_score']}, "
                f"{rounds_words(c['rounds'])}){why}"
            )
        else:
            lines.append(
                f"never met (the task's criterion, named in {rounds_words(c['rounds'])}): "
                f"{c['criterion']}"
            )
    for f in replan.get("recurring_must_fix", []):
        lines.append(f"kept coming back ({f['count']} rounds: {_rounds(f['rounds'])}): {f['item']}")
    return lines


def replan_summary(replan: dict[str, Any]) -> str:
    """One line: the termination, the criteria never met and the items that kept coming back."""
    parts = [str(replan["termination"])]
    unmet = [c["criterion"] for c in replan.get("unmet_criteria", [])]
    if unmet:
        parts.append("never met: " + "; ".join(unmet))
    recurring = [f"{f['item']} (×{f['count']})" for f in replan.get("recurring_must_fix", [])]
    if recurring:
        parts.append("kept coming back: " + "; ".join(recurring))
    return " — ".join(parts)
