"""The console's fixes of issue 33's break test, over HTTP on a real deployment (``console_app``).

An approval tied to the round the page showed; signing out ending the session where the cookie
is replayed (and the event stream); asking for a spot-check from a task's page; notes of 1,900
CJK characters; a form too large answered 413 with the text kept; the agreement figures'
``too_few`` marker, round links and shadow details; the small ones (a filter offered once, 409
for a task not awaiting, the sign-in words, the missed-rule field named, cookies cleared with
their attributes, the inbox's waiting line); an approval refused while a newer round is queued,
a force_deliver's card showing and approving the round it delivers, forms naming a bad
``submission_id``, a refused ask keeping its note, signing out of a dead session.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from html import unescape

import httpx
import pytest

from qgs_worker.api.console import events
from qgs_worker.api.console.sessions import SESSION_COOKIE
from qgs_worker.store.keys import NewKey, create_key, revoke_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.integration.console_app import (
    Served,
    approval_round_of,
    console_server,
    csrf_of,
    signed_in,
)

pytestmark = pytest.mark.integration

CJK_NOTE = "確認済みの振込先口座です" * 158 + "承認しま"  # 1,900 characters, 3 bytes each
SUBMISSION = re.compile(r'name="submission_id" value="([^"]+)"')


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with console_server(redis_url, tmp_path_factory.mktemp("console-fixes")) as running:
        yield running


@pytest.fixture(scope="module")
def sue(served: Served) -> NewKey:
    """Operator ``sue``: view, approve and spot-check, sees every principal."""
    return create_key(
        served.ops.repo, "sue", master=master_secret(served.ops.settings),
        operator=True, scopes=("view", "approve", "spot-check"), sees=("all",),
    )  # fmt: skip


def next_round(served: Served, task: str, deliverable: str, *, final: bool = True) -> str:
    """Alice submits another round of ``task`` (final by default) and waits for its decision."""
    with served.agent("alice") as http:
        sent = http.post(
            f"/v1/tasks/{task}/rounds", json={"deliverable": deliverable, "final": final}
        )
        assert 202 == sent.status_code, sent.text
        sid = str(sent.json()["submission_id"])
        got = http.get(f"/v1/submissions/{sid}/decision", params={"wait_s": 30})
        assert 200 == got.status_code, got.text
    return sid


def approval_webhooks(served: Served, task: str) -> list[bytes]:
    return [
        r.body
        for r in served.receiver.received
        if b"qgs.approval" in r.body and task.encode() in r.body
    ]


class TestAnApprovalIsOfTheRoundShown:
    """The form names its round; a new round since the page loaded is not approved by it."""

    def test_an_old_form_after_a_new_round_is_refused_with_409(self, served: Served) -> None:
        task = served.critical_task(
            "alice", "Wire to IBAN DE89370400440532013000. [[judge PASS 95]]"
        )
        with signed_in(served.url, served.keys["olivia"].key) as http:
            inbox = http.get("/ui/inbox").text
            first = approval_round_of(inbox, task)
            second = next_round(
                served, task, "Wire to IBAN GB33BUKB20201555555555. [[judge PASS 96]]"
            )
            got = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(inbox), "decision": "approve", "note": "looks right",
                      "submission_id": first},
            )  # fmt: skip
            assert 409 == got.status_code, got.text
            assert "moved on to round 2 since you opened round 1: review it again" in got.text
            assert "looks right</textarea>" in got.text  # the note as typed
            assert second == approval_round_of(got.text, task)  # the new round's form
            assert [] == served.ops.repo.list_approvals(task)
            assert [] == approval_webhooks(served, task)
            done = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(got.text), "decision": "approve", "note": "new IBAN checked",
                      "submission_id": second},
            )  # fmt: skip
            assert 303 == done.status_code, done.text
        [approval] = served.ops.repo.list_approvals(task)
        assert approval.note == "new IBAN checked"
        served.receiver.wait_for(1)  # the decision's and the approval's go to the receiver

    def test_an_old_form_while_the_new_round_is_still_queued_is_refused(
        self, served: Served
    ) -> None:
        task = served.critical_task(
            "alice", "Wire to IBAN DE89370400440532013000. [[judge PASS 95]]", callback=False
        )
        with signed_in(served.url, served.keys["olivia"].key) as http:
            html = http.get(f"/ui/tasks/{task}").text
            # Round 2 is submitted (202) and recorded; no worker has stored it yet.
            served.ops.repo.add_outbox("s-queued-" + task, task, "{}", round_number=2)
            try:
                got = http.post(
                    f"/ui/tasks/{task}/approval",
                    data={"csrf": csrf_of(html), "decision": "approve", "note": "old page",
                          "submission_id": approval_round_of(html, task)},
                )  # fmt: skip
            finally:
                served.ops.repo.drop_outbox("s-queued-" + task)
        assert 409 == got.status_code, got.text
        assert "moved on to round 2 since you opened round 1: review it again" in got.text
        assert "old page</textarea>" in got.text
        assert [] == served.ops.repo.list_approvals(task)

    def test_a_force_deliver_card_shows_and_approves_the_round_it_delivers(
        self, served: Served
    ) -> None:
        task = served.critical_task(
            "alice", "Draft one. [[judge FAIL 50]]", callback=False, final=False
        )
        best = next_round(served, task, "Draft two, better. [[judge FAIL 70]]", final=False)
        last = next_round(served, task, "Draft three, worse. [[judge FAIL 45]]", final=True)
        me = served.ops.access.session_principal(str(served.keys["olivia"].key_id))
        decision = served.ops.task_page(me, task).facts.rounds[-1].decision
        assert decision is not None and "force_deliver" == decision.kind.value, decision
        assert 2 == decision.best_round
        with signed_in(served.url, served.keys["olivia"].key) as http:
            inbox = http.get("/ui/inbox").text
            card = inbox[inbox.index(f'data-task-id="{task}"') :]
            card = card[: card.index("</article>")]
            assert best == approval_round_of(card, task)  # the form names round 2
            assert "Approving delivers round 2 (the best round)" in card
            assert "the last round 3 is shown for comparison" in card
            assert card.index("Draft two, better.") < card.index("Draft three, worse.")
            assert "Your decision is on round 3 as shown" not in card
            page = http.get(f"/ui/tasks/{task}").text
            assert best == approval_round_of(page, task)
            done = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(inbox), "decision": "approve", "note": "round 2 is fine",
                      "submission_id": best},
            )  # fmt: skip
            assert 303 == done.status_code, done.text
        [approval] = served.ops.repo.list_approvals(task)
        assert approval.note == "round 2 is fine"
        assert last != best

    def test_a_form_without_its_round_is_refused(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            token = csrf_of(http.get(f"/ui/tasks/{task}").text)
            got = http.post(
                f"/ui/tasks/{task}/approval", data={"csrf": token, "decision": "approve"}
            )
        assert 422 == got.status_code and "'submission_id' is missing" in unescape(got.text)
        assert [] == served.ops.repo.list_approvals(task)

    def test_a_task_not_awaiting_is_409_as_the_api_says(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            html = http.get(f"/ui/tasks/{task}").text
            form = {"csrf": csrf_of(html), "submission_id": approval_round_of(html, task)}
            assert (
                303
                == http.post(
                    f"/ui/tasks/{task}/approval", data={**form, "decision": "approve"}
                ).status_code
            )
            again = http.post(
                f"/ui/tasks/{task}/approval", data={**form, "decision": "reject", "note": "no"}
            )
        assert 409 == again.status_code, again.text


class TestSigningOut:
    """After POST /ui/logout the old cookie is refused everywhere, not only in that browser."""

    def test_a_replayed_cookie_is_refused_after_signing_out(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            cookie = http.cookies[SESSION_COOKIE]
            html = http.get(f"/ui/tasks/{task}").text
            out = http.post("/ui/logout", data={"csrf": csrf_of(html)})
            assert 303 == out.status_code
            cleared = out.headers["set-cookie"].lower()
        assert "max-age=0" in cleared and "httponly" in cleared and "samesite=strict" in cleared
        assert "path=/ui" in cleared
        with httpx.Client(base_url=served.url, cookies={SESSION_COOKIE: cookie}) as replay:
            page = replay.get("/ui/inbox")
            assert 303 == page.status_code and page.headers["location"].startswith("/ui/login")
            assert 401 == replay.get("/ui/events").status_code
            post = replay.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(html), "decision": "approve",
                      "submission_id": approval_round_of(html, task)},
            )  # fmt: skip
        assert 403 == post.status_code
        assert [] == served.ops.repo.list_approvals(task)

    def test_signing_out_ends_an_open_event_stream(
        self, served: Served, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(events, "KEEPALIVE_S", 0.2)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            token = csrf_of(http.get("/ui/inbox").text)
            seen: list[str] = []
            with http.stream("GET", "/ui/events", timeout=60) as stream:
                lines = stream.iter_lines()
                for line in lines:
                    seen.append(line)
                    if line.startswith("event: ready"):
                        break
                threading.Thread(
                    target=lambda: httpx.post(
                        f"{served.url}/ui/logout", data={"csrf": token}, cookies=http.cookies
                    )
                ).start()
                seen.extend(lines)  # the stream ends by itself
        assert "event: signed-out" in seen


class TestAskingForASpotCheck:
    """A task's page asks for a spot-check of a round; the page's 409 points to the button."""

    def test_the_button_queues_the_round_and_it_is_labelled_with_a_cjk_note(
        self, served: Served, sue: NewKey
    ) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, sue.key) as http:
            page = http.get(f"/ui/tasks/{task}").text
            assert "Ask for a spot-check" in page
            sid = re.search(
                rf'action="/ui/tasks/{task}/spot-checks".*?name="submission_id" value="([^"]+)"',
                page, re.S,
            )[1]  # type: ignore[index]  # fmt: skip
            asked = http.post(
                f"/ui/tasks/{task}/spot-checks",
                data={"csrf": csrf_of(page), "submission_id": sid, "note": "the IBAN"},
            )
            assert 303 == asked.status_code, asked.text
            assert "done=asked" in asked.headers["location"]
            checks = http.get("/ui/spot-checks").text
            assert f'data-submission-id="{sid}"' in checks
            label = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={"csrf": csrf_of(checks), "decision_correct": "yes", "verdict": "PASS",
                      "note": CJK_NOTE},
            )  # fmt: skip
            assert 303 == label.status_code, label.text
        [item] = served.ops.repo.spot_checks(None, status="all", submission_id=sid)
        assert [CJK_NOTE] == [lb["note"] for lb in item.labels]
        assert "sue" == item.asked_by

    def test_a_round_never_asked_for_points_to_the_button(
        self, served: Served, sue: NewKey
    ) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, sue.key) as http:
            page = http.get(f"/ui/tasks/{task}").text
            sid = SUBMISSION.search(page)[1]  # type: ignore[index]
            got = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={"csrf": csrf_of(page), "decision_correct": "yes", "verdict": "PASS",
                      "note": "typed text"},
            )  # fmt: skip
        assert 409 == got.status_code
        assert "Ask for a spot-check" in got.text and "/v1/spot-checks" not in got.text

    def test_a_reader_has_no_button(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["rita"].key) as http:
            assert "Ask for a spot-check" not in http.get(f"/ui/tasks/{task}").text


class TestFormSizes:
    """Notes of 2,000 characters in any script fit; a larger form is a 413 that keeps the text."""

    def test_a_1900_character_cjk_note_approves(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            html = http.get(f"/ui/tasks/{task}").text
            done = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(html), "decision": "approve", "note": CJK_NOTE,
                      "submission_id": approval_round_of(html, task)},
            )  # fmt: skip
        assert 303 == done.status_code, done.text
        assert [CJK_NOTE] == [a.note for a in served.ops.repo.list_approvals(task)]

    def test_a_form_too_large_is_413_naming_the_field_with_the_text_kept(
        self, served: Served
    ) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        note = "長" * 8000  # 72,000 bytes URL-encoded
        with signed_in(served.url, served.keys["olivia"].key) as http:
            html = http.get(f"/ui/tasks/{task}").text
            got = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(html), "decision": "approve", "note": note,
                      "submission_id": approval_round_of(html, task)},
            )  # fmt: skip
        assert 413 == got.status_code
        assert (
            "'note' has 8,000 characters" in unescape(got.text) and f"{note}</textarea>" in got.text
        )
        assert [] == served.ops.repo.list_approvals(task)


class TestFiguresAndSmallOnes:
    """The figures' markers and links; the small wording and status fixes."""

    def test_the_figures_mark_few_labels_and_link_their_rounds(
        self, served: Served, sue: NewKey
    ) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        me = served.ops.access.session_principal(str(sue.key_id))
        failed = served.critical_task("alice", "Half done. [[judge FAIL 40]]", callback=False)
        sid = served.ops.task_page(me, task).facts.rounds[-1].submission_id
        other = served.ops.task_page(me, failed).facts.rounds[-1].submission_id
        for round_id, verdict in ((sid, "PASS"), (other, "FAIL")):  # kappa defined: two classes
            served.ops.request_spot_check(me, round_id)
            served.ops.label_spot_check(me, round_id, decision_correct=True, verdict=verdict)
        served.ops.set_shadow(me, "rule", "sql_drop", in_shadow=False, note="trial over")
        with signed_in(served.url, sue.key) as http:
            checks = http.get("/ui/spot-checks").text
            assert "few labels (" in checks
            assert f'href="/ui/rounds/{sid}"' in checks
            shadow = checks[checks.index('id="shadow"') :]
            assert "trial over" in shadow or "sue" in shadow
            assert "Kappa (95% interval)" in shadow and "Decided by" in shadow
            link = http.get(f"/ui/rounds/{sid}")
        assert 303 == link.status_code and link.headers["location"] == f"/ui/tasks/{task}#round-1"

    def test_the_live_filter_offers_awaiting_approval_once(self, served: Served) -> None:
        with signed_in(served.url, served.keys["olivia"].key) as http:
            page = http.get("/ui/live").text
            bad = http.get("/ui/live", params={"decision": "nope"}).text
        assert 1 == page.count('value="awaiting_approval"')
        assert 1 == bad.count("awaiting_approval")

    def test_the_sign_in_error_speaks_of_pasting_a_key(self, served: Served) -> None:
        with httpx.Client(base_url=served.url) as http:
            token = csrf_of(http.get("/ui/login").text)
            got = http.post("/ui/login", data={"csrf": token, "key": "qgs_nope", "next": ""})
        assert 401 == got.status_code and "paste a live operator key" in got.text
        assert "Authorization" not in got.text

    def test_a_missed_rule_typo_names_the_forms_field(self, served: Served, sue: NewKey) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        me = served.ops.access.session_principal(str(sue.key_id))
        sid = served.ops.task_page(me, task).facts.rounds[-1].submission_id
        served.ops.request_spot_check(me, sid)
        with signed_in(served.url, sue.key) as http:
            checks = http.get("/ui/spot-checks").text
            got = http.post(
                f"/ui/spot-checks/{sid}/labels",
                data={"csrf": csrf_of(checks), "decision_correct": "no", "verdict": "FAIL",
                      "missed_rule": "sql_dorp", "missed_severity": "P0", "note": "kept"},
            )  # fmt: skip
        assert 422 == got.status_code
        assert (
            "'missed_rule' names no rule" in unescape(got.text)
            and "severities.sql_dorp" not in got.text
        )
        assert 'value="sql_dorp"' in got.text and "kept</textarea>" in got.text

    def test_the_inbox_says_how_long_and_when_exactly(self, served: Served) -> None:
        served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            inbox = http.get("/ui/inbox").text
        assert re.search(r"Waiting \d+ (s|min)[^(]*\(decided <time data-exact=\"yes\"", inbox)
        assert "(since" not in inbox

    def test_signing_in_clears_the_sign_in_cookie_with_its_attributes(self, served: Served) -> None:
        with httpx.Client(base_url=served.url) as http:
            token = csrf_of(http.get("/ui/login").text)
            got = http.post(
                "/ui/login", data={"csrf": token, "key": served.keys["olivia"].key, "next": ""}
            )
        cleared = next(c for c in got.headers.get_list("set-cookie") if c.startswith("qgs_signin="))
        assert "httponly" in cleared.lower() and "samesite=strict" in cleared.lower()


