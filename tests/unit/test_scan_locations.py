"""``qgs scan`` locates each finding at ``SOURCE:LINE`` of its match (``scan._locate``)."""

from __future__ import annotations

from qgs_worker.cli.scan_text import scan_findings

TEXT = "line one\nline two\nthe card 4111 1111 1111 1111 is a test\nand 5555 5555 5555 4444\n"


def test_a_published_test_card_is_located_on_its_line() -> None:
    """Break test: example values had no line (personal data is found again by value, and
    ``find_pii`` skips the published test numbers)."""
    [finding] = [f for f in scan_findings(TEXT, "ex.txt", untrusted=False) if f.rule]
    assert "example_secret" == finding.rule
    assert "ex.txt:3" == finding.location  # the first number quoted


def test_a_real_card_keeps_its_line() -> None:
    text = "intro\n\npay with 4539 1488 0343 6467 today\n"
    located = [f.location for f in scan_findings(text, "pay.txt", untrusted=False)]
    assert "pay.txt:3" in located
