"""Spot-checks over the HTTP API and MCP: a real server, worker and Redis, on SQLite and PostgreSQL.

Rounds of GENERATE tasks that pass are sampled (``QGS_SPOTCHECK__STRATA``); a person (a key
with the ``spot-check`` scope) labels them, asks for others, and reads the agreement; a rule
put in shadow by a person stops deciding.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.api.mcp_server import create_http_app
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings, SpotCheckSettings
from qgs_worker.store.keys import SCOPE_SPOT_CHECK, NewKey, create_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.api_server import serving, wait_until
from tests.integration.conftest import make_settings, running_worker
from tests.integration.test_api import Api, assert_problem, decision, start, submit
from tests.integration.test_pipeline import scripted_by_marker

pytestmark = pytest.mark.integration  # on SQLite and PostgreSQL (the store_url fixture)

ARTICLE = "# AI\n\nA long article. [[judge PASS 92]]"


@pytest.fixture
def api(
    redis_url: str, store_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path
) -> Iterator[Api]:
    fake_judge.default = Answer.dynamic(scripted_by_marker)
    settings = make_settings(redis_url, store_url, fake_judge, tmp_path)
    settings = settings.model_copy(
        update={
            "api": ApiSettings(key_cache_s=0, recheck_s=60),
            "spotcheck": SpotCheckSettings(strata={"GENERATE/pass": 1.0}, shadow_refresh_s=0.05),
        }
    )
    with running_worker(settings) as app:
        ops = Operations(settings, client=Client(settings, app=app))
        master = master_secret(ops.settings)
        keys = (
            create_key(ops.repo, "alice", master=master),
            create_key(ops.repo, "alice", master=master, scopes=("spot-check",)),
            create_key(ops.repo, "bob", master=master, scopes=("spot-check",)),
        )
        with serving(create_app(operations=ops)) as url:
            yield Api(url, ops, *keys, hold=threading.Event(), judge=fake_judge)
        ops.repo.dispose()


def queued(http: httpx.Client, status: str = "all") -> list[dict[str, Any]]:
    response = http.get("/v1/spot-checks", params={"status": status})
    assert 200 == response.status_code, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def sampled_round(api: Api) -> str:
    """A passing GENERATE round of alice's, decided and in the queue (sampled)."""
    with api.http(api.alice) as agent, api.http(api.approver) as person:
        task = start(agent, "write an article about AI")
        sub = submit(agent, task, ARTICLE, final=True)
        assert "pass" == decision(agent, sub)["decision"]["kind"]
        wait_until(
            lambda: any(i["submission_id"] == sub for i in queued(person)), what="the sample"
        )
    return sub


LABEL = {"decision_correct": True, "verdict": "PASS", "severities": {}, "note": "fine"}


def operator(api: Api, name: str, *, sees: tuple[str, ...]) -> NewKey:
    """A person's key with the spot-check scope."""
    return create_key(
        api.ops.repo,
        name,
        master=master_secret(api.ops.settings),
        operator=True,
        scopes=(SCOPE_SPOT_CHECK,),
        sees=sees,
    )


