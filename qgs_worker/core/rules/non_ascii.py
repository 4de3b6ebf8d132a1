"""Whether every match of a pattern holds a character outside ASCII (so no ASCII text matches).

Chinese patterns of the class tables (``critical.move_money_zh``...) have no start words the
pre-scan can use (one-character verbs: 转, 付), so they run over every text, English ones too,
where they cannot match. ``needs_non_ascii`` reads a pattern's parse tree and says True only
when it can prove that every match contains a character no ASCII character matches: a literal
outside ASCII that ``re.IGNORECASE`` folds to no ASCII letter (the Kelvin sign K matches
``k``), or a class made of such literals; a sequence needs one when any of its items does
(repeated at least once), a branch when all its alternatives do. Anything it cannot read
(categories, ranges, backreferences, look-arounds) counts as "may be ASCII". Pure: stdlib only.
"""

from __future__ import annotations

import functools
import importlib
import re
from typing import Any

__all__ = ["needs_non_ascii"]

try:  # the parser behind re.compile (Python 3.11+); without it nothing is proven
    _c: Any = importlib.import_module("re._constants")
    _parser: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - older or other Pythons
    _parser = None


@functools.cache
def _folds_to_ascii(code: int, ignore_case: bool) -> bool:
    """Whether the character ``code`` matches some ASCII character (case folded, if ignored)."""
    if code < 128:
        return True
    if not ignore_case:
        return False
    pattern = re.compile(re.escape(chr(code)), re.IGNORECASE)
    return any(pattern.fullmatch(chr(a)) for a in range(128))


def _needs(items: Any, ignore_case: bool) -> bool:
    """Whether a parsed sequence needs a non-ASCII character in every match."""
    return any(_item_needs(op, av, ignore_case) for op, av in items)


def _item_needs(op: Any, av: Any, ignore_case: bool) -> bool:
    if op is _c.LITERAL:
        return not _folds_to_ascii(av, ignore_case)
    if op is _c.IN:
        return all(
            kind is _c.LITERAL and not _folds_to_ascii(value, ignore_case) for kind, value in av
        )
    if op is _c.SUBPATTERN:
        return _needs(av[-1], ignore_case)
    if op is _c.BRANCH:
        return all(_needs(branch, ignore_case) for branch in av[1])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
        low, _, item = av
        return low >= 1 and _needs(item, ignore_case)
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _needs(av, ignore_case)
    return False


def needs_non_ascii(pattern: re.Pattern[str]) -> bool:
    """True when no text made of ASCII characters alone can hold a match of ``pattern``.

    False whenever that cannot be read from the pattern (the safe side: the pattern runs).
    """
    if _parser is None:
        return False
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # a pattern the parser of this Python reads otherwise: prove nothing
        return False
    return _needs(parsed, bool(pattern.flags & re.IGNORECASE))
