"""The shape of one rule of the table, and the contexts its severity depends on.

A rule is a documented shape of danger (a command with a root target, a vendor token format, a
phrase addressed to the model), never a bare scary word: a few compiled patterns, an optional
``accept`` test of each match, the keywords every match contains (a cheap pre-check before the
patterns run), where the shape comes from, and how severe a match is **in each context**:

| context | where the text is | who reads it |
| --- | --- | --- |
| ``prose`` | a deliverable's text or any prose, where a command is only mentioned | ``detectors.scan_text`` |
| ``deliverable`` | the same text, scored for safety: P0 takes 70 points (destructive), P1 50 (a secret), P2 25 (risky), P3/P4 none (noted) | ``judges/rules_judge.py`` |
| ``tool_call`` | any argument of a tool call an agent made, its kind unknown | ``detectors.scan_tool_call`` |
| ``tool_output`` | what a tool returned | ``round_scan.scan_round`` |
| ``sent`` / ``written`` | data a tool call sends out / writes to a file (personal data) | ``pii`` |
| ``command``, ``sql``, ``url``, ``path``, ``html``, ``free_text`` | a tool argument of that kind, before the call runs | ``argscan.scan_argument`` (tool gate layer 6) |

No severity in a context: the rule is not checked there.

A rule's patterns are compiled on first use (``LazyPatterns``), not at import: compiling the
whole table took most of the ~400 ms ``qgs scan`` and ``qgs check-tool`` spent importing the
rules, and a text without a rule's needles never needs its patterns; their pre-scan is built
once a rule has read enough text to repay it (``PREFILTER_AFTER_CHARS``; issue 15).
Pure: stdlib and pydantic only (through ``models``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from qgs_worker.core.models import ArgumentKind, Severity
from qgs_worker.core.rules import prescan
from qgs_worker.core.rules.prefilter import Prefilter, normalise

__all__ = ["PREFILTER_AFTER_CHARS", "Accept", "Context", "Guard", "LazyPatterns", "Rule", "rule"]

P0, P1, P2, P3, P4 = Severity.P0, Severity.P1, Severity.P2, Severity.P3, Severity.P4

Accept = Callable[[re.Match[str]], bool]
"""A test of one match: True to report it (e.g. ``rm`` with a recursive flag among its flags)."""


class Context(StrEnum):
    """Where a text is judged (the module's table); the value is the keyword of ``rule()``."""

    PROSE = "prose"
    DELIVERABLE = "deliverable"
    TOOL_CALL = "tool_call"
    TOOL_OUTPUT = "tool_output"
    SENT = "sent"
    WRITTEN = "written"
    COMMAND = "command"
    SQL = "sql"
    URL = "url"
    PATH = "path"
    HTML = "html"
    FREE_TEXT = "free_text"

    @classmethod
    def of_kind(cls, kind: ArgumentKind) -> Context:
        """The context of a tool argument of ``kind`` (the same value)."""
        return cls(kind.value)


class LazyPatterns(Sequence["re.Pattern[str]"]):
    """A rule's patterns, compiled the first time they are read (then kept).

    Reading them all (an index, iteration) compiles them all; ``one`` compiles one (a rule's
    guarded patterns, ``Guard``). Length and truth need no compiling. ``+`` joins two (or a
    tuple of compiled patterns) without compiling either. A pattern that does not compile
    raises ``re.error`` when first read (``tests/unit/test_rules_table.py`` reads every rule's).
    """

    __slots__ = ("_compiled", "_each", "_items")

    def __init__(self, items: Iterable[tuple[str, int] | re.Pattern[str]]) -> None:
        self._items = tuple(items)
        self._compiled: tuple[re.Pattern[str], ...] | None = None
        self._each: list[re.Pattern[str] | None] = [None] * len(self._items)

    @classmethod
    def of(cls, *patterns: str, flags: int = 0) -> LazyPatterns:
        """Patterns compiled with ``flags`` when first read."""
        return cls((p, flags) for p in patterns)

    @property
    def compiled(self) -> tuple[re.Pattern[str], ...]:
        """Every pattern, compiled (now, the first time)."""
        found = self._compiled
        if found is None:  # two threads may both compile: the same patterns, no harm
            found = tuple(self.one(index) for index in range(len(self._items)))
            self._compiled = found
        return found

    def one(self, index: int) -> re.Pattern[str]:
        """The pattern at ``index``, compiled (now, the first time), the others left as they are."""
        found = self._each[index]
        if found is None:
            item = self._items[index]
            found = item if isinstance(item, re.Pattern) else re.compile(*item)
            self._each[index] = found
        return found

    def sources(self) -> tuple[str, ...]:
        """The patterns' source strings, none compiled (``lookalikes.vocabulary`` reads words)."""
        return tuple(i.pattern if isinstance(i, re.Pattern) else i[0] for i in self._items)

    def __getitem__(self, index: int) -> re.Pattern[str]:  # type: ignore[override]
        return self.compiled[index]

    def __iter__(self) -> Iterator[re.Pattern[str]]:
        return iter(self.compiled)

    def __len__(self) -> int:
        return len(self._items)

    def __add__(self, other: Iterable[re.Pattern[str]]) -> LazyPatterns:
        more = other._items if isinstance(other, LazyPatterns) else tuple(other)
        return LazyPatterns(self._items + more)

    def __repr__(self) -> str:
        return f"LazyPatterns({[getattr(i, 'pattern', i) for i in self._items]!r})"


@dataclass(frozen=True, slots=True, eq=False)
class Guard:
    """A pattern found in every match of some of a rule's patterns: they run only where it is.

    The judge rules' longest patterns (a demand to the grader, ~6 KB each: ~100 ms to compile)
    all end in a favourable value (PASS, 100, full marks, 满分...): the guard is the union of
    those values, so a text without one never compiles them (``qgs scan`` on a page of prose).
    Built from the same sub-patterns, it finds a match wherever a guarded pattern could: the
    rule finds what it found without the guard (``tests/unit/test_rules_linear.py``).

    Attributes:
        pattern: The regular expression (compiled with the rule's flags when first searched).
        guarded: The indices, in ``Rule.patterns``, of the patterns it guards.
    """

    pattern: LazyPatterns
    guarded: frozenset[int]

    def absent(self, text: str) -> bool:
        """Whether ``text`` holds no match of the guard: the guarded patterns have none."""
        return self.pattern.one(0).search(text) is None


@dataclass(frozen=True, slots=True, eq=False)
class Rule:
    """One rule of the table.

    Attributes:
        rule_id: Stable id, unique in the table; what ``Finding.rule`` carries.
        family: The module of ``core/rules/`` it belongs to (``destructive``, ``sql``...).
        category: The ``Finding.category`` it reports (``destructive_command``, ``secret``...).
        title: What a match is, completing "tool call X carries ..." / "mentions ...".
        patterns: Patterns (compiled on first use, ``LazyPatterns``); the first accepted match
            of the first pattern that has one is the rule's evidence. Empty for a rule matched by logic (SSRF address classes,
            personal data checks), whose module says which function applies it.
        severity: Severity per context; a context absent is not checked.
        source: Where the shape comes from (OWASP, CWE, a man page, a paper, a vendor's docs).
        accept: A test of each match, or None to accept every match.
        secret_group: The group to redact in evidence ("0": the whole match), for secrets.
        shell_syntax: Shell syntax is a shell tool's point: not reported in a tool call of a
            shell tool (``bash``, ``run_command``...).
        needles: Lower-case substrings one of which every match contains; empty when no such
            keyword exists (the patterns then always run).
        matched_by: The module that applies this rule by logic of its own (personal data's
            check digits, SSRF's address parsing, JNDI's unwrapping...); empty for a rule the
            detectors and ``argscan`` apply by its patterns alone.
        guard: A pattern every match of some of ``patterns`` holds (``Guard``), or None.
        prefilter: Where the patterns may start (``prefilter``), built from ``patterns`` once
            the rule has read ``PREFILTER_AFTER_CHARS`` characters, and registered then with the
            shared pre-scan of ``group``: the matches are the same as ``finditer``'s, found in a
            fraction of the time.
    """

    rule_id: str
    family: str
    category: str
    title: str
    patterns: LazyPatterns
    severity: Mapping[Context, Severity]
    source: str
    accept: Accept | None = None
    secret_group: str | None = None
    shell_syntax: bool = False
    needles: tuple[str, ...] = field(default=())
    matched_by: str = ""
    guard: Guard | None = None
    _prefilter: Prefilter | None = field(default=None, init=False, repr=False)
    _plain_chars: int = field(default=0, init=False, repr=False)

    @property
    def prefilter(self) -> Prefilter:
        """Where the patterns may start: built on first use (patterns compiled, pre-scan joined)."""
        found = self._prefilter
        if found is None:  # two threads may both build it: the same prefilter, no harm
            found = Prefilter(self.patterns.compiled, prescan.group(self.group))
            object.__setattr__(self, "_prefilter", found)
        return found

    @property
    def group(self) -> str:
        """The shared pre-scan this rule's patterns register with (``prescan.group``).

        One for the rules checked in prose (``scan_text`` reads long texts with the prose rules
        only), one for the others checked in a deliverable, one for the rest (tool arguments).
        """
        if Context.PROSE in self.severity:
            return "prose"
        return "deliverable" if Context.DELIVERABLE in self.severity else "arguments"

    def severity_in(self, context: Context) -> Severity | None:
        """The severity of a match in ``context``, or None when the rule is not checked there."""
        return self.severity.get(context)

    @property
    def prose(self) -> Severity | None:
        """The severity in prose (``scan_text``)."""
        return self.severity.get(Context.PROSE)

    @property
    def executed(self) -> Severity | None:
        """The severity in an argument of a tool call made (``scan_tool_call``)."""
        return self.severity.get(Context.TOOL_CALL)

    def finditer(self, text: str) -> Iterator[tuple[re.Pattern[str], Iterator[re.Match[str]]]]:
        """Each pattern with its matches in ``text``, as ``pattern.finditer`` gives them.

        The positions a pattern may start at are found once for all the rule's patterns
        (``prefilter``); a pattern runs only there. Until the rule has read
        ``PREFILTER_AFTER_CHARS`` characters, the patterns run plainly (the same matches), and a
        guarded pattern whose guard is not in ``text`` (it has no match) is left out, not
        compiled for it. Once the pre-scan is built, every pattern is compiled and runs only
        where it may start: the guard, read over the whole text, would cost more than it saves.
        """
        prefilter = self._prefilter  # the hot path of the gate's layer 6
        if prefilter is None:
            read = self._plain_chars + len(text)
            if read < PREFILTER_AFTER_CHARS:  # two threads may both count: a guess, no harm
                object.__setattr__(self, "_plain_chars", read)
                yield from self._plainly(text)
                return
            prefilter = self.prefilter
        compiled = self.patterns._compiled or self.patterns.compiled
        lowered = _lowered(text) if prefilter.useful else None
        if lowered is None:  # nothing to pre-scan, or a text normalise cannot map
            starts: list[list[int] | None] = [None] * len(compiled)
        else:
            starts = prefilter.starts(lowered)
        for pattern, found in zip(compiled, starts, strict=True):
            # No start in the text (the common case once 0 is not tried for every pattern):
            # an empty iterator, not a generator that tries nothing.
            yield pattern, prefilter.finditer(pattern, text, found) if found != [] else _NO_MATCH

    def _plainly(self, text: str) -> Iterator[tuple[re.Pattern[str], Iterator[re.Match[str]]]]:
        """``finditer`` without the pre-scan, a guarded pattern left out when its guard is absent."""
        guard = self.guard
        skipped: frozenset[int] | None = None
        for index in range(len(self.patterns)):
            if guard is not None and skipped is None and index in guard.guarded:
                skipped = guard.guarded if guard.absent(text) else frozenset()
            if skipped and index in skipped:
                continue
            pattern = self.patterns.one(index)
            yield pattern, pattern.finditer(text)

    def first_match(self, text: str) -> re.Match[str] | None:
        """The first accepted match, pattern by pattern; None when no pattern matches."""
        for _, matches in self.finditer(text):
            for match in matches:
                if self.accept is None or self.accept(match):
                    return match
        return None

    def all_matches(self, text: str) -> list[str]:
        """Every accepted match, in order of position; a span two patterns match counts once."""
        spans: list[tuple[int, int, str]] = []
        for _, matches in self.finditer(text):
            for m in matches:
                if self.accept is not None and not self.accept(m):
                    continue
                if not any(start < m.end() and m.start() < end for start, end, _ in spans):
                    spans.append((m.start(), m.end(), m.group(0)))
        return [found for _, _, found in sorted(spans)]


_NO_MATCH: Iterator[re.Match[str]] = iter(())
"""An exhausted iterator, shared: the matches of a pattern that may start nowhere in a text."""

PREFILTER_AFTER_CHARS = 32_000
"""Characters a rule reads with its patterns' plain ``finditer`` before it builds its pre-scan.

Reading the patterns' start words (``prefilter.start_words``) costs about what compiling them
does (~100 ms for the judge rules, ~20 ms for the prompt rules), and plain matching costs
~2 ms per 100 KB of prose per pattern: a short command on a short text (``qgs scan``, ``qgs
check-tool``) never builds the pre-scan, a process that reads more builds it once (issue 15)."""

_last_lowered: tuple[str, str | None] = ("", "")


def _lowered(text: str) -> str | None:
    """``normalise(text)``, kept for the last text: every rule of a scan reads the same text."""
    global _last_lowered
    seen = _last_lowered  # one read: another thread may replace it meanwhile
    if seen[0] is text or seen[0] == text:
        return seen[1]
    lowered = normalise(text)
    _last_lowered = (text, lowered)
    return lowered


def rule(
    rule_id: str,
    family: str,
    category: str,
    title: str,
    *patterns: str,
    source: str,
    flags: int = re.IGNORECASE,
    accept: Accept | None = None,
    secret_group: str | None = None,
    shell_syntax: bool = False,
    needles: tuple[str, ...] = (),
    matched_by: str = "",
    guard: tuple[str, Iterable[int]] | None = None,
    **severity: Severity,
) -> Rule:
    """Build a rule: compile its patterns and read its severities from keywords.

    Args:
        rule_id: See ``Rule``; the other arguments too.
        family: See ``Rule``.
        category: See ``Rule``.
        title: See ``Rule``.
        *patterns: Regular expressions, compiled with ``flags`` when first used.
        source: See ``Rule``.
        flags: ``re`` flags for every pattern (case-insensitive unless told).
        accept: See ``Rule``.
        secret_group: See ``Rule``.
        shell_syntax: See ``Rule``.
        needles: See ``Rule``; lower-case.
        matched_by: See ``Rule``.
        guard: ``(pattern, indices)``: a ``Guard`` of the patterns at ``indices`` (``flags``).
        **severity: One keyword per context (``prose=P2, tool_call=P0, command=P0``).

    Returns:
        The rule.

    Raises:
        ValueError: A keyword is not a ``Context`` value, or a needle is not lower-case (the
            pre-check reads the lower-cased text).
    """
    contexts = {Context(name): value for name, value in severity.items()}
    if any(needle != needle.lower() for needle in needles):
        raise ValueError(f"rule {rule_id}: needles must be lower-case, got {needles}")
    return Rule(
        rule_id=rule_id,
        family=family,
        category=category,
        title=title,
        patterns=LazyPatterns.of(*patterns, flags=flags),
        severity=MappingProxyType(contexts),
        source=source,
        accept=accept,
        secret_group=secret_group,
        shell_syntax=shell_syntax,
        needles=needles,
        matched_by=matched_by,
        guard=None
        if guard is None
        else Guard(LazyPatterns.of(guard[0], flags=flags), frozenset(guard[1])),
    )
