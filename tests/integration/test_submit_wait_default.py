"""`qgs submit --wait` on the default setup (embedded broker, local workers, rules judge).

Issue 31, item 6: it printed "no worker took it yet: is a worker consuming qgs.critic …?" while
its own workers started, and the line stayed on the terminal above the decision.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def test_a_successful_wait_leaves_no_worker_question(tmp_path: Path) -> None:
    article = tmp_path / "article.md"
    article.write_text("# AI\n\nArtificial intelligence, in short: a plain article.\n")
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("QGS_")}
    env |= {"QGS_DATA_DIR": str(tmp_path / ".qgs"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "qgs_worker.cli", "submit", str(article), "--request",
         "write an article about AI", "--final", "--wait", "--timeout-s", "120"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert 0 == done.returncode, done.stdout + done.stderr
    assert "round 1: " in done.stdout
    assert "no worker took it yet" not in done.stdout + done.stderr
    assert "is a worker consuming" not in done.stdout + done.stderr
