"""``qgs serve`` and ``qgs mcp`` refuse a port out of range before they start anything."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner


@pytest.mark.parametrize(
    "args", [["serve", "--port", "99999"], ["serve", "--port", "0"], ["mcp", "--port", "70000"]]
)
def test_a_port_out_of_range_is_a_usage_error(args: list[str]) -> None:
    # Break test 17: `qgs serve --port 99999` printed uvicorn's OverflowError traceback.
    from qgs_worker.cli import app

    done = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert 2 == done.exit_code, done.output
    assert "Invalid value for '--port'" in done.output
    assert ("65535" if int(args[-1]) > 1 else "greater than or equal to 1") in done.output
    assert isinstance(done.exception, SystemExit) and "Traceback" not in done.output
