"""QGS: a quality gate for autonomous AI agents.

What an agent needs is importable from here (``from qgs_worker import Client, InputError``):
the client, the handles and views it returns, the tool gate's report, the deliverable and tool
call models, and the error tree. The pure domain lives in :mod:`qgs_worker.core`.

The names load on first use (PEP 562 ``__getattr__``), so ``import qgs_worker`` stays cheap: a
one-shot ``qgs check-tool`` or ``qgs scan`` does not pay for the store, Celery or openai.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"


__all__ = [
    "ApprovalConflictError",
    "ApprovalView",
    "AuthenticationError",
    "BrokerUnavailableError",
    "CallbackUrlError",
    "Client",
    "ConfigurationError",
    "DecisionView",
    "Deliverable",
    "DeliverableTooLargeError",
    "GateReport",
    "IdempotencyKeyReusedError",
    "InputError",
    "JudgeError",
    "JudgeResponseError",
    "JudgeUnavailableError",
    "ModelArtifactError",
    "NotAwaitingApprovalError",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "QGSError",
    "RateLimitedError",
    "RoundNumberTakenError",
    "StoreError",
    "StoreUnavailableError",
    "SubmissionHandle",
    "SubmissionNotFoundError",
    "SubmissionRefusedError",
    "TaskHandle",
    "TaskNotFoundError",
    "TooLargeError",
    "ToolCall",
    "ToolDefinitionError",
    "WaitTimeoutError",
    "WebhookSecretMissingError",
    "__version__",
]

_OTHERS = {
    "ApprovalView": "qgs_worker.core.views",
    "Client": "qgs_worker.client",
    "DecisionView": "qgs_worker.core.views",
    "Deliverable": "qgs_worker.core.models",
    "GateReport": "qgs_worker.core.toolgate",
    "SubmissionHandle": "qgs_worker.client",
    "TaskHandle": "qgs_worker.client",
    "ToolCall": "qgs_worker.core.models",
}
_EXPORTS: dict[str, str] = {
    **{name: "qgs_worker.errors" for name in __all__ if name.endswith("Error")},
    **_OTHERS,
}
"""Each public name and the module that defines it (every ``...Error`` is ``errors``'s)."""

if TYPE_CHECKING:  # the names as the type checker sees them; at run time __getattr__ loads them
    from qgs_worker.client import (
        Client,
        SubmissionHandle,
        TaskHandle,
    )
    from qgs_worker.core.models import Deliverable, ToolCall
    from qgs_worker.core.toolgate import GateReport
    from qgs_worker.core.views import ApprovalView, DecisionView
    from qgs_worker.errors import (
        ApprovalConflictError,
        AuthenticationError,
        BrokerUnavailableError,
        CallbackUrlError,
        ConfigurationError,
        DeliverableTooLargeError,
        IdempotencyKeyReusedError,
        InputError,
        JudgeError,
        JudgeResponseError,
        JudgeUnavailableError,
        ModelArtifactError,
        NotAwaitingApprovalError,
        OutcomeUnknownError,
        PermissionDeniedError,
        QGSError,
        RateLimitedError,
        RoundNumberTakenError,
        StoreError,
        StoreUnavailableError,
        SubmissionNotFoundError,
        SubmissionRefusedError,
        TaskNotFoundError,
        TooLargeError,
        ToolDefinitionError,
        WaitTimeoutError,
        WebhookSecretMissingError,
    )


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use.

    Raises:
        AttributeError: ``name`` is not one of ``__all__``.
    """
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'qgs_worker' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
