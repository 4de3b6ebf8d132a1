"""What the spot-check operations check and how they show it (``api.spot_checks``' helpers).

The limits of a note and a name, the values a filter or a label takes, the scope a write
needs, whose tasks a principal's spot-checks cover, and a shadow state as a key that may not
see every label sees it.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from qgs_worker.core.free_text import check_free_text
from qgs_worker.core.models import Severity
from qgs_worker.core.spotcheck import NO_FINDING, ShadowPolicy, ShadowState
from qgs_worker.errors import InputError, PermissionDeniedError
from qgs_worker.store.keys import SCOPE_SPOT_CHECK

if TYPE_CHECKING:
    from qgs_worker.api.access import Principal

__all__ = [
    "NOTE_MAX_CHARS",
    "RULE_MAX_CHARS",
    "SEVERITIES",
    "STATUSES",
    "check_note",
    "needs_scope",
    "one_of",
    "owners_of",
    "without_figures",
]

NOTE_MAX_CHARS = 2_000
"""The longest note a spot-check request, label or shadow decision may carry, in characters."""
RULE_MAX_CHARS = 128
"""The longest rule id or judge name a label or shadow decision may name."""
STATUSES = ("open", "labelled", "stale", "all")
"""The queue views ``spot_checks`` offers."""
SEVERITIES = (*(s.value for s in Severity), NO_FINDING)
"""What a person may give a rule: a severity, or ``none`` (it should not have fired)."""


def without_figures(state: ShadowState, policy: ShadowPolicy) -> dict[str, Any]:
    """A shadow state as a key that may not see every label sees it: no counts, no kappa."""
    listed = state.name in (policy.judges if state.kind == "judge" else policy.rules)
    if state.changed_by == "qgs":
        why = "left shadow on its own: people's agreement passed the threshold"
    elif state.changed_by is not None:
        where = "in shadow" if state.in_shadow else "deciding"
        why = f"{where}: {state.changed_by} decided"
    elif not listed:
        why = "not in the shadow settings"
    elif state.p0:
        why = "it can raise P0: it enters shadow only by a person's decision, never by the settings"
    elif state.in_shadow:
        why = "in shadow (the settings) until people's agreement passes the threshold"
    else:
        why = "deciding: people's agreement passed the threshold"
    return {**state.to_dict(), "why": why, "labels": None, "kappa": None, "figures_shown": False}


def owners_of(principal: Principal) -> list[str | None] | None:
    """Whose tasks' spot-checks the principal sees: its own; an operator's, those it ``sees``."""
    visible = principal.visible_principals()
    return None if visible is None else list(visible)


def needs_scope(principal: Principal, what: str) -> None:
    """Refuse a principal without the ``spot-check`` scope to do ``what``.

    Raises:
        PermissionDeniedError: no such scope; the message names the ``qgs keys create`` fix.
    """
    if not principal.has(SCOPE_SPOT_CHECK):
        kind = "--operator" if principal.operator else "--principal"
        # an operator key needs --sees (`qgs keys create` exits 2 without it); moving a judge or
        # rule in or out of shadow needs every task seen
        sees = " --sees all" if principal.operator else ""
        raise PermissionDeniedError(
            f"key {principal.key_id} of {principal.name!r} may not {what}: make a key with "
            f"`qgs keys create {kind} {principal.name} --scope {SCOPE_SPOT_CHECK}{sees}`"
        )


def one_of(field: str, value: str, allowed: Any) -> None:
    """Refuse a value not in ``allowed``, naming the field, the value and the close one.

    Raises:
        InputError: after the message's ``: `` the fix lists every valid value (the problem
            document's ``fix``).
    """
    if value in allowed:
        return
    listed = ", ".join(allowed)
    close = difflib.get_close_matches(value, list(allowed), n=1, cutoff=0.6)
    if not close:
        close = [a for a in allowed if a.lower() == value.lower()]
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise InputError(f"'{field}' {value!r} is not one: {hint}send one of {listed}")


def check_note(note: str) -> None:
    """Refuse a note over ``NOTE_MAX_CHARS``, or with a control character (``check_free_text``).

    Raises:
        InputError: too long, or a NUL or other control character (a 422 naming ``note``).
    """
    try:
        check_free_text(note, "note")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if len(note) > NOTE_MAX_CHARS:
        raise InputError(
            f"'note' must be at most {NOTE_MAX_CHARS:,} characters (got {len(note):,}): keep "
            "the reason short"
        )
