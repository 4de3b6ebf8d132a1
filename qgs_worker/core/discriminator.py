"""The discriminator: adversarial audit roles, run one after another (DESIGN.md, "Discriminator").

A role hunts for one kind of defect (unsafe actions, ungrounded claims, obeyed injections) and
reports :class:`Finding` objects with a severity P0-P4. Roles are plugins: another package adds
one through the ``qgs.roles`` entry-point group (``qgs_worker.roles.load_roles``); each declares
the task types it audits.

:func:`run_roles` is the session manager. It runs the roles serially, never in parallel (the
reference deployment is a 1.8 GB VPS: one audit's memory at a time), opens a fresh judge session
for each role (no history shared between roles, so one role's material cannot steer another)
and closes it right after. A role that raises, or overruns its time limit, yields a
``role_failed`` finding with the reason; the other roles still run. On a CRITICAL task that
finding is P1 and the gate refuses to pass the round (a failed audit is never a clean one).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol, runtime_checkable

from qgs_worker.core import round_scan
from qgs_worker.core.models import (
    ROLE_FAILED,
    Complexity,
    Deliverable,
    Finding,
    Severity,
    TaskType,
    with_round_field,
)
from qgs_worker.core.ports import AuditSession, AuditSessions

__all__ = [
    "ROLE_FAILED",
    "AuditContext",
    "Role",
    "RoleRun",
    "RoleUnavailableError",
    "role_failed",
    "roles_for",
    "run_roles",
]

ALL_TASK_TYPES = frozenset(TaskType)


@dataclass(frozen=True)
class AuditContext:
    """What a role sees: the task and its rounds up to the audited one.

    Attributes:
        task_type: The task's type (after any escalation).
        complexity: The task's complexity (after any escalation).
        request: The user's request (an entity that appears in it is the user's own).
        rounds: Every round of the task up to and including the audited one, oldest first.
        timeout_s: Each role's time budget, in seconds; a role passes what is left of it to its
            judge calls and subprocesses.
        started_s: ``time.monotonic()`` when the current role started (set by :func:`run_roles`).
        stored_detector_findings: The detector pass as the pipeline already ran and stored it
            when each round came in (``(round_number, finding)``); None: scan the rounds here.
    """

    task_type: TaskType
    complexity: Complexity
    request: str
    rounds: tuple[Deliverable, ...]
    timeout_s: float = 60.0
    started_s: float = field(default_factory=time.monotonic)
    stored_detector_findings: tuple[tuple[int, Finding], ...] | None = None

    @property
    def current(self) -> Deliverable:
        """The audited round (the last one)."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        """The audited round's number (rounds are numbered from 1)."""
        return len(self.rounds)

    def remaining_s(self) -> float:
        """Seconds left of the current role's budget (never below 0.1, so a call can still fail fast)."""
        return max(0.1, self.timeout_s - (time.monotonic() - self.started_s))

    @cached_property
    def detector_findings(self) -> tuple[tuple[int, Finding], ...]:
        """``(round_number, finding)`` of the deterministic detectors over every round.

        Each round is scanned with the tool outputs of every earlier round as context (an
        attacker's address read in round 2 and used in round 5 counts). Computed once per audit;
        it holds no judge state, so sharing it between roles keeps them independent. When the
        pipeline stored the same pass as each round came in, that is read instead of scanning
        every round again on every audit.
        """
        if self.stored_detector_findings is not None:
            return self.stored_detector_findings
        found: list[tuple[int, Finding]] = []
        rounds = round_scan.scan_rounds(self.rounds, request=self.request)
        for number, findings in enumerate(rounds, start=1):
            found.extend((number, finding) for finding in findings)
        return tuple(found)


@runtime_checkable
class Role(Protocol):
    """One audit role. Implementations must be stateless between audits (or cheap to rebuild).

    Attributes:
        name: A stable identifier, e.g. ``security_auditor`` (stored as ``Finding.role``).
        task_types: The task types this role audits.
        bounded_offline: Optional (default False). True when, without a judge session, the
            role's work is bounded by itself: linear detector rules, a subprocess given
            ``context.remaining_s()``. Such a role then runs in the calling thread, not on the
            role runner (see ``run_roles``). The built-in roles set it; a plugin role need not.
    """

    name: str
    task_types: frozenset[TaskType]

    def audit(self, context: AuditContext, session: AuditSession | None) -> list[Finding]:
        """Audit the task's rounds and return findings about them.

        Args:
            context: The task and its rounds; ``context.remaining_s()`` is the time left.
            session: A fresh judge session for this role's LLM pass, or None when the judge is
                offline (the rules judge): then only deterministic checks run.

        Returns:
            Findings whose ``location`` says where, with ``round_number`` N when it is in an
            earlier round N (a location in the older ``round N: ...`` form is read as that).

        Raises:
            Exception: Anything; :func:`run_roles` turns it into a ``role_failed`` finding.
        """
        ...


