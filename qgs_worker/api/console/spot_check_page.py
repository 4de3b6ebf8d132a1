"""The console's spot-checks page: the open queue, a label form per round, the agreement figures.

Page and form (``pages.ConsolePages``' sessions, CSRF and rendering)::

    GET  /ui/spot-checks?done=SUBMISSION        the open queue of the principals the operator
                                                sees (the first ``SHOWN`` in full), the figures
    POST /ui/spot-checks/{submission_id}/labels a label: ``decision_correct`` (yes or no),
                                                ``verdict``, ``sev.RULE`` per fired rule (a
                                                severity or ``none``), ``missed_rule`` and
                                                ``missed_severity`` (a rule that should have
                                                fired: a false negative), ``note``; needs the
                                                ``spot-check`` scope

Both call the operations the API's spot-check routes call (``Operations.spot_checks``,
``spot_check``, ``label_spot_check``, ``agreement``): the person recorded is the operator. A
label that cannot be recorded (never sampled, a second one, a round decided again) shows the
page again with the operation's message (409; for a round never sampled, the console's words:
press "Ask for a spot-check" on its task's page), nothing stored, the form as it was filled in
(``typed``). A missed rule QGS does not have is refused naming the form's ``missed_rule``. A missed rule goes into the
label's ``severities`` as the API takes it (a rule named there that did not fire is a miss).
"""

from __future__ import annotations

import asyncio
import urllib.parse
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Query, Request
from starlette.responses import RedirectResponse, Response

from qgs_worker.api.console.forms import TooLarge
from qgs_worker.api.spot_checks import RULE_MAX_CHARS
from qgs_worker.core.models import Severity, Verdict
from qgs_worker.core.rules import all_rules
from qgs_worker.errors import (
    InputError,
    NotSampledError,
    PermissionDeniedError,
    SpotCheckConflictError,
    SubmissionNotFoundError,
)
from qgs_worker.store.keys import SCOPE_SPOT_CHECK, SCOPE_VIEW

if TYPE_CHECKING:
    from qgs_worker.api.access import Principal
    from qgs_worker.api.console.pages import ConsolePages
    from qgs_worker.api.console.sessions import Session

__all__ = [
    "MISSED_SEVERITY_CHOICES",
    "SEVERITY_CHOICES",
    "SHOWN",
    "install_spot_checks",
    "known_rules",
    "label_fields",
]

SHOWN = 20
"""How many open spot-checks the page shows in full (the oldest first)."""
DONE_MAX_CHARS = 128
"""The longest ``done`` (a submission id: ids are at most 128 characters) the page names."""
SEVERITY_CHOICES = (*(s.value for s in Severity), "none")
"""What a rule's select offers: a severity, or ``none`` (it should not have fired)."""
MISSED_SEVERITY_CHOICES = tuple(s.value for s in Severity)
"""What a missed rule's select offers: the severity it should have fired at (never ``none``)."""


def known_rules() -> list[str]:
    """The rules table's ids, sorted: the missed-rule field's suggestions (any id is taken)."""
    return sorted(r.rule_id for r in all_rules())


def label_fields(fields: dict[str, str]) -> tuple[bool, str, dict[str, str], str]:
    """The label a form sent: ``(decision_correct, verdict, severities, note)``.

    Args:
        fields: The form's fields: ``decision_correct`` (``yes`` or ``no``), ``verdict``,
            ``sev.RULE`` (one per rule that fired), ``missed_rule`` and ``missed_severity``
            (optional: a rule that did not fire and should have, at ``P0``-``P4``), ``note``.

    Returns:
        ``severities`` holds the fired rules' choices and the missed rule at its severity
        (the operation counts a named rule that did not fire as the gate's miss).

    Raises:
        InputError: ``decision_correct`` is not ``yes`` or ``no``; a missed rule without a
            severity (or a severity without a rule), one of more than ``RULE_MAX_CHARS``
            characters, or one that fired (its row says its severity). The verdict and the
            severities' values are checked by the operation.
    """
    right = fields.get("decision_correct", "")
    if right not in ("yes", "no"):
        raise InputError(
            "'decision_correct' must be yes or no: say whether the gate's decision was right"
        )
    severities = {k[4:]: v for k, v in fields.items() if k.startswith("sev.") and k[4:]}
    missed = fields.get("missed_rule", "").strip()
    missed_severity = fields.get("missed_severity", "").strip()
    if missed or missed_severity:
        if not missed:
            raise InputError(
                f"'missed_rule' is empty but 'missed_severity' is {missed_severity!r}: name the "
                "rule that should have fired (e.g. sql_drop), or leave both empty"
            )
        if len(missed) > RULE_MAX_CHARS:
            raise InputError(
                f"'missed_rule' must be a rule id of 1-{RULE_MAX_CHARS} characters (got "
                f"{missed[:40]!r}...)"
            )
        if missed_severity not in MISSED_SEVERITY_CHOICES:
            raise InputError(
                f"'missed_severity' must be one of {', '.join(MISSED_SEVERITY_CHOICES)} for the "
                f"missed rule {missed!r} (got {missed_severity!r}): the severity it should have "
                "fired at"
            )
        if missed in severities:
            raise InputError(
                f"'missed_rule' {missed!r} fired on this round: set its severity in its row instead"
            )
        severities[missed] = missed_severity
    return right == "yes", fields.get("verdict", ""), severities, fields.get("note", "")


