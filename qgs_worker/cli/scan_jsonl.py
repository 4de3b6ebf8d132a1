"""``qgs scan --jsonl FILE``: the detectors on every text of a JSONL file, one verdict each.

How a user vets a RAG corpus, a fine-tuning set or a crawl in one call. Each line of the file is
one JSON object; its text is under ``text``, or under the field ``--field`` names. A field name
may be a dotted path (``meta.body``, ``messages.0.content``: a number indexes a list); at every
level a key that itself holds dots (``"meta.body"``) is found first. Each text is judged as ``qgs scan`` judges one
text (``--as input|deliverable``, ``--kind``), and gets one verdict:

    data.jsonl:17 id=doc-17: P1 flagged: injected_instructions, prompt_injection (3 findings, risk 90)

then a summary: records scanned, flagged (a P0 or P1), records by their worst severity and by
category, broken lines. ``--format json`` prints one JSON object a line instead: a verdict per
record (``scan_result``'s document plus ``line``, ``id``, ``field`` and ``categories``), an
``{"source", "line", "id": null, "error"}`` object per broken line, and last
``{"summary": {...}}`` (shape in ``JsonlTally.summary``).

A broken line (not JSON, not an object, the field missing or not a string, longer than
``JSONL_LINE_MAX_BYTES``) is named on standard error as ``FILE:LINE: what is wrong``, counted,
and the scan goes on; bytes that are not UTF-8 are read as U+FFFD, as ``qgs scan FILE`` reads
them. The file is read line by line: memory stays bounded by the longest line allowed, whatever
the file's size. Exit codes (``run_jsonl_scan``): 1 when a record is flagged or a line could
not be scanned (fail closed: a skipped line was not vetted), 2 when nothing could be scanned
(no such file, a directory, an empty file, a file that is not JSONL), 0 otherwise.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

from qgs_worker.cli.scan_text import scan_argument_findings, scan_findings, scan_result
from qgs_worker.cli.terminal import json_line, visible
from qgs_worker.core.argviews import replace_lone_surrogates
from qgs_worker.core.models import ArgumentKind, Severity
from qgs_worker.errors import InputError, json_type_name

__all__ = [
    "JSONL_LINE_MAX_BYTES",
    "BrokenLine",
    "JsonlOptions",
    "JsonlTally",
    "RecordVerdict",
    "field_value",
    "run_jsonl_scan",
    "scan_jsonl",
]

JSONL_LINE_MAX_BYTES = 1_000_000
"""The longest line ``qgs scan --jsonl`` reads, in bytes (the record with all its fields): a
longer one is a broken line, skipped without being held in memory. A single text of up to
``scan.SCAN_MAX_BYTES`` goes through ``qgs scan FILE``."""

NOT_JSONL_AFTER_LINES = 20
"""When this many lines in a row from the start are not JSON, the file is not JSONL: the scan
stops (exit 2) instead of naming every line of a CSV file or a log."""

PROGRESS_MIN_BYTES = 1_000_000
"""Files this large get a progress bar (on standard error; see ``run_jsonl_scan``)."""

_SKIP_CHUNK_BYTES = 65_536


@dataclass(frozen=True)
class JsonlOptions:
    """How to read and judge each record.

    Attributes:
        field: The text's field: a key, or a dotted path (see the module docstring).
        untrusted: ``--as input`` (True: text an agent will read) or ``--as deliverable``.
        kind: ``--kind``: judge each text as one tool argument of this kind; None: as prose.
    """

    field: str = "text"
    untrusted: bool = True
    kind: ArgumentKind | None = None


@dataclass(frozen=True)
class RecordVerdict:
    """One scanned record: its line, its ``id`` field (if any) and the verdict document."""

    line: int
    record_id: str | None
    result: dict[str, Any]


@dataclass(frozen=True)
class BrokenLine:
    """A line that could not be scanned, with what is wrong and how to fix it.

    ``readable`` is True when the line is JSON but not a usable record (not an object, the
    field missing or not a string), False when it is not JSON at all.
    """

    source: str
    line: int
    message: str
    readable: bool = False

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


def field_value(record: dict[str, Any], name: str) -> tuple[Any, bool]:
    """The value of ``name`` in ``record``: a key, else a dotted path; and whether it exists.

    Args:
        record: One JSON object.
        name: A key (``"text"``, or ``"meta.body"`` as a key of its own), or a dotted path
            (``meta.body``; a part made of digits indexes a list: ``messages.0.content``).

    At every level a key holding dots is tried before the path is split further, the longest
    first (``m.a.b`` finds ``{"m": {"a.b": ...}}``; break test: only the top level did).

    Returns:
        ``(value, True)``, or ``(None, False)`` when the field is not there.
    """
    return _walk(record, name.split("."))


def _walk(value: Any, parts: list[str]) -> tuple[Any, bool]:
    if not parts:
        return value, True
    if isinstance(value, dict):
        for n in range(len(parts), 0, -1):
            key = ".".join(parts[:n])
            if key in value:
                found, there = _walk(value[key], parts[n:])
                if there:
                    return found, True
        return None, False
    head = parts[0]
    if isinstance(value, list) and head.isdigit() and int(head) < len(value):
        return _walk(value[int(head)], parts[1:])
    return None, False


def scan_jsonl(
    stream: IO[bytes], source: str, options: JsonlOptions
) -> Iterator[tuple[RecordVerdict | BrokenLine | None, int]]:
    """Scan each line of a JSONL stream, lazily, in file order.

    Args:
        stream: The file (or standard input), opened in binary mode.
        source: Its name, for verdicts and broken lines (a path, or ``stdin``).
        options: The field and how to judge each text.

    Returns:
        An iterator of ``(item, bytes)`` per line: a verdict, a broken line, or None for a blank
        line, with the line's size in bytes (for a progress bar).

    Raises:
        InputError: the first ``NOT_JSONL_AFTER_LINES`` lines are all not JSON (raised while
            iterating: the lines before it were yielded as broken).
    """
    readable = 0  # lines that parsed as JSON
    for number, raw, size in _lines(stream):
        item: RecordVerdict | BrokenLine | None
        if raw is None:
            item = BrokenLine(
                source,
                number,
                f"longer than {JSONL_LINE_MAX_BYTES:,} bytes ({size:,}): skipped; scan that "
                "text alone with qgs scan FILE",
            )
        elif raw.strip():
            item = _record(raw, number, source, options)
        else:
            item = None
        if isinstance(item, RecordVerdict) or (item is not None and item.readable):
            readable += 1
        elif item is not None and readable == 0 and number >= NOT_JSONL_AFTER_LINES:
            raise InputError(
                f"{source} is not JSONL: none of its first {number} lines is JSON (line "
                f"{number}: {item.message}); each line must be one JSON object (from a JSON "
                "array: jq -c '.[]' FILE > FILE.jsonl)"
            )
        yield item, size


def _lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` per line; ``line`` is None for a line over the limit."""
    number = 0
    while True:
        raw = stream.readline(JSONL_LINE_MAX_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) <= JSONL_LINE_MAX_BYTES or raw.endswith(b"\n"):
            yield number, raw, len(raw)
            continue
        size = len(raw)
        while raw and not raw.endswith(b"\n"):  # skip the rest without holding it
            raw = stream.readline(_SKIP_CHUNK_BYTES)
            size += len(raw)
        yield number, None, size


