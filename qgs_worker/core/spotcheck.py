"""Human spot-checks that measure the judge: which rounds are sampled, what agreement says.

A sample of decided rounds lands in a spot-check queue; a person records whether the gate's
decision was right and the verdict and severities they would give. From those labels come,
per judge, task type and detector rule, the agreement with people (Cohen's kappa person vs
gate, Krippendorff's alpha among people where several labelled a round), the false positives
and false negatives of each rule, and the rounds behind each figure. Shadow mode holds a judge
or a rule "recorded, not deciding" until its agreement passes the operator's threshold.

Pure: values in, values out (the math is ``core.agreement``'s).

    >>> policy = SamplePolicy(rate=0.05, strata={"CRITICAL": 1.0})
    >>> sampled("s-abc", "CRITICAL", "pass", policy)
    True
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from qgs_worker.core.agreement import Interval, kappa_interval, krippendorff_alpha
from qgs_worker.core.models import DecisionKind, Severity, TaskType, Verdict

__all__ = [
    "NO_FINDING",
    "Figure",
    "LabelRecord",
    "SamplePolicy",
    "Shadow",
    "ShadowChange",
    "ShadowPolicy",
    "ShadowState",
    "agreement_figures",
    "automatic_changes",
    "can_raise_p0",
    "current_shadow",
    "gate_verdict",
    "sample_point",
    "sampled",
    "shadow_states",
    "strata_keys",
    "stratum_rate",
]

NO_FINDING = "none"
"""A person's severity for a rule that should not have fired (a false positive)."""

SubjectKind = Literal["judge", "rule"]
"""What shadow mode can hold: a judge (by its name, ``Review.judge``) or a rule (by its id)."""


# -- sampling ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SamplePolicy:
    """Which decided rounds a person is asked to check.

    Attributes:
        rate: The share of decided rounds sampled, 0.0-1.0 (0: only the rounds asked for).
        strata: Rates by stratum, each 0.0-1.0: a task type (``CRITICAL``), a decision kind
            (``block``), or both (``CRITICAL/pass``). A round is sampled at the rate of its
            ``TYPE/decision`` stratum when one is set, else at the higher of its type's and its
            decision's when either is set, else at ``rate``.
    """

    rate: float = 0.0
    strata: Mapping[str, float] = field(default_factory=dict)

    @property
    def off(self) -> bool:
        """Nothing is ever sampled (only rounds a person asks for reach the queue)."""
        return self.rate <= 0.0 and all(r <= 0.0 for r in self.strata.values())


def stratum_rate(policy: SamplePolicy, task_type: str, decision: str) -> float:
    """The sampling rate of a round of ``task_type`` decided ``decision`` (see ``SamplePolicy``)."""
    both = policy.strata.get(f"{task_type}/{decision}")
    if both is not None:
        return both
    single = [r for key in (task_type, decision) if (r := policy.strata.get(key)) is not None]
    return max(single) if single else policy.rate


