"""docker-compose.yml (issue 11, item 9): health checks, start order, every QGS_* setting of .env.

Read through ``docker-compose config`` (Debian's v1, offline), which resolves the anchors and
reads the env file into each service's environment; its output is normalized YAML, read here
block by block (no YAML parser in the environment).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]
QGS_SERVICES = ("worker-default", "worker-critic", "worker-discriminator", "flower", "api")


def _config(env_file: Path) -> dict[str, str]:
    """``{service: its block of the resolved configuration}``."""
    binary = shutil.which("docker-compose")
    if binary is None:
        message = "docker-compose (Debian's v1) is not installed; .ci/run installs it"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    result = subprocess.run(
        [binary, "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QGS_ENV_FILE": str(env_file)},
    )
    assert 0 == result.returncode, result.stderr
    text = ("\n" + result.stdout).split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"^  (?=[a-z][\w-]*:\n)", text, flags=re.MULTILINE)
    return {b.split(":", 1)[0]: b for b in blocks if b.strip()}


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    env_file = tmp_path_factory.mktemp("compose") / ".env"
    example = (ROOT / ".env.example").read_text()
    env_file.write_text(example + "QGS_WORKER__CRITIC_CONCURRENCY=12\nQGS_BROKER_TIMEOUT_S=7\n")
    return _config(env_file)


class TestCompose:
    """What `docker compose up` needs to start in order and recover on its own."""

    def test_every_service_has_a_health_check(self, services: dict[str, str]) -> None:
        assert {"redis", "postgres", *QGS_SERVICES} <= set(services)
        assert [] == [name for name, block in services.items() if "healthcheck:" not in block]

    def test_qgs_services_wait_for_healthy_redis_and_postgres(
        self, services: dict[str, str]
    ) -> None:
        wanted = re.compile(
            r"depends_on:\n\s+postgres:\n\s+condition: service_healthy\n"
            r"\s+redis:\n\s+condition: service_healthy\n"
        )
        assert [] == [name for name in QGS_SERVICES if not wanted.search(services[name])]

    def test_every_qgs_setting_of_the_env_file_reaches_the_containers(
        self, services: dict[str, str]
    ) -> None:
        for name in QGS_SERVICES:
            block = services[name]
            for line in ("QGS_WORKER__CRITIC_CONCURRENCY: '12'", "QGS_BROKER_TIMEOUT_S: '7'"):
                assert line in block, (name, line)
            assert "QGS_BROKER_URL: redis://:change-me@redis:6379/0" in block

    def test_worker_health_checks_ping_their_own_node(self, services: dict[str, str]) -> None:
        for name in QGS_SERVICES[:3]:
            block = services[name]
            assert f"- {name}@%h" in block
            assert f"- ping\n      - {name}\n" in block

    def test_the_example_env_names_real_settings(self) -> None:
        from qgs_worker.config.settings import Settings

        names = {
            line.lstrip("# ").split("=", 1)[0]
            for line in (ROOT / ".env.example").read_text().splitlines()
            if line.lstrip("# ").startswith("QGS_")
        }
        known = {f"QGS_{n.upper()}" for n in Settings.model_fields} | {
            f"QGS_{n.upper()}__{sub.upper()}"
            for n, field in Settings.model_fields.items()
            for sub in getattr(field.annotation, "model_fields", {})
        }
        assert set() == names - known


class TestApiService:
    """The HTTP API's service: `qgs serve` on all addresses, healthy when /healthz answers."""

    def test_api_serves_on_all_addresses_with_a_healthz_check(
        self, services: dict[str, str]
    ) -> None:
        block = services["api"]
        assert "- serve\n    - --host\n    - 0.0.0.0\n" in block
        assert "http://127.0.0.1:8080/healthz" in block
        assert "127.0.0.1:8080" in block and "8080" in block.split("ports:", 1)[1]
