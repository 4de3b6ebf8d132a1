"""Inspect AI eval logs: a real .eval archive and .json log from inspect_ai's mock model, broken."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.transcripts import (
    TranscriptError,
    TranscriptFormat,
    TranscriptTask,
    detect_format,
    iter_paths,
    read_transcripts,
)
from qgs_worker.transcripts.inspect_log import _load_member, read_inspect_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The .eval archive and the .json log inspect_ai writes for the two scripted samples."""
    if importlib.util.find_spec("inspect_ai") is None:
        pytest.skip("inspect-ai is not installed (a dev extra: pip install -e '.[dev]')")
    folder = tmp_path_factory.mktemp("inspect")
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "producers" / "inspect_eval.py"),
            str(folder / "logs"),
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    paths = [Path(line) for line in done.stdout.split()]
    return {p.suffix: p for p in paths}


def by_id(items: list[TranscriptTask | TranscriptError]) -> dict[str | None, TranscriptTask]:
    assert [i for i in items if isinstance(i, TranscriptError)] == []
    return {i.transcript_id: i for i in items if isinstance(i, TranscriptTask)}


def rewrite_archive(source: Path, target: Path, change: dict[str, Any]) -> Path:
    """A deflated copy of an archive (the older Inspect layout), members replaced by ``change``."""
    with zipfile.ZipFile(source) as old, source.open("rb") as raw:
        names = [i.filename for i in old.infolist()]
        members = {n: _load_member(old, raw, n, 1 << 30) for n in names}
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for name, value in members.items():
            value = change.get(name, value)
            new.writestr(name, value if isinstance(value, bytes) else json.dumps(value))
    return target


class TestRealLogs:
    """Both log files of a real eval read, one transcript per sample, with calls and results."""

    @pytest.mark.parametrize("suffix", [".eval", ".json"])
    def test_samples_become_transcripts(self, logs: dict[str, Path], suffix: str) -> None:
        path = logs[suffix]
        assert detect_format(path) is TranscriptFormat.inspect
        tasks = by_id(list(read_transcripts(path)))
        assert set(tasks) == {"list:1", "delete:1"}
        listing, deleting = tasks["list:1"], tasks["delete:1"]
        assert (listing.request, listing.agent_model) == ("List the files in /tmp", "mockllm/model")
        assert [r.text for r in listing.rounds][1] == "Two files: a.txt and b.txt."
        call = listing.rounds[0].tool_calls[0]
        assert (call.name, call.arguments) == ("bash", {"cmd": "ls /tmp"})
        assert listing.rounds[1].tool_results[0].tool_call_id == call.id
        assert listing.rounds[1].tool_results[0].content == "a.txt\nb.txt"
        assert deleting.rounds[0].tool_calls[0].arguments == {"cmd": "rm -rf /tmp/a.txt"}
        assert deleting.rounds[1].tool_results[0].content == "[tool error] rm: permission denied"
        assert sorted(t.line for t in tasks.values()) == [1, 2]

    def test_keys_are_stable_across_reads(self, logs: dict[str, Path]) -> None:
        first = sorted(t.key for t in by_id(list(read_transcripts(logs[".eval"]))).values())
        again = sorted(t.key for t in by_id(list(read_transcripts(logs[".eval"]))).values())
        assert first == again and len(set(first)) == 2

    def test_a_folder_contributes_its_eval_files(self, logs: dict[str, Path]) -> None:
        assert set(iter_paths([logs[".eval"].parent])) == {logs[".eval"], logs[".json"]}

    def test_deflated_archive_reads_the_same(self, logs: dict[str, Path], tmp_path: Path) -> None:
        copy = rewrite_archive(logs[".eval"], tmp_path / "old.eval", {})
        assert by_id(list(read_transcripts(copy))).keys() == {"list:1", "delete:1"}