class TestQueueAndLabels:
    """Sampled by the settings, asked for by a person, labelled once per person."""

    def test_a_sampled_round_is_labelled_once_per_person(self, api: Api) -> None:
        sub = sampled_round(api)
        with api.http(api.approver) as person:
            (item,) = [i for i in queued(person, "open") if i["submission_id"] == sub]
            assert ("sampled", "pass", "GENERATE") == (
                item["reason"],
                item["decision"],
                item["task_type"],
            )
            shown = person.get(f"/v1/spot-checks/{sub}").json()
            assert shown["round"]["decision"] == "pass" and shown["request"]
            made = person.post(f"/v1/spot-checks/{sub}/labels", json=LABEL)
            assert 201 == made.status_code, made.text
            assert [("alice", "PASS")] == [
                (lb["person"], lb["verdict"]) for lb in made.json()["labels"]
            ]
            again = person.post(f"/v1/spot-checks/{sub}/labels", json={**LABEL, "verdict": "FAIL"})
            problem = assert_problem(again, 409)
            assert "submission_id" == problem["errors"][0]["field"]
            assert "that label stands" in problem["detail"]
            assert [] == queued(person, "open")  # labelled: no longer open
        labels = api.ops.repo.label_records()
        assert [("alice", "PASS")] == [(r.person, r.verdict) for r in labels]  # nothing lost

    def test_a_round_never_sampled_is_refused_then_asked_for(self, api: Api) -> None:
        with api.http(api.alice) as agent, api.http(api.approver) as person:
            task = start(agent, "write an article about AI")
            sub = submit(agent, task, "draft one [[judge FAIL 40]]")
            assert "continue" == decision(agent, sub)["decision"]["kind"]  # not in the strata
            refused = person.post(f"/v1/spot-checks/{sub}/labels", json=LABEL)
            problem = assert_problem(refused, 409)
            assert "POST /v1/spot-checks" in problem["errors"][0]["fix"]
            asked = person.post("/v1/spot-checks", json={"submission_id": sub, "note": "odd"})
            assert 201 == asked.status_code, asked.text
            assert ("asked", "alice") == (asked.json()["reason"], asked.json()["asked_by"])
            assert 200 == person.post("/v1/spot-checks", json={"submission_id": sub}).status_code
            bad = person.post(f"/v1/spot-checks/{sub}/labels", json={**LABEL, "verdict": "ok"})
            assert "verdict" == assert_problem(bad, 422)["errors"][0]["field"]
            made = person.post(
                f"/v1/spot-checks/{sub}/labels",
                json={**LABEL, "decision_correct": False, "verdict": "FAIL"},
            )
            assert 201 == made.status_code, made.text

    def test_scopes_and_principals(self, api: Api) -> None:
        sub = sampled_round(api)
        with api.http(api.alice) as agent, api.http(api.bob) as other:
            assert_problem(agent.post(f"/v1/spot-checks/{sub}/labels", json=LABEL), 403)
            assert_problem(agent.post("/v1/spot-checks", json={"submission_id": sub}), 403)
            assert_problem(other.post(f"/v1/spot-checks/{sub}/labels", json=LABEL), 404)
            assert_problem(other.get(f"/v1/spot-checks/{sub}"), 404)
            assert [] == queued(other)  # bob sees only his own tasks' spot-checks


class TestOperatorKeys:
    """A person's key uses the spot-check routes of /v1 (its scopes, its --sees), nothing else."""

    def test_an_operator_labels_over_the_api_and_is_refused_elsewhere(self, api: Api) -> None:
        sub = sampled_round(api)
        olga, nobody = operator(api, "olga", sees=("alice",)), operator(api, "nia", sees=("bob",))
        with api.http(olga) as person, api.http(nobody) as other:
            assert sub in [i["submission_id"] for i in queued(person)]
            assert [] == queued(other)  # sees bob only
            assert_problem(other.post(f"/v1/spot-checks/{sub}/labels", json=LABEL), 404)
            made = person.post(f"/v1/spot-checks/{sub}/labels", json=LABEL)
            assert 201 == made.status_code, made.text
            assert ["olga"] == [lb["person"] for lb in made.json()["labels"]]
            refused = person.post("/v1/tasks", json={"request": "write an article"})
            problem = assert_problem(refused, 403)
            assert "only the spot-check routes" in problem["detail"]
        (record,) = api.ops.repo.label_records(people_only=True)
        assert ("olga", True) == (record.person, record.by_person)

    def test_a_filter_value_that_is_not_one_lists_the_valid_ones(self, api: Api) -> None:
        with api.http(api.approver) as person:
            got = person.get("/v1/spot-checks", params={"task_type": "CRITICLA"})
        (error,) = assert_problem(got, 422)["errors"]
        assert "task_type" == error["field"] and "did you mean 'CRITICAL'" in error["fix"]
        assert "GENERATE" in error["fix"]


class TestAgreement:
    """The figures, the rounds behind them, and the gauges."""

    def test_agreement_and_metrics(self, api: Api) -> None:
        first, second = sampled_round(api), sampled_round(api)
        # People label over the API with an operator key: the gauges count people's labels.
        ann_key = operator(api, "ann", sees=("alice",))
        with api.http(ann_key) as ann, api.http(ann_key) as person:
            ann.post(f"/v1/spot-checks/{first}/labels", json=LABEL)
            person.post(
                f"/v1/spot-checks/{second}/labels",
                json={
                    "decision_correct": False,
                    "verdict": "FAIL",
                    "severities": {"sql_drop": "P2"},
                },
            )
            body = ann.get("/v1/agreement").json()
            rules = ann.get("/v1/agreement", params={"scope": "rule"}).json()["figures"]
            metrics = httpx.get(f"{api.url}/metrics").text
        figures = {(f["scope"], f["name"]): f for f in body["figures"]}
        overall = figures["gate", "all"]
        assert (2, 1, [first, second]) == (
            overall["labels"],
            overall["decision_right"],
            overall["rounds"],
        )
        judge = next(f for (scope, _), f in figures.items() if scope == "judge")
        assert judge["kappa"] is not None and "low" in judge["kappa"]
        (rule,) = rules
        assert ("sql_drop", 1, [second]) == (
            rule["name"],
            rule["false_negatives"],
            rule["false_negative_rounds"],
        )
        assert 'qgs_spotcheck_labels{name="all",scope="gate"} 2.0' in metrics
        assert 'qgs_spotcheck_false_negatives{rule="sql_drop"} 1.0' in metrics
        assert 'qgs_spotcheck_queue{state="labelled"} 2.0' in metrics


