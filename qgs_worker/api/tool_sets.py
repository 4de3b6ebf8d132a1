"""Registered tool sets: a tools list sent once, then named by its id in every check.

An agent behind an MCP gateway may have 1,000 tools. Sent with every check, the list is parsed,
validated and found in the gate cache each time (issue 31: 12.8-35 ms at 1,000 tools on a
loaded machine). Registered once (``POST /v1/tool-sets``, MCP ``register_tools``), its gate is
built once and each check names it (``tool_set``): the check then costs the same at 10 tools
as at 1,000.

The id is content-addressed: a BLAKE2b digest (128 bits, hex) of the list written as canonical
JSON (sorted keys), computed once at registration. The same definitions registered again (by
another process of the same agent, after a restart) get the same id; different definitions
never share one. It is also the set's ETag. Sets are kept in the API process's memory, least
recently used out, bounded like the client's gate cache (``qgs_worker.client.gate_cache``); an id this
process does not hold (a restart, another API process, evicted) is a 422 saying to register
the list again, which gives the same id.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qgs_worker.client.gate_cache import GATE_CACHE_CHARS, GATE_CACHE_MAX
from qgs_worker.core.toolgate import ToolGate
from qgs_worker.errors import ToolDefinitionError

__all__ = ["TOOL_SET_ID_CHARS", "ToolSet", "ToolSets"]

TOOL_SET_ID_CHARS = 32
"""Hex digits of a tool set's id (a 128-bit BLAKE2b digest)."""


@dataclass(frozen=True, slots=True)
class ToolSet:
    """One registered tools list.

    Attributes:
        id: The content-addressed id (also the ETag, quoted).
        tools: How many tools the set holds.
        gate: The gate built for it, schemas compiled once.
        weight: Characters of canonical JSON, charged against the bound.
    """

    id: str
    tools: int
    gate: ToolGate
    weight: int


class ToolSets:
    """Tool sets by id, least recently used first out; thread-safe.

    Args:
        gate_of: Builds the gate of a tools list (``Client.tool_gate``).
        max_chars: Characters of canonical definitions kept at most.
        max_sets: Sets kept at most.
    """

    def __init__(
        self,
        gate_of: Callable[[Sequence[Mapping[str, Any]] | Mapping[str, Any]], ToolGate],
        *,
        max_chars: int = GATE_CACHE_CHARS,
        max_sets: int = GATE_CACHE_MAX,
    ) -> None:
        self._gate_of = gate_of
        self.max_chars = max_chars
        self.max_sets = max_sets
        self._lock = threading.Lock()
        self._sets: OrderedDict[str, ToolSet] = OrderedDict()
        self.chars = 0

    def __len__(self) -> int:
        return len(self._sets)

    def register(self, tools: Sequence[Mapping[str, Any]] | Mapping[str, Any]) -> ToolSet:
        """Build (or find) the gate of ``tools`` and keep it under its content id.

        Raises:
            InputError: ``tools`` is not a tools list, or holds an unusable definition.
        """
        try:
            text = json.dumps(tools, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise ToolDefinitionError(f"'tools' must be JSON tool definitions ({exc})") from exc
        set_id = hashlib.blake2b(text.encode(), digest_size=TOOL_SET_ID_CHARS // 2).hexdigest()
        with self._lock:
            found = self._sets.get(set_id)
            if found is not None:
                self._sets.move_to_end(set_id)
                return found
        gate = self._gate_of(tools)  # outside the lock: milliseconds
        entry = ToolSet(set_id, len(gate.registry), gate, len(text))
        with self._lock:
            if set_id not in self._sets:
                self._sets[set_id] = entry
                self.chars += entry.weight
                self._evict(keep=set_id)
            return self._sets[set_id]

    def gate(self, set_id: str) -> ToolGate:
        """The gate of a registered set.

        Raises:
            ToolDefinitionError: no set with that id here (an InputError: HTTP 422).
        """
        with self._lock:
            found = self._sets.get(set_id)
            if found is not None:
                self._sets.move_to_end(set_id)
                return found.gate
        shown = set_id[:TOOL_SET_ID_CHARS + 8]
        raise ToolDefinitionError(
            f"'tool_set': no tool set {shown!r} on this server (a restart or another API "
            "process forgets them): register the tools again (POST /v1/tool-sets, MCP "
            "register_tools), which gives the same id, or send 'tools' with the check"
        )

    def _evict(self, keep: str) -> None:
        while len(self._sets) > 1 and (
            self.chars > self.max_chars or len(self._sets) > self.max_sets
        ):
            set_id, entry = next(iter(self._sets.items()))
            if set_id == keep:
                break
            del self._sets[set_id]
            self.chars -= entry.weight
