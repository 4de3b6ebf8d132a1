"""The spot-check operations as every face calls them: names checked, blanks, the errors' words.

``Operations`` over a SQLite file (no broker): rounds are decided in-process, as
``test_spotcheck`` decides them, and the operations are called as the HTTP routes, the MCP tools
and ``qgs shadow`` call them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.api import Operations
from qgs_worker.api.access import Principal
from qgs_worker.api.problems import problem_for
from qgs_worker.config.settings import Settings
from qgs_worker.errors import LabelExistsError, SubmissionNotFoundError
from qgs_worker.store.keys import ALL_PRINCIPALS, SCOPE_SPOT_CHECK, SCOPE_VIEW
from tests.unit.test_spotcheck import decided

ANN = Principal(
    "ann",
    frozenset({SCOPE_VIEW, SCOPE_SPOT_CHECK}),
    key_id="k1",
    operator=True,
    sees=frozenset({ALL_PRINCIPALS}),
)
BOB = Principal(
    "bob",
    frozenset({SCOPE_VIEW, SCOPE_SPOT_CHECK}),
    key_id="k2",
    operator=True,
    sees=frozenset({"deploy-bot"}),
)


@pytest.fixture
def ops(tmp_path: Path) -> Iterator[Operations]:
    settings = Settings(data_dir=tmp_path / ".qgs", database_url=f"sqlite:///{tmp_path}/q.db")
    found = Operations(settings)
    yield found
    found.close()
    found.repo.dispose()


def queued(ops: Operations, sid: str) -> str:
    decided(ops.repo, sid)
    ops.request_spot_check(ANN, sid)
    return sid


class TestErrorWords:
    """A refused label or an unseen round says what happened and the fix, once."""

    def test_a_second_label_names_the_round_once_and_the_fix(self, ops: Operations) -> None:
        sid = queued(ops, "s-twice")
        ops.label_spot_check(ANN, sid, decision_correct=True, verdict="PASS")
        with pytest.raises(LabelExistsError) as caught:
            ops.label_spot_check(ANN, sid, decision_correct=False, verdict="FAIL")
        found = problem_for(caught.value)
        assert found is not None
        status, body = found
        (error,) = body["errors"]
        assert (409, "submission_id") == (status, error["field"])
        assert 1 == body["detail"].count("s-twice")
        assert "that label stands" in body["detail"]
        assert "s-twice" not in error["fix"] and "'ann'" not in error["fix"]
        assert "another person may label it" in error["fix"]

    def test_an_operators_not_found_names_whom_they_see_and_the_fix(self, ops: Operations) -> None:
        sid = queued(ops, "s-unseen")
        with pytest.raises(SubmissionNotFoundError) as caught:
            ops.label_spot_check(BOB, sid, decision_correct=True, verdict="PASS")
        found = problem_for(caught.value)
        assert found is not None
        status, body = found
        assert 404 == status
        assert "of principal" not in body["detail"]
        assert "operator 'bob' sees (deploy-bot)" in body["detail"]
        assert "qgs keys create --operator bob" in body["errors"][0]["fix"]
        assert 1 == body["detail"].count("s-unseen")


class TestBlankFilters:
    """An empty query value of the spot-check routes (and MCP tools) means no filter."""

    @pytest.fixture
    def http(self, ops: Operations) -> Iterator[Any]:
        from fastapi.testclient import TestClient

        from qgs_worker.api.http import create_app
        from qgs_worker.store.keys import create_key
        from qgs_worker.webhooks.key_secrets import master_secret

        key = create_key(
            ops.repo, "alice", master=master_secret(ops.settings), scopes=(SCOPE_SPOT_CHECK,)
        )
        with TestClient(create_app(operations=ops)) as client:
            client.headers["Authorization"] = f"Bearer {key.key}"
            yield client

    @pytest.mark.parametrize(
        "query",
        [
            "/v1/agreement?scope=",
            "/v1/agreement?scope=%20",
            "/v1/spot-checks?status=",
            "/v1/spot-checks?task_type=&decision=",
            "/v1/spot-checks?limit=",
        ],
    )
    def test_an_empty_filter_is_no_filter(self, http: Any, query: str) -> None:
        path = query.split("?")[0]
        unfiltered = http.get(path)
        found = http.get(query)
        assert 200 == found.status_code, found.text
        assert unfiltered.json() == found.json()

    def test_a_wrong_filter_is_still_refused_naming_it(self, http: Any) -> None:
        found = http.get("/v1/agreement", params={"scope": "rules"})
        assert 422 == found.status_code
        assert "scope" in found.text

    def test_the_mcp_arguments_read_empty_as_unset(self) -> None:
        from qgs_worker.api.spot_check_schemas import AgreementArgs, SpotChecksArgs

        assert AgreementArgs(scope=None) == AgreementArgs.model_validate({"scope": ""})
        listed = SpotChecksArgs.model_validate(
            {"status": "", "task_type": "", "decision": " ", "limit": ""}
        )
        assert SpotChecksArgs() == listed

    def test_the_operations_read_empty_as_unset(self, ops: Operations) -> None:
        queued(ops, "s-blank")
        assert ops.agreement(ANN) == ops.agreement(ANN, scope="")
        assert ops.spot_checks(ANN) == ops.spot_checks(ANN, task_type="", decision="")
