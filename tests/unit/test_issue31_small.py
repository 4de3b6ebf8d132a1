"""The small ones of issue 31: a wait's first line, a first run's mode, the risk chart's colours."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.queue.progress import TAKE_PATIENCE_S, progress_of
from qgs_worker.reports.report_plots import RISK_BANDS, plots, risk_band
from qgs_worker.store import Repository, utcnow


class Sent:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send_task(self, name: str, args: Any = (), **kwargs: Any) -> None:
        self.sent.append((name, args))


class TestWaitingForAWorker:
    """A submission just sent is "waiting for a worker", not a question whether one runs.

    ``qgs submit --wait`` on the default setup starts its workers itself; the first progress
    line said "no worker took it yet: is a worker consuming qgs.critic …?" and stayed on the
    terminal above the decision.
    """

    def test_just_sent_is_waiting_then_asked_after_the_patience(self, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path), app=Sent())
        task = client.start_task("write an article about AI")
        sent = client.submit(task.id, "an article")
        fresh = progress_of(client.repo, sent.id)
        assert "sent" == fresh.state
        assert "waiting for a worker to take it" in fresh.detail
        assert "no worker took it yet" not in fresh.detail
        later = utcnow() + timedelta(seconds=TAKE_PATIENCE_S + 1)
        stalled = progress_of(client.repo, sent.id, now=later)
        assert "no worker took it yet" in stalled.detail and "qgs.critic" in stalled.detail


class TestFirstRunMode:
    """A run that took nothing from an earlier run is "new"; "resume" says how many it linked."""

    def test_modes(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        first = repo.start_run(["a.jsonl"], "f" * 12, {})
        repo.add_run_tasks(first, [("t-1", "k1"), ("t-2", "k2")])
        again = repo.start_run(["a.jsonl", "b.jsonl"], "f" * 12, {})
        repo.add_run_tasks(again, [("t-1", "k1"), ("t-2", "k2"), ("t-3", "k3")])
        other = repo.start_run(["c.jsonl"], "f" * 12, {})
        repo.add_run_tasks(other, [("t-4", "k4")])
        for run in (first, again, other):
            repo.end_run(run)
        listed = repo.list_runs()
        assert ["new", "resume", "new"] == [r.shown_mode for r in listed]
        assert [0, 2, 0] == [r.resumed for r in listed]
        repo.dispose()
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("COLUMNS", "200")
        shown = CliRunner().invoke(app, ["runs", "--format", "json"])
        assert 0 == shown.exit_code, shown.output
        runs = json.loads(shown.stdout)
        listed_runs = runs if isinstance(runs, list) else runs["runs"]
        # the table's width follows the terminal (another test's console may have set it):
        # the modes are read from the JSON the table is drawn from
        assert [0, 2, 0] == [r["resumed"] for r in sorted(listed_runs, key=lambda r: r["id"])]
        table = CliRunner().invoke(app, ["runs"])
        assert 0 == table.exit_code, table.output
        assert "resume" in table.stdout and "new" in table.stdout


def task(risk: int) -> dict[str, Any]:
    return {"id": f"t-{risk}", "scores": [], "findings": [], "risk": risk, "decision": None,
            "task_type": "GENERATE"}  # fmt: skip


class TestRiskChartColours:
    """The risk chart colours each task by its severity band: risk 0 is never red."""

    def test_bands(self) -> None:
        assert ["no findings (0)", "P4 band (5-9)", "P3 band (10-19)", "P2 band (20-49)",
                "P1 band (50-99)", "P0 band (100+)"] == [RISK_BANDS[risk_band(r)][0]
                for r in (0, 5, 10, 25, 50, 250)]  # fmt: skip

    def test_risk_0_is_green_and_red_is_the_p1_band_only(self) -> None:
        risks = [0, 0, 0, 5, 10, 20, 60, 150]
        figure = plots({"tasks": [task(r) for r in risks]})["plot-risk"]
        colour_of: dict[int, set[str]] = {}
        for trace in figure["data"]:
            for risk in trace["x"]:
                colour_of.setdefault(risk, set()).add(trace["marker"]["color"])
        assert {0: {"#2ca02c"}} == {r: c for r, c in colour_of.items() if r == 0}
        red = {r for r, colours in colour_of.items() if "#d62728" in colours}
        assert {60} == red
        assert len({trace["marker"]["color"] for trace in figure["data"]}) == 6
        assert sorted(risks) == sorted(r for t in figure["data"] for r in t["x"])
