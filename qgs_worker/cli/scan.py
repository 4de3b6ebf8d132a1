"""``qgs scan``: the detectors (and the learned detector) on one text or a JSONL file of texts."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Any

import typer

from qgs_worker.cli.common import (
    _fail,
    _load_instruction_model,
    app,
    console,
    err_console,
    short_command,
)
from qgs_worker.core.models import ArgumentKind
from qgs_worker.terminal import json_text, markup_safe, visible


class ScanAs(StrEnum):
    """What the text given to ``qgs scan`` is."""

    input = "input"  # untrusted text an agent will read: a file, a web page, a tool output
    deliverable = "deliverable"  # text an agent wrote


class ScanFormat(StrEnum):
    """Output formats of ``qgs scan``."""

    text = "text"
    json = "json"


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
    if field_name is not None and not jsonl:
        raise _fail("--field names the text's field of a JSONL file: use it with --jsonl")
    short_command()
    if jsonl:
        from qgs_worker.errors import InputError
        from qgs_worker.scan_jsonl import JsonlOptions, run_jsonl_scan

        if field_name is not None and not field_name.strip():
            raise _fail("--field is empty: name the field that holds each record's text")
        options = JsonlOptions(field_name or "text", as_ is ScanAs.input, kind)
        try:
            code = run_jsonl_scan(
                file, options, json_lines=fmt is ScanFormat.json, out=console, err=err_console
            )
        except InputError as exc:
            raise _fail(str(exc)) from None
        raise typer.Exit(code)
    from qgs_worker.scan import (
        decode_scan_input,
        read_scan_input,
        scan_argument_findings,
        scan_findings,
        scan_result,
    )

    _load_instruction_model()
    data, source = read_scan_input(file)
    text, warning = decode_scan_input(data, source)
    if warning is not None:
        err_console.print(f"[yellow]warning:[/] {markup_safe(warning)}", soft_wrap=True)
    untrusted = as_ is ScanAs.input
    if kind is not None:
        findings = scan_argument_findings(text, source, kind, untrusted=untrusted)
    else:
        findings = scan_findings(text, source, untrusted=untrusted)
    result = scan_result(findings, source=source, scanned_as=as_.value, size_bytes=len(data))
    if fmt is ScanFormat.json:
        sys.stdout.write(json_text(result))
    else:
        _print_scan(result)
    if result["flagged"]:
        raise typer.Exit(1)


def _print_scan(result: dict[str, Any]) -> None:
    def line(text: str) -> None:  # plain text, one line per item even in a pipe
        console.print(visible(text), markup=False, highlight=False, soft_wrap=True)

    findings = result["findings"]
    if not findings:
        line(f"{result['source']}: no findings (risk 0)")
        return
    verdict = "P0/P1 found" if result["flagged"] else "nothing at P0/P1"
    line(
        f"{result['source']}: {len(findings)} finding(s), risk {result['risk']}, max severity "
        f"{result['max_severity']}: {verdict}"
    )
    for f in findings:
        line(f"  {f['severity']} {f['category']} at {f['location']}: {f['title']}")
        if f["evidence"]:
            line(f"     {f['evidence']}")
