"""The commands a gate's reason tells a person to run exist (issue 33's break test, item 4).

A round held for a person (a shadowed judge's verdict, a refusal of an ACTION task) said
"qgs approve / qgs reject": there is no ``qgs reject``; rejecting is ``qgs approve TASK --reject``.
"""

from __future__ import annotations

import re

import typer

from qgs_worker.cli import app
from qgs_worker.core import gate
from qgs_worker.core.models import (
    REFUSAL,
    Complexity,
    DecisionKind,
    Finding,
    GatePolicy,
    Review,
    Severity,
    TaskHistory,
    TaskType,
    Verdict,
)
from qgs_worker.core.spotcheck import Shadow


def _decide(findings: tuple[Finding, ...], review: Review | None, **kw: object) -> str:
    found = gate.decide_gate(
        review,
        round_number=1,
        complexity=Complexity.COMPLEX,
        final=True,
        history=TaskHistory(),
        findings=findings,
        policy=GatePolicy(),
        **kw,  # type: ignore[arg-type]
    )
    assert DecisionKind.AWAITING_APPROVAL == found.kind
    return found.reason


def _named_commands(text: str) -> list[tuple[str, list[str]]]:
    """Each ``qgs COMMAND ... --option`` a text names: the command and its options."""
    out = []
    for part in re.split(r"[;,()]| or ", text):
        found = re.search(r"\bqgs ([a-z-]+)((?:\s+\S+)*)", part)
        if found:
            out.append((found[1], re.findall(r"--[a-z-]+", found[2])))
    return out


def _check(text: str) -> None:
    group = typer.main.get_command(app)
    commands = group.commands  # type: ignore[attr-defined]
    named = _named_commands(text)
    assert named, text
    for command, options in named:
        found = commands.get(command)
        assert found is not None, f"{text!r} names `qgs {command}`, which does not exist"
        flags = {o for p in found.params for o in getattr(p, "opts", [])}
        assert set(options) <= flags, (command, options)


def test_a_shadowed_judges_hold_names_commands_that_exist() -> None:
    review = Review(verdict=Verdict.PASS, score=90, judge="critic-a")
    reason = _decide(
        (), review, task_type=TaskType.GENERATE, shadow=Shadow(judges=frozenset({"critic-a"}))
    )
    assert "qgs reject" not in reason and "--reject" in reason
    _check(reason)


def test_a_refusals_hold_names_commands_that_exist() -> None:
    refusal = Finding(
        role="critic", category=REFUSAL, severity=Severity.P2, title="the answer declines"
    )
    reason = _decide((refusal,), None, task_type=TaskType.ACTION)
    assert "qgs reject" not in reason and "--reject" in reason
    _check(reason)
