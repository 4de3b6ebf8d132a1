"""The policy decision point, its file, layer 5, and the review pipeline asking the same policy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.config.policy_file import load_pdp, load_policy, parse_policy
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import (
    CadencePolicy,
    Deliverable,
    GatePolicy,
    Severity,
    TaskType,
    ToolCall,
)
from qgs_worker.core.policy import Policy, PolicyDecision, Role, permission_findings
from qgs_worker.core.ports import PolicyDecisionPoint
from qgs_worker.core.toolgate import (
    DEFAULT_LAYERS,
    LayerStatus,
    Permission,
    PermissionLayer,
    ToolGate,
    ToolRegistry,
    ToolSpec,
)
from qgs_worker.errors import ConfigurationError
from qgs_worker.queue import pipeline
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository

R, W, D, X = Permission.READ, Permission.WRITE, Permission.DELETE, Permission.EXECUTE
PAYEES = ("GB29NWBK60161331926819", "Spotify")

POLICY_TOML = """
default_roles = ["guest"]

[principals]
banker = ["reader", "teller"]
ops = ["admin"]
nobody = []

[roles.guest]
tools = ["get_time"]
permissions = ["read"]

[roles.reader]
tools = ["get_*", "read_file"]
permissions = ["read"]

[roles.teller]
tools = ["send_money", "*_transaction", "update_password"]
permissions = ["write"]

[roles.teller.arguments.send_money]
recipient = "payees"
"options.currency" = ["EUR", "USD"]

[roles.teller.arguments."*_transaction"]
recipient = "payees"

[roles.admin]
tools = ["*"]
permissions = ["read", "write", "delete", "execute"]
deny_tools = ["drop_*"]

[roles.admin.arguments.resize]
replicas = [1, 2, 3]
force = [false]
"tags[]" = ["blue", "green"]

