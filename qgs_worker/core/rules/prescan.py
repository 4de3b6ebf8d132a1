r"""The shared pre-scan: one pass over a text finds where every rule's patterns may start.

``prefilter.start_words`` reads each pattern's start words (what stands just before a match and
its first characters); ``prefilter.Prefilter`` registers them here, one *slot* per pattern, when
a rule is built. Scanning the text once per pattern cost ~0.4 ms per KB of prose for the table
(120 passes of a literal-led regex, each ~20 ns a character wherever a start letter stands), so
one ``Prescan`` finds the start positions of every slot in two passes, and keeps them for the
last text (every rule of a scan reads the same text):

- **token words**: a word whose first character is a word character (``\w``) with a non-word
  character (or the text start) before it: the pattern asserts ``\b`` there, or the word's
  ``before`` ends with a non-word character. Such a match begins a token (a run of ``\w``), so
  the word is found by its *head*, its leading run of word characters: the token equals the
  head when the word goes on past it (``"you "``: the token is ``you``), or starts with it
  (``"evalua"``: ``evaluate``, ``evaluator``). One regex walks the tokens, ``\b`` then a trie
  of every head, and yields only the tokens some head begins; a dictionary maps each such token
  to its slots (and the ``before`` each needs, checked in the text).
- **other words** (a sign such as ``<`` or ``{``, a line start, a CJK character): one regex, a
  trie of every such word led by its first character, finds each position where one begins;
  the longest word found there names the slots of all the words it begins with.

Why no start is lost: ``normalise`` maps each character to one that is a word character exactly
when the original is (``tests/unit/test_rules_prescan.py`` checks every code point), so a match
that begins at a ``\b`` of the text, with a word character, begins a token of the normalised
text; every other word is searched at every position. Extra positions only cost a failed
``pattern.match``.
Pure: stdlib only.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["Prescan", "SlotWords", "forget", "group"]

TokenWord = tuple[str, str, bool]
"""``(head, before, exact)``: the leading word characters of a start word, what must stand just
before them, and whether the token must be the head itself (True) or may go on (False)."""
OtherWord = tuple[str, int]
"""``(whole, offset)``: the characters a start word's position begins (``before`` then its first
characters) and the length of its ``before`` (the match starts that far in)."""

_CACHED_TOKENS = 100_000
"""Tokens whose slots are remembered across texts; the dictionary starts afresh past this."""


@dataclass(frozen=True, slots=True)
class SlotWords:
    """The start words of one pattern, as the two passes read them."""

    tokens: tuple[TokenWord, ...] = ()
    others: tuple[OtherWord, ...] = ()
    at_start: bool = False
    r"""Whether a match may begin the text with no word (``\A``): position 0 is then tried."""


class _Trie:
    """Words as a nested dict of characters; ``""`` marks a word's end."""

    def __init__(self, words: Iterable[str]) -> None:
        self.root: dict[str, dict] = {}  # type: ignore[type-arg]
        for word in words:
            node = self.root
            for char in word:
                node = node.setdefault(char, {})
            node[""] = {}

    @staticmethod
    def regex(node: dict[str, dict], *, shortest: bool) -> str:  # type: ignore[type-arg]
        """A regex of the words under ``node``.

        It matches the longest word the text has there or, when ``shortest``, the first one
        (no need to read on: the caller reads the whole token).
        """
        if "" in node and shortest:
            return ""
        kids = [
            re.escape(c) + _Trie.regex(k, shortest=shortest) for c, k in sorted(node.items()) if c
        ]
        if "" in node:  # a word ends here: try the longer ones first, then stop here
            return "(?:" + "|".join(kids) + "|)" if kids else ""
        return kids[0] if len(kids) == 1 else "(?:" + "|".join(kids) + ")"


def _first_char_pass(wholes: Iterable[str]) -> re.Pattern[str]:
    """A regex finding where each of ``wholes`` begins.

    One alternative per first character, which it consumes (so starts that overlap are all
    found), with a group of its own: the rest of the longest word that begins there.
    """
    root = _Trie(wholes).root
    return re.compile(
        "|".join(
            f"{re.escape(c)}(?=({_Trie.regex(k, shortest=False)}))" for c, k in sorted(root.items())
        )
    )


