"""The sweeper: what the queue dropped, the store still knows, and the sweeper sends again.

A worker can die after Redis handed it a job and before kombu recorded it (kombu#305): the
queue then holds neither a queued nor an unacknowledged copy. The store does: every submission
is in the outbox before its intake job is published, and every round carries its state and
when it entered it (``RoundState.status_at``). Every ``QGS_WORKER__SWEEP_INTERVAL_S`` seconds
(default 30) one worker at a time (a lease in the store, so it works on any broker) sweeps:

- a submission no intake took within the bound is published again;
- a queued round whose turn came (every earlier round decided) but that nobody claimed is
  claimed and dispatched;
- a dispatched round without a decision past the bound (and no review attempt running: its
  lease) is dispatched again, and a parked judge retry whose time came is dispatched;
- a decided round with a callback URL and no webhook delivery stored (the worker was lost
  between the decision's commit and the decided listener) gets its delivery stored and its
  job enqueued, and a pending delivery nobody enqueued or tried within the bound (its job was
  lost) is enqueued again (``qgs_worker.webhooks``); so is an approval's webhook nobody tried;
- a decided round of the last ``QGS_SPOTCHECK__BACKFILL_S`` with no spot-check sampling decision
  (the worker was lost before its decided listener sampled it) is sampled, once
  (``Repository.backfill_samples``; nothing when sampling is off).

The bound is the broker's visibility timeout (``QGS_WORKER__VISIBILITY_TIMEOUT_S``): a job
younger than it may still be queued, running or about to be redelivered by Redis. Every job is
idempotent (claims and unique keys), so a second dispatch is harmless. A round dispatched
again more than ``QGS_WORKER__SWEEP_MAX_REDISPATCHES`` times fails with its reason (the
gate's decision is ``revise``, never a pass); a submission published that often goes to the
dead letters. The bound doubles with each re-dispatch of the same round or submission
(``backed_off``), so a backlog longer than the bound is not flooded with copies. Guarantee: after a fault, once a worker runs again, every round is decided within
the visibility timeout plus two sweep intervals (plus its own processing time).
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from celery.signals import worker_ready, worker_shutdown

from qgs_worker.config.settings import Settings
from qgs_worker.core.models import ROUND_UNFINISHED, RoundStatus
from qgs_worker.core.spotcheck import SamplePolicy
from qgs_worker.core.webhooks import APPROVAL_EVENT, DECISION_EVENT
from qgs_worker.service.records import OutboxEntry, RoundState
from qgs_worker.store import Repository, as_utc, utcnow

log = logging.getLogger(__name__)

SWEEPER_LEASE = "sweeper"
"""The name of the lease one sweeper at a time holds (``LeaseRow.name``)."""


@dataclass(frozen=True)
class SweepPolicy:
    """How long a job may take before it counts as lost, and how often to try again.

    Attributes:
        bound_s: A submission not taken, or a dispatched round not decided, this many seconds
            after it was sent is sent again (the visibility timeout).
        interval_s: Seconds between two sweeps of one worker.
        max_redispatches: Re-dispatches of one round (re-publishes of one submission) before
            it fails with its reason.
        sample: The spot-check sampling rates (off: no backfill).
        sample_window_s: How far back, in seconds, a decided round without a sampling
            decision is sampled.
    """

    bound_s: float = 3600.0
    interval_s: float = 30.0
    max_redispatches: int = 5
    sample: SamplePolicy = field(default_factory=SamplePolicy)
    sample_window_s: float = 86_400.0

    @classmethod
    def from_settings(cls, settings: Settings) -> SweepPolicy:
        """The policy of ``QGS_WORKER__VISIBILITY_TIMEOUT_S``, ``SWEEP_*`` and ``QGS_SPOTCHECK__*``."""
        w = settings.worker
        return cls(
            bound_s=w.visibility_timeout_s,
            interval_s=w.sweep_interval_s,
            max_redispatches=w.sweep_max_redispatches,
            sample=settings.spotcheck.sample_policy(),
            sample_window_s=settings.spotcheck.backfill_s,
        )


@dataclass
class SweepResult:
    """What one sweep did: ids of the submissions and rounds it touched."""

    republished: list[str] = field(default_factory=list)
    given_up: list[str] = field(default_factory=list)
    claimed: list[int] = field(default_factory=list)
    redispatched: list[int] = field(default_factory=list)
    retried: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    gaps: list[int] = field(default_factory=list)
    webhooks: list[int] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)
    """Rounds given their spot-check sampling decision late (their listener was lost)."""
    errors: list[str] = field(default_factory=list)
    """One line per item the sweep could not handle (it goes on with the others)."""

    @property
    def anything(self) -> bool:
        """True when the sweep sent or failed anything."""
        return any(
            (
                self.republished,
                self.given_up,
                self.claimed,
                self.redispatched,
                self.retried,
                self.failed,
                self.gaps,
                self.webhooks,
                self.sampled,
                self.errors,
            )
        )


@dataclass(frozen=True)
class Actions:
    """What a sweep does with what it finds (the Celery side, or fakes in tests).

    Attributes:
        publish: Publish one intake message (the outbox row's payload).
        dispatch: Dispatch a round's pipeline (``dispatch.dispatch``).
        claim: Claim and prepare the task's next round if its turn came; its id or None
            (``pipeline.claim_next``).
        fail: Fail a round with a reason and return the task's next round to dispatch, or
            None (``pipeline.fail_round``).
        deliver: Enqueue one attempt at a round's webhook (``queue.webhook_starts.publish_delivery``);
            None: webhooks are not swept.
        deliver_approval: The same for the approval event of a round (``qgs.approval``).
    """

    publish: Callable[[dict[str, Any]], None]
    dispatch: Callable[[int], None]
    claim: Callable[[str], int | None]
    fail: Callable[[int, str], int | None]
    deliver: Callable[[int], None] | None = None
    deliver_approval: Callable[[int], None] | None = None


class RoundClock(Protocol):
    """What ``overdue`` reads of a round: a ``RoundState``, or a report's ``RoundFacts``."""

    @property
    def status(self) -> str:
        """queued, dispatched, decided or failed."""

    @property
    def status_at(self) -> datetime | None:
        """When the round entered its status."""

    @property
    def retry_at(self) -> datetime | None:
        """When a parked judge retry is due."""

    @property
    def lease_until(self) -> datetime | None:
        """Until when a review attempt holds the round."""

    @property
    def sweeps(self) -> int | None:
        """How often the sweeper dispatched the round again."""


def overdue(row: RoundClock, bound_s: float, now: datetime | None = None) -> str | None:
    """Why a round is overdue (state and since when), or None when it is not.

    A queued or dispatched round is overdue once it sat in its state longer than ``bound_s``
    seconds, not counting a parked retry that is not due yet or a review attempt running now.
    """
    if row.status not in ROUND_UNFINISHED or row.status_at is None:
        return None
    now = now or utcnow()
    since = as_utc(row.status_at)
    due = since + timedelta(seconds=backed_off(bound_s, row.sweeps or 0))
    for later in (row.retry_at, row.lease_until):
        if later is not None:
            due = max(due, as_utc(later))
    if due >= now:
        return None
    return f"{RoundStatus(row.status).value} since {since.isoformat(timespec='seconds')} ({_age(now - since)} ago)"


BACKOFF_DOUBLINGS_MAX = 10
"""The bound doubles with each re-dispatch, at most this many times (1,024 bounds)."""


def backed_off(bound_s: float, times: int) -> float:
    """The bound after ``times`` re-dispatches (or re-publishes): it doubles each time.

    The first re-dispatch comes one bound after a fault (the guarantee); the later ones wait
    longer, so a queue that is only slow (a backlog longer than the bound) is not flooded
    with copies, and its rounds are not failed for "too many re-dispatches" before
    ``bound_s * (2**max_redispatches - 1)`` seconds of backlog.
    """
    return bound_s * float(2 ** min(max(times, 0), BACKOFF_DOUBLINGS_MAX))


def _age(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


def _broker_or_store_down(exc: BaseException) -> bool:
    """An error every other item would hit too: the sweep stops, and runs again next interval."""
    from kombu.exceptions import OperationalError as BrokerError
    from sqlalchemy.exc import DBAPIError

    return isinstance(exc, (BrokerError, DBAPIError, OSError))


@contextmanager
def _alone(result: SweepResult, what: str) -> Iterator[None]:
    """One item of a sweep fails alone: logged and noted in ``result.errors``, the sweep goes on.

    A store or broker that is down is not one item's fault: it stops the sweep (re-raised).
    """
    try:
        yield
    except Exception as exc:
        if _broker_or_store_down(exc):
            raise
        log.exception("sweep: %s failed; going on with the others", what)
        result.errors.append(f"{what}: {type(exc).__name__}: {exc}")


def sweep(
    repo: Repository, policy: SweepPolicy, actions: Actions, now: datetime | None = None
) -> SweepResult:
    """Send again what the queue lost; fail what was sent too often. Idempotent.

    Args:
        repo: The results store.
        policy: The bound and the limits.
        actions: How to publish, dispatch, claim and fail.
        now: The time of the sweep (UTC); now when None.

    Returns:
        What was done.
    """
    now = now or utcnow()
    result = SweepResult()
    cutoff = now - timedelta(seconds=policy.bound_s)
    for sent in repo.untaken_outbox(cutoff):
        with _alone(result, f"submission {sent.submission_id!r}"):
            _republish(repo, policy, actions, sent, now, result)
    rounds = repo.unfinished_rounds()
    for task_id in dict.fromkeys(r.task_id for r in rounds if r.status == RoundStatus.QUEUED):
        with _alone(result, f"claiming the next round of task {task_id!r}"):
            claimed = actions.claim(task_id)
            if claimed is not None:
                actions.dispatch(claimed)
                result.claimed.append(claimed)
    _fill_gaps(repo, policy, actions, rounds, now, result)
    for row in rounds:
        if row.status != RoundStatus.DISPATCHED or row.id is None:
            continue
        with _alone(result, f"round {row.id} of task {row.task_id!r}"):
            _resend(repo, policy, actions, row, now, result)
    if actions.deliver is not None:
        with _alone(result, "the webhooks to enqueue"):
            _sweep_webhooks(repo, cutoff, now, actions.deliver, result)
    if actions.deliver_approval is not None:
        with _alone(result, "the approval webhooks to enqueue"):
            _sweep_webhooks(repo, cutoff, now, actions.deliver_approval, result, APPROVAL_EVENT)
    if not policy.sample.off:
        with _alone(result, "the spot-check samples"):
            since = now - timedelta(seconds=policy.sample_window_s)
            result.sampled = repo.backfill_samples(policy.sample, since)[0]
    return result


def _republish(
    repo: Repository,
    policy: SweepPolicy,
    actions: Actions,
    sent: OutboxEntry,
    now: datetime,
    result: SweepResult,
) -> None:
    """Publish again a submission no intake took within the bound (or give it up)."""
    if sent.last_published > now - timedelta(
        seconds=backed_off(policy.bound_s, sent.published - 1)
    ):
        return
    if sent.published > policy.max_redispatches:
        reason = (
            f"submission {sent.submission_id!r} was published {sent.published} times and no "
            "intake took it; is a worker consuming qgs.critic (where intake runs)?"
        )
        repo.give_up_outbox(sent.submission_id, reason)
        repo.save_dead_letter(
            "qgs.review.intake",
            reason,
            sent.payload,
            submission_id=sent.submission_id,
            task_id=sent.task_id,
        )
        result.given_up.append(sent.submission_id)
    elif repo.republish_outbox(sent.submission_id, sent.published):
        actions.publish(json.loads(sent.payload))
        result.republished.append(sent.submission_id)


def _resend(
    repo: Repository,
    policy: SweepPolicy,
    actions: Actions,
    row: RoundState,
    now: datetime,
    result: SweepResult,
) -> None:
    """Dispatch again a round dispatched without a decision past the bound (or fail it)."""
    assert row.id is not None
    lease = as_utc(row.lease_until) if row.lease_until is not None else None
    if lease is not None and lease > now:
        return  # a review attempt runs now
    if row.retry_at is not None:
        if as_utc(row.retry_at) <= now and repo.redispatch_round(row.id, count_sweep=False):
            actions.dispatch(row.id)
            result.retried.append(row.id)
        return
    if overdue(row, policy.bound_s, now) is None:
        return
    if (row.sweeps or 0) >= policy.max_redispatches:
        why = f"; last judge error: {row.retry_reason}" if row.retry_reason else ""
        nxt = actions.fail(
            row.id,
            f"dispatched {(row.sweeps or 0) + 1} times without a decision (a worker lost "
            f"the job each time?){why}",
        )
        result.failed.append(row.id)
        if nxt is not None:
            actions.dispatch(nxt)
    elif repo.redispatch_round(row.id, count_sweep=True):
        log.warning(
            "round %s of task %s was %s; dispatching it again",
            row.id,
            row.task_id,
            overdue(row, policy.bound_s, now),
        )
        actions.dispatch(row.id)
        result.redispatched.append(row.id)


def _sweep_webhooks(
    repo: Repository,
    cutoff: datetime,
    now: datetime,
    deliver: Callable[[int], None],
    result: SweepResult,
    event: str = DECISION_EVENT,
) -> None:
    """Enqueue the webhooks the decided listener never stored, and the pending ones lost since.

    Whoever stores a delivery enqueues it (``start_webhook`` is True for one caller), so the
    listener and the sweeper never both enqueue a new one; a pending delivery is enqueued again
    once nobody touched it since ``cutoff`` (its job was lost; a retry waits far less). An
    approval's webhook (``event`` ``qgs.approval``) is stored with the approval and enqueued by
    the approving process: one whose process had no broker (``qgs approve`` without
    ``QGS_BROKER_URL``) or whose job was lost is enqueued here.
    """
    if event == DECISION_EVENT:
        for round_id in repo.unstarted_webhooks():
            if repo.start_webhook(round_id):
                deliver(round_id)
                result.webhooks.append(round_id)
    for round_id in repo.stale_webhooks(cutoff, now, event=event):
        if repo.touch_webhook(round_id, cutoff, now, event=event):
            log.warning(
                "the %s webhook of round %s was not tried within the bound; enqueuing it",
                event,
                round_id,
            )
            deliver(round_id)
            result.webhooks.append(round_id)


def _fill_gaps(
    repo: Repository,
    policy: SweepPolicy,
    actions: Actions,
    rounds: list[RoundState],
    now: datetime,
    result: SweepResult,
) -> None:
    """Fail the round numbers nobody submitted that hold an overdue queued round.

    A round sent with an explicit number past the next free one (``Client.send``, another
    client's numbering) waits for rounds that never come. Once it is overdue, each missing
    number no submission on its way holds (the outbox) is stored as a failed round with the
    reason, so the task goes on with the rounds that exist, and the gap shows in ``qgs status``.
    """
    waiting: dict[str, int] = {}
    for row in rounds:
        if row.status == RoundStatus.QUEUED and overdue(row, policy.bound_s, now) is not None:
            waiting[row.task_id] = max(waiting.get(row.task_id, 0), row.number)
    for task_id, highest in waiting.items():
        with _alone(result, f"the missing rounds of task {task_id!r}"):
            _fail_missing(repo, policy, actions, task_id, highest, result)


def _fail_missing(
    repo: Repository,
    policy: SweepPolicy,
    actions: Actions,
    task_id: str,
    highest: int,
    result: SweepResult,
) -> None:
    """Store each round number below ``highest`` nobody submitted as failed, with the reason."""
    for number in repo.missing_round_numbers(task_id, highest):
        reason = (
            f"round {number} was never submitted, and round {highest} waited for it past "
            f"the bound ({policy.bound_s:g} s)"
        )
        round_id = repo.store_placeholder_round(f"gap:{task_id}:{number}", task_id, number, reason)
        if round_id is None:
            continue
        result.gaps.append(round_id)
        ready = actions.fail(round_id, reason)
        if ready is not None:
            actions.dispatch(ready)


class Sweeper:
    """A worker's sweeper: a daemon thread that sweeps every interval while it holds the lease.

    It builds its own store connection (never the jobs' one: a prefork pool forks after it
    started) and sweeps once at start, so a new worker picks up what a lost one left within
    one bound.

    Args:
        app: The worker's Celery app (``create_celery_app``), to publish with.
        settings: QGS settings.
    """

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.policy = SweepPolicy.from_settings(settings)
        self.holder = f"{uuid.uuid4().hex[:12]}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._repo: Repository | None = None
        self._policies: Any = None

    @property
    def repo(self) -> Repository:
        """The sweeper's own connection to the store (built on first use)."""
        if self._repo is None:
            self._repo = Repository(self.settings.resolved_database_url)
        return self._repo

    def start(self) -> None:
        """Start the thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="qgs-sweeper", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop the thread and give the lease back."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
        if self._repo is not None:
            try:
                self._repo.release_lease(SWEEPER_LEASE, self.holder)
            except Exception:
                log.warning("the sweeper could not give its lease back", exc_info=True)
            self._repo.dispose()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.sweep_once()
            except Exception:
                log.exception("sweep failed; trying again in %s s", self.policy.interval_s)
            self._stop.wait(self.policy.interval_s)

    def sweep_once(self) -> SweepResult | None:
        """One sweep if this worker gets the lease; None when another sweeper holds it."""
        repo = self.repo
        if not repo.take_lease(SWEEPER_LEASE, self.holder, self.policy.interval_s):
            return None
        try:
            done = sweep(repo, self.policy, self._actions())
        finally:
            repo.release_lease(SWEEPER_LEASE, self.holder)
        if done.anything:
            log.warning(
                "sweep: %d submissions published again, %d given up, %d rounds claimed, "
                "%d dispatched again, %d retries due, %d failed, %d webhooks enqueued, "
                "%d rounds given their spot-check sample, %d items that failed alone",
                len(done.republished),
                len(done.given_up),
                len(done.claimed),
                len(done.redispatched),
                len(done.retried),
                len(done.failed),
                len(done.webhooks),
                len(done.sampled),
                len(done.errors),
            )
        return done

    def _actions(self) -> Actions:
        from qgs_worker.queue import pipeline, worker_runtime
        from qgs_worker.queue.dispatch import dispatch as dispatch_round
        from qgs_worker.queue.publish import publish_intake
        from qgs_worker.queue.webhook_starts import publish_delivery

        repo = self.repo
        if self._policies is None:
            self._policies = worker_runtime.policies_for(self.settings)
        policies = self._policies

        def dispatch(round_id: int) -> None:
            dispatch_round(round_id, repo, app=self.app)

        return Actions(
            publish=lambda message: publish_intake(self.app, message),
            dispatch=dispatch,
            claim=lambda task_id: pipeline.claim_next(repo, task_id, policies),
            fail=lambda round_id, error: pipeline.fail_round(repo, round_id, error, policies),
            deliver=lambda round_id: publish_delivery(self.app, round_id),
            deliver_approval=lambda round_id: publish_delivery(self.app, round_id, APPROVAL_EVENT),
        )


_sweepers: dict[int, Sweeper] = {}


def _start_sweeper(sender: Any = None, **_: Any) -> None:
    """Start the worker's sweeper and keep undecodable messages as dead letters.

    Connected when ``qgs_worker.queue.jobs`` is imported; Celery sends ``worker_ready`` from
    ``qgs worker`` and ``celery worker`` (not from the test helper ``start_worker``).
    """
    app = getattr(sender, "app", None)
    settings = getattr(app, "qgs_settings", None)
    if app is None or settings is None:
        return
    from qgs_worker.queue.deadletters import keep_undecodable

    sweeper = Sweeper(app, settings)
    _sweepers[id(app)] = sweeper
    keep_undecodable(sender, lambda: sweeper.repo)
    sweeper.start()


def _stop_sweeper(**_: Any) -> None:
    for sweeper in list(_sweepers.values()):
        sweeper.stop()
    _sweepers.clear()


worker_ready.connect(_start_sweeper, weak=False)
worker_shutdown.connect(_stop_sweeper, weak=False)