def _record(
    raw: bytes, number: int, source: str, options: JsonlOptions
) -> RecordVerdict | BrokenLine:
    def broken(message: str, *, readable: bool = True) -> BrokenLine:
        return BrokenLine(source, number, message, readable)

    # Bytes that are not UTF-8 become U+FFFD, as `qgs scan FILE` reads them: one bad byte must
    # not take a record out of the scan (an attacker would pick which chunks go unvetted).
    line = raw.decode("utf-8-sig" if number == 1 else "utf-8", errors="replace")
    try:
        record = json.loads(line.rstrip("\r\n"))  # an error at the line's end: its own column
    except json.JSONDecodeError as exc:
        return broken(f"not JSON ({exc.msg} at column {exc.colno})", readable=False)
    except RecursionError:
        return broken("JSON nested too deeply to read: flatten the record")
    if not isinstance(record, dict):
        return broken(
            f"not a JSON object ({json_type_name(record)}): each line must be one object with a "
            f"'{options.field}' field"
        )
    value, found = field_value(record, options.field)
    if not found:
        keys = ", ".join(list(record)[:8]) + (", ..." if len(record) > 8 else "")
        return broken(
            f"no '{options.field}' field (its fields: {keys or 'none'}): name the text's field "
            "with --field"
        )
    if not isinstance(value, str):
        return broken(
            f"'{options.field}' is {json_type_name(value)}, not a string: qgs scan reads text"
        )
    rid = record.get("id")
    record_id = str(rid) if isinstance(rid, str | int) and not isinstance(rid, bool) else None
    # A lone surrogate (a "\\ud800" escape) cannot be printed or stored: U+FFFD, as for bad bytes.
    text = replace_lone_surrogates(value)
    record_id = replace_lone_surrogates(record_id) if record_id is not None else None
    return RecordVerdict(number, record_id, _verdict(text, source, number, record_id, options))


