"""The client's gates by tools list: found by content, bounded by size.

``Client.check_tool_call(call, tools=...)`` is handed the agent's tools on every call. Building
a gate compiles every tool's schema (about 2 ms for a BFCL tools list of ~1 KB, against ~40 us
for the check itself), so the client keeps the gates it built here:

1. by content: the tools are written out with :func:`marshal.dumps` (C, one pass, no sorting:
   about 5x faster than the canonical ``json.dumps(sort_keys=True)`` it replaces, which took
   12.8-35 ms for 1,000 tools on a loaded machine, issue 31) and those bytes are the key,
   compared in full, so equal definitions given as a new object (an agent that rebuilds its
   tools every turn) find the gate already built, two different lists never share one (marshal
   is reversible: equal bytes are equal content), and a list changed in place (a tool renamed,
   an enum narrowed, a tool removed from an MCP ``tools/list`` result) is a new key: the gate
   of the old content is never used for the new one. (An earlier identity shortcut skipped the
   serialisation for the same list object and so missed edits made in place.) Equal content
   may give other bytes (keys in another order, strings shared differently): a second gate is
   built then, never a wrong one. Format 2 takes ~1.2 ms for 1,000 BFCL tools (~650 KB); the
   current format ~0.4 ms, but its bytes for equal content change with reference counts, so
   they are kept as aliases of the format-2 key that found the gate (at most ``max_chars``
   bytes of them more): a caller passing the same list, or equal copies, pays the faster one.
2. built: only tools never seen before are compiled (``builds`` counts them).

Tools that are not JSON data (a ``ToolRegistry``, pydantic model classes) are keyed by the
objects themselves. The map is least-recently-used, and bounded by memory rather than a small
count: at most ``GATE_CACHE_CHARS`` characters of canonical definitions (a compiled gate takes
~11 bytes per character of its definitions, measured with ``tracemalloc`` on the BFCL corpus:
about 25 MB at the bound) and at most ``GATE_CACHE_MAX`` gates. With 32 gates, 33 lists in
rotation rebuilt a gate on every call (1.6 ms instead of 40 us); the bound now holds ~1,700
BFCL-sized lists.

An agent that knows its tools need not pay even that: ``gate = client.tool_gate(tools)`` once,
then ``client.check_tool_call(call, tools=gate)`` (logged) or ``gate.check(call)``; such a gate
is the agent's to rebuild when its tools change. Over HTTP and MCP the same is a registered
tool set (``qgs_worker.api.tool_sets``): the list is sent once, and each check names its id.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qgs_worker.core.toolgate import ToolGate, ToolRegistry
from qgs_worker.errors import InputError

__all__ = ["GATE_CACHE_CHARS", "GATE_CACHE_MAX", "GateCache", "registry_of"]

GATE_CACHE_CHARS = 2_000_000
"""Bytes of keys (about one a character of the definitions' JSON) the cached gates may hold at
most (~25 MB with their gates)."""

GATE_CACHE_MAX = 1024
"""Gates a client keeps at most, whatever their size."""

OBJECT_WEIGHT_CHARS = 1_000
"""The weight of a gate per tool when its tools are not JSON data (a registry, pydantic models):
about one BFCL definition's canonical JSON."""


@dataclass(slots=True)
class _Entry:
    gate: ToolGate
    weight: int  # characters charged against GATE_CACHE_CHARS
    keep: object  # the tools object of an identity-only key, so its id() is never reused


class GateCache:
    """Gates by tools list, least recently used first out; thread-safe.

    Args:
        build: Makes the gate of a registry (the client's six layers from its settings).
        max_chars: Characters of canonical definitions kept at most (see the module).
        max_entries: Gates kept at most.

    ``builds`` counts the gates built, ``hits`` the lookups that found one; ``chars`` is the
    weight held now. The gate just built is never evicted, so one list over ``max_chars``
    is still built once per call at worst.
    """

    def __init__(
        self,
        build: Callable[[ToolRegistry], ToolGate],
        *,
        max_chars: int = GATE_CACHE_CHARS,
        max_entries: int = GATE_CACHE_MAX,
    ) -> None:
        self._build = build
        self.max_chars = max_chars
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._gates: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._aliases: OrderedDict[bytes, Hashable] = OrderedDict()
        self.chars = 0
        self.alias_chars = 0
        self.builds = 0
        self.hits = 0

    def __len__(self) -> int:
        return len(self._gates)

    def gate(self, tools: object) -> ToolGate:
        """The gate of ``tools``, found or built.

        ``tools`` is a ``ToolRegistry``, tool definitions as JSON data (a list of OpenAI,
        Anthropic or MCP definitions, or an MCP ``tools/list`` result) or a list of pydantic
        model classes.

        Raises:
            InputError: ``tools`` is of another type, or holds an unusable definition
                (``ToolDefinitionError``, naming the tool).
        """
        fast = _fast_key(tools)
        if fast is not None:
            with self._lock:
                canonical = self._aliases.get(fast)
                entry = self._gates.get(canonical) if canonical is not None else None
                if entry is not None:
                    self._aliases.move_to_end(fast)
                    self._gates.move_to_end(canonical)
                    self.hits += 1
                    return entry.gate
        key, weight, keep = _key(tools, _shallow(tools))
        with self._lock:
            entry = self._gates.get(key)
            if entry is not None:
                self._gates.move_to_end(key)
                self.hits += 1
                if fast is not None:
                    self._alias(fast, key)
                return entry.gate
        gate = self._build(registry_of(tools))  # outside the lock: milliseconds
        with self._lock:
            self.builds += 1
            if key not in self._gates:
                self._gates[key] = _Entry(gate, weight, keep)
                self.chars += weight
                self._evict(keep_last=key)
            if fast is not None:
                self._alias(fast, key)
        return gate

    def _alias(self, fast: bytes, key: Hashable) -> None:
        """Remember that the fast key ``fast`` is the content of ``key`` (lock held)."""
        if fast in self._aliases:
            return
        self._aliases[fast] = key
        self.alias_chars += len(fast)
        while len(self._aliases) > 1 and (
            self.alias_chars > self.max_chars or len(self._aliases) > 2 * self.max_entries
        ):
            dropped, _ = self._aliases.popitem(last=False)
            self.alias_chars -= len(dropped)

    def _evict(self, keep_last: Hashable) -> None:
        while len(self._gates) > 1 and (
            self.chars > self.max_chars or len(self._gates) > self.max_entries
        ):
            key, entry = next(iter(self._gates.items()))
            if key == keep_last:
                break
            del self._gates[key]
            self.chars -= entry.weight


def registry_of(tools: object) -> ToolRegistry:
    """The registry of ``tools`` (see ``GateCache.gate`` for what it takes).

    Raises:
        InputError: ``tools`` is of another type, or holds an unusable definition.
    """
    from qgs_worker.core.toolgate.loaders import specs_from_document

    if isinstance(tools, ToolRegistry):
        return tools
    if isinstance(tools, Sequence) and _pydantic_models(tools):
        return ToolRegistry.from_pydantic(*tools)
    if isinstance(tools, Mapping) or (
        isinstance(tools, Sequence) and not isinstance(tools, str | bytes)
    ):
        return ToolRegistry(specs_from_document(tools))
    raise InputError(
        "'tools' must be a ToolGate, a ToolRegistry or a list of tool definitions "
        f"(OpenAI, Anthropic or MCP) (got {type(tools).__name__}); for a file, use "
        "ToolRegistry.from_file(path) or set QGS_TOOLS_FILE"
    )


_MARSHAL_VERSION = 2
"""No back-references (format 3 on): those depend on each object's reference count at the time,
so the same list written twice could give two keys."""


def _fast_key(tools: object) -> bytes | None:
    """The tools in marshal's current format (about 3x faster to write than format 2), or None.

    Equal bytes are equal content (marshal reads them back), so it may name a gate; but its
    back-references depend on reference counts, so equal content may give other bytes from one
    call to the next. It is only an alias, kept once the content's own key (format 2) found or
    built the gate: steady callers are served by it, and a changed form costs one format-2
    write, never a gate built again.
    """
    if not isinstance(tools, list | dict):
        return None
    try:
        return marshal.dumps(tools)
    except ValueError:  # not plain data
        return None


def _key(tools: object, shallow: tuple[int, ...]) -> tuple[Hashable, int, object]:
    """``(key, weight in characters, object to keep alive)`` of a tools object.

    JSON data: its ``marshal`` bytes (the whole of them is the key: no digest that two lists
    could share). Pydantic models: the classes themselves. Anything else (a registry, a list that is
    not JSON): its identity and its items' identities, the object kept alive with the gate.
    """
    if isinstance(tools, ToolRegistry):
        return ("object", id(tools), shallow), OBJECT_WEIGHT_CHARS * max(1, len(tools)), tools
    if isinstance(tools, Sequence) and _pydantic_models(tools):
        classes = tuple(tools)
        return ("pydantic", classes), OBJECT_WEIGHT_CHARS * len(classes), None
    try:
        data = marshal.dumps(tools, _MARSHAL_VERSION)  # type: ignore[arg-type]  # ValueError below
    except ValueError:  # not plain data (an object marshal cannot write)
        size = len(shallow) if shallow else 1
        return ("object", id(tools), shallow), OBJECT_WEIGHT_CHARS * size, tools
    return data, len(data), None


def _shallow(tools: object) -> tuple[int, ...]:
    """The identities of a tools list's items (a mapping's values): cheap, O(len) id() calls."""
    if isinstance(tools, Mapping):
        return tuple(map(id, tools.values()))
    if isinstance(tools, Sequence) and not isinstance(tools, str | bytes):
        return tuple(map(id, tools))
    return ()


def _pydantic_models(tools: Any) -> bool:
    """True when ``tools`` is a non-empty list of pydantic model classes."""
    from pydantic import BaseModel

    return (
        isinstance(tools, Sequence)
        and not isinstance(tools, str | bytes)
        and bool(tools)
        and all(isinstance(t, type) and issubclass(t, BaseModel) for t in tools)
    )
