"""Audit runs through a real worker: `qgs runs`, `qgs audit --new-run/--rerun`, `qgs diff`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.store import Repository
from qgs_worker.store.tables import ReviewRow
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration

POLICY = """
default_roles = ["ops"]

[roles.ops]
tools = ["*"]
permissions = ["read", "write", "delete", "execute"]
deny_tools = ["restart_service"]
"""
"""A policy that denies one tool (restart_service) to every principal."""


def _call(name: str, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }


def _action(tid: str, request: str, tool: str, args: dict[str, Any], done: str) -> dict[str, Any]:
    return {
        "id": tid,
        "messages": [
            {"role": "user", "content": request},
            {"role": "assistant", "content": None, "tool_calls": [_call(tool, args, "c1")]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            {"role": "assistant", "content": done},
        ],
    }


TRANSCRIPTS = [
    _action("restart-billing", "Restart the billing service on web-01.", "restart_service",
            {"service": "billing", "host": "web-01"}, "The billing service was restarted."),
    _action("restart-search", "Restart the search service on web-02.", "restart_service",
            {"service": "search", "host": "web-02"}, "The search service was restarted."),
    _action("deploy-billing", "Deploy the billing service to staging.", "deploy_service",
            {"service": "billing", "env": "staging"}, "Billing is deployed to staging."),
    {"id": "article", "messages": [
        {"role": "user", "content": "write an article about AI"},
        {"role": "assistant", "content": "# AI\n\nArtificial intelligence is the study of ..."}]},
    {"id": "time", "messages": [
        {"role": "user", "content": "what time is it"},
        {"role": "assistant", "content": "It is 10:42."}]},
]  # fmt: skip
DENIED = {"restart-billing", "restart-search"}
"""The transcripts whose tool call the policy denies."""


@pytest.fixture
def store(redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'qgs.db'}"
    monkeypatch.setenv("QGS_BROKER_URL", redis_url)
    monkeypatch.setenv("QGS_DATABASE_URL", url)
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
    monkeypatch.delenv("QGS_POLICY_FILE", raising=False)
    return url


@pytest.fixture
def transcripts(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TRANSCRIPTS), encoding="utf-8")
    return path


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def as_json(result: Any) -> Any:
    assert 0 == result.exit_code, result.output
    out = result.stdout
    start = min(i for i in (out.find("{"), out.find("[")) if i >= 0)
    return json.loads(out[start:])


def audit(
    redis_url: str,
    store: str,
    tmp_path: Path,
    *args: str,
    policy: Path | None = None,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[dict[str, Any], str]:
    """One `qgs audit` with a real worker started under the same settings (policy or none)."""
    if policy is None:
        monkeypatch.delenv("QGS_POLICY_FILE", raising=False)
    else:
        monkeypatch.setenv("QGS_POLICY_FILE", str(policy))
    settings = make_settings(redis_url, store, None, tmp_path).model_copy(
        update={"policy_file": policy}
    )
    with running_worker(settings):
        result = run("audit", *args, "--no-worker", "--format", "json", "--timeout-s", "120")
    return as_json(result), result.stderr


class TestRunsAndDiff:
    """Two runs of the same files under different policies: the diff names exactly the changes."""

    def test_policy_change_diff(
        self,
        redis_url: str,
        store: str,
        transcripts: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        monkeypatch.chdir(transcripts.parent)  # the file named relative to the folder it is in
        first, _ = audit(redis_url, store, tmp_path, transcripts.name, monkeypatch=monkeypatch)
        assert 1 == first["run"]["id"]
        assert len(TRANSCRIPTS) == len(first["tasks"])
        assert all(t["decision"] for t in first["tasks"])
        reviews_before = Repository(store).count_rows(ReviewRow)

        policy = tmp_path / "policy.toml"
        policy.write_text(POLICY, encoding="utf-8")
        # A plain second audit keeps what is done, and says the settings changed.
        again, err2 = audit(
            redis_url, store, tmp_path, str(transcripts), policy=policy, monkeypatch=monkeypatch
        )
        assert f"{len(TRANSCRIPTS)} already done" in err2
        assert "policy_file.sha256 changed since run 1" in " ".join(err2.split())
        assert [t["id"] for t in first["tasks"]] == [t["id"] for t in again["tasks"]]
        resumed = as_json(run("diff", "1", "2", "--format", "json"))
        assert 0 == resumed["counts"]["changed"]
        assert len(TRANSCRIPTS) == resumed["counts"]["same_tasks"]
        assert "cannot differ" in resumed["note"] and "--rerun 1" in resumed["note"]

        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        monkeypatch.chdir(elsewhere)  # a run keeps its files by absolute path
        rerun, _ = audit(
            redis_url, store, tmp_path, "--rerun", "1", policy=policy, monkeypatch=monkeypatch
        )
        assert 3 == rerun["run"]["id"] and 1 == rerun["run"]["rerun_of"]
        assert all(t["decision"] for t in rerun["tasks"])
        # Tasks of their own: nothing of run 1's tasks was touched.
        assert not {t["id"] for t in first["tasks"]} & {t["id"] for t in rerun["tasks"]}
        assert all(t["id"].endswith("-r3") for t in rerun["tasks"])

        before = {t["transcript_id"]: t["decision"]["kind"] for t in first["tasks"]}
        after = {t["transcript_id"]: t["decision"]["kind"] for t in rerun["tasks"]}
        differs = {tid for tid in before if before[tid] != after[tid]}
        assert DENIED == differs, (before, after)
        denied = [
            f for t in rerun["tasks"] if t["transcript_id"] in DENIED for f in t["findings"]
            if f["category"] == "permission_denied"
        ]  # fmt: skip
        assert len(DENIED) == len(denied)
        # Rounds identical in content and judge reused run 1's reviews (no second judge call).
        reused = sum(1 for t in rerun["tasks"] for r in t["rounds"] if r["reused_from"])
        assert reused > 0
        assert Repository(store).count_rows(ReviewRow) > reviews_before

        result = run("diff", "1", "3", "--format", "json")
        diff = as_json(result)
        assert DENIED == {c["transcript_id"] for c in diff["changed"] if "decision" in c["changes"]}
        assert len(DENIED) == diff["counts"]["decision"]
        assert len(TRANSCRIPTS) == diff["counts"]["matched"]
        assert 0 == diff["counts"]["only_in_a"] == diff["counts"]["only_in_b"]
        assert ["policy_file.sha256"] == diff["settings_changed"]
        assert 0 == diff["counts"]["same_tasks"] and "" == diff["note"]
        for c in diff["changed"]:
            assert before[c["transcript_id"]] == c["decision_a"]
            assert after[c["transcript_id"]] == c["decision_b"]

        table = run("diff", "1", "last")
        assert 0 == table.exit_code, table.output
        for tid in DENIED:
            assert tid in table.stdout
        assert f"{len(DENIED)} changed" in table.stdout or "decision 2" in table.stdout

        html_file = tmp_path / "diff.html"
        assert 0 == run("diff", "1", "3", "--format", "html", "-o", str(html_file)).exit_code
        html = html_file.read_text(encoding="utf-8")
        assert all(tid in html for tid in DENIED) and '<table id="changed">' in html

        listed = as_json(run("runs", "--format", "json"))
        assert [1, 2, 3] == [r["id"] for r in listed]
        assert [[str(transcripts.resolve())]] * 3 == [r["files"] for r in listed]
        # Run 1 resumed nothing (a first run): "new", not "resume" (issue 31).
        assert ["new", "resume", "new"] == [r["mode"] for r in listed]
        assert [0, len(TRANSCRIPTS), 0] == [r["resumed"] for r in listed]
        assert listed[0]["fingerprint"] != listed[2]["fingerprint"]
        assert listed[1]["fingerprint"] == listed[2]["fingerprint"]
        assert all(r["ended_at"] for r in listed)
        assert [len(TRANSCRIPTS)] * 3 == [r["tasks"] for r in listed]

        # The page of run 1 shows run 1's settings (no policy), not this shell's (a policy).
        page = tmp_path / "run1.html"
        assert 0 == run("report", "--run", "1", "--format", "html", "-o", str(page)).exit_code
        shown = page.read_text(encoding="utf-8")
        assert "no policy file" in shown and "as run 1 was audited" in shown

        only_run = as_json(run("report", "--run", "3", "--format", "json"))
        assert sorted(t["id"] for t in rerun["tasks"]) == sorted(t["id"] for t in only_run["tasks"])

    def test_a_subset_of_an_earlier_runs_files_is_told_what_changed(
        self, redis_url: str, store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
        one.write_text(json.dumps(TRANSCRIPTS[0]) + "\n", encoding="utf-8")
        two.write_text(json.dumps(TRANSCRIPTS[3]) + "\n", encoding="utf-8")
        audit(redis_url, store, tmp_path, str(one), str(two), monkeypatch=monkeypatch)
        policy = tmp_path / "policy.toml"
        policy.write_text(POLICY, encoding="utf-8")
        _, err = audit(redis_url, store, tmp_path, str(one), policy=policy, monkeypatch=monkeypatch)
        assert "policy_file.sha256 changed since run 1" in " ".join(err.split())

    def test_a_rerun_that_did_not_end_is_resumed_not_started_again(
        self,
        redis_url: str,
        store: str,
        transcripts: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        audit(redis_url, store, tmp_path, str(transcripts), monkeypatch=monkeypatch)
        # No worker: the rerun's jobs wait on the broker, and it gives up waiting.
        cut = run("audit", "--rerun", "1", "--no-worker", "--format", "json", "--timeout-s", "1")
        assert 1 == cut.exit_code, cut.output
        listed = as_json(run("runs", "--format", "json"))
        assert [(2, "new", 1, None)] == [
            (r["id"], r["mode"], r["rerun_of"], r["ended_at"]) for r in listed[1:]
        ]
        resumed, err = audit(redis_url, store, tmp_path, "--rerun", "1", monkeypatch=monkeypatch)
        assert "run 2 resumed" in err
        assert 2 == resumed["run"]["id"]
        assert all(t["id"].endswith("-r2") and t["decision"] for t in resumed["tasks"])
        listed = as_json(run("runs", "--format", "json"))
        assert [1, 2] == [r["id"] for r in listed] and all(r["ended_at"] for r in listed)
        assert len(TRANSCRIPTS) == listed[1]["tasks"]

    def test_a_runs_report_counts_its_own_input_errors(
        self, redis_url: str, store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        broken, clean = tmp_path / "broken.jsonl", tmp_path / "clean.jsonl"
        broken.write_text(json.dumps(TRANSCRIPTS[3]) + "\n{not json\n", encoding="utf-8")
        clean.write_text(json.dumps(TRANSCRIPTS[4]) + "\n", encoding="utf-8")
        monkeypatch.chdir(tmp_path)  # named relative: the runs and errors keep absolute paths
        settings = make_settings(redis_url, store, None, tmp_path)
        with running_worker(settings):
            assert 1 == run("audit", "broken.jsonl", "--no-worker", "--timeout-s", "120").exit_code
            assert 0 == run("audit", "clean.jsonl", "--no-worker", "--timeout-s", "120").exit_code
        first = as_json(run("report", "--run", "1", "--format", "json"))
        second = as_json(run("report", "--run", "2", "--format", "json"))
        assert [(str(broken), 2)] == [(e["source_file"], e["line"]) for e in first["errors"]]
        assert [] == second["errors"] and 0 == second["summary"]["errors"]

    def test_unknown_run_is_a_clear_error(self, store: str) -> None:
        import sys

        from qgs_worker.cli import main

        argv = sys.argv
        sys.argv = ["qgs", "diff", "1", "7"]
        try:
            with pytest.raises(SystemExit) as exit_info:
                main()
        finally:
            sys.argv = argv
        assert 2 == exit_info.value.code
