"""The rules' patterns compile on first use, not at import (issue 15), and compile all the same."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from qgs_worker.core import rules
from qgs_worker.core.rules.base import LazyPatterns

ROOT = Path(__file__).resolve().parents[2]


class TestLazyPatterns:
    """Length, truth and ``+`` need no compiling; the first read compiles all, once."""

    def test_nothing_compiles_before_a_read(self) -> None:
        lazy = LazyPatterns.of(r"(unclosed", flags=re.IGNORECASE)  # would not compile
        joined = lazy + LazyPatterns.of(r"b") + (re.compile("c"),)
        assert (1, 3, True) == (len(lazy), len(joined), bool(joined))
        with pytest.raises(re.error):
            joined[0]

    def test_a_read_compiles_once_with_the_flags(self) -> None:
        lazy = LazyPatterns.of(r"drop\s+table", r"x", flags=re.IGNORECASE)
        first = lazy[0]
        assert first is lazy[0] and first is next(iter(lazy))
        assert first.flags & re.IGNORECASE and first.search("DROP  TABLE t")
        assert [r"drop\s+table", "x"] == [p.pattern for p in lazy]


def test_every_rule_of_the_table_compiles() -> None:
    compiled = [p for rule in rules.all_rules() for p in rule.patterns]
    assert compiled and all(isinstance(p, re.Pattern) for p in compiled)


def test_importing_the_table_compiles_no_rule() -> None:
    code = (
        "from qgs_worker.core import rules\n"
        "print(sum(r.patterns._compiled is not None for r in rules.all_rules()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        check=True,
        timeout=60,
    )
    assert "0" == done.stdout.strip()
