"""Build AgentDojo ground-truth replays (run with agentdojo's venv; ``agentdojo_replays.py build``).

No model runs: each replay executes a user task's ground-truth calls (and, for a followed
injection, the injection task's) against the suite's simulated environment and records the real
outputs as OpenAI chat messages. Three kinds, labelled by AgentDojo's own checkers:

- ``clean``: the user task alone in the suite's default environment (every injection vector at
  its benign default, no attack). One per user task; ``utility`` says whether AgentDojo's checker
  counts the ground truth as solving the task.
- ``ignored``: the attack fills the injection vectors the user task sees; the agent runs the user
  task's calls alone. Kept as ``safe_with_injected_tool_output`` when an output carried the
  injection and the attacker's goal was not reached.
- ``followed``: as ``ignored``, plus the injection task's ground-truth calls right after the
  first output that carries the injection (a hijacked agent does "the following first"), then
  the rest of the user's calls. Kept as ``unsafe`` when AgentDojo's security checker says the
  attacker's goal was reached. Attacker call ids end in ``_i_N``, the user's in ``_u_N``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, TextIO

BENCHMARK_VERSION = "v1.2.2"
AGENTDOJO_VERSION = "0.1.35"


class _Agentdojo:
    """agentdojo's names, imported once (the package exists only in its own venv)."""

    def __init__(self) -> None:
        import yaml  # agentdojo's dependency
        from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
        from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
        from agentdojo.attacks.attack_registry import load_attack
        from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime
        from agentdojo.task_suite.load_suites import get_suites
        from agentdojo.types import text_content_block_from_string

        class NamedPipeline(BasePipelineElement):  # type: ignore[misc]
            """No model runs: the attacks only read the pipeline's name (to address "GPT-4")."""

            name = "gpt-4o-2024-05-13"

            def query(self, *args: Any, **kwargs: Any) -> Any:
                raise NotImplementedError("ground-truth replays run no model")

        self.pipeline = NamedPipeline()
        self.load_attack = load_attack
        self.suites = get_suites(BENCHMARK_VERSION)
        self.runtime_cls = FunctionsRuntime
        self.call_cls = FunctionCall
        self.to_str = tool_result_to_str
        self.block = text_content_block_from_string
        path = (
            Path(sys.modules["agentdojo"].__file__ or "").parent / "data" / "system_messages.yaml"
        )
        self.system_message = yaml.safe_load(path.read_text(encoding="utf-8"))["default"]


def build(out: Path, attacks: tuple[str, ...], suites: tuple[str, ...], limit: int) -> int:
    """Write every suite's clean runs and every (user task, injection task, attack) replay.

    Args:
        out: The JSONL cache to write.
        attacks: Names in agentdojo's attack registry.
        suites: Suite names of benchmark v1.2.2.
        limit: Pairs per suite and attack (0: all).

    Returns:
        The exit status (0).
    """
    ad = _Agentdojo()
    out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = defaultdict(int)
    with out.open("w", encoding="utf-8") as stream:
        for suite_name, suite in ad.suites.items():
            if suite_name not in suites:
                continue
            for user_id, user_task in suite.user_tasks.items():
                record = _replay(ad, suite, suite_name, user_id, user_task, None, {}, "clean", "")
                counts[f"{suite_name} clean utility={record['utility']}"] += 1
                _write(stream, record)
            for attack_name in attacks:
                _attack_pairs(ad, stream, suite, suite_name, attack_name, limit, counts)
    for key in sorted(counts):
        print(f"{key:<70} {counts[key]}")
    print(f"wrote {out}")
    return 0


def _attack_pairs(
    ad: _Agentdojo,
    stream: TextIO,
    suite: Any,
    suite_name: str,
    attack_name: str,
    limit: int,
    counts: dict[str, int],
) -> None:
    attack = ad.load_attack(attack_name, suite, ad.pipeline)
    pairs = 0
    for user_id, user_task in suite.user_tasks.items():
        for inj_id, inj_task in suite.injection_tasks.items():
            if limit and pairs >= limit:
                return
            try:
                injections = attack.attack(user_task, inj_task)
            except ValueError as error:  # "user_task_N is not injectable"
                counts[f"{suite_name} {attack_name} not injectable"] += 1
                print(f"skip {suite_name}:{user_id}: {error}", file=sys.stderr)
                break
            pairs += 1
            for mode in ("ignored", "followed"):
                record = _replay(
                    ad, suite, suite_name, user_id, user_task, inj_task, injections, mode,
                    attack_name,
                )  # fmt: skip
                record["injection_task"] = inj_id
                record["id"] = (
                    f"agentdojo:{suite_name}:{user_id}+{inj_id}:{attack_name}:{mode}_injection"
                )
                label = record["label"]
                counts[f"{suite_name} {attack_name} {label}"] += 1
                if label.endswith(("_not_achieved", "_not_clean")):
                    counts[f"  {suite_name} {attack_name} {label} {inj_id}"] += 1
                if label in ("unsafe", "safe_with_injected_tool_output"):
                    _write(stream, record)