def _verdict(
    text: str, source: str, number: int, record_id: str | None, options: JsonlOptions
) -> dict[str, Any]:
    # Findings are located within the record's text: "text:3" is the text's third line.
    if options.kind is not None:
        findings = scan_argument_findings(
            text, options.field, options.kind, untrusted=options.untrusted
        )
    else:
        findings = scan_findings(text, options.field, untrusted=options.untrusted)
    result = scan_result(
        findings,
        source=source,
        scanned_as="input" if options.untrusted else "deliverable",
        size_bytes=len(text.encode()),
    )
    return {
        "source": source,
        "line": number,
        "id": record_id,
        "field": options.field,
        **{k: v for k, v in result.items() if k != "source"},
        "kind": options.kind.value if options.kind else None,
        "categories": sorted({f.category for f in findings}),
    }


@dataclass
class JsonlTally:
    """The summary, counted as verdicts come (nothing per record is kept: memory is bounded)."""

    source: str
    options: JsonlOptions
    records: int = 0
    flagged: int = 0
    broken: int = 0
    findings: int = 0
    risk: int = 0
    worst: Counter[str] = field(default_factory=Counter)
    categories: Counter[str] = field(default_factory=Counter)

    def add(self, item: RecordVerdict | BrokenLine) -> None:
        """Count one verdict or broken line."""
        if isinstance(item, BrokenLine):
            self.broken += 1
            return
        result = item.result
        self.records += 1
        self.flagged += bool(result["flagged"])
        self.findings += len(result["findings"])
        self.risk += result["risk"]
        self.worst[result["max_severity"] or "none"] += 1
        self.categories.update(result["categories"])

    def summary(self) -> dict[str, Any]:
        """The summary object.

        Shape: ``{"source", "field", "as", "kind", "records" (scanned), "flagged" (records with
        a P0 or P1), "broken" (lines skipped), "findings", "risk" (the sum over records),
        "max_severity": {"P0": n, ..., "P4": n, "none": n} (records by their worst finding),
        "categories": {category: records with a finding of it}}``, most frequent first.
        """
        return {
            "source": self.source,
            "field": self.options.field,
            "as": "input" if self.options.untrusted else "deliverable",
            "kind": self.options.kind.value if self.options.kind else None,
            "records": self.records,
            "flagged": self.flagged,
            "broken": self.broken,
            "findings": self.findings,
            "risk": self.risk,
            "max_severity": {
                key: self.worst.get(key, 0) for key in [*(s.value for s in Severity), "none"]
            },
            "categories": dict(self.categories.most_common()),
        }


