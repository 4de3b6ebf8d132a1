"""The review service's store port in memory, for a chunk of new tasks, written in one transaction.

``qgs audit``'s batch path (``qgs_worker.service.batch``) runs the very steps of the per-round
path (``ReviewService``: intake, review, audit, decide) on a chunk of transcripts inside one
job. The steps go through this store instead of ``SqlReviewStore``: it keeps the rows each step
would write, as the same insert values (``row_values.round_values``, ``review_values``, ``finding_values``,
``decision_values``, ...), and answers the steps' loads from them with the same semantics (insert
that ignores a conflict, the review lease, the plan's claim, the counts and the reusable review
of a load, the order of ``findings_up_to``). ``flush`` then writes every row in one transaction
with bulk inserts: what a chunk stores is what the per-round path would have stored, row for row,
apart from ids and times (``tests/unit/test_chunk_store.py`` compares both).

Ids handed out before the flush are negative (rounds and reviews count down from -1); ``flush``
returns the real id of each round. A review of the results store (a positive id) is read from it
(``stored``), so a transcript audited again reuses the reviews the store already holds.

Only tasks that are not in the results store belong here (the job routes the others to the
per-round path); ``flush`` refuses a chunk whose tasks were stored meanwhile.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Sequence
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from qgs_worker.core.models import (
    Classification,
    Finding,
    Review,
    ReviewStatus,
    RoundPlan,
    RoundStatus,
    Severity,
)
from qgs_worker.errors import RoundNumberTakenError, TaskNotFoundError
from qgs_worker.service.ports import (
    Contents,
    NewRound,
    Prepared,
    ReviewAttempt,
    ReviewStore,
    Settlement,
)
from qgs_worker.service.records import RoundRecord, TaskContext, TaskRecord
from qgs_worker.service.submission import NewTask
from qgs_worker.store.base import clean_row, loads_list
from qgs_worker.store.chunk_flush import (
    ChunkConflictError,
    settled_submission_ids,
    stored_task_ids,
    write_chunk,
)
from qgs_worker.store.reviews import (
    decision_values,
    dimension_values,
    failure_values,
    finding_model,
    finding_values,
    review_of,
    review_values,
)
from qgs_worker.store.row_values import REVIEW as _rv
from qgs_worker.store.row_values import plan_values, role_run_values, round_values
from qgs_worker.store.tables import utcnow
from qgs_worker.store.task_values import task_record, task_values

__all__ = [
    "ChunkConflictError",
    "ChunkReviewStore",
    "settled_submission_ids",
    "stored_task_ids",
]

_FIND_REVIEW = select(func.min(_rv.c.id)).where(
    _rv.c.review_key == bindparam("key"), _rv.c.status == bindparam("status")
)

_FIND_PARAMS: dict[str, Any] = {  # _FIND_REVIEW's parameters in each driver's own style
    "qmark": lambda key: (key, ReviewStatus.OK.value),
    "pyformat": lambda key: {"key": key, "status": ReviewStatus.OK.value},
    "named": lambda key: {"key": key, "status": ReviewStatus.OK.value},
    "format": lambda key: (key, ReviewStatus.OK.value),
    "numeric": lambda key: (key, ReviewStatus.OK.value),
}


class ChunkReviewStore:
    """``service.ports.ReviewStore`` in memory for a chunk of new tasks; ``flush`` writes it.

    Thread-safe: the batch runner may run the chunk's tasks in several threads (each task's
    rounds in one thread, in order), so every method holds one lock while it reads or writes.

    Args:
        stored: The results store's port (``SqlReviewStore``): stored reviews are read from
            there.
        engine: The results store's engine: a review to reuse is looked up there (once per
            review key, on one connection held until ``flush`` or ``close``). None: only the
            chunk's own reviews are reused.
    """

    def __init__(self, stored: ReviewStore | None = None, engine: Engine | None = None) -> None:
        self._stored = stored
        self._engine = engine
        self._conn: Connection | None = None
        self._find = ""
        self._lock = threading.RLock()
        self.tasks: dict[str, dict[str, Any]] = {}
        self.rounds: dict[int, dict[str, Any]] = {}  # negative id -> round insert values
        self._task_rounds: dict[str, list[int]] = defaultdict(list)  # in number order
        self._by_submission: dict[str, int] = {}
        self.reviews: dict[int, dict[str, Any]] = {}  # negative id -> review insert values
        self._round_review: dict[int, int] = {}
        self.dimensions: dict[int, list[dict[str, Any]]] = {}
        self.findings: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)  # by fingerprint
        self.decisions: dict[int, dict[str, Any]] = {}
        self.runs: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)  # by role
        self.taken: list[str] = []
        self._stored_reviews: dict[str, int | None] = {}
        self._keyed: dict[str, list[int]] = defaultdict(list)  # good reviews by key, in order
        self._task_records: dict[str, TaskRecord] = {}  # as loads read them, until a change
        self._plans: dict[int, tuple[tuple[bool, bool, str], RoundPlan]] = {}
        # Each round's record as a load built it, by the load's ``contents``, while the round is
        # not in focus; every write to the round drops them (``_touch``). A task's loads read all
        # its rounds, so without them a chunk built ~4 records a load (issue 14's batch path).
        self._records: dict[int, dict[str, RoundRecord]] = {}
        self._next_round = -1
        self._next_review = -1

    # -- loads -----------------------------------------------------------------------------

    def load_task(
        self, task_id: str, *, focus: int | None = None, contents: Contents = "none"
    ) -> TaskContext:
        """The task and its rounds. Raises ``TaskNotFoundError`` when the chunk has no such task."""
        with self._lock:
            if task_id not in self.tasks:
                raise TaskNotFoundError(f"no task with id {task_id!r} in this chunk")
            return self._context(task_id, focus, contents)

    def load_round(self, round_id: int, *, contents: Contents = "none") -> TaskContext:
        """The context of a round's task, the round in focus. Raises ``TaskNotFoundError``."""
        with self._lock:
            values = self.rounds.get(round_id)
            if values is None:
                raise TaskNotFoundError(f"no round with id {round_id}")
            return self._context(values["task_id"], round_id, contents)

    def has_queued_round(self, task_id: str) -> bool:
        """Whether a round of the chunk's task is ``queued`` (``ReviewStore.has_queued_round``)."""
        with self._lock:
            queued = RoundStatus.QUEUED.value
            return any(self.rounds[rid]["status"] == queued for rid in self._task_rounds[task_id])

    def _context(self, task_id: str, focus: int | None, contents: Contents) -> TaskContext:
        task = self._task_records.get(task_id)
        if task is None:  # read again after a change (an escalation)
            task = task_record(SimpleNamespace(**self.tasks[task_id]), task_id=task_id)
            self._task_records[task_id] = task
        records = tuple(
            self._record(rid, focus, contents)
            if rid == focus
            else self._kept_record(rid, contents)
            for rid in self._task_rounds[task_id]
        )
        return TaskContext(task=task, rounds=records)

    def _kept_record(self, rid: int, contents: Contents) -> RoundRecord:
        """The record of a round not in focus, built once until the round is written."""
        kept = self._records.get(rid)
        if kept is None:
            kept = self._records[rid] = {}
        record = kept.get(contents)
        if record is None:
            record = kept[contents] = self._record(rid, None, contents)
        return record

    def _touch(self, rid: int) -> None:
        """The round was written: its records are built again on the next load."""
        self._records.pop(rid, None)

    def _record(self, rid: int, focus: int | None, contents: Contents) -> RoundRecord:
        """The round as ``SqlReviewStore``'s load reads it (``sql_review._round_record``)."""
        v = self.rounds[rid]
        shown = contents == "all" or (contents == "focus" and rid == focus)
        review_id = self._round_review.get(rid)
        review = self.reviews[review_id] if review_id is not None else None
        findings = self.findings.get(rid, {})
        return RoundRecord(
            id=rid,
            number=v["number"],
            submission_id=v["submission_id"],
            status=RoundStatus(v["status"]),
            final=bool(v["final"]),
            turn=v["turn"],
            content=v["content"] if shown else None,
            tool_calls_json=v["tool_calls"] if contents != "none" else None,
            tool_results_json=v["tool_results"] if contents != "none" else None,
            content_hash=v["content_hash"],
            plan=self._plan(rid, v),
            review_key=v["review_key"],
            review_id=review_id,
            review_status=ReviewStatus(review["status"]) if review else None,
            review_score=review.get("score") if review else None,
            review_error=review.get("error") if review else None,
            # Only a review step reads it, of the round in focus: looked up for that one alone.
            reusable_review=self._reusable(v["review_key"], rid) if rid == focus else None,
            decided=rid in self.decisions,
            approval=None,  # a person approves only once the chunk is stored
            findings=len(findings),
            p0_findings=sum(1 for f in findings.values() if f["severity"] == Severity.P0.value),
            attempts=v.get("attempts") or 0,
            judge_retries=v.get("judge_retries") or 0,
            rate_waits=v.get("rate_waits") or 0,
        )

    def _plan(self, rid: int, v: dict[str, Any]) -> RoundPlan:
        """The round's plan as a load reads it (kept until the plan columns change)."""
        columns = (bool(v["plan_critic"]), bool(v["plan_discriminate"]), v["plan_reason"] or "")
        kept = self._plans.get(rid)
        if kept is None or kept[0] != columns:
            critic, discriminate, reason = columns
            kept = (columns, RoundPlan(critic=critic, discriminate=discriminate, reason=reason))
            self._plans[rid] = kept
        return kept[1]

    def _reusable(self, key: str | None, rid: int | None) -> int | None:
        """The earliest good review with ``key`` on another round: the store's before the chunk's."""
        if key is None:
            return None
        stored = self._stored_review(key)
        if stored is not None:
            return stored
        return next(
            (
                review_id
                for review_id in self._keyed.get(key, ())  # in creation order: -1, -2, ...
                if self.reviews[review_id]["round_id"] != rid
            ),
            None,
        )

    def _stored_review(self, key: str) -> int | None:
        """The earliest good review with ``key`` in the results store (``find_review_id``)."""
        if self._engine is None:
            return None
        if key not in self._stored_reviews:
            if self._conn is None:
                self._conn = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
                self._find = str(_FIND_REVIEW.compile(self._conn))
            # The statement compiled once for the chunk and run on the driver's own cursor: one
            # a round whose key the chunk has not seen, so ~one a round of a new audit, where
            # SQLAlchemy's result layer cost 5x the query (58 against 10 µs on SQLite).
            params = _FIND_PARAMS[self._engine.dialect.paramstyle](key)
            dbapi = self._engine.dialect.loaded_dbapi
            try:
                cursor = self._conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
                try:
                    cursor.execute(self._find, params)
                    row = cursor.fetchone()
                finally:
                    cursor.close()
            except dbapi.Error as exc:  # as SQLAlchemy would raise it: the job retries a store
                raise DBAPIError.instance(self._find, params, exc, dbapi.Error) from exc
            self._stored_reviews[key] = row[0] if row else None
        return self._stored_reviews[key]

    def close(self) -> None:
        """Give back the connection the review lookups held (``flush`` does it too)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def load_review(self, review_id: int) -> tuple[int, Review]:
        """A good review (of this chunk, or of the results store), with its round's id."""
        with self._lock:
            if review_id > 0:
                if self._stored is None:
                    raise KeyError(review_id)
                return self._stored.load_review(review_id)
            v = self.reviews[review_id]
            dims = [SimpleNamespace(**d) for d in self.dimensions.get(review_id, [])]
            return v["round_id"], review_of(SimpleNamespace(**v), dims)

    def find_review_id(self, review_key: str) -> int | None:
        """The earliest good review with this key: the results store's, else the chunk's."""
        with self._lock:
            return self._reusable(review_key, None)

    def findings_up_to(self, task_id: str, number: int) -> list[tuple[int, Finding]]:
        """``(round_number, finding)`` of the task's rounds 1..number, by round, severity, order."""
        with self._lock:
            found = []
            for rid in self._task_rounds.get(task_id, []):
                n = self.rounds[rid]["number"]
                if n > number:
                    continue
                for seq, f in enumerate(self.findings.get(rid, {}).values()):
                    found.append((n, f["severity"], seq, f))
            found.sort(key=lambda item: item[:3])
            return [(n, finding_model(SimpleNamespace(**f))) for n, _, _, f in found]

    def audit_runs(self, round_id: int) -> set[str]:
        """The audit roles that already ran on the round."""
        with self._lock:
            return set(self.runs.get(round_id, {}))

    def latest_must_fix(self, task_id: str) -> list[str]:
        """The must_fix of the task's latest decision (empty when none is made)."""
        with self._lock:
            decided = [rid for rid in self._task_rounds.get(task_id, []) if rid in self.decisions]
            if not decided:
                return []
            latest = max(decided, key=lambda rid: self.rounds[rid]["number"])
            return [str(item) for item in loads_list(self.decisions[latest]["must_fix"])]

    # -- writes ----------------------------------------------------------------------------

    def add_task(self, task_id: str, found: Classification, new: NewTask) -> None:
        """Keep a classified task unless the chunk has one with this id."""
        with self._lock:
            if task_id not in self.tasks:
                self.tasks[task_id] = clean_row(task_values(task_id, found, new))

    def insert_round(self, new: NewRound) -> tuple[int, bool]:
        """Keep a round (and take its submission) as ``SqlReviewStore.insert_round`` stores it."""
        with self._lock:
            stored = self._by_submission.get(new.submission_id)
            if stored is not None:
                return stored, False
            numbers = {self.rounds[rid]["number"] for rid in self._task_rounds[new.task_id]}
            if new.number in numbers:
                raise RoundNumberTakenError(
                    f"round {new.number} of task {new.task_id!r} is already held by another "
                    "submission; submit without a round number to get the next one"
                )
            rid, self._next_round = self._next_round, self._next_round - 1
            self.rounds[rid] = round_values(new, utcnow())
            self._by_submission[new.submission_id] = rid
            ids = self._task_rounds[new.task_id]
            ids.append(rid)
            ids.sort(key=lambda i: self.rounds[i]["number"])
            if new.prepared is not None:
                self._write_prepared(rid, new.task_id, new.prepared)
            self.taken.append(new.submission_id)
            return rid, True

    def claim_round(self, round_id: int, prepared: Prepared) -> bool:
        """Move a queued round to dispatched with its plan and findings; True for one caller."""
        with self._lock:
            v = self.rounds[round_id]
            if v["status"] != RoundStatus.QUEUED.value:
                return False
            status = RoundStatus.DECIDED if prepared.decision else RoundStatus.DISPATCHED
            self._touch(round_id)
            v.update(
                status=status.value, status_at=utcnow(), retry_at=None, **plan_values(prepared.plan)
            )
            self._write_prepared(round_id, v["task_id"], prepared)
            return True

    def _write_prepared(self, round_id: int, task_id: str, prepared: Prepared) -> None:
        self._add_findings(round_id, prepared.findings)
        if prepared.escalation is not None:
            self._task_records.pop(task_id, None)
            to = prepared.escalation.to
            self.tasks[task_id].update(
                clean_row(
                    {
                        "task_type": to.task_type.value,
                        "complexity": to.complexity.value,
                        "classification_source": to.source,
                        "confidence": to.confidence,
                        "escalated": True,
                        "escalation_reason": prepared.escalation.reason,
                    }
                )
            )
        if prepared.decision is not None:
            self._add_decision(round_id, task_id, prepared.decision)

    def _add_findings(self, round_id: int, findings: Sequence[Finding]) -> None:
        self._touch(round_id)
        kept = self.findings[round_id]
        for f in findings:  # insert-or-ignore on (round, fingerprint)
            kept.setdefault(f.fingerprint, clean_row(finding_values(round_id, f)))

    def _add_decision(self, round_id: int, task_id: str, decision: Any) -> None:
        self._touch(round_id)
        if round_id not in self.decisions:  # insert-or-ignore on the round
            self.decisions[round_id] = clean_row(decision_values(round_id, task_id, decision))

    def begin_review(self, round_id: int, holder: str, lease_s: float) -> ReviewAttempt | None:
        """Take the round's review lease and count the delivery; None while another holds it."""
        with self._lock:
            v = self.rounds[round_id]
            now = utcnow()
            if round_id in self._round_review:
                return None
            until = v.get("lease_until")
            if until is not None and until >= now and v.get("lease_holder") != holder:
                return None
            self._touch(round_id)
            v.update(
                attempts=(v.get("attempts") or 0) + 1,
                lease_holder=holder,
                lease_until=now + timedelta(seconds=lease_s),
            )
            return ReviewAttempt(
                attempts=v["attempts"],
                judge_retries=v.get("judge_retries") or 0,
                rate_waits=v.get("rate_waits") or 0,
            )

    def release_review(self, round_id: int, holder: str) -> None:
        """End the named holder's review attempt."""
        with self._lock:
            self._release(self.rounds[round_id], holder)

    @staticmethod
    def _release(v: dict[str, Any], holder: str) -> None:
        if v.get("lease_holder") == holder:
            v.update(lease_holder=None, lease_until=None)

    def settle(self, round_id: int, task_id: str, outcome: Settlement) -> None:
        """Keep ``outcome`` on the round (see ``Settlement``), as one transaction would write it."""
        with self._lock:
            if outcome.review is not None:
                self._add_review(
                    review_values(
                        round_id,
                        outcome.review,
                        review_key=outcome.review_key,
                        reused_from=outcome.reused_from,
                    ),
                    dimension_values(0, outcome.review),
                )
            elif outcome.failure is not None:
                judge, error, raw = outcome.failure
                self._add_review(failure_values(round_id, judge=judge, error=error, raw=raw), [])
            if outcome.decision is not None:
                self._add_decision(round_id, task_id, outcome.decision)
            v = self.rounds[round_id]
            self._touch(round_id)
            if outcome.status is not None:
                v.update(
                    status=outcome.status.value,
                    status_at=utcnow(),
                    error=clean_row({"e": outcome.error})["e"],
                )
            if outcome.release_lease is not None:
                self._release(v, outcome.release_lease)

    def _add_review(self, values: dict[str, Any], dims: list[dict[str, Any]]) -> None:
        round_id = values["round_id"]
        if round_id in self._round_review:  # insert-or-ignore on the round
            return
        self._touch(round_id)
        review_id, self._next_review = self._next_review, self._next_review - 1
        self.reviews[review_id] = clean_row(values)
        self._round_review[round_id] = review_id
        if values["status"] == ReviewStatus.OK.value and values.get("review_key"):
            self._keyed[values["review_key"]].append(review_id)
        if dims:
            self.dimensions[review_id] = [clean_row({**d, "review_id": review_id}) for d in dims]

    def note_retry(
        self, round_id: int, holder: str, *, judge_error: str | None, parked_until: Any
    ) -> None:
        """Count a judge retry (``judge_error``) or a rate-limit wait, park it, end the lease."""
        with self._lock:
            v = self.rounds[round_id]
            self._touch(round_id)
            v["retry_at"] = parked_until
            self._release(v, holder)
            if judge_error is not None:
                v["judge_retries"] = (v.get("judge_retries") or 0) + 1
                v["retry_reason"] = clean_row({"r": judge_error[:500]})["r"]
            else:
                v["rate_waits"] = (v.get("rate_waits") or 0) + 1

    def save_role_run(
        self,
        round_id: int,
        role: str,
        findings: Sequence[Finding],
        *,
        error: str | None,
        duration_ms: float,
    ) -> None:
        """Keep one audit role's findings and its run (once per role)."""
        with self._lock:
            self._add_findings(round_id, findings)
            runs = self.runs[round_id]
            if role not in runs:
                runs[role] = clean_row(
                    role_run_values(
                        round_id, role, len(findings), error=error, duration_ms=duration_ms
                    )
                )

    # -- the chunk as a whole --------------------------------------------------------------

    def drop_task(self, task_id: str) -> list[str]:
        """Forget a task and everything kept for it (it goes to the per-round path instead).

        Returns:
            The submission ids of its rounds that were kept (no longer taken).
        """
        with self._lock:
            self.tasks.pop(task_id, None)
            self._task_records.pop(task_id, None)
            dropped = []
            for rid in self._task_rounds.pop(task_id, []):
                v = self.rounds.pop(rid)
                self._touch(rid)
                dropped.append(v["submission_id"])
                self._by_submission.pop(v["submission_id"], None)
                review_id = self._round_review.pop(rid, None)
                if review_id is not None:
                    gone_review = self.reviews.pop(review_id, None) or {}
                    self.dimensions.pop(review_id, None)
                    keyed = self._keyed.get(gone_review.get("review_key") or "", [])
                    if review_id in keyed:
                        keyed.remove(review_id)
                self.findings.pop(rid, None)
                self.decisions.pop(rid, None)
                self.runs.pop(rid, None)
            gone = set(dropped)
            self.taken = [sid for sid in self.taken if sid not in gone]
            return dropped

    def submission_of(self, round_id: int) -> str:
        """The submission id of a kept round."""
        with self._lock:
            return str(self.rounds[round_id]["submission_id"])

    def flush(self, engine: Engine) -> dict[int, int]:
        """Write every kept row in one transaction, with bulk inserts.

        Returns:
            The real id of each kept round, by the negative id the steps saw.

        Raises:
            ChunkConflictError: some of the chunk's tasks are in the store already (another
                worker's per-round path stored them); nothing was written.
            sqlalchemy.exc.SQLAlchemyError: the store failed; nothing was written.
        """
        self.close()
        with self._lock, engine.begin() as conn:
            return write_chunk(conn, self)