class TestBrokenLogs:
    """A broken log or sample fails alone, named by sample position and id, with the reason."""

    def test_truncated_archive(self, logs: dict[str, Path], tmp_path: Path) -> None:
        data = logs[".eval"].read_bytes()
        cut = tmp_path / "cut.eval"
        cut.write_bytes(data[: len(data) // 2])
        (error,) = list(read_transcripts(cut))
        assert isinstance(error, TranscriptError)
        assert error.message.startswith("not a readable .eval archive")

    def test_damaged_zstd_sample_fails_alone(self, logs: dict[str, Path], tmp_path: Path) -> None:
        data = bytearray(logs[".eval"].read_bytes())
        with zipfile.ZipFile(logs[".eval"]) as archive:
            info = next(i for i in archive.infolist() if i.filename.startswith("samples/list"))
        assert info.compress_type == 93  # current Inspect writes zstd members
        middle = info.header_offset + 30 + len(info.filename) + info.compress_size // 2
        data[middle : middle + 64] = bytes(64)
        broken = tmp_path / "damaged.eval"
        broken.write_bytes(bytes(data))
        items = list(read_transcripts(broken))
        errors = [i for i in items if isinstance(i, TranscriptError)]
        assert [i.transcript_id for i in items if isinstance(i, TranscriptTask)] == ["delete:1"]
        assert len(errors) == 1 and errors[0].message.startswith("sample samples/list_epoch_1.json")

    def test_wrong_types_and_missing_fields(self, logs: dict[str, Path], tmp_path: Path) -> None:
        with zipfile.ZipFile(logs[".eval"]) as archive:
            names = sorted(n for n in archive.namelist() if n.startswith("samples/"))
        delete_name, list_name = names
        copy = rewrite_archive(
            logs[".eval"],
            tmp_path / "bad.eval",
            {
                list_name: {"id": "list", "epoch": 1, "messages": "List the files"},
                delete_name: b"{",
            },
        )
        errors = list(read_transcripts(copy))
        assert all(isinstance(e, TranscriptError) for e in errors)
        messages = sorted(e.message for e in errors if isinstance(e, TranscriptError))
        assert messages[0].startswith("sample list (epoch 1): 'messages' must be a list")
        assert messages[1].startswith("sample samples/delete_epoch_1.json: could not be read")

    def test_sample_over_the_size_limit(self, logs: dict[str, Path]) -> None:
        items = list(read_inspect_file(logs[".eval"], max_sample_bytes=1000))
        assert items and all(isinstance(i, TranscriptError) for i in items)
        assert all(
            "over the reader's" in i.message for i in items if isinstance(i, TranscriptError)
        )

    def test_json_log_truncated_or_without_samples(
        self, logs: dict[str, Path], tmp_path: Path
    ) -> None:
        text = logs[".json"].read_text(encoding="utf-8")
        cut = tmp_path / "cut.json"
        cut.write_text(text[: len(text) // 2], encoding="utf-8")
        (error,) = list(read_transcripts(cut, "inspect"))
        assert isinstance(error, TranscriptError) and "not a readable Inspect log" in error.message
        log = json.loads(text)
        log.pop("samples")
        bare = tmp_path / "bare.json"
        bare.write_text(json.dumps(log), encoding="utf-8")
        assert detect_format(bare) is TranscriptFormat.inspect
        (error,) = list(read_transcripts(bare))
        assert isinstance(error, TranscriptError) and "has no 'samples' list" in error.message

    def test_bad_sample_in_json_log_fails_alone_and_huge_field_reads(
        self, logs: dict[str, Path], tmp_path: Path
    ) -> None:
        log = json.loads(logs[".json"].read_text(encoding="utf-8"))
        first, second = log["samples"]
        first["messages"][1]["tool_calls"] = "bash"
        second["messages"][-1]["content"] = "y" * 5_000_000
        path = tmp_path / "mixed.json"
        path.write_text(json.dumps(log), encoding="utf-8")
        error, task = list(read_transcripts(path))
        assert isinstance(error, TranscriptError) and isinstance(task, TranscriptTask)
        assert error.line == 1
        assert "message 2: 'tool_calls' must be a list of calls (got a string)" in error.message
        assert len(task.rounds[-1].text) == 5_000_000
