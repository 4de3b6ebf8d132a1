"""``Finding.round_number``: which round a finding is in, as a field (issue 12, item 2).

It used to travel as a ``round N: `` prefix of ``Finding.location``; it is shown the same way
(``Finding.where``), and the fingerprint is unchanged, so stored findings still dedupe.
"""

from __future__ import annotations

import hashlib

import pytest
from pydantic import ValidationError

from qgs_worker.core.discriminator import ALL_TASK_TYPES, AuditContext, run_roles
from qgs_worker.core.models import (
    CadencePolicy,
    Complexity,
    Deliverable,
    Finding,
    GatePolicy,
    Severity,
    TaskType,
    ToolCall,
    split_round_prefix,
    with_round_field,
)
from qgs_worker.core.ports import AuditSession
from qgs_worker.queue import pipeline
from qgs_worker.reports.report import task_report
from qgs_worker.roles._common import detector_findings_for
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())


def finding(location: str = "tool_call:bash.command", round_number: int | None = None) -> Finding:
    return Finding(
        role="security_auditor",
        category="destructive_command",
        severity=Severity.P0,
        title="rm -rf /",
        evidence="rm -rf /",
        location=location,
        round_number=round_number,
    )


def legacy_fingerprint(where: str) -> str:
    """The fingerprint as QGS computed it when the round was a prefix of the location."""
    key = "\x1f".join(("security_auditor", "destructive_command", where, "rm -rf /", "rm -rf /"))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


class TestTheField:
    """``round_number`` is shown as the old prefix was, and keys the finding as it did."""

    def test_where_names_an_earlier_round(self) -> None:
        assert "round 2: tool_call:bash.command" == finding(round_number=2).where
        assert "tool_call:bash.command" == finding().where

    def test_the_fingerprint_is_the_one_the_prefixed_location_had(self) -> None:
        assert (
            legacy_fingerprint("round 2: tool_call:bash.command")
            == finding(round_number=2).fingerprint
        )
        assert legacy_fingerprint("tool_call:bash.command") == finding().fingerprint
        assert finding(round_number=1).fingerprint != finding(round_number=2).fingerprint

    def test_rounds_are_numbered_from_one(self) -> None:
        with pytest.raises(ValidationError, match="round_number"):
            finding(round_number=0)

    def test_serialized_without_the_field_while_it_is_none(self) -> None:
        assert "round_number" not in finding().model_dump(mode="json")
        dumped = finding(round_number=3).model_dump(mode="json")
        assert 3 == dumped["round_number"]
        assert finding(round_number=3) == Finding.model_validate(dumped)


class TestTheOlderForm:
    """A location still in the ``round N: ...`` form (older stores and roles) is read as the field."""

    @pytest.mark.parametrize(
        ("location", "split"),
        [
            ("round 2: text", (2, "text")),
            ("round 12: tool_call:bash.command", (12, "tool_call:bash.command")),
            ("round 1: round 1: text", (1, "round 1: text")),
            ("text", (None, "text")),
            ("round 0: text", (None, "round 0: text")),
            ("round two: text", (None, "round two: text")),
            ("round 2:text", (None, "round 2:text")),
            ("around 2: text", (None, "around 2: text")),
        ],
    )
    def test_split(self, location: str, split: tuple[int | None, str]) -> None:
        assert split == split_round_prefix(location)

    def test_with_round_field_moves_the_prefix_and_keeps_the_fingerprint(self) -> None:
        old = finding("round 4: tool_call:bash.command")
        new = with_round_field(old)
        assert (4, "tool_call:bash.command") == (new.round_number, new.location)
        assert old.fingerprint == new.fingerprint

    def test_a_finding_with_a_round_number_is_left_as_it_is(self) -> None:
        kept = finding("round 4: x", round_number=2)
        assert kept is with_round_field(kept)
        plain = finding()
        assert plain is with_round_field(plain)


def two_rounds() -> AuditContext:
    return AuditContext(
        task_type=TaskType.ACTION,
        complexity=Complexity.COMPLEX,
        request="clean up the build folder",
        rounds=(Deliverable(text="cleaned"), Deliverable(text="done")),
        stored_detector_findings=((1, finding()), (2, finding("text"))),
    )


class OlderContractRole:
    """A plugin written before the field: it names the earlier round in the location."""

    name = "older_plugin"
    task_types = ALL_TASK_TYPES

    def audit(self, context: AuditContext, session: AuditSession | None) -> list[Finding]:
        return [finding("round 1: tool_call:bash.command"), finding("text")]


class TestRoles:
    """The built-in roles set the field; an older plugin's prefix is moved into it."""

    def test_detector_findings_of_an_earlier_round_carry_its_number(self) -> None:
        got = detector_findings_for("security_auditor", two_rounds(), lambda f: True)
        assert [(1, "tool_call:bash.command"), (None, "text")] == [
            (f.round_number, f.location) for f in got
        ]

    def test_an_older_plugins_prefix_becomes_the_field(self) -> None:
        (run,) = run_roles([OlderContractRole()], two_rounds(), None)
        assert [(1, "tool_call:bash.command"), (None, "text")] == [
            (f.round_number, f.location) for f in run.findings
        ]


class EarlierRoundRole:
    """Reports a defect of round 1 when it audits a later round (as the Reality Checker does)."""

    name = "earlier_round"
    task_types = ALL_TASK_TYPES

    def audit(self, context: AuditContext, session: AuditSession | None) -> list[Finding]:
        return [
            Finding(
                role=self.name,
                category="hallucinated_api",
                severity=Severity.P1,
                title="json has no attribute 'loads_fast'",
                evidence="json.loads_fast(raw)",
                location="tool_call:write_file.content, line 2",
                round_number=1,
            )
        ]


def submit(repo: Repository, n: int, **deliverable: object) -> int:
    sub = Submission(
        submission_id=f"t:{n}",
        task_id="t",
        round_number=n,
        deliverable=Deliverable.model_validate(deliverable),
        task=NewTask(request="write the config parser"),
    )
    round_id = pipeline.intake(repo, sub, POLICIES)
    assert round_id is not None
    return round_id


class TestThroughThePipeline:
    """Stored with the audited round, read back, weighed by the gate and reported as before."""

    def test_an_earlier_rounds_finding_on_a_later_round(self) -> None:
        repo = Repository("sqlite://")
        wipe = ToolCall(name="bash", arguments={"command": "rm -rf /"})
        first = submit(repo, 1, text="written", tool_calls=[wipe])
        pipeline.decide(repo, first, POLICIES)
        second = submit(repo, 2, text="all done")
        audit = pipeline.Audit(roles=[EarlierRoundRole()])
        pipeline.discriminate(repo, second, audit)

        (stored,) = repo.findings_model(second)
        assert (1, "tool_call:write_file.content, line 2") == (stored.round_number, stored.location)
        (row,) = repo.list_findings(second)
        assert (1, stored.location, stored.fingerprint) == (
            row.round_number,
            row.location,
            row.fingerprint,
        )
        repo.save_findings(second, [stored])  # a redelivered job: the same finding again
        assert 1 == len(repo.list_findings(second))

        # The gate on round 3 weighs round 1's P0 again, named by its round.
        history = pipeline.task_history(repo, "t", 3)
        assert [(1, "tool_call:bash.command")] == [
            (f.round_number, f.location) for f in history.p0_findings
        ]

        report = task_report(repo, "t")
        assert [
            (1, "tool_call:bash.command"),
            (2, "round 1: tool_call:write_file.content, line 2"),
        ] == [(f["round"], f["location"]) for f in report["findings"]]
        repo.dispose()
