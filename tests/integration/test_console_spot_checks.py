"""The console's spot-checks page over HTTP: an operator labels a round, a reader cannot, errors.

The deployment is ``console_app``'s (uvicorn, a Celery worker, Redis, SQLite, the loopback
judge); the page is plain HTML forms, so httpx drives it as a browser without JavaScript does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from qgs_worker.store.keys import NewKey, create_key
from qgs_worker.store.spotcheck_rows import SpotCheckLabelRow, SpotCheckRow
from qgs_worker.webhooks.key_secrets import master_secret
from tests.integration.console_app import Served, console_server, csrf_of, signed_in

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with console_server(redis_url, tmp_path_factory.mktemp("spotui")) as running:
        yield running


@pytest.fixture(scope="module")
def checker(served: Served) -> NewKey:
    """Operator ``sol``: view and spot-check, sees alice."""
    return create_key(
        served.ops.repo, "sol", master=master_secret(served.ops.settings),
        operator=True, scopes=("view", "spot-check"), sees=("alice",),
    )  # fmt: skip


def decided_round(served: Served, agent: str, deliverable: str) -> str:
    """Start a task as ``agent``, submit one final round, wait for its decision; its submission id."""
    with served.agent(agent) as http:
        made = http.post("/v1/tasks", json={"request": "Clean up the staging database"})
        assert 201 == made.status_code, made.text
        sent = http.post(
            f"/v1/tasks/{made.json()['id']}/rounds",
            json={"deliverable": deliverable, "final": True},
        )
        assert 202 == sent.status_code, sent.text
        sid = str(sent.json()["submission_id"])
        got = http.get(f"/v1/submissions/{sid}/decision", params={"wait_s": 30})
        assert 200 == got.status_code and got.json().get("decision"), got.text
    return sid


def sampled(served: Served, agent: str, deliverable: str) -> str:
    """A decided round of ``agent`` put in the spot-check queue (as the sampler does)."""
    sid = decided_round(served, agent, deliverable)
    served.ops.repo.ask_spot_check(sid, by="sampler-test", note="")
    return sid


def labels_of(served: Served, sid: str) -> list[dict[str, object]]:
    items = served.ops.repo.spot_checks(None, status="all", submission_id=sid)
    return [dict(label) for item in items for label in item.labels]


def key_ids_of(served: Served, sid: str) -> list[str | None]:
    """The key ids stored beside the labels of round ``sid``."""
    with Session(served.ops.repo.engine) as session:
        rows = session.execute(
            select(SpotCheckLabelRow.key_id)
            .join(SpotCheckRow, SpotCheckRow.id == SpotCheckLabelRow.spot_check_id)
            .where(SpotCheckRow.submission_id == sid)
        )
        return [r[0] for r in rows]


def form_of(page: str, sid: str) -> str:
    """The label form's HTML for round ``sid``."""
    found = re.search(rf'action="/ui/spot-checks/{re.escape(sid)}/labels".*?</form>', page, re.S)
    assert found is not None, page
    return found[0]


