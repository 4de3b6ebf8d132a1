"""Shared fixtures: where the corpus is, and a guard that no test calls a real model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
IN_CI = bool(os.environ.get("CI"))


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus folder (../shared/corpus); tests skip with a clear message without it."""
    if not CORPUS.is_dir():
        pytest.skip(
            f"the shared corpus is not at {CORPUS}; these tests read real public data from it"
        )
    return CORPUS


@pytest.fixture(scope="session")
def _user_data_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("xdg-data")


@pytest.fixture(autouse=True)
def _no_real_model_calls(monkeypatch: pytest.MonkeyPatch, _user_data_home: Path) -> None:
    """Fail any test that would reach a real model endpoint: no key, no default base URL.

    The default data folder (``settings.default_data_dir``) is a temporary one, never the
    user's own.
    """
    monkeypatch.setenv("XDG_DATA_HOME", str(_user_data_home))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # discard port: refuses at once
    for key in list(os.environ):
        if key.startswith("QGS_"):
            monkeypatch.delenv(key)
