"""Audit runs as records: each ``qgs audit`` is a run with its files, tasks and fingerprint.

Not to be confused with ``audit_run`` (``AuditRunRow``: one audit *role's* run on one round).
A run here is one invocation of ``qgs audit``, kept in two tables:

- ``audit_batch``: the run's id (1, 2, ...), ``started_at`` / ``ended_at`` (UTC; ``ended_at``
  NULL while it runs or when it was interrupted), ``mode`` (``resume``: the transcripts' own
  tasks, what was done is skipped; ``new``: tasks of its own, every transcript audited again),
  ``rerun_of`` (the run whose files it audited again), ``files`` (JSON list), ``fingerprint``
  (12 hex digits over ``settings``) and ``settings`` (JSON: what decides, ``qgs_worker.reports.runs``).
- ``audit_batch_task``: which task audited which transcript in which run, in file order;
  unique per (run, task), so writing the same link twice changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Text, UniqueConstraint, delete, func, update
from sqlalchemy.orm import aliased
from sqlmodel import Field, Session, SQLModel, col, select

from qgs_worker.errors import InputError
from qgs_worker.store.base import StoreBase, as_utc, utcnow

__all__ = ["AuditBatchRow", "AuditBatchTaskRow", "RunFacts", "RunStore"]


_MAX_RUN_ID = 2**63 - 1
"""The largest id a run can have (a signed 64-bit SQL integer); a larger one names no run."""


class AuditBatchRow(SQLModel, table=True):
    """One ``qgs audit`` invocation (a *run*); see the module docstring for the columns."""

    __tablename__ = "audit_batch"

    id: int | None = Field(default=None, primary_key=True)
    started_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )
    ended_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    mode: str = Field(default="resume", max_length=16)
    rerun_of: int | None = None
    files: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    fingerprint: str = Field(max_length=64)
    settings: str = Field(default="{}", sa_column=Column(Text, nullable=False))


class AuditBatchTaskRow(SQLModel, table=True):
    """A task of a run.

    ``position`` is its order in the run (file order); ``transcript_key`` the transcript's
    content key (``transcripts.transcript_key``), which matches tasks across runs.
    """

    __tablename__ = "audit_batch_task"
    __table_args__ = (UniqueConstraint("batch_id", "task_id", name="uq_audit_batch_task"),)

    id: int | None = Field(default=None, primary_key=True)
    batch_id: int = Field(foreign_key="audit_batch.id", index=True)
    task_id: str = Field(max_length=64, index=True)
    transcript_key: str = Field(max_length=64)
    position: int = 0


@dataclass(frozen=True, slots=True)
class RunFacts:
    """A run as the CLI shows it; times are UTC, ``tasks`` counts its linked tasks.

    ``resumed`` counts the tasks it took from an earlier run (linked, not audited again): a
    ``resume`` run with none resumed nothing (a first run), and ``shown_mode`` says ``new``.
    """

    id: int
    started_at: datetime
    ended_at: datetime | None
    mode: str
    rerun_of: int | None
    files: tuple[str, ...]
    fingerprint: str
    settings: dict[str, Any]
    tasks: int = 0
    resumed: int = 0

    @property
    def shown_mode(self) -> str:
        """``resume`` only when the run took tasks from an earlier one; else ``new``."""
        return "new" if self.mode == "resume" and not self.resumed else self.mode


def _facts(row: AuditBatchRow, tasks: int, resumed: int = 0) -> RunFacts:
    assert row.id is not None
    return RunFacts(
        id=row.id,
        started_at=as_utc(row.started_at),
        ended_at=as_utc(row.ended_at) if row.ended_at is not None else None,
        mode=row.mode,
        rerun_of=row.rerun_of,
        files=tuple(json.loads(row.files)),
        fingerprint=row.fingerprint,
        settings=json.loads(row.settings),
        tasks=tasks,
        resumed=resumed,
    )


class RunStore(StoreBase):
    """Audit runs and their tasks (a part of ``Repository``)."""

    def start_run(
        self,
        files: Sequence[str],
        fingerprint: str,
        settings: dict[str, Any],
        *,
        mode: str = "resume",
        rerun_of: int | None = None,
    ) -> int:
        """Record a run that starts now; returns its id (1, 2, ...)."""
        row = AuditBatchRow(
            mode=mode,
            rerun_of=rerun_of,
            files=json.dumps(list(files), ensure_ascii=False),
            fingerprint=fingerprint,
            settings=json.dumps(settings, sort_keys=True, ensure_ascii=False),
        )
        with Session(self.engine) as session:
            session.add(row)
            session.commit()
            session.refresh(row)
            assert row.id is not None
            return row.id

    def unfinished_new_run(
        self, files: Sequence[str], fingerprint: str, rerun_of: int | None
    ) -> int | None:
        """The latest not-ended run with tasks of its own on these files and settings, or None.

        A run with ``mode="new"`` that was interrupted or timed out waiting: ``qgs audit --rerun`` / ``--new-run`` resumes it rather than starting the same work
        again as another run with tasks of its own.
        """
        with Session(self.engine) as session:
            rows = session.exec(
                select(AuditBatchRow)
                .where(
                    col(AuditBatchRow.ended_at).is_(None),
                    col(AuditBatchRow.mode) == "new",
                    col(AuditBatchRow.fingerprint) == fingerprint,
                )
                .order_by(col(AuditBatchRow.id).desc())
            ).all()
        wanted = list(files)
        for row in rows:
            if row.rerun_of == rerun_of and json.loads(row.files) == wanted:
                return row.id
        return None

    def add_run_tasks(self, run_id: int, tasks: Sequence[tuple[str, str]], start: int = 0) -> None:
        """Link ``(task_id, transcript_key)`` pairs to a run, positions from ``start`` on.

        Idempotent: a link already stored is left as it is.
        """
        rows = [
            {"batch_id": run_id, "task_id": task_id, "transcript_key": key, "position": start + i}
            for i, (task_id, key) in enumerate(tasks)
        ]
        with Session(self.engine) as session:
            self._insert_ignore(session, AuditBatchTaskRow, rows)
            session.commit()

    def end_run(self, run_id: int) -> None:
        """Record that the run ended now: every task it read is decided or failed.

        A run that was interrupted or gave up waiting is not ended (``ended_at`` stays NULL):
        ``qgs runs`` shows it as not ended, and ``--rerun`` / ``--new-run`` resume it.
        """
        with Session(self.engine) as session:
            session.execute(
                update(AuditBatchRow)
                .where(col(AuditBatchRow.id) == run_id)
                .values(ended_at=utcnow())
            )
            session.commit()

    def discard_empty_run(self, run_id: int) -> bool:
        """Delete the run if it links no task (it read no transcript); True if it was deleted.

        A ``qgs audit`` of files that hold no transcript (an empty file, the wrong format) is
        not kept as a run of 0 tasks in ``qgs runs``. A run with any task is left as it is.
        """
        linked = select(AuditBatchTaskRow.id).where(col(AuditBatchTaskRow.batch_id) == run_id)
        with Session(self.engine) as session:
            if session.exec(linked.limit(1)).first() is not None:
                return False
            session.execute(delete(AuditBatchRow).where(col(AuditBatchRow.id) == run_id))
            session.commit()
        return True

    def list_runs(self) -> list[RunFacts]:
        """Every run, oldest first, with its task count and how many it took from earlier runs."""
        mine, before = aliased(AuditBatchTaskRow), aliased(AuditBatchTaskRow)
        with Session(self.engine) as session:
            counts = dict(
                session.exec(
                    select(AuditBatchTaskRow.batch_id, func.count()).group_by(
                        col(AuditBatchTaskRow.batch_id)
                    )
                ).all()
            )
            earlier = dict(
                session.exec(
                    select(mine.batch_id, func.count(func.distinct(mine.task_id)))
                    .join(
                        before,
                        (col(before.task_id) == col(mine.task_id))
                        & (col(before.batch_id) < col(mine.batch_id)),
                    )
                    .group_by(col(mine.batch_id))
                ).all()
            )
            rows = session.exec(select(AuditBatchRow).order_by(col(AuditBatchRow.id))).all()
            return [
                _facts(r, counts.get(r.id or 0, 0), earlier.get(r.id or 0, 0)) for r in rows
            ]

    def run_facts(self, run: str | int) -> RunFacts:
        """One run by id (``3``, ``r3``) or ``last``.

        Raises:
            InputError: no such run (the message lists how to see the runs).
        """
        run_id = self.resolve_run(run)
        with Session(self.engine) as session:
            row = session.get(AuditBatchRow, run_id)
            assert row is not None  # resolve_run checked it
            count = session.exec(
                select(func.count())
                .select_from(AuditBatchTaskRow)
                .where(col(AuditBatchTaskRow.batch_id) == run_id)
            ).one()
            return _facts(row, int(count))

    def resolve_run(self, run: str | int) -> int:
        """The id of run ``run`` (an id, ``r<id>``, or ``last``).

        Raises:
            InputError: the run is not stored, or ``run`` is neither an id nor ``last``.
        """
        with Session(self.engine) as session:
            if str(run).lower() == "last":
                last = session.exec(select(func.max(AuditBatchRow.id))).one()
                if last is None:
                    raise InputError("run 'last': no audit run is stored yet (run `qgs audit`)")
                return int(last)
            text = str(run).lower().removeprefix("r")
            if not text.isdigit():
                raise InputError(
                    f"run must be a run id such as 3 (or r3, or last) (got {run!r}); "
                    "`qgs runs` lists them"
                )
            # Break test: an id past SQL's 64-bit integers raised OverflowError (a traceback).
            if int(text) > _MAX_RUN_ID or session.get(AuditBatchRow, int(text)) is None:
                raise InputError(f"no audit run {run!r} in the store; `qgs runs` lists them")
            return int(text)

    def run_tasks(self, run: str | int) -> list[tuple[str, str]]:
        """The run's ``(task_id, transcript_key)`` pairs in run order.

        Raises:
            InputError: no such run.
        """
        run_id = self.resolve_run(run)
        with Session(self.engine) as session:
            rows = session.exec(
                select(AuditBatchTaskRow.task_id, AuditBatchTaskRow.transcript_key)
                .where(col(AuditBatchTaskRow.batch_id) == run_id)
                .order_by(col(AuditBatchTaskRow.position), col(AuditBatchTaskRow.id))
            ).all()
            return [(t, k) for t, k in rows]
