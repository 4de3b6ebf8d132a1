"""Layer 6, injection: each string argument checked by the detectors of its kind.

The kinds come from the tool's spec (``x-qgs-kind``, or inferred from the parameter's name and
description: ``kinds.py``); the checks are ``core.argscan.scan_argument``, the same detectors
the review pipeline and ``qgs scan`` use (issue 5: "share the detectors rather than writing
them twice"). A finding's severity decides the layer's status:

| kind | FAIL | WARN |
| --- | --- | --- |
| ``command`` | P0, P1 (a destructive command, a download piped into a shell, Shellshock...) | P2-P4: command substitution, chaining and code execution are what a shell tool is for |
| every other kind | P0, P1, P2 (SQL injection, XSS, traversal, SSRF, prompt injection...) | P3-P4 |

Injection syntax outside a ``command`` argument has no legitimate use worth the risk: a file
name with ``$(...)``, a SQL value with ``' OR 1=1``, an e-mail body telling the next agent to
ignore its instructions. Errors start with the argument's JSON path and name the detector's
category; a finding's evidence is shown (secrets are never in evidence).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from qgs_worker.core.argscan import scan_argument
from qgs_worker.core.models import ArgumentKind, Severity
from qgs_worker.core.toolgate.base import CheckContext, FunctionLayer, LayerResult
from qgs_worker.core.toolgate.paths import ArgumentPath
from qgs_worker.core.toolgate.spec import ToolSpec

if TYPE_CHECKING:
    from qgs_worker.core.toolgate.calls import ParsedCall

__all__ = ["LAYER", "NAME", "NUMBER", "check"]

NUMBER = 6
NAME = "injection"
_PASS = LayerResult.of(NUMBER, NAME)
_FAIL_AT: dict[ArgumentKind, frozenset[Severity]] = {
    kind: frozenset({Severity.P0, Severity.P1})
    if kind is ArgumentKind.COMMAND
    else frozenset({Severity.P0, Severity.P1, Severity.P2})
    for kind in ArgumentKind
}
# The spec's kind paths, compiled once; the spec is kept beside them so a reused id() is caught.
_PATHS: dict[int, tuple[ToolSpec, tuple[tuple[ArgumentPath, ArgumentKind], ...]]] = {}


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
        for finding in scan_argument(value, kind, location=where, tool=tool):
            line = f"{where}: {finding.category} ({finding.severity.value}): {finding.title}"
            if finding.evidence:
                line += f": {finding.evidence}"
            (errors if finding.severity in _FAIL_AT[kind] else warnings).append(line)
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
    entry = _PATHS.get(id(spec))
    if entry is None or entry[0] is not spec:
        compiled = tuple((ArgumentPath(p), ArgumentKind(k)) for p, k in spec.kinds.items())
        entry = _PATHS[id(spec)] = (spec, compiled)
    paths = entry[1]
    for path, kind in paths:
        for where, value in path.values(arguments):
            if isinstance(value, str) and value:
                yield where, value, kind


LAYER = FunctionLayer(NUMBER, NAME, check)
"""The injection layer, ready for ``ToolGate(layers=...)``."""
