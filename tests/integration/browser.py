"""A headless Chromium driven by chromedriver (Debian's ``chromium`` and ``chromium-driver``).

What the browser tests share (the HTML report's, the operator console's): locally a missing
browser or selenium skips the test with the reason; in CI (``CI`` set, ``.ci/run`` installs
them) it fails it.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import IN_CI

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def missing() -> str | None:
    """Why the browser cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            return f"{path} is missing: apt-get install -y chromium chromium-driver"
    return None


@contextlib.contextmanager
def headless_chromium(window: str = "1400,1800") -> Iterator[Any]:
    """A headless Chromium (``webdriver.Chrome``), its console log kept; skips when missing."""
    reason = missing()
    if reason:
        if IN_CI:
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--window-size={window}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
