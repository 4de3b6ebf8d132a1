"""The HTML report as text: self-contained, data never markup, details in the JSON report.

The browser's view of the page is tested in ``tests/integration/test_report_html.py``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.config.settings import Settings
from qgs_worker.reports.report import DELIVERABLE_CHARS, build_report
from qgs_worker.reports.report_html import html_context, render_html, table_row
from qgs_worker.store import Repository
from tests.report_pages import HOSTILE, HOSTILE_REQUEST, add_task, seed_store
from tests.unit.test_report_views import counting

SCRIPTS = re.compile(r"<script([^>]*)>(.*?)</script>", re.DOTALL)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A SQLite store of four ordinary tasks and the hostile one, plus a hostile input error."""
    url = f"sqlite:///{tmp_path_factory.mktemp('html') / 'qgs.db'}"
    repo = Repository(url)
    seed_store(repo, 4)
    add_task(repo, "long", "write an article about AI", ["x" * (DELIVERABLE_CHARS + 7)],
             source=("long.jsonl", 1))  # fmt: skip
    repo.save_audit_error("<b>bad</b>.jsonl", 3, "not JSON: </script><script>alert(1)</script>")
    repo.dispose()
    yield url


@pytest.fixture(scope="module")
def report(store: str) -> dict[str, Any]:
    repo = Repository(store)
    try:
        return build_report(repo, details=True)
    finally:
        repo.dispose()


@pytest.fixture(scope="module")
def page(report: dict[str, Any]) -> str:
    return render_html(report, {"judge": "<i>judge</i>", "policy": "policy.toml (sha256 abc)"})


def task(report: dict[str, Any], task_id: str) -> dict[str, Any]:
    return next(t for t in report["tasks"] if t["id"] == task_id)


class TestDetails:
    """``details=True`` adds deliverables and review words; the default JSON stays as it was."""

    def test_rounds_carry_deliverable_review_and_reason(self, report: dict[str, Any]) -> None:
        hostile = task(report, "hostile")
        assert [HOSTILE, HOSTILE + "\nsecond try"] == [r["deliverable"] for r in hostile["rounds"]]
        reviewed = next(r for t in report["tasks"] for r in t["rounds"] if r["dimensions"])
        assert all(0 <= d["score"] <= 100 and isinstance(d["issues"], list)
                   for d in reviewed["dimensions"])  # fmt: skip
        assert reviewed["summary"]
        assert all(r["decision_reason"] for t in report["tasks"] for r in t["rounds"])

    def test_long_deliverable_is_cut_and_says_so(self, report: dict[str, Any]) -> None:
        (r,) = task(report, "long")["rounds"]
        assert DELIVERABLE_CHARS == len(r["deliverable"])
        assert 7 == r["deliverable_cut"]

    def test_default_report_has_no_details(self, store: str) -> None:
        repo = Repository(store)
        try:
            plain = build_report(repo)
        finally:
            repo.dispose()
        keys = {k for t in plain["tasks"] for r in t["rounds"] for k in r}
        assert set() == keys & {"deliverable", "dimensions", "must_fix", "decision_reason"}

    def test_details_cost_one_statement_a_batch(self, store: str) -> None:
        repo = Repository(store)
        try:
            list(repo.report_tasks())
            with counting() as plain:
                list(repo.report_tasks())
            with counting() as detailed:
                list(repo.report_tasks(details=True))
        finally:
            repo.dispose()
        assert len(plain) + 1 == len(detailed)


class TestSelfContained:
    """One file: every script inline, allowed by its hash, nothing fetched."""

    def test_three_scripts_and_the_csp_hashes_the_two_that_run(self, page: str) -> None:
        scripts = SCRIPTS.findall(page)
        assert 3 == len(scripts)  # the data, Plotly, the page's own
        assert ' id="qgs-data" type="application/json"' == scripts[0][0]
        csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
        assert csp is not None
        policy = html.unescape(csp.group(1))  # the attribute is escaped: &#39; for '
        for _, body in scripts[1:]:
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in policy
        assert "default-src 'none'" in policy
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]

    def test_no_element_loads_anything(self, page: str) -> None:
        markup = SCRIPTS.sub("", page)
        assert [] == re.findall(r"\b(?:src|href)\s*=", markup)
        assert "<link" not in markup


