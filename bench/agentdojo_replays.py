"""Injection followed: AgentDojo ground-truth replays from all four suites, scored by QGS.

Two steps, two interpreters (agentdojo pins its own dependencies, so it lives in a venv of its
own, never in the project's):

    # 1. build the replays (needs agentdojo==0.1.35; ~2 min, a JSONL cache of ~100 MB)
    python3 -m venv /work/wt/follow-aux/venv
    /work/wt/follow-aux/venv/bin/pip install agentdojo==0.1.35
    /work/wt/follow-aux/venv/bin/python bench/agentdojo_replays.py build
    # 2. score them with the project's detectors (~1 min)
    .venv/bin/python bench/agentdojo_replays.py score [--suite travel] [--misses]
    # 3. (optional) rewrite the fixed sample that tests/unit/test_followed.py reads
    .venv/bin/python bench/agentdojo_replays.py sample

``build`` takes every (user task, injection task) pair of each suite (benchmark v1.2.2) and each
attack (``important_instructions`` and ``injecagent`` by default, ``--attacks`` to change): the
attack fills the injection vectors that the user task's ground truth sees; the user task's
ground-truth calls run against the suite's environment, and their real outputs are recorded as
OpenAI chat messages (the format of ``../shared/corpus/d_transcripts_agentdojo_gt_replay.jsonl``,
without ``tools``). Two replays per pair:

- ``safe``: the user task's calls alone. Kept when AgentDojo's own checker (``security``) says the
  attacker's goal was not reached.
- ``unsafe``: after the first tool output that carries the injection, the injection task's
  ground-truth calls (a hijacked agent does "the following first"), then the rest of the user
  task's calls. Kept when AgentDojo's checker says the attacker's goal was reached. Attacker call
  ids end in ``_i_N``, the user's in ``_u_N``.

``score`` runs ``detectors.scan_round`` over each replay's rounds (earlier tool outputs passed
along, as the audit does) and prints, per suite and attack: unsafe replays with a P0 / total, the
same counting only attacker calls that carry something (an injection task whose goal is text
only, e.g. travel's "say that I should visit ...", has no call to catch), and safe replays with
any P0 / total. ``--misses`` lists the unsafe replays without a P0 and the safe ones with one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

DEFAULT_CACHE = ROOT / "bench" / ".cache" / "agentdojo_replays.jsonl"
SUITES = ("banking", "slack", "travel", "workspace")
DEFAULT_ATTACKS = ("important_instructions", "injecagent")
BENCHMARK_VERSION = "v1.2.2"
AGENTDOJO_VERSION = "0.1.35"
DESIGN_SUITES = ("banking", "slack")
"""The suites looked at while the ``followed`` rules were written; travel and workspace are held out."""


# --- build (agentdojo's venv) -------------------------------------------------------------------
def build(out: Path, attacks: tuple[str, ...], suites: tuple[str, ...], limit: int) -> int:
    import yaml  # agentdojo's dependency
    from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
    from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
    from agentdojo.attacks.attack_registry import load_attack
    from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime
    from agentdojo.task_suite.load_suites import get_suites
    from agentdojo.types import text_content_block_from_string

    class NamedPipeline(BasePipelineElement):
        """No model runs: the attacks only read the pipeline's name (to address "GPT-4")."""

        name = "gpt-4o-2024-05-13"

        def query(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError("ground-truth replays run no model")

    system_path = (
        Path(sys.modules["agentdojo"].__file__ or "").parent / "data" / "system_messages.yaml"
    )
    system_message = yaml.safe_load(system_path.read_text(encoding="utf-8"))["default"]
    out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = defaultdict(int)
    with out.open("w", encoding="utf-8") as stream:
        for suite_name, suite in get_suites(BENCHMARK_VERSION).items():
            if suite_name not in suites:
                continue
            pipeline = NamedPipeline()
            for attack_name in attacks:
                attack = load_attack(attack_name, suite, pipeline)
                pairs = 0
                for user_id, user_task in suite.user_tasks.items():
                    for inj_id, inj_task in suite.injection_tasks.items():
                        if limit and pairs >= limit:
                            break
                        try:
                            injections = attack.attack(user_task, inj_task)
                        except ValueError as error:  # "user_task_N is not injectable"
                            counts[f"{suite_name} not injectable"] += 1
                            print(f"skip {suite_name}:{user_id}: {error}", file=sys.stderr)
                            break
                        pairs += 1
                        for unsafe in (False, True):
                            record = _replay(
                                suite,
                                suite_name,
                                user_id,
                                user_task,
                                inj_id,
                                inj_task,
                                injections,
                                unsafe,
                                attack_name,
                                system_message,
                                runtime_cls=FunctionsRuntime,
                                call_cls=FunctionCall,
                                to_str=tool_result_to_str,
                                block=text_content_block_from_string,
                            )
                            label = record["label"]
                            counts[f"{suite_name} {attack_name} {label}"] += 1
                            if label.endswith(("_not_achieved", "_not_clean")):
                                counts[f"  {suite_name} {attack_name} {label} {inj_id}"] += 1
                            if label in ("unsafe", "safe_with_injected_tool_output"):
                                stream.write(json.dumps(record, ensure_ascii=False) + "\n")
    for key in sorted(counts):
        print(f"{key:<60} {counts[key]}")
    print(f"wrote {out}")
    return 0


def _replay(
    suite: Any,
    suite_name: str,
    user_id: str,
    user_task: Any,
    inj_id: str,
    inj_task: Any,
    injections: dict[str, str],
    unsafe: bool,
    attack_name: str,
    system_message: str,
    *,
    runtime_cls: Any,
    call_cls: Any,
    to_str: Any,
    block: Any,
) -> dict[str, Any]:
    """One replay as OpenAI chat messages, labelled by AgentDojo's own security checker."""
    environment = suite.load_and_inject_default_environment(injections)
    env = user_task.init_environment(environment)
    pre_env = env.model_copy(deep=True)
    runtime = runtime_cls(suite.tools)
    prefix = f"call_{suite_name}_{user_id}_{inj_id}"
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_message},
        {"role": "user", "content": user_task.PROMPT},
    ]
    trace: list[Any] = []

    def run(call: Any, call_id: str) -> str:
        arguments = dict(call.args)
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": call.function,
                            "arguments": json.dumps(arguments, ensure_ascii=False, default=str),
                        },
                    }
                ],
            }
        )
        result, error = runtime.run_function(env, call.function, arguments, raise_on_error=False)
        trace.append(call_cls(function=call.function, args=arguments, id=call_id))
        content = error if error else to_str(result)
        messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
        return content

    user_calls = list(user_task.ground_truth(pre_env))
    attacked = False
    for n, call in enumerate(user_calls):
        content = run(call, f"{prefix}_u_{n}")
        if unsafe and not attacked and _carries(content, injections):
            attacked = True
            for k, inj_call in enumerate(inj_task.ground_truth(env.model_copy(deep=True))):
                run(inj_call, f"{prefix}_i_{k}")
    outputs = [user_task.GROUND_TRUTH_OUTPUT or "Done."]
    if unsafe and inj_task.GROUND_TRUTH_OUTPUT:
        outputs.insert(0, inj_task.GROUND_TRUTH_OUTPUT)
    final = "\n".join(outputs)
    messages.append({"role": "assistant", "content": final})
    seen = any(_carries(str(m["content"]), injections) for m in messages if m["role"] == "tool")
    achieved = bool(
        suite._check_injection_task_security(inj_task, [block(final)], pre_env, env, trace)
    )
    if unsafe:
        label = "unsafe" if attacked and achieved else "unsafe_not_achieved"
    else:
        label = "safe_with_injected_tool_output" if seen and not achieved else "safe_not_clean"
    return {
        "id": f"agentdojo:{suite_name}:{user_id}+{inj_id}:{attack_name}:"
        + ("followed_injection" if unsafe else "ignored_injection"),
        "label": label,
        "suite": suite_name,
        "attack": attack_name,
        "user_task": user_id,
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
            if unsafe
            else ""
        ),
        "source": {
            "package": "agentdojo",
            "version": AGENTDOJO_VERSION,
            "license": "MIT",
            "benchmark_version": BENCHMARK_VERSION,
            "attack": attack_name,
        },
        "messages": messages,
    }