def verdict_line(item: RecordVerdict) -> str:
    """A record's verdict in one line (see the module docstring)."""
    r = item.result
    where = f"{r['source']}:{item.line}" + (f" id={item.record_id}" if item.record_id else "")
    if not r["findings"]:
        return f"{where}: no findings"
    n = len(r["findings"])
    flag = " flagged" if r["flagged"] else ""
    return (
        f"{where}: {r['max_severity']}{flag}: {', '.join(r['categories'])} "
        f"({n} finding{'' if n == 1 else 's'}, risk {r['risk']})"
    )


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary in plain words, three lines."""
    s = summary
    by_severity = ", ".join(f"{k} {v:,}" for k, v in s["max_severity"].items())
    by_category = ", ".join(f"{k} {v:,}" for k, v in s["categories"].items()) or "none"
    return [
        f"{s['source']}: {s['records']:,} records scanned, {s['flagged']:,} flagged (P0/P1), "
        f"{s['broken']:,} broken lines skipped",
        f"  records by max severity: {by_severity}",
        f"  records by category: {by_category}",
    ]


def open_jsonl(name: str) -> tuple[IO[bytes], str, int | None]:
    """The stream to read, its name, and its size in bytes when known (None for stdin).

    Raises:
        InputError: No such file, or a directory.
    """
    if name == "-":
        return sys.stdin.buffer, "stdin", None
    path = Path(name)
    if path.is_dir():
        raise InputError(
            f"{name} is a directory: qgs scan --jsonl reads one JSONL file (or - for standard "
            "input)"
        )
    if not path.is_file():
        raise InputError(f"no such file: {name} (pass a JSONL file, or - to read standard input)")
    return path.open("rb"), name, path.stat().st_size


def run_jsonl_scan(
    name: str, options: JsonlOptions, *, json_lines: bool, out: Console, err: Console
) -> int:
    """Scan a JSONL file (or ``-``) and print verdicts and the summary; return the exit code.

    Verdicts and the summary go to ``out``, broken lines to ``err``. A progress bar is drawn on
    ``err`` when it is a terminal and ``out`` is not (``qgs scan --jsonl big.jsonl > out.txt``),
    for a file of ``PROGRESS_MIN_BYTES`` or more: when both are one terminal, the verdict lines
    themselves show the progress.

    Returns:
        1 when a record is flagged (P0/P1), 2 when no record could be scanned, else 0.

    Raises:
        InputError: No such file, a directory, or a file that is not JSONL.
    """
    stream, source, size = open_jsonl(name)
    tally = JsonlTally(source, options)

    def say(text: str) -> None:  # exact text, one line per item, flushed for a pipe
        out.file.write(text + "\n")
        out.file.flush()

    def warn(text: str) -> None:
        err.print(visible(text), markup=False, highlight=False, emoji=False, soft_wrap=True)

    bar = size is not None and size >= PROGRESS_MIN_BYTES and err.is_terminal
    progress = Progress(
        TextColumn("scanning"), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
        console=err, transient=True, redirect_stdout=False, redirect_stderr=False,
        disable=not bar or out.is_terminal,
    )  # fmt: skip
    closing = contextlib.closing(stream) if name != "-" else contextlib.nullcontext()
    with closing, progress:
        task = progress.add_task("scanning", total=size)
        for item, read in scan_jsonl(stream, source, options):
            progress.advance(task, read)
            if item is None:
                continue
            tally.add(item)
            if isinstance(item, BrokenLine):
                warn(str(item))
                if json_lines:
                    error = {"source": source, "line": item.line, "id": None, "error": item.message}
                    say(json_line(error))
            elif json_lines:
                say(json_line(item.result))
            else:
                say(visible(verdict_line(item)))
    summary = tally.summary()
    if json_lines:
        say(json_line({"summary": summary}))
    else:
        for line in summary_lines(summary):
            say(visible(line))
    if tally.records == 0:
        why = (
            f"none of its {tally.broken:,} lines could be scanned (above)"
            if tally.broken
            else "it holds no JSON lines"
        )
        warn(f"error: nothing was scanned in {source}: {why}")
        return 2
    if tally.broken and not tally.flagged:
        warn(
            f"{source}: {tally.broken:,} line(s) could not be scanned (above): exit 1, as a "
            "text nobody vetted is not a clean one; fix or drop them and scan again"
        )
    return 1 if tally.flagged or tally.broken else 0
