"""The audit step: the discriminator's roles on a round, one after another, each run stored."""

from __future__ import annotations

from qgs_worker.core.discriminator import ROLE_FAILED, AuditContext, RoleRun, roles_for
from qgs_worker.core.discriminator import run_roles as run_audit_roles
from qgs_worker.core.models import Finding
from qgs_worker.service.observer import ReviewObserver, tell
from qgs_worker.service.policies import Audit
from qgs_worker.service.ports import ReviewStore
from qgs_worker.service.preparing import DETECTOR_ROLE
from qgs_worker.service.requests import user_words

__all__ = ["audit_round"]


def audit_round(
    store: ReviewStore, round_id: int, audit: Audit, observer: ReviewObserver | None = None
) -> list[RoleRun]:
    """Run the audit roles on a round, one after another, and store their findings.

    Roles see every round of the task up to this one, and the detector pass stored for each of
    them at intake (not scanned again). A finding the round's own detector pass already stored
    (same category, round, location and evidence) is not stored again (one incident
    counts once); the rest are stored on this round, an earlier round's with its
    ``round_number``. Each role's run is recorded once per round: a redelivered job skips the
    roles that already ran, so their LLM passes are not repeated. ``observer`` is told each
    role's stored findings (``service.observer``).

    Returns:
        The runs of the roles that ran now (empty when all had already run).

    Raises:
        TaskNotFoundError: no such round.
    """
    context = store.load_round(round_id, contents="all")
    row = context.round(round_id)
    task = context.task
    if observer is not None:
        tell(observer.loaded, task, row.number, round_id)
    done = store.audit_runs(round_id)
    due = [role for role in roles_for(audit.roles, task.task_type) if role.name not in done]
    if not due:
        return []
    rounds = [r for r in context.rounds if r.number <= row.number]
    known: set[tuple[str, int | None, str, str]] = set()
    stored: list[tuple[int, Finding]] = []
    for number, f in store.findings_up_to(task.id, row.number):
        if f.role == DETECTOR_ROLE:
            earlier = None if number == row.number else number
            known.add((f.category, earlier, f.location, f.evidence))
            stored.append((number, f))
    audit_context = AuditContext(
        task_type=task.task_type,
        complexity=task.complexity,
        request=user_words(task.request, (r.turn for r in rounds)),
        rounds=tuple(r.deliverable() for r in rounds),
        timeout_s=audit.role_timeout_s,
        stored_detector_findings=tuple(stored),
    )

    def store_run(run: RoleRun) -> None:  # at once: a redelivered job skips the roles already run
        fresh = [
            f
            for f in run.findings
            if (f.category, f.round_number, f.location, f.evidence) not in known
        ]
        # A role whose LLM pass failed keeps its deterministic findings and reports the failure
        # as its own role_failed finding: the run is a failed one, not "ok".
        own = [f.title for f in run.findings if f.category == ROLE_FAILED and f.role == run.role]
        store.save_role_run(
            round_id,
            run.role,
            fresh,
            error=run.error or (own[0] if own else None),
            duration_ms=run.duration_ms,
        )
        if observer is not None and fresh:
            tell(observer.found, task, row.number, fresh)

    return run_audit_roles(
        due,
        audit_context,
        audit.sessions,
        keep_between_roles=not audit.low_memory,
        on_run=store_run,
    )
