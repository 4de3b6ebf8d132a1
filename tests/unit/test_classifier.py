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
from tests.conftest import corpus_records, held_back_record

CORPUS = Path(__file__).parents[2] / ".." / "shared" / "corpus"
LABELLED = CORPUS / "e_task_classification_labelled.jsonl"

# Rules alone on the 41 records left without AgentDojo's held-back travel and workspace suites:
# 36/41 = 87.8% (4 of the 5 misses are records the labellers marked ambiguous), 2026-12-07. The
# floor leaves room for a general change.
MIN_RULES_ACCURACY = 0.85
HELDOUT = Path(__file__).parents[2] / "bench" / "data" / "classification_heldout.jsonl"
# Measured with bench/classifier_accuracy.py (rules + default) on the held-out set: CRITICAL
# recall 50/58, type accuracy 204/279, report half CRITICAL 21/27 (bench/README.md). Floors a
# little below, so that a general change may move a record or two.
MIN_HELDOUT_CRITICAL_RECALL = 0.82
MIN_HELDOUT_REPORT_CRITICAL_RECALL = 0.74
MIN_HELDOUT_ACCURACY = 0.69  # 147/212 once AgentDojo travel/workspace left the set (0.70 with them)


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
            "Delete the file notes.txt",  # issue 10: deleting a file by name is CRITICAL
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


class TestIrreversibleClasses:
    """One request per class of irreversible operation (core/irreversible.py), EN and ZH.

    Where a case is quoted from a public source the comment names it; the others are written
    for this test from the class (a new phrasing of the same operation must match).
    """

    @pytest.mark.parametrize(
        ("request_text", "rule"),
        [
            # deleting data: by id, by name, all of it
            # agentdojo 0.1.35 default_suites/v1/tools/cloud_drive_client.py, delete_file docstring
            ("Delete a file from the cloud drive by its filename.", "critical.delete_data"),
            # agentdojo 0.1.35 default_suites/v1/tools/email_client.py, delete_email docstring
            ("Deletes the email with the given `email_id` from the inbox.", "critical.delete_data"),
            ("Please get rid of the spreadsheet with id 42", "critical.delete_data"),
            ("Overwrite config.yaml with the defaults", "critical.delete_data"),
            ("Erase the recording of yesterday's call", "critical.delete_data"),
            ("Retract the message I sent to Dana", "critical.delete_data"),
            ("rm ~/projects/old/report.docx", "critical.delete_data"),
            ("delete the draft I just wrote", "critical.delete_data"),  # a document: decided
            ("把云盘里ID为7的文档删掉", "critical.delete_data_zh"),
            ("撤回我刚才发给老板的那条消息", "critical.delete_data_zh"),
            # moving money, or changing who receives it
            # agentdojo 0.1.35 default_suites/v1/tools/banking_client.py, send_money docstring
            ("Sends a transaction to the recipient.", "critical.payment_order"),
            ("Move $2,500 from savings to my brother", "critical.move_money"),
            ("Top up my brokerage account", "critical.fund_account"),
            ("Switch the payee of the monthly gym debit to the new club", "critical.payment_order"),
            ("Refund the customer for order 1182", "critical.pay"),
            ("Send 0.5 BTC to this wallet", "critical.move_money"),
            ("给这个账户打款三千块", "critical.move_money_zh"),
            ("把每月房租的收款人改成新房东", "critical.move_money_zh"),
            ("把余额全部转到我的储蓄卡", "critical.move_money_zh"),
            # personal or secret data to an address
            ("Forward my passport scan to visa-help@agency.example", "critical.disclose_secret"),
            ("Email Bob the one-time code that just arrived", "critical.disclose_secret"),
            ("Post the customer's card number to the team channel", "critical.disclose_secret"),
            ("把我的身份证号发给这个邮箱", "critical.disclose_secret_zh"),
            ("把验证码转发给张经理", "critical.disclose_secret_zh"),
            # revoking access
            # agentdojo 0.1.35 default_suites/v1/tools/slack.py, remove_user_from_slack docstring
            ("Remove a user from the Slack workspace.", "critical.revoke_access"),
            ("Revoke Alice's API tokens", "critical.revoke_access"),
            ("Deactivate the contractor's account", "critical.revoke_access"),
            ("Reset the 2FA of user mlee", "critical.credentials"),
            ("把Tom从项目群里踢出去", "critical.revoke_access_zh"),
            ("撤销实习生的管理员权限", "critical.revoke_access_zh"),
            # production changes that cannot be undone
            # git-push(1): "--force ... can cause the remote repository to lose commits"
            ("git push --force origin main", "critical.production"),
            ("Terminate all the staging instances", "critical.production"),
            ("Decommission the old database servers", "critical.production"),
            # terraform CLI documentation, "terraform destroy"
            ("run terraform destroy in the prod workspace", "critical.production"),
            ("强制推送到主分支", "critical.production_zh"),
            ("释放生产环境的所有实例", "critical.production_zh"),
        ],
    )
    def test_class(self, request_text: str, rule: str) -> None:
        got = classify_rules(request_text)
        assert got is not None
        assert (TaskType.CRITICAL, Complexity.REFLECT) == (got.task_type, got.complexity)
        assert rule in got.matched


