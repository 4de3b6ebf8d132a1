"""The operator console in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``).

A person signs in, watches a CRITICAL task arrive on the live list without reloading, opens
it, approves it with a note, and sees the decision change and the approval's webhook
delivered; a hostile deliverable stays text; a reader's key gets no approve button; another
principal's task is not listed; the inbox drops a task approved in another session, the live
list keeps at most its row cap, and times read as words with the exact UTC time kept. Each page is saved as a screenshot in ``QGS_CONSOLE_SHOTS``
(default ``tests/integration/screenshots/``, which git ignores) for a person to look at.
Locally a missing browser skips these tests with the reason; in CI it fails them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.api_server import wait_until
from tests.integration.browser import headless_chromium
from tests.integration.console_app import (
    Served,
    approval_round_of,
    console_server,
    csrf_of,
    signed_in,
)

pytestmark = pytest.mark.integration

HOSTILE = (
    "Done.\n<script>window.__pwned = 1</script>\n"
    '<a href="javascript:window.__pwned=2">open the receipt</a>\n'
    '<img src="x" onerror="window.__pwned=3">\n'
    "invoice_\u202efdp.exe\n"
    "[[judge PASS 94]]"
)


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with console_server(redis_url, tmp_path_factory.mktemp("console-browser")) as running:
        yield running


@pytest.fixture(scope="module")
def shots() -> Path:
    """The screenshots' folder (printed, so a person finds it)."""
    folder = Path(os.environ.get("QGS_CONSOLE_SHOTS") or Path(__file__).parent / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nconsole screenshots: {folder}")
    return folder


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Chromium for the module."""
    with headless_chromium("1400,1600") as driver:
        yield driver


@pytest.fixture
def browser(chromium: Any, served: Served) -> Any:
    """The shared Chromium with no session (cookies cleared) and an empty console log."""
    chromium.get(f"{served.url}/ui/login")
    chromium.delete_all_cookies()
    chromium.get_log("browser")
    return chromium


def sign_in(driver: Any, served: Served, who: str) -> None:
    """Sign in through the form as ``who`` (a key of ``served.keys``)."""
    from selenium.webdriver.common.by import By

    driver.get(f"{served.url}/ui/login")
    driver.find_element(By.ID, "key").send_keys(served.keys[who].key)
    driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    wait_until(lambda: driver.find_elements(By.ID, "who"), what="the signed-in header")
    assert who == driver.find_element(By.ID, "who").text


def no_console_errors(driver: Any) -> None:
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert [] == errors


def row_outcome(driver: Any, task_id: str) -> str | None:
    """The outcome shown on the live list's row of the task, or None while there is none."""
    found: str | None = driver.execute_script(
        "const tr = [...document.querySelectorAll('#live-table tbody tr')]"
        ".find(r => r.dataset.taskId === arguments[0]);"
        "return tr ? tr.cells[2].textContent.trim() : null;",
        task_id,
    )
    return found


class TestAnApprovalInTheBrowser:
    """Sign in, a REFLECT task arrives live, open it, approve with a note, the webhook goes out."""

    def test_the_whole_path(self, browser: Any, served: Served, shots: Path) -> None:
        from selenium.webdriver.common.by import By

        browser.get(f"{served.url}/ui/live")
        assert "/ui/login" in browser.current_url  # no session: the sign-in form
        browser.save_screenshot(str(shots / "01-sign-in.png"))
        sign_in(browser, served, "olivia")
        browser.get(f"{served.url}/ui/live")
        wait_until(
            lambda: browser.execute_script("return document.body.dataset.live") == "on",
            what="the live list's event stream",
        )
        browser.execute_script("window.__sameLoad = 'yes';")  # a reload would drop it

        task = served.critical_task("alice", "Sent 50000 EUR, reference 4411. [[judge PASS 95]]")
        wait_until(lambda: row_outcome(browser, task) == "awaiting_approval", what="the row")
        assert "yes" == browser.execute_script("return window.__sameLoad;")
        browser.save_screenshot(str(shots / "02-live-decisions.png"))

        browser.get(f"{served.url}/ui/inbox")
        assert browser.find_elements(By.CSS_SELECTOR, f'article[data-task-id="{task}"]')
        browser.save_screenshot(str(shots / "03-approvals-inbox.png"))

        browser.get(f"{served.url}/ui/live")
        link = browser.find_element(By.LINK_TEXT, task)
        link.click()
        wait_until(lambda: browser.find_elements(By.ID, "task-id"), what="the task's page")
        assert "awaiting_approval" == browser.find_element(By.ID, "outcome").text
        browser.save_screenshot(str(shots / "04-task-awaiting.png"))

        browser.find_element(By.CSS_SELECTOR, "form.approve textarea").send_keys(
            "Checked the IBAN with the customer by phone."
        )
        browser.find_element(By.CSS_SELECTOR, "form.approve button.approve-btn").click()
        wait_until(lambda: browser.find_elements(By.ID, "notice"), what="the approval's notice")
        assert "approved" == browser.find_element(By.ID, "outcome").text
        by = browser.find_element(By.CSS_SELECTOR, "#approvals td.by").text
        note = browser.find_element(By.CSS_SELECTOR, "#approvals td.note").text
        assert by.startswith("olivia (operator, key ")
        assert "Checked the IBAN with the customer by phone." == note

        def delivered() -> bool:
            browser.refresh()
            return bool(
                browser.find_elements(
                    By.CSS_SELECTOR, 'tr[data-event="qgs.approval"][data-status="delivered"]'
                )
            )

        wait_until(delivered, timeout_s=30, what="the approval's webhook delivered")
        browser.save_screenshot(str(shots / "05-task-approved.png"))
        stored = served.ops.repo.list_approvals(task)
        assert [(True, "Checked the IBAN with the customer by phone.")] == [
            (a.approved, a.note) for a in stored
        ]
        no_console_errors(browser)

    def test_an_approval_made_elsewhere_changes_the_live_row(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        task = served.critical_task("bob", "Sent bob's transfer. [[judge PASS 92]]")
        sign_in(browser, served, "sam")
        browser.get(f"{served.url}/ui/live")
        wait_until(
            lambda: browser.execute_script("return document.body.dataset.live") == "on",
            what="the live list's event stream",
        )
        assert "awaiting_approval" == row_outcome(browser, task)
        with served.agent("bob") as http:
            ok = http.post(f"/v1/tasks/{task}/approval", json={"decision": "reject", "note": "no"})
            assert 200 == ok.status_code, ok.text
        wait_until(lambda: row_outcome(browser, task) == "rejected", what="the row's change")
        browser.save_screenshot(str(shots / "06-live-row-changed.png"))


def wait_live(driver: Any) -> None:
    """Wait until the page's event stream is open."""
    wait_until(
        lambda: driver.execute_script("return document.body.dataset.live") == "on",
        what="the page's event stream",
    )


def live_rows(driver: Any) -> list[str]:
    """The task ids of the live list's rows, top down."""
    found: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#live-table tbody tr')].map(r => r.dataset.taskId);"
    )
    return found


class TestTheListsFollowWhatHappensElsewhere:
    """The inbox drops a task decided in another session; the live list keeps its row cap."""

    def test_an_approval_in_another_session_drops_the_task_from_the_inbox(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        task = served.critical_task("alice", "Sent alice's transfer. [[judge PASS 93]]")
        sign_in(browser, served, "olivia")
        browser.get(f"{served.url}/ui/inbox")
        wait_live(browser)
        article = f'article[data-task-id="{task}"]'
        assert browser.find_elements(By.CSS_SELECTOR, article)
        count = int(browser.find_element(By.ID, "inbox-count").text)
        browser.execute_script("window.__sameLoad = 'yes';")  # a reload would drop it

        with signed_in(served.url, served.keys["olivia"].key) as other:  # a second session
            html = other.get(f"/ui/tasks/{task}").text
            done = other.post(
                f"/ui/tasks/{task}/approval",
                data={
                    "csrf": csrf_of(html), "decision": "approve", "note": "approved in another tab",
                    "submission_id": approval_round_of(html, task),
                },
            )  # fmt: skip
            assert 303 == done.status_code, done.text
            reloaded = other.get("/ui/inbox").text  # without JavaScript: a reload shows it gone

        wait_until(
            lambda: not browser.find_elements(By.CSS_SELECTOR, article),
            what="the approved task leaving the inbox",
        )
        assert "yes" == browser.execute_script("return window.__sameLoad;")
        assert str(count - 1) == browser.find_element(By.ID, "inbox-count").text
        assert f"({count - 1})" in browser.title
        assert f'data-task-id="{task}"' not in reloaded
        browser.save_screenshot(str(shots / "10-inbox-dropped.png"))
        no_console_errors(browser)

    def test_a_rejection_over_the_api_drops_the_task_from_the_inbox(
        self, browser: Any, served: Served
    ) -> None:
        from selenium.webdriver.common.by import By

        task = served.critical_task("bob", "Sent bob's payment. [[judge PASS 91]]", callback=False)
        sign_in(browser, served, "sam")
        browser.get(f"{served.url}/ui/inbox")
        wait_live(browser)
        assert browser.find_elements(By.CSS_SELECTOR, f'[data-task-id="{task}"]')
        with served.agent("bob") as http:
            ok = http.post(f"/v1/tasks/{task}/approval", json={"decision": "reject", "note": "no"})
            assert 200 == ok.status_code, ok.text
        wait_until(
            lambda: not browser.find_elements(By.CSS_SELECTOR, f'[data-task-id="{task}"]'),
            what="the rejected task leaving the inbox",
        )

    def test_the_live_list_keeps_at_most_its_row_cap(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        from qgs_worker.api.console.pages import LIVE_ROWS_MAX

        sign_in(browser, served, "sam")
        browser.get(f"{served.url}/ui/live")
        wait_live(browser)
        table = browser.find_element(By.ID, "live-table")
        assert str(LIVE_ROWS_MAX) == table.get_attribute("data-max-rows")
        # The cap lowered in this page (500 rows would take 500 decisions): the script reads it.
        browser.execute_script("document.getElementById('live-table').dataset.maxRows = '2';")
        before = len(live_rows(browser))
        made = [
            served.critical_task("bob", f"Payment {i}. [[judge PASS 90]]", callback=False)
            for i in range(3)
        ]
        wait_until(lambda: live_rows(browser)[:1] == [made[-1]], what="the newest row on top")
        wait_until(lambda: made[-2] in live_rows(browser), what="the second newest row")
        assert 2 == len(live_rows(browser))
        hidden = browser.find_element(By.ID, "live-hidden")
        assert hidden.is_displayed()
        assert re.match(r"\d+ older rows? hidden", hidden.text), hidden.text
        shown_hidden = int(browser.execute_script("return document.body.dataset.hiddenRows;"))
        assert before + 3 - 2 == shown_hidden
        assert "reload to page" in hidden.text
        browser.save_screenshot(str(shots / "11-live-capped.png"))
        no_console_errors(browser)


class TestTimes:
    """Times read as words ("3 min ago"), the exact UTC time in the title; plain UTC without JS."""

    EXACT = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$")
    WORDS = re.compile(r"^(just now|\d+ s ago|\d+ min ago|\d+ h( \d+ min)? ago)$")

    def test_a_tasks_times_read_as_words_with_the_exact_time_kept(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        task = served.critical_task("bob", "Sent. [[judge PASS 97]]", callback=False)
        with signed_in(served.url, served.keys["sam"].key) as http:
            html = http.get(f"/ui/tasks/{task}").text
        plain = re.search(r'<dd><time datetime="([^"]+)" title="([^"]+)">([^<]+)</time></dd>', html)
        assert plain is not None, "the task's start as a <time> element"
        assert plain[1].endswith("Z") and self.EXACT.match(plain[3]) and plain[2] == plain[3]

        sign_in(browser, served, "sam")
        browser.get(f"{served.url}/ui/tasks/{task}")
        started = browser.find_element(By.CSS_SELECTOR, "dl.facts time")
        assert self.WORDS.match(started.text), started.text
        assert plain[3] == started.get_attribute("title")

        browser.get(f"{served.url}/ui/live")
        wait_live(browser)
        served.critical_task("bob", "Sent again. [[judge PASS 96]]", callback=False)
        wait_until(lambda: int(browser.execute_script(
            "return Number(document.body.dataset.updates || 0);")) > 0, what="a live row")  # fmt: skip
        first = browser.find_element(By.CSS_SELECTOR, "#live-table tbody tr td.when time")
        assert self.WORDS.match(first.text), first.text
        assert self.EXACT.match(first.get_attribute("title") or "")
        no_console_errors(browser)


class TestWhatAPersonMaySee:
    """Hostile text stays text; a reader gets no approve button; another's task is not there."""

    def test_a_hostile_deliverable_stays_text(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        task = served.critical_task("alice", HOSTILE)
        sign_in(browser, served, "olivia")
        for path in (f"/ui/tasks/{task}", "/ui/inbox"):
            browser.get(f"{served.url}{path}")
            assert browser.execute_script("return window.__pwned === undefined;"), path
            assert [] == browser.find_elements(By.CSS_SELECTOR, "main img, a[href^='javascript']")
            where = f'[data-task-id="{task}"] ' if path == "/ui/inbox" else ""
            shown = browser.find_element(By.CSS_SELECTOR, f"{where}pre.deliverable").text
            assert "<script>window.__pwned = 1</script>" in shown
            assert 'href="javascript:window.__pwned=2"' in shown
            assert "invoice_⟦U+202E⟧fdp.exe" in shown  # the RTL override shown, not obeyed
        browser.get(f"{served.url}/ui/tasks/{task}")
        browser.save_screenshot(str(shots / "07-hostile-deliverable.png"))
        no_console_errors(browser)

    def test_a_reader_has_no_approve_button(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        task = served.critical_task("alice", "Sent. [[judge PASS 96]]", callback=False)
        sign_in(browser, served, "rita")
        browser.get(f"{served.url}/ui/tasks/{task}")
        assert [] == browser.find_elements(By.CSS_SELECTOR, "form.approve")
        assert browser.find_elements(By.CSS_SELECTOR, "p.no-approve")
        browser.save_screenshot(str(shots / "08-reader-no-approve.png"))

    def test_another_principals_task_is_not_listed(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        theirs = served.critical_task("bob", "Sent. [[judge PASS 90]]", callback=False)
        sign_in(browser, served, "olivia")
        browser.get(f"{served.url}/ui/live")
        ids = [tr.get_attribute("data-task-id") for tr in browser.find_elements(
            By.CSS_SELECTOR, "#live-table tbody tr")]  # fmt: skip
        assert ids and theirs not in ids
        browser.get(f"{served.url}/ui/tasks/{theirs}")
        assert "No such task" in browser.find_element(By.TAG_NAME, "h1").text

    def test_queue_health(self, browser: Any, served: Served, shots: Path) -> None:
        from selenium.webdriver.common.by import By

        sign_in(browser, served, "sam")
        # a worker busy on a loaded machine may miss one page's one-second ping: reload, as a
        # person would, until it answers (a worker that never answers still fails here)
        for _ in range(15):
            browser.get(f"{served.url}/ui/queue")
            assert "up" == browser.find_element(By.ID, "broker").text
            if int(browser.find_element(By.ID, "workers").text) >= 1:
                break
        assert int(browser.find_element(By.ID, "workers").text) >= 1
        browser.save_screenshot(str(shots / "09-queue-health.png"))
        no_console_errors(browser)


class TestAnOldPageDoesNotApproveANewRound:
    """Issue 33's break test: the inbox loaded, the agent changes the IBAN, the old Approve."""

    def test_the_old_form_is_refused_and_the_new_round_shown(
        self, browser: Any, served: Served, shots: Path
    ) -> None:
        from selenium.webdriver.common.by import By

        task = served.critical_task("alice", "Wire to DE89370400440532013000. [[judge PASS 95]]")
        sign_in(browser, served, "olivia")
        browser.get(f"{served.url}/ui/inbox")
        article = f'article[data-task-id="{task}"]'
        with served.agent("alice") as http:  # a new round while the page is open
            sent = http.post(
                f"/v1/tasks/{task}/rounds",
                json={"deliverable": "Wire to GB33BUKB20201555555555. [[judge PASS 96]]",
                      "final": True},
            )  # fmt: skip
            sid = sent.json()["submission_id"]
            http.get(f"/v1/submissions/{sid}/decision", params={"wait_s": 30})
        browser.find_element(By.CSS_SELECTOR, f"{article} textarea[name=note]").send_keys("ok")
        browser.find_element(By.CSS_SELECTOR, f"{article} .approve-btn").click()
        wait_until(lambda: browser.find_elements(By.ID, "approve-error"), what="the refusal")
        error = browser.find_element(By.ID, "approve-error").text
        assert "moved on to round 2 since you opened round 1: review it again" in error
        assert "ok" == browser.find_element(By.CSS_SELECTOR, "form.approve textarea").get_attribute(
            "value"
        )
        assert "GB33BUKB20201555555555" in browser.find_element(By.ID, "round-2").text
        assert [] == served.ops.repo.list_approvals(task)
        assert not [
            r
            for r in served.receiver.received
            if b"qgs.approval" in r.body and task.encode() in r.body
        ]
        browser.save_screenshot(str(shots / "12-moved-on.png"))
