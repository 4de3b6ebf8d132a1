"""The review service: the use cases between the transports (jobs, CLI, client) and the core.

``ReviewService`` takes a submitted round, reviews, audits and decides it over a store port
(``ports.ReviewStore``) that speaks core values (``records``); the Celery jobs, the CLI and the
client call it and hold no review logic of their own. It imports no Celery, HTTP or CLI code,
and no store rows (``tests/unit/test_architecture.py``).
"""

from qgs_worker.service.audit import audit_round
from qgs_worker.service.config import Audit, Policies, ReviewLimits
from qgs_worker.service.ports import ReviewStore
from qgs_worker.service.preparing import DETECTOR_ROLE
from qgs_worker.service.records import Dispatch, TaskContext
from qgs_worker.service.review import ReviewOutcome, ReviewService, short_error
from qgs_worker.service.tasks import classify

__all__ = [
    "DETECTOR_ROLE",
    "Audit",
    "Dispatch",
    "Policies",
    "ReviewLimits",
    "ReviewOutcome",
    "ReviewService",
    "ReviewStore",
    "TaskContext",
    "audit_round",
    "classify",
    "short_error",
]
