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
words (Jaccard); but two items quoting different evidence (the text in quotes:
``'<insert budget>'`` and ``'<insert supplier>'``) are two items, whatever their other words.

What is "never met" (``unmet_criteria``), round by round as the reviews read:

- a rubric dimension: scored under ``MET_FROM`` in every reviewed round that scored it;
- a planner's verification criterion: *named* by every reviewed round (a must_fix item or a
  dimension issue holds at least half of the criterion's content words, two at least when it has
  two). A criterion a later round stopped naming was met there, as far as the reviews say, and is
  not reported (its rounds may still show among the recurring items);
- a round failed as a non-answer (the rules judge's placeholder, refusal, cut-off, language and
  topic checks mark every dimension ``not an answer: <reason>``, ``nonanswers.NON_ANSWER_MARK``)
  dropped every dimension for that one reason: its dimension scores and issues say nothing of
  the criteria, so the rules above read the other rounds only; when every reviewed round was a
  non-answer, the single point never met is the answer itself (the last round's reason).

The advice says what the reviews' verdicts say: "no round passed" only when none did; when an
earlier round passed (the loop went on and later rounds regressed from it), it says so.
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
    Verdict,
)
from qgs_worker.core.nonanswers import NON_ANSWER_MARK
from qgs_worker.core.rubric import DIMENSION_REQUIREMENTS
from qgs_worker.core.stop_words import STOP_WORDS

__all__ = ["MET_FROM", "SAME_ITEM_OVERLAP", "LoopRound", "replan_of", "with_rounds"]

MET_FROM = 60
"""A dimension scored at least this meets its criterion: the pass line of a round
(``openai_judge.PASS_SCORE_FROM``, ``rules_judge.FAIL_BELOW``; a test keeps them equal)."""

SAME_ITEM_OVERLAP = 0.6
"""Two must_fix items are one when their content words overlap this much (Jaccard, 0-1)."""

_WORD = re.compile(r"[^\W_]+")
_QUOTED = re.compile(r"(?<!\w)'([^'\n]+)'(?!\w)|\"([^\"\n]+)\"|“([^”\n]+)”|‘([^’\n]+)’|`([^`\n]+)`")
_PASSED = frozenset({Verdict.PASS, Verdict.PASS_WITH_SUGGESTIONS})
ANSWER_CRITERION = "an answer to the request"
"""The criterion reported when every reviewed round failed as a non-answer."""


@dataclass(frozen=True, slots=True)
class LoopRound:
    """One reviewed round of the loop, as the replan reads it.

    Attributes:
        number: The round's number, from 1.
        score: The critic's score, 0-100.
        dimensions: The critic's dimension scores and issues.
        must_fix: What the agent was told to fix after it (the review's must_fix and the
            round's core-function findings).
        verdict: The critic's verdict, or None when not known (the advice then claims
            nothing of which rounds passed).
    """

    number: int
    score: int
    dimensions: tuple[DimensionScore, ...] = ()
    must_fix: tuple[str, ...] = ()
    verdict: Verdict | None = None

    @property
    def non_answer(self) -> str:
        """Why the round failed as a non-answer (``not an answer: ...``), or ``""``."""
        return next(filter(None, (_non_answer(t) for t in _texts(self))), "")


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
        no criteria or recurring items yet (:func:`with_rounds` adds them). The scores say
        nothing of the verdicts, so this advice does not say whether a round passed.
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
    return replan.model_copy(update={"advice": _advice(replan, None)})


def with_rounds(
    replan: Replan, rounds: Sequence[LoopRound], criteria: Sequence[str] = ()
) -> Replan:
    """The replan with what the reviews said round after round.

    Args:
        replan: The gate's replan (:func:`replan_of`).
        rounds: The reviewed rounds, this one included, in any order (with their verdicts,
            for the advice to say which passed).
        criteria: The planner's verification criteria of the task.

    Returns:
        A copy with ``unmet_criteria`` (rubric dimensions first, in the order the critic
        scored them; then the task's criteria every round named, in the planner's order; or,
        when every round was a non-answer, that one point: module docstring),
        ``recurring_must_fix`` (most rounds first, then first seen) and ``advice``.
    """
    ordered = sorted(rounds, key=lambda r: r.number)
    answers = [r for r in ordered if not r.non_answer]
    if ordered and not answers:
        unmet: tuple[UnmetCriterion, ...] = (_not_an_answer(ordered),)
    else:
        unmet = (*_unmet_dimensions(answers), *_named_criteria(answers, criteria))
    updated = replan.model_copy(
        update={"unmet_criteria": unmet, "recurring_must_fix": _recurring(ordered)}
    )
    verdicts = [r.verdict for r in ordered]
    passed = (
        None
        if not ordered or None in verdicts
        else tuple((r.number, r.score) for r in ordered if r.verdict in _PASSED)
    )
    return updated.model_copy(update={"advice": _advice(updated, passed)})


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


