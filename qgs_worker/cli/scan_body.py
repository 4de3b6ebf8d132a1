"""The body of ``qgs scan``, without typer: the typer command and the short path call it.

``cli.scan`` declares the command (its options and help); ``cli.short`` reads the same options
without typer (issue 15), all but ``--jsonl`` (whose progress bar is rich's: the typer command
runs it). Output goes through ``cli.out`` (rich only on a terminal); a failure raises
``SystemExit`` with its code, as ``typer.Exit`` did.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Any

from qgs_worker.cli import out
from qgs_worker.cli.short_process import load_instruction_model, short_command
from qgs_worker.cli.terminal import json_text
from qgs_worker.core.models import ArgumentKind

__all__ = ["ScanAs", "ScanFormat", "scan"]


class ScanAs(StrEnum):
    """What the text given to ``qgs scan`` is."""

    input = "input"  # untrusted text an agent will read: a file, a web page, a tool output
    deliverable = "deliverable"  # text an agent wrote


class ScanFormat(StrEnum):
    """Output formats of ``qgs scan``."""

    text = "text"
    json = "json"


def scan(
    file: str = "-",
    as_: ScanAs = ScanAs.input,
    fmt: ScanFormat = ScanFormat.text,
    kind: ArgumentKind | None = None,
    jsonl: bool = False,
    field_name: str | None = None,
) -> None:
    """Scan ``file`` (or each record of a JSONL file) with the detectors and print the findings.

    Args: as the options of ``qgs scan`` (``cli.scan``).

    Raises:
        SystemExit: 1 on a P0 or P1 finding, 2 when the input is unusable (with ``--jsonl``: as
            ``scan_jsonl.run_jsonl_scan`` says).
    """
    if field_name is not None and not jsonl:
        raise out.fail("--field names the text's field of a JSONL file: use it with --jsonl")
    short_command()
    if jsonl:
        from qgs_worker.cli.common import console, err_console
        from qgs_worker.cli.scan_jsonl import JsonlOptions, run_jsonl_scan
        from qgs_worker.errors import InputError

        if field_name is not None and not field_name.strip():
            raise out.fail("--field is empty: name the field that holds each record's text")
        options = JsonlOptions(field_name or "text", as_ is ScanAs.input, kind)
        try:
            code = run_jsonl_scan(
                file, options, json_lines=fmt is ScanFormat.json, out=console, err=err_console
            )
        except InputError as exc:
            raise out.fail(str(exc)) from None
        raise SystemExit(code)
    from qgs_worker.cli.scan_text import (
        decode_scan_input,
        read_scan_input,
        scan_argument_findings,
        scan_findings,
        scan_result,
    )

    load_instruction_model()
    data, source = read_scan_input(file)
    text, warning = decode_scan_input(data, source)
    if warning is not None:
        out.warning(warning)
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
        raise SystemExit(1)


def _print_scan(result: dict[str, Any]) -> None:
    line = out.line  # plain text, one line per item even in a pipe

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
