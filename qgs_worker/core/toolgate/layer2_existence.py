"""Layer 2, existence: is the named tool registered, and enabled?

FAIL when the name is not registered (names are case-sensitive: ``Get_Weather`` is not
``get_weather``) or the tool is disabled; the suggestion names the enabled tool the caller most
likely meant (``ToolRegistry.suggest``). Never WARN.
"""

from __future__ import annotations

from qgs_worker.core.toolgate.base import CheckContext, FunctionLayer, LayerResult
from qgs_worker.core.toolgate.calls import ParsedCall
from qgs_worker.core.toolgate.spec import ToolSpec

__all__ = ["LAYER", "check"]

NUMBER = 2
NAME = "existence"
_PASS = LayerResult.of(NUMBER, NAME)
_LISTED = 10


def check(call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
    """Check that the call names a registered, enabled tool.

    Args:
        call: The parsed call.
        spec: The registered tool of ``call.name`` (``registry.get``), ``None`` if none.
        context: Its registry gives the did-you-mean suggestion.

    Returns:
        PASS, or FAIL with the reason and, when one is close, ``did you mean '...'?``.
    """
    if spec is not None and spec.enabled:
        return _PASS
    registry = context.registry
    name = call.name
    if not name:
        return LayerResult.of(NUMBER, NAME, errors=(f"{call.name_path}: no tool name",))
    guess = registry.suggest(name)
    suggestion = f"did you mean {guess!r}?" if guess else None
    if spec is not None:
        error = f"{call.name_path}: tool {name!r} is disabled"
    else:
        names = registry.names
        known = ", ".join(names[:_LISTED]) + (", ..." if len(names) > _LISTED else "")
        error = f"{call.name_path}: unknown tool {name!r} (registered: {known or 'none'})"
    return LayerResult.of(NUMBER, NAME, errors=(error,), suggestion=suggestion)


LAYER = FunctionLayer(NUMBER, NAME, check)
"""The existence layer, for ``ToolGate(layers=...)``."""
