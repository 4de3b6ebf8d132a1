"""The tools an agent may call: loaded once, looked up on the hot path, with did-you-mean.

Lookups are plain dict reads. ``disable``/``enable``/``add`` replace entries whole, so a gate
checking calls in other threads sees either the old spec or the new one, never half of each.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from qgs_worker.core.toolgate.kinds import split_name
from qgs_worker.core.toolgate.loaders import (
    spec_from_anthropic,
    spec_from_mcp,
    spec_from_openai,
    spec_from_pydantic,
    specs_from_document,
)
from qgs_worker.core.toolgate.schema import ToolDefinitionError
from qgs_worker.core.toolgate.spec import ToolSpec

__all__ = ["ToolRegistry", "file_problem"]

_SUGGEST_CUTOFF = 0.6


class ToolRegistry:
    """Registered tools by name (names are case-sensitive, as in every tool-call API).

    Args:
        specs: The tools; their names must be unique.

    Raises:
        ToolDefinitionError: Two tools share a name.
    """

    def __init__(self, specs: Iterable[ToolSpec] = ()) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.add(spec)

    # --- loading ----------------------------------------------------------------------------

    @classmethod
    def from_openai(cls, tools: Iterable[Mapping[str, Any]]) -> ToolRegistry:
        """Load OpenAI ``tools`` (``{"type": "function", "function": {...}}`` items).

        Raises:
            ToolDefinitionError: A definition is unusable (the message names the tool).
        """
        return cls(spec_from_openai(tool) for tool in tools)

    @classmethod
    def from_anthropic(cls, tools: Iterable[Mapping[str, Any]]) -> ToolRegistry:
        """Load Anthropic tool definitions (``{name, description, input_schema}``).

        Built-in tools (``{"type": "bash_20250124", "name": "bash"}``) get the schema Anthropic
        documents for them, or an open object (``spec_from_anthropic``).

        Raises:
            ToolDefinitionError: A definition is unusable (the message names the tool).
        """
        return cls(spec_from_anthropic(tool) for tool in tools)

    @classmethod
    def from_mcp(cls, result: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> ToolRegistry:
        """Load an MCP ``tools/list`` result (``{"tools": [...]}``, or its JSON-RPC response).

        Raises:
            ToolDefinitionError: A definition is unusable (the message names the tool).
        """
        if isinstance(result, Mapping):
            inner = result.get("result", result)
            tools = inner.get("tools") if isinstance(inner, Mapping) else None
            if not isinstance(tools, list):
                raise ToolDefinitionError(
                    "an MCP tools/list result must hold a 'tools' list "
                    f"(got keys: {', '.join(sorted(map(str, result)))})"
                )
            return cls(spec_from_mcp(tool) for tool in tools)
        return cls(spec_from_mcp(tool) for tool in result)

    @classmethod
    def from_pydantic(cls, *models: type[BaseModel] | Sequence[type[BaseModel]]) -> ToolRegistry:
        """Load pydantic models, one tool each (name: configured title, else the class name).

        Takes the classes as arguments or as one list (``from_pydantic(A, B)`` or
        ``from_pydantic([A, B])``).

        Raises:
            ToolDefinitionError: An argument is not a model class, or two share a name.
        """
        flat: list[Any] = []
        for item in models:
            flat.extend(item if isinstance(item, list | tuple) else [item])
        return cls(spec_from_pydantic(model) for model in flat)

    @classmethod
    def from_file(cls, path: str | Path) -> ToolRegistry:
        """Load a JSON file of tool definitions, telling the form of each (``specs_from_document``).

        Raises:
            ToolDefinitionError: The file does not exist, is a directory, a device or empty,
                cannot be read, is not JSON, or holds an unusable tool.
        """
        problem = file_problem(path)
        if problem is not None:
            raise ToolDefinitionError(f"cannot read tool definitions from {path}: it {problem}")
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
            if not text.strip():
                raise ToolDefinitionError(f"cannot read tool definitions from {path}: it is empty")
            document = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ToolDefinitionError(
                f"cannot read tool definitions from {path}: {error}"
            ) from error
        return cls(specs_from_document(document))

    # --- changing ---------------------------------------------------------------------------

    def add(self, spec: ToolSpec) -> None:
        """Register one more tool.

        Raises:
            ToolDefinitionError: A tool of that name is already registered.
        """
        if spec.name in self._specs:
            raise ToolDefinitionError(f"tool {spec.name!r} is defined twice")
        self._specs[spec.name] = spec

    def disable(self, name: str) -> None:
        """Keep a tool registered but refuse its calls at the existence layer.

        Raises:
            KeyError: No tool of that name.
        """
        self._specs[name] = dataclasses.replace(self._specs[name], enabled=False)

    def enable(self, name: str) -> None:
        """Let a disabled tool's calls through the existence layer again.

        Raises:
            KeyError: No tool of that name.
        """
        self._specs[name] = dataclasses.replace(self._specs[name], enabled=True)

    # --- reading ----------------------------------------------------------------------------

    def get(self, name: str) -> ToolSpec | None:
        """The tool of that exact name, enabled or not; ``None`` when it is not registered."""
        return self._specs.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        """Every registered name, sorted (disabled tools included)."""
        return tuple(sorted(self._specs))

    def suggest(self, name: str) -> str | None:
        """The enabled tool a mistyped name most likely meant, or ``None``.

        Names are compared case-insensitively with snake/camel/kebab/dot variants folded
        together (``getWeather``, ``get-weather`` and ``GET_WEATHER`` all find ``get_weather``),
        then by ``difflib`` similarity (at least 0.6).
        """
        enabled = {_fold(n): n for n, spec in self._specs.items() if spec.enabled and n != name}
        folded = _fold(name)
        if folded in enabled:
            return enabled[folded]
        close = difflib.get_close_matches(folded, list(enabled), n=1, cutoff=_SUGGEST_CUTOFF)
        return enabled[close[0]] if close else None

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter([self._specs[n] for n in sorted(self._specs)])

    def __len__(self) -> int:
        return len(self._specs)

    def __repr__(self) -> str:
        return f"ToolRegistry({len(self._specs)} tools)"


def file_problem(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a file of definitions, or ``None`` when it may be.

    Returns:
        ``"does not exist"``, ``"is a directory"``, ``"is a socket"`` or ``"is not a valid
        path"`` (a NUL byte), to follow the path in a message; ``None`` for a file, a pipe
        (``--tools <(jq ...)``) or a device, and when the path cannot be examined (reading it
        then says why, e.g. permission denied). An empty file (``/dev/null``) is the reader's
        to tell.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "does not exist"
    except ValueError:
        return "is not a valid path"
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return None  # a regular file, or a pipe or device to read (``--tools <(jq ...)``)


def _fold(name: str) -> str:
    return "_".join(split_name(name))
