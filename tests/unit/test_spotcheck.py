"""Spot-checks: sampling, the queue and its labels in the store, agreement figures, shadow mode."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qgs_worker.core import gate
from qgs_worker.core.models import (
    CadencePolicy,
    Complexity,
    Decision,
    DecisionKind,
    Deliverable,
    Finding,
    GatePolicy,
    Review,
    Severity,
    TaskHistory,
    TaskType,
    Verdict,
)
from qgs_worker.core.spotcheck import (
    LabelRecord,
    SamplePolicy,
    Shadow,
    ShadowChange,
    ShadowPolicy,
    agreement_figures,
    automatic_changes,
    can_raise_p0,
    current_shadow,
    sample_point,
    sampled,
    shadow_states,
    stratum_rate,
)
from qgs_worker.errors import (
    LabelExistsError,
    NotSampledError,
    RoundRedecidedError,
    TaskNotFoundError,
)
from qgs_worker.queue import pipeline
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from qgs_worker.store.shadow_changes import ShadowReader
from tests.unit.test_pipeline_steps import BrokenJudge, ScriptedJudge

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())


class TestSampling:
    """Deterministic per round: a redelivered job samples the same; rates by stratum."""

    def test_the_same_key_falls_at_the_same_point(self) -> None:
        assert sample_point("s-1") == sample_point("s-1") != sample_point("s-2")
        assert 0.0 <= sample_point("s-1") < 1.0

    def test_the_rate_is_the_share_sampled(self) -> None:
        policy = SamplePolicy(rate=0.1)
        hits = sum(sampled(f"s-{i}", "ACTION", "pass", policy) for i in range(20_000))
        assert 1_800 < hits < 2_200

    def test_a_higher_rate_samples_a_superset(self) -> None:
        low, high = SamplePolicy(rate=0.05), SamplePolicy(rate=0.2)
        keys = [f"k{i}" for i in range(2_000)]
        chosen_low = {k for k in keys if sampled(k, "QUERY", "pass", low)}
        assert chosen_low <= {k for k in keys if sampled(k, "QUERY", "pass", high)}

    @pytest.mark.parametrize(
        ("task_type", "decision", "rate"),
        [
            ("CRITICAL", "pass", 0.5),  # TYPE/kind wins over both
            ("CRITICAL", "block", 1.0),  # the higher of the type's (0.8) and the kind's (1.0)
            ("CRITICAL", "revise", 0.8),  # the type's
            ("QUERY", "block", 1.0),  # the kind's
            ("QUERY", "pass", 0.01),  # the rate
        ],
    )
    def test_strata(self, task_type: str, decision: str, rate: float) -> None:
        policy = SamplePolicy(
            rate=0.01, strata={"CRITICAL": 0.8, "block": 1.0, "CRITICAL/pass": 0.5}
        )
        assert rate == stratum_rate(policy, task_type, decision)

    def test_rate_zero_samples_nothing_and_one_everything(self) -> None:
        assert not any(sampled(f"s{i}", "ACTION", "pass", SamplePolicy()) for i in range(500))
        assert all(sampled(f"s{i}", "ACTION", "pass", SamplePolicy(rate=1.0)) for i in range(500))
        assert SamplePolicy().off and not SamplePolicy(strata={"block": 0.1}).off


def record(
    sid: str,
    person: str = "ann",
    *,
    verdict: str = "PASS",
    judge_verdict: str | None = "PASS",
    decision: str = "pass",
    right: bool = True,
    fired: dict[str, str] | None = None,
    severities: dict[str, str] | None = None,
    task_type: str = "GENERATE",
) -> LabelRecord:
    return LabelRecord(
        submission_id=sid,
        task_type=task_type,
        decision=decision,
        judge="critic-a" if judge_verdict else None,
        judge_verdict=judge_verdict,
        fired=fired or {},
        person=person,
        decision_correct=right,
        verdict=verdict,
        severities=severities or {},
    )


class TestFigures:
    """Per judge, task type and rule: kappa, alpha, FP/FN, and the rounds behind each."""

    def test_rule_counts_and_the_rounds_behind_them(self) -> None:
        records = [
            record("s1", fired={"sql_drop": "P0"}),  # confirmed
            record("s2", fired={"sql_drop": "P0"}, severities={"sql_drop": "none"}),  # FP
            record("s3", severities={"sql_drop": "P1"}),  # FN
            record("s4"),  # TN
            record("s5", fired={"sql_drop": "P0"}, severities={"sql_drop": "P2"}),  # TP, other sev
        ]
        rule = next(f for f in agreement_figures(records) if f.scope == "rule")
        assert ("sql_drop", 2, 1, 1, 1, 1) == (
            rule.name,
            rule.true_positives,
            rule.false_positives,
            rule.false_negatives,
            rule.true_negatives,
            rule.severity_matches,
        )
        assert (("s2",), ("s3",)) == (rule.false_positive_rounds, rule.false_negative_rounds)
        assert ("s1", "s2", "s3", "s5") == rule.rounds

    def test_judge_kappa_and_alpha_among_people(self) -> None:
        records = [
            record("s1", verdict="PASS", judge_verdict="PASS"),
            record("s1", "bob", verdict="PASS", judge_verdict="PASS"),
            record("s2", verdict="FAIL", judge_verdict="FAIL", decision="revise"),
            record("s2", "bob", verdict="PASS", judge_verdict="FAIL", decision="revise"),
            record("s3", verdict="FAIL", judge_verdict="PASS", right=False),
        ]
        figures = {(f.scope, f.name): f for f in agreement_figures(records)}
        judge = figures["judge", "critic-a"]
        assert (5, 4) == (judge.labels, judge.decision_right)
        assert judge.kappa is not None and judge.alpha is not None
        assert ("s1", "s2", "s3") == judge.rounds
        assert {("gate", "all"), ("judge", "critic-a"), ("task_type", "GENERATE")} == set(figures)

    def test_an_unreviewed_continue_has_no_gate_verdict(self) -> None:
        records = [record("s1", judge_verdict=None, decision="continue")]
        gate_figure = agreement_figures(records)[0]
        assert (1, None) == (gate_figure.labels, gate_figure.kappa)


def figures_for(rule: str, agree: int, disagree: int) -> list:
    """Figures where the rule agrees with people on ``agree`` rounds and not on ``disagree``."""
    records = [record(f"a{i}", fired={rule: "P2"}) for i in range(agree // 2)]
    records += [record(f"b{i}") for i in range(agree - agree // 2)]
    records += [record(f"c{i}", severities={rule: "P2"}) for i in range(disagree)]
    return agreement_figures(records)


class TestShadow:
    """Shadow mode: in until agreement passes; a P0 rule moves only by a person's decision."""

    NON_P0 = "instruction_model"  # P2/P3 only

    def test_the_rules_table_says_which_rules_can_raise_p0(self) -> None:
        assert not can_raise_p0(self.NON_P0)
        assert can_raise_p0("no-such-rule")  # unknown: assumed so, a person decides

    def test_a_listed_rule_stays_in_until_its_agreement_passes(self) -> None:
        policy = ShadowPolicy(rules=frozenset({self.NON_P0}), threshold=0.6, min_labels=20)
        few = figures_for(self.NON_P0, agree=10, disagree=0)
        assert [True] == [s.in_shadow for s in shadow_states(policy, {}, few)]
        assert [] == automatic_changes(policy, {}, few)  # 10 labels: under the minimum
        many = figures_for(self.NON_P0, agree=60, disagree=0)
        (change,) = automatic_changes(policy, {}, many)
        assert (False, True, "qgs") == (change.in_shadow, change.automatic, change.by)
        stored = {("rule", self.NON_P0): change}
        assert not current_shadow(policy, stored)  # left for good: the gate holds nothing back

    def test_poor_agreement_keeps_it_in_with_the_interval_said(self) -> None:
        policy = ShadowPolicy(rules=frozenset({self.NON_P0}), min_labels=10)
        poor = figures_for(self.NON_P0, agree=20, disagree=15)
        (state,) = shadow_states(policy, {}, poor)
        assert state.in_shadow and "95% CI" in state.why and state.kappa is not None
        assert [] == automatic_changes(policy, {}, poor)

    def test_a_p0_rule_never_enters_or_leaves_on_its_own(self) -> None:
        rule = "no-such-rule"
        policy = ShadowPolicy(rules=frozenset({rule}), min_labels=1, threshold=-1.0)
        (state,) = shadow_states(policy, {}, figures_for(rule, 60, 0))
        assert (False, True) == (state.in_shadow, state.p0)  # the settings alone: not in
        assert [] == automatic_changes(policy, {}, figures_for(rule, 60, 0))
        person = ShadowChange("rule", rule, in_shadow=True, by="ann", reason="noisy")
        assert current_shadow(policy, {("rule", rule): person}).rules == {rule}
        assert [] == automatic_changes(policy, {("rule", rule): person}, figures_for(rule, 60, 0))

    def test_a_persons_decision_holds_over_the_settings(self) -> None:
        policy = ShadowPolicy(judges=frozenset({"critic-a"}))
        out = ShadowChange("judge", "critic-a", in_shadow=False, by="ann", reason="trusted")
        assert not current_shadow(policy, {("judge", "critic-a"): out})
        assert current_shadow(policy, {}).judges == {"critic-a"}