@dataclass(slots=True, eq=False)
class _Pass:
    """The compiled passes over every slot registered when it was built."""

    slots: int
    tokens: re.Pattern[str] | None
    heads: dict[str, tuple[tuple[int, str, bool], ...]]
    longest_head: int
    ascii_led: re.Pattern[str] | None
    wide_led: tuple[str, ...]
    """The other words led by a non-ASCII character (CJK): their pass is compiled the first
    time a text that is not ASCII is scanned (``wide_pass``). It is most of the build's cost
    (a trie of ~2,400 words: ~55 ms) and can find nothing in an ASCII text (issue 15)."""
    wholes: dict[str, tuple[tuple[int, int], ...]]
    at_start: tuple[bool, ...] = ()
    """Per slot, whether position 0 is always tried (``SlotWords.at_start``)."""
    token_slots: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = field(default_factory=dict)
    whole_slots: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    last: tuple[str, _Found] | None = None
    wide: re.Pattern[str] | None = None

    @classmethod
    def build(cls, registered: Sequence[SlotWords]) -> _Pass:
        heads: dict[str, list[tuple[int, str, bool]]] = {}
        wholes: dict[str, list[tuple[int, int]]] = {}
        for slot, words in enumerate(registered):
            for head, before, exact in words.tokens:
                heads.setdefault(head, []).append((slot, before, exact))
            for whole, offset in words.others:
                wholes.setdefault(whole, []).append((slot, offset))
        tokens = None
        if heads:
            tokens = re.compile(r"\b" + _Trie.regex(_Trie(heads).root, shortest=True) + r"\w*")
        # Two passes: a word led by a non-ASCII character (CJK) costs next to nothing on an ASCII
        # text apart from the others (re skips to a character of the first set in C, and tries
        # the alternatives one by one where it stops); on an ASCII text it is not even run.
        led_by_ascii = [w for w in wholes if w[0].isascii()]
        return cls(
            slots=len(registered),
            tokens=tokens,
            heads={head: tuple(dict.fromkeys(found)) for head, found in heads.items()},
            longest_head=max(map(len, heads), default=0),
            ascii_led=_first_char_pass(led_by_ascii) if led_by_ascii else None,
            wide_led=tuple(w for w in wholes if not w[0].isascii()),
            wholes={whole: tuple(found) for whole, found in wholes.items()},
            at_start=tuple(words.at_start for words in registered),
        )

    def wide_pass(self) -> re.Pattern[str]:
        """The pass over the words led by a non-ASCII character, compiled on first use."""
        found = self.wide
        if found is None:  # two threads may both compile it: the same pattern either way
            found = self.wide = _first_char_pass(self.wide_led)
        return found

    def slots_of_whole(self, whole: str) -> tuple[tuple[int, int], ...]:
        """The slots of every word ``whole`` begins with: ``(slot, offset)``, each once.

        The longest word found at a position (``whole``) names them all; worked out the first
        time a text holds it (a build used to do it for all ~2,400 words up front).
        """
        found = self.whole_slots.get(whole)
        if found is None:
            wholes = self.wholes
            found = self.whole_slots[whole] = tuple(
                dict.fromkeys(
                    e for n in range(1, len(whole) + 1) for e in wholes.get(whole[:n], ())
                )
            )
        return found

    def slots_of(self, token: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The slots a token begins (its heads, exact or as a prefix).

        Each comes with the ``before`` strings one of which must stand just before the token
        (``("",)``: none needed).
        """
        found = self.token_slots.get(token)
        if found is not None:
            return found
        befores: dict[int, dict[str, None]] = {}
        for n in range(1, min(len(token), self.longest_head) + 1):
            for slot, before, exact in self.heads.get(token[:n], ()):
                if not exact or n == len(token):
                    befores.setdefault(slot, {})[before] = None
        if len(self.token_slots) >= _CACHED_TOKENS:
            self.token_slots.clear()
        found = self.token_slots[token] = tuple(
            (slot, ("",) if "" in strings else tuple(strings)) for slot, strings in befores.items()
        )
        return found

    def scan(self, lowered: str) -> _Found:
        """Where each token and other word of a slot stands in ``lowered``, kept for it.

        ``lowered`` is ``normalise``'s text; the slots read their positions on demand.
        """
        seen = self.last  # one read: another thread may replace it meanwhile
        if seen is not None and (seen[0] is lowered or seen[0] == lowered):
            return seen[1]
        token_at: dict[str, list[int]] = {}
        if self.tokens is not None:
            for m in self.tokens.finditer(lowered):
                token_at.setdefault(m.group(), []).append(m.start())
        whole_at: dict[str, list[int]] = {}
        passes = [self.ascii_led] if self.ascii_led is not None else []
        if self.wide_led and not lowered.isascii():
            passes.append(self.wide_pass())
        for others in passes:
            for m in others.finditer(lowered):
                whole_at.setdefault(m.group() + m.group(m.lastindex or 0), []).append(m.start())
        found = _Found(self, lowered, token_at, whole_at)
        self.last = (lowered, found)
        return found


class _Found:
    """What the passes found in one text.

    Each slot's positions are gathered on first use: a scan asks for only some rules.
    """

    __slots__ = ("_by_slot", "_lowered", "_pass", "_sorted", "_token_at", "_whole_at")

    def __init__(
        self,
        built: _Pass,
        lowered: str,
        token_at: dict[str, list[int]],
        whole_at: dict[str, list[int]],
    ) -> None:
        self._pass = built
        self._lowered = lowered
        self._token_at = token_at
        self._whole_at = whole_at
        self._by_slot: dict[int, list[tuple[list[int], tuple[str, ...] | int]]] | None = None
        self._sorted: dict[int, list[int]] = {}

    def _invert(self) -> dict[int, list[tuple[list[int], tuple[str, ...] | int]]]:
        """Each slot's found words: (positions, the ``before`` strings or the offset)."""
        by_slot: dict[int, list[tuple[list[int], tuple[str, ...] | int]]] = {}
        for token, positions in self._token_at.items():
            for slot, befores in self._pass.slots_of(token):
                by_slot.setdefault(slot, []).append((positions, befores))
        for whole, positions in self._whole_at.items():
            for slot, offset in self._pass.slots_of_whole(whole):
                by_slot.setdefault(slot, []).append((positions, offset))
        self._by_slot = by_slot  # built whole, then shared (another thread may build its own)
        return by_slot

    def of(self, slot: int) -> list[int]:
        r"""The slot's positions, ascending, 0 only when a match may begin with no word (``\A``).

        A word at 0 is found as any other.

        Trying 0 for every slot was ~40% of the classifier's ``pattern.match`` calls, each a
        failed match, and it kept every list non-empty: a caller could not pass a pattern by
        (issue 14).
        """
        got = self._sorted.get(slot)
        if got is not None:
            return got
        by_slot = self._by_slot if self._by_slot is not None else self._invert()
        found = {0} if self._pass.at_start[slot] else set()
        lowered = self._lowered
        for positions, how in by_slot.get(slot, ()):
            if how == 0 or how == ("",):
                found.update(positions)
            elif isinstance(how, int):
                found.update(q + how for q in positions)
            else:  # token words that need a ``before``: str.endswith takes them all at once
                longest = max(map(len, how))
                found.update(q for q in positions if lowered.endswith(how, max(0, q - longest), q))
        got = self._sorted[slot] = sorted(found)
        return got


class Prescan:
    """The passes over every registered slot; built on first use after a registration."""

    def __init__(self) -> None:
        self._registered: list[SlotWords] = []
        self._lock = threading.Lock()
        self._pass: _Pass | None = None

    def add(self, words: SlotWords) -> int:
        """Register one pattern's start words; returns its slot."""
        with self._lock:
            self._registered.append(words)
            self._pass = None  # rebuilt on the next scan, with this slot
            return len(self._registered) - 1

    def forget(self) -> None:
        """Drop the positions kept for the last text (a bench times each scan afresh)."""
        built = self._pass
        if built is not None:
            built.last = None

    def positions(self, lowered: str, slot: int) -> list[int]:
        """Where the pattern of ``slot`` may start in ``lowered`` (``normalise``'s text).

        Returns:
            Ascending positions, 0 always among them; shared by the callers of one text (do not
            change the list).
        """
        built = self._pass
        if built is None or slot >= built.slots:
            with self._lock:
                built = self._pass
                if built is None or slot >= built.slots:
                    built = self._pass = _Pass.build(self._registered)
        return built.scan(lowered).of(slot)

    def positions_of(self, lowered: str, slots: Sequence[int | None]) -> list[list[int] | None]:
        """``positions(lowered, slot)`` of each slot (None stays None), the text scanned once.

        The same lists as one call a slot: a rule with many patterns asks for all of them at
        once, and the per-call checks cost more than reading a kept list.
        """
        wanted = max((slot for slot in slots if slot is not None), default=-1)
        if wanted < 0:
            return [None] * len(slots)
        built = self._pass
        if built is None or wanted >= built.slots:
            with self._lock:
                built = self._pass
                if built is None or wanted >= built.slots:
                    built = self._pass = _Pass.build(self._registered)
        found = built.scan(lowered)
        return [None if slot is None else found.of(slot) for slot in slots]


_GROUPS: dict[str, Prescan] = {}
_GROUPS_LOCK = threading.Lock()


def group(name: str) -> Prescan:
    """The pre-scan of the slots registered under ``name``, made on first use.

    The rules table registers by where a rule is checked (``base.Rule``): a scan of prose runs
    the pass over the prose rules' words only, not over every command or SQL word.
    """
    with _GROUPS_LOCK:
        found = _GROUPS.get(name)
        if found is None:
            found = _GROUPS[name] = Prescan()
        return found


def forget() -> None:
    """Drop the positions every group keeps for its last text (a bench times each scan afresh)."""
    with _GROUPS_LOCK:
        groups = list(_GROUPS.values())
    for each in groups:
        each.forget()