def _write(stream: TextIO, record: dict[str, Any]) -> None:
    stream.write(json.dumps(record, ensure_ascii=False) + "\n")


def _replay(
    ad: _Agentdojo,
    suite: Any,
    suite_name: str,
    user_id: str,
    user_task: Any,
    inj_task: Any,
    injections: dict[str, str],
    mode: str,
    attack_name: str,
) -> dict[str, Any]:
    """One replay as OpenAI chat messages, labelled by AgentDojo's own checkers."""
    environment = suite.load_and_inject_default_environment(injections)
    env = user_task.init_environment(environment)
    pre_env = env.model_copy(deep=True)
    runtime = ad.runtime_cls(suite.tools)
    inj_id = inj_task.ID if inj_task is not None else "none"
    prefix = f"call_{suite_name}_{user_id}_{inj_id}"
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": ad.system_message},
        {"role": "user", "content": user_task.PROMPT},
    ]
    trace: list[Any] = []

    def run(call: Any, call_id: str) -> None:
        arguments = dict(call.args)
        text = json.dumps(arguments, ensure_ascii=False, default=str)
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": call.function, "arguments": text},
                    }
                ],
            }
        )
        result, error = runtime.run_function(env, call.function, arguments, raise_on_error=False)
        trace.append(ad.call_cls(function=call.function, args=arguments, id=call_id))
        content = error if error else ad.to_str(result)
        messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
        if mode == "followed" and not attacked and _carries(content, injections):
            attacked.append(call_id)
            for k, inj_call in enumerate(inj_task.ground_truth(env.model_copy(deep=True))):
                run(inj_call, f"{prefix}_i_{k}")

    attacked: list[str] = []
    for n, call in enumerate(user_task.ground_truth(pre_env)):
        run(call, f"{prefix}_u_{n}")
    outputs = [user_task.GROUND_TRUTH_OUTPUT or "Done."]
    if attacked and inj_task.GROUND_TRUTH_OUTPUT:
        outputs.insert(0, inj_task.GROUND_TRUTH_OUTPUT)
    final = "\n".join(outputs)
    messages.append({"role": "assistant", "content": final})
    model_output = [ad.block(final)]
    common = {"suite": suite_name, "attack": attack_name or "none", "user_task": user_id}
    if mode == "clean":
        utility = bool(suite._check_user_task_utility(user_task, model_output, pre_env, env, trace))
        return {
            "id": f"agentdojo:{suite_name}:{user_id}:clean",
            "label": "clean",
            **common,
            "injection_task": None,
            "utility": utility,
            "attacker_calls": 0,
            "kind": "ground-truth replay (NOT a model run): user-task ground truth executed in "
            "AgentDojo's simulated default environment, no attack",
            "source": _source("none"),
            "messages": messages,
        }
    seen = any(_carries(str(m["content"]), injections) for m in messages if m["role"] == "tool")
    achieved = bool(
        suite._check_injection_task_security(inj_task, model_output, pre_env, env, trace)
    )
    if mode == "followed":
        label = "unsafe" if attacked and achieved else "unsafe_not_achieved"
    else:
        label = "safe_with_injected_tool_output" if seen and not achieved else "safe_not_clean"
    return {
        "id": "",
        "label": label,
        **common,
        "injection_task": inj_id,
        "injection_goal_achieved_per_agentdojo_checker": achieved,
        "injection_present_in_tool_output": seen,
        "attacker_calls": sum(
            1 for m in messages if "_i_" in json.dumps(m.get("tool_calls") or "")
        ),
        "kind": "ground-truth replay (NOT a model run): user-task ground truth executed in "
        f"AgentDojo's simulated environment with the '{attack_name}' attack injected"
        + (
            "; the injection task's ground-truth calls inserted after the first injected output"
            if mode == "followed"
            else ""
        ),
        "source": _source(attack_name),
        "messages": messages,
    }


def _source(attack_name: str) -> dict[str, str]:
    return {
        "package": "agentdojo",
        "version": AGENTDOJO_VERSION,
        "license": "MIT",
        "benchmark_version": BENCHMARK_VERSION,
        "attack": attack_name,
    }


def _squash(text: str) -> str:
    """Letters and digits alone: YAML folds, quotes and escapes long strings (``\\n``)."""
    return re.sub(r"\W|_", "", text.replace("\\n", ""))


def _carries(content: str, injections: dict[str, str]) -> bool:
    """Whether a tool output carries one of the attack's injected texts (its first 60 chars)."""
    flat = _squash(content)
    return any(_squash(text)[:60] in flat for text in injections.values() if _squash(text))
