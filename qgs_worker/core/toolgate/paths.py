"""Argument paths (``url``, ``options.url``, ``files[]``, ``files[].path``): compiled once, read fast.

The same path syntax keys argument kinds (``kinds.py``), the business rules (layer 4) and the
policy's argument constraints (``core/policy.py``): dots descend into objects, ``[]`` visits every
item of an array. A path compiles once, at load; reading it on a call is a few dict lookups.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ArgumentPath", "compile_path"]


class ArgumentPath:
    """A compiled argument path.

    Args:
        text: The path, e.g. ``recipient``, ``options.url``, ``files[].path``.

    Raises:
        ValueError: An empty path or an empty segment (``a..b``, ``.a``).
    """

    __slots__ = ("_steps", "text")

    def __init__(self, text: str) -> None:
        steps: list[tuple[str, int]] = []
        for segment in text.split("."):
            name = segment.rstrip("[]")
            depth = (len(segment) - len(name)) // 2
            if not name or segment != name + "[]" * depth:
                raise ValueError(f"bad argument path {text!r} (expected e.g. 'a', 'a.b', 'a[].b')")
            steps.append((name, depth))
        self.text = text
        self._steps = tuple(steps)

    def values(self, arguments: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """Every value the path reaches in ``arguments``, with its JSON path (``$.files[2].path``).

        A path that does not reach (a missing key, a non-object, a non-array) yields nothing.
        """
        found: list[tuple[str, Any]] = [("$", arguments)]
        for name, depth in self._steps:
            next_found: list[tuple[str, Any]] = []
            for where, holder in found:
                if not isinstance(holder, Mapping) or name not in holder:
                    continue
                items = [(f"{where}.{name}", holder[name])]
                for _ in range(depth):
                    items = [
                        (f"{at}[{index}]", item)
                        for at, value in items
                        if isinstance(value, list)
                        for index, item in enumerate(value)
                    ]
                next_found.extend(items)
            found = next_found
            if not found:
                break
        return found

    def __repr__(self) -> str:
        return f"ArgumentPath({self.text!r})"


def compile_path(text: str) -> ArgumentPath:
    """Compile an argument path (see ``ArgumentPath``).

    Raises:
        ValueError: The path is malformed.
    """
    return ArgumentPath(text)