class TestDataIsNeverMarkup:
    """Hostile text cannot end the data element or add an element; the blob reads back exact."""

    def test_data_blob_round_trips_and_cannot_close_its_element(
        self, page: str, report: dict[str, Any]
    ) -> None:
        blob = SCRIPTS.findall(page)[0][1]
        assert "<" not in blob and ">" not in blob  # `</script>` in a deliverable is \u003c/script
        data = json.loads(blob)
        assert (
            task(report, "hostile")["rounds"][0]["deliverable"]
            == next(t for t in data["tasks"] if t["id"] == "hostile")["rounds"][0]["deliverable"]
        )
        assert HOSTILE_REQUEST == next(r for r in data["rows"] if r["id"] == "hostile")["request"]

    def test_template_text_is_escaped(self, page: str) -> None:
        markup = SCRIPTS.sub("", page)
        assert "&lt;i&gt;judge&lt;/i&gt;" in markup
        assert "&lt;b&gt;bad&lt;/b&gt;.jsonl:3: not JSON: &lt;/script&gt;&lt;script&gt;" in markup
        assert "<i>judge" not in markup and "<b>bad" not in markup


class TestTableRow:
    """A table row: the worst severity, the risk the gate weighed, file:line."""

    def test_row_of_a_task_with_a_finding(self, report: dict[str, Any]) -> None:
        hostile = task(report, "hostile")
        row = table_row(hostile)
        assert "P2" == row["severity"]
        assert hostile["decision"]["risk"] == row["risk"]
        assert row["source"].endswith(".jsonl:7")
        assert "tr-hostile" == row["transcript_id"]

    def test_row_without_findings_or_decision(self, report: dict[str, Any]) -> None:
        undecided = {**task(report, "task-000"), "decision": None, "findings": []}
        row = table_row(undecided)
        assert ("", "pending") == (row["severity"], row["decision"])


class TestContext:
    """The summary names the configured judge and the policy file by its hash."""

    def test_policy_file_hash(self, tmp_path: Path) -> None:
        policy = tmp_path / "policy.toml"
        policy.write_text("[tools]\n", encoding="utf-8")
        digest = hashlib.sha256(policy.read_bytes()).hexdigest()[:12]
        context = html_context(Settings(policy_file=policy))
        assert f"{policy} (sha256 {digest})" == context["policy"]
        assert context["judge"].startswith("rules judge")

    def test_no_policy_file(self) -> None:
        assert html_context(Settings(policy_file=None))["policy"].startswith("no policy file")

    def test_a_runs_stored_settings_win_over_the_current_ones(self, tmp_path: Path) -> None:
        from qgs_worker.reports.runs import run_settings

        policy = tmp_path / "policy.toml"
        policy.write_text("[tools]\n", encoding="utf-8")
        digest = hashlib.sha256(policy.read_bytes()).hexdigest()[:12]
        stored = run_settings(Settings(policy_file=policy))
        policy.write_text("[tools]\n# changed since\n", encoding="utf-8")
        now = Settings(policy_file=None, judge={"kind": "openai", "model": "gpt-x", "api_key": "k"})
        context = html_context(now, stored)
        assert f"{policy} (sha256 {digest})" == context["policy"]
        assert context["judge"].startswith("rules judge")
        assert "gpt-x" in html_context(now)["judge"]


class TestCommand:
    """``qgs report --format html -o FILE`` writes the page; ``qgs audit`` points there."""

    def test_report_writes_the_page(
        self, store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("QGS_DATABASE_URL", store)
        out = tmp_path / "audit.html"
        result = CliRunner().invoke(app, ["report", "--format", "html", "-o", str(out)])
        assert 0 == result.exit_code, result.output
        text = out.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>")
        data = json.loads(SCRIPTS.findall(text)[0][1])
        assert 6 == len(data["rows"])  # four tasks, the hostile one and the long one
        assert "rules judge" in text

    def test_audit_refuses_html(self, tmp_path: Path) -> None:
        result = CliRunner().invoke(app, ["audit", str(tmp_path), "--format", "html"])
        assert 2 == result.exit_code
        assert "qgs report --format html" in result.output
