"""One registered tool: its schema (compiled), permission, argument kinds and business rules.

``ToolSpec.define`` fills what a definition leaves out: the argument kinds (``infer_kinds``) and
the permission (``infer_permission``). The permission heuristic reads the tool's name tokens, in
this order: an execute word (``execute``, ``exec``, ``run``, ``eval``, ``shell``, ``python``,
``computer``, ``chmod``, ``restart``, ``reboot``, ...) or a command-kind argument -> execute; a
delete word (``delete``, ``remove``, ``drop``, ``destroy``, ``purge``, ``wipe``, ``terminate``,
``shutdown``, ``kill``, ``format`` with ``disk``/``drive``/``volume``, ...) -> delete; a write
word (``create``, ``update``, ``send``, money movement such as ``transfer``, ``pay``, ``wire``,
``charge``, ``withdraw``, ``refund``, ``sell``, and state changes such as ``start``, ``stop``,
``lock``, ...) -> write; a read word (``get``, ``list``, ``search``, ``calculate``,
``compute``, ``convert``, ``translate``, ``estimate``, ...) -> read; **a name with no known verb
-> execute**, the most privileged: declare ``x-qgs.permission`` to lower it. ``x-qgs.permission``
is trusted as given; MCP's ``readOnlyHint``/``destructiveHint`` annotations are untrusted hints
(the MCP spec says so), so the permission is the stronger of the hint's and the name's.

A tool's name must be one calls can use: the format layer's (1) rule, ``[A-Za-z0-9_.-]`` of at
most 64 characters (128 for tools loaded from MCP). Any other name is refused when the spec is
built, so the registry never holds, nor suggests, a tool no call could name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qgs_worker.core.models import Permission as Permission  # defined with the shared enums
from qgs_worker.core.toolgate.kinds import ArgumentKind, infer_kinds, split_name
from qgs_worker.core.toolgate.schema import CompiledSchema, ToolDefinitionError, compile_schema

__all__ = [
    "BusinessRules",
    "Permission",
    "RateLimit",
    "ToolSpec",
    "check_tool_name",
    "infer_permission",
    "strongest",
]

MAX_NAME_CHARS = 64
"""The longest tool name a call may use, in characters (OpenAI's and Anthropic's limit)."""
MAX_MCP_NAME_CHARS = 128
"""The longest name of a tool loaded from MCP, in characters (MCP allows longer names)."""
TOOL_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
"""What a tool name may be made of; the format layer (1) checks call names by the same rule."""
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.\-]+")


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
    | {"python", "computer", "chmod", "chown", "sudo", "restart", "reboot", "launch", "invoke"}
    | {"interpreter", "powershell", "cmd", "sh", "zsh", "subprocess"}
)
_DELETE_WORDS = frozenset(
    {"delete", "remove", "rm", "drop", "destroy", "purge", "erase", "truncate", "unlink", "wipe"}
    | {"revoke", "terminate", "shutdown", "kill", "halt", "poweroff", "uninstall", "deprovision"}
    | {"decommission", "shred", "clear", "rmdir"}
)
_FORMAT_TARGETS = frozenset({"disk", "drive", "volume", "partition", "filesystem", "fs", "device"})
_WRITE_WORDS = frozenset(
    {"create", "add", "update", "set", "write", "send", "post", "put", "patch", "edit", "modify"}
    | {"save", "upload", "insert", "book", "reserve", "transfer", "pay", "schedule", "move"}
    | {"rename", "share", "append", "invite", "reply", "forward", "publish", "deploy", "install"}
    | {"commit", "push", "merge", "change", "reset", "enable", "disable", "grant", "buy"}
    | {"cancel", "submit", "record", "register", "assign", "approve", "archive", "mark"}
    | {"reschedule", "copy", "replace", "restore"}
    # money movement
    | {"wire", "charge", "withdraw", "refund", "sell", "deposit", "purchase", "checkout"}
    | {"trade", "invest", "donate", "lend", "borrow", "swap", "mint", "payout", "remit"}
    | {"redeem"}
    # state changes
    | {"start", "stop", "pause", "resume", "suspend", "scale", "resize", "upgrade", "downgrade"}
    | {"lock", "unlock", "configure", "apply", "sign", "block", "unblock", "follow", "unfollow"}
    | {"subscribe", "unsubscribe", "notify", "tweet", "dial", "login", "logout", "upsert"}
    | {"import"}
)
_READ_WORDS = frozenset(
    {"get", "list", "search", "find", "read", "fetch", "query", "lookup", "look", "show", "view"}
    | {"check", "count", "describe", "calculate", "calc", "compute", "convert", "translate"}
    | {"estimate", "retrieve", "browse", "inspect", "validate", "verify", "analyze", "analyse"}
    | {"summarize", "summarise", "predict", "recommend", "suggest", "compare", "filter", "sort"}
    | {"detect", "identify", "locate", "parse", "resolve", "monitor", "track", "measure"}
    | {"explain", "info", "status", "download", "load", "peek", "stat", "ls", "cat", "grep"}
    | {"format", "evaluate", "solve", "plot", "scan", "ping", "is", "has", "can", "retrieval"}
    | {"whois", "preview", "render", "match", "diff", "tell", "print", "echo", "display"}
)
# reading verbs that lead a name, and write words that are as often the things read
_LOOKING_FIRST = frozenset({"get", "list", "read", "fetch", "view", "show", "search", "find"})
_THING_WORDS = frozenset(
    {"post", "update", "record", "transfer", "booking", "payment", "share", "reply", "change"}
    | {"order", "invite", "upload", "commit", "merge", "deposit", "payout", "refund", "trade"}
)
_RANK = {Permission.READ: 0, Permission.WRITE: 1, Permission.DELETE: 2, Permission.EXECUTE: 3}


def strongest(*permissions: Permission) -> Permission:
    """The most privileged of ``permissions`` (read < write < delete < execute)."""
    return max(permissions, key=_RANK.__getitem__)


def infer_permission(name: str, kinds: Mapping[str, ArgumentKind] | None = None) -> Permission:
    """Guess a tool's permission from its name tokens and argument kinds (see the module docs).

    A name with no known verb gets the most privileged permission, execute: declare
    ``x-qgs.permission`` to lower it.
    """
    words = split_name(name)
    tokens = set(words)
    # a name led by a reading verb whose other write-like words name things ("get_post",
    # "view_update", "list_transfers"'s singular) reads them: the verb comes first in a name
    if words and words[0] in _LOOKING_FIRST and tokens & _WRITE_WORDS <= _THING_WORDS and "and" not in tokens:
        tokens -= _THING_WORDS
    if tokens & _EXECUTE_WORDS or (kinds and ArgumentKind.COMMAND in kinds.values()):
        return Permission.EXECUTE
    if tokens & _DELETE_WORDS or ("format" in tokens and tokens & _FORMAT_TARGETS):
        return Permission.DELETE
    if tokens & _WRITE_WORDS:
        return Permission.WRITE
    if tokens & _READ_WORDS:
        return Permission.READ
    return Permission.EXECUTE


def check_tool_name(name: object, source: str = "spec") -> None:
    """Refuse a name no tool call could use: the format layer's (1) rule for call names.

    Args:
        name: The tool's name.
        source: The form the definition came in; ``mcp`` allows ``MAX_MCP_NAME_CHARS``,
            every other form ``MAX_NAME_CHARS``.

    Raises:
        ToolDefinitionError: ``name`` is not a string of 1 to the limit letters, digits, ``_``,
            ``.`` and ``-``; the message names the tool, the rule and a name that would do.
    """
    most = MAX_MCP_NAME_CHARS if source == "mcp" else MAX_NAME_CHARS
    if isinstance(name, str) and len(name) <= most and TOOL_NAME.fullmatch(name):
        return
    if not isinstance(name, str) or not name:
        raise ToolDefinitionError(f"a tool's name must be a non-empty string (got {name!r})")
    fixed = _NOT_NAME.sub("_", name).strip("_")[:most] or "tool"
    too_long = f" (it has {len(name)})" if len(name) > most else ""
    raise ToolDefinitionError(
        f"tool {name!r}: a tool name must be 1-{most} letters, digits, '_', '.' or '-'"
        f"{too_long}, or every call naming it fails the format layer; rename it, "
        f"e.g. {fixed!r}"
    )


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A registered tool. Built directly, every field is taken as given; ``define`` infers.

    ``parameters`` is the JSON Schema of the arguments (an object schema); ``kinds`` maps an
    argument path (``url``, ``options.path``, ``files[]``) to its kind; ``source`` names the form
    it was loaded from (``openai``, ``anthropic``, ``mcp``, ``pydantic``, ``spec``).
    ``compiled`` holds the validators, built once here (never on the hot path).

    Raises:
        ToolDefinitionError: The name is one no call could use (``check_tool_name``), or the
            schema is not a valid object schema (at construction).
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
        check_tool_name(self.name, self.source)
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
        permission_hint: Permission | None = None,
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
            permission_hint: An untrusted hint (MCP annotations) used when ``permission`` is
                ``None``: the permission is the stronger of the hint and the inferred one.

        Raises:
            ToolDefinitionError: The name is one no call could use, the schema is not a valid
                object schema, or an ``x-qgs-kind`` is not a kind.
        """
        check_tool_name(name, source)  # before the kinds: the name is the first thing to fix
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
            permission=permission
            or strongest(infer_permission(name, inferred), permission_hint or Permission.READ),
            kinds=inferred,
            rules=rules or BusinessRules(),
            source=source,
        )
