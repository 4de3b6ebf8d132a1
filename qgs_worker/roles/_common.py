"""What the built-in roles share: turning the detector pass into one role's findings."""

from __future__ import annotations

from collections.abc import Callable

from qgs_worker.core.discriminator import AuditContext
from qgs_worker.core.models import Finding


def detector_findings_for(
    role: str, context: AuditContext, keep: Callable[[Finding], bool]
) -> list[Finding]:
    """The deterministic detectors' findings over every round that ``keep`` accepts, as ``role``'s.

    A finding on an earlier round carries that round's number (``Finding.round_number``: the
    audit is stored on the audited round, so the earlier round must be named).
    """
    current = context.round_number
    found: list[Finding] = []
    for number, finding in context.detector_findings:
        if not keep(finding):
            continue
        earlier = None if number == current else number
        found.append(finding.model_copy(update={"role": role, "round_number": earlier}))
    return found