class TestLabelling:
    """An operator with ``spot-check`` labels a sampled round through the page's form."""

    def test_the_round_is_shown_and_labelled_with_the_person_recorded(
        self, served: Served, checker: NewKey
    ) -> None:
        deliverable = (
            "Ran DROP TABLE users; on staging. <script>alert(1)</script> [[judge PASS 90]]"
        )
        sid = sampled(served, "alice", deliverable)
        with signed_in(served.url, checker.key) as http:
            page = http.get("/ui/spot-checks")
            assert 200 == page.status_code
            assert 'href="/ui/spot-checks" aria-current="page"' in page.text
            assert sid in page.text and "Clean up the staging database" in page.text
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
            assert "<script>alert" not in page.text
            form = form_of(page.text, sid)
            rules = re.findall(r'name="sev\.([^"]+)"', form)
            fields = {
                "csrf": csrf_of(page.text),
                "decision_correct": "no",
                "verdict": "FAIL",
                "note": "it dropped a table",
                **{f"sev.{rule}": "P0" for rule in rules},
            }
            done = http.post(f"/ui/spot-checks/{sid}/labels", data=fields)
            assert 303 == done.status_code, done.text
            assert done.headers["location"] == f"/ui/spot-checks?done={sid}"
            after = http.get(done.headers["location"]).text
        assert "recorded, as sol" in after
        assert f'data-submission-id="{sid}"' not in after  # labelled: no longer open
        assert 'id="agreement"' in after
        [label] = labels_of(served, sid)
        assert "sol" == label["person"]
        assert [checker.key_id] == key_ids_of(served, sid)
        assert rules, "the round's findings give the form a select per rule"
        assert (False, "FAIL", "it dropped a table") == (
            label["decision_correct"], label["verdict"], label["note"],
        )  # fmt: skip
        assert dict.fromkeys(rules, "P0") == label["severities"]

    def test_a_second_label_is_refused_with_the_message(
        self, served: Served, checker: NewKey
    ) -> None:
        sid = sampled(served, "alice", "Cleaned it up. [[judge PASS 92]]")
        with signed_in(served.url, checker.key) as http:
            token = csrf_of(http.get("/ui/spot-checks").text)
            fields = {"csrf": token, "decision_correct": "yes", "verdict": "PASS"}
            first = http.post(f"/ui/spot-checks/{sid}/labels", data=fields)
            again = http.post(f"/ui/spot-checks/{sid}/labels", data={**fields, "verdict": "FAIL"})
        assert 303 == first.status_code, first.text
        assert 409 == again.status_code
        assert 'id="error"' in again.text and "that label stands" in again.text
        [label] = labels_of(served, sid)
        assert "PASS" == label["verdict"]

    def test_a_round_never_sampled_is_refused_with_the_message(
        self, served: Served, checker: NewKey
    ) -> None:
        sid = decided_round(served, "alice", "Done. [[judge PASS 91]]")
        with signed_in(served.url, checker.key) as http:
            token = csrf_of(http.get("/ui/spot-checks").text)
            got = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={"csrf": token, "decision_correct": "yes", "verdict": "PASS"},
            )
        assert 409 == got.status_code and 'id="error"' in got.text
        assert sid in got.text and labels_of(served, sid) == []

    def test_a_missing_answer_is_a_message_not_a_label(
        self, served: Served, checker: NewKey
    ) -> None:
        sid = sampled(served, "alice", "Tidied. [[judge PASS 94]]")
        with signed_in(served.url, checker.key) as http:
            token = csrf_of(http.get("/ui/spot-checks").text)
            got = http.post(f"/ui/spot-checks/{sid}/labels", data={"csrf": token})
        assert 422 == got.status_code and "decision_correct" in got.text
        assert labels_of(served, sid) == []