@dataclass(frozen=True)
class RoleRun:
    """What one role did in one audit: its findings, or why it failed, and when it ran.

    ``started_s`` and ``ended_s`` are ``time.monotonic()`` readings, so a test can show roles
    never overlap.
    """

    role: str
    findings: tuple[Finding, ...]
    started_s: float
    ended_s: float
    error: str | None = None

    @property
    def duration_ms(self) -> float:
        """Wall time of the role, in milliseconds."""
        return (self.ended_s - self.started_s) * 1000.0


def roles_for(roles: Iterable[Role], task_type: TaskType) -> list[Role]:
    """The roles that audit ``task_type``, in the given order."""
    return [role for role in roles if task_type in role.task_types]


def role_failed(role: str, reason: str, task_type: TaskType, *, location: str = "audit") -> Finding:
    """The finding for a role that raised or overran its budget.

    P1 on a CRITICAL task (the gate never passes a CRITICAL round whose audit failed), P2
    otherwise (the round is reported as not fully audited, and the critic's verdict stands).
    """
    severity = Severity.P1 if task_type is TaskType.CRITICAL else Severity.P2
    return Finding(
        role=role,
        category=ROLE_FAILED,
        severity=severity,
        title=f"role failed: {role}: {reason}"[:300],
        location=location,
    )


ABANDON_GRACE_S = 5.0
"""How long past its budget a role may take before the session manager stops waiting for it."""


def run_roles(
    roles: Sequence[Role],
    context: AuditContext,
    sessions: AuditSessions | None,
    *,
    keep_between_roles: bool = True,
    on_run: Callable[[RoleRun], None] | None = None,
    grace_s: float = ABANDON_GRACE_S,
    clock: Callable[[], float] = time.monotonic,
) -> list[RoleRun]:
    """Run ``roles`` one after another on one audit, each with a fresh judge session.

    Each role runs in another thread (the calling thread's role runner, ``_RoleRunner``), and
    the session manager waits for it before the next one starts, so roles never overlap. A role
    that is ``bounded_offline`` runs in the calling thread when it has no judge session (an
    offline judge): the runner's two thread switches cost more than such a role's work, ~9% of
    a ``qgs audit`` chunk's time in a worker (issue 14), and its work ends by itself (the
    overrun check below still applies). A role that does not return within its budget
    (``context.timeout_s``) plus ``grace_s`` is abandoned: its thread is left to finish on its
    own, its results are ignored, and the next role starts (a thread cannot be killed; roles
    get ``context.remaining_s()`` to pass to their judge calls and subprocesses, so a role that
    keeps to its budget is never abandoned).

    Args:
        roles: The roles to run, already filtered for the task type (:func:`roles_for`).
        context: The audit's context; each role gets a copy whose ``started_s`` is its own start.
        sessions: Opens one judge session per role and is told to release it right after;
            None for an offline judge.
        keep_between_roles: Share the deterministic detector pass between roles (it holds no
            judge state); False in low-memory mode, where nothing is kept between roles.
        on_run: Called with each role's run as soon as it ends (the caller stores it, so a
            redelivered job does not run that role again).
        grace_s: Seconds past the budget before a role is abandoned.
        clock: Monotonic seconds (tests pass their own).

    Returns:
        One :class:`RoleRun` per role, in order. Never raises for a role's failure: a role that
        raises (anything, ``SystemExit`` included), returns something other than a list of
        ``Finding``, runs past ``context.timeout_s`` or is abandoned gets a ``role_failed``
        finding (the findings it did return before overrunning are kept). A role's findings
        always carry its own name as ``role``.
    """
    runs: list[RoleRun] = []
    for role in roles:
        started = clock()
        role_context = _restarted(context, started, keep=keep_between_roles)
        findings, error = _run_one(role, role_context, sessions, context.timeout_s + grace_s)
        if keep_between_roles and "detector_findings" in role_context.__dict__:
            context.__dict__.setdefault(
                "detector_findings", role_context.__dict__["detector_findings"]
            )
        del role_context
        ended = clock()
        if error is None and ended - started > context.timeout_s:
            error = f"timed out after {ended - started:.1f} s (limit {context.timeout_s:g} s)"
        if error is not None:
            findings.append(role_failed(role.name, error, context.task_type))
        run = RoleRun(role.name, tuple(findings), started, ended, error)
        runs.append(run)
        if on_run is not None:
            on_run(run)
    return runs


