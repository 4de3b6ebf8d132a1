"""The loop's other exit: what a ``force_deliver`` sends back to the planner (``Replan``).

When the revision loop stops without a pass (oscillating, the cap, converged, diminishing
returns, or a final round that failed), the gate still delivers the best round so far, and the
decision carries a ``Replan``: why the loop stopped, the criteria no round met and the must_fix
items that kept coming back. Repeated failure on the same points says the plan, not the draft,
is wrong (the reference design's planner-generator-evaluator loop sends it back to the planner).

Two steps, both pure:

- :func:`replan_of` (called by the gate) says why the loop stopped, from the scores alone;
- :func:`with_rounds` (called by the review service, which reads the earlier reviews only for a
  ``force_deliver``) adds what the reviews said round after round.

How items are matched across rounds: a must_fix item "comes back" when a later round lists the
same words again (case, punctuation, stop words and plain English endings aside: ``cites`` and
``cited`` are one word), or a rewording sharing at least ``SAME_ITEM_OVERLAP`` of its content
words (Jaccard). A planner's verification criterion is
"named" by a round when a must_fix item or a dimension issue holds at least half of the
criterion's content words (two at least, when it has two).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from qgs_worker.core.models import (
    DimensionScore,
    RecurringFix,
    Replan,
    TerminationReason,
    UnmetCriterion,
)
from qgs_worker.core.rubric import DIMENSION_REQUIREMENTS
from qgs_worker.core.stop_words import STOP_WORDS

__all__ = ["MET_FROM", "SAME_ITEM_OVERLAP", "LoopRound", "replan_of", "with_rounds"]

MET_FROM = 60
"""A dimension scored at least this meets its criterion: the pass line of a round
(``openai_judge.PASS_SCORE_FROM``, ``rules_judge.FAIL_BELOW``; a test keeps them equal)."""

SAME_ITEM_OVERLAP = 0.6
"""Two must_fix items are one when their content words overlap this much (Jaccard, 0-1)."""

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class LoopRound:
    """One reviewed round of the loop, as the replan reads it.

    Attributes:
        number: The round's number, from 1.
        score: The critic's score, 0-100.
        dimensions: The critic's dimension scores and issues.
        must_fix: What the agent was told to fix after it (the review's must_fix and the
            round's core-function findings).
    """

    number: int
    score: int
    dimensions: tuple[DimensionScore, ...] = ()
    must_fix: tuple[str, ...] = ()


def replan_of(
    termination: TerminationReason,
    detail: str,
    history: Sequence[tuple[int, int]],
    best_round: int | None,
    noise_points: int,
) -> Replan:
    """The replan of a loop that stopped, from its scores alone.

    Args:
        termination: Why the loop stopped.
        detail: The termination rule's numbers, in words.
        history: ``(round_number, score)`` of every reviewed round, this one included.
        best_round: The round delivered.
        noise_points: Score differences up to this are noise (``GatePolicy.noise_points``).

    Returns:
        The replan with ``rounds``, ``scores``, ``best_round``, ``close_rounds`` and ``advice``;
        no criteria or recurring items yet (:func:`with_rounds` adds them).
    """
    ordered = sorted(history)
    best = max((s for n, s in ordered if n == best_round), default=None)
    close = (
        tuple(n for n, s in ordered if n != best_round and abs(best - s) <= noise_points)
        if best is not None
        else ()
    )
    replan = Replan(
        termination=termination,
        detail=detail,
        rounds=tuple(n for n, _ in ordered),
        scores=tuple(s for _, s in ordered),
        best_round=best_round,
        close_rounds=close,
    )
    return replan.model_copy(update={"advice": _advice(replan)})


def with_rounds(
    replan: Replan, rounds: Sequence[LoopRound], criteria: Sequence[str] = ()
) -> Replan:
    """The replan with what the reviews said round after round.

    Args:
        replan: The gate's replan (:func:`replan_of`).
        rounds: The reviewed rounds, this one included, in any order.
        criteria: The planner's verification criteria of the task.

    Returns:
        A copy with ``unmet_criteria`` (rubric dimensions first, in the order the critic
        scored them; then the task's criteria that rounds named, in the planner's order),
        ``recurring_must_fix`` (most rounds first, then first seen) and ``advice``.
    """
    ordered = sorted(rounds, key=lambda r: r.number)
    unmet = (*_unmet_dimensions(ordered), *_named_criteria(ordered, criteria))
    updated = replan.model_copy(
        update={"unmet_criteria": unmet, "recurring_must_fix": _recurring(ordered)}
    )
    return updated.model_copy(update={"advice": _advice(updated)})


# -- criteria ---------------------------------------------------------------------------------


def _unmet_dimensions(rounds: Sequence[LoopRound]) -> list[UnmetCriterion]:
    """Dimensions scored under ``MET_FROM`` in every reviewed round that scored them."""
    scored: dict[str, list[tuple[int, int]]] = {}
    for r in rounds:
        for dim in r.dimensions:
            scored.setdefault(dim.name, []).append((r.number, dim.score))
    return [
        UnmetCriterion(
            criterion=name,
            source="rubric",
            rounds=tuple(n for n, _ in seen),
            best_score=max(s for _, s in seen),
            requirement=DIMENSION_REQUIREMENTS.get(name, ""),
        )
        for name, seen in scored.items()
        if all(s < MET_FROM for _, s in seen)
    ]


def _named_criteria(rounds: Sequence[LoopRound], criteria: Sequence[str]) -> list[UnmetCriterion]:
    """The planner's criteria that some round's must_fix or issues named."""
    found: list[UnmetCriterion] = []
    for criterion in dict.fromkeys(c.strip() for c in criteria if c.strip()):
        words = _content_words(criterion)
        if not words:
            continue
        needed = max(min(2, len(words)), (len(words) + 1) // 2)
        named = tuple(
            r.number
            for r in rounds
            if any(len(words & _content_words(text)) >= needed for text in _texts(r))
        )
        if named:
            found.append(UnmetCriterion(criterion=criterion, source="task", rounds=named))
    return found


def _texts(r: LoopRound) -> Iterable[str]:
    yield from r.must_fix
    for dim in r.dimensions:
        yield from dim.issues


# -- recurring must_fix -----------------------------------------------------------------------


def _recurring(rounds: Sequence[LoopRound]) -> tuple[RecurringFix, ...]:
    """The must_fix items listed (or reworded) in two reviewed rounds or more."""
    groups: list[tuple[str, frozenset[str], list[int]]] = []
    for r in rounds:
        for item in dict.fromkeys(m.strip() for m in r.must_fix if m.strip()):
            words = _content_words(item) or frozenset({item.casefold()})
            group = next((g for g in groups if _same(words, g[1])), None)
            if group is None:
                groups.append((item, words, [r.number]))
            elif group[2][-1] != r.number:
                group[2].append(r.number)
    kept = [(item, numbers) for item, _, numbers in groups if len(numbers) >= 2]
    ranked = sorted(enumerate(kept), key=lambda pair: (-len(pair[1][1]), pair[0]))
    return tuple(
        RecurringFix(item=item, count=len(numbers), rounds=tuple(numbers))
        for _, (item, numbers) in ranked
    )


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return a == b or len(a & b) / len(a | b) >= SAME_ITEM_OVERLAP


def _content_words(text: str) -> frozenset[str]:
    """The text's words less stop words, each cut to a rough stem (``_stem``)."""
    words = (w.casefold() for w in _WORD.findall(text))
    return frozenset(_stem(w) for w in words if w not in STOP_WORDS and (len(w) > 1 or w.isdigit()))


_SUFFIXES = ("ing", "ed", "es", "s")


def _stem(word: str) -> str:
    """A rough English stem: ``cites``, ``cited`` and ``cite`` all read ``cit``.

    One of ``_SUFFIXES`` is cut, then a final ``e``, as long as three letters are left.
    """
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


# -- advice -----------------------------------------------------------------------------------

_WHY: Mapping[TerminationReason, str] = {
    TerminationReason.MAX_REVISIONS_REACHED: "the revisions ran out",
    TerminationReason.OSCILLATING: "the score went back and forth",
    TerminationReason.CONVERGED: "the score stopped moving",
    TerminationReason.DIMINISHING_RETURNS: "the last revision gained too little",
    TerminationReason.FINAL_ROUND: "the round marked final failed",
}


def _advice(replan: Replan) -> str:
    """One sentence for the planner: why the loop stopped and what to rethink."""
    n = len(replan.rounds)
    parts = [
        f"No round passed in {n} reviewed round{'s' if n != 1 else ''} and "
        f"{_WHY[replan.termination]} ({replan.termination.value}): round {replan.best_round} is "
        "delivered as the best so far"
    ]
    if replan.unmet_criteria or replan.recurring_must_fix:
        parts.append("The same points failed round after round: revise the plan, not the draft")
    if replan.unmet_criteria:
        parts.append(
            "Never met: " + "; ".join(_criterion_words(c) for c in replan.unmet_criteria[:5])
        )
    if replan.recurring_must_fix:
        parts.append(
            "Kept coming back: "
            + "; ".join(f"{f.item} ({f.count} rounds)" for f in replan.recurring_must_fix[:5])
        )
    return ". ".join(parts) + "."


def _criterion_words(c: UnmetCriterion) -> str:
    if c.best_score is None:
        return c.criterion
    return f"{c.criterion} (best {c.best_score})"