def install_spot_checks(pages: ConsolePages) -> None:
    """Add the spot-checks page and its label form to ``pages.router``."""
    router = pages.router

    @router.get("/spot-checks")
    def spot_checks(request: Request, done: Annotated[str, Query()] = "") -> Response:
        who = pages.signed_in(request)
        if who is None:
            return pages._to_login(request)
        if len(done) > DONE_MAX_CHARS:  # the console's page, not the API's JSON 422
            why = (
                f"'done' must be a submission id, at most {DONE_MAX_CHARS} characters (got "
                f"{len(done):,}): this link was not made by the console; the queue is below"
            )
            return _page(pages, request, who, error=why, status=422)
        return _page(pages, request, who, done=done)

    @router.post("/spot-checks/{submission_id}/labels")
    async def label(request: Request, submission_id: str) -> Response:
        who = await asyncio.to_thread(pages.signed_in, request)
        if who is None:
            return pages._refused(request, "sign in first.")
        fields = await pages._form(request, who[1].nonce, who)
        if isinstance(fields, TooLarge):
            return await asyncio.to_thread(
                _page, pages, request, who, error=fields.message, failed=submission_id,
                status=413, typed=fields.fields,
            )  # fmt: skip
        if isinstance(fields, Response):
            return fields
        try:
            await asyncio.to_thread(_label, pages, who[0], submission_id, fields)
        except (InputError, PermissionDeniedError, SubmissionNotFoundError) as exc:
            status = (
                403 if isinstance(exc, PermissionDeniedError)
                else 404 if isinstance(exc, SubmissionNotFoundError)
                else 409 if isinstance(exc, SpotCheckConflictError)
                else 422
            )  # fmt: skip
            why = _not_sampled(submission_id) if isinstance(exc, NotSampledError) else str(exc)
            return await asyncio.to_thread(
                _page, pages, request, who, error=why, failed=submission_id, status=status,
                typed=fields,
            )  # fmt: skip
        target = f"/ui/spot-checks?done={urllib.parse.quote(submission_id, safe='')}"
        return RedirectResponse(target, status_code=303)


def _not_sampled(submission_id: str) -> str:
    """The console's words for a label of a round not in the queue (the API names its route)."""
    return (
        f"round {submission_id} was never sampled nor asked for, so it cannot be labelled yet: "
        'open it (its task\'s page) and press "Ask for a spot-check" on the round, then label it '
        "here. Nothing was stored."
    )


def _label(pages: ConsolePages, me: Principal, submission_id: str, fields: dict[str, str]) -> None:
    """Record the form's label as ``me`` (``Operations.label_spot_check``).

    Raises:
        PermissionDeniedError: no ``spot-check`` scope.
        InputError: a field that is not one (``label_fields``; a missed rule QGS does not
            have is named as the form's ``missed_rule``); the operation's conflicts.
    """
    if not me.has(SCOPE_SPOT_CHECK):
        raise PermissionDeniedError(
            f"{me.name!r} may not label spot-checks: the key has no "
            f"`{SCOPE_SPOT_CHECK}` scope (`qgs keys create --operator {me.name} "
            f"--scope view --scope {SCOPE_SPOT_CHECK} --sees PRINCIPAL`)"
        )
    right, verdict, severities, note = label_fields(fields)
    missed = fields.get("missed_rule", "").strip()
    if missed:
        pages.ops.check_name("rule", missed, field="missed_rule")
    pages.ops.label_spot_check(
        me, submission_id,
        decision_correct=right, verdict=verdict, severities=severities, note=note,
    )  # fmt: skip


def _page(
    pages: ConsolePages, request: Request, who: tuple[Principal, Session],
    *, done: str = "", error: str = "", failed: str = "", status: int = 200,
    typed: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    me = who[0]
    if not (me.operator and me.has(SCOPE_VIEW)):
        return pages._refused(
            request,
            "the spot-checks page is for operators with the `view` scope (agents use "
            "GET /v1/spot-checks).",
            who,
        )
    ops = pages.ops
    queue = ops.spot_checks(me, status="open", limit=1000)
    shown = []
    for item in queue[:SHOWN]:
        found = ops.spot_check(me, item["submission_id"])
        fired: dict[str, str] = {}
        for f in found["findings"]:
            rule = f.get("rule") or f.get("category") or ""
            if rule:
                worst = fired.get(rule)
                fired[rule] = f["severity"] if worst is None else min(worst, f["severity"])
        shown.append({"item": item, "check": found, "fired": sorted(fired.items())})
    context: dict[str, Any] = {
        "queue": shown,
        "open_count": len(queue),
        "agreement": ops.agreement(me),
        "can_label": me.has(SCOPE_SPOT_CHECK),
        "verdicts": [v.value for v in Verdict],
        "severities": SEVERITY_CHOICES,
        "missed_severities": MISSED_SEVERITY_CHOICES,
        "known_rules": known_rules() if me.has(SCOPE_SPOT_CHECK) else [],
        "rule_max_chars": RULE_MAX_CHARS,
        "done": done,
        "error": error,
        "failed": failed,
        "typed": typed or {},
    }
    return pages.render(request, "spot_checks.html.j2", who, context, status)