def _run_one(
    role: Role, context: AuditContext, sessions: AuditSessions | None, wait_s: float
) -> tuple[list[Finding], str | None]:
    """One role in the runner's thread, waited for at most ``wait_s``: (findings, error)."""
    outcome: dict[str, object] = {}
    session: AuditSession | None = None
    try:
        session = sessions.open(role.name) if sessions is not None else None
    except Exception as exc:
        return [], f"its judge session could not be opened: {_describe(exc)}"

    def target() -> None:
        try:
            outcome["result"] = role.audit(context, session)
        except BaseException as exc:  # a plugin may even call sys.exit(): report, never hang
            outcome["error"] = _describe(exc)

    if session is None and getattr(role, "bounded_offline", False) is True:
        target()
        finished = True
    else:
        finished = _runner().run(target, wait_s)
    error: str | None = None
    findings: list[Finding] = []
    if not finished:
        _local.runner = None  # its thread is still in the abandoned role: the next gets a new one
        error = (
            f"did not return within {wait_s:g} s (budget {context.timeout_s:g} s); abandoned, "
            "its results are ignored"
        )
    elif "error" in outcome:
        error = str(outcome["error"])
    else:
        findings, error = _checked(role.name, outcome.get("result"))
    if session is not None:
        try:
            session.close()
        except Exception as exc:  # releasing must not fail the audit
            error = error or f"closing its judge session failed: {_describe(exc)}"
    return findings, error


class _RoleRunner:
    """A daemon thread that runs one role at a time for the thread that owns it.

    A role runs in a thread of its own so that one that overruns its budget can be abandoned
    (a thread cannot be killed). Starting a thread per role cost more than many roles take:
    ``Thread.start`` waits until the new thread holds the GIL, which, beside busy threads, is
    a switch interval or more each (``qgs audit``'s chunks audit thousands of rounds). The
    runner is started once per calling thread and reused; daemon, so an abandoned role never
    holds up the interpreter's exit.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event]] = (
            queue.SimpleQueue()
        )
        thread = threading.Thread(target=self._loop, name="qgs-role-runner", daemon=True)
        thread.start()

    def _loop(self) -> None:
        while True:
            job, done = self._jobs.get()
            try:
                job()
            finally:
                done.set()

    def run(self, job: Callable[[], None], wait_s: float) -> bool:
        """Run ``job`` in the runner's thread; True when it returned within ``wait_s`` seconds."""
        done = threading.Event()
        self._jobs.put((job, done))
        return done.wait(wait_s)


_local = threading.local()


def _runner() -> _RoleRunner:
    """The calling thread's role runner (a new one after a role was abandoned)."""
    runner: _RoleRunner | None = getattr(_local, "runner", None)
    if runner is None:
        runner = _local.runner = _RoleRunner()
    return runner


def _checked(name: str, result: object) -> tuple[list[Finding], str | None]:
    """The role's findings with its own name, or why its result is unusable.

    A location in the older ``round N: ...`` form (a role written before ``Finding.round_number``)
    has N moved into ``round_number``.
    """
    if not isinstance(result, list | tuple):
        return [], f"returned {type(result).__name__}, not a list of Finding"
    bad = [type(item).__name__ for item in result if not isinstance(item, Finding)]
    if bad:
        return [], f"returned {bad[0]} items, not Finding"
    located = [with_round_field(f) for f in result]
    return [f if f.role == name else f.model_copy(update={"role": name}) for f in located], None


class RoleUnavailableError(RuntimeError):
    """Raised by a stand-in for a role that could not be loaded; its message says why."""


def _describe(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, RoleUnavailableError):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _restarted(context: AuditContext, started_s: float, *, keep: bool) -> AuditContext:
    fresh = AuditContext(
        task_type=context.task_type,
        complexity=context.complexity,
        request=context.request,
        rounds=context.rounds,
        timeout_s=context.timeout_s,
        started_s=started_s,
        stored_detector_findings=context.stored_detector_findings,
    )
    # The detector pass is deterministic and holds no judge state: share it, don't redo it.
    if keep and "detector_findings" in context.__dict__:
        fresh.__dict__["detector_findings"] = context.__dict__["detector_findings"]
    return fresh
