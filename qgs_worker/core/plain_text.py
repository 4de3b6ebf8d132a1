r"""The plain view of a text: what obfuscation cannot change, for the rules, the model and the data flow.

A reader (a person, or the model an agent runs on) reads ``іgnоrе``, ``𝐢𝐠𝐧𝐨𝐫𝐞``,
``i g n o r e``, ``1gn0r3`` and ``aWdub3Jl`` as "ignore"; the detectors read text as written.
``plain(text)`` returns the text as read, in these steps (each one only where it applies):

1. **invisible characters** (``plain_letters``): format characters removed, combining marks
   stacked on a Latin letter removed (``i̸g̸n̸o̸r̸e̸``), tag characters read as ASCII.
2. **look-alike letters** (``plain_letters``, tables from ``lookalikes``, which says where each
   comes from: Unicode's confusables data, UTS #39, through the ``confusable-homoglyphs``
   package, and NFKC): compatibility forms (full-width, mathematical, circled letters) read as
   ASCII everywhere; a letter of another script whose confusables prototype is Latin read as
   that letter only where another script is mixed into Latin: inside a word that also has Latin
   letters (``іgnоrе``), or as a whole word on a line where Latin words outnumber words of
   another script (``bash -с``). A Russian, Greek or Chinese sentence stays itself.
3. **encoded fragments** (``plain_decode``): base64, hex, URL-encoded and rot13 fragments that decode to
   mostly printable words, appended to the view after a blank line.
4. **spaced-out letters** joined (``plain_words``): ``i g n o r e``, ``i.g.n.o.r.e``,
   ``r m   - r f   /``; a wider gap is a word break.
5. **leetspeak** read as letters (``plain_words``) inside a word that mixes letters with digits
   or signs (``1gn0r3``, ``pr0mpt``, ``$ystem``), not in numbers, versions (``sha256``),
   hex strings, identifiers, paths or addresses.

Cheap: a step runs only where a fast search (a character class first) finds what it undoes,
and an ASCII text skips steps 1-2; on 100 KB of prose ``plain`` takes about 0.07-0.1 ms per KB
(``bench/detector_speed_bench.py``), and returns ``PlainText`` with ``.text`` the text itself
when nothing changes. The detectors read ``PlainText.focus`` a second time: the lines around
each change and the decoded fragments, not a long text whole. Where each character of the
view comes from is kept (``PlainText.in_original``), so evidence quotes the text as written.
Pure: stdlib only (``lookalikes`` reads a data package's file).
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from qgs_worker.core import plain_decode
from qgs_worker.core.plain_letters import Edit, invisible_edits, letter_edits
from qgs_worker.core.plain_words import leet_edits, may_be_leet, may_be_spaced, spaced_edits

__all__ = ["PlainText", "forget", "plain", "plain_text"]

Origin = tuple[list[int], list[int]]
"""A step's output offsets where a segment starts, and the input offsets they come from."""

LOOK_ALIKE = "look-alike letters"
INVISIBLE = "invisible characters"
SPACED = "spaced-out letters"
LEET = "leetspeak"


