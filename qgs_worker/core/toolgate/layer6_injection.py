"""Layer 6, injection: each string argument checked by the detectors of its kind.

The kinds come from the tool's spec (``x-qgs-kind``, or inferred from the parameter's name and
description: ``kinds.py``); the checks are ``core.argscan.scan_argument``, the same detectors
the review pipeline and ``qgs scan`` use (issue 5: "share the detectors rather than writing
them twice"). A finding's severity decides the layer's status:

| kind | FAIL | WARN |
| --- | --- | --- |
| ``command`` | P0, P1 (a destructive command, a download piped into a shell, Shellshock...) | P2-P4: command substitution, chaining and code execution are what a shell tool is for |
| every other kind | P0, P1, P2 (SQL injection, XSS, traversal, SSRF, prompt injection...) | P3-P4 |

Every string value of the arguments is scanned, wherever it is (JSON path ``$.a.b[0]``): one
whose path has a kind in the spec (declared or inferred) uses it; any other string, one the
schema does not type as a string (``"command": {}``, ``"opts": {"type": "object"}``, an
undeclared property under ``additionalProperties: true``), gets a kind from its own key name by
the name words of ``kinds.py`` (``command``, ``sql``, ``url``, ``path``, any ``html`` token), else
free text. A free-text value that is one whole URL (``kinds.looks_like_url``) is checked as a
URL too, but only a P0 blocks it (``browse(location="http://169.254.169.254/")``: cloud
metadata); a private or loopback address there is a WARN, since a link in a message may be
posted, not fetched. Declare the argument ``x-qgs-kind: url`` to enforce every URL rule.

Beside the per-argument checks, the whole call is read for what it would let out
(``detectors.scan_data_out``, the audit's secret and personal-data rules): a real credential in
any argument (P1) or a card or ID number sent out (P0) fails; contact details sent out and
personal data written to a file (P2) warn.

Injection syntax outside a ``command`` argument has no legitimate use worth the risk: a file
name with ``$(...)``, a SQL value with ``' OR 1=1``, an e-mail body telling the next agent to
ignore its instructions. Errors start with the argument's JSON path and name the detector's
category; a finding's evidence is shown (secrets are never in evidence).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from qgs_worker.core.argscan import scan_argument
from qgs_worker.core.detectors import scan_data_out
from qgs_worker.core.models import ArgumentKind, Severity
from qgs_worker.core.toolgate.base import CheckContext, FunctionLayer, LayerResult
from qgs_worker.core.toolgate.kinds import is_database_tool, kind_of_name, looks_like_url
from qgs_worker.core.toolgate.spec import ToolSpec

if TYPE_CHECKING:
    from qgs_worker.core.toolgate.calls import ParsedCall

__all__ = ["LAYER", "NAME", "NUMBER", "check", "key_kind"]

NUMBER = 6
NAME = "injection"
_PASS = LayerResult.of(NUMBER, NAME)
_FAIL_AT: dict[ArgumentKind, frozenset[Severity]] = {
    kind: frozenset({Severity.P0, Severity.P1})
    if kind is ArgumentKind.COMMAND
    else frozenset({Severity.P0, Severity.P1, Severity.P2})
    for kind in ArgumentKind
}
_MAX_DEPTH = 32  # deeper values are not reached (a JSON nesting no tool schema has)
_URL_BY_VALUE: Any = object()
"""The kind of a free-text value that is one whole URL: checked as a URL, blocking on P0 only."""
_FAIL_BY_VALUE = frozenset({Severity.P0})
_FAIL_BY_DATA = frozenset({Severity.P0, Severity.P1})
"""What a call would let out (``detectors.scan_data_out``) fails at P0-P1: a real credential in
any argument, a card or ID number sent out; contact details sent out, personal data written to
a file (P2) warn, as a message to a person often carries them."""


class _SpecKinds:
    """What the walk needs of one spec, computed once: kind paths and the database flag."""

    __slots__ = ("database_tool", "paths", "spec")

    def __init__(self, spec: ToolSpec) -> None:
        self.spec = spec
        # ``files[].path`` as the walk spells it: the JSON path without ``$.`` and indexes
        self.paths: dict[str, ArgumentKind] = {p: ArgumentKind(k) for p, k in spec.kinds.items()}
        self.database_tool = is_database_tool(spec.name, spec.description)


# per spec; the spec is kept beside its entry so a reused id() is caught
_SPECS: dict[int, _SpecKinds] = {}


def check(call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
    """Scan every string argument the spec gives a kind to (the module's table).

    Args:
        call: The parsed call (layers 1-3 passed, so ``arguments`` is an object).
        spec: The registered tool; ``None`` passes (layer 2 already stopped such a call).
        context: Unused; layers share one signature.

    Returns:
        FAIL with one error per blocking finding (``$.query: sql_injection: ...``), WARN with
        the others, PASS when every argument is clean.
    """
    if spec is None or not call.arguments:
        return _PASS
    errors: list[str] = []
    warnings: list[str] = []
    tool = call.name or spec.name
    for where, value, kind in _strings(call.arguments, spec):
        if kind is _URL_BY_VALUE:  # a link in a text argument may be posted, not fetched
            kind, fail_at = ArgumentKind.URL, _FAIL_BY_VALUE
        else:
            fail_at = _FAIL_AT[kind]
        for finding in scan_argument(value, kind, location=where, tool=tool):
            line = f"{where}: {finding.category} ({finding.severity.value}): {finding.title}"
            if finding.evidence:
                line += f": {finding.evidence}"
            (errors if finding.severity in fail_at else warnings).append(line)
    for finding in scan_data_out(call.to_tool_call()):
        where = "$." + finding.location.split(".", 1)[1] if "." in finding.location else "$"
        line = f"{where}: {finding.category} ({finding.severity.value}): {finding.title}"
        if finding.evidence:
            line += f": {finding.evidence}"
        (errors if finding.severity in _FAIL_BY_DATA else warnings).append(line)
    if not errors and not warnings:
        return _PASS
    suggestion = (
        "do not run this call: an argument carries injection syntax or instructions for an "
        "agent; check where the value came from (a tool output, a web page)"
        if errors
        else None
    )
    return LayerResult.of(NUMBER, NAME, tuple(errors), tuple(warnings), suggestion)


def _strings(
    arguments: Mapping[str, Any], spec: ToolSpec
) -> Iterator[tuple[str, str, ArgumentKind]]:
    """Every non-empty string of ``arguments`` with its JSON path and kind (the module's rules).

    Top-level strings (most calls have nothing else) are read in a plain loop; nested values
    go through ``_walk``.
    """
    entry = _SPECS.get(id(spec))
    if entry is None or entry.spec is not spec:
        entry = _SPECS[id(spec)] = _SpecKinds(spec)
    paths, database_tool = entry.paths, entry.database_tool
    for name, value in arguments.items():
        if isinstance(value, str):
            if value:
                kind = paths.get(name)
                if kind is None:
                    kind = key_kind(name, database_tool)
                if kind is ArgumentKind.FREE_TEXT and looks_like_url(value):
                    kind = _URL_BY_VALUE
                yield f"$.{name}", value, kind
        elif isinstance(value, Mapping | list):
            yield from _walk(value, f"$.{name}", name, name, entry, 1)


def _walk(
    value: Any, where: str, path: str, key: str, spec: _SpecKinds, depth: int
) -> Iterator[tuple[str, str, ArgumentKind]]:
    # ``where`` is the JSON path ($.files[2].path), ``path`` the spec's spelling (files[].path),
    # ``key`` the nearest property name (an array item takes its array's)
    if isinstance(value, str):
        if value:
            kind = spec.paths.get(path)
            if kind is None:
                kind = key_kind(key, spec.database_tool)
            if kind is ArgumentKind.FREE_TEXT and looks_like_url(value):
                kind = _URL_BY_VALUE
            yield where, value, kind
    elif depth >= _MAX_DEPTH:
        return
    elif isinstance(value, Mapping):
        for name, item in value.items():
            name = str(name)
            yield from _walk(
                item, f"{where}.{name}", f"{path}.{name}" if path else name, name, spec, depth + 1
            )
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{where}[{index}]", f"{path}[]", key, spec, depth + 1)


def key_kind(name: str, database_tool: bool = False) -> ArgumentKind:
    """The kind of a value from its property name alone (``kinds.kind_of_name``), else free text."""
    return kind_of_name(name, database_tool) or ArgumentKind.FREE_TEXT


LAYER = FunctionLayer(NUMBER, NAME, check)
"""The injection layer, ready for ``ToolGate(layers=...)``."""
