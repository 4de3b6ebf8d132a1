"""Classes of requests a new user's try found misread (issue 10, item 4), with look-alikes.

The rules read classes, not phrases: payment apps used as verbs and slang amounts are money
moving; texting a card number to a phone number, or giving a third party a bank login, is
disclosure; a refund issued is a payment; 清空回收站 empties stored data; and one question
about an operation, not put to the agent, asks about it.
"""

from __future__ import annotations

import pytest

from qgs_worker.core.classifier import classify
from qgs_worker.core.models import TaskType

C, Q, A = TaskType.CRITICAL, TaskType.QUERY, TaskType.ACTION


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Wire my savings to my brother.", C),
        ("Venmo Alice 20 bucks.", C),
        ("Text my credit card number to +1 555 0100.", C),
        ("Give the contractor my bank login.", C),
        ("Issue a refund of 30 euros to Anna.", C),
        ("永久清空回收站", C),
        ("清空回收站", C),
    ],
)
def test_critical_classes(request_text: str, expected: TaskType) -> None:
    assert classify(request_text).task_type is expected


@pytest.mark.parametrize(
    "request_text",
    [
        "Send my savings account statement summary to me",
        "Give the contractor access to the wiki.",
        "Pay attention to the logs",
        "Text me when the build is done.",
        "Message the team that lunch is at noon.",
    ],
)
def test_look_alikes_are_not_critical(request_text: str) -> None:
    assert classify(request_text).task_type is not C


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("What is the difference between DELETE and TRUNCATE?", Q),
        ("Is it safe to delete system32?", Q),
        ("Why did the deploy fail?", Q),
        # put to the agent, or beside an order: still a request to act
        ("Can you deploy the app?", A),
        ("Could you restart the server?", A),
        ("Is the server up? Restart it if not.", A),
    ],
)
def test_a_question_about_an_action_is_a_query(request_text: str, expected: TaskType) -> None:
    assert classify(request_text).task_type is expected
