"""AgentDojo attack texts and benign tool outputs, written as JSON lines (run in .venv-agentdojo).

Uses agentdojo's own machinery, nothing re-typed: each registered attack (``ATTACKS``) builds its
injection for every (user task, injection task) pair of a suite, for the injection vectors the
user task's ground truth actually reads; the ground truth is then run against the environment
(the suite's ``environment.yaml``) twice: with the vectors' default (benign) values, giving the
benign tool outputs, and with the attack placed into them, giving tool outputs that carry it.

Output records (one per line)::

    {"suite", "kind": "attack" | "injected_output" | "benign_output" | "user_prompt",
     "attack", "text", "spans": [[start, end], ...] (the attack's place in an injected output),
     "origin": "agentdojo 0.1.35 <path>"}

Usage: ``.venv-agentdojo/bin/python train/agentdojo_texts.py OUT.jsonl [SUITE ...]`` (``make train``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from agentdojo.agent_pipeline.ground_truth_pipeline import GroundTruthPipeline
from agentdojo.attacks.attack_registry import ATTACKS
from agentdojo.functions_runtime import FunctionsRuntime
from agentdojo.task_suite.load_suites import get_suite
from agentdojo.types import get_text_content_as_str

BENCHMARK_VERSION = "v1.2.2"
# travel and workspace are held back for an outside evaluation (issue 29): never built, trained
# on or scored here
SUITES = ("banking", "slack")
# every registered attack that writes text (``manual`` asks a person at a prompt)
ATTACK_NAMES = tuple(sorted(name for name in ATTACKS if name != "manual"))
# pipeline names pick the model name the attacks address (agentdojo.models.MODEL_NAMES)
PIPELINE_NAMES = ("gpt-4o-2024-05-13", "claude-3-5-sonnet-20241022", "command-r-plus",
                  "gemini-1.5-pro-002", "meta-llama/Llama-3-70b-chat-hf")


class _NamedPipeline:
    """Stands in for the attacked pipeline: the attacks read only its ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name


def _tool_outputs(suite, user_task, injections: dict[str, str]) -> list[str]:
    environment = suite.load_and_inject_default_environment(injections)
    runtime = FunctionsRuntime(suite.tools)
    _, _, _, messages, _ = GroundTruthPipeline(user_task).query(user_task.PROMPT, runtime, environment)
    return [
        get_text_content_as_str(m["content"])
        for m in messages
        if m["role"] == "tool" and m["content"] is not None
    ]


INJECTED_PAIRS_PER_USER_TASK = 3  # outputs carrying an attack: the first 3 injection tasks


def main(out_path: str, suites: tuple[str, ...] = SUITES) -> None:
    seen: set[tuple[str, str, str]] = set()
    with Path(out_path).open("w", encoding="utf-8") as out:

        def emit(record: dict) -> None:
            key = (record["suite"], record["kind"], record["text"])
            if key not in seen:
                seen.add(key)
                out.write(json.dumps(record, ensure_ascii=False) + "\n")

        for suite_name in suites:
            suite = get_suite(BENCHMARK_VERSION, suite_name)
            origin = f"agentdojo 0.1.35 agentdojo/data/suites/{suite_name} ({BENCHMARK_VERSION})"
            for user_task in suite.user_tasks.values():
                emit({"suite": suite_name, "kind": "user_prompt", "attack": "", "text": user_task.PROMPT,
                      "spans": [], "origin": origin})
                for text in _tool_outputs(suite, user_task, {}):
                    emit({"suite": suite_name, "kind": "benign_output", "attack": "", "text": text,
                          "spans": [], "origin": origin})
            for attack_name in ATTACK_NAMES:
                for pipeline_name in PIPELINE_NAMES:
                    attack = ATTACKS[attack_name](suite, _NamedPipeline(pipeline_name))
                    for user_task in suite.user_tasks.values():
                        for number, injection_task in enumerate(suite.injection_tasks.values()):
                            injections = attack.attack(user_task, injection_task)
                            for text in set(injections.values()):
                                emit({"suite": suite_name, "kind": "attack", "attack": attack_name,
                                      "text": text, "spans": [], "origin": origin})
                            if pipeline_name != PIPELINE_NAMES[0] or number >= INJECTED_PAIRS_PER_USER_TASK:
                                continue  # outputs carrying the attack: one model name, 3 goals
                            for output in _tool_outputs(suite, user_task, injections):
                                spans = []
                                for text in set(injections.values()):
                                    start = output.find(text.strip())
                                    while start >= 0:
                                        spans.append([start, start + len(text.strip())])
                                        start = output.find(text.strip(), start + 1)
                                if spans:
                                    emit({"suite": suite_name, "kind": "injected_output",
                                          "attack": attack_name, "text": output,
                                          "spans": sorted(spans), "origin": origin})
            print(f"{suite_name}: done", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], tuple(sys.argv[2:]) or SUITES)
