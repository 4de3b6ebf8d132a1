"""The HTML report in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``).

The page is rendered from a store the real pipeline filled (``tests/report_pages.py``), opened
from a file with selenium, and used as a person would: it renders with no console error, draws
its plots, narrows the table by a filter, sorts it, pages it, opens a drill-down, and shows the
hostile transcript text as text without running any of it. Locally a missing browser skips
these tests with the reason; in CI (``CI`` set, ``.ci/run`` installs it) it fails them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.reports.report_html import PAGE_ROWS, render_html
from tests.integration.browser import headless_chromium
from tests.report_pages import (
    HOSTILE,
    HOSTILE_CATEGORY,
    HOSTILE_FILE,
    HOSTILE_REQUEST,
    seeded_report,
)

pytestmark = pytest.mark.integration

TASKS = PAGE_ROWS + 5  # one more page than fits, and the hostile task
SHOT = os.environ.get("QGS_HTML_SHOT")
"""Where to save the screenshot for a person to look at (unset: the test's own folder)."""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report of a seeded store, written to a file."""
    folder = tmp_path_factory.mktemp("html-report")
    report = seeded_report(f"sqlite:///{folder / 'qgs.db'}", TASKS)
    path = folder / "audit.html"
    path.write_text(
        render_html(report, {"judge": "rules judge (test)", "policy": "no policy file"}),
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Chromium driven by chromedriver, its console log kept."""
    with headless_chromium() as driver:
        yield driver


@pytest.fixture
def opened(chromium: Any, page: Path) -> Any:
    """The page freshly loaded, its script done (``body[data-ready]``), the log emptied."""
    from selenium.webdriver.support.ui import WebDriverWait

    chromium.get_log("browser")  # what earlier tests left
    chromium.get(page.as_uri())
    WebDriverWait(chromium, 30).until(
        lambda d: d.execute_script("return document.body.dataset.ready === 'true'")
    )
    return chromium


def rows(driver: Any) -> list[list[str]]:
    """The task table's visible rows, as the text of their cells."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#task-table tbody tr')]"
        ".map(tr => [...tr.cells].map(td => td.textContent));"
    )


def column(driver: Any, key: str) -> int:
    keys = driver.execute_script(
        "return [...document.querySelectorAll('#task-table th')].map(th => th.dataset.key);"
    )
    return keys.index(key)


