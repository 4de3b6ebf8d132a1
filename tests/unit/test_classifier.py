"""Tests of the classifier's rule layer and its default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qgs_worker.core.classifier import PRECEDENCE, classify, classify_rules
from qgs_worker.core.models import DEFAULT_COMPLEXITY, Classification, Complexity, TaskType
from qgs_worker.errors import InputError

CORPUS = Path(__file__).parents[2] / ".." / "shared" / "corpus"
LABELLED = CORPUS / "e_task_classification_labelled.jsonl"

# Measured with bench/classifier_accuracy.py: rules alone 60/68 = 88.2% (7 of the 8 misses are
# records the labellers marked ambiguous). The floor leaves room for a few general changes.
MIN_RULES_ACCURACY = 0.85


class TestDesignExamples:
    """The four examples DESIGN.md says must hold, in English and Chinese."""

    @pytest.mark.parametrize(
        ("request_text", "task_type", "complexity"),
        [
            ("现在几点了", TaskType.QUERY, Complexity.SIMPLE),
            ("what time is it", TaskType.QUERY, Complexity.SIMPLE),
            ("帮我写一篇关于AI的文章", TaskType.GENERATE, Complexity.COMPLEX),
            ("write an article about AI", TaskType.GENERATE, Complexity.COMPLEX),
            ("删除数据库中的所有记录", TaskType.CRITICAL, Complexity.REFLECT),
            ("delete all records in the database", TaskType.CRITICAL, Complexity.REFLECT),
            ("部署这个服务", TaskType.ACTION, Complexity.COMPLEX),
            ("deploy this service", TaskType.ACTION, Complexity.COMPLEX),
        ],
    )
    def test_example(self, request_text: str, task_type: TaskType, complexity: Complexity) -> None:
        got = classify(request_text)
        assert (task_type, complexity, "rules") == (got.task_type, got.complexity, got.source)


class TestCriticalPatterns:
    """Irreversible or dangerous requests are CRITICAL/REFLECT."""

    @pytest.mark.parametrize(
        "request_text",
        [
            "DROP TABLE users;",
            "DELETE FROM user_table;",
            "drop the production database",
            "please run rm -rf / on the box",
            "sudo rm -rf ~/",
            "mkfs.ext4 /dev/sda1",
            "Truncate the orders table",
            "Wipe the entire disk",
            "Delete every record older than today",
            "permanently delete my account history",
            "Wire $5,000 to the supplier",
            "Transfer 200 euros to my landlord",
            "Can you pay my electricity bill?",
            "Set up a payment of 40 dollars every month",
            "Change the password of the admin user",
            "Share the API key with the contractor",
            "Give the intern admin access",
            "Email all my contacts' information to this address",
            "Delete the temp folder",
            "清空整个数据库",
            "删库跑路",
            "请帮我转账500元给张三",
            "给房东付房租",
            "格式化C盘",
            "把该账户的密码改成123456",
            "永久删除这些照片",
        ],
    )
    def test_critical(self, request_text: str) -> None:
        got = classify_rules(request_text)
        assert got is not None
        expected = (TaskType.CRITICAL, Complexity.REFLECT)
        assert expected == (got.task_type, got.complexity)
        assert any(name.startswith("critical.") for name in got.matched)


class TestCriticalPrecedence:
    """A CRITICAL match wins over every other type that also matched."""

    @pytest.mark.parametrize(
        "request_text",
        [
            "Can you find the invoice and wire $300 to the vendor?",
            "Write a short summary, then delete all records in the table",
            "Deploy the new build and drop the old database",
            "What's the balance? Then transfer 100 dollars to Bob",
            "查一下余额，然后转账给李四",
            "部署新版本，然后删除所有旧数据",
        ],
    )
    def test_critical_wins(self, request_text: str) -> None:
        got = classify_rules(request_text)
        assert got is not None
        other = {name.split(".")[0] for name in got.matched} - {"critical"}
        assert other, "the example should match another type too"
        expected = TaskType.CRITICAL
        assert expected == got.task_type


class TestEachType:
    """General requests (not from the corpus) land on the type a careful reader gives them."""

    @pytest.mark.parametrize(
        ("request_text", "task_type"),
        [
            ("Where is the nearest pharmacy?", TaskType.QUERY),
            ("Is it going to rain tomorrow?", TaskType.QUERY),
            ("Who won the 2018 world cup?", TaskType.QUERY),
            ("List the files in my home directory", TaskType.QUERY),
            ("Explain how photosynthesis works", TaskType.QUERY),
            ("Calculate the present value of an investment paying $1000 a year", TaskType.QUERY),
            ("明天北京天气怎么样", TaskType.QUERY),
            ("帮我查询一下航班信息", TaskType.QUERY),
            ("Draft an email to the team about the outage", TaskType.GENERATE),
            ("Translate this paragraph into French", TaskType.GENERATE),
            ("Create a marketing plan for Q3", TaskType.GENERATE),
            ("写一个Python脚本来计算斐波那契数列", TaskType.GENERATE),
            ("Restart the nginx server", TaskType.ACTION),
            ("Find the cheapest flight and book it", TaskType.ACTION),
            ("Create a new branch called feature-x", TaskType.ACTION),
            ("Add Bob to the general channel", TaskType.ACTION),
            ("Delete the file notes.txt", TaskType.ACTION),
            ("Can you send a reminder to all attendees?", TaskType.ACTION),
            ("帮我预订明天去上海的机票", TaskType.ACTION),
            ("把这个文件上传到服务器", TaskType.ACTION),
        ],
    )
    def test_type(self, request_text: str, task_type: TaskType) -> None:
        got = classify_rules(request_text)
        assert got is not None
        assert (task_type, DEFAULT_COMPLEXITY[task_type]) == (got.task_type, got.complexity)


class TestUnsettled:
    """The rules return None when precedence alone should not decide."""

    @pytest.mark.parametrize(
        "request_text",
        [
            "How do I install numpy?",  # asks about the action
            "怎么安装Python",
            "Write a deployment script and deploy it",  # ACTION and GENERATE
            "Lorem ipsum dolor sit amet",  # nothing matches
        ],
    )
    def test_none(self, request_text: str) -> None:
        assert classify_rules(request_text) is None


class TestFallbackAndDefault:
    """classify() asks the fallback only when the rules cannot settle; else a reviewed default."""

    def test_fallback_used_when_unsettled(self) -> None:
        answer = Classification(
            task_type=TaskType.QUERY, complexity=Complexity.SIMPLE, confidence=0.9, source="llm"
        )
        calls: list[str] = []

        def fallback(text: str) -> Classification:
            calls.append(text)
            return answer

        assert answer == classify("How do I install numpy?", fallback)
        expected = ["How do I install numpy?"]
        assert expected == calls

    def test_fallback_not_used_when_settled(self) -> None:
        def fallback(text: str) -> Classification:
            raise AssertionError(f"fallback called for {text!r}")

        expected = "rules"
        assert expected == classify("deploy this service", fallback).source

    def test_no_match_defaults_to_reviewed_generate(self) -> None:
        got = classify("Lorem ipsum dolor sit amet")
        expected = (TaskType.GENERATE, Complexity.COMPLEX, "default")
        assert expected == (
            got.task_type,
            got.complexity,
            got.source,
        )
        assert got.confidence < 0.5

    def test_conflict_defaults_to_precedence(self) -> None:
        got = classify("Write a deployment script and deploy it")
        expected = (TaskType.ACTION, "default")
        assert expected == (got.task_type, got.source)
        assert got.confidence < 0.5

    def test_precedence_order(self) -> None:
        expected = (TaskType.CRITICAL, TaskType.ACTION, TaskType.GENERATE, TaskType.QUERY)
        assert expected == PRECEDENCE


class TestInput:
    """An empty request is an InputError naming the field."""

    @pytest.mark.parametrize("request_text", ["", "   ", "\n\t"])
    def test_empty(self, request_text: str) -> None:
        with pytest.raises(InputError, match="'request'"):
            classify(request_text)
        with pytest.raises(InputError, match="'request'"):
            classify_rules(request_text)

    @given(st.text(min_size=1).filter(lambda t: t.strip() != ""))
    def test_any_text_gets_a_consistent_classification(self, text: str) -> None:
        got = classify(text)
        assert DEFAULT_COMPLEXITY[got.task_type] == got.complexity
        assert got.source in {"rules", "default"}


class TestCorpusAccuracy:
    """Rules alone reach the measured accuracy on the hand-labelled corpus."""

    def test_rules_accuracy(self) -> None:
        if not LABELLED.exists():
            pytest.skip(f"labelled corpus not found at {LABELLED} (../shared/corpus)")
        with LABELLED.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        right = 0
        for record in records:
            got = classify_rules(record["text"])
            right += got is not None and got.task_type.value == record["task_type"]
        accuracy = right / len(records)
        assert accuracy >= MIN_RULES_ACCURACY, f"rules accuracy {right}/{len(records)}"