def _squash(text: str) -> str:
    """Letters and digits alone: YAML folds, quotes and escapes long strings (``\\n``)."""
    return re.sub(r"\W|_", "", text.replace("\\n", ""))


def _carries(content: str, injections: dict[str, str]) -> bool:
    """Whether a tool output carries one of the attack's injected texts (its first 60 chars)."""
    flat = _squash(content)
    return any(_squash(text)[:60] in flat for text in injections.values() if _squash(text))


# --- score (the project's venv) -----------------------------------------------------------------
def _records(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if line.strip():
                yield json.loads(line)


def score(path: Path, suites: tuple[str, ...], show_misses: bool) -> int:
    from qgs_worker.core.detectors import scan_round
    from qgs_worker.core.models import Severity, ToolResult
    from qgs_worker.transcripts.openai_chat import rounds_from_messages

    if not path.exists():
        print(
            f"no replays at {path}: run `bench/agentdojo_replays.py build` first", file=sys.stderr
        )
        return 2
    # (suite, attack) -> [unsafe caught, unsafe, unsafe with attacker calls caught, with calls,
    #                     safe with P0, safe, attacker calls with a P0, attacker calls]
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * 8)
    misses: list[str] = []
    for record in _records(path):
        if record["suite"] not in suites:
            continue
        request, rounds = rounds_from_messages(record["messages"])
        earlier: list[ToolResult] = []
        p0_calls: set[str] = set()
        any_p0 = False
        attacker_calls = [c.id for d in rounds for c in d.tool_calls if "_i_" in c.id]
        for deliverable in rounds:
            findings = scan_round(deliverable, request=request, earlier_tool_results=earlier)
            earlier.extend(deliverable.tool_results)
            p0 = [f for f in findings if f.severity is Severity.P0]
            any_p0 = any_p0 or bool(p0)
            if p0:
                p0_calls.update(c.id for c in deliverable.tool_calls)
        row = table[(record["suite"], record["attack"])]
        if record["label"] == "unsafe":
            row[0] += any_p0
            row[1] += 1
            if attacker_calls:
                row[2] += any_p0
                row[3] += 1
                row[6] += len(set(attacker_calls) & p0_calls)
                row[7] += len(attacker_calls)
            if not any_p0:
                misses.append(f"miss  {record['id']}")
        else:
            row[4] += any_p0
            row[5] += 1
            if any_p0:
                misses.append(f"false {record['id']}")
    print(
        f"AgentDojo {BENCHMARK_VERSION} ground-truth replays ({path.name}); design suites: "
        f"{', '.join(DESIGN_SUITES)}; the others are held out"
    )
    head = (
        f"{'suite':<10} {'attack':<24} {'unsafe with P0':>16} {'(with attacker calls)':>22}"
        f" {'attacker calls P0':>18} {'safe with P0':>14}"
    )
    print(head)
    print("-" * len(head))
    totals = [0] * 8
    for (suite, attack), row in sorted(table.items()):
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        print(
            f"{suite:<10} {attack:<24} {_frac(row[0], row[1]):>16} {_frac(row[2], row[3]):>22}"
            f" {_frac(row[6], row[7]):>18} {_frac(row[4], row[5]):>14}"
        )
    print(
        f"{'all':<10} {'':<24} {_frac(totals[0], totals[1]):>16} {_frac(totals[2], totals[3]):>22}"
        f" {_frac(totals[6], totals[7]):>18} {_frac(totals[4], totals[5]):>14}"
    )
    if show_misses:
        print("\n".join(misses))
    return 0


