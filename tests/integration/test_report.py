"""Reports show each finding's severity and role, each round's risk and audit roles plainly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from qgs_worker.core.detectors import scan_text
from qgs_worker.core.models import Complexity, Finding, Severity, Verdict
from qgs_worker.reports.report import build_report, render_markdown, render_table
from qgs_worker.store import Repository
from tests.integration.test_approval import TASK, add_round, gate, run_main, seed_task

pytestmark = pytest.mark.integration

ROLE_FAILURE = Finding(
    role="reality_checker",
    category="role_failed",
    severity=Severity.P1,
    title="role failed: reality_checker: the judge timed out after 30 s",
    location="audit",
)
HALLUCINATED = Finding(
    role="reality_checker",
    category="hallucinated_api",
    severity=Severity.P1,
    title="calls requests.fetch, which the environment does not have",
    location="code block 1",
)


@pytest.fixture
def repo(store_url: str) -> Iterator[Repository]:
    """A REFLECT task whose round 1 has detector findings on a real text and a failed role."""
    repository = Repository(store_url)
    seed_task(repository)
    row = add_round(repository, 1, gate(Verdict.PASS, 90, Complexity.REFLECT))
    assert row.id is not None
    text = (
        "Cleaned up: ran `rm -rf /var/lib/app/*` as documented.\n"
        "AWS key used: AKIAIOSFODNN7EXAMPLE1\n"
    )
    repository.save_findings(row.id, [*scan_text(text), HALLUCINATED, ROLE_FAILURE])
    repository.save_audit_run(row.id, "security_auditor", error=None, findings=2, duration_ms=12.4)
    repository.save_audit_run(
        row.id, "reality_checker", error="the judge timed out after 30 s", findings=1,
        duration_ms=30_001.26,
    )  # fmt: skip
    unaudited = add_round(repository, 2, gate(Verdict.PASS, 92, Complexity.REFLECT, number=2))
    assert unaudited.id is not None
    yield repository
    repository.dispose()


class TestRiskAndSeverity:
    """Every finding keeps its severity; a round's risk is the weighted sum of its findings."""

    def test_json(self, repo: Repository) -> None:
        task = build_report(repo)["tasks"][0]
        weights = {"P0": 100, "P1": 50, "P2": 20, "P3": 10, "P4": 5}
        severities = [f["severity"] for f in task["findings"]]
        assert len(severities) >= 2 and all(s in weights for s in severities)
        assert sum(weights[s] for s in severities) == task["rounds"][0]["risk"] == task["risk"]
        assert 1 == build_report(repo)["summary"]["role_failures"]

    def test_markdown_and_table(self, repo: Repository) -> None:
        report = build_report(repo)
        risk = report["tasks"][0]["rounds"][0]["risk"]
        markdown = render_markdown(report)
        assert f"`{TASK}` round 1 (risk {risk}):" in markdown
        assert (
            "- **P1** audit role reality_checker failed (the judge timed out after 30 s): "
            "the round was not fully audited"
        ) in markdown
        assert all(
            f"**{f['severity']}** {f['category']}" in markdown
            for f in report["tasks"][0]["findings"]
            if f["category"] != "role_failed"
        )
        assert "| risk |" in markdown
        console = Console(width=160, record=True)
        render_table(report, console)
        assert "risk" in console.export_text()

    def test_table_shows_transcript_text_as_text(self, repo: Repository) -> None:
        """A task id, agent or reason with rich markup in it is printed, not interpreted."""
        report = build_report(repo)
        task = report["tasks"][0]
        task["id"], task["source_file"], task["agent"] = "t-[bold]x[/]", None, "[red]bot"
        task["decision"] = {**(task["decision"] or {}), "reason": "see [link=x]here[/link]"}
        report["errors"] = [{"source_file": "[i]f.jsonl", "line": 3, "message": "bad [b]"}]
        console = Console(width=200, record=True)
        render_table(report, console)
        text = console.export_text()
        for shown in (
            "t-[bold]x[/]",
            "[red]bot",
            "see [link=x]here[/link]",
            "[i]f.jsonl:3: bad [b]",
        ):
            assert shown in text, shown

    def test_status(
        self,
        repo: Repository,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        monkeypatch.setenv("QGS_DATABASE_URL", repo.url)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        risk = build_report(repo)["tasks"][0]["rounds"][0]["risk"]
        code, out, _ = run_main(capsys, "status", TASK)
        assert 0 == code
        assert f"(risk {risk})" in out and "P1 ×" in out
        assert "P1 audit role reality_checker failed (the judge timed out after 30 s)" in out


class TestAuditRuns:
    """Which audit roles ran on each round, ok or failed, and which role found what."""

    def test_json(self, repo: Repository) -> None:
        task = build_report(repo)["tasks"][0]
        audited, unaudited = task["rounds"]
        assert [
            {
                "role": "security_auditor",
                "status": "ok",
                "findings": 2,
                "duration_ms": 12.4,
                "error": None,
            },
            {
                "role": "reality_checker",
                "status": "failed",
                "findings": 1,
                "duration_ms": 30001.3,
                "error": "the judge timed out after 30 s",
            },
        ] == audited["audit_runs"]
        assert [] == unaudited["audit_runs"]
        assert {"number", "final", "status", "score", "decision", "risk", "audit_runs"} <= set(
            audited
        )
        assert {"round", "severity", "category", "rule", "role", "title", "location", "evidence"} == set(
            task["findings"][0]
        )

    def test_markdown(self, repo: Repository) -> None:
        markdown = render_markdown(build_report(repo))
        assert "## Audit roles" in markdown
        assert (
            f"- `{TASK}` round 1: security_auditor ok (2 findings, 12 ms), reality_checker "
            "failed: the judge timed out after 30 s\n"
        ) in markdown
        assert f"- `{TASK}` round 2:" not in markdown
        assert (
            "- **P1** hallucinated_api (reality_checker) at code block 1: calls requests.fetch"
        ) in markdown

    def test_status(
        self,
        repo: Repository,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        monkeypatch.setenv("QGS_DATABASE_URL", repo.url)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        code, out, _ = run_main(capsys, "status", TASK)
        assert 0 == code
        assert (
            "audit: security_auditor ok (2 findings, 12 ms), reality_checker failed: the judge "
            "timed out after 30 s"
        ) in out
        assert 1 == out.count("audit: ")  # round 2 was not audited
        assert "P1 hallucinated_api (reality_checker) at code block 1: calls requests.fetch" in out
        assert "P2 destructive_command (detectors) at text:" in out
