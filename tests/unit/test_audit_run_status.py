"""``audit_run.status`` is not ``ok`` when the role's LLM pass failed (issue 11, item 8).

The roles keep their deterministic findings when their LLM pass raises and report the failure
as a ``role_failed`` finding of their own, so ``run_roles`` sees no error and
``pipeline.discriminate`` stores the run as ``ok``. ``pipeline.discriminate`` stores the run as failed when its findings hold the role's own
``role_failed``.
"""

from __future__ import annotations

from qgs_worker.core.discriminator import ROLE_FAILED
from qgs_worker.core.models import AuditBrief, Finding
from qgs_worker.errors import JudgeUnavailableError
from qgs_worker.queue import pipeline
from qgs_worker.roles.security import SecurityAuditor
from qgs_worker.store import Repository
from tests.unit.test_discriminator import submit


class _FailingSession:
    def audit(self, brief: AuditBrief, *, timeout_s: float) -> list[Finding]:
        raise JudgeUnavailableError("judge at http://127.0.0.1:9/v1 failed with HTTP 503")

    def close(self) -> None:
        """Nothing to release."""


class _Sessions:
    def open(self, role: str) -> _FailingSession:
        return _FailingSession()


def test_a_failed_llm_pass_is_a_failed_run() -> None:
    repo = Repository("sqlite://")
    round_id = submit(repo, 1, "deploy the service", text="done")
    audit = pipeline.Audit(roles=[SecurityAuditor()], sessions=_Sessions())  # type: ignore[arg-type]
    pipeline.discriminate(repo, round_id, audit)
    assert any(f.category == ROLE_FAILED for f in repo.findings_model(round_id))
    (run,) = repo.list_audit_runs(round_id)
    assert "failed" == run.status
