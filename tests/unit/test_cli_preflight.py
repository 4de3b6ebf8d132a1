"""Commands that refuse bad input up front: exit 2 with one line naming the setting or path.

Each command runs in a subprocess (``python -m qgs_worker.cli``), on a store of its own in
``tmp_path`` and the embedded default (no broker to reach): what a user at a shell gets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tasks"


def qgs(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    clean.update(QGS_DATA_DIR=str(tmp_path / ".qgs"), COLUMNS="200", **env)
    return subprocess.run(
        [sys.executable, "-m", "qgs_worker.cli", *args],
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


class TestPolicyFiles:
    @pytest.mark.parametrize(
        ("setting", "content", "said"),
        [
            ("QGS_POLICY_FILE", None, "QGS_POLICY_FILE"),
            ("QGS_POLICY_FILE", "not toml [", "not valid TOML"),
            ("QGS_TOOLS_FILE", None, "QGS_TOOLS_FILE"),
        ],
    )
    def test_audit_refuses_a_file_that_cannot_be_read_before_its_run_starts(
        self, tmp_path: Path, setting: str, content: str | None, said: str
    ) -> None:
        path = tmp_path / "settings-file.toml"
        if content is not None:
            path.write_text(content)
        done = qgs(tmp_path, "audit", str(TASKS / "01_queries.jsonl"), **{setting: str(path)})
        assert 2 == done.returncode, done.stderr
        assert said in done.stderr and str(path) in done.stderr
        assert "Traceback" not in done.stderr
        # nothing was started: no run, no store written
        listed = qgs(tmp_path, "runs", "--format", "json")
        assert 0 == listed.returncode, listed.stderr
        assert "[]" == listed.stdout.strip()

    def test_audit_refuses_a_tools_file_with_no_tool(self, tmp_path: Path) -> None:
        empty = tmp_path / "tools.json"
        empty.write_text("[]")
        done = qgs(tmp_path, "audit", str(TASKS / "01_queries.jsonl"), QGS_TOOLS_FILE=str(empty))
        assert 2 == done.returncode, done.stderr
        assert "holds no tool definitions" in done.stderr

    def test_worker_refuses_a_tools_file_that_cannot_be_read(self, tmp_path: Path) -> None:
        done = qgs(tmp_path, "worker", QGS_TOOLS_FILE=str(tmp_path / "nope.json"))
        assert 2 == done.returncode, done.stderr
        assert "QGS_TOOLS_FILE" in done.stderr and "nope.json" in done.stderr


class TestUnusableInput:
    def test_audit_exits_2_when_nothing_could_be_read(self, tmp_path: Path) -> None:
        broken = tmp_path / "broken.jsonl"
        broken.write_text('{"id": "broken", "messages": [\n')
        done = qgs(tmp_path, "audit", str(broken), "--format", "json")
        assert 2 == done.returncode, done.stderr
        assert f"{broken}:1" in done.stderr and "nothing was audited" in done.stderr

    def test_audit_exits_2_when_the_files_hold_no_transcript(self, tmp_path: Path) -> None:
        empty = tmp_path / "empty.jsonl"
        empty.write_text("")
        done = qgs(tmp_path, "audit", str(empty))
        assert 2 == done.returncode, done.stderr
        assert "no transcript was found" in done.stderr
        # Break test: the empty file left a run of 0 tasks in `qgs runs`, and an empty report.
        assert "run 1 is not kept" in " ".join(done.stderr.split())
        assert "" == done.stdout.strip()
        listed = qgs(tmp_path, "runs", "--format", "json")
        assert "[]" == listed.stdout.strip(), listed.stderr


class TestOutputPaths:
    @pytest.mark.parametrize(
        "command", [["report"], ["report", "--format", "html"], ["diff", "1", "2"]]
    )
    def test_an_output_that_cannot_be_written_is_refused_before_any_work(
        self, tmp_path: Path, command: list[str]
    ) -> None:
        missing = tmp_path / "no-such-folder" / "audit.out"
        done = qgs(tmp_path, *command, "-o", str(missing))
        assert 2 == done.returncode, done.stderr
        assert "does not exist" in done.stderr and "Traceback" not in done.stderr
        done = qgs(tmp_path, *command, "-o", str(tmp_path))
        assert 2 == done.returncode, done.stderr
        assert "is a folder" in done.stderr and "Traceback" not in done.stderr

    @pytest.mark.skipif(not Path("/dev/full").exists(), reason="Linux's full device")
    @pytest.mark.parametrize("fmt", ["json", "table"])
    def test_standard_output_that_cannot_be_written_is_one_line(
        self, tmp_path: Path, fmt: str
    ) -> None:
        # Break test: `qgs report --format json > /dev/full` printed a traceback (exit 1).
        clean = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
        clean.update(QGS_DATA_DIR=str(tmp_path / ".qgs"), COLUMNS="200")
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "qgs_worker.cli", "report", "--format", fmt],
                cwd=tmp_path, env=clean, stdout=full, stderr=subprocess.PIPE, text=True,
                timeout=120,
            )  # fmt: skip
        assert 2 == done.returncode, done.stderr
        assert "cannot write the report to standard output" in done.stderr
        assert "Traceback" not in done.stderr
