"""The spot-check operations as every face calls them: names checked, blanks, the errors' words.

``Operations`` over a SQLite file (no broker): rounds are decided in-process, as
``test_spotcheck`` decides them, and the operations are called as the HTTP routes, the MCP tools
and ``qgs shadow`` call them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from qgs_worker.api import Operations
from qgs_worker.api.access import Principal
from qgs_worker.api.problems import problem_for
from qgs_worker.config.settings import Settings
from qgs_worker.errors import InputError, LabelExistsError, SubmissionNotFoundError
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

    def test_an_operators_not_found_names_whom_they_see_and_the_fix(
        self, ops: Operations
    ) -> None:
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
