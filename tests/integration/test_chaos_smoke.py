"""`make chaos`'s harness: its figures catch what they must, and a tiny run loses nothing.

The figure tests are pure (a store and a judge log built by hand): a harness that cannot fail
proves nothing. The run is a tiny `make chaos` (20 rounds, one critic SIGKILL, SQLite).
"""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest
from rich.console import Console

from bench.chaos.__main__ import misses
from bench.chaos.judge import Call
from bench.chaos.measure import StoreState, judge_figures, store_figures, undecided
from bench.chaos.run import RunConfig, run_backend
from bench.chaos.scenario import plan_faults, plan_rounds


class TestFigures:
    """The figures count lost, stuck, duplicated and passed failures from the store's rows."""

    def state(self) -> StoreState:
        return StoreState(
            rounds={
                "s-ok": [(1, "decided", True, "000001")],
                "s-dispatched": [(2, "dispatched", True, "000002")],
                "s-twice": [(3, "decided", False, "000003"), (4, "decided", False, "000003")],
                "s-failed-pass": [(5, "decided", True, "000005")],
            },
            decisions={1: ["pass"], 3: ["continue"], 4: ["continue", "pass"], 5: ["pass"]},
            reviews={1: ["ok"], 5: ["failed"]},
            audit_dupes=0,
        )

    def test_each_defect_is_counted(self) -> None:
        accepted = {"s-ok": 1, "s-dispatched": 2, "s-twice": 3, "s-failed-pass": 5, "s-gone": 9}
        judge = [Call("000001", "review", False, 0.0, 0.0, "ok", "PASS")]
        figures = store_figures(self.state(), accepted, judge)
        assert 5 == figures["submitted"]
        assert 2 == figures["decided_exactly_once"]  # s-ok and s-failed-pass
        assert (2, 1, 1) == (
            figures["lost"], figures["lost_no_round"], figures["lost_no_decision"]
        )  # fmt: skip
        assert (1, 1) == (figures["duplicated_rounds"], figures["duplicated_decisions"])
        assert {"dispatched": 1} == figures["stuck_by_status"]
        assert ["000005"] == figures["judge_failures_passed_rounds"]
        assert 2 == undecided(self.state(), accepted)  # s-dispatched and s-gone

    def test_a_pass_the_judge_never_answered_well_is_a_failure_passed(self) -> None:
        state = StoreState({"s": [(1, "decided", True, "000001")]}, {1: ["pass"]}, {1: ["ok"]}, 0)
        judge = [Call("000001", "review", False, 0.0, 2.0, "hang")]
        assert 1 == store_figures(state, {"s": 1}, judge)["judge_failures_passed"]


class TestJudgeFigures:
    """A round's call after a good answer, or while one is in flight, is a duplicate."""

    def test_repairs_belong_to_their_attempt(self) -> None:
        calls = [
            Call("1", "review", False, 0.0, 0.1, "non_json_content"),
            Call("1", "review", True, 0.2, 0.3, "ok", "PASS"),
        ]
        figures = judge_figures(calls, [], timeout_s=2.0)
        assert (1, 2, 0) == (
            figures["review_attempts"], figures["calls_per_attempt_max"],
            figures["duplicate_judge_calls"],
        )  # fmt: skip

    def test_a_call_after_a_good_answer_is_a_duplicate_unless_a_fault_fell_between(self) -> None:
        calls = [
            Call("1", "review", False, 0.0, 0.1, "ok", "PASS"),
            Call("1", "review", False, 5.0, 5.1, "ok", "PASS"),
        ]
        assert 1 == judge_figures(calls, [], timeout_s=2.0)["duplicate_judge_calls"]
        after_kill = judge_figures(calls, [(1.0, 3.0, "kill critic")], timeout_s=2.0)
        assert (0, 1) == (
            after_kill["duplicate_judge_calls"], after_kill["duplicate_judge_calls_after_fault"]
        )  # fmt: skip

    def test_a_retry_after_a_failure_is_no_duplicate_but_an_overlap_is(self) -> None:
        retry = [
            Call("1", "review", False, 0.0, 4.0, "hang"),
            Call("1", "review", False, 3.0, 3.1, "ok", "PASS"),  # after the 2 s timeout
        ]
        assert 0 == judge_figures(retry, [], timeout_s=2.0)["duplicate_judge_calls"]
        overlap = [retry[0], Call("1", "review", False, 1.0, 1.1, "ok", "PASS")]
        assert 1 == judge_figures(overlap, [], timeout_s=2.0)["duplicate_judge_calls"]


class TestScenario:
    """The workload and the faults come from the seed alone."""

    def test_same_seed_same_plan(self) -> None:
        assert plan_rounds(300, 7) == plan_rounds(300, 7)
        assert plan_rounds(300, 7) != plan_rounds(300, 8)
        assert plan_faults(100.0, 7) == plan_faults(100.0, 7)

    def test_rounds_of_a_task_come_in_order_and_the_last_is_final(self) -> None:
        plan = plan_rounds(500, 11)
        assert 500 == len(plan)
        by_task: dict[int, list[int]] = {}
        for r in plan:
            by_task.setdefault(r.task, []).append(r.number)
        assert all(numbers == list(range(1, len(numbers) + 1)) for numbers in by_task.values())
        assert {"QUERY", "GENERATE", "ACTION", "CRITICAL"} == {r.task_type for r in plan}
        assert plan[-1].final

    def test_five_kills_one_after_a_hand_off_and_one_redis_restart(self) -> None:
        faults = plan_faults(100.0, 11)
        kinds = sorted(f.kind for f in faults)
        assert ["handoff", "kill", "kill", "kill", "kill", "redis"] == kinds
        assert all(10.0 <= f.at_s <= 80.0 for f in faults)


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server on PATH")
def test_tiny_chaos_run_loses_nothing(tmp_path: Path) -> None:
    """20 rounds through three real workers, a flaky judge and one critic kill, on SQLite."""
    cfg = RunConfig(
        backend="sqlite",
        rounds=20,
        seed=3,
        rate=6.0,
        visibility_timeout_s=20.0,  # three audit roles' budgets and grace must fit in it
        sweep_interval_s=2.0,
        judge_timeout_s=1.0,
        failure_rate=0.3,
        kills=1,
        redis_signal=signal.SIGKILL,
        folder=tmp_path / "sqlite",
        handoff=False,
        redis_restart=False,
        grace_s=60.0,  # wait on observable state, not on a clock: settle late rather than fail
    )
    figures = run_backend(cfg, Console(stderr=True, quiet=True))
    assert 21 >= figures["submitted"] >= 20
    assert ["kill critic"] == [f["what"] for f in figures["faults"]]
    assert figures["judge_calls"] > 0
    # The bound is a timing figure: shown, not asserted (the run's own exit code checks it).
    assert [] == [m for m in misses(figures) if not m.startswith("settled_within_bound")]