class TestRenders:
    """The page loads from a file with no console error and no request, and draws its plots."""

    def test_no_console_error_and_no_network(self, opened: Any) -> None:
        errors = [e for e in opened.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert [] == errors
        # Everything is inlined: the page asked for no resource (the CSP would also refuse).
        assert 0 == opened.execute_script("return performance.getEntriesByType('resource').length;")
        assert 3 == opened.execute_script("return document.scripts.length;")

    def test_every_plot_is_drawn(self, opened: Any) -> None:
        for plot in ("plot-trajectory", "plot-decisions", "plot-findings", "plot-risk"):
            traces = opened.execute_script(
                f"const p = document.getElementById('{plot}');"
                "return p.querySelector('svg.main-svg') ? p.data.length : -1;"
            )
            assert traces >= 1, plot
        # The trajectory draws the median of every scored task beside the tasks' own lines.
        names = opened.execute_script(
            "return document.getElementById('plot-trajectory').data.map(t => t.name);"
        )
        assert any(n.startswith("median of ") for n in names)
        kinds = opened.execute_script(
            "return document.getElementById('plot-decisions').data.map(t => t.name);"
        )
        assert {"pass", "force_deliver"} <= set(kinds)

    def test_summary_names_judge_and_policy(self, opened: Any) -> None:
        text = opened.find_element("id", "summary").text
        assert "rules judge (test)" in text
        assert "no policy file" in text
        assert f"{TASKS + 1}\ntasks" in text


class TestTable:
    """The table pages, narrows by a filter and sorts by a column."""

    def test_pages_of_page_rows(self, opened: Any) -> None:
        assert PAGE_ROWS == len(rows(opened))
        first = rows(opened)[0][0]
        opened.find_element("id", "next").click()
        assert TASKS + 1 - PAGE_ROWS == len(rows(opened))
        assert first not in {r[0] for r in rows(opened)}

    def test_text_filter_narrows(self, opened: Any) -> None:
        box = opened.find_element("id", "f-text")
        box.send_keys("task-01")
        shown = rows(opened)
        assert 10 == len(shown)  # task-010 .. task-019
        assert all(r[0].startswith("task-01") for r in shown)
        assert "(filtered from" in opened.find_element("id", "count").text

    def test_select_filters_narrow(self, opened: Any) -> None:
        from selenium.webdriver.support.ui import Select

        Select(opened.find_element("id", "f-type")).select_by_value("QUERY")
        shown = rows(opened)
        type_at = column(opened, "task_type")
        assert 0 < len(shown) < PAGE_ROWS
        assert all(r[type_at].startswith("QUERY/") for r in shown)
        Select(opened.find_element("id", "f-type")).select_by_value("")
        Select(opened.find_element("id", "f-decision")).select_by_value("force_deliver")
        decision_at = column(opened, "decision")
        assert {"force_deliver"} == {r[decision_at] for r in rows(opened)}

    def test_sort_by_risk_both_ways(self, opened: Any) -> None:
        header = opened.find_element("css selector", "#task-table th[data-key=risk]")
        risk_at = column(opened, "risk")
        header.click()
        up = [int(r[risk_at]) for r in rows(opened)]
        assert up == sorted(up)
        header.click()
        down = [int(r[risk_at]) for r in rows(opened)]
        assert down == sorted(down, reverse=True)
        assert down[0] > up[0]  # the riskiest tasks came to the top
        assert "descending" == header.get_attribute("aria-sort")


class TestDrillDown:
    """A click on a row opens its task: rounds, deliverable, review, findings, decision."""

    def open_task(self, driver: Any, task_id: str) -> Any:
        driver.find_element("id", "f-text").send_keys(task_id)
        driver.find_element("css selector", "#task-table tbody tr").click()
        detail = driver.find_element("id", "detail")
        assert detail.is_displayed()
        return detail

    def test_drill_down_shows_the_rounds(self, opened: Any) -> None:
        detail = self.open_task(opened, "task-002")
        assert "Task task-002" == opened.find_element("id", "detail-title").text
        rounds = detail.find_elements("css selector", "details.round")
        assert 3 == len(rounds)  # i % 3 + 1 rounds for task 2
        last = rounds[-1]
        assert "true" == last.get_attribute("open")
        deliverable = last.find_element("css selector", "pre.deliverable").text
        assert deliverable.startswith("Draft 3 of task 2:")
        dimensions = last.find_elements("css selector", "table.dimensions tbody tr")
        assert {"safety", "necessity"} <= {d.text.split()[0] for d in dimensions}
        assert last.find_element("css selector", "p.decision").text.startswith("force_deliver: ")
        # a drawn score trajectory of this task alone
        assert opened.execute_script(
            "return !!document.querySelector('#detail-plot svg.main-svg');"
        )


class TestHostileText:
    """Script tags, markup, javascript: URLs and </script> from a transcript show as text."""

    def test_nothing_ran_and_text_is_shown(self, opened: Any) -> None:
        detail = TestDrillDown().open_task(opened, "hostile")
        for r in detail.find_elements("css selector", "details.round"):
            if r.get_attribute("open") != "true":
                r.find_element("css selector", "summary").click()
        assert opened.execute_script("return window.__pwned === undefined;")
        shown = opened.execute_script(
            "return [...document.querySelectorAll('#detail pre.deliverable')]"
            ".map(p => p.textContent);"
        )
        assert HOSTILE == shown[0]
        assert f"{HOSTILE}\nsecond try" == shown[1]
        text = detail.text
        assert HOSTILE_REQUEST in text
        assert f"{HOSTILE_FILE}:7" in text
        assert "<script>window.__pwned='title'</script>" in text
        evidence = opened.execute_script(
            "return document.querySelector('#detail pre.evidence').textContent;"
        )
        assert evidence.startswith("</script><a href=")
        # No element came from the data: no image, no link, no extra script anywhere.
        assert 0 == opened.execute_script(
            "return document.querySelectorAll('img, a[href], iframe, object, embed').length;"
        )
        assert 3 == opened.execute_script("return document.scripts.length;")
        errors = [e for e in opened.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert [] == errors

    def test_plot_labels_are_text(self, opened: Any) -> None:
        """A hostile finding category is an x-axis label: shown as text, no element made.

        The axis shows a long name's first 23 characters and an ellipsis (the hover shows all).
        """
        labels = opened.execute_script(
            "return [...document.querySelectorAll('#plot-findings .xtick text')]"
            ".map(t => t.textContent);"
        )
        assert HOSTILE_CATEGORY[:23] + "…" in labels
        assert 0 == opened.execute_script(
            "return document.querySelectorAll('#plot-findings a, #plot-findings .xtick b').length;"
        )


class TestScreenshot:
    """A screenshot of the page with a drill-down open, for a person to look at."""

    def test_screenshot(self, opened: Any, tmp_path: Path) -> None:
        TestDrillDown().open_task(opened, "task-005")
        opened.execute_script("window.scrollTo(0, 0);")
        opened.set_window_size(1400, 3000)
        shot = Path(SHOT) if SHOT else tmp_path / "report.png"
        assert opened.save_screenshot(str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG")
        opened.set_window_size(1400, 1800)
