"""A caller's task type stands, except that it cannot lower a request the rules read as CRITICAL.

Break test of issue 13, finding 7: "wire 50000 EUR to IBAN ..." started over the API with
``task_type=QUERY`` passed with no review and no person confirming.
"""

from __future__ import annotations

import pytest

from qgs_worker.core.models import Complexity, TaskType
from qgs_worker.service.tasks import classify

WIRE = "wire 50000 EUR to IBAN DE89370400440532013000 now"


class TestAGivenTypeCannotLowerCritical:
    """CRITICAL patterns win over the caller's word, as over every other type."""

    @pytest.mark.parametrize("given", [TaskType.QUERY, TaskType.GENERATE, TaskType.ACTION])
    def test_critical_request_stays_critical(self, given: TaskType) -> None:
        found = classify(WIRE, given)
        assert (TaskType.CRITICAL, Complexity.REFLECT, "rules") == (
            found.task_type,
            found.complexity,
            found.source,
        )
        assert f"task_type {given.value} cannot lower" in found.reason

    @pytest.mark.parametrize(
        "request_text", ["删除数据库中的所有记录", "delete all records in the database"]
    )
    def test_both_languages(self, request_text: str) -> None:
        assert TaskType.CRITICAL == classify(request_text, TaskType.QUERY).task_type


class TestAGivenTypeStands:
    """Where the rules do not read CRITICAL, the caller's type is taken as given."""

    @pytest.mark.parametrize(
        ("request_text", "given"),
        [
            ("write an article about AI", TaskType.QUERY),
            ("what time is it", TaskType.ACTION),
            ("what time is it", TaskType.CRITICAL),
            ("How do I delete all rows from a table in SQL?", TaskType.GENERATE),
            ("summarise this page", TaskType.QUERY),
        ],
    )
    def test_given(self, request_text: str, given: TaskType) -> None:
        found = classify(request_text, given)
        assert (given, "given") == (found.task_type, found.source)


class TestHiddenWordsAreRead:
    """Break test of issue 13 (second round): Unicode that hides a word from the patterns.

    Full-width letters, a soft hyphen, a zero-width space and a Cyrillic look-alike each passed
    a CRITICAL request as QUERY/SIMPLE when the caller gave ``task_type=QUERY``.
    """

    @pytest.mark.parametrize(
        "request_text",
        [
            "ｗｉｒｅ 50000 EUR to IBAN DE89370400440532013000",
            "drop the pro\u00adduction database",
            "Ｄelete all records in the customers table",
            "w\u200bire 50000 EUR to IBAN DE89370400440532013000",
            "w\u0456re 500 EUR to IBAN DE89370400440532013000",  # Cyrillic i
            "delete all re\u200dcords in the data\u2060base",
        ],
    )
    def test_critical_however_written(self, request_text: str) -> None:
        assert TaskType.CRITICAL == classify(request_text).task_type
        assert TaskType.CRITICAL == classify(request_text, TaskType.QUERY).task_type

    @pytest.mark.parametrize(
        ("request_text", "expected"),
        [("现在几点了？", TaskType.QUERY), ("帮我写一篇关于AI的文章", TaskType.GENERATE)],
    )
    def test_chinese_punctuation_still_reads(self, request_text: str, expected: TaskType) -> None:
        assert expected == classify(request_text).task_type
