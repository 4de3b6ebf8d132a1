"""LLM calls per 100 tasks: QGS (cadence, SIMPLE skip, review reuse) against a naive baseline.

Usage: .venv/bin/python bench/llm_calls_bench.py [--copies 2] [--queries 8] [--quick]

Workload: every transcript of ``tasks/`` (all task types, the revision loops, the escalations),
each submitted ``--copies`` times under different task ids with the same request and
deliverables (a repeated submission, so review reuse shows), plus ``--queries`` short QUERY tasks.
Each round goes through the pipeline steps in-process, in order, on an in-memory SQLite
Repository without Celery, as ``run_round`` in ``tests/unit/test_pipeline_steps.py`` does:
``intake -> critic if plan_critic -> discriminate if plan_discriminate -> decide``. The judge is
``RulesJudge`` (offline, deterministic) wrapped to count its ``review`` calls: no network.

Naive baseline: one judge call per round of every task (every round reviewed, no cadence, no
reuse, SIMPLE reviewed too), computed by counting the rounds. As a cross-check the same workload
also runs with ``CadencePolicy(critic_every=1)`` and a judge whose name changes on every read (so
no review key ever matches: no reuse); that must cost the rounds minus the SIMPLE rounds.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from qgs_worker.core.models import (  # noqa: E402
    CadencePolicy,
    Deliverable,
    GatePolicy,
    Review,
    ReviewRequest,
)
from qgs_worker.judges import RulesJudge  # noqa: E402
from qgs_worker.queue import pipeline  # noqa: E402
from qgs_worker.roles import load_roles  # noqa: E402
from qgs_worker.service.submission import NewTask, Submission  # noqa: E402
from qgs_worker.store import Repository  # noqa: E402
from qgs_worker.transcripts import TranscriptTask, iter_paths, read_transcripts  # noqa: E402

AUDIT = pipeline.Audit(roles=load_roles())
"""Every built-in audit role, offline (the rules judge has no LLM session)."""

TASKS_DIR = ROOT / "tasks"
TARGET_RATIO = 0.5

QUERIES = (
    # (request, rounds): a draft answer then a corrected one on every other task
    ("What is the default port of Redis?", ("Redis listens on port 6379 by default.",)),
    (
        "How many days are there in a leap year?",
        ("A leap year has 365 days.", "A leap year has 366 days: 29 February is added."),
    ),
    ("What is the capital of Australia?", ("Canberra is the capital of Australia.",)),
    (
        "Which Python version added the walrus operator?",
        ("Python 3.7.", "Python 3.8 added the walrus operator (`:=`, PEP 572)."),
    ),
    ("What does HTTP status 418 mean?", ("418 I'm a teapot: an April Fools' code (RFC 2324).",)),
    (
        "Who maintains the nginx package?",
        ("The Debian nginx team.", "The nginx package is maintained by the Debian Nginx team."),
    ),
    ("What is the current UTC time?", ("It is 12:04 UTC on 14 March 2025.",)),
    (
        "When does the TLS certificate for api.example.com expire?",
        ("Soon.", "The certificate for api.example.com expires on 2025-06-01 (82 days left)."),
    ),
)


class CountingJudge:
    """``RulesJudge`` with a count of its ``review`` calls (same name, so the same review keys)."""

    def __init__(self) -> None:
        self._inner = RulesJudge()
        self.calls = 0

    @property
    def name(self) -> str:
        return self._inner.name

    def review(self, request: ReviewRequest) -> Review:
        self.calls += 1
        return self._inner.review(request)


class NoReuseJudge(CountingJudge):
    """A counting judge whose name differs on every read: no two review keys match, no reuse."""

    def __init__(self) -> None:
        super().__init__()
        self._reads = 0

    @property
    def name(self) -> str:
        self._reads += 1
        return f"{self._inner.name} #{self._reads}"


@dataclass(frozen=True)
class Job:
    """One task of the workload: its id, request and the deliverable of each round."""

    task_id: str
    request: str
    agent_model: str | None
    rounds: tuple[Deliverable, ...]
    source: str  # the transcript key, or "query"


@dataclass
class Tally:
    tasks: int = 0
    rounds: int = 0
    judge_calls: int = 0
    simple: int = 0
    cadence: int = 0
    reused: int = 0
    reused_in_task: int = 0  # an identical round earlier in the same task (revision loops)
    escalated: int = 0


def read_examples() -> list[TranscriptTask]:
    found: list[TranscriptTask] = []
    for path in iter_paths([TASKS_DIR]):
        for item in read_transcripts(path):
            if not isinstance(item, TranscriptTask):
                raise SystemExit(f"unreadable transcript: {item}")
            found.append(item)
    return found


def workload(copies: int, queries: int) -> list[Job]:
    examples = read_examples()
    jobs = [
        Job(f"{t.key}-c{copy}", t.request, t.agent_model, tuple(t.rounds), t.key)
        for copy in range(1, copies + 1)
        for t in examples
    ]
    for i in range(queries):
        request, answers = QUERIES[i % len(QUERIES)]
        rounds = tuple(Deliverable(text=a) for a in answers)
        jobs.append(Job(f"query-{i + 1}", request, None, rounds, "query"))
    return jobs


def run_task(repo: Repository, job: Job, judge: CountingJudge, policies: pipeline.Policies) -> None:
    """Intake every round, then run the claimed rounds in order (critic, discriminate, decide)."""
    new = NewTask(request=job.request, agent_model=job.agent_model)  # classified, as `qgs audit`
    ready: list[int] = []
    for number, deliverable in enumerate(job.rounds, start=1):
        sub = Submission(
            submission_id=f"{job.task_id}:{number}",
            task_id=job.task_id,
            round_number=number,
            final=number == len(job.rounds),
            deliverable=deliverable,
            task=new,
        )
        claimed = pipeline.intake(repo, sub, policies)
        if claimed is not None:
            ready.append(claimed)
    while ready:
        round_id = ready.pop(0)
        row = repo.get_round(round_id)
        if row.plan_critic:
            pipeline.critic(repo, judge, round_id)
        if row.plan_discriminate:
            pipeline.discriminate(repo, round_id, AUDIT)
        following = pipeline.decide(repo, round_id, policies)
        if following is not None:
            ready.append(following)


def tally(repo: Repository, jobs: list[Job], judge: CountingJudge) -> Tally:
    t = Tally(tasks=len(jobs), judge_calls=judge.calls)
    for job in jobs:
        t.escalated += repo.get_task(job.task_id).escalated
        rounds = repo.list_rounds(job.task_id)
        assert all(r.status == "decided" for r in rounds), job.task_id
        for r in rounds:
            assert r.id is not None
            t.rounds += 1
            review = repo.get_review(r.id)
            if not r.plan_critic:
                if r.plan_reason.startswith("simple task"):
                    t.simple += 1
                else:
                    t.cadence += 1
            elif review is not None and review.reused_from is not None:
                t.reused += 1
                t.reused_in_task += repo.get_round(review.reused_from).task_id == job.task_id
    return t


def decisions(repo: Repository, task_id: str) -> list[str]:
    out = []
    for r in repo.list_rounds(task_id):
        assert r.id is not None
        d = repo.get_decision(r.id)
        out.append(d.kind if d is not None else "-")
    return out


def per_100(calls: int, tasks: int) -> float:
    return 100.0 * calls / tasks


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=2, help="submissions of each transcript")
    parser.add_argument("--queries", type=int, default=8, help="extra QUERY tasks")
    parser.add_argument("--quick", action="store_true", help="one submission, 2 QUERY tasks")
    args = parser.parse_args(argv)
    if args.quick:
        args.copies, args.queries = 1, 2
    jobs = workload(args.copies, args.queries)

    # QGS as configured by default: cadence (critic every 2nd + final), SIMPLE skip, review reuse.
    qgs_policies = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
    repo = Repository("sqlite://")
    judge = CountingJudge()
    for job in jobs:
        run_task(repo, job, judge, qgs_policies)
    qgs = tally(repo, jobs, judge)
    assert qgs.judge_calls + qgs.simple + qgs.cadence + qgs.reused == qgs.rounds, qgs

    # The repeated submissions get the same decisions as the first one (reuse changes no outcome).
    by_source: dict[str, set[tuple[str, ...]]] = {}
    for job in jobs:
        if job.source != "query":
            by_source.setdefault(job.source, set()).add(tuple(decisions(repo, job.task_id)))
    same = all(len(kinds) == 1 for kinds in by_source.values())

    # Naive baseline: one call per round of every task. Cross-check: critic on every round and
    # no reuse; only SIMPLE rounds stay unreviewed there.
    naive = qgs.rounds
    every_policies = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy(critic_every=1))
    every_repo, every_judge = Repository("sqlite://"), NoReuseJudge()
    for job in jobs:
        run_task(every_repo, job, every_judge, every_policies)

    types = Counter(repo.get_task(j.task_id).task_type for j in jobs).items()
    qgs_100, naive_100 = per_100(qgs.judge_calls, qgs.tasks), per_100(naive, qgs.tasks)
    ratio = qgs.judge_calls / naive
    print("LLM calls per 100 tasks: QGS against a naive baseline (one judge call per round)")
    print(
        f"workload: {len(by_source)} tasks/ transcripts x {args.copies} submissions"
        f" + {args.queries} QUERY tasks"
    )
    print(f"  tasks                         {qgs.tasks}")
    print(f"  task types (after escalation) {', '.join(f'{k} {v}' for k, v in sorted(types))}")
    print(f"  rounds                        {qgs.rounds}")
    print(f"  QGS judge calls               {qgs.judge_calls}")
    print(f"  naive judge calls             {naive}  (counted: one per round)")
    print(f"  QGS calls per 100 tasks       {qgs_100:.1f}")
    print(f"  naive calls per 100 tasks     {naive_100:.1f}")
    verdict = "met" if ratio <= TARGET_RATIO else "NOT met"
    print(f"ratio QGS / naive judge calls = {ratio:.3f}  (target <= {TARGET_RATIO}: {verdict})")
    print("breakdown of the naive calls QGS does not make:")
    print(f"  skipped as SIMPLE             {qgs.simple}")
    print(f"  skipped by cadence            {qgs.cadence}")
    print(
        f"  reused (same review key)      {qgs.reused}  ({qgs.reused - qgs.reused_in_task} from a"
        f" repeated submission, {qgs.reused_in_task} within one task)"
    )
    print(f"  = rounds - QGS calls          {qgs.rounds - qgs.judge_calls}")
    print("checks:")
    print(
        f"  critic_every=1, no reuse      {every_judge.calls} calls"
        f" (rounds - SIMPLE rounds = {qgs.rounds - qgs.simple})"
    )
    print(f"  tasks escalated to CRITICAL   {qgs.escalated}")
    print(f"  repeats got the same decisions {'yes' if same else 'NO'}")
    return 0 if same and every_judge.calls == qgs.rounds - qgs.simple else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
