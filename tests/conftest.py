"""Shared fixtures: where the corpus is, and a guard that no test calls a real model."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
IN_CI = bool(os.environ.get("CI"))
AGENTDOJO_HELD_BACK = frozenset({"travel", "workspace"})
"""AgentDojo suites held back for an outside evaluation: no test reads their records."""


def agentdojo_held_back(record_id: str) -> bool:
    """Whether a corpus record or transcript id is of a held-back AgentDojo suite.

    Args:
        record_id: An id such as ``agentdojo:travel:injection_task_5``.

    Returns:
        True for ``agentdojo:travel:...`` and ``agentdojo:workspace:...``.
    """
    source, _, rest = record_id.partition(":")
    return source == "agentdojo" and rest.partition(":")[0] in AGENTDOJO_HELD_BACK


def without_held_back(source: Path, target: Path) -> Path:
    """Copy a JSONL corpus file without the records of AgentDojo's held-back suites.

    Args:
        source: A JSONL file of records with an ``id``.
        target: Where to write the copy (a folder: the same file name in it).

    Returns:
        The copy's path.
    """
    if target.is_dir():
        target = target / source.name
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [
        line
        for line in lines
        if not (line.strip() and agentdojo_held_back(str(json.loads(line).get("id", ""))))
    ]
    target.write_text("".join(kept), encoding="utf-8")
    return target


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus folder (../shared/corpus); tests skip with a clear message without it."""
    if not CORPUS.is_dir():
        pytest.skip(
            f"the shared corpus is not at {CORPUS}; these tests read real public data from it"
        )
    return CORPUS


# The default data folder (``settings.default_data_dir``, under XDG_DATA_HOME) is never the
# user's own: a temporary one for the whole run (fixtures of class or session scope, and the
# processes they start, see it), and a fresh one for each test (``_no_real_model_calls``).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="qgs-test-data-")


@pytest.fixture(autouse=True)
def _no_real_model_calls(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Fail any test that would reach a real model endpoint: no key, no default base URL.

    Each test also gets a data folder of its own (``XDG_DATA_HOME``).
    """
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # discard port: refuses at once
    for key in list(os.environ):
        if key.startswith("QGS_"):
            monkeypatch.delenv(key)
