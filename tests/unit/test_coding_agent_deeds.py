"""Deeds before words on coding agents: a planted order carried out is a P0; nothing else is.

The development set ``tests/data/coding_agents/`` (written by hand, ``generate.py``): an
order planted in what a coding agent reads (README, CONTRIBUTING.md, code comments, config
files, issues, web pages, test, CI and linter output, error messages, logs) that it then
carries out (``followed``), the same orders left alone (``ignored``), and commands the user
asked for, often taken from a README or an issue (``benign_asked``). Each transcript goes
through the detector pass as ``qgs audit`` runs it (``bench/deed_eval.py``'s
``detector_pass``: ``prepare_round`` round by round). ``bench/deed_eval.py --misses`` prints
the same outcome as a table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bench.deed_eval import detector_pass, own_labels, sidecar_labels
from qgs_worker.core.models import Finding, Severity
from qgs_worker.transcripts import TranscriptTask, read_transcripts

DATA = Path(__file__).resolve().parents[1] / "data" / "coding_agents"
FILES = ("dev.jsonl", "dev_anthropic.jsonl", "dev_claude_code.jsonl")
SIDECAR = DATA / "dev_labels.json"


@cache
def labelled() -> dict[str, tuple[dict[str, Any], TranscriptTask]]:
    """Every transcript of the set by its id: its labels and the task QGS reads."""
    sidecar = sidecar_labels([SIDECAR])
    found: dict[str, tuple[dict[str, Any], TranscriptTask]] = {}
    for name in FILES:
        labels = own_labels(DATA / name)
        for item in read_transcripts(DATA / name):
            assert isinstance(item, TranscriptTask), f"{name}: {item}"
            meta = labels.of(item, sidecar)
            found[str(meta["id"])] = (meta, item)
    return found


def ids_with(*wanted: str) -> list[str]:
    return [tid for tid, (meta, _) in labelled().items() if meta["label"] in wanted]


@cache
def p0(tid: str) -> tuple[tuple[int, Finding], ...]:
    _, task = labelled()[tid]
    return tuple((n, f) for n, f in detector_pass(task) if f.severity is Severity.P0)


class TestTheSet:
    """The set holds what it says, in every format, and is what its generator writes."""

    def test_every_file_reads_and_every_transcript_is_labelled(self) -> None:
        for name in FILES:
            items = list(read_transcripts(DATA / name))
            assert items and all(isinstance(i, TranscriptTask) for i in items), name
        metas = [meta for meta, _ in labelled().values()]
        assert {"followed", "ignored", "benign_asked"} == {m["label"] for m in metas}
        assert all(m.get("vector") and m.get("action") for m in metas)

    def test_sizes(self) -> None:
        dev = Counter(
            m["label"] for m, t in labelled().values() if t.source_file.endswith("/dev.jsonl")
        )
        assert dev["followed"] >= 40 and dev["ignored"] >= 40 and dev["benign_asked"] >= 30
        scenarios = {m["scenario"] for m, _ in labelled().values()}
        assert len(scenarios) >= 25
        for name in FILES[1:]:
            labels = Counter(
                m["label"] for m, t in labelled().values() if t.source_file.endswith(name)
            )
            assert sum(labels.values()) >= 8 and len(labels) == 3, (name, labels)

    def test_each_followed_order_has_an_ignored_twin_without_its_deed(self) -> None:
        for tid in ids_with("followed"):
            meta, task = labelled()[tid]
            if not task.source_file.endswith("/dev.jsonl"):
                continue  # the other formats hold a subset
            twin_meta, twin = labelled()[tid.replace("-followed", "-ignored")]
            assert twin_meta["label"] == "ignored" and twin.request == task.request
            deeds = [task.rounds[n - 1] for n in meta["deed_rounds"]]
            assert all(d.tool_calls for d in deeds), tid
            twin_calls = {
                json.dumps(c.arguments, sort_keys=True) for r in twin.rounds for c in r.tool_calls
            }
            for deed in deeds:
                for call in deed.tool_calls:
                    assert json.dumps(call.arguments, sort_keys=True) not in twin_calls, tid

    def test_files_are_what_the_generator_writes(self, tmp_path: Path) -> None:
        subprocess.run(
            [sys.executable, str(DATA / "generate.py"), "--out", str(tmp_path)],
            check=True,
            capture_output=True,
        )
        for name in [*FILES, SIDECAR.name]:
            assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


@pytest.mark.parametrize("tid", ids_with("followed"))
def test_followed_order_is_a_p0(tid: str) -> None:
    meta, _ = labelled()[tid]
    assert p0(tid), f"{meta['action']} via {meta['vector']}: no P0"


@pytest.mark.parametrize("tid", ids_with("followed"))
def test_the_p0_is_on_the_deed(tid: str) -> None:
    meta, _ = labelled()[tid]
    rounds = sorted({n for n, _ in p0(tid)})
    assert set(rounds) & set(meta["deed_rounds"]), (
        f"P0 on rounds {rounds}, the order carried out on {meta['deed_rounds']}"
    )


@pytest.mark.parametrize("tid", ids_with("ignored", "benign_asked"))
def test_no_p0_when_no_planted_order_is_carried_out(tid: str) -> None:
    titles = [f"round {n}: {f.category}: {f.title}" for n, f in p0(tid)]
    assert not titles, "\n".join(titles)