@dataclass(frozen=True, slots=True)
class PlainText:
    """A text's plain view and where its characters come from.

    Attributes:
        text: The view (the original object itself when nothing changed).
        original: The text as written.
        undone: What was undone, in the module's step order (``"look-alike letters"``...).
        main_chars: How much of ``text`` is the original's own view; decoded fragments follow.
        fragments: Each appended fragment: (view start, view end, original start, original
            end, what it was: ``"base64"``, ``"hex"``, ``"url"``, ``"rot13"``).
    """

    text: str
    original: str = ""
    undone: tuple[str, ...] = ()
    main_chars: int = 0
    fragments: tuple[tuple[int, int, int, int, str], ...] = ()
    _origins: tuple[Origin, ...] = field(default=(), repr=False)
    _focus: PlainText | None = field(default=None, repr=False)

    @property
    def focus(self) -> PlainText:
        """The view cut to the lines around its changes, and its decoded fragments.

        What the rules and the model read a second time: a long text with one changed word is
        not scanned twice whole. The whole view when the changes are spread over most of it.
        """
        return self if self._focus is None else self._focus

    @property
    def changed(self) -> bool:
        """Whether the view differs from the text as written."""
        return self.text is not self.original and self.text != self.original

    def in_original(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original that the view's ``[start, end)`` comes from."""
        for v_start, v_end, o_start, o_end, _ in self.fragments:
            if v_start <= start < v_end:
                return o_start, o_end
        start, end = min(start, self.main_chars), min(end, self.main_chars)
        return _back_span(self._origins, start, end, len(self.original))

    def why(self, start: int) -> str:
        """What was undone for the view's text at ``start``: "decoding a base64 fragment"..."""
        for v_start, v_end, *_, kind in self.fragments:
            if v_start <= start < v_end:
                return f"decoding a {kind} fragment"
        kinds = [u for u in self.undone if u in (LOOK_ALIKE, INVISIBLE, SPACED, LEET)]
        return "undoing " + (", ".join(kinds) or LOOK_ALIKE)


def plain_text(text: str) -> str:
    """The plain view's text (``plain(text).text``): ``text`` itself when nothing changes."""
    return plain(text).text


def plain(text: str) -> PlainText:
    """The plain view of ``text`` (memoized for the last 64 texts; the module's steps).

    Args:
        text: Any text, any length.

    Returns:
        Its ``PlainText``: ``.text is text`` and ``.changed`` False when nothing was undone.

    Raises:
        ConfigurationError: Unicode's confusables data package is missing (``lookalikes``);
            only a text with non-ASCII characters reads it.
    """
    found = _plain(text)
    if found.changed or found.text is text:
        return found
    return PlainText(text, text, main_chars=len(text))  # an equal text's memo: this object


def forget() -> None:
    """Drop the memoized views (a benchmark's repetitions each measure a new text's cost)."""
    _plain.cache_clear()


def _kinds(text: str) -> frozenset[str]:
    """The steps an ASCII text may need, each told by one fast search ("Paris": none)."""
    kinds = set()
    if plain_decode.may_have_fragments(text):
        kinds.add("encoded")
    if may_be_spaced(text):
        kinds.add("spaced")
    if may_be_leet(text):
        kinds.add("leet")
    return frozenset(kinds)


_ALL_KINDS = frozenset({"leet", "spaced", "encoded"})


@lru_cache(maxsize=64)
def _plain(text: str) -> PlainText:
    origins: list[Origin] = []
    undone: list[str] = []
    dirty: list[tuple[int, int]] = []  # the view's changed spans, in the current view's offsets
    view = text

    def step(name: str, edits: Sequence[Edit]) -> None:
        nonlocal view, dirty
        if edits:
            view, origin = _apply(view, edits)
            origins.append(origin)
            undone.append(name)
            view_at = origin[0]
            dirty = [(_forward(origin, s), _forward(origin, e)) for s, e in dirty]
            dirty += [(view_at[2 * k + 1], view_at[2 * k + 2]) for k in range(len(edits))]

    kinds = _ALL_KINDS
    if not text.isascii():
        step(INVISIBLE, invisible_edits(view))
        step(LOOK_ALIKE, letter_edits(view))
    else:
        kinds = _kinds(text)
        if not kinds:
            return PlainText(text, text, main_chars=len(text))
    # encoded fragments before leetspeak can touch a base64 run
    found = plain_decode.fragments(view) if "encoded" in kinds else []
    decoded_in = tuple(origins)  # the steps the fragments' offsets went through
    if "spaced" in kinds:
        step(SPACED, spaced_edits(view))
    if "leet" in kinds:
        step(LEET, leet_edits(view))
    if not undone and not found:
        return PlainText(text, text, main_chars=len(text))
    decoded = [
        (_plain(fragment).text, *_back_span(decoded_in, start, end, len(text)), kind)
        for start, end, kind, fragment in found
    ]
    undone += [f"{kind} fragment" for *_, kind in decoded]
    whole = _with_fragments(view, text, tuple(undone), tuple(origins), decoded)
    gaps = _gaps(view, dirty)
    if not gaps:
        return whole
    focus_view, focus_origin = _apply(view, gaps)
    focus = _with_fragments(focus_view, text, tuple(undone), (*origins, focus_origin), decoded)
    return dataclasses.replace(whole, _focus=focus)


def _with_fragments(
    view: str,
    text: str,
    undone: tuple[str, ...],
    origins: tuple[Origin, ...],
    decoded: list[tuple[str, int, int, str]],
) -> PlainText:
    """``view`` with each decoded fragment appended after a blank line."""
    fragments: list[tuple[int, int, int, int, str]] = []
    pieces = [view]
    length = len(view)
    for readable, o_start, o_end, kind in decoded:
        pieces.append("\n\n" + readable)
        fragments.append((length + 2, length + 2 + len(readable), o_start, o_end, kind))
        length += 2 + len(readable)
    return PlainText("".join(pieces), text, undone, len(view), tuple(fragments), origins)


FOCUS_CONTEXT_CHARS = 600
"""How much of the view around each change ``PlainText.focus`` keeps, each side (then to the
line's end, at most 200 more): the rules' and the model's passages are a sentence to a
paragraph, so what they find in the view lies this close to a change."""


def _gaps(view: str, dirty: list[tuple[int, int]]) -> list[Edit]:
    """The stretches of ``view`` far from every change, each as a blank line (``focus``)."""
    kept: list[tuple[int, int]] = []
    for start, end in sorted(dirty):
        low = max(0, start - FOCUS_CONTEXT_CHARS)
        cut = view.rfind("\n", max(0, low - 200), low)
        low = 0 if low == 0 else (cut + 1 if cut >= 0 else low)
        high = min(len(view), end + FOCUS_CONTEXT_CHARS)
        cut = view.find("\n", high, high + 200)
        high = len(view) if high == len(view) else (cut if cut >= 0 else high)
        if kept and low <= kept[-1][1]:
            kept[-1] = (kept[-1][0], max(high, kept[-1][1]))
        else:
            kept.append((low, high))
    if sum(e - s for s, e in kept) > len(view) // 2:
        return []  # most of the view: the whole of it
    gaps: list[Edit] = []
    pos = 0
    for start, end in kept:
        if start > pos:
            gaps.append((pos, start, "\n\n"))
        pos = end
    if pos < len(view):
        gaps.append((pos, len(view), "\n\n"))
    return gaps


# --- offsets ------------------------------------------------------------------------------------
def _apply(text: str, edits: Sequence[Edit]) -> tuple[str, Origin]:
    pieces: list[str] = []
    view_at, value_at = [0], [0]
    pos = length = 0
    for start, end, replacement in edits:
        pieces.append(text[pos:start])
        length += start - pos
        view_at.append(length)
        value_at.append(start)
        pieces.append(replacement)
        length += len(replacement)
        view_at.append(length)
        value_at.append(end)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces), (view_at, value_at)


def _back(origin: Origin, index: int) -> int:
    view_at, value_at = origin
    segment = bisect.bisect_right(view_at, index) - 1
    found = value_at[segment] + index - view_at[segment]
    if segment + 1 < len(value_at):
        found = min(found, max(value_at[segment], value_at[segment + 1] - 1))
    return found


def _forward(origin: Origin, index: int) -> int:
    """Where the input's ``index`` is in a step's output."""
    view_at, value_at = origin
    segment = bisect.bisect_right(value_at, index) - 1
    found = view_at[segment] + index - value_at[segment]
    if segment + 1 < len(view_at):
        found = min(found, view_at[segment + 1])
    return found


def _back_span(origins: Sequence[Origin], start: int, end: int, size: int) -> tuple[int, int]:
    """A span of the view after ``origins``' steps, back in the original (of ``size`` chars)."""
    first, last = start, max(start, end - 1)
    for origin in reversed(origins):
        first, last = _back(origin, first), _back(origin, last)
    return first, min(size, last + 1) if end > start else first
