"""Layer 5, permission: may this principal call this tool, with these arguments?

Asks the policy decision point (``core/policy.py``; the review pipeline asks the same one) with
the principal (``CheckContext.principal``, else ``agent_id``; ``None`` is an unknown principal),
the tool's name, its permission (``ToolSpec.permission``: declared, or inferred from its name)
and the call's arguments. A denial FAILs with the policy's reason and the rule that decided,
starting with the refused argument's path (``$.recipient``) or the tool name's path; the
suggestion is the policy's fix.

With no policy configured (``PermissionLayer(None)``, ``QGS_POLICY_FILE`` unset) every call
passes with a WARN "no policy configured": QGS without a policy does not lock agents out, but
says on every report that nothing was checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qgs_worker.core.toolgate.base import CheckContext, LayerResult

if TYPE_CHECKING:
    from qgs_worker.core.ports import PolicyDecisionPoint
    from qgs_worker.core.toolgate.calls import ParsedCall
    from qgs_worker.core.toolgate.spec import ToolSpec

__all__ = ["NO_POLICY_WARNING", "PermissionLayer"]

NUMBER = 5
NAME = "permission"
NO_POLICY_WARNING = "no policy configured: the call's permission was not checked (QGS_POLICY_FILE)"
_PASS = LayerResult.of(NUMBER, NAME)
_NO_POLICY = LayerResult.of(NUMBER, NAME, warnings=(NO_POLICY_WARNING,))


class PermissionLayer:
    """Layer 5: the policy decision point's answer for the call.

    Args:
        pdp: The policy (``qgs_worker.config.policy_file.load_pdp``); ``None`` passes every call with
            a "no policy configured" WARN.
    """

    number = NUMBER
    name = NAME

    def __init__(self, pdp: PolicyDecisionPoint | None) -> None:
        self.pdp = pdp

    def check(self, call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
        """Ask the policy whether the call's principal may make it.

        Args:
            call: The parsed call.
            spec: The registered tool (its permission); ``None`` is a FAIL.
            context: ``principal`` (else ``agent_id``) is the subject asked about.

        Returns:
            PASS; WARN without a policy; FAIL with the policy's reason, rule and fix.
        """
        if self.pdp is None:
            return _NO_POLICY
        if spec is None:
            return LayerResult.of(NUMBER, NAME, errors=(f"{call.name_path}: no registered tool",))
        principal = context.principal if context.principal is not None else context.agent_id
        decision = self.pdp.decide(principal, spec.name, spec.permission, call.arguments)
        if decision.allowed:
            return _PASS
        where = decision.argument or call.name_path
        return LayerResult.of(
            NUMBER,
            NAME,
            errors=(f"{where}: {decision.reason} (rule {decision.rule})",),
            suggestion=decision.fix or None,
        )
