"""``qgs audit`` waits with a bounded number of store queries per poll, whatever the batch size.

The wait runs on a SQLite store the test fills itself: each pause of the wait (``time.sleep``)
decides a few more rounds, as workers would, and the SQL statements each poll issues are counted
with SQLAlchemy's ``before_cursor_execute`` event.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import typer
from sqlalchemy import event

from qgs_worker.cli import audit as cli
from qgs_worker.cli import audit_wait
from qgs_worker.cli.audit_wait import AuditWait
from qgs_worker.store import Repository
from qgs_worker.store.tables import RoundRow, TaskRow


def _store(tmp_path: Path, tasks: int, rounds: int = 2) -> tuple[Repository, list[int]]:
    repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
    ids: list[int] = []
    for t in range(tasks):
        repo.add_task(
            TaskRow(
                id=f"tx-{t:04d}", request="r", task_type="QUERY", complexity="SIMPLE",
                classification_source="rules", confidence=1.0,
            )
        )  # fmt: skip
        for n in range(1, rounds + 1):
            row = repo.add_round(
                RoundRow(
                    submission_id=f"tx-{t:04d}:{n}", task_id=f"tx-{t:04d}", number=n,
                    final=n == rounds, content="x", content_hash="h",
                )
            )  # fmt: skip
            assert row.id is not None
            ids.append(row.id)
    return repo, ids


def _wait_counting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tasks: int, per_poll: int
) -> list[int]:
    """Run ``_wait_for_tasks``; return the statements of each poll."""
    repo, round_ids = _store(tmp_path, tasks)
    pending = {f"tx-{t:04d}": {1, 2} for t in range(tasks)}
    counts = [0]
    counting = [True]

    @event.listens_for(repo.engine, "before_cursor_execute")
    def _count(*_: Any) -> None:
        if counting[0]:
            counts[-1] += 1

    def settle_some(_: float) -> None:  # what the workers do between two polls
        counting[0] = False
        for round_id in round_ids[:per_poll]:
            repo.set_round_status(round_id, "decided")
        del round_ids[:per_poll]
        counting[0] = True
        counts.append(0)

    monkeypatch.setattr(cli.time, "sleep", settle_some)
    cli._wait_for_tasks(SimpleNamespace(repo=repo), pending, timeout_s=600)  # type: ignore[arg-type]
    assert not round_ids  # every round was decided before the wait ended
    return counts


def test_queries_per_poll_do_not_grow_with_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = _wait_counting(tmp_path / "5", monkeypatch, tasks=5, per_poll=2)
    large = _wait_counting(tmp_path / "50", monkeypatch, tasks=50, per_poll=20)
    assert len(small) == 6 and len(large) == 6  # 10 and 100 rounds, decided 2 and 20 a poll
    assert set(small) == set(large) == {1}  # one query a poll, for 5 tasks as for 50


def test_a_task_waits_for_its_rounds_not_decided_before(tmp_path: Path) -> None:
    repo, ids = _store(tmp_path, 2)
    repo.set_round_status(ids[0], "decided")  # tx-0000 round 1, decided by an earlier run
    wait = AuditWait(repo, {"tx-0000": {2}, "tx-0001": {1, 2}})
    assert wait.poll() == 2
    repo.set_round_status(ids[1], "failed")  # a failed round waits for nothing more
    repo.set_round_status(ids[2], "decided")
    assert wait.poll() == 1
    assert wait.first_waiting() == "tx-0001"


def test_a_worker_clock_far_behind_is_caught_by_the_exact_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, ids = _store(tmp_path, 1, rounds=1)
    wait = AuditWait(repo, {"tx-0000": {1}})
    repo.set_round_status(ids[0], "decided")
    with repo.engine.begin() as conn:  # the worker's clock lags an hour
        conn.exec_driver_sql("UPDATE round SET status_at = '2000-01-01 00:00:00'")
    assert wait.poll() == 1  # not in the window
    monkeypatch.setattr(audit_wait, "RECONCILE_S", -1.0)
    assert wait.poll() == 0  # no progress for RECONCILE_S: checked task by task


def test_the_wait_times_out_naming_a_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, _ = _store(tmp_path, 3, rounds=1)
    monkeypatch.setattr(cli.time, "sleep", lambda _: None)
    with pytest.raises(typer.Exit) as stopped:
        cli._wait_for_tasks(SimpleNamespace(repo=repo), {"tx-0001": {1}}, timeout_s=0)  # type: ignore[arg-type]
    assert stopped.value.exit_code == 1


def test_the_wait_stops_when_the_local_workers_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Break test: after its workers died, `qgs audit` waited the whole timeout saying nothing."""
    repo, _ = _store(tmp_path, 3, rounds=1)
    monkeypatch.setattr(cli.time, "sleep", lambda _: pytest.fail("waited on dead workers"))
    dead = SimpleNamespace(alive=lambda: False, log_file=tmp_path / "worker.log")
    with pytest.raises(typer.Exit) as stopped:
        cli._wait_for_tasks(
            SimpleNamespace(repo=repo),  # type: ignore[arg-type]
            {"tx-0001": {1}},
            timeout_s=900,
            workers=dead,  # type: ignore[arg-type]
        )
    assert stopped.value.exit_code == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "local workers exited" in err and "worker.log" in err



