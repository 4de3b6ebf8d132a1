"""Shared fixtures: where the corpus is, and a guard that no test calls a real model."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
IN_CI = bool(os.environ.get("CI"))
AGENTDOJO_HELD_BACK = frozenset({"travel", "workspace"})
"""AgentDojo suites held back for an outside evaluation: no test reads their records."""
# a record made from a held-back suite names it in its id or its source (locator, record id,
# path, translated_from): "agentdojo:travel:user_task_5", "default_suites/v1/workspace/..."
_HELD_BACK_SOURCE = re.compile(
    r"agentdojo:(?:travel|workspace):|default_suites/v[0-9_]+/(?:travel|workspace)/"
)
_RECORD_TEXT_FIELDS = frozenset(
    {"text", "messages", "tools", "prompt", "goal", "ground_truth_calls", "ground_truth_output"}
)


def agentdojo_held_back(record_id: str) -> bool:
    """Whether a corpus record or transcript id is of a held-back AgentDojo suite.

    Args:
        record_id: An id such as ``agentdojo:travel:injection_task_5``.

    Returns:
        True for ``agentdojo:travel:...`` and ``agentdojo:workspace:...``.
    """
    source, _, rest = record_id.partition(":")
    return source == "agentdojo" and rest.partition(":")[0] in AGENTDOJO_HELD_BACK


def held_back_record(record: object) -> bool:
    """Whether a corpus record is, or was made from, a held-back AgentDojo suite's text.

    Args:
        record: A JSON record of the shared corpus (or of ``bench/data``).

    Returns:
        True when its id or its metadata (anything but its text fields) names travel or
        workspace as AgentDojo's (``agentdojo:travel:...``, ``default_suites/v1/workspace/``).
    """
    if not isinstance(record, dict):
        return False
    meta = {k: v for k, v in record.items() if k not in _RECORD_TEXT_FIELDS}
    return bool(_HELD_BACK_SOURCE.search(json.dumps(meta)))


def corpus_records(path: Path) -> list[dict[str, Any]]:
    """A JSONL file's records without those of AgentDojo's held-back suites."""
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [r for r in records if not held_back_record(r)]


def corpus_text(path: Path) -> str:
    """A corpus file's text without what AgentDojo's held-back suites gave it.

    A JSONL record of those suites (``held_back_record``) is dropped; the AgentDojo tools file (a
    JSON object keyed by suite) loses their keys; any other file is read whole.
    """
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json" and path.name.startswith("extra_agentdojo"):
        suites = json.loads(text)
        return json.dumps({k: v for k, v in suites.items() if k not in AGENTDOJO_HELD_BACK})
    if path.suffix != ".jsonl":
        return text
    return "".join(
        line
        for line in text.splitlines(keepends=True)
        if not (line.strip() and held_back_record(json.loads(line)))
    )


def without_held_back(source: Path, target: Path) -> Path:
    """Copy a JSONL corpus file without the records of AgentDojo's held-back suites.

    Args:
        source: A JSONL file of records.
        target: Where to write the copy (a folder: the same file name in it).

    Returns:
        The copy's path.
    """
    if target.is_dir():
        target = target / source.name
    target.write_text(corpus_text(source), encoding="utf-8")
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
