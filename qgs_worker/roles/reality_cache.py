"""What the checking interpreter answered, kept for a while (``reality_env.check_references``).

Whether ``requests.get`` exists, or ``numpy`` is installed, in the checking environment does not
change from one round to the next: the reality checker asks a fresh interpreter (~100 ms to
start) only about the modules and packages it has no recent answer for. Answers are kept per
interpreter for ``TTL_S`` seconds (a package installed meanwhile is seen after that) and at most
``MAX_ANSWERS`` of them (the oldest dropped first). Thread-safe.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ANSWERS", "Answers", "Known"]

TTL_S = 600.0
"""How long an answer is reused, in seconds."""
MAX_ANSWERS = 4096
"""Answers kept at most (module references and packages together)."""


@dataclass
class Known:
    """The answers at hand for one check: by module reference key, by package, the interpreter."""

    modules: dict[Any, dict[str, Any]] = field(default_factory=dict)
    packages: dict[str, dict[str, Any]] = field(default_factory=dict)
    interpreter: tuple[str, str] | None = None  # (python version, sys.platform)


class Answers:
    """Recent answers of checking interpreters (see the module docstring).

    Args:
        clock: Monotonic seconds (tests pass their own).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._kept: dict[tuple[str, str, Hashable], tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def _get(self, key: tuple[str, str, Hashable], now: float) -> Any:
        found = self._kept.get(key)
        if found is None or now - found[0] > TTL_S:
            return None
        return found[1]

    def known(self, python: str, keys: Sequence[Hashable], names: Sequence[str]) -> Known:
        """The recent answers about ``keys`` (module references) and ``names`` (packages)."""
        now = self._clock()
        out = Known()
        with self._lock:
            out.interpreter = self._get((python, "interpreter", ""), now)
            for key in keys:
                item = self._get((python, "module", key), now)
                if item is not None:
                    out.modules[key] = item
            for name in names:
                item = self._get((python, "package", name), now)
                if item is not None:
                    out.packages[name] = item
        return out

    def learn(
        self,
        python: str,
        interpreter: tuple[str, str],
        modules: dict[Any, dict[str, Any]],
        packages: dict[str, dict[str, Any]],
        known: Known,
    ) -> Known:
        """Keep a fresh answer; returns ``known`` with it added."""
        now = self._clock()
        with self._lock:
            self._kept[(python, "interpreter", "")] = (now, interpreter)
            for key, item in modules.items():
                self._kept[(python, "module", key)] = (now, item)
            for name, item in packages.items():
                self._kept[(python, "package", name)] = (now, item)
            while len(self._kept) > MAX_ANSWERS:
                del self._kept[next(iter(self._kept))]
        return Known({**known.modules, **modules}, {**known.packages, **packages}, interpreter)

    def clear(self) -> None:
        """Forget every answer."""
        with self._lock:
            self._kept.clear()


ANSWERS = Answers()
"""The process's answers."""