def _audit_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wait: Any, *options: str
) -> tuple[Any, Repository]:
    """`qgs audit` of one transcript in-process, its wait replaced by ``wait``; (result, store)."""
    from typer.testing import CliRunner

    from qgs_worker.cli.commands import app

    for key in [k for k in os.environ if k.startswith("QGS_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
    monkeypatch.setattr(cli, "_wait_for_tasks", wait)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"messages": [{"role": "user", "content": "Write a haiku"}, '
        '{"role": "assistant", "content": "Rain on the tin roof"}]}\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["audit", str(transcript), *options])
    return result, Repository(f"sqlite:///{tmp_path / '.qgs' / 'qgs.db'}")


def test_ctrl_c_while_waiting_says_how_to_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break test: Ctrl-C during the wait printed nothing (typer exits 130 quietly)."""

    def interrupted(*_: Any, **__: Any) -> None:
        raise KeyboardInterrupt

    result, repo = _audit_one(tmp_path, monkeypatch, interrupted)
    assert 130 == result.exit_code
    said = " ".join(result.stderr.split())
    assert "interrupted: run 1 is left unfinished" in said
    assert "same command again goes on from there" in said
    [run] = repo.list_runs()
    assert run.ended_at is None  # not ended: `qgs runs` shows it, a --rerun resumes it


def test_sigterm_while_waiting_unwinds_like_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break test: SIGTERM (`timeout`, a service manager) ended the audit without a word,
    before its local workers and broker were stopped."""
    before = signal.getsignal(signal.SIGTERM)

    def terminated(*_: Any, **__: Any) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises in this frame before the sleep ends

    result, repo = _audit_one(tmp_path, monkeypatch, terminated)
    assert 143 == result.exit_code
    assert "interrupted: run 1 is left unfinished" in " ".join(result.stderr.split())
    [run] = repo.list_runs()
    assert run.ended_at is None
    assert before == signal.getsignal(signal.SIGTERM)  # the command's handler is gone


def test_a_wait_that_gives_up_still_prints_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break test: `--format json` printed no JSON at all when the wait timed out."""

    def gave_up(*_: Any, **__: Any) -> None:
        raise typer.Exit(1)  # as the wait does after its timeout (its message printed)

    result, repo = _audit_one(tmp_path, monkeypatch, gave_up, "--format", "json")
    assert 1 == result.exit_code
    report = json.loads(result.stdout)
    assert {"summary", "tasks", "run"} <= set(report)
    [run] = repo.list_runs()
    assert run.ended_at is None  # gave up: the run is not ended, and resumes


@pytest.mark.parametrize("given", ["-5", "0", "nan"])
def test_timeout_must_be_seconds_above_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    """Break test: `--timeout-s -5` said "no decision after -5 s"; nan never timed out."""
    result, _ = _audit_one(
        tmp_path, monkeypatch, lambda *_a, **_k: None, "--timeout-s", given
    )
    assert 2 == result.exit_code
    assert "is not a number of seconds above 0" in " ".join(result.stderr.split())


def test_a_task_not_stored_yet_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Break test: the timeout named a task not stored yet and sent the user to `qgs status`."""
    repo, _ = _store(tmp_path, 1, rounds=1)
    monkeypatch.setattr(cli.time, "sleep", lambda _: None)
    with pytest.raises(typer.Exit):
        cli._wait_for_tasks(SimpleNamespace(repo=repo), {"tx-9999": {1}}, timeout_s=0)  # type: ignore[arg-type]
    err = " ".join(capsys.readouterr().err.split())
    assert "tx-9999: not stored yet, its submission waits for a worker" in err
    assert "qgs status tx-9999" not in err
