"""The client's gate cache: a tools list seen before, as the same object or as equal content,
is never compiled again; memory stays bounded (issue 15)."""

from __future__ import annotations

import copy
import json
import marshal
import time
from typing import Any

import pytest
from pydantic import BaseModel

from qgs_worker.client.gate_cache import GATE_CACHE_MAX, GateCache
from qgs_worker.core.toolgate import ToolGate, ToolRegistry
from qgs_worker.errors import InputError


def tool(name: str, **properties: Any) -> dict[str, Any]:
    """One OpenAI tool definition with string parameters."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": f"the {name} tool",
            "parameters": {
                "type": "object",
                "properties": {p: {"type": kind} for p, kind in properties.items()},
            },
        },
    }


def tools_list(n: int) -> list[dict[str, Any]]:
    """The ``n``-th of many distinct tools lists."""
    return [tool(f"tool_{n}", path="string"), tool("shared", q="string")]


@pytest.fixture
def cache() -> GateCache:
    return GateCache(ToolGate)


class TestBuiltOnce:
    """A tools list seen before is never compiled again."""

    def test_the_same_object(self, cache: GateCache) -> None:
        tools = tools_list(0)
        first = cache.gate(tools)
        assert first is cache.gate(tools)
        assert (1, 1) == (cache.builds, cache.hits)

    def test_equal_content_in_a_fresh_object(self, cache: GateCache) -> None:
        tools = tools_list(0)
        first = cache.gate(tools)
        assert first is cache.gate(copy.deepcopy(tools))
        assert first is cache.gate(json.loads(json.dumps(tools)))
        assert 1 == cache.builds

    def test_keys_in_another_order_get_a_gate_of_their_own(self, cache: GateCache) -> None:
        """The key is not canonical any more (no sorted dump): at worst a second gate is built."""
        tools = tools_list(0)
        first = cache.gate(tools)
        reordered = [dict(reversed(list(t.items()))) for t in tools]
        second = cache.gate(reordered)
        assert second is cache.gate(copy.deepcopy(reordered))
        assert first.registry.names == second.registry.names

    def test_other_content_is_another_gate(self, cache: GateCache) -> None:
        first = cache.gate(tools_list(0))
        other = cache.gate(tools_list(1))
        assert first is not other
        assert other.registry.get("tool_1") is not None and first.registry.get("tool_1") is None
        assert 2 == cache.builds

    def test_a_hundred_lists_in_rotation(self, cache: GateCache) -> None:
        lists = [tools_list(n) for n in range(100)]
        for _ in range(3):
            for tools in lists:
                cache.gate(tools)
            for tools in lists:
                cache.gate(copy.deepcopy(tools))
        assert (100, 500) == (cache.builds, cache.hits)

    def test_a_registry_and_pydantic_models(self, cache: GateCache) -> None:
        class Search(BaseModel):
            query: str

        registry = ToolRegistry.from_openai(tools_list(0))
        assert cache.gate(registry) is cache.gate(registry)
        assert cache.gate([Search]) is cache.gate([Search])  # the same classes in a new list
        assert 2 == cache.builds


class TestChanged:
    """A list changed in place is read again; an edit is never served a stale gate."""

    def test_a_definition_edited_in_place(self, cache: GateCache) -> None:
        tools = tools_list(0)
        first = cache.gate(tools)
        tools[0]["function"]["name"] = "renamed"  # the same list, the same dict objects
        second = cache.gate(tools)
        assert second is not first and 2 == cache.builds
        assert "renamed" in second.registry and "tool_0" not in second.registry

    def test_a_tool_removed_from_an_mcp_tools_list_result(self, cache: GateCache) -> None:
        result = {
            "tools": [
                {"name": "read_file", "inputSchema": {"type": "object", "properties": {}}},
                {"name": "search", "inputSchema": {"type": "object", "properties": {}}},
            ]
        }
        first = cache.gate(result)
        result["tools"].pop(0)  # the same dict, its same inner list, one tool fewer
        second = cache.gate(result)
        assert second is not first
        assert "read_file" not in second.registry and "search" in second.registry

    def test_an_appended_definition(self, cache: GateCache) -> None:
        tools = tools_list(0)
        before = cache.gate(tools)
        tools.append(tool("added_later"))
        after = cache.gate(tools)
        assert after is not before and after.registry.get("added_later") is not None

    def test_a_replaced_definition(self, cache: GateCache) -> None:
        tools = tools_list(0)
        before = cache.gate(tools)
        tools[0] = tool("replaced")
        assert cache.gate(tools).registry.get("replaced") is not None
        assert before.registry.get("replaced") is None


class TestBounded:
    """Memory is bounded: least recently used gates go first, by count and by size."""

    def test_by_count(self) -> None:
        cache = GateCache(ToolGate, max_entries=3)
        lists = [tools_list(n) for n in range(4)]
        for tools in lists[:3]:
            cache.gate(tools)
        cache.gate(copy.deepcopy(lists[0]))  # the oldest is used again: the second goes
        cache.gate(lists[3])
        assert 3 == len(cache)
        builds = cache.builds
        cache.gate(copy.deepcopy(lists[0]))
        cache.gate(copy.deepcopy(lists[3]))
        assert builds == cache.builds
        cache.gate(copy.deepcopy(lists[1]))  # forgotten: built again
        assert builds + 1 == cache.builds

    def test_by_size(self) -> None:
        size = len(marshal.dumps(tools_list(10), 2))
        cache = GateCache(ToolGate, max_chars=size * 5)
        for n in range(10, 30):
            cache.gate(tools_list(n))
        assert 5 == len(cache)
        assert cache.chars <= size * 5

    def test_one_list_over_the_bound_is_still_kept(self) -> None:
        cache = GateCache(ToolGate, max_chars=10)
        tools = tools_list(0)
        cache.gate(tools)
        cache.gate(copy.deepcopy(tools))
        assert (1, 1) == (cache.builds, len(cache))

    def test_the_default_holds_far_more_than_32(self) -> None:
        assert GATE_CACHE_MAX >= 1000


def test_tools_of_another_type(cache: GateCache) -> None:
    with pytest.raises(InputError, match=r"ToolRegistry\.from_file"):
        cache.gate("tools.json")
    assert 0 == cache.builds


class TestFoundFast:
    """A list passed with every call is found by a fast content key, not a sorted dump (issue 31)."""

    def test_a_thousand_tools_cost_far_less_than_a_sorted_dump(self) -> None:
        tools = [tool(f"tool_{n}", path="string", mode="string", size="integer") for n in range(1000)]
        cache = GateCache(ToolGate)
        cache.gate(tools)

        def best_s(fn: Any) -> float:
            times = []
            for _ in range(15):
                started = time.perf_counter()
                fn()
                times.append(time.perf_counter() - started)
            return min(times)

        found_s = best_s(lambda: cache.gate(tools))
        dumped_s = best_s(lambda: json.dumps(tools, sort_keys=True, separators=(",", ":")))
        assert 1 == cache.builds
        assert found_s < dumped_s / 2, (found_s, dumped_s)

    def test_a_steady_caller_is_served_by_the_fast_key(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from qgs_worker.client import gate_cache
        tools = tools_list(0)
        cache = GateCache(ToolGate)
        first = cache.gate(tools)
        canonical_writes = []
        real_key = gate_cache._key
        monkeypatch.setattr(
            gate_cache, "_key", lambda *a: canonical_writes.append(1) or real_key(*a)
        )
        for _ in range(5):
            assert first is cache.gate(tools)
            assert first is cache.gate(copy.deepcopy(tools))
        assert len(canonical_writes) <= 2  # once per new form at most, then the alias
        assert 1 == cache.builds

    def test_an_edit_deep_inside_is_seen(self) -> None:
        tools = [tool(f"tool_{n}", path="string") for n in range(1000)]
        cache = GateCache(ToolGate)
        first = cache.gate(tools)
        assert first is cache.gate(tools)  # its fast key is known now
        tools[999]["function"]["parameters"]["properties"]["path"]["enum"] = ["/tmp"]
        second = cache.gate(tools)
        assert first is not second
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": "tool_999", "arguments": '{"path": "/etc"}'},
        }
        assert first.check(call).allowed and not second.check(call).allowed
