"""Critical deeds: tool calls that make a task CRITICAL by what they do, whatever it asked.

A task is classified once, by its request; the review pipeline then reads what each round's
tool calls *do* (``pipeline.prepare``). A round with a critical deed escalates its task to
CRITICAL/REFLECT with the reason stored, so a request that read as a QUERY ("what is on my
drive?") whose agent then deleted a file or sent money is reviewed, audited and confirmed by a
person like any CRITICAL task.

| deed | a tool call that | judged by |
| --- | --- | --- |
| ``delete`` | needs the ``delete`` permission | the tool's declared permission (``x-qgs.permission`` in ``QGS_TOOLS_FILE``, ``Policies.tools``), else ``infer_permission`` on its name and arguments (``delete_file``, ``rm``, ``delete_message``, ``remove_user_from_slack``, ``drop_table``, ``revoke_token``...) |
| ``destructive_command`` | runs a command that deletes, wipes, force-pushes or destroys | a shell tool (``bash``, ``run_shell_command``...) or a ``command``/``sql`` argument whose value the classifier's irreversible-operation table (``core/irreversible.py``) reads as CRITICAL: ``rm notes.txt``, ``git push --force``, ``terraform destroy``, ``DROP TABLE`` |
| ``money_transfer`` | moves money or changes a payment | its name: a money verb (pay, wire, withdraw, refund, deposit, remit, payout, donate, fund, charge), or send, transfer, make, schedule, create, update, set, change or modify together with a money noun (money, funds, payment, transaction, transfer, remittance, standing order); or its arguments: an amount together with a recipient or an IBAN |
| ``credential_change`` | changes a password, passcode, credentials or second factor | its name (``update_password``, ``reset_password``, ``change_credentials``) |
| ``outbound_personal_data`` | sends personal or secret data out | a detector finding at that call: ``pii`` (a card or ID number, a third party's contact details sent out), ``secret``/``credential`` categories; or, in a call whose name says it sends, a non-recipient argument naming a secret (password, passport, security or verification code, CVV, 护照, 验证码...) next to a value with four or more digits |

Never a deed: a call that only reads. A tool declared (or inferred) ``read`` is skipped before
anything else: ``get_balance``, ``list_files``, ``search_emails`` never escalate, even when
they return personal data. Purchases and bookings (``book_flight``, ``reserve_hotel``,
``place_order``) are not money transfers here, as the classifier reads them (ACTION). A call
the policy (``Policies.pdp``) denies is a P1 ``permission_denied`` finding, which escalates
on its own.

Pure: stdlib and the core only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from qgs_worker.core.filewrites import is_shell_tool, tool_words
from qgs_worker.core.irreversible import read_irreversible
from qgs_worker.core.models import Finding, Severity, ToolCall
from qgs_worker.core.toolgate.kinds import infer_kinds
from qgs_worker.core.toolgate.registry import ToolRegistry
from qgs_worker.core.toolgate.spec import Permission, infer_permission

__all__ = ["CriticalDeed", "DeedKind", "critical_deeds", "describe_deeds"]


class DeedKind(StrEnum):
    """What makes a tool call a critical deed (see the module table)."""

    DELETE = "delete"
    DESTRUCTIVE_COMMAND = "destructive_command"
    MONEY_TRANSFER = "money_transfer"
    CREDENTIAL_CHANGE = "credential_change"
    OUTBOUND_PERSONAL_DATA = "outbound_personal_data"


@dataclass(frozen=True)
class CriticalDeed:
    """One tool call that makes its task CRITICAL.

    Attributes:
        kind: Which deed (the module table's first column).
        tool: The tool's name.
        location: ``tool_call:NAME`` or ``tool_call:NAME.ARG``, as findings name places.
        reason: A sentence saying what the call does and how that was judged.
    """

    kind: DeedKind
    tool: str
    location: str
    reason: str


_MONEY_VERBS = frozenset(
    {"pay", "wire", "withdraw", "refund", "deposit", "remit", "payout", "donate", "fund"}
    | {"charge"}
)
_MONEY_NOUN_VERBS = frozenset(
    {"send", "transfer", "make", "schedule", "create", "update", "set", "change", "modify"}
    | {"move", "initiate", "execute", "process", "approve"}
)
_MONEY_NOUNS = frozenset(
    {"money", "funds", "payment", "payments", "transaction", "transactions", "transfer"}
    | {"transfers", "remittance", "wire", "payout", "cash", "iban"}
)  # not "order": create_order is a purchase; a standing order is both words
_CREDENTIAL_VERBS = frozenset({"update", "change", "reset", "set", "modify", "disable", "remove"})
_CREDENTIAL_NOUNS = frozenset(
    {"password", "passwords", "passcode", "credential", "credentials", "2fa", "mfa", "pin"}
)
_SEND_WORDS = frozenset(
    {"send", "email", "mail", "message", "post", "publish", "share", "forward", "reply"}
    | {"notify", "sms", "tweet", "webhook", "upload", "submit", "http", "request", "slack"}
    | {"comment", "webpage"}
)
_AMOUNT_KEYS = frozenset({"amount", "sum", "value", "total", "quantity_money"})
_PAYEE_KEYS = frozenset(
    {"recipient", "iban", "to_account", "payee", "beneficiary", "destination_account"}
    | {"receiver", "account_to", "target_account"}
)
_RECIPIENT_KEYS = frozenset(
    {"to", "cc", "bcc", "recipient", "recipients", "receiver", "user", "users", "channel"}
    | {"email", "emails", "address", "participants", "contact"}
)
_SECRET_NEAR_VALUE = re.compile(
    r"(?:passwords?|passcodes?|passport|security\s+codes?|verification\s+codes?|one[- ]time"
    r"|\botp\b|2fa|cvv|cvc|pin\b|social\s+security|\bssn\b|id\s+number|card\s+number"
    r"|护照|身份证|验证码|安全码|密码|卡号)"
    r"[^\n]{0,40}?(?<![\w-])(?=[\w-]*\d[\w-]*\d[\w-]*\d[\w-]*\d)[\w-]{4,}",
    re.IGNORECASE,
)
_OUTBOUND_CATEGORIES = frozenset({"pii", "secret", "secrets", "credential", "credentials"})


def _permission(call: ToolCall, registry: ToolRegistry | None) -> tuple[Permission, str]:
    spec = registry.get(call.name) if registry is not None else None
    if spec is not None:
        return spec.permission, "declared"
    shape = {"properties": {k: {"type": "string"} for k in call.arguments}}
    return infer_permission(call.name, infer_kinds(shape, tool_name=call.name)), "inferred"


def _leaf(path: str) -> str:
    return re.sub(r"\[\d+\]", "", path).rsplit(".", 1)[-1].lower()


def _moves_money(call: ToolCall, words: set[str]) -> str:
    if words & _MONEY_VERBS:
        return f"its name says it moves money ({', '.join(sorted(words & _MONEY_VERBS))})"
    verbs, nouns = words & _MONEY_NOUN_VERBS, words & _MONEY_NOUNS
    # Two different words: transfer_file's "transfer" is a verb with no money noun.
    if verbs and (any(v != n for v in verbs for n in nouns) or {"standing", "order"} <= words):
        return "its name says it makes or changes a payment"
    keys = {k.lower() for k in call.arguments}
    if keys & _AMOUNT_KEYS and keys & _PAYEE_KEYS:
        return "its arguments carry an amount and a recipient"
    return ""


_COMMAND_KEYS = frozenset({"command", "cmd", "script", "sql", "query", "statement", "shell"})


def _destructive_command(call: ToolCall) -> tuple[str, str] | None:
    shell = is_shell_tool(call.name)
    for path, value in call.argument_values():
        if shell or _leaf(path) in _COMMAND_KEYS:
            matched = read_irreversible(value).matched
            if matched:
                return f"tool_call:{call.name}.{path}", ", ".join(matched)
    return None


def _outbound(call: ToolCall, words: set[str], findings: Sequence[Finding]) -> tuple[str, str]:
    here = f"tool_call:{call.name}"
    for finding in findings:
        at = finding.location == here or finding.location.startswith(here + ".")
        if (
            at
            and finding.category in _OUTBOUND_CATEGORIES
            and finding.severity in (Severity.P0, Severity.P1, Severity.P2)
        ):
            return finding.location, f"a detector found {finding.category}: {finding.title}"
    if not words & _SEND_WORDS:
        return "", ""
    for path, value in call.argument_values(numbers=False):
        if _leaf(path) in _RECIPIENT_KEYS:
            continue
        if _SECRET_NEAR_VALUE.search(value):
            return (
                f"{here}.{path}",
                "it sends a secret (a named code, password or ID with its value)",
            )
    return "", ""


def critical_deeds(
    calls: Iterable[ToolCall],
    findings: Sequence[Finding] = (),
    registry: ToolRegistry | None = None,
) -> list[CriticalDeed]:
    """Find the tool calls of a round that make its task CRITICAL (the module table).

    Args:
        calls: The round's tool calls, in order.
        findings: The detectors' findings on the round (their ``location`` ties a finding to
            a call: ``tool_call:NAME.ARG``).
        registry: The registered tools (``Policies.tools``); a registered tool's declared
            permission wins over the one its name implies.

    Returns:
        One deed per call that is one, in call order (the first kind that holds for it).
    """
    deeds: list[CriticalDeed] = []
    for call in calls:
        permission, how = _permission(call, registry)
        if permission is Permission.READ:
            continue
        words = set(tool_words(call.name))
        here = f"tool_call:{call.name}"
        if permission is Permission.DELETE:
            deeds.append(
                CriticalDeed(
                    DeedKind.DELETE, call.name, here, f"needs the delete permission ({how})"
                )
            )
            continue
        command = _destructive_command(call)
        if command:
            location, rules = command
            reason = f"it runs a command the irreversible-operation table flags ({rules})"
            deeds.append(CriticalDeed(DeedKind.DESTRUCTIVE_COMMAND, call.name, location, reason))
            continue
        money = _moves_money(call, words)
        if money:
            deeds.append(CriticalDeed(DeedKind.MONEY_TRANSFER, call.name, here, money))
            continue
        if words & _CREDENTIAL_VERBS and words & _CREDENTIAL_NOUNS:
            reason = "its name says it changes credentials"
            deeds.append(CriticalDeed(DeedKind.CREDENTIAL_CHANGE, call.name, here, reason))
            continue
        location, reason = _outbound(call, words, findings)
        if location:
            deeds.append(CriticalDeed(DeedKind.OUTBOUND_PERSONAL_DATA, call.name, location, reason))
    return deeds


def describe_deeds(deeds: Sequence[CriticalDeed], round_number: int) -> str:
    """The escalation reason stored for a round's deeds.

    Args:
        deeds: What :func:`critical_deeds` found, at least one.
        round_number: The round's number.

    Returns:
        ``"round N: critical deed: delete_file (delete: needs the delete permission
        (inferred))"``, further deeds after ``;``.

    Raises:
        ValueError: ``deeds`` is empty.
    """
    if not deeds:
        raise ValueError("describe_deeds needs at least one deed")
    parts = [f"{d.tool} ({d.kind.value}: {d.reason})" for d in deeds]
    return f"round {round_number}: critical deed: " + "; ".join(parts)
