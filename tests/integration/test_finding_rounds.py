"""``finding.round_number`` in a real store, SQLite and PostgreSQL, and in an older one.

An older store has no ``round_number`` column: the round of an earlier round's finding was a
``round N: `` prefix of its location. Opening it adds the column and moves the prefix into it,
in one transaction; the fingerprints stay, so the same finding stored again is not a second row,
and ``qgs report`` / ``qgs status`` show the location as they did.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.core.models import Finding, Severity
from qgs_worker.reports.report import build_report
from qgs_worker.store import Repository
from tests.integration.test_approval import TASK, add_round, run_main, seed_task

pytestmark = pytest.mark.integration

EARLIER = Finding(
    role="reality_checker",
    category="hallucinated_api",
    severity=Severity.P1,
    title="json has no attribute 'loads_fast'",
    evidence="json.loads_fast(raw)",
    location="tool_call:write_file.content, line 2",
    round_number=1,
)
OWN = EARLIER.model_copy(update={"round_number": None, "location": "text:block 1, line 2"})


def finding_columns(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {c["name"] for c in inspect(engine).get_columns("finding")}
    finally:
        engine.dispose()


class TestStored:
    """The field is written and read back; a finding of the stored round has none."""

    def test_round_trip(self, store_url: str) -> None:
        repo = Repository(store_url)
        try:
            seed_task(repo)
            second = add_round(repo, 2, None)
            assert second.id is not None
            repo.save_findings(second.id, [EARLIER, OWN])
            repo.save_findings(second.id, [EARLIER])  # redelivered: no second row
            rows = sorted(repo.list_findings(second.id), key=lambda r: r.location)
            assert [("text:block 1, line 2", None), (EARLIER.location, 1)] == [
                (r.location, r.round_number) for r in rows
            ]
            assert {EARLIER, OWN} == set(repo.findings_model(second.id))
            (entry,) = build_report(repo)["tasks"]
            assert {
                "round 1: tool_call:write_file.content, line 2",
                "text:block 1, line 2",
            } == {f["location"] for f in entry["findings"]}
            assert {2} == {f["round"] for f in entry["findings"]}
        finally:
            repo.dispose()


def older_store(url: str) -> int:
    """A store as QGS wrote it before the column: an earlier round's finding with the prefix.

    Returns the id of the round the finding is stored on.
    """
    repo = Repository(url)
    try:
        seed_task(repo)
        add_round(repo, 1, None)
        second = add_round(repo, 2, None)
        assert second.id is not None
        # What an older QGS stored: the round in the location, the fingerprint over that text.
        legacy = EARLIER.model_copy(update={"round_number": None, "location": EARLIER.where})
        repo.save_findings(second.id, [legacy, OWN])
    finally:
        repo.dispose()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text('ALTER TABLE "finding" DROP COLUMN "round_number"'))
    engine.dispose()
    assert "round_number" not in finding_columns(url)
    return second.id


class TestOlderStore:
    """Opening an older store adds the column and fills it from the location's prefix."""

    def test_migrated_rows_read_dedupe_and_show_as_before(
        self,
        store_url: str,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        round_id = older_store(store_url)
        repo = Repository(store_url)
        try:
            assert "round_number" in finding_columns(store_url)
            rows = sorted(repo.list_findings(round_id), key=lambda r: r.location)
            assert [("text:block 1, line 2", None), (EARLIER.location, 1)] == [
                (r.location, r.round_number) for r in rows
            ]
            assert {EARLIER, OWN} == set(repo.findings_model(round_id))
            # The same finding found again (a redelivered audit) dedupes on the old fingerprint.
            repo.save_findings(round_id, [EARLIER])
            assert 2 == len(repo.list_findings(round_id))
        finally:
            repo.dispose()

        monkeypatch.setenv("QGS_DATABASE_URL", store_url)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        result = CliRunner().invoke(app, ["report", "--format", "json"], catch_exceptions=False)
        (entry,) = json.loads(result.stdout)["tasks"]
        assert "round 1: tool_call:write_file.content, line 2" in {
            f["location"] for f in entry["findings"]
        }
        code, out, _ = run_main(capsys, "status", TASK)
        assert 0 == code
        assert (
            "P1 hallucinated_api (reality_checker) at round 1: tool_call:write_file.content, "
            "line 2: json has no attribute 'loads_fast'"
        ) in out

    def test_opening_it_again_changes_nothing(self, store_url: str) -> None:
        round_id = older_store(store_url)
        Repository(store_url).dispose()
        repo = Repository(store_url)
        try:
            assert {(EARLIER.location, 1), ("text:block 1, line 2", None)} == {
                (r.location, r.round_number) for r in repo.list_findings(round_id)
            }
        finally:
            repo.dispose()