def _not_an_answer(rounds: Sequence[LoopRound]) -> UnmetCriterion:
    """The one point never met when every reviewed round failed as a non-answer."""
    return UnmetCriterion(
        criterion=ANSWER_CRITERION,
        source="rubric",
        rounds=tuple(r.number for r in rounds),
        best_score=max(r.score for r in rounds),
        requirement=rounds[-1].non_answer,
    )


def _non_answer(text: str) -> str:
    """``not an answer: <reason>`` out of a must_fix item or issue (``dim: `` cut), or ``""``."""
    at = text.find(NON_ANSWER_MARK)
    return text[at:].strip() if at >= 0 else ""


def _named_criteria(rounds: Sequence[LoopRound], criteria: Sequence[str]) -> list[UnmetCriterion]:
    """The planner's criteria that every round's must_fix or issues named."""
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
        if named and len(named) == len(rounds):
            found.append(UnmetCriterion(criterion=criterion, source="task", rounds=named))
    return found


def _texts(r: LoopRound) -> Iterable[str]:
    yield from r.must_fix
    for dim in r.dimensions:
        yield from dim.issues


# -- recurring must_fix -----------------------------------------------------------------------


def _recurring(rounds: Sequence[LoopRound]) -> tuple[RecurringFix, ...]:
    """The must_fix items listed (or reworded) in two reviewed rounds or more."""
    groups: list[tuple[str, frozenset[str], frozenset[str], list[int]]] = []
    for r in rounds:
        items = (_non_answer(m) or m.strip() for m in r.must_fix)
        for item in dict.fromkeys(i for i in items if i):
            words = _content_words(item) or frozenset({item.casefold()})
            quoted = _quoted(item)
            group = next((g for g in groups if g[2] == quoted and _same(words, g[1])), None)
            if group is None:
                groups.append((item, words, quoted, [r.number]))
            elif group[3][-1] != r.number:
                group[3].append(r.number)
    kept = [(item, numbers) for item, _, _, numbers in groups if len(numbers) >= 2]
    ranked = sorted(enumerate(kept), key=lambda pair: (-len(pair[1][1]), pair[0]))
    return tuple(
        RecurringFix(item=item, count=len(numbers), rounds=tuple(numbers))
        for _, (item, numbers) in ranked
    )


def _quoted(text: str) -> frozenset[str]:
    """The evidence an item quotes ('...', "...", “...”, `...`), case and spacing aside."""
    return frozenset(
        " ".join(next(filter(None, m.groups())).casefold().split()) for m in _QUOTED.finditer(text)
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


def _advice(replan: Replan, passed: Sequence[tuple[int, int]] | None) -> str:
    """One sentence for the planner: why the loop stopped and what to rethink.

    ``passed``: the ``(round, score)`` of the reviewed rounds the critic passed; None when the
    verdicts are not known (then nothing is said of them).
    """
    n = len(replan.rounds)
    reviewed = f"{n} reviewed round{'s' if n != 1 else ''}"
    why = f"{_WHY[replan.termination]} ({replan.termination.value})"
    delivered = f"round {replan.best_round} is delivered as the best so far"
    if passed is None:
        parts = [f"The loop stopped after {reviewed}: {why}; {delivered}"]
    elif not passed:
        parts = [f"No round passed in {reviewed} and {why}: {delivered}"]
    else:
        last = passed[-1][0]
        later = [r for r in replan.rounds if r > last]
        parts = [
            f"{_round_words([r for r, _ in passed]).capitalize()} passed "
            f"(score {', '.join(str(s) for _, s in passed)}); later "
            f"{'rounds' if len(later) != 1 else 'round'} {_numbers(later)} regressed from "
            f"{'them' if len(passed) > 1 else 'it'}, and {why}: {delivered}",
            f"Start again from round {last}'s draft rather than its later revisions",
        ]
    if n >= 2 and not passed and (replan.unmet_criteria or replan.recurring_must_fix):
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
    if c.criterion == ANSWER_CRITERION and c.requirement:
        return f"{c.criterion} (every round: {c.requirement})"
    if c.best_score is None:
        return c.criterion
    return f"{c.criterion} (best {c.best_score})"


def _numbers(numbers: Sequence[int]) -> str:
    """``2``, ``2 and 4``, ``1, 2 and 4``."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _round_words(numbers: Sequence[int]) -> str:
    """``round 2``, ``rounds 2 and 4``."""
    return f"round{'s' if len(numbers) != 1 else ''} {_numbers(numbers)}"
