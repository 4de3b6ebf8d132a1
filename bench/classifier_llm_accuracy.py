"""The classifier's two layers on the hand-labelled corpus: what the rules settle, and rules + LLM.

Usage:
    .venv/bin/python bench/classifier_llm_accuracy.py [PATH_TO_JSONL] [--errors]
    QGS_BENCH_LLM_API_KEY=... .venv/bin/python bench/classifier_llm_accuracy.py \
        --base-url https://api.openai.com/v1 [--model gpt-4o-mini]

Prints:

1. the share of requests the rule layer settles (``classify_rules`` is not None), and the
   rules' accuracy on those;
2. rules + LLM layer (``classify(text, fallback=LLMClassifier(...))``) against a scripted
   loopback server that answers every request with its corpus label: an ORACLE, i.e. an upper
   bound of what any LLM layer could add on top of these rules, not a measure of a model;
3. with ``--base-url`` (key in ``QGS_BENCH_LLM_API_KEY``), the same against a real endpoint.

Every LLM call goes through real HTTP and the full LLMClassifier path (prompt, structured
output, validation), so the figures also count calls made.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from qgs_worker.core.classifier import classify, classify_rules  # noqa: E402
from qgs_worker.core.models import Classification  # noqa: E402
from qgs_worker.judges.llm_classifier import LLMClassifier, fenced_request  # noqa: E402
from tests.fake_openai import Answer, FakeOpenAIServer, message_texts  # noqa: E402

DEFAULT_CORPUS = ROOT / ".." / "shared" / "corpus" / "e_task_classification_labelled.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def oracle(records: list[dict[str, Any]]) -> Answer:
    """An answer that looks the fenced request up in the corpus and returns its label."""
    labels = {str(r["text"]): r for r in records}

    def answer(request: dict[str, Any]) -> Answer:
        texts = message_texts(request)
        text = fenced_request(texts[1]) if len(texts) > 1 else None
        record = labels.get(text or "")
        if record is None:
            return Answer.status(500, message="oracle: request not in the corpus")
        payload = {
            "task_type": record["task_type"],
            "complexity": record["complexity"],
            "confidence": 1.0,
            "reason": f"oracle: corpus label ({record['why']})",
        }
        return Answer.content(json.dumps(payload))

    return Answer.dynamic(answer)


def measure(
    title: str,
    records: list[dict[str, Any]],
    fn: Callable[[str], Classification | None],
    calls: Callable[[], int],
    show_errors: bool,
) -> None:
    n = len(records)
    right = both = 0
    by_source: dict[str, list[int]] = {}
    errors: list[str] = []
    for r in records:
        text, label, cx = str(r["text"]), str(r["task_type"]), str(r["complexity"])
        try:
            got = fn(text)
        except Exception as exc:  # a failed LLM call counts as wrong, and is shown
            errors.append(f"  {label} -> error {type(exc).__name__}: {exc}")
            continue
        source: str = got.source if got else "unsettled (counted wrong)"
        pred = got.task_type.value if got else "-"
        tally = by_source.setdefault(source, [0, 0])
        tally[1] += 1
        if pred == label:
            right += 1
            tally[0] += 1
            both += got is not None and got.complexity.value == cx
        else:
            note = " (ambiguous)" if r.get("ambiguous") else ""
            errors.append(f"  {label} -> {pred} [{source}]{note}: {text[:100]!r}")
    print(f"== {title}: {n} requests, {calls()} LLM calls")
    print(
        f"type accuracy {right}/{n} = {right / n:.1%}; type+complexity {both}/{n} = {both / n:.1%}"
    )
    for source, (ok, total) in sorted(by_source.items()):
        verb = "left" if got_none(source) else "settled by"
        print(f"  {verb} {source}: {total}/{n} = {total / n:.1%}, right {ok}/{total}")
    if show_errors and errors:
        print("errors:")
        print("\n".join(errors))
    print()


def got_none(source: str) -> bool:
    return source.startswith("unsettled")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--errors", action="store_true", help="list the misclassified requests")
    parser.add_argument("--base-url", help="a real endpoint (key in QGS_BENCH_LLM_API_KEY)")
    parser.add_argument("--model", default="gpt-4o-mini")
    args = parser.parse_args(argv)
    show_errors: bool = args.errors
    path: Path = args.corpus
    if not path.exists():
        print(f"corpus not found: {path}", file=sys.stderr)
        return 2
    records = load(path)
    base_url: str | None = args.base_url
    api_key = os.environ.get("QGS_BENCH_LLM_API_KEY", "")
    if base_url and not api_key:
        print("--base-url needs QGS_BENCH_LLM_API_KEY", file=sys.stderr)
        return 2

    measure("rules alone (classify_rules)", records, classify_rules, lambda: 0, show_errors)

    with FakeOpenAIServer() as server:
        server.default = oracle(records)
        with LLMClassifier(base_url=server.base_url, api_key="oracle") as llm:
            measure(
                "ORACLE upper bound: rules + an LLM layer that always answers the corpus label "
                "(scripted loopback server, not a model)",
                records,
                lambda text: classify(text, fallback=llm),
                lambda: len(server.requests),
                show_errors,
            )

    if base_url:
        model: str = args.model
        counted = {"calls": 0}

        with LLMClassifier(base_url=base_url, api_key=api_key, model=model) as real:

            def layered(text: str) -> Classification:
                def counting(request: str) -> Classification:
                    counted["calls"] += 1
                    return real(request)

                return classify(text, fallback=counting)

            measure(
                f"rules + LLM layer ({model} at {base_url})",
                records,
                layered,
                lambda: counted["calls"],
                show_errors,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
