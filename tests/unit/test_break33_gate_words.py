"""The commands a gate's reason tells a person to run exist (issue 33's break test, item 4).

A round held for a person (a shadowed judge's verdict, a refusal of an ACTION task) said
"qgs approve / qgs reject": there is no ``qgs reject``; rejecting is ``qgs approve TASK --reject``.
Then (issue 33, item 3 of the second pass) it said "qgs approve TASK", which exits 2 without
``--by NAME``: each command named is run (up to the point it would call the API) and must get there.
"""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

import qgs_worker.client
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


_PLACEHOLDERS = {"TASK": "t-1", "NAME": "alice", "WHY": "wrong host"}


class _Reached(Exception):
    """Raised where the command would call the API: its arguments were accepted."""


def _named_commands(text: str) -> list[tuple[str, list[str]]]:
    """Each ``qgs COMMAND ARG --option VALUE`` a text names: the command and its words."""
    out = []
    for part in re.split(r"[;,()]| or ", text):
        found = re.search(r"\bqgs ([a-z-]+)((?:\s+(?:--[a-z-]+|[A-Z]+))*)", part)
        if found:
            out.append((found[1], found[2].split()))
    return out


def _check(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    group = typer.main.get_command(app)
    commands = group.commands  # type: ignore[attr-defined]
    named = _named_commands(text)
    assert named, text

    def reached(*_a: object, **_k: object) -> None:
        raise _Reached

    monkeypatch.setattr(qgs_worker.client, "Client", reached)
    for command, words in named:
        found = commands.get(command)
        assert found is not None, f"{text!r} names `qgs {command}`, which does not exist"
        flags = {o for p in found.params for o in getattr(p, "opts", [])}
        options = {w for w in words if w.startswith("--")}
        assert options <= flags, (command, options)
        required = {p.opts[0] for p in found.params if p.required and p.opts[0].startswith("--")}
        assert required <= options, f"{text!r}: `qgs {command}` needs {required - options}"
        # run it: the command's own checks (`--by` required, `--note` with `--reject`) pass
        argv = [command, *(_PLACEHOLDERS.get(w, w) for w in words)]
        result = CliRunner().invoke(app, argv)
        assert isinstance(result.exception, _Reached), (argv, result.exit_code, result.output)


def test_a_shadowed_judges_hold_names_commands_that_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    review = Review(verdict=Verdict.PASS, score=90, judge="critic-a")
    reason = _decide(
        (), review, task_type=TaskType.GENERATE, shadow=Shadow(judges=frozenset({"critic-a"}))
    )
    assert "qgs reject" not in reason and "--reject" in reason
    _check(reason, monkeypatch)


def test_a_refusals_hold_names_commands_that_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    refusal = Finding(
        role="critic", category=REFUSAL, severity=Severity.P2, title="the answer declines"
    )
    reason = _decide((refusal,), None, task_type=TaskType.ACTION)
    assert "qgs reject" not in reason and "--reject" in reason
    _check(reason, monkeypatch)
