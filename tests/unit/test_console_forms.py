"""The console's form and time helpers: a spot-check label's fields, times as ``<time>``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import ClassVar

import pytest

from qgs_worker.api.console.render import stamp
from qgs_worker.api.console.spot_check_page import known_rules, label_fields
from qgs_worker.errors import InputError


class TestLabelFields:
    """A missed rule joins the severities; half a missed rule, or one that fired, is refused."""

    BASE: ClassVar[dict[str, str]] = {
        "decision_correct": "no",
        "verdict": "FAIL",
        "note": "n",
        "sev.sql_drop": "none",
    }

    def test_a_missed_rule_joins_the_severities(self) -> None:
        fields = {**self.BASE, "missed_rule": " pii_card ", "missed_severity": "P1"}
        assert (False, "FAIL", {"sql_drop": "none", "pii_card": "P1"}, "n") == label_fields(fields)

    def test_no_missed_rule_changes_nothing(self) -> None:
        fields = {**self.BASE, "missed_rule": "", "missed_severity": ""}
        assert {"sql_drop": "none"} == label_fields(fields)[2]

    @pytest.mark.parametrize(
        ("missed", "message"),
        [
            ({"missed_rule": "pii_card"}, "'missed_severity' must be one of P0, P1"),
            ({"missed_rule": "pii_card", "missed_severity": "none"}, "'missed_severity'"),
            ({"missed_severity": "P2"}, "'missed_rule' is empty"),
            ({"missed_rule": "sql_drop", "missed_severity": "P0"}, "fired on this round"),
            ({"missed_rule": "x" * 129, "missed_severity": "P0"}, "1-128 characters"),
        ],
    )
    def test_refused(self, missed: dict[str, str], message: str) -> None:
        with pytest.raises(InputError, match=message):
            label_fields({**self.BASE, **missed})

    def test_the_suggestions_are_the_rules_tables_ids(self) -> None:
        rules = known_rules()
        assert "sql_drop" in rules and rules == sorted(set(rules))


class TestStamp:
    """A time is a ``<time>``: UTC text and title, ISO 8601 in ``datetime``; None is nothing."""

    def test_an_aware_time(self) -> None:
        moment = datetime(2025, 1, 31, 15, 5, 9, tzinfo=timezone(timedelta(hours=1)))
        assert (
            '<time datetime="2025-01-31T14:05:09Z" title="2025-01-31 14:05:09 UTC">'
            "2025-01-31 14:05:09 UTC</time>"
        ) == str(stamp(moment))

    def test_an_iso_string_and_a_naive_time_are_utc(self) -> None:
        expected = str(stamp(datetime(2025, 1, 31, 14, 5, 9, tzinfo=UTC)))
        assert expected == str(stamp("2025-01-31T14:05:09+00:00"))
        assert expected == str(stamp(datetime(2025, 1, 31, 14, 5, 9)))

    def test_nothing_and_not_a_time(self) -> None:
        assert "" == str(stamp(None)) == str(stamp(""))
        assert "&lt;b&gt;" == str(stamp("<b>"))
