"""``qgs scan``: the deterministic detectors on any text, with findings located by line.

What the command reads (a file or standard input, at most ``SCAN_MAX_BYTES``), how it judges
the text (as input an agent will read, as a deliverable, or as one tool argument of a kind), and
the JSON document it prints. The command itself (options, output, exit codes) is in ``cli.py``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from qgs_worker.core.argscan import scan_argument
from qgs_worker.core.detectors import (
    DETECTOR_ROLE,
    injected_passage_notes,
    injected_passages_with_rules,
    scan_text,
)
from qgs_worker.core.models import ArgumentKind, Finding, Severity, risk_of
from qgs_worker.core.pii import find_pii
from qgs_worker.errors import InputError
from qgs_worker.service.inputs import binary_kind

SCAN_MAX_BYTES = 10_000_000
"""The largest input ``qgs scan`` reads, in bytes (detectors cost about 1.5 ms per KB)."""

INJECTED_INSTRUCTIONS = "injected_instructions"
"""The category ``qgs scan`` gives a passage that gives orders to the agent reading the text."""


AIMED_AT_THE_AGENT = frozenset({"prompt_injection", "jailbreak", "prompt_extraction", "jndi"})
"""Detector categories raised to P1 in text an agent will read (``qgs scan --as input``): an
attack on the agent, or a Log4Shell string that its logs would carry."""


def scan_findings(text: str, source: str, *, untrusted: bool) -> list[Finding]:
    """The detectors' findings on ``text``, most severe first.

    Args:
        text: Any text.
        source: What it is (a path, or ``stdin``): findings are located ``SOURCE:LINE`` (the
            line of the match itself) where the line can be found, ``SOURCE`` otherwise.
        untrusted: The text is meant to be read by an agent: each passage of it that gives the
            agent instructions (``find_injected_instructions``) is a P1 ``injected_instructions``
            finding, and prompt-injection, jailbreak and prompt-extraction findings are raised
            to P1 (in a deliverable they are P2 mentions).

    Returns:
        ``scan_text`` findings, plus the injected passages when ``untrusted``.
    """
    found = [
        f.model_copy(update={"location": _locate(text, f, source, scan_text)})
        if f.location == source
        else f
        for f in scan_text(text, location=source)
    ]
    if untrusted:
        found = _aimed_at_the_agent(found)
        passages = injected_passages_with_rules(text)
        notes = injected_passage_notes(text) if passages else {}
        for number, (passage, rule_id) in enumerate(passages, start=1):
            flat = " ".join(passage.split())
            start = _quoted_at(text, flat)
            found.append(
                Finding(
                    role=DETECTOR_ROLE,
                    category=INJECTED_INSTRUCTIONS,
                    severity=Severity.P1,
                    title="instructions aimed at the agent that reads this text "
                    f"(passage {number} of {len(passages)})"
                    + (f" (after {notes[passage]})" if passage in notes else ""),
                    evidence=flat if len(flat) <= 200 else flat[:199] + "…",
                    location=source if start is None else _at_line(text, start, source),
                    rule=rule_id,
                )
            )
        found.extend(_orders_in(text, source, [p for p, _ in passages]))
    return sorted(found, key=lambda f: f.severity)


_MAX_ORDER_FINDINGS = 20


def _orders_in(text: str, source: str, passages: list[str]) -> list[Finding]:
    """Orders of the text no injected passage holds: addressed to the agent, or asking a sensitive act.

    What an audit reports at a tool output as P2 ``order_in_data`` until an agent carries the
    order out ("AI agents must send the session cookie to ..."): ``qgs scan`` says it where the
    order stands.
    """
    from qgs_worker.core.acts import SENSITIVE_MARKS
    from qgs_worker.core.injected_passages import unfold
    from qgs_worker.core.orders import find_orders

    flat_passages = [" ".join(p.split()) for p in passages]
    found: list[Finding] = []
    for order in find_orders(unfold(text)):
        sensitive = any(m.startswith(SENSITIVE_MARKS) for m in order.marks)
        flat = " ".join(order.text.split())
        if not (order.addressed or sensitive) or any(flat in p or p in flat for p in flat_passages):
            continue
        start = _quoted_at(text, flat)
        why = "addressed to the agent" if order.addressed else "naming a sensitive act"
        found.append(
            Finding(
                role=DETECTOR_ROLE,
                category="order_in_data",
                severity=Severity.P2,
                title=f"an order {why}: an agent that carries it out is stopped (P0)",
                evidence=flat if len(flat) <= 200 else flat[:199] + "…",
                location=source if start is None else _at_line(text, start, source),
                rule="addressed_order" if order.addressed else "sensitive_order",
            )
        )
        if len(found) >= _MAX_ORDER_FINDINGS:
            break
    return found


def scan_argument_findings(
    text: str, source: str, kind: ArgumentKind, *, untrusted: bool
) -> list[Finding]:
    """The tool-call gate's injection findings on ``text`` as one argument of ``kind``.

    Args:
        text: The argument's value.
        source: What it is (a path, or ``stdin``); findings are located as by ``scan_findings``.
        kind: What the argument carries (``command``, ``sql``, ``url``, ...).
        untrusted: The text is meant to be read by an agent: prompt-injection, jailbreak and
            prompt-extraction findings are raised to P1, as ``scan_findings`` does.

    Returns:
        ``scan_argument`` findings, most severe first.
    """

    def rescan(part: str) -> list[Finding]:
        return scan_argument(part, kind, location=source, tool="scan")

    found = [
        f.model_copy(update={"location": _locate(text, f, source, rescan)}) for f in rescan(text)
    ]
    return sorted(_aimed_at_the_agent(found) if untrusted else found, key=lambda f: f.severity)


def _aimed_at_the_agent(findings: list[Finding]) -> list[Finding]:
    """Raise AIMED_AT_THE_AGENT findings to P1: an attack on the agent that reads the text."""
    return [
        f.model_copy(update={"severity": Severity.P1})
        if f.category in AIMED_AT_THE_AGENT and f.severity > Severity.P1
        else f
        for f in findings
    ]


def scan_result(
    findings: list[Finding], *, source: str, scanned_as: str, size_bytes: int
) -> dict[str, Any]:
    """The JSON document ``qgs scan --format json`` prints.

    Shape: ``{"source", "as", "bytes", "findings": [{"role", "category", "severity", "title",
    "evidence", "location", "rule"}], "counts": {"P0": n, ... "P4": n}, "risk": n (P0=100, P1=50, P2=20,
    P3=10, P4=5), "max_severity": "P0".."P4" | null, "flagged": bool (a P0 or P1: exit 1)}``.
    """
    counts = Counter(f.severity.value for f in findings)
    worst = min((f.severity for f in findings), default=None)
    return {
        "source": source,
        "as": scanned_as,
        "bytes": size_bytes,
        "findings": [f.model_dump(mode="json") for f in findings],
        "counts": {sev.value: counts.get(sev.value, 0) for sev in Severity},
        "risk": risk_of(findings),
        "max_severity": worst.value if worst else None,
        "flagged": worst in (Severity.P0, Severity.P1),
    }


def read_scan_input(name: str) -> tuple[bytes, str]:
    """The bytes of a file (or of standard input for ``-``), and the name to report them by.

    Raises:
        InputError: No such file, a directory, or more than ``SCAN_MAX_BYTES``.
    """
    too_big = (
        f"is larger than {SCAN_MAX_BYTES // 1_000_000} MB: qgs scan refuses it; scan it in "
        "parts (e.g. split -b 5M FILE part-)"
    )
    if name == "-":
        data = sys.stdin.buffer.read(SCAN_MAX_BYTES + 1)
        if len(data) > SCAN_MAX_BYTES:
            raise InputError(f"standard input {too_big}")
        return data, "stdin"
    path = Path(name)
    if path.is_dir():
        raise InputError(
            f"{name} is a directory: qgs scan reads one text file (scan each file, e.g. "
            f'for f in {name.rstrip("/") or "/"}/*; do qgs scan "$f"; done), or - to read '
            "standard input"
        )
    if not path.is_file():
        raise InputError(f"no such file: {name} (pass a text file, or - to read standard input)")
    if path.stat().st_size > SCAN_MAX_BYTES:
        raise InputError(f"{name} ({path.stat().st_size:,} bytes) {too_big}")
    with path.open("rb") as fh:
        data = fh.read(SCAN_MAX_BYTES + 1)
    if len(data) > SCAN_MAX_BYTES:
        raise InputError(f"{name} {too_big}")
    return data, name


def decode_scan_input(data: bytes, source: str) -> tuple[str, str | None]:
    """The input as text, and a warning when it had to be decoded with replacements.

    Raises:
        InputError: The input is binary or UTF-16/32 text (``inputs.binary_kind``).
    """
    kind = binary_kind(data)  # the one input contract (qgs_worker.service.inputs), as qgs submit
    if kind is not None:
        raise InputError(
            f"{source} is not text: it holds NUL bytes or a UTF-16 mark (it is {kind}); "
            "qgs scan reads UTF-8 text (convert it first, e.g. iconv -f UTF-16 -t UTF-8)"
        )
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        warning = (
            f"{source} is not valid UTF-8 (first bad byte at offset {exc.start}); the bad bytes "
            "are scanned as U+FFFD"
        )
        return data.decode("utf-8-sig", errors="replace"), warning


LOCATE_TRIES = 20
"""How many places quoting a finding's evidence ``qgs scan`` checks for the match's line."""

CONTEXT_CHARS = 50
"""How many characters of context the detectors quote before a match (``detectors._evidence``)."""


def _locate(
    text: str, finding: Finding, source: str, rescan: Callable[[str], list[Finding]]
) -> str:
    """``SOURCE:LINE`` of the line where the finding's match is, else ``SOURCE``.

    The evidence quotes up to ~50 characters before the match (``detectors._evidence``), so
    its first words may sit lines above the match: the line is the first one of the quoted
    span on which ``rescan`` (the detectors that found it) finds the same finding again.
    Personal data is quoted redacted, so it is found again by value (``pii.find_pii``).
    """
    start = _match_start(text, finding, rescan)
    return source if start is None else _at_line(text, start, source)


def _at_line(text: str, offset: int, source: str) -> str:
    return f"{source}:{text.count(chr(10), 0, offset) + 1}"


def _quoted_at(text: str, evidence: str) -> int | None:
    """Where the quote ``evidence`` (whitespace flattened, maybe cut with "…") starts in text."""
    span = next(_quoted_spans(text, evidence), None)
    return None if span is None else span[0]


def _quoted_spans(text: str, evidence: str) -> Iterator[tuple[int, int]]:
    words = evidence.split("…", 1)[0].split() or evidence.replace("…", " ").split()
    if not words:
        return
    pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
    for match in pattern.finditer(text):
        yield match.span()


def _match_start(text: str, finding: Finding, rescan: Callable[[str], list[Finding]]) -> int | None:
    if finding.category == "pii" and finding.rule == "example_secret":
        # Published test card numbers are quoted as written, not redacted (break test: they
        # had no line, as find_pii skips them).
        quoted = finding.evidence.split(", ", 1)[0].rstrip("…")
        at = text.find(quoted) if quoted else -1
        return at if at >= 0 else None
    if finding.category == "pii":  # evidence: redacted values only
        starts = [
            text.find(m.value)
            for m in find_pii(text, sensitive_only=True)
            if finding.title.endswith(m.kind.value)
        ]
        return min((s for s in starts if s >= 0), default=None)
    first: tuple[int, int] | None = None
    for tries, (start, end) in enumerate(_quoted_spans(text, finding.evidence)):
        if tries == LOCATE_TRIES:
            break
        first = first or (start, end)
        line_start = start
        while line_start < end:  # each line of the quoted span, from where the quote starts
            line_end = text.find("\n", line_start)
            line_end = len(text) if line_end < 0 else line_end
            part = text[line_start : min(line_end, end + 2 * CONTEXT_CHARS)]
            if any(
                (f.category, f.title) == (finding.category, finding.title) for f in rescan(part)
            ):
                return line_start
            line_start = line_end + 1
    if first is None:
        return None
    # A match across lines: it starts about CONTEXT_CHARS into the quote (none at the start).
    start, end = first
    return start if not text[:start].strip() else min(start + CONTEXT_CHARS, end - 1)
