"""The loop's other exit (issue 32), end to end: ``replan`` over the HTTP API and in a webhook.

A real worker, Redis, the store (SQLite and PostgreSQL), the HTTP API on loopback and the
loopback judge speaking the OpenAI chat-completions protocol: each round's verdict and score are
written in its deliverable (``[[judge FAIL 40]]``, ``test_pipeline.scripted_by_marker``), and
the judge's must_fix for a FAIL is always "fix the failing part", so it comes back every round.
The critic runs every 2nd round: the even rounds are the reviewed ones.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from qgs_worker.client import Client
from qgs_worker.core.webhooks import verify_signature
from tests.integration import test_api
from tests.integration.test_api import Api, decision, start, submit
from tests.webhook_receiver import Receiver

pytestmark = pytest.mark.integration

api = test_api.api  # the fixture: the HTTP API on loopback, a real worker, the loopback judge


def run_loop(http: httpx.Client, task_id: str, scores: dict[int, int], hook: str) -> str:
    """Submit rounds 1..max(scores); the last one POSTs its decision to ``hook``.

    Returns:
        The last round's submission id.
    """
    last = max(scores)
    sid = ""
    for n in range(1, last + 1):
        marker = f" [[judge FAIL {scores[n]}]]" if n in scores else ""
        extra: dict[str, Any] = {"callback_url": hook} if n == last else {}
        sid = submit(http, task_id, f"draft {n} of the article{marker}", **extra)
    return sid


def settled(http: httpx.Client, sid: str) -> dict[str, Any]:
    """The decision on the loop's last round: it waits behind every earlier round (up to 3 min,
    for a loaded machine: each long-poll is at most 60 s)."""
    for _ in range(2):
        response = http.get(f"/v1/submissions/{sid}/decision", params={"wait_s": 60})
        if response.status_code == 200:
            break
    return decision(http, sid, wait_s=60)["decision"]


def pushed(api: Api, receiver: Receiver) -> dict[str, Any]:
    """The one webhook the receiver got, its signature checked as a receiver would."""
    (got,) = receiver.wait_for(1, timeout_s=90)
    headers = {k.lower(): v for k, v in got.headers.items()}
    stamp, signature = headers["x-qgs-timestamp"], headers["x-qgs-signature"]
    assert verify_signature(api.alice.webhook_secret.encode(), got.body, stamp, signature)
    body: dict[str, Any] = json.loads(got.body)
    return body


class TestReplanOverHttpAndWebhook:
    """A loop that stops without a pass says why, and what to send back to the planner."""

    def test_an_oscillating_loop(self, api: Api) -> None:
        with Receiver(200) as receiver, api.http(api.alice) as http:
            task_id = start(http, "write an article about AI")
            # Reviewed: 40, 55, 42, 56 (up, down, up, each by more than 2): oscillating.
            sid = run_loop(http, task_id, {2: 40, 4: 55, 6: 42, 8: 56}, receiver.url)
            got = settled(http, sid)
            hook = pushed(api, receiver)
            # Earlier decisions (revise, continue) carry none.
            earlier = http.get(f"/v1/tasks/{task_id}").json()
        assert ("force_deliver", "oscillating", 8) == (
            got["kind"],
            got["termination"],
            got["best_round"],
        )
        replan = got["replan"]
        assert "oscillating" == replan["termination"]
        assert ([2, 4, 6, 8], [40, 55, 42, 56], 8) == (
            replan["rounds"],
            replan["scores"],
            replan["best_round"],
        )
        assert [2, 4, 6, 8] == next(
            f["rounds"] for f in replan["recurring_must_fix"] if f["item"] == "fix the failing part"
        )
        # Every dimension scored as the round (all under 60): none was ever met.
        assert {"completeness", "correctness", "clarity", "feasibility"} == {
            c["criterion"] for c in replan["unmet_criteria"] if c["source"] == "rubric"
        }
        assert replan["advice"].startswith("No round passed in 4 reviewed rounds")
        # The webhook carries the same replan, beside the fields receivers already read.
        assert ("force_deliver", "oscillating", sid) == (
            hook["decision"],
            hook["termination"],
            hook["submission_id"],
        )
        assert replan == hook["replan"]
        assert earlier["decision"]["replan"] == replan  # the task's latest decision

    def test_a_loop_that_hits_the_cap(self, api: Api) -> None:
        with Receiver(200) as receiver, api.http(api.alice) as http:
            task_id = start(http, "write an article about AI")
            # Five reviewed rounds, 4 revisions after the first: the cap (steady gains of 10
            # neither converge nor oscillate).
            scores = {2: 10, 4: 20, 6: 30, 8: 40, 10: 50}
            sid = run_loop(http, task_id, scores, receiver.url)
            got = settled(http, sid)
            hook = pushed(api, receiver)
        with Client(base_url=api.url, api_key=api.alice.key) as remote:
            view = remote.decision(sid)
        replan = got["replan"]
        assert ("force_deliver", "max_revisions_reached") == (got["kind"], got["termination"])
        assert ("max_revisions_reached", [10, 20, 30, 40, 50], 10, []) == (
            replan["termination"],
            replan["scores"],
            replan["best_round"],
            replan["close_rounds"],
        )
        assert "4 revisions reached the cap of 4" in replan["detail"]
        assert [("fix the failing part", 5)] == [
            (f["item"], f["count"]) for f in replan["recurring_must_fix"]
        ]
        assert replan == hook["replan"]
        # The Python client over the API reads it as a value.
        assert view is not None and view.replan is not None
        assert replan == view.replan.model_dump(mode="json")

    def test_other_decisions_have_none(self, api: Api) -> None:
        with Receiver(200) as receiver, api.http(api.alice) as http:
            task_id = start(http, "write an article about AI")
            sid = submit(
                http,
                task_id,
                "An article. [[judge PASS 92]]",
                final=True,
                callback_url=receiver.url,
            )
            got = settled(http, sid)
            hook = pushed(api, receiver)
        assert ("pass", None) == (got["kind"], got["replan"])
        assert "replan" not in hook  # absent: every other body keeps its bytes

    def test_published_in_the_openapi_document(self, api: Api) -> None:
        with api.http(None) as http:
            schemas = http.get("/openapi.json").json()["components"]["schemas"]
        assert {"termination", "unmet_criteria", "recurring_must_fix", "advice"} <= set(
            schemas["Replan"]["properties"]
        )
        assert "replan" in schemas["DecisionView"]["properties"]
