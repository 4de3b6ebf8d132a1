"""The names a spot-check label or a shadow state may give: the rules and judges QGS has.

A label's ``severities`` and a shadow state (``qgs shadow KIND NAME``, ``POST /v1/shadow``,
``QGS_SPOTCHECK__SHADOW_RULES`` / ``_JUDGES``) name a detector rule or a judge. A typo there
would store a phantom: a rule no finding ever carries (a "miss" no detector can fix), a shadow
state that holds nothing back. So a name is checked against what QGS really has:

- **rules**: every id of the rules table (``core.rules``), and the rule ids the order-flow and
  refusal checks give their findings outside the table (``OUTSIDE_TABLE_RULES``); a label may
  also name what its own round's findings carry (an audit role's category, for one);
- **judges**: the names the configured judge's reviews carry (``judge_names``: ``rules judge``,
  ``openai:<model>``, ``panel(...)`` and its members); the operations add the judges that
  reviewed stored rounds.

    >>> unknown_name("name", "sql_dorp", rule_names(), "rule")[:45]
    "'name' names no rule QGS has (got 'sql_dorp')"

Pure: the standard library (``difflib``) and the rules table.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from qgs_worker.errors import InputError

__all__ = [
    "OUTSIDE_TABLE_RULES",
    "RULES_JUDGE",
    "check_name",
    "judge_names",
    "rule_names",
    "unknown_name",
]

OUTSIDE_TABLE_RULES = (
    "addressed_order",  # core.order_flow: an order in a tool output addressed to the agent
    "sensitive_order",  # core.order_flow: an order in a tool output naming a sensitive act
    "ordered_act",  # core.order_flow: a tool call does a sensitive act an order named
    "ordered_action",  # core.order_flow: a tool call does an action an order named
    "ordered_answer",  # core.order_answers: the answer carries out an order in the data
    "unasked_act",  # core.unasked_acts: a sensitive act only data named, of a class nobody asked
    "carried_contents",  # core.carried_contents: a file's contents passed on as an order asked
    "refusal",  # service.preparing: the deliverable refuses the task (models.REFUSAL)
)
"""Rule ids findings carry that the rules table does not hold (``tests/unit`` finds every one)."""

RULES_JUDGE = "rules judge"
"""The name the offline rules judge's reviews carry (``judges.rules_judge.JUDGE_NAME``)."""

CLOSE_MATCHES = 3
"""How many close names a refusal suggests, at most."""


def rule_names() -> frozenset[str]:
    """Every rule id a finding of QGS can carry: the rules table's and ``OUTSIDE_TABLE_RULES``."""
    from qgs_worker.core import rules

    return frozenset(r.rule_id for r in rules.all_rules()) | frozenset(OUTSIDE_TABLE_RULES)


def judge_names(kind: str, model: str, panel_models: Sequence[str] = ()) -> frozenset[str]:
    """The names the reviews of the judge ``QGS_JUDGE__*`` builds carry (``Review.judge``).

    Args:
        kind: ``rules``, ``openai`` or ``panel`` (``QGS_JUDGE__KIND``).
        model: The model of an ``openai`` judge (``QGS_JUDGE__MODEL``).
        panel_models: The models of a ``panel`` (``QGS_JUDGE__PANEL_MODELS``).

    Returns:
        ``{"rules judge"}``; ``{"openai:<model>"}``; or the panel's ``panel(openai:a, openai:b)``
        with each member's name. The same names ``judges.make_judge(...).name`` gives.
    """
    kind = kind.strip().lower()
    if kind == "openai":
        return frozenset({f"openai:{model}"})
    if kind == "panel":
        members = [f"openai:{m}" for m in panel_models]
        return frozenset({f"panel({', '.join(members)})", *members})
    return frozenset({RULES_JUDGE})


def unknown_name(field: str, value: str, known: Iterable[str], what: str) -> str | None:
    """The refusal of a ``what`` (``rule`` or ``judge``) name QGS does not have, or None.

    Args:
        field: The field the name came in (``name``, ``severities.sql_dorp``, a setting).
        value: The name given.
        known: Every name that would be accepted.
        what: ``rule`` or ``judge``.

    Returns:
        None when ``value`` is known; else one line naming the field, the value and up to
        ``CLOSE_MATCHES`` close names (``difflib``), then the fix.
    """
    names = sorted(set(known))
    if value in names:
        return None
    close = difflib.get_close_matches(value, names, n=CLOSE_MATCHES, cutoff=0.6)
    if what == "rule":
        fix = "name a rule id as a finding's `rule` shows it (the rules table: docs/rules.md)"
    else:
        fix = f"name one of the judges QGS has ({', '.join(repr(n) for n in names[:6])})"
    guess = f"did you mean {' or '.join(repr(c) for c in close)}? else " if close else ""
    return f"'{field}' names no {what} QGS has (got {value!r}): {guess}{fix}"


def check_name(field: str, value: str, known: Iterable[str], what: str) -> None:
    """Raise unless ``value`` is a known ``what`` name (see ``unknown_name``).

    Raises:
        InputError: the name is not one QGS has; the message names the field, the value, the
            close names and the fix (HTTP 422, an MCP tool error, ``qgs`` exit 2).
    """
    refused = unknown_name(field, value, known, what)
    if refused is not None:
        raise InputError(refused)
