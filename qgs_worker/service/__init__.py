"""The review service: the use cases between the transports (jobs, CLI, client) and the core.

``ReviewService`` takes a submitted round, reviews, audits and decides it over a store port
(``ports.ReviewStore``) that speaks core values (``records``); the Celery jobs, the CLI and the
client call it and hold no review logic of their own. It imports no Celery, HTTP or CLI code,
and no store rows (``tests/unit/test_architecture.py``).

The names load on first use (PEP 562 ``__getattr__``): a face that needs one leaf of the service
(``inputs``, the input contract; ``submission``, the queue message) does not pay for the rest.

Layer: the service, on the core; may import the core and ``errors`` only. Imports: ``core``,
``errors``. Imported by: ``api``, ``cli``, ``client``, ``judges``, ``queue``, ``reports``,
``store``, ``telemetry``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the type checker sees them; at run time __getattr__ loads them
    from qgs_worker.service.audit import audit_round
    from qgs_worker.service.policies import Audit, Policies, ReviewLimits
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

_EXPORTS = {
    "DETECTOR_ROLE": "preparing",
    "Audit": "policies",
    "Dispatch": "records",
    "Policies": "policies",
    "ReviewLimits": "policies",
    "ReviewOutcome": "review",
    "ReviewService": "review",
    "ReviewStore": "ports",
    "TaskContext": "records",
    "audit_round": "audit",
    "classify": "tasks",
    "short_error": "review",
}
"""Each public name and the module of this package that defines it."""


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use.

    Raises:
        AttributeError: ``name`` is not one of ``__all__``.
    """
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'qgs_worker.service' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"qgs_worker.service.{module}"), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value
