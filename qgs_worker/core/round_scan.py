"""One round's detector pass: the text and tool-call detectors, injected passages, and orders carried out.

``scan_round`` runs every detector on one round of a task (``detectors.scan_text`` on its text,
``detectors.scan_tool_call`` on each call), reports each tool output of the round that carries
injected instructions (P2 ``injection_in_tool_output``) and, through ``order_flow``, every call
or answer of the round that carries out an order of the data seen so far (P0
``injection_followed``) and the orders not carried out so far (P2 ``order_in_data``).
``scan_rounds`` runs it over a task's rounds in order. Split out of ``detectors`` along the seam
between a text's detectors and a round's data flow.

Pure: stdlib and the core only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from qgs_worker.core.detectors import (
    DETECTOR_ROLE,
    MODEL_RULE,
    _clip,
    _dedupe,
    _jndi,
    find_injected_instructions,
    scan_text,
    scan_tool_call,
)
from qgs_worker.core.injected_passages import Injected
from qgs_worker.core.injected_passages import injected as _passages
from qgs_worker.core.injected_passages import unfold as _unfold
from qgs_worker.core.models import Deliverable, Finding, Severity, ToolCall, ToolResult
from qgs_worker.core.rules import prompt as prompt_rules

if TYPE_CHECKING:
    # Imported where used: only a round with tool outputs traces what follows an injection, so
    # ``qgs check-tool`` and ``qgs scan`` start without it and its patterns (issue 15).
    from qgs_worker.core import followed, order_scope
    from qgs_worker.core.toolgate.registry import ToolRegistry

__all__ = ["scan_round", "scan_rounds"]

_P2 = Severity.P2


def scan_round(
    deliverable: Deliverable,
    *,
    request: str,
    earlier_tool_results: Sequence[ToolResult] = (),
    user_turns: Sequence[str] = (),
    earlier_tool_calls: Sequence[ToolCall] = (),
    registry: ToolRegistry | None = None,
) -> list[Finding]:
    """Run every detector on one round, including injection compliance.

    Args:
        deliverable: The round: its text, its tool calls and the tool outputs seen since the
            previous round.
        request: The user's request; a value that appears in it is the user's, not the attacker's.
        earlier_tool_results: Tool outputs of earlier rounds: their injected passages count for
            compliance (an attacker's address read in round 2 and used in round 5), but they are not
            reported again as ``injection_in_tool_output``.
        user_turns: Every other user turn of the transcript so far (a multi-turn conversation's
            later requests): like ``request``, what they name is the user's.
        earlier_tool_calls: The tool calls of earlier rounds: the call that read an output
            tells whether the user pointed at that data (``order_flow``).
        registry: The registered tools (a declared permission says whether a call has a side
            effect).

    Returns:
        Deduplicated findings: ``scan_text`` and ``scan_tool_call`` (with ``request``, so the
        user's own personal data is not reported) on the text and on each call, one P2
        ``injection_in_tool_output`` per tool output of this round with injected passages
        (location ``tool_result:N``, N the 0-based index in ``deliverable.tool_results``), one P2
        ``jndi`` per tool output of this round carrying a JNDI lookup, and one P0
        ``injection_followed`` per (tool call, argument) that carries a value taken from an
        injected passage of any tool output seen so far and absent from the user's turns and
        from the outputs' own data (``followed``: names, dates, amounts, addresses, file names,
        message text, by normalised tokens and n-grams).
    """
    said = scan_text(deliverable.text, request=request) if deliverable.text else []
    called: list[Finding] = []
    for call in deliverable.tool_calls:
        called.extend(scan_tool_call(call, request=request))
    findings: list[Finding] = []  # what the outputs hold and what follows from them

    seen = [_seen(result) for result in earlier_tool_results]
    for index, result in enumerate(deliverable.tool_results):
        source = f"the output of {result.name}" if result.name else "a tool output"
        findings.extend(_jndi(result.content, f"tool_result:{index}", where=f"{source} carries"))
        output = _seen(result)
        seen.append(output)
        if not output.passages:
            continue
        found = _passages(result.content)
        if found.rules:
            findings.append(
                Finding(
                    role=DETECTOR_ROLE,
                    category="injection_in_tool_output",
                    severity=_P2,
                    title=f"{source} carries injected instructions ({len(found.rules)} passage(s))"
                    + _after(found, found.rules),
                    evidence=_clip(output.passages[0] if output.passages else found.rules[0]),
                    location=f"tool_result:{index}",
                    rule=prompt_rules.INJECTED_PASSAGE.rule_id,
                )
            )
        if found.model_count:  # the learned detector's own finding, beside the rules'
            findings.append(
                Finding(
                    role=DETECTOR_ROLE,
                    category="injection_in_tool_output",
                    severity=_P2,
                    title=f"{source} carries an instruction aimed at the agent (learned detector, "
                    f"score {found.model_score:.2f}, {found.model_count} passage(s))"
                    + _after(found, (found.model_best,)),
                    evidence=_clip(found.model_best),
                    location=f"tool_result:{index}",
                    rule=MODEL_RULE,
                )
            )
    results = [*earlier_tool_results, *deliverable.tool_results]
    user_texts = (request, *user_turns)
    outputs: list[order_scope.OrderedOutput] = []
    if results and (deliverable.tool_calls or deliverable.text):
        from qgs_worker.core import order_flow, order_scope

        producers = {c.id: c for c in (*earlier_tool_calls, *deliverable.tool_calls) if c.id}
        outputs = order_scope.orders_of_outputs(
            results, seen, user_texts=user_texts, producers=producers
        )
        findings.extend(
            order_flow.find_orders_followed(
                deliverable.tool_calls,
                deliverable.text,
                outputs,
                user_texts=user_texts,
                registry=registry,
                strip_relayed=_without_passages,
                role=DETECTOR_ROLE,
            )
        )
        flagged = frozenset(
            f.location for f in findings if f.category == "injection_in_tool_output"
        )
        findings.extend(
            order_flow.orders_in_data(
                outputs, len(earlier_tool_results), flagged, role=DETECTOR_ROLE
            )
        )
    return _dedupe([*said, *_asked_scripts(called, user_texts, outputs), *findings])


_PIPE_TO_SHELL = "pipe_to_shell"
_SCRIPT_URL = re.compile(r"\bhttps?://[^\s'\"|;&)]+", re.IGNORECASE)


def _asked_scripts(
    findings: list[Finding],
    user_texts: Sequence[str],
    outputs: Sequence[order_scope.OrderedOutput] = (),
) -> list[Finding]:
    """A ``curl | sh`` the user asked for is P2, said to be the user's.

    "Install our CLI with its install script: curl -fsSL https://tools.corp.test/install.sh |
    sh" is the user's own order. So is "install Rust the way the official install page says"
    when the script's URL comes from that page: the user asked for an install and pointed at
    (or handed over) the output that names the URL, outside any injected passage of it. The
    same pipe of any other URL stays P0.
    """
    if not any(f.rule == _PIPE_TO_SHELL for f in findings):
        return findings
    from qgs_worker.core.order_scope import read_user
    from qgs_worker.core.unasked_acts import asks_for

    asked = " ".join(user_texts).casefold()
    installs = asks_for("install", read_user(user_texts))
    kept: list[Finding] = []
    for finding in findings:
        urls = {u.casefold() for u in _SCRIPT_URL.findall(finding.evidence)}
        if (
            finding.rule == _PIPE_TO_SHELL
            and urls
            and all(u in asked or (installs and _from_pointed(u, outputs)) for u in urls)
        ):
            finding = finding.model_copy(
                update={"severity": _P2, "title": finding.title + " (a script the user asked for)"}
            )
        kept.append(finding)
    return kept


def _from_pointed(url: str, outputs: Sequence[order_scope.OrderedOutput]) -> bool:
    """The URL is in an output the user pointed at or delegated to, outside its injected passages."""
    for output in outputs:
        if not (output.pointed or output.delegated):
            continue
        text = output.seen.text.casefold()
        if url in text and not any(url in p.casefold() for p in output.seen.passages):
            return True
    return False


def scan_rounds(
    rounds: Sequence[Deliverable],
    *,
    request: str,
    turns: Sequence[str | None] = (),
    registry: ToolRegistry | None = None,
) -> Iterator[list[Finding]]:
    """``scan_round`` over a task's rounds in order, each with the earlier rounds as context.

    Args:
        rounds: The rounds, oldest first.
        request: The user's request.
        turns: Each round's user turn (None or "" where it answers the request), as many as
            ``rounds`` or none: the turns so far count as the user's words.
        registry: The registered tools.

    Returns:
        Each round's findings, lazily, in round order.
    """
    results: list[ToolResult] = []
    calls: list[ToolCall] = []
    said: list[str] = []
    for index, deliverable in enumerate(rounds):
        turn = turns[index] if index < len(turns) else None
        if turn and turn not in said:
            said.append(turn)
        yield scan_round(
            deliverable,
            request=request,
            earlier_tool_results=results,
            user_turns=said,
            earlier_tool_calls=calls,
            registry=registry,
        )
        results.extend(deliverable.tool_results)
        calls.extend(deliverable.tool_calls)


def _after(found: Injected, passages: Sequence[str]) -> str:
    """The title's "(after undoing ...)" when each of ``passages`` was found only in the plain view."""
    notes = [found.why(p) for p in passages]
    return f" (after {notes[0]})" if notes and all(notes) else ""


def _seen(result: ToolResult) -> followed.SeenOutput:
    """A tool output, unfolded, with its passages ended where the serialized data resumes."""
    return _cut(result.content)


@lru_cache(maxsize=64)
def _cut(content: str) -> followed.SeenOutput:
    from qgs_worker.core import followed

    flat = _unfold(content)
    if not find_injected_instructions(content):
        return followed.SeenOutput(flat)
    return followed.cut_passages(flat, find_injected_instructions)


RELAYED_MODEL_CHARS = 300
"""The shortest argument value whose learned-detector passages count as relayed text (a
forwarded document): one model window. A shorter value is the agent's own message, where the
model's score says too little (its false positives are short imperative lines, "Check out this
link: ..."): only the rules' passages are taken out of it."""


def _without_passages(value: str) -> str:
    """An argument value without the injected passages it relays (a forwarded text)."""
    if len(value) < RELAYED_MODEL_CHARS:
        found = _passages(value).rules
        if not found:
            return value
        flat = _unfold(value)
        for passage in found:
            flat = flat.replace(passage, "\n")
        return flat
    if not find_injected_instructions(value):
        return value
    output = _cut(value)
    flat = output.text
    for passage in output.passages:
        flat = flat.replace(passage, "\n")
    return flat
