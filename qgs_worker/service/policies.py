"""What the review service is built with: policies, the audit's roles, the review's limits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qgs_worker.core.discriminator import Role
from qgs_worker.core.models import CadencePolicy, GatePolicy
from qgs_worker.core.ports import AuditSessions, PolicyDecisionPoint
from qgs_worker.core.review_checks import HALO_SPREAD_POINTS
from qgs_worker.core.toolgate import ToolRegistry

__all__ = ["Audit", "Policies", "ReviewLimits"]


@dataclass(frozen=True)
class Policies:
    """The small policy objects the steps pass to the core.

    ``pdp`` is the policy decision point (``policy_file.load_pdp``): when set, a round's tool
    calls on ACTION and CRITICAL tasks are checked against it; ``tools`` (``QGS_TOOLS_FILE``)
    gives the registered tools' permissions, else they are inferred from the tools' names.
    """

    gate: GatePolicy
    cadence: CadencePolicy
    pdp: PolicyDecisionPoint | None = None
    tools: ToolRegistry | None = None


@dataclass(frozen=True)
class Audit:
    """What the discriminator step needs: the roles, the judge sessions and the limits.

    Attributes:
        roles: The audit roles, in the order they run (``qgs_worker.roles.load_roles``).
        sessions: Opens a fresh judge session per role; None for the offline rules judge.
        role_timeout_s: Each role's time budget, in seconds.
        low_memory: Keep nothing between roles (not even the shared detector pass).
    """

    roles: Sequence[Role]
    sessions: AuditSessions | None = None
    role_timeout_s: float = 60.0
    low_memory: bool = False


@dataclass(frozen=True)
class ReviewLimits:
    """How far one review goes before it is a stored failure (``QGS_WORKER__*``, ``QGS_JUDGE__*``).

    Attributes:
        halo_spread_points: See ``review_checks.halo_warning``.
        lease_s: How long one review attempt holds the round's lease: the judge's worst case.
        max_lost: Deliveries of the critic job that never finished (a worker lost) before the
            review is stored as failed (``QGS_WORKER__MAX_ATTEMPTS``).
        judge_max_retries: Transient judge failures retried (``QGS_WORKER__JUDGE_MAX_RETRIES``).
        backoff_max_s: The cap of one judge retry's backoff, in seconds.
        hold_max_s: The longest wait a worker holds; a longer one is parked in the store and the
            sweeper resumes it (``Settings.worker.retry_hold_s``).
        rate_waits_max: Waits for the shared rate limit before the review is a stored failure.
        judge_deadline_s: How long the judge calls of one review attempt may take in all, in
            seconds from the attempt's start (every call, the rate limit's waits included):
            below ``lease_s``, so no call outlives the lease it holds and a second attempt
            never calls the judge while the first still waits (``core.deadline``). None: no
            deadline but each call's own.
    """

    halo_spread_points: int = HALO_SPREAD_POINTS
    lease_s: float = 120.0
    max_lost: int = 3
    judge_max_retries: int = 5
    backoff_max_s: float = 60.0
    hold_max_s: float = 10.0
    rate_waits_max: int = 1000
    judge_deadline_s: float | None = None