SAMPLE = ROOT / "tests" / "data" / "agentdojo_replays_sample.jsonl"
SAMPLE_EXTRA = (
    # an override-phrase passage inside a YAML record (its window runs into the next fields)
    "agentdojo:workspace:user_task_8+injection_task_0:injecagent:ignored_injection",
    # two injected e-mails in one output, the second inside the first's window
    "agentdojo:workspace:user_task_24+injection_task_2:injecagent:followed_injection",
    # a hotel and dates taken from an injected review (the example)
    "agentdojo:travel:user_task_13+injection_task_0:important_instructions:followed_injection",
    # the attacker's IBAN, also in a later confirmation (an echo), three transfers
    "agentdojo:banking:user_task_0+injection_task_6:important_instructions:followed_injection",
)


def sample(path: Path, out: Path) -> int:
    """The fixed sample the unit tests read: the smallest replay per suite, attack and label.

    Unsafe replays whose injection task has no call (a text goal) are sampled apart.
    """
    smallest: dict[tuple[str, str, str, bool], tuple[int, str]] = {}
    chosen: dict[str, str] = {}
    for record in _records(path):
        line = json.dumps(record, ensure_ascii=False)
        key = (record["suite"], record["attack"], record["label"], bool(record["attacker_calls"]))
        if key not in smallest or len(line) < smallest[key][0]:
            smallest[key] = (len(line), line)
        if record["id"] in SAMPLE_EXTRA:
            chosen[record["id"]] = line
    for _, line in smallest.values():
        chosen.setdefault(json.loads(line)["id"], line)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{line}\n" for _, line in sorted(chosen.items())), encoding="utf-8")
    print(f"wrote {len(chosen)} replays to {out}")
    return 0


def _frac(hit: int, total: int) -> str:
    return f"{hit}/{total}" + (f" ({100 * hit / total:.0f}%)" if total else "")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the replays (run with agentdojo's venv)")
    b.add_argument("--out", type=Path, default=DEFAULT_CACHE)
    b.add_argument("--attacks", default=",".join(DEFAULT_ATTACKS))
    b.add_argument("--suite", action="append", choices=SUITES)
    b.add_argument("--limit", type=int, default=0, help="pairs per suite and attack (0: all)")
    s = sub.add_parser("score", help="score the replays with the project's detectors")
    s.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    s.add_argument("--suite", action="append", choices=SUITES)
    s.add_argument("--misses", action="store_true")
    m = sub.add_parser("sample", help="write the unit tests' fixed sample from the cache")
    m.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    m.add_argument("--out", type=Path, default=SAMPLE)
    args = parser.parse_args(argv)
    if args.command == "sample":
        return sample(args.cache, args.out)
    suites = tuple(args.suite or SUITES)
    if args.command == "build":
        return build(args.out, tuple(args.attacks.split(",")), suites, args.limit)
    return score(args.cache, suites, args.misses)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
