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


class TestNames:
    """A rule or judge name QGS does not have is refused, naming the field, value and close names."""

    def test_a_shadow_rule_typo_is_refused_with_the_close_name(self, ops: Operations) -> None:
        with pytest.raises(InputError) as caught:
            ops.set_shadow(ANN, "rule", "sql_dorp", in_shadow=True, note="measuring")
        found = problem_for(caught.value)
        assert found is not None
        status, body = found
        assert (422, "name") == (status, body["errors"][0]["field"])
        assert "'sql_dorp'" in body["detail"] and "did you mean 'sql_drop'" in body["detail"]
        assert {} == ops.repo.shadow_changes()  # no phantom row
        made = ops.set_shadow(ANN, "rule", "sql_drop", in_shadow=True, note="measuring")
        assert made["in_shadow"]

    def test_a_judge_is_one_configured_or_one_that_reviewed(self, ops: Operations) -> None:
        with pytest.raises(InputError, match="did you mean 'rules judge'"):
            ops.set_shadow(ANN, "judge", "rule judge", in_shadow=True, note="measuring")
        with pytest.raises(InputError, match="got 'scripted'"):
            ops.set_shadow(ANN, "judge", "scripted", in_shadow=True, note="measuring")
        queued(ops, "s-judged")  # reviewed by the scripted judge: its name is now known
        assert ops.set_shadow(ANN, "judge", "scripted", in_shadow=True, note="new judge")[
            "in_shadow"
        ]
        assert ops.set_shadow(ANN, "judge", "rules judge", in_shadow=False, note="x")["name"]

    def test_a_label_naming_an_unknown_rule_is_refused_and_nothing_stored(
        self, ops: Operations
    ) -> None:
        sid = queued(ops, "s-label")
        with pytest.raises(InputError) as caught:
            ops.label_spot_check(
                ANN, sid, decision_correct=False, verdict="FAIL", severities={"sql_dorp": "P1"}
            )
        found = problem_for(caught.value)
        assert found is not None
        assert "severities.sql_dorp" == found[1]["errors"][0]["field"]
        assert "did you mean 'sql_drop'" in found[1]["detail"]
        assert [] == ops.repo.label_records()
        made = ops.label_spot_check(
            ANN, sid, decision_correct=False, verdict="FAIL", severities={"sql_drop": "P1"}
        )
        assert {"sql_drop": "P1"} == made["labels"][0]["severities"]  # a miss of a real rule

    def test_a_label_may_name_what_its_round_carries(self, ops: Operations) -> None:
        sid = queued(ops, "s-carries")
        ops.repo.round_rule_keys = lambda _sid: {"role_failed"}  # type: ignore[method-assign]
        made = ops.label_spot_check(
            ANN, sid, decision_correct=True, verdict="PASS", severities={"role_failed": "none"}
        )
        assert {"role_failed": "none"} == made["labels"][0]["severities"]

    def test_the_http_face_answers_422_problem_json(self, ops: Operations) -> None:
        from fastapi.testclient import TestClient

        from qgs_worker.api.http import create_app
        from qgs_worker.store.keys import create_key
        from qgs_worker.webhooks.key_secrets import master_secret

        sid = queued(ops, "s-http")
        key = create_key(
            ops.repo, "alice", master=master_secret(ops.settings), scopes=(SCOPE_SPOT_CHECK,)
        )
        ops.repo.task_principal = lambda _task: (True, "alice")  # type: ignore[method-assign]
        with TestClient(create_app(operations=ops)) as http:
            found = http.post(
                f"/v1/spot-checks/{sid}/labels",
                headers={"Authorization": f"Bearer {key.key}"},
                json={
                    "decision_correct": True,
                    "verdict": "PASS",
                    "severities": {"sql_drp": "none"},
                },
            )
        assert 422 == found.status_code
        assert found.headers["content-type"].startswith("application/problem+json")
        assert "did you mean 'sql_drop'" in found.json()["detail"]

    def test_the_settings_refuse_unknown_names(self, tmp_path: Path) -> None:
        from pydantic import ValidationError

        from qgs_worker.config.settings import JudgeSettings, SpotCheckSettings
        from qgs_worker.errors import ConfigurationError

        with pytest.raises(ValidationError, match="did you mean 'sql_drop'"):
            SpotCheckSettings(shadow_rules=("sql_dorp",))
        with pytest.raises(ConfigurationError, match=r"'QGS_SPOTCHECK__SHADOW_JUDGES'.*'openai:"):
            Settings(
                data_dir=tmp_path,
                judge=JudgeSettings(kind="openai", api_key="k", model="gpt-4o-mini"),
                spotcheck=SpotCheckSettings(shadow_judges=("openai:gpt4o-mini",)),
            )
        fine = Settings(
            data_dir=tmp_path,
            judge=JudgeSettings(kind="panel", api_key="k", panel_models=("a", "b")),
            spotcheck=SpotCheckSettings(shadow_judges=("openai:b",), shadow_rules=("sql_drop",)),
        )
        assert ("openai:b",) == fine.spotcheck.shadow_judges


class TestKnownNames:
    """The names checked are the ones QGS really gives."""

    def test_every_rule_literal_in_the_code_is_a_known_rule(self) -> None:
        import re

        from qgs_worker.core.spot_names import rule_names

        root = Path(__file__).resolve().parents[2] / "qgs_worker"
        given = set()
        for path in root.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            given |= set(re.findall(r'\brule="([a-z0-9_]+)"', text))
            given |= set(re.findall(r'return "(ordered_[a-z_]+)"', text))
            # a rule id kept in a constant: NAME = "id" with a docstring naming ``Finding.rule``
            given |= set(re.findall(r'^[A-Z_]+ = "([a-z0-9_]+)"\n"""The ``Finding\.rule``', text, re.M))
        given |= {"addressed_order", "sensitive_order"}  # rule="a" if ... else "b"
        assert given and given <= rule_names(), given - rule_names()

    @pytest.mark.parametrize(
        ("kind", "models"), [("rules", ()), ("openai", ()), ("panel", ("m1", "m2"))]
    )
    def test_judge_names_are_the_built_judges_names(
        self, kind: str, models: tuple[str, ...]
    ) -> None:
        from qgs_worker.core.spot_names import judge_names
        from qgs_worker.judges import make_judge

        judge = make_judge(kind, api_key="k", model="gpt-4o-mini", panel_models=models)
        assert judge.name in judge_names(kind, "gpt-4o-mini", models)
        members = {j.name for j in getattr(judge, "judges", ())}
        assert members <= judge_names(kind, "gpt-4o-mini", models)