def decide(
    findings: tuple[Finding, ...] = (), review: Review | None = None, shadow: Shadow | None = None
) -> Decision:
    return gate.decide_gate(
        review,
        round_number=1,
        complexity=Complexity.COMPLEX,
        final=True,
        history=TaskHistory(),
        findings=findings,
        policy=GatePolicy(),
        task_type=TaskType.GENERATE,
        shadow=shadow,
    )


DROP = Finding(
    role="detector", category="destructive", severity=Severity.P0, title="drops a table", rule="r0"
)
PASSING = Review(verdict=Verdict.PASS, score=90, judge="critic-a")


class TestGateShadow:
    """Recorded, not deciding: a shadowed rule's finding and a shadowed judge's verdict."""

    def test_a_shadowed_rules_p0_does_not_block_and_is_named(self) -> None:
        assert DecisionKind.BLOCK == decide((DROP,), PASSING).kind
        found = decide((DROP,), PASSING, Shadow(rules=frozenset({"r0"})))
        assert DecisionKind.PASS == found.kind
        assert "rules in shadow): r0" in found.reason and 0 == found.risk

    def test_a_shadowed_judges_pass_waits_for_a_person(self) -> None:
        found = decide((), PASSING, Shadow(judges=frozenset({"critic-a"})))
        assert DecisionKind.AWAITING_APPROVAL == found.kind
        assert "'critic-a' is in shadow" in found.reason and "PASS, score 90" in found.reason

    def test_deciding_findings_still_decide_beside_a_shadowed_judge(self) -> None:
        found = decide((DROP,), PASSING, Shadow(judges=frozenset({"critic-a"})))
        assert DecisionKind.BLOCK == found.kind

    def test_no_shadow_is_the_gate_as_before(self) -> None:
        assert decide((), PASSING) == decide((), PASSING, Shadow())


