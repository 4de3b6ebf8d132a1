"""Layer 4, business rules: file sizes, URL domains, the rate limit per (agent, tool).

Run with ``-s`` to see what layers 4 and 5 cost per call on the BFCL valid corpus.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.config.settings import Settings, ToolGateSettings
from qgs_worker.config.toolgate_io import build_gate, default_rules, stat_file_size
from qgs_worker.core.models import RateDecision
from qgs_worker.core.policy import Policy, Role
from qgs_worker.core.toolgate import (
    DEFAULT_LAYERS,
    BusinessRules,
    CheckContext,
    GateSettings,
    LayerResult,
    LayerStatus,
    Permission,
    PermissionLayer,
    RateLimit,
    RulesLayer,
    ToolDefinitionError,
    ToolGate,
    ToolRegistry,
    ToolSpec,
    parse_call,
)
from qgs_worker.core.toolgate.layer4_rules import url_host
from qgs_worker.limits.ratelimit import LocalRateLimiter

FILES = {
    "type": "object",
    "properties": {
        "file_path": {"type": "string"},
        "files": {"type": "array", "items": {"type": "string"}},
        "note": {"type": "string"},
    },
}
FETCH = {
    "type": "object",
    "properties": {
        "url": {"type": "string"},
        "options": {"type": "object", "properties": {"callback_url": {"type": "string"}}},
    },
}
REGISTRY = ToolRegistry(
    [
        ToolSpec.define("upload_file", FILES, rules=BusinessRules(max_file_bytes=10)),
        ToolSpec.define("fetch_page", FETCH, rules=BusinessRules(allowed_domains=("example.com",))),
        ToolSpec.define("search", {"type": "object", "properties": {"q": {"type": "string"}}}),
        ToolSpec.define(
            "send_sms",
            {"type": "object", "properties": {"text": {"type": "string"}}},
            rules=BusinessRules(rate_limit=RateLimit(2, 10.0)),
        ),
        ToolSpec.define("fetch_any", FETCH, rules=BusinessRules(allowed_domains=("*",))),
    ]
)
SIZES = {"small.txt": 10, "big.bin": 11, "huge.iso": 4_000_000_000}


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {
        "id": "call_1",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def check(
    layer: RulesLayer,
    name: str,
    *,
    agent_id: str | None = "bot",
    principal: str | None = None,
    **arguments: Any,
) -> LayerResult:
    parsed = parse_call(call(name, **arguments))
    context = CheckContext(REGISTRY, GateSettings(), principal, agent_id)
    return layer.check(parsed, REGISTRY.get(name), context)


def sized(**kw: Any) -> RulesLayer:
    return RulesLayer(LocalRateLimiter(FakeClock()), file_size=SIZES.get, **kw)


class TestFileSize:
    """Path-kind arguments name files within max_file_bytes; unknown sizes pass."""

    def test_over_the_limit(self) -> None:
        result = check(sized(), "upload_file", file_path="big.bin")
        assert (LayerStatus.FAIL, 1) == (result.status, len(result.errors))
        assert (
            "$.file_path: file 'big.bin' is 11 bytes, over the 10-byte limit of tool "
            "'upload_file' (rule max_file_bytes)"
        ) == result.errors[0]
        assert "raise x-qgs.max_file_bytes of 'upload_file'" in (result.suggestion or "")

    @pytest.mark.parametrize("path", ["small.txt", "missing.txt"])
    def test_at_the_limit_or_unknown_passes(self, path: str) -> None:
        assert LayerStatus.PASS == check(sized(), "upload_file", file_path=path).status

    def test_every_array_item_is_checked(self) -> None:
        result = check(sized(), "upload_file", files=["small.txt", "big.bin", "huge.iso"])
        assert ["$.files[1]", "$.files[2]"] == [e.split(":")[0] for e in result.errors]

    def test_free_text_is_not_a_path(self) -> None:
        assert LayerStatus.PASS == check(sized(), "upload_file", note="big.bin").status

    def test_registry_default_applies_to_tools_without_their_own(self) -> None:
        spec = ToolSpec.define("read_file", FILES)
        registry = ToolRegistry([spec])
        layer = sized(defaults=BusinessRules(max_file_bytes=5))
        parsed = parse_call(call("read_file", file_path="small.txt"))
        result = layer.check(parsed, spec, CheckContext(registry, GateSettings()))
        assert "over the 5-byte limit" in result.errors[0]

    def test_without_a_port_it_warns(self) -> None:
        result = check(RulesLayer(), "upload_file", file_path="big.bin")
        assert LayerStatus.WARN == result.status
        assert "not enforced (no file_size port" in result.warnings[0]

    def test_stat_file_size(self, tmp_path: Path) -> None:
        (tmp_path / "a.txt").write_bytes(b"x" * 42)
        assert [42, None, None, None] == [
            stat_file_size(str(tmp_path / "a.txt")),
            stat_file_size(str(tmp_path / "nope.txt")),
            stat_file_size(str(tmp_path)),  # a directory: no file size to limit
            stat_file_size("bad\x00path"),
        ]

    def test_a_home_relative_path_is_sized(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("HOME", str(tmp_path))
        (tmp_path / "big.bin").write_bytes(b"x" * 7)
        assert 7 == stat_file_size("~/big.bin")


URLS: list[tuple[str, str | None]] = [
    # (url, None when allowed / a needle of the error)
    ("https://example.com/x", None),
    ("https://api.example.com/v1?q=1", None),
    ("HTTPS://API.EXAMPLE.COM./v1", None),
    ("example.com/path", None),  # no scheme: read host first
    ("https://badexample.com/", "host 'badexample.com' is not an allowed domain"),
    ("https://example.com.evil.io/", "host 'example.com.evil.io' is not an allowed domain"),
    ("https://example.com@evil.io/", "host 'evil.io'"),
    ("https://evil.io\\@example.com/", "a backslash"),
    ("https://evil%2eio/", "is not a DNS name or IP address"),
    ("http://[::1/", "not a parsable URL (Invalid IPv6 URL)"),
    ("javascript:alert(1)", "not a parsable URL"),
    ("file:///etc/passwd", "no host name"),
    ("", "empty URL"),
]


class TestDomains:
    """URL-kind arguments name hosts on the allowlist (or their subdomains)."""

    @pytest.mark.parametrize(("url", "needle"), URLS)
    def test_allowlist(self, url: str, needle: str | None) -> None:
        result = check(sized(), "fetch_page", url=url)
        if needle is None:
            assert LayerStatus.PASS == result.status, result.errors
        else:
            assert LayerStatus.FAIL == result.status
            assert result.errors[0].startswith("$.url: ")
            assert needle in result.errors[0]
            assert "(rule allowed_domains" in result.errors[0]

    def test_nested_url_and_the_fix(self) -> None:
        result = check(sized(), "fetch_page", options={"callback_url": "https://evil.io/cb"})
        assert result.errors[0].startswith("$.options.callback_url: host 'evil.io'")
        assert "add it to x-qgs.allowed_domains of 'fetch_page'" in (result.suggestion or "")

    def test_star_lifts_a_registry_default(self) -> None:
        layer = sized(defaults=BusinessRules(allowed_domains=("example.com",)))
        assert LayerStatus.PASS == check(layer, "fetch_any", url="https://evil.io/").status
        # a tool without "*" keeps the default: a whole URL in a text argument is reported
        assert LayerStatus.WARN == check(layer, "search", q="https://evil.io/").status

    def test_a_whole_url_in_any_argument_is_reported(self) -> None:
        """``scrape(site=...)``: not a url-kind name, but the value is one URL: a WARN (it may be a
        link to post, not a host to call; ``x-qgs-kind: url`` makes it a FAIL)."""
        layer = sized()
        spec = ToolSpec.define(
            "scrape",
            {"type": "object", "properties": {"site": {"type": "string"}, "notes": {}}},
            rules=BusinessRules(allowed_domains=("example.com",)),
        )
        context = CheckContext(ToolRegistry([spec]), GateSettings())

        def status(**arguments: object) -> tuple[LayerStatus, tuple[str, ...]]:
            result = layer.check(parse_call(call("scrape", **arguments)), spec, context)
            return result.status, result.errors

        result = layer.check(
            parse_call(
                call("scrape", site="https://evil.io/x", notes={"more": ["http://a.evil.io"]})
            ),
            spec,
            context,
        )
        assert LayerStatus.WARN == result.status
        assert ["$.notes.more[0]", "$.site"] == sorted(w.split(":")[0] for w in result.warnings)
        assert "x-qgs-kind: url" in result.warnings[0]
        assert LayerStatus.PASS == status(site="https://docs.example.com/a")[0]
        # a URL inside text is text: the allowlist is about what a tool fetches
        assert LayerStatus.PASS == status(site="see https://evil.io/ for details")[0]

    def test_one_layer_serves_registries_whose_tools_share_a_name(self) -> None:
        layer = sized()
        results = []
        for domain in ("example.com", "example.org", "example.com"):
            spec = ToolSpec.define("fetch", FETCH, rules=BusinessRules(allowed_domains=(domain,)))
            parsed = parse_call(call("fetch", url="https://example.org/"))
            context = CheckContext(ToolRegistry([spec]), GateSettings())
            results.append(layer.check(parsed, spec, context).status)
        assert [LayerStatus.FAIL, LayerStatus.PASS, LayerStatus.FAIL] == results

    def test_internationalized_domains_compare_as_punycode(self) -> None:
        spec = ToolSpec.define("fetch", FETCH, rules=BusinessRules(allowed_domains=("Bücher.de",)))
        parsed = parse_call(call("fetch", url="https://shop.bücher.de/"))
        context = CheckContext(ToolRegistry([spec]), GateSettings())
        assert LayerStatus.PASS == sized().check(parsed, spec, context).status
        assert ("xn--bcher-kva.de", None) == url_host("bücher.de")


class Recorder:
    """A limiter that records its keys and allows everything (or raises)."""

    def __init__(self, error: Exception | None = None) -> None:
        self.keys: list[str] = []
        self.error = error

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        if self.error is not None:
            raise self.error
        self.keys.append(key)
        return RateDecision(allowed=True, used=1, limit=limit)


class TestRateLimit:
    """At most max_calls per window per (agent, tool); refusals say when to retry."""

    def test_third_call_is_refused_with_retry_after(self) -> None:
        clock = FakeClock()
        layer = RulesLayer(LocalRateLimiter(clock))
        first = [check(layer, "send_sms", text="hi").status for _ in range(2)]
        clock.now += 3.5
        refused = check(layer, "send_sms", text="hi")
        assert [LayerStatus.PASS, LayerStatus.PASS] == first
        assert (
            "function.name: agent 'bot' reached the rate limit of tool 'send_sms': 2 of 2 calls "
            "in the last 10 s (rule rate_limit); retry after 6.5 s"
        ) == refused.errors[0]
        assert "retry after 6.5 s, or raise x-qgs.rate_limit of 'send_sms'" == refused.suggestion
        clock.now += 6.5
        assert LayerStatus.PASS == check(layer, "send_sms", text="hi").status

    def test_a_default_limit_says_where_it_comes_from(self) -> None:
        layer = RulesLayer(
            LocalRateLimiter(FakeClock()), defaults=BusinessRules(rate_limit=RateLimit(1, 60))
        )
        check(layer, "search", q="a")
        refused = check(layer, "search", q="b")
        assert LayerStatus.FAIL == refused.status
        assert "QGS_TOOLGATE__RATE_LIMIT_CALLS" in (refused.suggestion or "")

    def test_budgets_are_per_agent_and_tool(self) -> None:
        layer = RulesLayer(LocalRateLimiter(FakeClock()))
        for _ in range(2):
            check(layer, "send_sms", text="hi", agent_id="a")
        assert LayerStatus.FAIL == check(layer, "send_sms", agent_id="a").status
        assert LayerStatus.PASS == check(layer, "send_sms", agent_id="b").status

    def test_key_is_principal_and_agent(self) -> None:
        recorder = Recorder()
        layer = RulesLayer(recorder)
        parsed = parse_call(call("send_sms", text="hi"))
        spec = REGISTRY.get("send_sms")
        cases = [("alice", "bot-7"), ("alice", None), (None, "bot-7"), (None, None)]
        cases += [("a/b", "c"), ("a", "b/c"), ("x:y", "z")]
        for principal, agent in cases:
            layer.check(parsed, spec, CheckContext(REGISTRY, GateSettings(), principal, agent))
        assert [
            "toolgate:alice/bot-7:send_sms",
            "toolgate:alice/-:send_sms",
            "toolgate:-/bot-7:send_sms",
            "toolgate:anonymous:send_sms",
            "toolgate:a%2Fb/c:send_sms",
            "toolgate:a/b%2Fc:send_sms",
            "toolgate:x%3Ay/z:send_sms",
        ] == recorder.keys

    def test_another_principal_naming_my_agent_uses_its_own_budget(self) -> None:
        # Break test of issue 13: bob checking calls with agent="alice-bot" spent alice's budget.
        layer = RulesLayer(LocalRateLimiter(FakeClock()))
        for _ in range(3):
            check(layer, "send_sms", text="hi", agent_id="alice-bot", principal="bob")
        assert LayerStatus.PASS == (
            check(layer, "send_sms", text="hi", agent_id="alice-bot", principal="alice").status
        )

    def test_a_call_refused_by_another_rule_uses_no_budget(self) -> None:
        recorder = Recorder()
        spec = ToolSpec.define(
            "fetch",
            FETCH,
            rules=BusinessRules(rate_limit=RateLimit(1, 1.0), allowed_domains=("example.com",)),
        )
        parsed = parse_call(call("fetch", url="https://evil.io/"))
        RulesLayer(recorder).check(parsed, spec, CheckContext(ToolRegistry([spec]), GateSettings()))
        assert [] == recorder.keys

    def test_limiter_down_fails_open_or_closed(self) -> None:
        down = Recorder(ConnectionError("Redis at 127.0.0.1:6379 refused"))
        opened = check(RulesLayer(down), "send_sms", text="hi")
        closed = check(RulesLayer(down, fail_open=False), "send_sms", text="hi")
        assert LayerStatus.WARN == opened.status
        assert "ConnectionError: Redis at 127.0.0.1:6379 refused" in opened.warnings[0]
        assert LayerStatus.FAIL == closed.status
        assert "the call is refused" in closed.errors[0]

    def test_without_a_limiter_it_warns(self) -> None:
        result = check(RulesLayer(), "send_sms", text="hi")
        assert "not enforced (no rate limiter" in result.warnings[0]

    @pytest.mark.parametrize(("calls", "window_s"), [(0, 1.0), (1, 0.0), (1, -1.0)])
    def test_bad_limits_are_refused_at_load(self, calls: int, window_s: float) -> None:
        with pytest.raises(ToolDefinitionError, match="max_calls >= 1 and window_s > 0"):
            RateLimit(calls, window_s)

    def test_x_qgs_options_reach_the_layer(self) -> None:
        tool = {
            "type": "function",
            "function": {"name": "send_sms", "parameters": {"type": "object", "properties": {}}},
            "x-qgs": {"rate_limit": {"max_calls": 1, "window_s": 60}},
        }
        gate = ToolGate(
            ToolRegistry.from_openai([tool]),
            layers=(*DEFAULT_LAYERS, RulesLayer(LocalRateLimiter())),
        )
        reports = [gate.check(call("send_sms"), agent_id="bot") for _ in range(2)]
        assert [None, 4] == [r.stopped_at for r in reports]


class TestSettings:
    """QGS_TOOLGATE__* become the registry-wide defaults; build_gate puts layers 1-5 together."""

    def test_defaults_from_settings(self) -> None:
        settings = Settings(
            toolgate=ToolGateSettings(
                rate_limit_calls=30, max_file_bytes=1024, allowed_domains=("example.com",)
            )
        )
        assert BusinessRules(RateLimit(30, 60.0), 1024, ("example.com",)) == default_rules(settings)
        assert BusinessRules() == default_rules(Settings())

    def test_build_gate(self) -> None:
        gate = build_gate(Settings(), REGISTRY)
        report = gate.check(call("search", q="x"), agent_id="bot")
        assert [1, 2, 3, 4, 5, 6] == [r.number for r in report.layers]
        assert report.allowed and "no policy configured" in report.warnings[0]


def percentiles(samples: list[int]) -> tuple[float, float]:
    samples.sort()
    return samples[len(samples) // 2] / 1000, samples[len(samples) * 99 // 100] / 1000


class TestTiming:
    """What layers 4 and 5 cost on the BFCL valid calls (printed, not asserted)."""

    def test_p50_of_layers_4_and_5(self, corpus: Path) -> None:
        path = corpus / "a_bfcl_tool_calls_valid.jsonl"
        if not path.exists():
            pytest.skip(f"corpus file {path} is absent")
        defaults = BusinessRules(
            rate_limit=RateLimit(1_000, 60.0),
            max_file_bytes=1_000_000,
            allowed_domains=("example.com", "github.com", "weather.com"),
        )
        rules = RulesLayer(LocalRateLimiter(), defaults=defaults, file_size=stat_file_size)
        bare_rules = RulesLayer()
        policy = Policy(
            [
                Role("reader", ("get_*", "*search*"), frozenset({Permission.READ})),
                Role("agent", ("*",), frozenset(Permission)),
            ],
            {"bfcl": ("reader", "agent")},
        )
        permission = PermissionLayer(policy)
        cases = []
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            registry = ToolRegistry.from_openai(record["tools"])
            gate = ToolGate(registry, layers=(*DEFAULT_LAYERS, rules, permission))
            for raw in record["assistant_message"]["tool_calls"]:
                parsed = parse_call(raw)
                spec = registry.get(parsed.name or "")
                context = CheckContext(registry, GateSettings(), "bfcl", "a1")
                cases.append((parsed, spec, context, gate, raw))

        def measure(layer: Any, rounds: int = 50) -> tuple[float, float, Counter[str]]:
            samples: list[int] = []
            statuses: Counter[str] = Counter()
            for _ in range(rounds):
                for parsed, spec, context, _, _ in cases:
                    start = time.perf_counter_ns()
                    result = layer.check(parsed, spec, context)
                    samples.append(time.perf_counter_ns() - start)
                    statuses[result.status.value] += 1
            return (*percentiles(samples), statuses)

        figures: dict[str, tuple[float, float, Counter[str]]] = {
            "layer 4, no rules": measure(bare_rules),
            "layer 4, all three rules (no-op limiter)": measure(
                RulesLayer(Recorder(), defaults=defaults, file_size=stat_file_size)
            ),
            "layer 4, all three rules (local limiter)": measure(rules),
            "layer 5, policy with globs": measure(permission),
        }
        gate_samples: list[int] = []
        for _ in range(50):
            for *_, gate, raw in cases:
                report = gate.check(raw, principal="bfcl", agent_id="a2")
                gate_samples.append(int(report.latency_us * 1000))
        figures["layers 1-5 (gate.check, parse included)"] = (
            *percentiles(gate_samples),
            Counter(),
        )
        print(f"\n{len(cases)} BFCL calls x 50")
        for label, (p50, p99, statuses) in figures.items():
            print(f"{label:44} p50 {p50:6.2f} us  p99 {p99:6.2f} us  {dict(statuses)}")


def test_git_scp_like_urls_name_their_host() -> None:
    from qgs_worker.core.toolgate.layer4_rules import url_host

    assert ("github.com", None) == url_host("git@github.com:zelarhq/nodejs-welcome.git")
    assert ("github.com", None) == url_host("ssh://git@github.com/org/repo.git")
