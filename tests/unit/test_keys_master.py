"""``qgs keys create`` never makes keys under a master the existing keys were not made under.

A new master made afresh (the data folder's ``webhook-master.key`` deleted, another data
folder) would derive webhook secrets the workers signing the existing keys do not have; a
master that cannot be read is a clear error, not a traceback (break test bt14, E and G).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.webhooks import key_secrets
from qgs_worker.webhooks.key_secrets import MASTER_FILE


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("QGS_DATABASE_URL", f"sqlite:///{tmp_path / 'qgs.db'}")
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("QGS_WEBHOOKS__MASTER_SECRET", raising=False)
    monkeypatch.setenv("COLUMNS", "250")
    key_secrets._cache.clear()
    yield tmp_path / "data"
    key_secrets._cache.clear()


def create(*extra: str) -> object:
    return CliRunner().invoke(app, ["keys", "create", "--principal", "carol", *extra])


def test_a_deleted_master_is_not_made_again_silently(env: Path) -> None:
    assert 0 == create().exit_code
    (env / MASTER_FILE).unlink()
    key_secrets._cache.clear()
    refused = create()
    assert 2 == refused.exit_code
    assert "--new-master" in refused.output and "1 API key(s)" in refused.output
    assert not (env / MASTER_FILE).exists(), "nothing made"
    assert 0 == create("--new-master").exit_code
    assert (env / MASTER_FILE).exists()


def test_another_master_than_the_keys_is_refused(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert 0 == create().exit_code
    monkeypatch.setenv("QGS_WEBHOOKS__MASTER_SECRET", "another machine's master")
    refused = create()
    assert 2 == refused.exit_code and "is not the one" in refused.output
    assert 0 == create("--new-master").exit_code


def test_an_empty_master_file_is_an_error_not_a_traceback(env: Path) -> None:
    env.mkdir(parents=True)
    (env / MASTER_FILE).write_text("\n", encoding="utf-8")
    refused = create()
    assert 2 == refused.exit_code
    assert "is empty" in refused.output and "Traceback" not in refused.output