def sample_point(key: str) -> float:
    """Where a round falls in [0, 1): the first 8 bytes of SHA-256 of its key, as a fraction.

    Deterministic: the same key gives the same point in every process and on every delivery.
    """
    digest = hashlib.sha256(f"qgs-spotcheck:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def sampled(key: str, task_type: str, decision: str, policy: SamplePolicy) -> bool:
    """Whether the round with ``key`` (its submission id) is sampled for a spot-check.

    The same round is sampled the same way however often it is asked (a redelivered job),
    and a higher rate samples a superset of a lower one's rounds.

    Args:
        key: The round's stable id (its submission id).
        task_type: The task's type (``TaskType``'s text).
        decision: The decision's kind (``DecisionKind``'s text).
        policy: The rates.
    """
    rate = stratum_rate(policy, task_type, decision)
    return rate > 0.0 and sample_point(key) < rate


def strata_keys() -> tuple[str, ...]:
    """Every stratum name a ``SamplePolicy`` may hold (types, kinds, and ``TYPE/kind``)."""
    types = [t.value for t in TaskType]
    kinds = [k.value for k in DecisionKind]
    return (*types, *kinds, *(f"{t}/{k}" for t in types for k in kinds))


# -- labels and agreement ---------------------------------------------------------------------


_GATE_VERDICT = {
    DecisionKind.PASS.value: Verdict.PASS.value,
    DecisionKind.PASS_WITH_SUGGESTIONS.value: Verdict.PASS_WITH_SUGGESTIONS.value,
    DecisionKind.REVISE.value: Verdict.FAIL.value,
    DecisionKind.BLOCK.value: Verdict.FAIL.value,
    DecisionKind.FORCE_DELIVER.value: Verdict.FAIL.value,
}


def gate_verdict(decision: str, judge_verdict: str | None) -> str | None:
    """The gate's verdict on a round, to set beside a person's.

    The judge's verdict when the round was reviewed; else what the decision says of the round
    (pass, pass with suggestions; revise, block: fail); None when it says nothing of it
    (``continue``, or ``awaiting_approval`` without a review).
    """
    if judge_verdict is not None:
        return judge_verdict
    return _GATE_VERDICT.get(decision)


@dataclass(frozen=True, slots=True)
class LabelRecord:
    """One person's label of one sampled round, beside what the gate had on it.

    Attributes:
        submission_id: The round's id (the rounds behind each figure are named by it).
        task_type: The task's type.
        decision: The gate's decision kind on the round (the one that was labelled).
        judge: The judge that reviewed the round, or None (no review).
        judge_verdict: That judge's verdict, or None.
        fired: The rules whose findings the round carries, each with its worst severity
            (``P0``-``P4``): shadowed rules' findings included (recorded, not deciding).
        person: Who labelled (the calling principal).
        decision_correct: Whether the person says the gate's decision was right.
        verdict: The verdict the person would give (``Verdict``'s text).
        task_id: The round's task.
        severities: The person's severity per rule (``P0``-``P4``, or ``none``: should not have
            fired). A rule that fired and is not named keeps the gate's severity: accepted.
        by_person: Recorded by a person (an operator key), not by an agent's key labelling
            its own round; only people's labels move shadow states.
    """

    submission_id: str
    task_type: str
    decision: str
    judge: str | None
    judge_verdict: str | None
    fired: Mapping[str, str]
    person: str
    decision_correct: bool
    verdict: str
    severities: Mapping[str, str] = field(default_factory=dict)
    task_id: str = ""
    by_person: bool = True

    def person_severity(self, rule: str) -> str:
        """The person's severity for ``rule`` (``none`` when absent for them)."""
        return self.severities.get(rule, self.fired.get(rule, NO_FINDING))


@dataclass(frozen=True, slots=True)
class Figure:
    """One agreement figure: a judge's, a task type's, a rule's, or the gate's as a whole.

    Attributes:
        scope: ``gate`` (every label), ``judge``, ``task_type`` or ``rule``.
        name: The judge's name, the task type, the rule id (``all`` for the gate).
        labels: How many labels the figure is computed over.
        decision_right: Of ``labels``, how many say the gate's decision was right.
        kappa: Cohen's kappa person vs gate, with its 95% interval (None: undefined or none).
        alpha: Krippendorff's alpha among the people who labelled the same rounds (None: no
            round labelled by two people, or undefined).
        rounds: The submission ids behind the figure.
        true_positives, false_positives, false_negatives, true_negatives: For a rule: fired
            and confirmed, fired and refused (``none``), not fired and named, neither.
        severity_matches: For a rule: confirmed findings whose severity the person kept.
        false_positive_rounds, false_negative_rounds: The submission ids behind those counts.
    """

    scope: str
    name: str
    labels: int
    decision_right: int
    kappa: Interval | None
    alpha: float | None
    rounds: tuple[str, ...]
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    true_negatives: int = 0
    severity_matches: int = 0
    false_positive_rounds: tuple[str, ...] = ()
    false_negative_rounds: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The figure as JSON-ready data (the API's, the reports' and the metrics' shape).

        ``kappa`` is ``{"estimate", "low", "high", "n", "too_few"}`` (the 95% interval, the
        items it stands on, and whether they are fewer than ``agreement.KAPPA_MIN_ITEMS``) or
        null; a rule's figure adds its counts and the rounds behind its false positives and
        negatives.
        """
        out: dict[str, Any] = {
            "scope": self.scope,
            "name": self.name,
            "labels": self.labels,
            "decision_right": self.decision_right,
            "kappa": _interval(self.kappa),
            "alpha": None if self.alpha is None else round(self.alpha, 4),
            "rounds": list(self.rounds),
        }
        if self.scope == "rule":
            out |= {
                "true_positives": self.true_positives,
                "false_positives": self.false_positives,
                "false_negatives": self.false_negatives,
                "true_negatives": self.true_negatives,
                "severity_matches": self.severity_matches,
                "false_positive_rounds": list(self.false_positive_rounds),
                "false_negative_rounds": list(self.false_negative_rounds),
            }
        return out


def _interval(found: Interval | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {
        "estimate": round(found.estimate, 4),
        "low": round(found.low, 4),
        "high": round(found.high, 4),
        "n": found.n,
        "too_few": found.too_few,
    }


def _alpha(values: Iterable[tuple[str, str]]) -> float | None:
    """Alpha over ``(submission_id, value)`` per label: the units are the rounds."""
    units: dict[str, list[str]] = defaultdict(list)
    for submission_id, value in values:
        units[submission_id].append(value)
    if not any(len(v) > 1 for v in units.values()):
        return None
    return krippendorff_alpha(units.values())


def _verdict_figure(scope: str, name: str, records: Sequence[LabelRecord]) -> Figure:
    pairs = [
        (r.verdict, theirs)
        for r in records
        if (theirs := gate_verdict(r.decision, r.judge_verdict)) is not None
    ]
    return Figure(
        scope=scope,
        name=name,
        labels=len(records),
        decision_right=sum(r.decision_correct for r in records),
        kappa=kappa_interval(pairs),
        alpha=_alpha((r.submission_id, r.verdict) for r in records),
        rounds=tuple(dict.fromkeys(r.submission_id for r in records)),
    )


def _rule_figure(rule: str, records: Sequence[LabelRecord]) -> Figure:
    tp = fp = fn = tn = same = 0
    fp_rounds: list[str] = []
    fn_rounds: list[str] = []
    pairs = []
    for r in records:
        gate_says = rule in r.fired
        theirs = r.person_severity(rule)
        person_says = theirs != NO_FINDING
        pairs.append((person_says, gate_says))
        if gate_says and person_says:
            tp += 1
            same += theirs == r.fired[rule]
        elif gate_says:
            fp += 1
            fp_rounds.append(r.submission_id)
        elif person_says:
            fn += 1
            fn_rounds.append(r.submission_id)
        else:
            tn += 1
    return Figure(
        scope="rule",
        name=rule,
        labels=len(records),
        decision_right=sum(r.decision_correct for r in records),
        kappa=kappa_interval(pairs),
        alpha=_alpha(
            (r.submission_id, str(r.person_severity(rule) != NO_FINDING)) for r in records
        ),
        rounds=tuple(
            dict.fromkeys(
                r.submission_id for r in records if rule in r.fired or rule in r.severities
            )
        ),
        true_positives=tp,
        false_positives=fp,
        false_negatives=fn,
        true_negatives=tn,
        severity_matches=same,
        false_positive_rounds=tuple(dict.fromkeys(fp_rounds)),
        false_negative_rounds=tuple(dict.fromkeys(fn_rounds)),
    )


def agreement_figures(records: Sequence[LabelRecord]) -> list[Figure]:
    """Every figure the labels give: the gate's, then per judge, task type and rule (by name).

    A rule's figure counts every labelled round (where it neither fired nor was named, a true
    negative); a judge's counts the rounds it reviewed; a task type's, that type's rounds.
    """
    if not records:
        return []
    figures = [_verdict_figure("gate", "all", records)]
    by_judge: dict[str, list[LabelRecord]] = defaultdict(list)
    by_type: dict[str, list[LabelRecord]] = defaultdict(list)
    rules: set[str] = set()
    for r in records:
        if r.judge:
            by_judge[r.judge].append(r)
        by_type[r.task_type].append(r)
        rules.update(r.fired)
        rules.update(rule for rule, sev in r.severities.items() if sev != NO_FINDING)
    figures += [_verdict_figure("judge", name, by_judge[name]) for name in sorted(by_judge)]
    figures += [_verdict_figure("task_type", name, by_type[name]) for name in sorted(by_type)]
    figures += [_rule_figure(rule, records) for rule in sorted(rules)]
    return figures


# -- shadow mode ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shadow:
    """What the gate holds back (``gate.decide_gate``): recorded, not deciding.

    Attributes:
        rules: Rule ids whose findings do not decide.
        judges: Judge names whose verdicts do not decide.
    """

    rules: frozenset[str] = frozenset()
    judges: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.rules or self.judges)


@dataclass(frozen=True, slots=True)
class ShadowPolicy:
    """The operator's shadow settings.

    Attributes:
        judges: Judges held in shadow until their agreement passes.
        rules: Rules held in shadow until theirs passes (a rule that can raise P0 is not: only
            a person puts it in or takes it out).
        threshold: The kappa whose 95% interval's lower bound must reach it, -1.0-1.0.
        min_labels: The fewest labels the figure must stand on.
    """

    judges: frozenset[str] = frozenset()
    rules: frozenset[str] = frozenset()
    threshold: float = 0.6
    min_labels: int = 30


@dataclass(frozen=True, slots=True)
class ShadowChange:
    """A stored change of a subject's shadow state: a person's decision, or QGS's own.

    Attributes:
        kind: ``judge`` or ``rule``.
        name: The judge's name or the rule's id.
        in_shadow: The state it set.
        by: Who: the person (principal), or ``qgs`` for an automatic leave.
        automatic: Whether QGS made it (agreement passed), not a person.
        reason: Why, in words.
    """

    kind: str
    name: str
    in_shadow: bool
    by: str
    automatic: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ShadowState:
    """Where a judge or rule stands, and why.

    Attributes:
        kind, name: The subject.
        in_shadow: Recorded, not deciding.
        why: The reason, in words.
        labels: The labels its figure stands on.
        kappa: Its kappa with the interval (None: none yet).
        p0: For a rule: it can raise P0 (only a person moves it).
        changed_by: Who last changed it (None: only the settings did).
    """

    kind: str
    name: str
    in_shadow: bool
    why: str
    labels: int = 0
    kappa: Interval | None = None
    p0: bool = False
    changed_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data."""
        return {
            "kind": self.kind,
            "name": self.name,
            "in_shadow": self.in_shadow,
            "why": self.why,
            "labels": self.labels,
            "kappa": _interval(self.kappa),
            "p0": self.p0,
            "changed_by": self.changed_by,
        }


def can_raise_p0(rule: str) -> bool:
    """Whether a rule can raise a P0 finding in some context (an unknown id: assumed so)."""
    from qgs_worker.core import rules

    try:
        found = rules.by_id(rule)
    except KeyError:
        return True
    return Severity.P0 in found.severity.values()


def _passes(figure: Figure | None, policy: ShadowPolicy) -> bool:
    return (
        figure is not None
        and figure.kappa is not None
        and figure.labels >= policy.min_labels
        and figure.kappa.low >= policy.threshold
    )


def shadow_states(
    policy: ShadowPolicy,
    changes: Mapping[tuple[str, str], ShadowChange],
    figures: Sequence[Figure] = (),
) -> list[ShadowState]:
    """The state of every judge and rule the settings or a stored change name.

    In order: a person's latest change holds; an automatic leave holds (it does not come
    back on its own); a subject of the settings is in shadow until its figure passes (kappa's
    lower bound at or above ``threshold`` over at least ``min_labels`` labels), except a rule
    that can raise P0, which enters shadow only by a person's decision.

    Args:
        policy: The settings.
        changes: The latest stored change per ``(kind, name)``.
        figures: The agreement figures (``agreement_figures``): their ``judge`` and ``rule``.
    """
    by_subject = {(f.scope, f.name): f for f in figures if f.scope in ("judge", "rule")}
    subjects = sorted(
        {("judge", j) for j in policy.judges} | {("rule", r) for r in policy.rules} | set(changes)
    )
    states = []
    for kind, name in subjects:
        figure = by_subject.get((kind, name))
        p0 = kind == "rule" and can_raise_p0(name)
        labels = figure.labels if figure else 0
        kappa = figure.kappa if figure else None
        change = changes.get((kind, name))
        listed = name in (policy.judges if kind == "judge" else policy.rules)
        if change is not None and not change.automatic:
            state, why = change.in_shadow, f"{change.by} decided: {change.reason or 'no note'}"
        elif change is not None:
            state, why = change.in_shadow, change.reason
        elif not listed:
            state, why = False, "not in the shadow settings"
        elif p0:
            state, why = (
                False,
                (
                    "it can raise P0: it enters shadow only by a person's decision "
                    "(POST /v1/shadow), never by the settings alone"
                ),
            )
        elif _passes(figure, policy):
            state, why = False, _passed(figure, policy)
        else:
            state, why = True, _waiting(figure, policy)
        states.append(
            ShadowState(
                kind=kind,
                name=name,
                in_shadow=state,
                why=why,
                labels=labels,
                kappa=kappa,
                p0=p0,
                changed_by=change.by if change is not None else None,
            )
        )
    return states


def _passed(figure: Figure | None, policy: ShadowPolicy) -> str:
    assert figure is not None and figure.kappa is not None
    return (
        f"agreement passed: kappa {figure.kappa.estimate:.3f} (95% CI {figure.kappa.low:.3f}-"
        f"{figure.kappa.high:.3f}) over {figure.labels} labels; the lower bound reached "
        f"{policy.threshold:g} with at least {policy.min_labels} labels"
    )


def _waiting(figure: Figure | None, policy: ShadowPolicy) -> str:
    need = f"needs kappa's lower bound >= {policy.threshold:g} over >= {policy.min_labels} labels"
    if figure is None or figure.kappa is None:
        return f"in shadow: {figure.labels if figure else 0} usable label(s) so far; {need}"
    k = figure.kappa
    few = " (too few labels for a firm figure)" if k.too_few else ""
    return (
        f"in shadow: kappa {k.estimate:.3f} (95% CI {k.low:.3f}-{k.high:.3f}) over "
        f"{figure.labels} labels{few}; {need}"
    )


def automatic_changes(
    policy: ShadowPolicy,
    changes: Mapping[tuple[str, str], ShadowChange],
    figures: Sequence[Figure],
) -> list[ShadowChange]:
    """The automatic leaves to store now: subjects of the settings whose agreement passed.

    Never a rule that can raise P0, never a subject a person or QGS changed before.
    """
    by_subject = {(f.scope, f.name): f for f in figures}
    out = []
    for kind, names in (("judge", policy.judges), ("rule", policy.rules)):
        for name in sorted(names):
            if (kind, name) in changes or (kind == "rule" and can_raise_p0(name)):
                continue
            figure = by_subject.get((kind, name))
            if _passes(figure, policy):
                out.append(
                    ShadowChange(
                        kind=kind,
                        name=name,
                        in_shadow=False,
                        by="qgs",
                        automatic=True,
                        reason=_passed(figure, policy),
                    )
                )
    return out


def current_shadow(
    policy: ShadowPolicy,
    changes: Mapping[tuple[str, str], ShadowChange],
    figures: Sequence[Figure] = (),
) -> Shadow:
    """What the gate holds back now (``shadow_states``' subjects in shadow)."""
    states = [s for s in shadow_states(policy, changes, figures) if s.in_shadow]
    return Shadow(
        rules=frozenset(s.name for s in states if s.kind == "rule"),
        judges=frozenset(s.name for s in states if s.kind == "judge"),
    )