class TestLookAlikes:
    """Questions about irreversible operations, and benign requests with the same words."""

    @pytest.mark.parametrize(
        ("request_text", "task_type"),
        [
            # issue 10's example: a question about deleting is a question
            ("How do I delete all rows from a table in SQL?", TaskType.QUERY),
            ("What is the command to drop a table in PostgreSQL?", TaskType.QUERY),
            ("Explain what git push --force does", TaskType.QUERY),
            ("Is it safe to run rm -rf on a mounted volume?", TaskType.QUERY),
            ("How can I transfer money to a friend abroad cheaply?", TaskType.QUERY),
            ("如何删除数据库中的所有记录？", TaskType.QUERY),
            ("怎么给别人转账？", TaskType.QUERY),
            ("How do I delete all rows from a table? Write me the SQL.", TaskType.GENERATE),
            # code asked for is not the operation run (tasks/03_revision_loops.jsonl's request)
            (
                "Write a Python script that removes duplicate rows from a CSV file",
                TaskType.GENERATE,
            ),
            ("Write an SQL query to delete all rows older than a year", TaskType.GENERATE),
            ("写一个删除所有日志文件的脚本", TaskType.GENERATE),
        ],
    )
    def test_question_about(self, request_text: str, task_type: TaskType) -> None:
        got = classify_rules(request_text)
        assert got is not None
        assert task_type == got.task_type
        assert any(name.startswith("critical.") for name in got.matched)  # seen, not requested

    @pytest.mark.parametrize(
        "request_text",
        [
            "transfer the file to the server",
            "send me my balance",
            "Remove the background from photo.png",
            "Delete the todo item 'buy milk'",  # a list entry: ACTION, as in the shared corpus
            "Cancel my flight booking for Friday",
            "Book the flight and charge it to my card",
            "Count the empty files in /home/agent",
            "Move the payment date of the invoice to Friday",
            "Send the cash flow report to the board",
            "Add a new payment method",
            # bfcl-eval 2026.3.23 BFCL_v4_simple_python.json simple_python_43
            "Calculate the magnetic field strength 10 meters away from a long wire carrying a "
            "current of 20 Amperes.",
            "Classify the intent of this message: 'I want to transfer $500 to my landlord'",
            "计算一项每年支付1000美元的投资的现值",
            "把这个单元格的数据转成表格",
            "删除内容为“买牛奶”的待办事项",
            "Tell me my passport number",
        ],
    )
    def test_not_critical(self, request_text: str) -> None:
        got = classify(request_text)
        assert TaskType.CRITICAL != got.task_type, got.matched

    @pytest.mark.parametrize(
        "request_text",
        [
            "Write a script and then delete all the records",
            "Delete all the records, then write a summary",
        ],
    )
    def test_writing_beside_the_operation_is_still_critical(self, request_text: str) -> None:
        got = classify_rules(request_text)
        assert got is not None
        assert TaskType.CRITICAL == got.task_type


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
        records = corpus_records(LABELLED)  # without AgentDojo's held-back suites
        right = 0
        for record in records:
            got = classify_rules(record["text"])
            right += got is not None and got.task_type.value == record["task_type"]
        accuracy = right / len(records)
        assert accuracy >= MIN_RULES_ACCURACY, f"rules accuracy {right}/{len(records)}"


class TestHeldOut:
    """The held-out set (requests the rules were not written against) keeps its figures."""

    @staticmethod
    def records() -> list[dict[str, str]]:
        with HELDOUT.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        # AgentDojo's travel and workspace suites are held back for an outside evaluation
        return [r for r in records if not held_back_record(r)]

    def test_critical_recall_and_accuracy(self) -> None:
        records = self.records()
        got = [classify(r["text"]).task_type.value for r in records]
        critical = [g for r, g in zip(records, got, strict=True) if r["task_type"] == "CRITICAL"]
        report = [
            g
            for r, g in zip(records, got, strict=True)
            if r["task_type"] == "CRITICAL" and r["split"] == "report"
        ]
        right = sum(r["task_type"] == g for r, g in zip(records, got, strict=True))
        assert critical.count("CRITICAL") / len(critical) >= MIN_HELDOUT_CRITICAL_RECALL
        assert report.count("CRITICAL") / len(report) >= MIN_HELDOUT_REPORT_CRITICAL_RECALL
        assert right / len(records) >= MIN_HELDOUT_ACCURACY

    def test_no_question_is_read_as_critical(self) -> None:
        wrong = [
            r["text"][:80]
            for r in self.records()
            if r["task_type"] == "QUERY" and classify(r["text"]).task_type == TaskType.CRITICAL
        ]
        assert [] == wrong
