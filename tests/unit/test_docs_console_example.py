"""The console page's first example runs on a fresh install (issue 33, second pass, item 5).

``qgs keys create --operator olivia ... --sees deploy-bot --sees billing-bot`` exited 2 on a
fresh store (no such agent keys): the page now makes the agents' keys first; each command of
its first ``bash`` block is run, in order, on an empty data folder.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_example_of_the_console_page_runs_on_a_fresh_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [k for k in os.environ if k.upper().startswith("QGS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "console.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block is not None
    lines = [line for line in block[1].splitlines() if line.startswith("qgs ")]
    assert any("--sees deploy-bot" in line for line in lines), lines
    for line in lines:
        result = CliRunner().invoke(app, shlex.split(line)[1:])
        assert 0 == result.exit_code, (line, result.output, result.exception)