class TestFormsThatNameTheirFaults:
    """A bad submission_id, a refused ask keeping its note, a dead session signing out."""

    def test_an_unknown_submission_id_is_404_naming_the_field(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, served.keys["olivia"].key) as http:
            html = http.get(f"/ui/tasks/{task}").text
            got = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(html), "decision": "approve", "note": "kept note",
                      "submission_id": "s-nope"},
            )  # fmt: skip
        assert 404 == got.status_code, got.text
        assert "'submission_id' 's-nope' names no round" in unescape(got.text)
        assert "kept note</textarea>" in got.text
        assert [] == served.ops.repo.list_approvals(task)

    def test_a_submission_of_an_unseen_agent_is_404_naming_the_field(self, served: Served) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with served.agent("bob") as api:
            made = api.post("/v1/tasks", json={"request": "summarise the notes"})
            other = made.json()["id"]
            sent = api.post(f"/v1/tasks/{other}/rounds", json={"deliverable": "x"})
            foreign = str(sent.json()["submission_id"])
        with signed_in(served.url, served.keys["olivia"].key) as http:  # sees alice only
            html = http.get(f"/ui/tasks/{task}").text
            got = http.post(
                f"/ui/tasks/{task}/approval",
                data={"csrf": csrf_of(html), "decision": "approve", "submission_id": foreign},
            )
        assert 404 == got.status_code, got.text
        assert f"'submission_id' '{foreign}' names no round" in unescape(got.text)

    def test_a_refused_ask_keeps_the_note_as_typed(self, served: Served, sue: NewKey) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        with signed_in(served.url, sue.key) as http:
            page = http.get(f"/ui/tasks/{task}").text
            sid = re.search(
                rf'action="/ui/tasks/{task}/spot-checks".*?name="submission_id" value="([^"]+)"',
                page, re.S,
            )[1]  # type: ignore[index]  # fmt: skip
            long = http.post(
                f"/ui/tasks/{task}/spot-checks",
                data={"csrf": csrf_of(page), "submission_id": sid, "note": "why " * 600},
            )
            huge = http.post(
                f"/ui/tasks/{task}/spot-checks",
                data={"csrf": csrf_of(page), "submission_id": sid, "note": "長" * 8000},
            )
        assert 422 == long.status_code, long.text
        assert f'value="{"why " * 600}"' in long.text
        assert 413 == huge.status_code, huge.text
        assert f'value="{"長" * 8000}"' in huge.text

    def test_asking_for_an_undecided_round_says_to_wait_for_its_decision(
        self, served: Served, sue: NewKey
    ) -> None:
        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        served.ops.repo.add_outbox("s-undecided-" + task, task, "{}", round_number=2)
        try:
            with signed_in(served.url, sue.key) as http:
                page = http.get(f"/ui/tasks/{task}").text
                got = http.post(
                    f"/ui/tasks/{task}/spot-checks",
                    data={"csrf": csrf_of(page), "submission_id": "s-undecided-" + task},
                )
        finally:
            served.ops.repo.drop_outbox("s-undecided-" + task)
        text = unescape(got.text)
        assert 422 == got.status_code, text
        assert "has no decided round yet: wait for its decision" in text
        assert "no round for submission" not in text

    def test_asking_for_a_stored_round_not_decided_says_to_wait(
        self, served: Served, sue: NewKey
    ) -> None:
        from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
        from qgs_worker.queue import pipeline
        from qgs_worker.service.submission import Submission

        task = served.critical_task("alice", "Sent it. [[judge PASS 95]]", callback=False)
        sid = "s-stored-" + task
        # Round 2 stored by an intake, its review not run (no job dispatched).
        stored = Submission(
            submission_id=sid, task_id=task, round_number=2, final=True,
            deliverable=Deliverable(text="Sent it again. [[judge PASS 95]]"),
        )  # fmt: skip
        policies = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
        assert pipeline.intake(served.ops.repo, stored, policies) is not None
        with signed_in(served.url, sue.key) as http:
            page = http.get(f"/ui/tasks/{task}").text
            got = http.post(
                f"/ui/tasks/{task}/spot-checks",
                data={"csrf": csrf_of(page), "submission_id": sid, "note": "look"},
            )
        text = unescape(got.text)
        assert 422 == got.status_code, text
        assert f"'submission_id' '{sid}' has no decided round yet: wait for its decision" in text
        assert "/v1/submissions" not in text

    def test_a_done_too_long_is_a_console_page(self, served: Served, sue: NewKey) -> None:
        with signed_in(served.url, sue.key) as http:
            got = http.get("/ui/spot-checks", params={"done": "s" * 129})
        assert 422 == got.status_code
        assert got.headers["content-type"].startswith("text/html")
        assert "'done' must be a submission id, at most 128 characters" in unescape(got.text)

    def test_signing_out_of_a_dead_session_clears_the_cookie(self, served: Served) -> None:
        key = create_key(
            served.ops.repo, "olga", master=master_secret(served.ops.settings),
            operator=True, scopes=("view",), sees=("alice",),
        )  # fmt: skip
        with signed_in(served.url, key.key) as http:
            token = csrf_of(http.get("/ui/inbox").text)
            revoke_key(served.ops.repo, str(key.key_id))
            out = http.post("/ui/logout", data={"csrf": token})
        assert 303 == out.status_code, out.text
        assert out.headers["location"] == "/ui/login"
        cleared = [c.lower() for c in out.headers.get_list("set-cookie")]
        assert any(c.startswith(f"{SESSION_COOKIE}=") and "max-age=0" in c for c in cleared)
