"""Layers 1-3 on real calls: BFCL valid/invalid/strict-conflict records, AgentDojo ground truth.

Run with ``-s`` to see the confusion table, the strictness table and the timing figures.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from qgs_worker.core.toolgate import (
    GateReport,
    GateSettings,
    LayerStatus,
    Strictness,
    ToolGate,
    ToolRegistry,
)
from tests.conftest import AGENTDOJO_HELD_BACK, agentdojo_held_back

LAYER_NAMES = {1: "format", 2: "existence", 3: "parameters", None: "allowed"}
MUTATION_LAYER = {
    "malformed_json_arguments": 1,
    "arguments_not_string": 1,
    "missing_tool_call_id": 1,
    "wrong_call_type": 1,
    "empty_function_name": 1,
    "unknown_tool": 2,
    "missing_required": 3,
    "wrong_type": 3,
    "unknown_param": 3,
    "enum_violation": 3,
}
"""Where each BFCL mutation must be stopped: the layer whose concern it breaks."""

CONFLICT_GROUPS = {
    # group: (calls in the corpus, passes lenient) -- the decision documented in schema.py
    "default": (37, True),
    "string_form": (11, True),
    "array_enum": (1, True),
    "case": (1, True),
    "missing_required": (3, False),
    "outside_enum": (5, False),
    "wrong_type": (2, False),
}


def records(corpus: Path, name: str) -> list[dict[str, Any]]:
    path = corpus / name
    if not path.exists():
        pytest.skip(f"corpus file {path} is absent (the shared corpus lives next to the project)")
    with path.open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def first_three_pass(report: GateReport) -> bool:
    return report.allowed and all(
        r.status in (LayerStatus.PASS, LayerStatus.WARN) for r in report.layers[:3]
    )


class TestValid:
    """Every valid BFCL call passes layers 1-3 in its OpenAI and its Anthropic form."""

    def test_openai_and_anthropic_forms(self, corpus: Path) -> None:
        failures = []
        checked = 0
        for record in records(corpus, "a_bfcl_tool_calls_valid.jsonl"):
            forms = [
                (ToolRegistry.from_openai(record["tools"]), record["assistant_message"]),
                (
                    ToolRegistry.from_anthropic(record["anthropic_tools"]),
                    record["anthropic_assistant_content"],
                ),
            ]
            for registry, message in forms:
                reports = ToolGate(registry).check_message(message)
                checked += len(reports)
                failures += [
                    (record["id"], r.to_dict()) for r in reports if not first_three_pass(r)
                ]
        assert [] == failures
        assert checked >= 70


class TestInvalid:
    """Every derived invalid call is stopped, at the layer its mutation belongs to."""

    def test_stopped_at_the_right_layer(self, corpus: Path) -> None:
        table: Counter[tuple[str, int | None]] = Counter()
        wrong = []
        for record in records(corpus, "a_bfcl_tool_calls_invalid_derived.jsonl"):
            mutation = record["mutation"]
            assert mutation in MUTATION_LAYER, f"new mutation {mutation!r}: say where it belongs"
            gate = ToolGate(ToolRegistry.from_openai(record["tools"]))
            report = gate.check(record["assistant_message"]["tool_calls"][0])
            table[(mutation, report.stopped_at)] += 1
            if report.stopped_at != MUTATION_LAYER[mutation]:
                wrong.append((record["id"], report.to_dict()))
        print_confusion(table)
        assert [] == wrong


def print_confusion(table: Counter[tuple[str, int | None]]) -> None:
    columns = [1, 2, 3, None]
    print(
        "\nmutation (expected layer)          " + "".join(f"{LAYER_NAMES[c]:>12}" for c in columns)
    )
    for mutation in sorted(MUTATION_LAYER, key=lambda m: (MUTATION_LAYER[m], m)):
        label = f"{mutation} ({LAYER_NAMES[MUTATION_LAYER[mutation]]})"
        print(f"{label:35}" + "".join(f"{table[(mutation, c)]:>12}" for c in columns))


def conflict_group(record: dict[str, Any]) -> str:
    """Sort a strict-schema conflict by what went wrong, reading the schema (not the gate)."""
    error = record["error"]
    if "is a required property" in error:
        return "missing_required"
    field = error.split(":")[0]
    value = record["arguments"][field]
    schema = record["tool"]["function"]["parameters"]["properties"][field]
    enum = schema.get("enum")
    if (
        "default" in schema
        and type(value) is type(schema["default"])
        and value == schema["default"]
    ):
        return "default"
    if enum and schema.get("type") == "array":
        return "array_enum"
    if enum and not isinstance(value, str) and str(value) in enum:
        return "string_form"
    if enum and isinstance(value, str) and value.casefold() in {str(e).casefold() for e in enum}:
        return "case"
    return "outside_enum" if enum else "wrong_type"


class TestStrictness:
    """The strict-schema conflicts: what lenient and strict do, group by group."""

    def test_lenient_and_strict(self, corpus: Path) -> None:
        outcomes: Counter[tuple[str, str]] = Counter()
        groups: Counter[str] = Counter()
        for record in records(corpus, "a_bfcl_gt_strict_schema_conflicts.jsonl"):
            group = conflict_group(record)
            groups[group] += 1
            registry = ToolRegistry.from_openai([record["tool"]])
            call = {
                "id": "call_0",
                "type": "function",
                "function": {
                    "name": registry.names[0],
                    "arguments": json.dumps(record["arguments"]),
                },
            }
            for strictness in Strictness:
                gate = ToolGate(registry, settings=GateSettings(strictness=strictness))
                report = gate.check(call)
                assert report.allowed or 3 == report.stopped_at, report.to_dict()
                outcomes[(group, strictness.value)] += report.allowed
        print("\ngroup              calls  lenient passes  strict passes")
        for group, (count, _) in CONFLICT_GROUPS.items():
            lenient, strict = outcomes[(group, "lenient")], outcomes[(group, "strict")]
            print(f"{group:18} {count:>5} {lenient:>15} {strict:>14}")
        total = sum(groups.values())
        lenient_total = sum(v for (_, mode), v in outcomes.items() if mode == "lenient")
        strict_total = sum(v for (_, mode), v in outcomes.items() if mode == "strict")
        print(f"{'total':18} {total:>5} {lenient_total:>15} {strict_total:>14}")
        assert {g: count for g, (count, _) in CONFLICT_GROUPS.items()} == dict(groups)
        for group, (count, passes) in CONFLICT_GROUPS.items():
            assert (count if passes else 0) == outcomes[(group, "lenient")], group
            assert 0 == outcomes[(group, "strict")], group


class TestAgentDojo:
    """AgentDojo's schemas load, and its ground-truth calls (attacks too) pass layers 1-3.

    The attacker's calls are well-formed calls of registered tools: stopping them is the work of
    layers 4-6 (rules, permission, injection), not of format, existence or parameters.
    """

    def test_ground_truth_calls(self, corpus: Path) -> None:
        path = corpus / "extra_agentdojo_tools_openai.json"
        if not path.exists():
            pytest.skip(f"corpus file {path} is absent")
        suites = json.loads(path.read_text(encoding="utf-8"))
        gates = {
            suite: ToolGate(ToolRegistry.from_openai(tools))
            for suite, tools in suites.items()
            if suite not in AGENTDOJO_HELD_BACK  # travel, workspace: held back
        }
        assert 22 == sum(len(g.registry) for g in gates.values())  # banking 11, slack 11
        failures = []
        for name in (
            "extra_agentdojo_user_tasks_ground_truth.jsonl",
            "extra_agentdojo_injection_tasks_ground_truth.jsonl",
        ):
            for record in records(corpus, name):
                if agentdojo_held_back(record["id"]):
                    continue
                for index, call in enumerate(record["ground_truth_calls"]):
                    openai = {
                        "id": f"call_{index}",
                        "type": "function",
                        "function": {
                            "name": call["name"],
                            "arguments": json.dumps(call["arguments"]),
                        },
                    }
                    report = gates[record["suite"]].check(openai)
                    if not first_three_pass(report):
                        failures.append((record["id"], report.to_dict()))
        assert [] == failures


class TestTiming:
    """Where the hot path stands (printed, not asserted: the bench owns the targets)."""

    def test_p50_against_bare_jsonschema(self, corpus: Path) -> None:
        cases = []
        for record in records(corpus, "a_bfcl_tool_calls_valid.jsonl"):
            gate = ToolGate(ToolRegistry.from_openai(record["tools"]))
            for call in record["assistant_message"]["tool_calls"]:
                spec = gate.registry.get(call["function"]["name"])
                assert spec is not None
                bare = jsonschema.Draft202012Validator(spec.parameters)
                cases.append((gate, call, bare, json.loads(call["function"]["arguments"])))

        def percentiles(run: Callable[[Any, Any, Any, Any], object]) -> tuple[float, float]:
            samples = []
            for _ in range(100):
                for case in cases:
                    start = time.perf_counter_ns()
                    run(*case)
                    samples.append(time.perf_counter_ns() - start)
            samples.sort()
            return samples[len(samples) // 2] / 1000, samples[len(samples) * 99 // 100] / 1000

        gate_p50, gate_p99 = percentiles(lambda gate, call, bare, args: gate.check(call))
        bare_p50, bare_p99 = percentiles(lambda gate, call, bare, args: bare.validate(args))
        parse_p50, _ = percentiles(
            lambda gate, call, bare, args: bare.validate(json.loads(call["function"]["arguments"]))
        )
        print(
            f"\nlayers 1-3 (parse included): p50 {gate_p50:.1f} us, p99 {gate_p99:.1f} us"
            f"\nbare jsonschema validate:    p50 {bare_p50:.1f} us, p99 {bare_p99:.1f} us"
            f"\nbare json.loads + validate:  p50 {parse_p50:.1f} us"
            f"\nratio (p50): {gate_p50 / bare_p50:.2f}x bare validate, {len(cases)} calls x 100"
        )
