"""A small memo of a pure function of a text: the last few texts' results, kept by text.

The detectors read the same text more than once in one process (a round's intake, then the
rules judge and the audit roles); a memo of the last ``size`` texts returns the earlier result
instead of scanning again. Only short texts are kept (``max_chars``), so the memo holds at most
``size * max_chars`` characters besides the results. The results must be immutable values.
Thread-safe. Pure: stdlib only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["TextMemo"]

R = TypeVar("R")


class TextMemo(Generic[R]):
    """``fn(text, key)``, remembered for the last ``size`` ``(text, key)`` pairs.

    Args:
        fn: A pure function of a text and a short key (e.g. a location); its result immutable.
        size: How many results are kept (the least recently used is dropped first).
        max_chars: Texts longer than this are computed and not kept.
    """

    def __init__(self, fn: Callable[[str, str], R], size: int = 32, max_chars: int = 64_000):
        self._fn, self.size, self.max_chars = fn, size, max_chars
        self._kept: dict[tuple[str, str], R] = {}
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, text: str, key: str) -> R:
        """The result for ``(text, key)``: remembered, or computed (and kept when short)."""
        if len(text) > self.max_chars:
            return self._fn(text, key)
        at = (text, key)
        with self._lock:
            if at in self._kept:
                found = self._kept.pop(at)
                self._kept[at] = found  # the most recent last
                self.hits += 1
                return found
        found = self._fn(text, key)
        with self._lock:
            self._kept[at] = found
            while len(self._kept) > self.size:
                del self._kept[next(iter(self._kept))]
        return found

    def clear(self) -> None:
        """Forget every kept result (a bench times each scan afresh)."""
        with self._lock:
            self._kept.clear()
