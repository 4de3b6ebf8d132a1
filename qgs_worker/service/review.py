"""The review use cases: take a submitted round, review it, audit it, decide it, go on.

``ReviewService`` owns the review logic between the jobs and the core. It works on a store port
(``service.ports.ReviewStore``) in core values: each step loads what it needs once and writes its
results in one transaction, and returns what the caller must do next (a ``Dispatch``: the round
whose jobs to send, with its plan). A task's rounds run one after another (the gate needs the
earlier scores): a round is dispatched once every earlier round is decided or failed.

A round on which nothing is due (no review, no audit) is decided as it is stored; one with a
review due and no audit is reviewed and decided in one step (``review(..., then_decide=True)``).
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from qgs_worker.core import gate, review_checks, rubric
from qgs_worker.core.deadline import within
from qgs_worker.core.models import (
    Classification,
    Deliverable,
    Review,
    ReviewRequest,
    ReviewStatus,
    RoundStatus,
)
from qgs_worker.core.ports import Judge
from qgs_worker.core.spotcheck import Shadow
from qgs_worker.errors import (
    JudgeResponseError,
    JudgeUnavailableError,
    RoundNumberTakenError,
    TaskNotFoundError,
)
from qgs_worker.service.deciding import (
    decision_at_intake,
    decision_on,
    earlier_p0_findings,
    task_history,
)
from qgs_worker.service.observer import ReviewObserver, tell
from qgs_worker.service.policies import Policies, ReviewLimits
from qgs_worker.service.ports import Prepared, ReviewLease, ReviewStore, Settlement
from qgs_worker.service.preparing import prepare_round
from qgs_worker.service.records import (
    Dispatch,
    ReviewAttempt,
    RoundRecord,
    TaskContext,
    TaskRecord,
)
from qgs_worker.service.requests import new_round, review_key, review_request_of
from qgs_worker.service.submission import Submission
from qgs_worker.service.tasks import classify

__all__ = ["ReviewOutcome", "ReviewService", "short_error"]

log = logging.getLogger(__name__)

ROUND_NUMBER_TRIES = 20
"""How often intake takes the next free round number when a concurrent intake took it first."""

ERROR_CHARS = 500
"""Stored error reasons keep their first line, at most this many characters."""


def short_error(error: str) -> str:
    """The first line of an error message, cut to ``ERROR_CHARS`` (a database error quotes SQL)."""
    first = error.strip().splitlines()[0] if error.strip() else "unknown error"
    return first if len(first) <= ERROR_CHARS else first[: ERROR_CHARS - 1] + "…"


def _backoff_s(retries: int, retry_after_s: float | None, cap_s: float) -> float:
    """Seconds before retry ``retries + 1``: 2**retries with +-50% jitter, capped; Retry-After wins."""
    delay = min(cap_s, float(2**retries)) * random.uniform(0.5, 1.5)
    return max(delay, retry_after_s or 0.0)


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    """How a review step ended, for its job.

    Attributes:
        held_elsewhere: Another attempt holds the round's lease: nothing was done here.
        retry_in_s: Run the job again after this many seconds (held in the worker).
        parked: The retry was parked in the store; the sweeper dispatches the round when due.
        next: The round to dispatch now (after a decision), or None.
    """

    held_elsewhere: bool = False
    retry_in_s: float | None = None
    parked: bool = False
    next: Dispatch | None = None


class ReviewService:
    """The review use cases over a store port (intake, review, decide, fail, advance).

    Args:
        store: The store port (``store.sql_review.SqlReviewStore``).
        policies: Gate and cadence policies, the policy decision point, the tools' registry.
        judge: The critic (needed by ``review``; its name keys reusable reviews at intake).
        limits: The review's retry and lease limits.
        llm: The classifier's LLM layer, for a new task the rules cannot settle.
        admit: The shared rate limit: given a prompt's size in characters, 0.0 to call now,
            else the seconds to wait.
        on_decided: Called as ``on_decided(task_id, round_id)`` after a transaction that
            stored a round's decision has committed (for notifications and pushed decisions).
            At least once: a redelivered step may call it again for the same round, so a
            listener must be idempotent. It is not called for a step that stored no decision.
            Its errors are logged and swallowed: the decision is stored, and a listener must
            not turn a stored decision into a failed job.
        observer: Told each review, finding, decision and judge call the steps store or make
            (``service.observer.ReviewObserver``: telemetry); None tells nothing.
        shadow: Called before each decision for the rules and judges held in shadow (recorded,
            not deciding: ``core.spotcheck.Shadow``); it should be cheap (a cached read). Its
            errors are logged and the round is decided with none held: failing open to the
            deciding state is failing closed for the gate (every finding decides).
    """

    def __init__(
        self,
        store: ReviewStore,
        policies: Policies,
        *,
        judge: Judge | None = None,
        limits: ReviewLimits | None = None,
        llm: Callable[[str], Classification] | None = None,
        admit: Callable[[int], float] | None = None,
        on_decided: Callable[[str, int], None] | None = None,
        observer: ReviewObserver | None = None,
        shadow: Callable[[], Shadow] | None = None,
    ) -> None:
        self.store = store
        self.policies = policies
        self.judge = judge
        self.limits = limits or ReviewLimits()
        self.llm = llm
        self.admit = admit
        self.on_decided = on_decided
        self.observer = observer
        self.shadow = shadow

    def _shadow(self) -> Shadow | None:
        """The rules and judges in shadow now (None: none, or the provider failed)."""
        if self.shadow is None:
            return None
        try:
            return self.shadow()
        except Exception:  # every finding and verdict decides: the gate's closed side
            log.exception("the shadow provider failed: deciding with nothing in shadow")
            return None

    def _decided(self, task_id: str, round_id: int) -> None:
        """Tell the listener a decision on the round is stored (see ``on_decided``)."""
        if self.on_decided is None:
            return
        try:
            self.on_decided(task_id, round_id)
        except Exception:  # the decision is stored; a listener's failure is not the round's
            log.exception("round %s: the on_decided listener failed", round_id)

    # -- intake ----------------------------------------------------------------------------

    def intake(
        self, sub: Submission, *, redelivered: bool = False, review_holder: str | None = None
    ) -> Dispatch | None:
        """Store a submitted round (and its task); prepare it when its turn has come.

        A round whose earlier rounds are all done is stored ready (dispatched, with its detector
        findings and plan; decided at once when nothing is due); otherwise it is stored queued and
        claimed by whichever step finishes its predecessor.

        Args:
            sub: The validated submission.
            redelivered: The broker redelivered this message (a worker was lost): a round left
                dispatched without a decision is dispatched again (its effects are idempotent).
            review_holder: The caller reviews a ready round in place (``review`` with this
                holder): a round stored now with a review due is stored holding that holder's
                review lease (``Dispatch.lease``), one write transaction fewer than taking it
                in ``review``. A round that was stored before, or claimed here behind an
                earlier one, is dispatched without a lease.

        Returns:
            The round whose jobs the caller must send now, or None.

        Raises:
            TaskNotFoundError: the task is not stored and the submission does not describe it.
            RoundNumberTakenError: the explicit round number is held by another submission.
        """
        context = self._context_for(sub)
        if context.find(submission_id=sub.submission_id) is not None:
            return self.advance(context.task.id, redelivered=redelivered)
        d = sub.deliverable
        number = sub.round_number or context.next_number()
        for _ in range(ROUND_NUMBER_TRIES):
            prepared = None
            if context.all_done_before(number):
                prepared = prepare_round(
                    context, number, d, final=sub.final, turn=sub.turn, policies=self.policies
                )
                if not (prepared.plan.critic or prepared.plan.discriminate):
                    decision = decision_at_intake(
                        self.store,
                        self.policies.gate,
                        context,
                        number,
                        sub.final,
                        prepared.findings,
                        self._shadow(),
                    )
                    prepared = replace(prepared, decision=decision)
            lease = None
            if review_holder is not None and prepared is not None and prepared.plan.critic:
                lease = ReviewLease(review_holder, self.limits.lease_s)
            new = new_round(
                sub,
                context.task.id,
                number,
                review_key=self._review_key(context, d, sub.turn),
                prepared=prepared,
                lease=lease,
            )
            try:
                round_id, created = self.store.insert_round(new)
            except RoundNumberTakenError:
                if sub.round_number is not None and not sub.renumber_on_conflict:
                    raise
                context = self.store.load_task(context.task.id, contents="focus")
                number = context.next_number()
                continue
            if created and prepared is not None and self.observer is not None:
                self._observe_prepared(context.task, number, round_id, prepared)
            if prepared is not None and prepared.decision is not None:
                self._decided(context.task.id, round_id)
            if created and prepared is not None and prepared.decision is None:
                # A round stored with its lease is its first review attempt (``NewRound``).
                attempt = None if lease is None else ReviewAttempt(1, 0, 0)
                return Dispatch(round_id, prepared.plan, attempt)
            # Queued behind an earlier round, decided at once, or stored by a copy of this job:
            # the task's next round (maybe this one, if its turn came meanwhile) goes on.
            return self.advance(context.task.id, redelivered=redelivered)
        raise RoundNumberTakenError(
            f"no free round number for task {context.task.id!r} after {ROUND_NUMBER_TRIES} tries"
        )

    def _context_for(self, sub: Submission) -> TaskContext:
        try:
            return self.store.load_task(sub.task_id, contents="focus")
        except TaskNotFoundError:
            if sub.task is None:
                raise
        new = sub.task
        self.store.add_task(sub.task_id, classify(new.request, new.task_type, llm=self.llm), new)
        return self.store.load_task(sub.task_id, contents="focus")

    def _review_key(self, context: TaskContext, d: Deliverable, turn: str | None) -> str | None:
        if self.judge is None:
            return None  # the critic computes it (and looks the reusable review up) itself
        return review_key(review_request_of(context.task, d, turn), self.judge.name)

    def advance(self, task_id: str, *, redelivered: bool = False) -> Dispatch | None:
        """Claim and prepare the task's next round if its turn came; the round to dispatch.

        Exactly one caller wins a claim (a conditional update), so a round is dispatched once,
        except after a redelivery, when dispatching again is the safe side. A claimed round on
        which nothing is due is decided at once, and the claim goes on to the one after it.
        Outside a redelivery only a queued round can be claimed, so the task is read only when
        the store holds one (``has_queued_round``: the common step, a task's latest round
        decided, ends on one small read instead of loading the task and its rounds).
        """
        while True:
            if not redelivered and not self.store.has_queued_round(task_id):
                return None
            context = self.store.load_task(task_id)
            ready = context.ready_round()
            if ready is None:
                return None
            if ready.status == RoundStatus.DISPATCHED:
                if redelivered and not ready.decided:
                    return Dispatch(ready.id, ready.plan)
                return None
            context = self.store.load_task(task_id, focus=ready.id, contents="focus")
            ready = context.round(ready.id)
            prepared = prepare_round(
                context,
                ready.number,
                ready.deliverable(),
                final=ready.final,
                turn=ready.turn,
                policies=self.policies,
            )
            due = prepared.plan.critic or prepared.plan.discriminate
            if not due:
                decision = decision_at_intake(
                    self.store,
                    self.policies.gate,
                    context,
                    ready.number,
                    ready.final,
                    prepared.findings,
                    self._shadow(),
                )
                prepared = replace(prepared, decision=decision)
            if not self.store.claim_round(ready.id, prepared):
                return None
            if self.observer is not None:
                self._observe_prepared(context.task, ready.number, ready.id, prepared)
            if prepared.decision is not None:
                self._decided(task_id, ready.id)
            if due:
                return Dispatch(ready.id, prepared.plan)

    # -- review ----------------------------------------------------------------------------

    def review(
        self,
        round_id: int,
        *,
        then_decide: bool = False,
        holder: str | None = None,
        lease: ReviewAttempt | None = None,
    ) -> ReviewOutcome:
        """Have the judge review a round, once; a malformed answer is stored as a failure.

        One attempt at a time holds the round's lease: a redelivered copy finds it held and
        does not call the judge again. The same output, request, criteria and judge reviewed
        before is reused, not judged twice. The stored review carries the halo-effect and
        self-preference warnings that apply. A judge failure is never a silent PASS: after the
        retries it is stored, and the gate holds the round.

        Args:
            round_id: The round.
            then_decide: Decide the round in the same step (no audit is due on it).
            holder: The lease holder's id (a fresh one when None).
            lease: The attempt ``holder`` holds already (``Dispatch.lease``: taken with the
                round at intake); None to take the lease here.

        Raises:
            TaskNotFoundError: no such round.
        """
        assert self.judge is not None, "the review step needs a judge"
        assert lease is None or holder is not None, "a lease taken before names its holder"
        holder = holder or uuid.uuid4().hex[:16]
        started = time.monotonic()  # the lease runs from here (or from intake, just before)
        attempt = lease or self.store.begin_review(round_id, holder, self.limits.lease_s)
        context = self.store.load_round(round_id, contents="focus")
        r = context.round(round_id)
        if self.observer is not None:
            tell(self.observer.loaded, context.task, r.number, round_id)
        if r.review_status is None and (r.done or r.decided):
            # Failed (the sweeper gave up on it) or decided without a review while this copy
            # waited: the judge is not called and the round is left as it is.
            self.store.release_review(round_id, holder)
            return ReviewOutcome(next=self.advance(context.task.id) if then_decide else None)
        if r.review_status is not None:  # reviewed (or failed) already
            return self._after_review(context, r, None, None, then_decide, holder)
        if attempt is None:
            log.info("round %s: a review attempt is running elsewhere; not calling twice", round_id)
            return ReviewOutcome(held_elsewhere=True)
        lim = self.limits
        lost = attempt.attempts - attempt.judge_retries - attempt.rate_waits
        if lost > lim.max_lost:
            failure = f"delivered {lost} times without finishing (worker lost?)"
            return self._after_review(context, r, None, (failure, None), then_decide, holder)
        task = context.task
        request = review_request_of(task, r.deliverable(), r.turn)
        key = review_key(request, self.judge.name)
        reusable = r.reusable_review if key == r.review_key else self.store.find_review_id(key)
        if reusable is not None:
            reused_from, earlier = self.store.load_review(reusable)
            reused = earlier.model_copy(
                update={"latency_ms": 0.0, "prompt_tokens": 0, "completion_tokens": 0}
            )
            return self._after_review(
                context, r, (reused, key, reused_from), None, then_decide, holder
            )
        if self.admit is not None:
            wait_s = self.admit(len(request.deliverable) + len(request.request) + len(request.turn))
            if wait_s > 0:
                if attempt.rate_waits >= lim.rate_waits_max:
                    failure = f"the judge's rate limit held it {attempt.rate_waits} times"
                    return self._after_review(
                        context, r, None, (failure, None), then_decide, holder
                    )
                return self._retry(round_id, holder, wait_s * random.uniform(1.0, 1.2), None)
        try:
            review = self._judged(request, started)
        except JudgeResponseError as exc:
            return self._after_review(context, r, None, (str(exc), exc.raw), then_decide, holder)
        except JudgeUnavailableError as exc:
            tries = attempt.judge_retries
            if tries >= lim.judge_max_retries:
                failure = f"judge unavailable after {tries + 1} tries: {exc}"
                return self._after_review(context, r, None, (failure, None), then_decide, holder)
            delay = _backoff_s(tries, exc.retry_after_s, lim.backoff_max_s)
            return self._retry(round_id, holder, delay, str(exc))
        except Exception as exc:  # never a silent PASS: a stored failure, and the gate holds
            failure = short_error(f"{type(exc).__name__}: {exc}")
            return self._after_review(context, r, None, (failure, None), then_decide, holder)
        review = review_checks.annotate(
            review.model_copy(update={"judge": review.judge or self.judge.name}),
            agent_model=task.agent_model,
            spread_points=lim.halo_spread_points,
        )
        return self._after_review(context, r, (review, key, None), None, then_decide, holder)

    def _judged(self, request: ReviewRequest, started: float) -> Review:
        """``judge.review(request)`` by the attempt's deadline, told to the observer.

        Args:
            request: What the judge reviews.
            started: When the attempt took its lease, on the ``time.monotonic()`` clock.
        """
        assert self.judge is not None
        budget_s = self.limits.judge_deadline_s
        if budget_s is None:
            return self._judged_now(request)
        with within(budget_s - (time.monotonic() - started)):
            return self._judged_now(request)

    def _judged_now(self, request: ReviewRequest) -> Review:
        assert self.judge is not None
        if self.observer is None:
            return self.judge.review(request)
        started = time.perf_counter()
        try:
            review = self.judge.review(request)
        except Exception as exc:
            error = type(exc).__name__
            tell(self.observer.judged, self.judge.name, time.perf_counter() - started, None, error)
            raise
        tell(self.observer.judged, self.judge.name, time.perf_counter() - started, review, None)
        return review

    def _observe_prepared(
        self, task: TaskRecord, number: int, round_id: int, prepared: Prepared
    ) -> None:
        """Tell the observer what preparing a round stored: findings, and a decision at once."""
        assert self.observer is not None
        if prepared.escalation is not None:
            to = prepared.escalation.to
            task = replace(task, task_type=to.task_type, complexity=to.complexity, escalated=True)
        tell(self.observer.loaded, task, number, round_id)
        if prepared.findings:
            tell(self.observer.found, task, number, prepared.findings)
        if prepared.decision is not None:
            tell(self.observer.decided, task, number, prepared.decision, None)

    def _retry(
        self, round_id: int, holder: str, delay_s: float, judge_error: str | None
    ) -> ReviewOutcome:
        """Count the retry (a judge error, or a rate-limit wait); park it when too long to hold."""
        parked = delay_s > self.limits.hold_max_s
        until = datetime.now(UTC) + timedelta(seconds=delay_s) if parked else None
        self.store.note_retry(round_id, holder, judge_error=judge_error, parked_until=until)
        if parked:
            log.info("round %s: retry parked for %.0f s", round_id, delay_s)
            return ReviewOutcome(parked=True)
        return ReviewOutcome(retry_in_s=delay_s)

    def _after_review(
        self,
        context: TaskContext,
        r: RoundRecord,
        made: tuple[Review, str, int | None] | None,
        failure: tuple[str, str | None] | None,
        then_decide: bool,
        holder: str,
    ) -> ReviewOutcome:
        """Store the review (or failure) made now, and with ``then_decide`` the decision, at once."""
        assert self.judge is not None
        review, key, reused_from = made if made is not None else (None, None, None)
        settlement = Settlement(
            review=review,
            review_key=key,
            reused_from=reused_from,
            failure=(self.judge.name, short_error(failure[0]), failure[1]) if failure else None,
            release_lease=holder,
        )
        if not then_decide:
            self.store.settle(r.id, context.task.id, settlement)
            self._observe_review(context.task, r.number, made[0] if made else None, failure)
            return ReviewOutcome()
        decision = None
        if not r.decided:
            judge_error = failure[0] if failure else None
            if review is None and failure is None:
                if r.review_status == ReviewStatus.OK and r.review_id is not None:
                    review = self.store.load_review(r.review_id)[1]
                else:
                    judge_error = r.review_error or "the judge failed"
            decision = decision_on(
                self.store, self.policies.gate, context, r, review, judge_error, self._shadow()
            )
        # A round failed on the way (its decision a stored one) keeps its failed status.
        status = None if r.status == RoundStatus.FAILED else RoundStatus.DECIDED
        self.store.settle(
            r.id, context.task.id, replace(settlement, decision=decision, status=status)
        )
        # Told the review made now, not one an earlier copy stored (loaded above to decide).
        self._observe_review(context.task, r.number, made[0] if made else None, failure)
        if decision is not None:
            if self.observer is not None:
                score = review.score if review is not None else r.review_score
                tell(self.observer.decided, context.task, r.number, decision, score)
            self._decided(context.task.id, r.id)
        return ReviewOutcome(next=self.advance(context.task.id))

    def _observe_review(
        self,
        task: TaskRecord,
        number: int,
        review: Review | None,
        failure: tuple[str, str | None] | None,
    ) -> None:
        """Tell the observer the review (or failure) stored now; nothing when none was made."""
        if self.observer is not None and (review is not None or failure is not None):
            tell(self.observer.reviewed, task, number, review, failure[0] if failure else None)

    # -- decide ----------------------------------------------------------------------------

    def decide(self, round_id: int) -> Dispatch | None:
        """Make the gate's decision on a round, once; then the task's next round to dispatch."""
        context = self.store.load_round(round_id)
        r = context.round(round_id)
        if self.observer is not None:
            tell(self.observer.loaded, context.task, r.number, round_id)
        decision = None
        review: Review | None = None
        if not r.decided:
            judge_error = None
            if r.review_status == ReviewStatus.OK and r.review_id is not None:
                review = self.store.load_review(r.review_id)[1]
            elif r.review_status == ReviewStatus.FAILED:
                judge_error = r.review_error or "the judge failed"
            elif r.plan.critic:
                judge_error = "a review was due but none was stored"
            decision = decision_on(
                self.store, self.policies.gate, context, r, review, judge_error, self._shadow()
            )
        # A round failed on the way (its decision a stored revise) keeps its failed status.
        status = None if r.status == RoundStatus.FAILED else RoundStatus.DECIDED
        self.store.settle(r.id, context.task.id, Settlement(decision=decision, status=status))
        if decision is not None:
            if self.observer is not None:
                score = review.score if review is not None else r.review_score
                tell(self.observer.decided, context.task, r.number, decision, score)
            self._decided(context.task.id, r.id)
        return self.advance(context.task.id)

    def fail(self, round_id: int, error: str) -> Dispatch | None:
        """Mark a round failed with its reason (it fails alone); the task's next round to dispatch.

        Fail closed: a round that could not be processed is never delivered as if it passed.
        """
        error = short_error(error)
        context = self.store.load_round(round_id)
        r = context.round(round_id)
        if self.observer is not None:
            tell(self.observer.loaded, context.task, r.number, round_id)
        decision = None
        if not r.decided:
            history = task_history(
                context, r.number, earlier_p0_findings(self.store, context, r.number)
            )
            decision = gate.failed_round_decision(error, history)
        self.store.settle(
            round_id,
            context.task.id,
            Settlement(decision=decision, status=RoundStatus.FAILED, error=error),
        )
        if decision is not None:
            if self.observer is not None:
                tell(self.observer.decided, context.task, r.number, decision, None)
            self._decided(context.task.id, round_id)
        return self.advance(context.task.id)

    def constraints(self, task_id: str) -> str:
        """The text for the agent's next prompt: requirements plus open must_fix ("" if SIMPLE)."""
        task = self.store.load_task(task_id).task
        return rubric.constraints_text(
            task.task_type, task.complexity, self.store.latest_must_fix(task_id)
        )

    # -- the gate --------------------------------------------------------------------------