class TestShadow:
    """A person puts a P0 rule in shadow: its findings are recorded, not deciding."""

    def test_a_p0_rule_in_shadow_no_longer_blocks(self, api: Api) -> None:
        call = {"id": "c1", "name": "bash", "arguments": {"command": "rm -rf / --no-preserve-root"}}
        with api.http(api.alice) as agent, api.http(api.approver) as person:
            task = start(agent, "what time is it")
            sub = submit(agent, task, "done [[judge PASS 99]]", tool_calls=[call], final=True)
            assert "block" == decision(agent, sub)["decision"]["kind"]
            findings = agent.get(f"/v1/tasks/{task}").json()["findings"]
            rules = sorted({f["rule"] for f in findings if f["severity"] == "P0" and f["rule"]})
            assert rules
            note = {"note": "measuring it"}
            assert_problem(
                agent.post(
                    "/v1/shadow", json={"kind": "rule", "name": rules[0], "in_shadow": True, **note}
                ),
                403,
            )
            # a key that sees only its own principal's tasks may not change every principal's
            # gate, even with the spot-check scope: a person who sees all does (an operator key
            # with --sees all, or `qgs shadow`)
            refused = person.post(
                "/v1/shadow", json={"kind": "rule", "name": rules[0], "in_shadow": True, **note}
            )
            assert_problem(refused, 403)
            assert "qgs shadow" in refused.text
            some = operator(api, "olga", sees=("alice",))
            with api.http(some) as olga:
                refused = olga.post(
                    "/v1/shadow", json={"kind": "rule", "name": rules[0], "in_shadow": True, **note}
                )
            assert_problem(refused, 403)
            assert "--sees all" in refused.text
            with api.http(operator(api, "ana", sees=("all",))) as ana:
                for rule in rules:
                    made = ana.post(
                        "/v1/shadow", json={"kind": "rule", "name": rule, "in_shadow": True, **note}
                    )
                    assert 200 == made.status_code, made.text
                    assert (True, True, "ana", True) == (
                        made.json()["in_shadow"],
                        made.json()["p0"],
                        made.json()["changed_by"],
                        made.json()["figures_shown"],
                    )
            states = person.get("/v1/shadow").json()["shadow"]
            assert set(rules) == {s["name"] for s in states if s["in_shadow"]}
            assert all(s["labels"] is None and not s["figures_shown"] for s in states)
            api.ops.client.repo.dispose()  # nothing cached on this side
            later = start(agent, "what time is it")
            again = submit(agent, later, "done [[judge PASS 99]]", tool_calls=[call], final=True)
            found = decision(agent, again)["decision"]
        assert "block" != found["kind"]
        assert "rules in shadow" in found["reason"]


class TestMcp:
    """The spot-check tools over MCP (streamable HTTP) call the same operations."""

    def test_list_label_and_agreement_tools(self, api: Api) -> None:
        import httpx2
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        sub = sampled_round(api)

        async def run(url: str) -> Any:
            headers = {"Authorization": f"Bearer {api.approver.key}"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as http,
                streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                listed = await session.call_tool("list_spot_checks", {"status": "open"})
                label = {"submission_id": sub, **LABEL}
                made = await session.call_tool("label_spot_check", label)
                twice = await session.call_tool("label_spot_check", label)
                typo = await session.call_tool(
                    "label_spot_check", {**label, "severities": {"sql_dorp": "none"}}
                )
                agreement = await session.call_tool("get_agreement", {"scope": "gate"})
                return listed, made, twice, typo, agreement

        with serving(create_http_app(api.ops)) as url:
            listed, made, twice, typo, agreement = asyncio.run(
                asyncio.wait_for(run(url), timeout=120)
            )
        assert sub in [i["submission_id"] for i in listed.structured_content["items"]]
        assert made.is_error is False and made.structured_content["labels"][0]["person"] == "alice"
        assert twice.is_error is True and 409 == twice.structured_content["status"]
        assert "that label stands" in twice.content[0].text
        assert typo.is_error is True and 422 == typo.structured_content["status"]
        assert "did you mean 'sql_drop'" in typo.content[0].text
        (gate,) = agreement.structured_content["figures"]
        assert (1, [sub]) == (gate["labels"], gate["rounds"])
        assert json.loads(agreement.content[0].text) == agreement.structured_content