def sub(sid: str, text: str, *, final: bool = True, task: str = "t1") -> Submission:
    return Submission(
        submission_id=sid,
        task_id=task,
        final=final,
        deliverable=Deliverable(text=text),
        task=NewTask(request="write an article about AI"),
    )


def decided(repo: Repository, sid: str, text: str = "score=92", judge: object = None) -> int:
    service = pipeline.service_for(repo, POLICIES, judge=judge or ScriptedJudge())
    ready = service.intake(sub(sid, text))
    assert ready is not None
    service.review(ready.round_id, then_decide=True)
    return ready.round_id


class TestQueueAndLabels:
    """The store's queue: idempotent sampling, asked rounds, and labels refused with reasons.

    On in-memory SQLite here; ``tests/integration/test_spotcheck_stores.py`` runs the same tests
    on a SQLite file and on PostgreSQL (its ``repo`` fixture).
    """

    @pytest.fixture
    def repo(self) -> Repository:
        return Repository("sqlite://")

    def test_sampling_twice_queues_once(self, repo: Repository) -> None:
        round_id = decided(repo, "s1")
        everything = SamplePolicy(rate=1.0)
        assert repo.sample_decided(round_id, everything)
        assert repo.sample_decided(round_id, everything)  # a redelivered listener
        assert 1 == len(repo.spot_checks(None, status="all"))
        assert not repo.sample_decided(round_id, SamplePolicy())

    def test_a_label_of_a_round_never_sampled_is_refused_naming_the_fix(self, repo: Repository) -> None:
        decided(repo, "s1")
        with pytest.raises(NotSampledError, match="POST /v1/spot-checks") as caught:
            repo.add_label("s1", person="ann", key_id=None, decision_correct=True,
                           verdict="PASS", severities={})  # fmt: skip
        assert "submission_id" == caught.value.field
        assert [] == repo.label_records()

    def test_a_second_label_of_the_same_person_is_refused_the_first_stands(self, repo: Repository) -> None:
        decided(repo, "s1")
        item, created = repo.ask_spot_check("s1", by="ann", note="looks off")
        assert created and "asked" == item.reason
        assert not repo.ask_spot_check("s1", by="bob")[1]  # asked again: the same item
        repo.add_label("s1", person="ann", key_id="k1", decision_correct=False,
                       verdict="FAIL", severities={})  # fmt: skip
        with pytest.raises(LabelExistsError, match="that label stands"):
            repo.add_label("s1", person="ann", key_id="k1", decision_correct=True,
                           verdict="PASS", severities={})  # fmt: skip
        item = repo.add_label("s1", person="bob", key_id="k2", decision_correct=True,
                              verdict="PASS", severities={})  # fmt: skip
        assert [("ann", "FAIL"), ("bob", "PASS")] == [
            (lb["person"], lb["verdict"]) for lb in item.labels
        ]
        assert ["FAIL", "PASS"] == [r.verdict for r in repo.label_records()]
        assert ("scripted", "PASS") == (
            repo.label_records()[0].judge,
            repo.label_records()[0].judge_verdict,
        )

    def test_a_label_after_the_round_was_decided_again_is_refused(self, repo: Repository) -> None:
        round_id = decided(repo, "s1", "the final text", judge=BrokenJudge())
        pipeline.service_for(repo, POLICIES).decide(round_id)
        assert "revise" == repo.get_decision(round_id).kind
        repo.ask_spot_check("s1", by="ann")
        repo.add_label("s1", person="ann", key_id=None, decision_correct=True,
                       verdict="FAIL", severities={})  # fmt: skip
        assert 1 == repo.reopen_failed("t1")  # `qgs audit --retry-failed`: its decision is gone
        with pytest.raises(RoundRedecidedError, match="decided again"):
            repo.add_label("s1", person="bob", key_id=None, decision_correct=True,
                           verdict="FAIL", severities={})  # fmt: skip
        assert [] == repo.label_records()  # the old label judged a decision that is gone
        assert ["stale"] == ["stale" for i in repo.spot_checks(None, status="stale")]
        with pytest.raises(TaskNotFoundError):
            repo.ask_spot_check("s1", by="ann")  # not decided again yet

    def test_queue_views_by_status(self, repo: Repository) -> None:
        decided(repo, "s1")
        repo.ask_spot_check("s1", by="ann")
        assert 1 == len(repo.spot_checks(None))
        repo.add_label("s1", person="ann", key_id=None, decision_correct=True, verdict="PASS",
                       severities={})  # fmt: skip
        assert ([], 1) == (repo.spot_checks(None), len(repo.spot_checks(None, status="labelled")))
        assert [] == repo.spot_checks(["someone-else"], status="all")
        assert (0, 1) == repo.spot_check_counts()