[sets]
payees = ["GB29NWBK60161331926819", "Spotify"]
"""


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Policy:
    path = tmp_path_factory.mktemp("policy") / "policy.toml"
    path.write_text(POLICY_TOML, encoding="utf-8")
    return load_policy(path)


DECISIONS: list[tuple[str | None, str, Permission, dict[str, Any], bool, str]] = [
    # principal, tool, permission, arguments, allowed, rule (or a needle of it)
    ("banker", "get_balance", R, {}, True, "roles.reader.tools"),
    ("banker", "send_money", W, {"recipient": "Spotify"}, True, "roles.teller.arguments"),
    ("banker", "send_money", W, {"recipient": "US133"}, False, "send_money.recipient"),
    ("banker", "send_money", W, {"recipient": "spotify"}, False, "send_money.recipient"),
    ("banker", "send_money", W, {"amount": 1}, True, "roles.teller.arguments"),  # absent
    (
        "banker",
        "send_money",
        W,
        {"recipient": "Spotify", "options": {"currency": "BTC"}},
        False,
        "send_money.options.currency",
    ),
    ("banker", "schedule_transaction", W, {"recipient": "US133"}, False, "*_transaction"),
    ("banker", "update_scheduled_transaction", W, {"id": 7}, True, "roles.teller.arguments"),
    ("banker", "update_password", W, {"password": "x"}, True, "roles.teller.tools"),
    ("banker", "get_balance", W, {}, False, "roles.reader.permissions"),
    ("banker", "delete_file", D, {}, False, "roles.reader|teller.tools"),
    ("ops", "restart_service", X, {}, True, "roles.admin.tools"),
    ("ops", "drop_table", D, {}, False, "roles.admin.deny_tools"),
    ("ops", "resize", W, {"replicas": 2.0, "force": False}, True, "roles.admin.arguments"),
    ("ops", "resize", W, {"replicas": True}, False, "resize.replicas"),  # true is not 1
    ("ops", "resize", W, {"force": 0}, False, "resize.force"),
    ("ops", "resize", W, {"tags": ["blue", "red"]}, False, "resize.tags[]"),
    ("ops", "resize", W, {"replicas": [1, 7]}, False, "resize.replicas"),  # every item
    ("ops", "resize", W, {"replicas": [1, 3]}, True, "roles.admin.arguments"),
    ("stranger", "get_time", R, {}, True, "roles.guest.tools"),
    (None, "get_time", R, {}, True, "roles.guest.tools"),
    ("stranger", "get_balance", R, {}, False, "roles.guest.tools"),
    ("nobody", "get_time", R, {}, False, "principals.nobody"),  # named with no roles: none
]


class TestDecide:
    """Roles grant tools and permissions; deny wins; argument values are pinned."""

    @pytest.mark.parametrize(
        ("principal", "tool", "permission", "arguments", "allowed", "rule"), DECISIONS
    )
    def test_decisions(
        self,
        policy: Policy,
        principal: str | None,
        tool: str,
        permission: Permission,
        arguments: dict[str, Any],
        allowed: bool,
        rule: str,
    ) -> None:
        decision = policy.decide(principal, tool, permission, arguments)
        assert (allowed, True) == (decision.allowed, rule in decision.rule), decision

    def test_a_denied_argument_names_the_values_the_path_and_the_fix(self, policy: Policy) -> None:
        decision = policy.decide("banker", "send_money", W, {"recipient": "US133"})
        assert (
            PolicyDecision(
                allowed=False,
                reason=(
                    "role 'teller' of 'banker' allows send_money.recipient only to be one of "
                    "'GB29NWBK60161331926819', 'Spotify' (got 'US133')"
                ),
                rule="roles.teller.arguments.send_money.recipient",
                fix=(f"if 'US133' is legitimate, add it to [sets] payees in {policy.source}"),
                argument="$.recipient",
            )
            == decision
        )

    def test_an_array_argument_needs_every_item_allowed(self, policy: Policy) -> None:
        ok = policy.decide("banker", "send_money", W, {"recipient": ["Spotify"]})
        assert ok.allowed
        denied = policy.decide("banker", "send_money", W, {"recipient": ["Spotify", "US133"]})
        assert not denied.allowed
        assert "(got 'US133' in ['Spotify', 'US133'])" in denied.reason
        assert denied.fix.startswith("if 'US133' is legitimate, add it to [sets] payees in")

    def test_a_list_constraint_names_its_rule_in_the_fix(self, policy: Policy) -> None:
        denied = policy.decide("banker", "send_money", W, {"options": {"currency": "JPY"}})
        assert not denied.allowed
        assert "add it to roles.teller.arguments.send_money.options.currency in" in denied.fix

    def test_an_unknown_principal_without_default_roles_may_do_nothing(self) -> None:
        decision = Policy([Role("r", ("*",), frozenset(Permission))], {"a": ("r",)}).decide(
            "mallory", "get_time", R
        )
        assert not decision.allowed
        assert "'mallory' is not in the policy" in decision.reason
        assert "add 'mallory' under [principals]" in decision.fix

    def test_one_unconstrained_role_is_enough(self) -> None:
        policy = Policy(
            [
                Role("teller", ("send_money",), frozenset({W}), arguments={"*": {"to": ("a",)}}),
                Role("treasurer", ("send_money",), frozenset({W})),
            ],
            {"boss": ("teller", "treasurer"), "clerk": ("teller",)},
        )
        assert policy.decide("boss", "send_money", W, {"to": "b"}).allowed
        assert not policy.decide("clerk", "send_money", W, {"to": "b"}).allowed

    def test_decisions_are_cached_per_principal_tool_and_permission(self, policy: Policy) -> None:
        first = policy.decide("ops", "restart_service", X)
        assert first is policy.decide("ops", "restart_service", X, {"x": 1})

    def test_policy_is_a_pdp(self, policy: Policy) -> None:
        assert isinstance(policy, PolicyDecisionPoint)


BAD_FILES: list[tuple[str, str]] = [
    ("rolez = {}\n", "(top level): unknown key 'rolez' (known keys: default_roles, principals"),
    ('[roles.a]\ntools = ["x"]\ndeny_tool = ["y"]\n', "roles.a: unknown key 'deny_tool'"),
    ('[roles.a]\npermissions = ["admin"]\n', "roles.a.permissions: unknown permission 'admin'"),
    ('[roles.a]\ntools = "x"\n', "roles.a.tools must be a list of non-empty strings"),
    ('[principals]\nbob = ["ghost"]\n', "principals.bob names role 'ghost', which is not defined"),
    ('default_roles = ["ghost"]\n', "default_roles names role 'ghost'"),
    ('[roles.a.arguments.t]\nx = "nope"\n', "roles.a.arguments.t.x: names the set 'nope'"),
    ("[roles.a.arguments.t]\nx = [{a = 1}]\n", "must be a list of strings, numbers or booleans"),
    ('[roles.a.arguments.t]\n"a..b" = [1]\n', "roles.a.arguments.t: bad argument path 'a..b'"),
    ("roles = [1]\n", "roles must be a table (an object in JSON) (got a list)"),
    ("[roles\n", "not valid TOML"),
]


class TestPolicyFile:
    """TOML and JSON say the same; every mistake names the file, the key and the fix."""

    def test_json_reads_like_toml(self, tmp_path: Path, policy: Policy) -> None:
        import tomllib

        path = tmp_path / "policy.json"
        path.write_text(json.dumps(tomllib.loads(POLICY_TOML)), encoding="utf-8")
        from_json = load_policy(path)
        assert [policy.decide(p, t, perm, a).allowed for p, t, perm, a, _, _ in DECISIONS] == [
            from_json.decide(p, t, perm, a).allowed for p, t, perm, a, _, _ in DECISIONS
        ]

    @pytest.mark.parametrize(("text", "needle"), BAD_FILES)
    def test_mistakes(self, tmp_path: Path, text: str, needle: str) -> None:
        path = tmp_path / "policy.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigurationError) as info:
            load_policy(path)
        assert str(info.value).startswith(f"{path}: ") or f"policy file {path}" in str(info.value)
        assert needle in str(info.value)

    def test_missing_file_names_the_setting(self, tmp_path: Path) -> None:
        with pytest.raises(ConfigurationError, match=r"\(QGS_POLICY_FILE\) cannot be read"):
            load_pdp(Settings(policy_file=tmp_path / "nope.toml"))

    def test_load_pdp(self, tmp_path: Path) -> None:
        path = tmp_path / "p.toml"
        path.write_text(POLICY_TOML, encoding="utf-8")
        assert load_pdp(Settings()) is None
        assert isinstance(load_pdp(Settings(policy_file=path)), Policy)

    def test_the_module_example_is_a_valid_policy(self) -> None:
        import tomllib

        from qgs_worker.config import policy_file
        doc = policy_file.__doc__ or ""
        example = doc.split("::\n", 1)[1].split("\nArgument paths", 1)[0]
        policy = parse_policy(tomllib.loads(example.replace("\n    ", "\n")))
        assert policy.decide("banking-agent", "send_money", W, {"recipient": "Apple"}).allowed
        assert not policy.decide("banking-agent", "send_money", W, {"recipient": "X"}).allowed


SEND = {
    "type": "object",
    "properties": {"recipient": {"type": "string"}, "amount": {"type": "number"}},
}
REGISTRY = ToolRegistry([ToolSpec.define("send_money", SEND), ToolSpec.define("get_balance")])


def openai(name: str, **arguments: Any) -> dict[str, Any]:
    return {
        "id": "call_1",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


class TestPermissionLayer:
    """Layer 5 asks the policy; a denial names the argument, the rule and the fix."""

    def test_denied_argument(self, policy: Policy) -> None:
        gate = ToolGate(REGISTRY, layers=(*DEFAULT_LAYERS, PermissionLayer(policy)))
        report = gate.check(openai("send_money", recipient="US133", amount=5), principal="banker")
        assert (False, 5) == (report.allowed, report.stopped_at)
        assert report.errors[0].startswith("$.recipient: role 'teller' of 'banker' allows")
        assert report.errors[0].endswith("(rule roles.teller.arguments.send_money.recipient)")
        assert (report.suggestion or "").startswith("if 'US133' is legitimate")

    def test_principal_falls_back_to_the_agent(self, policy: Policy) -> None:
        gate = ToolGate(REGISTRY, layers=(*DEFAULT_LAYERS, PermissionLayer(policy)))
        assert gate.check(openai("get_balance"), agent_id="banker").allowed
        report = gate.check(openai("send_money", recipient="Spotify"), agent_id="stranger")
        assert report.errors[0].startswith("function.name: no role of 'stranger' (guest)")

    def test_no_policy_passes_with_a_warning(self) -> None:
        gate = ToolGate(REGISTRY, layers=(*DEFAULT_LAYERS, PermissionLayer(None)))
        report = gate.check(openai("send_money", recipient="anyone"))
        assert (True, LayerStatus.WARN) == (report.allowed, report.layers[-1].status)
        assert "no policy configured" in report.warnings[0]


class TestReviewPipeline:
    """The review pipeline asks the same policy about ACTION/CRITICAL rounds' tool calls."""

    @staticmethod
    def submit(
        repo: Repository,
        policy: Policy | None,
        task_type: TaskType,
        *calls: ToolCall,
        request: str = "Pay the bill",
    ) -> int:
        policies = pipeline.Policies(GatePolicy(), CadencePolicy(), pdp=policy, tools=REGISTRY)
        submission = Submission(
            submission_id=f"s-{task_type.value}",
            task_id=f"t-{task_type.value}",
            round_number=1,
            deliverable=Deliverable(text="Paid the bill.", tool_calls=calls),
            task=NewTask(request=request, agent="banker", task_type=task_type),
        )
        pipeline.intake(repo, submission, policies)  # None when nothing is due: decided at once
        round_id = repo.get_round_by_submission(submission.submission_id).id
        assert round_id is not None
        return round_id

    def test_a_denied_call_is_a_p1_finding_and_escalates(self, policy: Policy) -> None:
        repo = Repository("sqlite://")
        calls = (
            ToolCall(id="1", name="send_money", arguments={"recipient": "Spotify", "amount": 5}),
            ToolCall(id="2", name="send_money", arguments={"recipient": "US133", "amount": 5}),
        )
        round_id = self.submit(repo, policy, TaskType.ACTION, *calls)
        found = [f for f in repo.findings_model(round_id) if f.role == "permission"]
        assert 1 == len(found)
        assert ("permission_denied", Severity.P1, "tool_call:send_money.recipient") == (
            found[0].category,
            found[0].severity,
            found[0].location,
        )
        assert found[0].title.startswith("'banker' may not call 'send_money' (write): role")
        assert TaskType.CRITICAL == repo.get_task("t-ACTION").task_type

    @pytest.mark.parametrize(
        ("policy_on", "task_type", "call"),
        [
            (
                False,
                TaskType.ACTION,
                ToolCall(id="1", name="send_money", arguments={"recipient": "US133"}),
            ),
            # a call the policy denies the banker, and no critical deed (core/deeds.py)
            (True, TaskType.GENERATE, ToolCall(id="1", name="restart_service")),
        ],
    )
    def test_not_checked(
        self, policy: Policy, policy_on: bool, task_type: TaskType, call: ToolCall
    ) -> None:
        repo = Repository("sqlite://")
        # Not "Pay the bill": a given type cannot lower a request the rules read as CRITICAL.
        request = "Write the service's release notes"
        round_id = self.submit(
            repo, policy if policy_on else None, task_type, call, request=request
        )
        assert [] == [f for f in repo.findings_model(round_id) if f.role == "permission"]

    def test_a_critical_deed_is_checked_in_any_task(self, policy: Policy) -> None:
        repo = Repository("sqlite://")
        call = ToolCall(id="1", name="send_money", arguments={"recipient": "US133"})
        round_id = self.submit(repo, policy, TaskType.GENERATE, call)
        found = [f for f in repo.findings_model(round_id) if f.role == "permission"]
        assert ["permission_denied"] == [f.category for f in found]
        assert TaskType.CRITICAL == repo.get_task("t-GENERATE").task_type

    def test_permission_without_a_registry_is_inferred(self, policy: Policy) -> None:
        calls = [
            ToolCall(name="get_balance"),  # read: allowed to the reader
            ToolCall(name="delete_file", arguments={"path": "/x"}),  # delete: no role has it
            ToolCall(name="do_it", arguments={"cmd": "ls"}),  # a command argument: execute
        ]
        found = permission_findings(policy, calls, "banker")
        assert ["(delete)", "(execute)"] == [f.title.split()[5].rstrip(":") for f in found]
