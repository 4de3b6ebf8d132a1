"""The rules table: QGS's danger knowledge in one public place, a module per threat family.

Every deterministic check of QGS reads it: the detectors (``detectors.scan_text``,
``scan_tool_call``, ``scan_round``), the tool gate's injection layer (``argscan.scan_argument``,
layer 6), the personal-data, SSRF and file-write checks (``pii``, ``ssrf``, ``filewrites``) and
the rules judge's safety score (``judges/rules_judge.py``). Each rule (``base.Rule``) has an id,
a family, the category it reports, a title, patterns (and an accept test), its source, and its
severity by context (``base.Context``: prose, deliverable, tool call made, tool output, data
sent or written, and a tool argument of each kind). Every finding made from a rule carries its
id in ``Finding.rule``.

| family | module | what |
| --- | --- | --- |
| ``destructive`` | ``destructive.py`` | commands that wipe disks, machines and clouds; reverse shells; force pushes |
| ``sql`` | ``sql.py`` | mass deletion statements, SQL injection syntax, privilege changes |
| ``xss`` | ``xss.py`` | script injection markup and script URLs |
| ``execution`` | ``execution.py`` | shell syntax smuggled into values, code execution, Shellshock, JNDI lookups |
| ``secrets`` | ``secrets.py`` | private keys, vendor tokens, passwords in the clear, documented example values |
| ``pii`` | ``pii.py`` | card numbers, national IDs, e-mail addresses, phone numbers |
| ``ssrf`` | ``ssrf.py`` | cloud metadata, internal and encoded addresses, dangerous URL schemes |
| ``paths`` | ``paths.py`` | traversal, secret and probe files, persistence files a write plants |
| ``judge`` | ``judge.py`` | orders to the grader to pass a deliverable |
| ``prompt`` | ``prompt.py`` | prompt injection, jailbreaks, system-prompt extraction |

Each module's docstring is its table (rules, what they match, severity per context).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

from types import MappingProxyType

from qgs_worker.core.models import Severity
from qgs_worker.core.rules import (
    destructive,
    execution,
    judge,
    paths,
    pii,
    prompt,
    secrets,
    sql,
    ssrf,
    xss,
)
from qgs_worker.core.rules.base import Context, Rule, rule

__all__ = [
    "FAMILIES",
    "Context",
    "Rule",
    "all_rules",
    "by_family",
    "by_id",
    "in_context",
    "rule",
]

FAMILIES: MappingProxyType[str, tuple[Rule, ...]] = MappingProxyType(
    {
        module.FAMILY: module.RULES
        for module in (destructive, sql, xss, execution, secrets, pii, ssrf, paths, judge, prompt)
    }
)
"""The rules of each family, in the table's order (which decides the order of findings)."""

_ALL: tuple[Rule, ...] = tuple(r for family in FAMILIES.values() for r in family)
_BY_ID: dict[str, Rule] = {}
for _rule in _ALL:
    if _rule.rule_id in _BY_ID:
        raise ValueError(f"rule id {_rule.rule_id!r} appears twice in the rules table")
    if _rule.family not in FAMILIES:
        raise ValueError(f"rule {_rule.rule_id!r} names an unknown family {_rule.family!r}")
    _BY_ID[_rule.rule_id] = _rule
del _rule


def all_rules() -> tuple[Rule, ...]:
    """Every rule of the table, family by family in the order of ``FAMILIES``."""
    return _ALL


def by_id(rule_id: str) -> Rule:
    """The rule with this id.

    Raises:
        KeyError: No rule has this id; the message lists the families to look in.
    """
    try:
        return _BY_ID[rule_id]
    except KeyError:
        raise KeyError(
            f"no rule {rule_id!r} in the rules table (families: {', '.join(FAMILIES)})"
        ) from None


def by_family(family: str) -> tuple[Rule, ...]:
    """The rules of one family (``destructive``, ``sql``...).

    Raises:
        KeyError: Not a family of the table; the message lists them.
    """
    try:
        return FAMILIES[family]
    except KeyError:
        raise KeyError(f"no family {family!r} (families: {', '.join(FAMILIES)})") from None


def in_context(context: Context) -> tuple[tuple[Rule, Severity], ...]:
    """The rules checked in ``context`` with their severity there, most severe first.

    Within one severity the table's order is kept (a stable sort), so the checks of a context
    run from P0 down, as ``argscan`` needs (a weaker rule of a category already found is skipped).
    """
    checked = [(r, s) for r in _ALL if (s := r.severity_in(context)) is not None]
    return tuple(sorted(checked, key=lambda pair: -pair[1].weight))