class TestShadowReader:
    """Workers read the shadow state at most once per refresh."""

    def test_cached_for_refresh_s(self) -> None:
        repo = Repository("sqlite://")
        now = [0.0]
        read = ShadowReader(repo, ShadowPolicy(), 30.0, clock=lambda: now[0])
        assert not read()
        repo.add_shadow_change(ShadowChange("rule", "r0", in_shadow=True, by="ann", reason="x"))
        assert not read()
        now[0] = 31.0
        assert read().rules == {"r0"}


def test_qgs_shadow_is_a_persons_decision_stored_with_their_name(tmp_path: Path) -> None:
    """``qgs shadow`` on the server: the way a P0 rule moves (no key of an agent may)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env["QGS_DATA_DIR"] = str(tmp_path)
    args = [sys.executable, "-m", "qgs_worker.cli", "shadow", "rule", "sql_drop"]
    on = subprocess.run(
        [*args, "--on", "--note", "too many FPs", "--by", "ana"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert 0 == on.returncode, on.stderr
    assert "rule sql_drop: in shadow (by ana)" in on.stdout
    off = subprocess.run(
        [*args, "--off", "--note", "measured", "--by", "ana"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "rule sql_drop: deciding (by ana)" in off.stdout
    missing = subprocess.run(
        [*args, "--on", "--by", "ana"], env=env, capture_output=True, text=True, timeout=120
    )
    assert 2 == missing.returncode and "--note" in missing.stderr
    typo = subprocess.run(
        [*args[:-1], "sql_dorp", "--on", "--note", "x", "--by", "ana"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert 2 == typo.returncode, typo.stderr
    assert "'sql_dorp'" in typo.stderr and "did you mean 'sql_drop'" in typo.stderr
    assert "Traceback" not in typo.stderr
