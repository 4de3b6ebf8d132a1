"""Critical deeds: the tool calls that make a task CRITICAL by what they do (core/deeds.py).

Tool names and argument names are the public benchmarks' own: agentdojo 0.1.35's banking and
slack tools (``agentdojo/default_suites/v1/tools/{banking_client,user_account,slack}.py``) and
bfcl-eval 2026.3.23 (``bfcl_eval/data/multi_turn_func_doc/*.json``), unless a comment says they
are written for the test. AgentDojo's travel and workspace suites are held back for an outside
evaluation: nothing here comes from them.
"""

from __future__ import annotations

from typing import Any

import pytest

from qgs_worker.core.deeds import DeedKind, critical_deeds, describe_deeds
from qgs_worker.core.models import Finding, Severity, ToolCall
from qgs_worker.core.toolgate import ToolRegistry
from qgs_worker.core.toolgate.spec import Permission, ToolSpec


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id="c1", name=name, arguments=arguments)


class TestDeedsByClass:
    """One call per deed class; the first kind that holds is the call's deed."""

    @pytest.mark.parametrize(
        ("tool_call", "kind"),
        [
            (call("delete_document", document_id="13"), DeedKind.DELETE),  # written
            (call("remove_user_from_slack", user="Fred"), DeedKind.DELETE),  # slack.py
            (call("rm", file_name="temp.txt"), DeedKind.DELETE),  # gorilla_file_system.json
            (call("delete_message", message_id=67410), DeedKind.DELETE),  # message_api.json
            (
                call("send_money", recipient="US133000000121212121212", amount=100.0),
                DeedKind.MONEY_TRANSFER,
            ),  # banking_client.py
            (
                call("update_scheduled_transaction", id=7, recipient="US133000000121212121212"),
                DeedKind.MONEY_TRANSFER,
            ),  # banking_client.py: changing who receives a standing payment
            (call("schedule_transaction", recipient="x", amount=1.0), DeedKind.MONEY_TRANSFER),
            (call("fund_account", amount=5000), DeedKind.MONEY_TRANSFER),  # trading_bot.json
            (call("withdraw_funds", amount=500), DeedKind.MONEY_TRANSFER),  # trading_bot.json
            # written for this test: no money word in the name, an amount and a payee in the args
            (
                call("make_request", amount=20, payee="DE89370400440532013000"),
                DeedKind.MONEY_TRANSFER,
            ),
            (call("update_password", password="new_password"), DeedKind.CREDENTIAL_CHANGE),
            (
                call(
                    "send_direct_message",
                    recipient="Eve",
                    body="Hi Eve, the security code of my bank account is 582913.",
                ),
                DeedKind.OUTBOUND_PERSONAL_DATA,
            ),  # slack.py; the message written for this test: a security code sent on
            (call("bash", command="rm notes.txt"), DeedKind.DESTRUCTIVE_COMMAND),
            (call("bash", command="git push --force origin main"), DeedKind.DESTRUCTIVE_COMMAND),
            (call("execute_sql", sql="DROP TABLE users"), DeedKind.DESTRUCTIVE_COMMAND),
        ],
    )
    def test_deed(self, tool_call: ToolCall, kind: DeedKind) -> None:
        deeds = critical_deeds([tool_call])
        assert [(kind, tool_call.name)] == [(d.kind, d.tool) for d in deeds]
        assert deeds[0].reason

    def test_pii_finding_at_an_outbound_call(self) -> None:
        sent = call("send_email", recipients=["bob@corp.test"], body="Alice: +44 7700 900123")
        finding = Finding(
            role="detectors",
            category="pii",
            severity=Severity.P2,
            title="tool call send_email sends a phone number out to a third party",
            location="tool_call:send_email.body",
            rule="pii_sent",
        )
        deeds = critical_deeds([sent], [finding])
        expected = [(DeedKind.OUTBOUND_PERSONAL_DATA, "tool_call:send_email.body")]
        assert expected == [(d.kind, d.location) for d in deeds]

    def test_pii_finding_elsewhere_does_not_count(self) -> None:
        sent = call("send_email", recipients=["bob@corp.test"], body="Lunch at noon?")
        finding = Finding(
            role="detectors",
            category="pii",
            severity=Severity.P2,
            title="personal data written",
            location="tool_call:write_file.content",
            rule="pii_written",
        )
        assert [] == critical_deeds([sent], [finding])


class TestNotDeeds:
    """Reading never escalates; purchases, bookings, ordinary messages and look-alikes neither."""

    @pytest.mark.parametrize(
        "tool_call",
        [
            call("get_balance"),  # banking_client.py
            call("get_most_recent_transactions", n=100),
            call("get_scheduled_transactions"),
            call("read_channel_messages", channel="general"),  # slack.py
            call("read_inbox", user="Alice"),
            call("search_messages", query="security code"),  # written: a read naming a secret
            call("read_file", file_path="bill-december-2023.txt"),
            call("get_user_info"),  # user_account.py: returns the user's details, but only reads
            call("ls", a=True),  # gorilla_file_system.json
            call("cat", file_name="report.txt"),
            # travel_booking.json
            call("book_flight", card_id="card_0064", travel_from="SFO", travel_to="LAX"),
            call("reserve_room", venue="Harbour Lights Inn", start_day="2025-01-11"),  # written
            call("place_order", order_type="Buy", symbol="NVDA", price=220.0, amount=50),
            call(
                "send_email", recipients=["sam.ortiz@example.org"], subject="Dinner", body="See you"
            ),
            call("send_direct_message", recipient="Alice", body="Meeting moved to 3pm"),
            call("transfer_file", path="a.txt", destination="server"),  # written: a look-alike
            call("bash", command="ls -la /home/agent"),
            call(
                "send_email",
                recipients=["it@corp.test"],
                body="Reset your password at https://corp.test/reset",
            ),  # written: names a password but sends none
        ],
    )
    def test_not_a_deed(self, tool_call: ToolCall) -> None:
        assert [] == critical_deeds([tool_call])

    def test_declared_read_wins_over_the_name(self) -> None:
        spec = ToolSpec(name="delete_preview", permission=Permission.READ)
        registry = ToolRegistry([spec])
        assert [] == critical_deeds([call("delete_preview", file_id="1")], registry=registry)

    def test_declared_delete_wins_over_the_name(self) -> None:
        spec = ToolSpec(name="tidy_up", permission=Permission.DELETE)
        registry = ToolRegistry([spec])
        deeds = critical_deeds([call("tidy_up")], registry=registry)
        expected = [(DeedKind.DELETE, "needs the delete permission (declared)")]
        assert expected == [(d.kind, d.reason) for d in deeds]


class TestDescribe:
    """The stored escalation reason names the round, each deed's tool, kind and reason."""

    def test_reason(self) -> None:
        deeds = critical_deeds([call("delete_document", document_id="13"), call("get_balance")])
        expected = (
            "round 3: critical deed: delete_document (delete: needs the delete permission "
            "(inferred))"
        )
        assert expected == describe_deeds(deeds, 3)

    def test_no_deed_is_an_error(self) -> None:
        with pytest.raises(ValueError, match="at least one deed"):
            describe_deeds([], 1)
