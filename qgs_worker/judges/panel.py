"""A panel of judges that vote, and a check of length bias (DESIGN.md, "Critic": known biases).

:class:`PanelJudge` implements the :class:`~qgs_worker.core.ports.Judge` port over two or more
judges, in one of two modes:

| mode | who reviews | cost per round |
| --- | --- | --- |
| ``all`` | every judge | one review per judge |
| ``escalate`` (default) | the first judge; the next ones only while the outcome is in doubt | usually one review |

Either way the answered reviews are combined the same way:

- score: the median of the judges' scores, rounded half up;
- verdict: the most votes; a tie goes to the more severe verdict
  (FAIL > PASS_WITH_SUGGESTIONS > PASS), so a split panel never passes by accident;
- dimensions: per name, the median score and the union of the issues;
- must_fix: the union of every judge's items, deduplicated, in order (a dissenting FAIL's items
  are kept even when the majority passes: they are what the dissent was about);
- warnings: the judges' own warnings (prefixed with the judge's name), one per failed judge,
  ``panel disagreement: N points (scores a, b, c)`` when the scores spread over more than
  ``margin_points``, and in ``escalate`` mode ``escalated to N judges: reason``;
- latency and token usage: summed over every call (a failed call adds its wall time).

A judge that raises :class:`~qgs_worker.errors.JudgeError` is tolerated while at least one other
judge answers; when none does, the panel raises (never a PASS without a review).

:func:`length_bias` (correlation of deliverable length with score) is the length-bias check.
A pairwise comparison in both orders (``compare``, against position bias) was here until issue
32 and was removed: the judge port reviews one deliverable per call, so two deliverables never
share a prompt and position bias cannot arise; the four reviews it cost only re-scored rounds
the gate had scored already (docs/concepts.md, "Choosing between rounds within the noise").
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from qgs_worker.core.models import DimensionScore, Review, ReviewRequest, Verdict
from qgs_worker.core.ports import Judge
from qgs_worker.errors import (
    ConfigurationError,
    JudgeError,
    JudgeResponseError,
    JudgeUnavailableError,
)

__all__ = [
    "PanelJudge",
    "PanelMode",
    "length_bias",
    "majority_verdict",
]

PanelMode = Literal["all", "escalate"]

SEVERITY_ORDER: dict[Verdict, int] = {
    Verdict.PASS: 0,
    Verdict.PASS_WITH_SUGGESTIONS: 1,
    Verdict.FAIL: 2,
}
"""How severe each verdict is; a tied vote goes to the higher number."""


@dataclass(frozen=True)
class _Failure:
    judge: str
    error: JudgeError
    latency_ms: float


class PanelJudge:
    """Two or more judges that vote on each round (flow and combination: the module docstring).

    Args:
        judges: The panel, in the order they are asked; at least two. In ``escalate`` mode put
            the cheapest (or most trusted) judge first.
        mode: ``all`` asks every judge; ``escalate`` asks the first judge, and the next ones only
            while the outcome is in doubt.
        margin_points: In ``escalate`` mode a score within this many points of ``pass_from``
            (inclusive) is in doubt; in both modes a spread of scores above it is reported as a
            disagreement warning. At least 0.
        pass_from: The score from which a round passes (60, as ``openai_judge.PASS_SCORE_FROM``
            and the rules judge).

    Raises:
        ConfigurationError: Fewer than two judges, an unknown ``mode``, a negative
            ``margin_points`` or ``pass_from`` outside 0-100.

    In ``escalate`` mode the panel asks the first judge. When its score lies within
    ``margin_points`` of ``pass_from`` or its review carries warnings, or when it failed, the
    panel asks the next judge, and so on until two answered reviews agree on the verdict or every
    judge was asked. Judges are asked one after another, never in parallel.

    The panel is as thread-safe as its judges.
    """

    def __init__(
        self,
        judges: Sequence[Judge],
        *,
        mode: PanelMode = "escalate",
        margin_points: int = 10,
        pass_from: int = 60,
    ) -> None:
        if len(judges) < 2:
            raise ConfigurationError(
                f"a judge panel needs at least 2 judges (got {len(judges)}); "
                "use the single judge directly instead"
            )
        if mode not in ("all", "escalate"):
            raise ConfigurationError(f"panel 'mode' must be 'all' or 'escalate' (got {mode!r})")
        if margin_points < 0:
            raise ConfigurationError(f"panel 'margin_points' must be >= 0 (got {margin_points})")
        if not 0 <= pass_from <= 100:
            raise ConfigurationError(f"panel 'pass_from' must be 0-100 (got {pass_from})")
        self.judges: tuple[Judge, ...] = tuple(judges)
        self.mode: PanelMode = mode
        self.margin_points = margin_points
        self.pass_from = pass_from

    @property
    def name(self) -> str:
        """``panel(<judge>, <judge>, ...)``, every judge of the panel in order."""
        return f"panel({', '.join(j.name for j in self.judges)})"

    def review(self, request: ReviewRequest) -> Review:
        """Review one round with the panel.

        Args:
            request: What every judge is given (the same request for each).

        Returns:
            The combined review; ``judge`` is the panel's name and ``summary`` names each
            judge's verdict and score.

        Raises:
            JudgeUnavailableError: Every judge asked failed, at least one of them transiently
                (``retry_after_s`` is the longest any of them asked for).
            JudgeResponseError: Every judge asked failed, none of them transiently.
        """
        if self.mode == "all":
            answered, failures = self._ask_all(request)
            escalation: str | None = None
        else:
            answered, failures, escalation = self._ask_escalating(request)
        if not answered:
            raise _all_failed(failures)
        return self._combine(answered, failures, escalation)

    # -- asking ----------------------------------------------------------------------------

    def _ask_all(self, request: ReviewRequest) -> tuple[list[tuple[str, Review]], list[_Failure]]:
        answered: list[tuple[str, Review]] = []
        failures: list[_Failure] = []
        for judge in self.judges:
            outcome = _ask(judge, request)
            if isinstance(outcome, _Failure):
                failures.append(outcome)
            else:
                answered.append((judge.name, outcome))
        return answered, failures

    def _ask_escalating(
        self, request: ReviewRequest
    ) -> tuple[list[tuple[str, Review]], list[_Failure], str | None]:
        answered: list[tuple[str, Review]] = []
        failures: list[_Failure] = []
        reasons: list[str] = []
        for judge in self.judges:
            outcome = _ask(judge, request)
            if isinstance(outcome, _Failure):
                failures.append(outcome)
                reasons.append(f"{outcome.judge} failed")
                continue
            answered.append((judge.name, outcome))
            if len(answered) == 1:
                doubt = self._doubt(outcome)
                if doubt is None:
                    break
                reasons.append(f"{judge.name} {doubt}")
            elif _two_agree([r for _, r in answered]):
                break
            else:
                votes = ", ".join(f"{n} {r.verdict.value}" for n, r in answered)
                reasons.append(f"no two verdicts agree ({votes})")
        asked = len(answered) + len(failures)
        if asked < 2:
            return answered, failures, None
        return answered, failures, f"escalated to {asked} judges: {'; '.join(reasons)}"

    def _doubt(self, review: Review) -> str | None:
        """Why a lone review is not enough, or None when it is."""
        distance = abs(review.score - self.pass_from)
        if distance <= self.margin_points:
            return (
                f"scored {review.score}, within {self.margin_points} points "
                f"of the pass mark {self.pass_from}"
            )
        if review.warnings:
            return f"flagged its review ({len(review.warnings)} warning(s))"
        return None

    # -- combining -------------------------------------------------------------------------

    def _combine(
        self,
        answered: list[tuple[str, Review]],
        failures: list[_Failure],
        escalation: str | None,
    ) -> Review:
        reviews = [r for _, r in answered]
        scores = [r.score for r in reviews]
        verdict, votes = majority_verdict([r.verdict for r in reviews])
        score = _median(scores)
        warnings: list[str] = []
        for name, review in answered:
            warnings.extend(f"{name}: {w}" for w in review.warnings)
        for failure in failures:
            warnings.append(f"panel judge {failure.judge} failed and was left out: {failure.error}")
        spread = max(scores) - min(scores)
        if spread > self.margin_points:
            shown = ", ".join(str(s) for s in scores)
            warnings.append(f"panel disagreement: {spread} points (scores {shown})")
        if escalation is not None:
            warnings.append(escalation)
        lines = [
            f"panel verdict {verdict.value} ({votes} of {len(reviews)} votes), "
            f"median score {score}:"
        ]
        lines += [f"- {n}: {r.verdict.value} {r.score}. {r.summary}".rstrip() for n, r in answered]
        lines += [f"- {f.judge}: failed" for f in failures]
        return Review(
            verdict=verdict,
            score=score,
            dimensions=_combine_dimensions(reviews),
            must_fix=_unique(item for r in reviews for item in r.must_fix),
            summary="\n".join(lines),
            judge=self.name,
            warnings=_unique(warnings),
            latency_ms=sum(r.latency_ms for r in reviews) + sum(f.latency_ms for f in failures),
            prompt_tokens=sum(r.prompt_tokens for r in reviews),
            completion_tokens=sum(r.completion_tokens for r in reviews),
        )


def majority_verdict(verdicts: Sequence[Verdict]) -> tuple[Verdict, int]:
    """The verdict with the most votes; a tie goes to the more severe verdict.

    Args:
        verdicts: One verdict per judge; at least one.

    Returns:
        The winning verdict and its number of votes.

    Raises:
        ValueError: ``verdicts`` is empty.
    """
    if not verdicts:
        raise ValueError("majority_verdict needs at least one verdict (got none)")
    counts = {v: verdicts.count(v) for v in set(verdicts)}
    winner = max(counts, key=lambda v: (counts[v], SEVERITY_ORDER[v]))
    return winner, counts[winner]


def _ask(judge: Judge, request: ReviewRequest) -> Review | _Failure:
    started = time.perf_counter()
    try:
        return judge.review(request)
    except JudgeError as exc:
        return _Failure(judge.name, exc, (time.perf_counter() - started) * 1000.0)


def _two_agree(reviews: Sequence[Review]) -> bool:
    verdicts = [r.verdict for r in reviews]
    return len(set(verdicts)) < len(verdicts)


def _all_failed(failures: Sequence[_Failure]) -> JudgeError:
    detail = "; ".join(f"{f.judge}: {f.error}" for f in failures)
    message = f"every judge of the panel failed ({detail})"
    transient = [f.error for f in failures if isinstance(f.error, JudgeUnavailableError)]
    if transient:
        waits = [e.retry_after_s for e in transient if e.retry_after_s is not None]
        return JudgeUnavailableError(message, retry_after_s=max(waits) if waits else None)
    return JudgeResponseError(message)


def _median(values: Sequence[int]) -> int:
    """The median, rounded half up (``statistics.median`` of two values may end in .5)."""
    return math.floor(statistics.median(values) + 0.5)


def _combine_dimensions(reviews: Sequence[Review]) -> tuple[DimensionScore, ...]:
    """Per dimension name (first-seen order): the median score and the union of the issues."""
    scores: dict[str, list[int]] = {}
    issues: dict[str, list[str]] = {}
    for review in reviews:
        for dim in review.dimensions:
            scores.setdefault(dim.name, []).append(dim.score)
            issues.setdefault(dim.name, []).extend(dim.issues)
    return tuple(
        DimensionScore(name=name, score=_median(values), issues=_unique(issues[name]))
        for name, values in scores.items()
    )


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


# -- bias checks ------------------------------------------------------------------------------


def length_bias(pairs: Sequence[tuple[int, int]]) -> float:
    """The length-bias check: how strongly a judge's scores follow deliverable length.

    Pearson correlation of length against score across a batch of reviews. Near +1 means longer
    deliverables score higher (the judge may reward length for its own sake); near 0, no linear
    relation. A correlation is a hint for a person to look, not proof: longer answers are
    sometimes simply more complete.

    Args:
        pairs: One ``(length, score)`` per review: the deliverable's length (in characters, or
            any unit used consistently) and its score, 0-100.

    Returns:
        The correlation, -1.0 to 1.0; 0.0 with fewer than 3 pairs, or when all lengths or all
        scores are equal (the correlation is undefined then).
    """
    if len(pairs) < 3:
        return 0.0
    lengths = [float(n) for n, _ in pairs]
    scores = [float(s) for _, s in pairs]
    mean_n = statistics.fmean(lengths)
    mean_s = statistics.fmean(scores)
    dn = [n - mean_n for n in lengths]
    ds = [s - mean_s for s in scores]
    var_n = sum(d * d for d in dn)
    var_s = sum(d * d for d in ds)
    if var_n == 0.0 or var_s == 0.0:
        return 0.0
    r = sum(a * b for a, b in zip(dn, ds, strict=True)) / math.sqrt(var_n * var_s)
    return max(-1.0, min(1.0, r))
