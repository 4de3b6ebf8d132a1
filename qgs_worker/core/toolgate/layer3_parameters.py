"""Layer 3, parameters: do the arguments fit the tool's JSON Schema?

The schema's validators were built when the tool was registered (``schema.compile_schema``);
here they only run. FAIL with one error per problem, each starting with the argument's path
(``$.location.unit: 'kelvin' is not one of ['celsius', 'fahrenheit']``,
``$.team: missing required parameter``, ``$.debug: unknown parameter ...``); an unknown parameter
close to a declared one gets a did-you-mean suggestion. Never WARN.

How strict (``GateSettings.strictness``) and why unknown parameters fail are decided and
documented in ``schema.py``: lenient by default (the declared default, string forms of scalars
in a string enum, case, enums misplaced on arrays), while missing required parameters, values
outside an enum, wrong types and unknown parameters fail in both modes.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from qgs_worker.core.toolgate.base import CheckContext, FunctionLayer, LayerResult
from qgs_worker.core.toolgate.calls import ParsedCall
from qgs_worker.core.toolgate.spec import ToolSpec

__all__ = ["LAYER", "check"]

NUMBER = 3
NAME = "parameters"
_PASS = LayerResult.of(NUMBER, NAME)


def check(call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
    """Validate the call's arguments against its tool's schema.

    Args:
        call: The parsed call; its ``arguments`` must have been read (layer 1 passed).
        spec: The registered tool (layer 2 passed); ``None`` is a FAIL.
        context: Its settings give the strictness, the closing of objects and ``max_errors``.

    Returns:
        PASS, or FAIL with the errors (paths from ``$``, the arguments object).
    """
    if spec is None:
        return LayerResult.of(NUMBER, NAME, errors=(f"{call.name_path}: no registered tool",))
    arguments = call.arguments
    if arguments is None:
        return LayerResult.of(NUMBER, NAME, errors=(f"{call.arguments_path}: not readable",))
    settings = context.settings
    errors = spec.compiled.errors(
        arguments,
        settings.strictness,
        closed=settings.reject_unknown_parameters,
        max_errors=settings.max_errors,
    )
    if not errors:
        return _PASS
    return LayerResult.of(NUMBER, NAME, errors=errors, suggestion=_suggest(arguments, spec))


LAYER = FunctionLayer(NUMBER, NAME, check)
"""The parameters layer, for ``ToolGate(layers=...)``."""


def _suggest(arguments: Mapping[str, object], spec: ToolSpec) -> str | None:
    declared = spec.parameters.get("properties")
    if not isinstance(declared, Mapping):
        return None
    names = [str(n) for n in declared]
    for unknown in (k for k in arguments if k not in declared):
        close = difflib.get_close_matches(unknown, names, n=1, cutoff=0.6)
        if close:
            return f"did you mean {close[0]!r} instead of {unknown!r}?"
    return None
