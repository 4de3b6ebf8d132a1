"""One registered tool: its schema (compiled), permission, argument kinds and business rules.

``ToolSpec.define`` fills what a definition leaves out: the argument kinds (``infer_kinds``) and
the permission (``infer_permission``). The permission heuristic reads the tool's name tokens, in
this order: an execute word (``execute``, ``exec``, ``run``, ``eval``, ``shell``, ``bash``,
``command``, ``terminal``, ``script``, ``spawn``) or a command-kind argument -> execute; a delete
word (``delete``, ``remove``, ``rm``, ``drop``, ``destroy``, ``purge``, ``erase``, ``truncate``,
``unlink``, ``wipe``, ``revoke``) -> delete; a write word (``create``, ``add``, ``update``,
``send``, ``transfer``, ``pay``, ``book``, ...) -> write; else read. A definition can say it
instead (``x-qgs.permission``, or MCP's ``readOnlyHint``/``destructiveHint`` annotations).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from qgs_worker.core.toolgate.kinds import ArgumentKind, infer_kinds, split_name
from qgs_worker.core.toolgate.schema import CompiledSchema, ToolDefinitionError, compile_schema

__all__ = ["BusinessRules", "Permission", "RateLimit", "ToolSpec", "infer_permission"]


class Permission(StrEnum):
    """What a tool may do; the permission layer (5) grants these to principals and roles."""

    READ = "read"
    WRITE = "write"
    DELETE = "delete"
    EXECUTE = "execute"


@dataclass(frozen=True, slots=True)
class RateLimit:
    """At most ``max_calls`` calls of one tool by one agent in any ``window_s`` seconds.

    Raises:
        ToolDefinitionError: ``max_calls`` below 1 or ``window_s`` not above 0.
    """

    max_calls: int
    window_s: float

    def __post_init__(self) -> None:
        if self.max_calls < 1 or not self.window_s > 0:
            raise ToolDefinitionError(
                "rate_limit needs max_calls >= 1 and window_s > 0 seconds "
                f"(got max_calls={self.max_calls!r}, window_s={self.window_s!r})"
            )


@dataclass(frozen=True, slots=True)
class BusinessRules:
    """Per-tool limits the business-rules layer (4) applies; ``None`` means no limit.

    ``max_file_bytes`` bounds the files named by path-kind arguments, in bytes;
    ``allowed_domains`` lists the hosts (and their subdomains) that url-kind arguments may name
    (``"*"``: any host, which lifts a registry-wide default for one tool). A field left ``None``
    takes the registry-wide default of the rules layer (``RulesLayer(defaults=...)``).
    """

    rate_limit: RateLimit | None = None
    max_file_bytes: int | None = None
    allowed_domains: tuple[str, ...] | None = None


_EMPTY_OBJECT: Mapping[str, Any] = {"type": "object", "properties": {}}
_EXECUTE_WORDS = frozenset(
    {"execute", "exec", "run", "eval", "shell", "bash", "command", "terminal", "script", "spawn"}
)
_DELETE_WORDS = frozenset(
    {"delete", "remove", "rm", "drop", "destroy", "purge", "erase", "truncate", "unlink", "wipe"}
    | {"revoke"}
)
_WRITE_WORDS = frozenset(
    {"create", "add", "update", "set", "write", "send", "post", "put", "patch", "edit", "modify"}
    | {"save", "upload", "insert", "book", "reserve", "transfer", "pay", "schedule", "move"}
    | {"rename", "share", "append", "invite", "reply", "forward", "publish", "deploy", "install"}
    | {"commit", "push", "merge", "change", "reset", "enable", "disable", "grant", "buy"}
    | {"cancel", "submit", "record", "register", "assign", "approve", "archive", "mark"}
    | {"reschedule", "copy", "replace", "restore"}
)


def infer_permission(name: str, kinds: Mapping[str, ArgumentKind] | None = None) -> Permission:
    """Guess a tool's permission from its name tokens and argument kinds (see the module docs)."""
    tokens = set(split_name(name))
    if tokens & _EXECUTE_WORDS or (kinds and ArgumentKind.COMMAND in kinds.values()):
        return Permission.EXECUTE
    if tokens & _DELETE_WORDS:
        return Permission.DELETE
    if tokens & _WRITE_WORDS:
        return Permission.WRITE
    return Permission.READ


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A registered tool. Built directly, every field is taken as given; ``define`` infers.

    ``parameters`` is the JSON Schema of the arguments (an object schema); ``kinds`` maps an
    argument path (``url``, ``options.path``, ``files[]``) to its kind; ``source`` names the form
    it was loaded from (``openai``, ``anthropic``, ``mcp``, ``pydantic``, ``spec``).
    ``compiled`` holds the validators, built once here (never on the hot path).

    Raises:
        ToolDefinitionError: The schema is not a valid object schema (at construction).
    """

    name: str
    parameters: Mapping[str, Any] = field(default_factory=lambda: dict(_EMPTY_OBJECT))
    description: str = ""
    enabled: bool = True
    permission: Permission = Permission.READ
    kinds: Mapping[str, ArgumentKind] = field(default_factory=dict)
    rules: BusinessRules = field(default_factory=BusinessRules)
    source: str = "spec"
    compiled: CompiledSchema = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", compile_schema(self.parameters, tool_name=self.name))

    @classmethod
    def define(
        cls,
        name: str,
        parameters: Mapping[str, Any] | None = None,
        *,
        description: str = "",
        enabled: bool = True,
        permission: Permission | None = None,
        kinds: Mapping[str, ArgumentKind] | None = None,
        rules: BusinessRules | None = None,
        source: str = "spec",
    ) -> ToolSpec:
        """Build a spec, inferring the kinds and the permission a definition leaves out.

        Args:
            name: The tool's name, as calls will name it.
            parameters: JSON Schema of the arguments; ``None`` means the tool takes none.
            description: What the tool does (also read by the kind heuristic).
            enabled: Whether calls to it may pass the existence layer.
            permission: What it may do; ``None`` infers it from the name and kinds.
            kinds: Explicit argument kinds; they override the inferred ones path by path.
            rules: Business rules; ``None`` means no limits.
            source: The form the definition came in.

        Raises:
            ToolDefinitionError: The schema is not a valid object schema, or an ``x-qgs-kind``
                is not a kind.
        """
        schema = dict(_EMPTY_OBJECT) if parameters is None else parameters
        try:
            inferred = infer_kinds(schema, tool_name=name, tool_description=description)
        except ValueError as error:  # an x-qgs-kind that is not an ArgumentKind
            known = ", ".join(k.value for k in ArgumentKind)
            raise ToolDefinitionError(f"tool {name!r}: {error} (kinds: {known})") from error
        inferred.update(kinds or {})
        return cls(
            name=name,
            parameters=schema,
            description=description,
            enabled=enabled,
            permission=permission or infer_permission(name, inferred),
            kinds=inferred,
            rules=rules or BusinessRules(),
            source=source,
        )
