"""``qgs scan``: the detectors (and the learned detector) on one text or a JSONL file of texts.

The command's options and help; its body is ``scan_body.scan`` (which ``cli.short`` also runs,
without typer).
"""

from __future__ import annotations

from typing import Annotated

import typer

from qgs_worker.cli import scan_body
from qgs_worker.cli.common import app
from qgs_worker.cli.scan_body import ScanAs, ScanFormat
from qgs_worker.core.models import ArgumentKind

__all__ = ["ScanAs", "ScanFormat", "scan"]


@app.command()
def scan(
    file: Annotated[
        str, typer.Argument(help="The text to scan: a file path, or - for standard input.")
    ] = "-",
    as_: Annotated[
        ScanAs,
        typer.Option(
            "--as",
            help="input (default): untrusted text an agent is about to read (a file, a web page, "
            "a tool output), so each passage that gives the agent instructions is a P1 "
            "injected_instructions finding, and so is prompt injection or a jailbreak (also "
            "with --kind); deliverable: text an agent wrote (those passages are not counted, "
            "the other detectors still run).",
        ),
    ] = ScanAs.input,
    fmt: Annotated[
        ScanFormat, typer.Option("--format", help="text, or json for tools.")
    ] = ScanFormat.text,
    kind: Annotated[
        ArgumentKind | None,
        typer.Option(
            "--kind",
            help="scan the whole input as one tool argument of this kind (command, sql, url, "
            "path, html, free_text), as the tool-call gate's injection layer does: e.g. a SQL "
            "string before it reaches a database tool.",
        ),
    ] = None,
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help="FILE holds one JSON object per line (a RAG corpus, a dataset): scan the text "
            "of each, print one verdict per record and a summary; a broken line is named "
            "FILE:LINE and skipped.",
        ),
    ] = False,
    field_name: Annotated[
        str | None,
        typer.Option(
            "--field",
            help="with --jsonl: the field holding each record's text (default text); a dotted "
            "path reaches into objects and lists (meta.body, messages.0.content).",
        ),
    ] = None,
) -> None:
    """Run the deterministic detectors on any text and print the findings.

    Destructive commands, mass deletion, secrets, card numbers and
    national IDs, judge manipulation, prompt injection and, with
    --as input, instructions aimed at the agent that reads the text;
    the learned instruction detector beside the rules (it ships in the
    package: no network). No LLM, no store, no broker.

    Prose is judged as prose: a command or XSS mentioned in text is
    at most P2, and e-mail addresses and phone numbers in prose are
    not reported. To vet a script, a SQL string, a URL, a path or
    HTML, use --kind.

    Exit 1 on a P0 or P1 finding, 0 otherwise, 2 when the input is
    unusable (missing, a directory, binary, over 10 MB). Text that is
    not valid UTF-8 is scanned with U+FFFD for the bad bytes.

    With --jsonl, each line's text is scanned the same way: exit 1
    when a record has a P0 or P1 finding or a line could not be
    scanned (fail closed), 2 when nothing could be scanned (no such
    file, not JSONL), 0 otherwise.
    """
    scan_body.scan(file, as_, fmt, kind, jsonl, field_name)
