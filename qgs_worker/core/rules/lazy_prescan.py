"""A pattern table's literal pre-scan, built once the table has read enough text to pay for it.

``prefilter.Prefilter`` finds where each pattern may start, so a pattern runs only there, with
the same matches as its ``finditer`` (the prefilter's guarantee). Building it reads every
pattern's start words (tens of milliseconds for a large table), which a short command (``qgs
scan``, ``qgs check-tool``) must not pay; a worker that reads thousands of requests and
commands gains it back many times. ``LazyPrescan`` runs the patterns plainly until the table
has read ``PREFILTER_AFTER_CHARS`` characters, as the rules table does (``base.Rule``), then
builds the pre-scan once. In a text of ASCII characters alone, a pattern that needs another
character in every match (the Chinese rules, ``non_ascii``) is not tried at all. Pure: stdlib
only.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence

from qgs_worker.core.rules import prescan
from qgs_worker.core.rules.base import PREFILTER_AFTER_CHARS
from qgs_worker.core.rules.non_ascii import needs_non_ascii
from qgs_worker.core.rules.prefilter import Prefilter, matches_at, normalise

__all__ = ["LazyPrescan"]


class LazyPrescan:
    """Where each of ``patterns`` may start in a text (None: at every position).

    Args:
        patterns: The table's compiled patterns, in order.
        group: The shared pre-scan to register with (``prescan.group``): one per table.
    """

    def __init__(self, patterns: Sequence[re.Pattern[str]], group: str) -> None:
        self._patterns = tuple(patterns)
        self._group = group
        self._prefilter: Prefilter | None = None
        self._plain_chars = 0
        self._lock = threading.Lock()
        self._non_ascii: tuple[bool, ...] | None = None  # computed on the first ASCII text

    def starts(self, text: str) -> list[list[int] | None]:
        """For each pattern, the positions of ``text`` where it may start (None: anywhere).

        Once the pre-scan is built, in a text of ASCII characters alone, a pattern every match
        of which needs another character (``non_ascii.needs_non_ascii``: the Chinese rules)
        may start nowhere.
        """
        found = self._starts(text)
        # Reading the patterns' parse trees costs ~15 ms: paid with the pre-scan, once the table
        # has read enough text, never by a short command that classifies one request.
        if self._prefilter is not None and text.isascii():
            if self._non_ascii is None:
                self._non_ascii = tuple(needs_non_ascii(p) for p in self._patterns)
            found = [[] if needs else at for at, needs in zip(found, self._non_ascii, strict=True)]
        return found

    def _starts(self, text: str) -> list[list[int] | None]:
        prefilter = self._prefilter
        if prefilter is None:
            self._plain_chars += len(text)  # two threads may both count: a guess, no harm
            if self._plain_chars < PREFILTER_AFTER_CHARS:
                return [None] * len(self._patterns)
            with self._lock:
                if self._prefilter is None:
                    self._prefilter = Prefilter(self._patterns, prescan.group(self._group))
                prefilter = self._prefilter
        lowered = normalise(text) if prefilter.useful else None
        if lowered is None:  # nothing to pre-scan, or a text normalise cannot map
            return [None] * len(self._patterns)
        return prefilter.starts(lowered)

    @staticmethod
    def finditer(
        pattern: re.Pattern[str], text: str, starts: list[int] | None
    ) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)``, tried only at ``starts`` (everywhere when None)."""
        return pattern.finditer(text) if starts is None else matches_at(pattern, text, starts)

    @staticmethod
    def search(pattern: re.Pattern[str], text: str, starts: list[int] | None) -> bool:
        """Whether ``pattern.search(text)`` finds a match, tried only at ``starts``."""
        if starts is None:
            return pattern.search(text) is not None
        return bool(starts) and next(matches_at(pattern, text, starts), None) is not None

    def reset(self, *, built: bool) -> None:
        """Drop the pre-scan, and build it on the next text (``built``) or never (tests)."""
        self._prefilter = None
        self._plain_chars = PREFILTER_AFTER_CHARS if built else -(10**15)
