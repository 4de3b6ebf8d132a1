r"""Schema regexes (``pattern``, ``patternProperties``) matched by RE2, in linear time.

A tool's schema may come from the caller (``POST /v1/tool-calls/check`` with ``tools``, MCP
``check_tool_call``, ``Client.check_tool_call``). jsonschema matches ``pattern`` with Python's
``re``, which backtracks: ``"^(a+)+$"`` against 39 ``a`` then ``!`` runs for minutes and holds
the GIL, so the whole API stops answering (break test, finding 1). Here the keywords that match
instance text against a schema regex (``pattern``, ``patternProperties``, and
``additionalProperties`` beside ``patternProperties``) are replaced by versions that use RE2
(``google-re2``), whose matching time is linear in the input whatever the pattern.

RE2 has no lookarounds (``(?=``, ``(?!``, ``(?<=``) and no backreferences (``\1``); those are
exactly what makes backtracking necessary. A schema using one is refused when it loads, with a
``ToolDefinitionError`` naming the tool, where the pattern is and RE2's reason: silently
matching it with ``re`` instead would bring the freeze back. ``unevaluatedProperties`` in a
schema that also has ``patternProperties`` is refused too (jsonschema evaluates that pair with
``re`` deep inside its own helpers, which cannot be replaced keyword by keyword); use
``additionalProperties``. ``format: "regex"`` is an annotation here: the gate's validators have
no format checker, so no argument is ever compiled as a regex.

``re2`` is imported on the first pattern only (``qgs check-tool`` on a schema without patterns
never loads it). Compiled patterns are cached (at most 1,024).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import ValidationError  # type: ignore[import-untyped]

from qgs_worker.core.toolgate.schema_cost import DATA_KEYS
from qgs_worker.errors import ToolDefinitionError

__all__ = [
    "additional_properties",
    "check_patterns",
    "pattern",
    "pattern_properties",
    "search",
]

_MAX_MEM = 8 << 20
"""RE2's memory budget per pattern, in bytes (its default); a bigger program is refused."""
_DATA_KEYS = DATA_KEYS
_NAME_MAPS = frozenset({"properties", "$defs", "definitions", "dependentSchemas", "dependencies"})
"""Keywords whose keys are names (never keywords) and whose values are subschemas."""


class _RegexRefused(ValueError):
    """Raised when RE2 cannot compile a pattern; the message is RE2's reason."""


@functools.lru_cache(maxsize=1024)
def _compiled(regex: str) -> Any:
    import re2  # type: ignore[import-untyped]  # lazily: only schemas with patterns need it

    options = re2.Options()
    options.log_errors = False  # a refused pattern is reported to the caller, not to stderr
    options.max_mem = _MAX_MEM
    try:
        return re2.compile(regex, options)
    except re2.error as error:
        reason = error.args[0] if error.args else "cannot compile"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise _RegexRefused(str(reason)) from None


def search(regex: str, text: str) -> bool:
    """Whether ``regex`` matches anywhere in ``text`` (``re.search`` semantics), in linear time.

    Raises:
        ValueError: RE2 cannot compile ``regex`` (never for a schema that ``check_patterns``
            accepted).
    """
    return _compiled(regex).search(text) is not None


def check_patterns(schema: Any, *, tool_name: str) -> None:
    """Compile every schema regex of ``schema`` with RE2, before any argument is matched.

    Args:
        schema: A tool's parameter schema (any draft).
        tool_name: The tool's name, for the message.

    Raises:
        ToolDefinitionError: A pattern RE2 cannot run (a lookaround, a backreference, a syntax
            error, a program over 8 MiB), naming the tool, the pattern's place and RE2's reason;
            or ``unevaluatedProperties`` beside ``patternProperties`` in one schema.
    """
    found = list(_patterns(schema, "$"))
    for where, regex in found:
        try:
            _compiled(regex)
        except _RegexRefused as refused:
            raise ToolDefinitionError(
                f"tool {tool_name!r}: {where} {_short(regex)} cannot be used: {refused}. QGS "
                "matches schema patterns with RE2, in linear time, so that no argument can "
                "freeze the gate; RE2 has no lookarounds or backreferences: rewrite the "
                "pattern without them (or check that rule in the tool itself)"
            ) from None
    if found and any(key == "unevaluatedProperties" for key in _keys(schema)):
        raise ToolDefinitionError(
            f"tool {tool_name!r}: unevaluatedProperties beside patternProperties is not "
            "supported (jsonschema would match those patterns with a backtracking regex "
            "engine); use additionalProperties instead"
        )


def pattern(
    validator: Any, regex: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """The ``pattern`` keyword, with jsonschema's message, matched by RE2."""
    if validator.is_type(instance, "string") and not search(regex, instance):
        yield ValidationError(f"{instance!r} does not match {regex!r}")


def pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """The ``patternProperties`` keyword, as jsonschema's, matched by RE2."""
    if not validator.is_type(instance, "object"):
        return
    for regex, subschema in patterns.items():
        for name, value in instance.items():
            if search(regex, name):
                yield from validator.descend(value, subschema, path=name, schema_path=regex)


def additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """The ``additionalProperties`` keyword, as jsonschema's, with ``patternProperties`` by RE2."""
    if not validator.is_type(instance, "object"):
        return
    declared = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = {
        name
        for name in instance
        if name not in declared and not any(search(regex, name) for regex in patterns)
    }
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            listed = ", ".join(repr(each) for each in sorted(patterns))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {listed}")
        else:
            shown = ", ".join(repr(each) for each in sorted(extras, key=str))
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(
                f"Additional properties are not allowed ({shown} {verb} unexpected)"
            )


def _patterns(schema: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _patterns(item, f"{where}[{index}]")
        return
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        here = _join(where, key)
        if key in _DATA_KEYS:
            continue
        if key == "pattern" and isinstance(value, str):
            yield here, value
        elif key == "patternProperties" and isinstance(value, dict):
            for regex, sub in value.items():
                yield f"{here} key", regex
                yield from _patterns(sub, _join(here, regex))
        elif key in _NAME_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from _patterns(sub, _join(here, name))
        else:
            yield from _patterns(value, here)


def _keys(schema: Any) -> Iterator[str]:
    if isinstance(schema, list):
        for item in schema:
            yield from _keys(item)
    elif isinstance(schema, dict):
        for key, value in schema.items():
            yield key
            if key in _NAME_MAPS or key == "patternProperties":
                if isinstance(value, dict):
                    for sub in value.values():
                        yield from _keys(sub)
            elif key not in _DATA_KEYS:
                yield from _keys(value)


def _join(prefix: str, name: str) -> str:
    if name.isidentifier():
        return f"{prefix}.{name}"
    return f"{prefix}[{json.dumps(name, ensure_ascii=False)}]"


def _short(regex: str) -> str:
    return repr(regex if len(regex) <= 80 else f"{regex[:77]}...")
