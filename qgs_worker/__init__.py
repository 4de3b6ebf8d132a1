"""QGS: a quality gate for autonomous AI agents.

What an agent needs is importable from here (``from qgs_worker import Client, InputError``):
the client, the handles and views it returns, the tool gate's report, the deliverable and tool
call models, and the error tree. The pure domain lives in :mod:`qgs_worker.core`.

The names load on first use (PEP 562 ``__getattr__``), so ``import qgs_worker`` stays cheap: a
one-shot ``qgs check-tool`` or ``qgs scan`` does not pay for the store, Celery or openai.

Modules that once sat at the top of the package moved into rooms of their own (issue 30: ``queue``,
``limits``, ``reports``, ``config``...). Their old paths, which users may have imported or named
(``qgs_worker.settings``, ``python -m qgs_worker.celery_app``), are listed once, in ``MOVED``,
and still import: the old name is the new module itself, with a ``DeprecationWarning`` that
names the new path. Patch a name where it is defined (``qgs_worker.queue.dispatch.send``, not a
module that re-exports it). A type checker does not see the old paths (they have no file): it
reports them as missing, which is the prompt to move to the new one.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from importlib.machinery import ModuleSpec
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, Any, cast

from qgs_worker.core.version import QGS_VERSION

__version__ = QGS_VERSION


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
    "LabelExistsError",
    "ModelArtifactError",
    "NotAwaitingApprovalError",
    "NotSampledError",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "QGSError",
    "RateLimitedError",
    "RoundNumberTakenError",
    "RoundRedecidedError",
    "SpotCheckConflictError",
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
    from importlib.abc import Loader  # (a duck-typed loader below: importlib.abc costs ~8 ms)

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
        LabelExistsError,
        ModelArtifactError,
        NotAwaitingApprovalError,
        NotSampledError,
        OutcomeUnknownError,
        PermissionDeniedError,
        QGSError,
        RateLimitedError,
        RoundNumberTakenError,
        RoundRedecidedError,
        SpotCheckConflictError,
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


MOVED: dict[str, str] = {
    f"qgs_worker.{old}": f"qgs_worker.{new}"
    for old, new in {
        "audit_chunk": "queue.audit_chunk",
        "audit_wait": "cli.audit_wait",
        "background": "queue.background",
        "celery_app": "queue.celery_app",
        "deadletters": "queue.deadletters",
        "embedded": "queue.embedded",
        "gate_cache": "client.gate_cache",
        "inputs": "service.inputs",
        "jobs": "queue.jobs",
        "judge_limit": "limits.judge_limit",
        "lease_channel": "limits.lease_channel",
        "leases": "limits.leases",
        "limiters": "limits.limiters",
        "notify": "queue.notify",
        "pipeline": "queue.pipeline",
        "policy_file": "config.policy_file",
        "preflight": "queue.preflight",
        "progress": "queue.progress",
        "ratelimit": "limits.ratelimit",
        "ratelimit_redis": "limits.ratelimit_redis",
        "report": "reports.report",
        "report_filter": "reports.report_filter",
        "report_html": "reports.report_html",
        "report_model": "service.report_model",
        "report_plots": "reports.report_plots",
        "report_render": "reports.report_render",
        "report_tally": "reports.report_tally",
        "run_diff": "reports.run_diff",
        "runs": "reports.runs",
        "scan": "cli.scan_text",
        "scan_jsonl": "cli.scan_jsonl",
        "settings": "config.settings",
        "settings_defaults": "config.settings_defaults",
        "settings_groups": "config.settings_groups",
        "submission": "service.submission",
        "sweeper": "queue.sweeper",
        "terminal": "cli.terminal",
        "tool_sets": "api.tool_sets",
        "toolcheck": "queue.toolcheck",
        "toolgate_io": "config.toolgate_io",
        "webhook_settings": "config.webhook_settings",
        "webhooks.job": "queue.webhook_job",
        "worker_runtime": "queue.worker_runtime",
        "worker_start": "queue.worker_start",
    }.items()
}
"""Each old module path (before issue 30's layout) and the module it is now."""


class _MovedModules:
    """Finds an old module path of ``MOVED`` and loads it as its new module (a meta path finder).

    The import system sets ``__spec__`` on whatever module a loader creates; ``exec_module`` puts
    the new module's own spec back, so the module keeps one identity under both names.
    """

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> ModuleSpec | None:
        """The spec of an old path (loaded by this finder), or None for any other name."""
        new = MOVED.get(fullname)
        return None if new is None else ModuleSpec(fullname, cast("Loader", self), origin=new)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """Import the new module and hand it over for the old name, warning once per name."""
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; import it from there", DeprecationWarning, stacklevel=2
        )
        module = importlib.import_module(new)
        spec.loader_state = module.__spec__  # for exec_module, once the import system replaced it
        return module

    def get_code(self, fullname: str) -> CodeType:
        """What ``python -m OLD`` runs: the new module as ``__main__`` (``runpy``'s question)."""
        new = MOVED[fullname]
        source = f"import runpy\nrunpy.run_module({new!r}, run_name='__main__', alter_sys=True)\n"
        return compile(source, f"<{fullname}, moved to {new}>", "exec")

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: restore the new module's own spec (see the class docstring)."""
        alias = module.__spec__
        assert alias is not None
        module.__spec__ = alias.loader_state


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())
