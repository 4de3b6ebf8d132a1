"""Who may use the spot-check routes, and whose labels move shadow (issue 33's break test, 1, 2, 6).

Over the API's test client (``fastapi.testclient``) on a SQLite file, rounds decided in-process
and given to principal ``alice``:

- an operator key (a person's) uses the spot-check routes of ``/v1`` with its scopes and
  ``--sees``, and is refused (403) on every other route; ``POST /v1/shadow`` takes an operator key
  that sees all, and refuses an agent's key and an operator's that sees some;
- an agent's self-labels never move a shadow state; people's labels do;
- an agent's key sees the shadow states but not the figures built from every principal's labels;
- a filter value that is not one is a 422 whose ``fix`` lists the valid values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlmodel import Session

from qgs_worker.api import Operations
from qgs_worker.api.access import Principal
from qgs_worker.config.settings import Settings, SpotCheckSettings
from qgs_worker.queue import pipeline
from qgs_worker.store import TaskRow
from qgs_worker.store.keys import ALL_PRINCIPALS, SCOPE_SPOT_CHECK, SCOPE_VIEW, NewKey, create_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.unit.test_pipeline_steps import ScriptedJudge
from tests.unit.test_spotcheck import POLICIES, sub

PERSON = Principal(
    "ana (qgs shadow)",
    frozenset({SCOPE_VIEW, SCOPE_SPOT_CHECK}),
    key_id="cli",
    operator=True,
    sees=frozenset({ALL_PRINCIPALS}),
)
AGENT = Principal("alice", frozenset({SCOPE_SPOT_CHECK}), key_id="ka")
LABEL = {"decision_correct": True, "verdict": "PASS", "severities": {}, "note": ""}


@pytest.fixture
def ops(tmp_path: Path) -> Iterator[Operations]:
    settings = Settings(data_dir=tmp_path / ".qgs", database_url=f"sqlite:///{tmp_path}/q.db")
    # The judge "scripted" in shadow; two labels, any kappa, take it out (the settings' own
    # check of judge names is for start-up: "scripted" is the test judge's).
    shadowed = SpotCheckSettings(
        shadow_judges=("scripted",), shadow_min_labels=2, shadow_threshold=-1.0
    )
    found = Operations(settings.model_copy(update={"spotcheck": shadowed}))
    yield found
    found.close()
    found.repo.dispose()


def alices(ops: Operations, sid: str) -> str:
    """A decided round (judge ``scripted``, PASS) of a task of principal ``alice``, queued."""
    service = pipeline.service_for(ops.repo, POLICIES, judge=ScriptedJudge())
    ready = service.intake(sub(sid, "score=92", task=f"t-{sid}"))
    assert ready is not None
    service.review(ready.round_id, then_decide=True)
    with Session(ops.repo.engine) as session:
        session.execute(update(TaskRow).where(TaskRow.id == f"t-{sid}").values(principal="alice"))
        session.commit()
    ops.request_spot_check(PERSON, sid)
    return sid


def judge_state(ops: Operations) -> dict[str, Any]:
    (state,) = [s for s in ops.shadow_states(PERSON) if s["name"] == "scripted"]
    return state


class TestPeopleMoveShadow:
    def test_an_agents_self_labels_never_take_a_judge_out_of_shadow(self, ops: Operations) -> None:
        first, second = alices(ops, "s-1"), alices(ops, "s-2")
        assert judge_state(ops)["in_shadow"]
        ops.label_spot_check(AGENT, first, decision_correct=True, verdict="PASS")
        ops.label_spot_check(AGENT, second, decision_correct=False, verdict="FAIL")
        state = judge_state(ops)
        assert (True, 0) == (state["in_shadow"], state["labels"])
        assert {} == ops.repo.shadow_changes()  # no automatic leave stored
        assert 2 == ops.agreement(AGENT)["labels"]  # they stay in the agent's own figures
        assert 0 == ops.agreement(PERSON)["labels"]  # not in people's

    def test_peoples_labels_do(self, ops: Operations) -> None:
        first, second = alices(ops, "s-1"), alices(ops, "s-2")
        ops.label_spot_check(PERSON, first, decision_correct=True, verdict="PASS")
        assert judge_state(ops)["in_shadow"]
        ops.label_spot_check(PERSON, second, decision_correct=False, verdict="FAIL")
        state = judge_state(ops)
        assert (False, 2, "qgs") == (state["in_shadow"], state["labels"], state["changed_by"])


@dataclass
class Keys:
    alice: NewKey  # an agent's key with spot-check
    ann: NewKey  # an operator: spot-check, sees all
    olga: NewKey  # an operator: spot-check, sees alice
    rita: NewKey  # an operator: view only, sees alice


@pytest.fixture
def keys(ops: Operations) -> Keys:
    master = master_secret(ops.settings)

    def make(name: str, **kw: Any) -> NewKey:
        return create_key(ops.repo, name, master=master, **kw)

    return Keys(
        make("alice", scopes=(SCOPE_SPOT_CHECK,)),
        make("ann", operator=True, scopes=(SCOPE_SPOT_CHECK,), sees=("all",)),
        make("olga", operator=True, scopes=(SCOPE_SPOT_CHECK,), sees=("alice",)),
        make("rita", operator=True, sees=("alice",)),
    )


@pytest.fixture
def http(ops: Operations) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from qgs_worker.api.http import create_app

    with TestClient(create_app(operations=ops)) as client:
        yield client


def as_key(key: NewKey) -> dict[str, str]:
    return {"Authorization": f"Bearer {key.key}"}


class TestOperatorKeysOnTheApi:
    def test_an_operator_key_uses_the_spot_check_routes(
        self, ops: Operations, keys: Keys, http: Any
    ) -> None:
        sid = alices(ops, "s-1")
        listed = http.get("/v1/spot-checks", headers=as_key(keys.olga))
        assert 200 == listed.status_code, listed.text
        assert [sid] == [i["submission_id"] for i in listed.json()["items"]]
        assert 200 == http.get(f"/v1/spot-checks/{sid}", headers=as_key(keys.rita)).status_code
        refused = http.post(f"/v1/spot-checks/{sid}/labels", json=LABEL, headers=as_key(keys.rita))
        assert 403 == refused.status_code and "--scope spot-check" in refused.text
        made = http.post(f"/v1/spot-checks/{sid}/labels", json=LABEL, headers=as_key(keys.olga))
        assert 201 == made.status_code, made.text
        (record,) = ops.repo.label_records(people_only=True)
        assert ("olga", True) == (record.person, record.by_person)
        assert 200 == http.get("/v1/agreement", headers=as_key(keys.olga)).status_code
        assert 200 == http.get("/v1/shadow", headers=as_key(keys.olga)).status_code

    @pytest.mark.parametrize(
        ("method", "path"),
        [
            ("post", "/v1/tasks"),
            ("get", "/v1/tasks/t-s-1"),
            ("get", "/v1/submissions/s-1/decision"),
            ("post", "/v1/tool-calls/check"),
            ("get", "/v1/spot-checksx"),
        ],
    )
    def test_every_other_route_refuses_an_operator_key(
        self, keys: Keys, http: Any, method: str, path: str
    ) -> None:
        got = http.request(method, path, json={}, headers=as_key(keys.ann))
        assert 403 == got.status_code, got.text
        assert "only the spot-check routes" in got.json()["detail"]

    def test_shadow_changes_take_an_operator_key_that_sees_all(
        self, ops: Operations, keys: Keys, http: Any
    ) -> None:
        alices(ops, "s-1")
        body = {"kind": "judge", "name": "scripted", "in_shadow": False, "note": "trusted"}
        for refused_key, who in ((keys.alice, "an agent's key"), (keys.olga, "sees some")):
            refused = http.post("/v1/shadow", json=body, headers=as_key(refused_key))
            assert 403 == refused.status_code, refused.text
            assert who in refused.text and "--sees all" in refused.text
        assert judge_state(ops)["in_shadow"]
        made = http.post("/v1/shadow", json=body, headers=as_key(keys.ann))
        assert 200 == made.status_code, made.text
        assert (False, "ann") == (made.json()["in_shadow"], made.json()["changed_by"])

    def test_the_openapi_document_says_who_may_call_what(self, http: Any) -> None:
        document = http.get("/openapi.json").json()
        assert "only the spot-check routes" in document["info"]["description"]
        paths = document["paths"]
        assert "403" in paths["/v1/tasks"]["post"]["responses"]  # an operator key
        assert "403" not in paths["/v1/spot-checks"]["get"]["responses"]
        assert "--sees all" in paths["/v1/shadow"]["post"]["description"]


class TestShadowFiguresAreThePeoples:
    def test_an_agent_sees_the_states_not_the_figures(
        self, ops: Operations, keys: Keys, http: Any
    ) -> None:
        first, second = alices(ops, "s-1"), alices(ops, "s-2")
        ops.label_spot_check(PERSON, first, decision_correct=True, verdict="PASS")
        for key in (keys.alice, keys.olga):
            for states in (
                http.get("/v1/shadow", headers=as_key(key)).json()["shadow"],
                http.get("/v1/agreement", headers=as_key(key)).json()["shadow"],
            ):
                (state,) = states
                assert ("judge", "scripted", True) == (
                    state["kind"],
                    state["name"],
                    state["in_shadow"],
                )
                assert (None, None, False) == (
                    state["labels"],
                    state["kappa"],
                    state["figures_shown"],
                )
                assert "label" not in state["why"] and "kappa" not in state["why"]
        (full,) = http.get("/v1/shadow", headers=as_key(keys.ann)).json()["shadow"]
        assert (1, True) == (full["labels"], full["figures_shown"])
        assert second


class TestFilterValues:
    @pytest.mark.parametrize(
        ("query", "field", "close"),
        [
            ({"task_type": "CRITICLA"}, "task_type", "did you mean 'CRITICAL'"),
            ({"decision": "passs"}, "decision", "did you mean 'pass'"),
        ],
    )
    def test_a_value_that_is_not_one_lists_the_valid_ones(
        self, keys: Keys, http: Any, query: dict[str, str], field: str, close: str
    ) -> None:
        got = http.get("/v1/spot-checks", params=query, headers=as_key(keys.alice))
        assert 422 == got.status_code
        (error,) = got.json()["errors"]
        assert field == error["field"] and close in error["message"]
        assert "send one of " in error["fix"] and close in error["fix"]
        assert ("GENERATE" if field == "task_type" else "block") in error["fix"]
