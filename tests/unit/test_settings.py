"""Settings that cannot work are refused when they are read, in one line that says the fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.config.settings import DiscriminatorSettings, Settings, settings_error_message
from qgs_worker.errors import ConfigurationError
from tests.conftest import ROOT


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[Any, str]:
    """Run the ``qgs`` entry point; the exit code and standard error, whitespace unwrapped."""
    from qgs_worker.cli import main

    argv, sys.argv = sys.argv, ["qgs", *args]
    try:
        with pytest.raises(SystemExit) as info:
            main()
    finally:
        sys.argv = argv
    return info.value.code, " ".join(capsys.readouterr().err.split())


class TestAuditRoles:
    """Every role named in the discriminator settings must be registered (``qgs.roles``)."""

    @pytest.mark.parametrize(
        ("env", "variable"),
        [
            ({"QGS_DISCRIMINATOR__ROLES": '["nope"]'}, "QGS_DISCRIMINATOR__ROLES"),
            (
                {"QGS_DISCRIMINATOR__ROLES": '["security_auditor", "securty_auditor"]'},
                "QGS_DISCRIMINATOR__ROLES",
            ),
            (
                {"QGS_DISCRIMINATOR__ROLE_OPTIONS": '{"nope": {"memory_mb": 256}}'},
                "QGS_DISCRIMINATOR__ROLE_OPTIONS",
            ),
        ],
    )
    def test_unknown_role_is_refused_at_load(
        self, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], variable: str
    ) -> None:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        with pytest.raises(ConfigurationError) as info:
            Settings()
        message = str(info.value)
        assert message.startswith(f"{variable} names unknown audit role(s) '")
        assert "'nope'" in message or "'securty_auditor'" in message
        assert "'security_auditor'" not in message.split(";")[0]  # only the unknown ones
        assert "injection_compliance, reality_checker, security_auditor" in message

    def test_unknown_role_in_code_is_refused(self) -> None:
        with pytest.raises(ConfigurationError, match="QGS_DISCRIMINATOR__ROLES"):
            Settings(discriminator=DiscriminatorSettings(roles=("nope",)))

    def test_registered_roles_pass(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("QGS_DISCRIMINATOR__ROLES", '["reality_checker", "security_auditor"]')
        monkeypatch.setenv(
            "QGS_DISCRIMINATOR__ROLE_OPTIONS", '{"reality_checker": {"memory_mb": 256}}'
        )
        settings = Settings()
        assert ("reality_checker", "security_auditor") == settings.discriminator.roles

    def test_submit_refuses_before_queuing_anything(
        self,
        monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        data_dir = tmp_path / ".qgs"
        deliverable = tmp_path / "out.txt"
        deliverable.write_text("Deployed.", encoding="utf-8")
        monkeypatch.setenv("QGS_DATA_DIR", str(data_dir))
        monkeypatch.setenv("QGS_DISCRIMINATOR__ROLES", '["nope"]')
        code, err = run_main(capsys, "submit", "--request", "deploy it", str(deliverable))
        assert 2 == code
        assert "error: QGS_DISCRIMINATOR__ROLES names unknown audit role(s) 'nope'" in err
        assert "Traceback" not in err and not data_dir.exists()  # no store, no broker


class TestSettingsThatAreNotJson:
    """A list or dict setting that is not JSON names its variable, the shape and an example."""

    @pytest.mark.parametrize(
        ("variable", "value", "needle"),
        [
            (
                "QGS_DISCRIMINATOR__ROLES",
                "nope",
                """QGS_DISCRIMINATOR__ROLES must be JSON (a list, e.g. '["security_auditor"]')""",
            ),
            (
                "QGS_GATE__FAIL_OPEN_TYPES",
                "QUERY",
                """QGS_GATE__FAIL_OPEN_TYPES must be JSON (a list, e.g. '["QUERY"]')""",
            ),
            (
                "QGS_TOOLGATE__ALLOWED_DOMAINS",
                "example.com, api.example.com",
                "QGS_TOOLGATE__ALLOWED_DOMAINS must be JSON (a list, e.g. "
                """'["example.com", "api.example.com"]')""",
            ),
            (
                "QGS_DISCRIMINATOR__ROLE_OPTIONS",
                "reality_checker=256",
                "QGS_DISCRIMINATOR__ROLE_OPTIONS must be JSON (an object, e.g. "
                """'{"reality_checker": {"memory_mb": 256}}')""",
            ),
        ],
    )
    def test_cli_prints_one_line_and_exits_2(
        self,
        monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        variable: str,
        value: str,
        needle: str,
    ) -> None:
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        monkeypatch.setenv(variable, value)
        code, err = run_main(capsys, "status", "t-1")
        assert 2 == code
        assert err.startswith(f"error: {needle}: error parsing value for field"), err
        assert "Traceback" not in err and "SettingsError" not in err

    @pytest.mark.slow
    def test_as_a_shell_sees_it(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
        env.update(QGS_DISCRIMINATOR__ROLES="nope", QGS_DATA_DIR=str(tmp_path / ".qgs"))
        env["PYTHONPATH"] = str(ROOT)
        done = subprocess.run(
            [sys.executable, "-m", "qgs_worker.cli", "status", "t-1"],
            cwd=tmp_path,  # no .env file here
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert 2 == done.returncode
        assert "" == done.stdout
        assert 1 == len(done.stderr.splitlines()), done.stderr
        assert done.stderr.startswith("error: QGS_DISCRIMINATOR__ROLES must be JSON (a list")

    def test_message_without_a_variable_to_name(self) -> None:
        from pydantic_settings.exceptions import SettingsError

        error = SettingsError('error parsing value for field "gate" from source "X"')
        message = settings_error_message(error, environ={})
        assert message.startswith("invalid settings: error parsing value for field")
        assert message.endswith("list and dict settings must be JSON")
