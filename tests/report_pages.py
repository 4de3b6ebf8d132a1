"""A store of audited tasks for the HTML report's tests, with hostile transcript text in it.

Tasks go through the real pipeline (intake, the rules judge, the detectors, the gate) on a
SQLite store; the hostile task's deliverable, request, source file name and one finding carry
markup, script tags, ``javascript:`` URLs and ``</script>`` that would run if the page ever
treated text as HTML. Each payload sets ``window.__pwned`` when it runs.
"""

from __future__ import annotations

from typing import Any

from qgs_worker.core.detectors import scan_text
from qgs_worker.core.models import (
    CadencePolicy,
    Deliverable,
    Finding,
    GatePolicy,
    Severity,
)
from qgs_worker.judges.rules_judge import RulesJudge
from qgs_worker.queue import pipeline
from qgs_worker.reports.report import build_report
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())

HOSTILE = (
    "Done. <script>window.__pwned = 'script tag'</script>\n"
    '<img src="x" onerror="window.__pwned = \'img onerror\'">\n'
    "</script><script>window.__pwned = 'closed the data element'</script>\n"
    "<a href=\"javascript:window.__pwned='link'\">click me</a> [md link](javascript:alert(1))\n"
    "<!-- a comment --> <b>bold?</b> &amp; &lt;entity&gt; \u2028 line separator\n"
)
"""The hostile deliverable: every line would set ``window.__pwned`` if it ran."""
HOSTILE_CATEGORY = "<b>cat</b><a href=\"javascript:window.__pwned='category'\">x</a>"
HOSTILE_REQUEST = "<b>write</b> the report page <script>window.__pwned='request'</script>"
HOSTILE_FILE = "<img src=x onerror=window.__pwned='file'>.jsonl"
HOSTILE_FINDING = Finding(
    role="security_auditor",
    category=HOSTILE_CATEGORY,  # Plotly reads <b> and <a href> in labels: they must show as typed
    severity=Severity.P2,
    title="<script>window.__pwned='title'</script>",
    evidence="</script><a href=\"javascript:window.__pwned='evidence'\">evidence</a>",
    location="line 1",
)

REQUESTS = (
    "write an article about AI",
    "what time is it",
    "deploy this service",
    "delete all records in the database",
)


def add_task(
    repo: Repository,
    task_id: str,
    request: str,
    deliverables: list[str],
    *,
    source: tuple[str, int],
    findings: tuple[Finding, ...] = (),
) -> None:
    """A task with one round per deliverable, each through intake, critic and gate.

    The detectors' own findings on each deliverable are stored with ``findings`` before the
    gate decides, so the decision weighs them.
    """
    new = NewTask(
        request=request, source_file=source[0], source_line=source[1], transcript_id=f"tr-{task_id}"
    )
    for n, text in enumerate(deliverables, start=1):
        sub = Submission(
            submission_id=f"{task_id}:{n}",
            task_id=task_id,
            round_number=n,
            deliverable=Deliverable(text=text),
            task=new,
            final=n == len(deliverables),
        )
        round_id = pipeline.intake(repo, sub, POLICIES)
        if round_id is None:
            continue
        pipeline.critic(repo, RulesJudge(), round_id)
        repo.save_findings(round_id, [*scan_text(text), *findings])
        pipeline.decide(repo, round_id, POLICIES)


def seed_store(repo: Repository, tasks: int = 8) -> None:
    """``tasks`` ordinary tasks of four types (1-3 rounds each) and the hostile one."""
    for i in range(tasks):
        rounds = [
            f"Draft {n} of task {i}: "
            + "the parser reads the config file and reports errors. " * (n * 3 + i)
            for n in range(1, i % 3 + 2)
        ]
        if i % 4 == 3:
            rounds[-1] += "\nRan `rm -rf /` to clean up."
        add_task(repo, f"task-{i:03d}", REQUESTS[i % 4], rounds, source=("audit.jsonl", i + 1))
    add_task(
        repo,
        "hostile",
        HOSTILE_REQUEST,
        [HOSTILE, HOSTILE + "\nsecond try"],
        source=(HOSTILE_FILE, 7),
        findings=(HOSTILE_FINDING,),
    )


def seeded_report(url: str, tasks: int = 8) -> dict[str, Any]:
    """The detailed JSON report of a new store at ``url`` seeded by ``seed_store``."""
    repo = Repository(url)
    try:
        seed_store(repo, tasks)
        return build_report(repo, details=True)
    finally:
        repo.dispose()
