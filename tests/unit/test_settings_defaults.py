"""``settings_defaults``: the settings of a process that sets none are ``Settings()``'s values."""

from __future__ import annotations

from pathlib import Path

import pytest

from qgs_worker.config.settings import Settings
from qgs_worker.config.settings_defaults import DefaultSettings, unconfigured
from qgs_worker.config.short_settings import full_settings, short_settings


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # no .env here
    return tmp_path


class TestSameAsSettings:
    """What a short command reads is what ``Settings()`` reads."""

    @pytest.mark.parametrize("data_dir", [None, "rel/data", "~/qgs-data", "/abs/data", ""])
    def test_values(
        self, data_dir: str | None, folder: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        if data_dir is not None:
            monkeypatch.setenv("QGS_DATA_DIR", data_dir)
        assert unconfigured()
        quick, full = short_settings(), Settings()
        assert isinstance(quick, DefaultSettings)
        assert full.toolgate == quick.toolgate
        for name in ("data_dir", "broker_url", "database_url", "policy_file", "tools_file"):
            assert getattr(full, name) == getattr(quick, name), name
        assert full.embedded is quick.embedded
        assert full.resolved_database_url == quick.resolved_database_url
        assert full.store_line() == quick.store_line()
        assert full.model_dump() == full_settings(quick).model_dump()

    def test_lower_case_data_dir(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("qgs_data_dir", "lower")
        assert Settings().data_dir == DefaultSettings.read().data_dir == folder / "lower"


class TestConfigured:
    """Anything set besides ``QGS_DATA_DIR`` is read by ``Settings`` (and checked there)."""

    @pytest.mark.parametrize(
        "name", ["QGS_BROKER_URL", "qgs_toolgate__strictness", "QGS_UNKNOWN", "Qgs_Policy_File"]
    )
    def test_a_variable(self, name: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv(name, "strict")
        assert not unconfigured()

    def test_an_env_file(self, folder: Path) -> None:
        (folder / ".env").write_text("QGS_TOOLGATE__STRICTNESS=strict\n")
        assert not unconfigured()
        settings = short_settings()
        assert not isinstance(settings, DefaultSettings)
        assert "strict" == settings.toolgate.strictness.value

    def test_the_data_dir_twice(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("QGS_DATA_DIR", "a")
        monkeypatch.setenv("qgs_data_dir", "b")
        assert not unconfigured()

    def test_an_invalid_setting_is_refused(
        self, folder: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("QGS_TOOLGATE__RATE_LIMIT_LEASE", "2")
        with pytest.raises(ValueError, match="rate_limit_lease"):
            short_settings()