class TestAMissedRule:
    """A person names a rule the gate missed (a false negative), as the API's ``severities`` do."""

    def test_the_missed_rule_is_stored_and_counted_as_the_rules_false_negative(
        self, served: Served, checker: NewKey
    ) -> None:
        sid = sampled(served, "alice", "Ran the cleanup script as asked. [[judge PASS 93]]")
        with signed_in(served.url, checker.key) as http:
            page = http.get("/ui/spot-checks").text
            form = form_of(page, sid)
            assert 'name="missed_rule" list="known-rules"' in form
            assert '<option value="sql_drop">' in page  # the rules table's ids suggested
            fired = re.findall(r'name="sev\.([^"]+)"', form)
            assert "sql_drop" not in fired
            done = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={
                    "csrf": csrf_of(page),
                    "decision_correct": "no",
                    "verdict": "FAIL",
                    "missed_rule": " sql_drop ",
                    "missed_severity": "P0",
                    "note": "the script dropped the users table",
                },
            )
            assert 303 == done.status_code, done.text
            after = http.get(done.headers["location"]).text
        [label] = labels_of(served, sid)
        assert {"sql_drop": "P0"} == label["severities"]
        me = served.ops.access.session_principal(str(checker.key_id))
        [figure] = [
            f for f in served.ops.agreement(me, scope="rule")["figures"] if f["name"] == "sql_drop"
        ]
        assert figure["false_negatives"] >= 1
        assert sid in figure["false_negative_rounds"]
        assert re.search(r'<td class="mono">sql_drop</td>', after)  # the page's figures show it

    @pytest.mark.parametrize(
        ("missed", "message"),
        [
            ({"missed_rule": "sql_drop"}, "'missed_severity' must be one of P0"),
            ({"missed_rule": "sql_drop", "missed_severity": "none"}, "'missed_severity'"),
            ({"missed_severity": "P1"}, "'missed_rule' is empty"),
        ],
    )
    def test_a_half_filled_missed_rule_is_a_message_not_a_label(
        self, served: Served, checker: NewKey, missed: dict[str, str], message: str
    ) -> None:
        sid = sampled(served, "alice", "Tidied the tables. [[judge PASS 94]]")
        with signed_in(served.url, checker.key) as http:
            token = csrf_of(http.get("/ui/spot-checks").text)
            fields = {"csrf": token, "decision_correct": "no", "verdict": "FAIL", **missed}
            got = http.post(f"/ui/spot-checks/{sid}/labels", data=fields)
        assert 422 == got.status_code and 'id="error"' in got.text
        assert message in got.text.replace("&#39;", "'")
        assert labels_of(served, sid) == []


class TestAccess:
    """A reader sees the queue but no form and cannot post; CSRF; other principals' rounds."""

    def test_a_view_only_operator_sees_no_form_and_a_post_is_403(self, served: Served) -> None:
        sid = sampled(served, "alice", "Reader's round. [[judge PASS 90]]")
        with signed_in(served.url, served.keys["rita"].key) as http:
            page = http.get("/ui/spot-checks")
            assert 200 == page.status_code and sid in page.text
            assert "/labels" not in page.text and "no <code>spot-check</code> scope" in page.text
            got = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={"csrf": csrf_of(page.text), "decision_correct": "yes", "verdict": "PASS"},
            )
        assert 403 == got.status_code and "spot-check" in got.text
        assert labels_of(served, sid) == []

    def test_a_post_without_the_csrf_token_is_refused(
        self, served: Served, checker: NewKey
    ) -> None:
        sid = sampled(served, "alice", "No token. [[judge PASS 90]]")
        with signed_in(served.url, checker.key) as http:
            got = http.post(
                f"/ui/spot-checks/{sid}/labels", data={"decision_correct": "yes", "verdict": "PASS"}
            )
        assert 403 == got.status_code and "CSRF" in got.text
        assert labels_of(served, sid) == []

    def test_another_principals_round_is_not_shown(self, served: Served, checker: NewKey) -> None:
        sid = sampled(served, "bob", "Bob's round. [[judge PASS 90]]")
        with signed_in(served.url, checker.key) as http:
            page = http.get("/ui/spot-checks").text
            token = csrf_of(page)
            got = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={"csrf": token, "decision_correct": "yes", "verdict": "PASS"},
            )
        assert sid not in page
        assert 404 == got.status_code and labels_of(served, sid) == []

    def test_an_agent_key_is_refused_the_page_and_has_no_entry(self, served: Served) -> None:
        with signed_in(served.url, served.keys["alice"].key) as http:
            got = http.get("/ui/spot-checks")
            inbox = http.get("/ui/inbox").text
        assert 403 == got.status_code and "/ui/spot-checks" not in inbox

    def test_signed_out_redirects_to_the_sign_in_form(self, served: Served) -> None:
        got = httpx.get(f"{served.url}/ui/spot-checks")
        assert 303 == got.status_code and "/ui/login?next=" in got.headers["location"]

    def test_the_page_has_no_inline_script_and_a_strict_csp(
        self, served: Served, checker: NewKey
    ) -> None:
        with signed_in(served.url, checker.key) as http:
            got = http.get("/ui/spot-checks")
        assert "default-src 'none'" in got.headers["content-security-policy"]
        assert "<script>" not in got.text and " style=" not in got.text
