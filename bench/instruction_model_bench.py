"""Speed and memory of the learned instruction detector, beside the regex prompt rules, same run.

Usage: .venv/bin/python bench/instruction_model_bench.py [--reps 5] [--texts 200] [--quick]

Workload: ``--texts`` texts of 1 KB (1,024 characters), cut from the benign and attack texts of
the shared corpus (``../shared/corpus``: ``c_benign_scary_texts.jsonl`` and
``b_injection_payloads.jsonl``), each padded with its own repetitions to 1 KB; the same texts
for both scenarios, which take turns within each repetition:

- rules: the prompt family's phrase rules (``core/rules/prompt.py`` ``PHRASES``: override,
  stop-and-print, jailbreak, prompt extraction: what ``scan_text`` runs for those categories);
- model: ``instruction_model.default_model().score`` (normalise, hash, score every window);
- short: the model on the same texts cut to their first 120 characters (one window: what the
  tool gate scores for a free-text argument, the fast path of ``instruction_short``);
- short, plain Python: the same with the plain-Python engine (``instruction_pure``: what ``qgs
  check-tool`` and ``qgs scan`` use for their first texts rather than import numpy).

Reported: the median time per 1 KB text of each (microseconds, over repetitions), the ratio
model / rules, and the process's RSS before and after the model is loaded (MB). Target
(issue 10): one 1 KB text in well under a millisecond; a worker's idle RSS with the model
loaded within 150 MB (measured with a real ``qgs worker``: docs/learned-detector.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

CORPUS = ROOT.parent / "shared" / "corpus"
SHORT_CHARS = 120


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def texts(count: int) -> list[str]:
    pieces: list[str] = []
    for name in ("c_benign_scary_texts.jsonl", "b_injection_payloads.jsonl"):
        path = CORPUS / name
        if path.exists():
            pieces += [
                json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines()
            ]
    if not pieces:
        pieces = ["Please summarise the attached report and send it to the team by Friday."]
    out = []
    for i in range(count):
        base = pieces[i % len(pieces)]
        out.append((base + "\n") * (1024 // (len(base) + 1) + 1))
    return [t[:1024] for t in out]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--texts", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="one repetition of 20 texts")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.texts = 1, 20
    before = rss_mb()
    from qgs_worker.core import detectors, instruction_model
    from qgs_worker.core.rules import prompt as prompt_rules

    imported = rss_mb()
    model = instruction_model.default_model()
    loaded = rss_mb()
    rules = list(prompt_rules.PHRASES)
    work = texts(args.texts)

    def run_rules() -> None:
        for text in work:
            list(detectors._apply(rules, text, location="text", executed=False, tool=""))

    def run_model() -> None:
        for text in work:
            model.score(text)

    short = [text[:SHORT_CHARS] for text in work]

    def run_short() -> None:
        for text in short:
            model.score(text)

    def run_short_python() -> None:
        for text in short:
            model.window_scores(text, engine="python")

    timings: dict[str, list[float]] = {"rules": [], "model": [], "short": [], "python": []}
    run_rules(), run_model(), run_short(), run_short_python()  # warm-up: the kind table, caches
    scenarios = (
        ("rules", run_rules),
        ("model", run_model),
        ("short", run_short),
        ("python", run_short_python),
    )
    for _ in range(args.reps):
        for name, fn in scenarios:
            started = time.perf_counter()
            fn()
            timings[name].append((time.perf_counter() - started) / len(work) * 1e6)
    rules_us = statistics.median(timings["rules"])
    model_us = statistics.median(timings["model"])
    short_us = statistics.median(timings["short"])
    python_us = statistics.median(timings["python"])
    per_rep = [m / r for m, r in zip(timings["model"], timings["rules"], strict=True)]
    print(f"{len(work)} texts of 1 KB, {args.reps} repetitions (median per text)")
    print(f"  regex prompt rules: {rules_us:8.1f} us")
    print(f"  learned detector:   {model_us:8.1f} us   (x{model_us / rules_us:.2f} the rules)")
    print(
        f"  learned detector on the same texts cut to {SHORT_CHARS} characters (one window, "
        f"a tool argument): {short_us:8.1f} us"
    )
    print(
        f"  the same, plain-Python engine (qgs check-tool, qgs scan): {python_us:8.1f} us "
        f"(x{python_us / short_us:.1f} numpy)"
    )
    print(
        f"ratio learned detector / regex prompt rules = {statistics.median(per_rep):.2f} "
        f"({min(per_rep):.2f}-{max(per_rep):.2f}), per 1 KB text, within each repetition"
    )
    print(
        f"RSS: {before:.0f} MB at start, {imported:.0f} MB with the detectors imported, "
        f"{loaded:.0f} MB with the model loaded (+{loaded - imported:.1f} MB)"
    )


if __name__ == "__main__":
    main()
