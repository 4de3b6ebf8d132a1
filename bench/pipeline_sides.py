"""The two sides of every pipeline-bench scenario: a QGS worker and its baseline worker.

A side is a worker subprocess (``bench/workers.py``) on its own Redis db, and what publishes a
batch to it: ``client.submit`` of a workload for QGS (its store writes included, all before the
worker consumes: the batch is pre-loaded), ``send_task`` of no-op or bare-review jobs for the
baselines. Counting is the worker probe's: the jobs that ran, by name.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from celery import Celery

from bench.baseline_apps import JUDGE_URL_ENV, REQUESTS_ENV, baseline_app
from bench.workers import Run, Worker, baseline_command, clean_env, qgs_command, start_worker
from bench.workloads import TaskSpec
from qgs_worker.config.settings import Settings
from qgs_worker.queue.celery_app import CRITIC_QUEUE, DEFAULT_QUEUE, DISCRIMINATOR_QUEUE

if TYPE_CHECKING:
    from qgs_worker.client import Client
    from tests.fake_openai import FakeOpenAIServer

DECIDE = "qgs.review.decide"
HOP_QUEUES = {"critic": CRITIC_QUEUE, "discriminate": DISCRIMINATOR_QUEUE, "decide": DEFAULT_QUEUE}


@dataclass
class Series:
    """The repetitions of one scenario."""

    label: str
    runs: list[Run] = field(default_factory=list)

    def values(self, fn: Callable[[Run], float]) -> list[float]:
        return [fn(r) for r in self.runs]

    def median(self, fn: Callable[[Run], float]) -> float:
        return statistics.median(self.values(fn))

    def spread(self, fn: Callable[[Run], float], fmt: str = ".0f") -> str:
        return spread(self.values(fn), fmt)


def spread(values: Sequence[float], fmt: str = ".2f") -> str:
    """``median (min-max)``, or the one value."""
    middle = format(statistics.median(values), fmt)
    if len(values) < 2:
        return middle
    return f"{middle} ({format(min(values), fmt)}-{format(max(values), fmt)})"


def ratios(
    a: Series, b: Series, fa: Callable[[Run], float], fb: Callable[[Run], float]
) -> list[float]:
    """Per-repetition ratios fa(a) / fb(b), both measured in the same repetition."""
    return [fa(x) / fb(y) for x, y in zip(a.runs, b.runs, strict=True)]


# -- the QGS side ----------------------------------------------------------------------------

STORE_SERVER_ENV = "QGS_BENCH_STORE_SERVER"
"""A PostgreSQL server URL (``postgresql+psycopg://user@host:port/admin-db``) for the QGS sides'
stores (``pipeline_bench.py --store-server``); unset: a SQLite file each."""


def store_kind() -> str:
    """What the QGS sides store to, for the report: "SQLite" or "PostgreSQL"."""
    return "PostgreSQL" if os.environ.get(STORE_SERVER_ENV) else "SQLite"


@contextlib.contextmanager
def fresh_store(workdir: Path) -> Iterator[str]:
    """A store URL of its own: a SQLite file in ``workdir``, or a new PostgreSQL database.

    With ``QGS_BENCH_STORE_SERVER`` set, a database ``qgs_bench_<hex>`` is created on that server
    and dropped (``WITH (FORCE)``) afterwards.
    """
    server = os.environ.get(STORE_SERVER_ENV, "")
    if not server:
        yield f"sqlite:///{workdir / f'{uuid.uuid4().hex[:8]}.db'}"
        return
    from sqlalchemy import create_engine, text

    name = f"qgs_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()



@dataclass
class QgsSide:
    client: Client
    worker: Worker


@contextlib.contextmanager
def qgs_side(
    label: str,
    db_url: str,
    workdir: Path,
    pool: str,
    concurrency: int,
    judge: FakeOpenAIServer | None,
    tree: Path | None = None,
    **settings_env: str,
) -> Iterator[QgsSide]:
    """A fresh store (``fresh_store``), a client and a probed ``qgs worker`` subprocess on ``db_url``.

    ``settings_env`` adds ``QGS_*`` variables to the worker's environment; ``tree`` runs the
    worker from another checkout (its ``qgs_worker`` and its probe; the client is this one's).
    """
    with (
        fresh_store(workdir) as store_url,
        _qgs_side(label, db_url, store_url, workdir, pool, concurrency, judge, tree,
                  **settings_env) as side,  # fmt: skip
    ):
        yield side


@contextlib.contextmanager
def _qgs_side(
    label: str,
    db_url: str,
    store_url: str,
    workdir: Path,
    pool: str,
    concurrency: int,
    judge: FakeOpenAIServer | None,
    tree: Path | None,
    **settings_env: str,
) -> Iterator[QgsSide]:
    from qgs_worker.client import Client

    env = clean_env(
        QGS_BROKER_URL=db_url,
        QGS_DATABASE_URL=store_url,
        QGS_DATA_DIR=str(workdir / "data"),
        QGS_JUDGE__KIND="openai" if judge else "rules",
        **settings_env,
    )
    if judge is not None:
        env.update(
            QGS_JUDGE__BASE_URL=judge.base_url,
            QGS_JUDGE__API_KEY="bench",
            QGS_JUDGE__TIMEOUT_S="10",
        )
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join((str(tree), env["PYTHONPATH"]))
    settings = Settings(data_dir=workdir / "data", broker_url=db_url, database_url=store_url)
    client = Client(settings)
    name = f"bench-qgs-{uuid.uuid4().hex[:6]}"
    worker = start_worker(
        label,
        qgs_command(pool, concurrency, name, tree),
        env,
        workdir,
        client.app,
        pool,
        concurrency,
    )
    try:
        yield QgsSide(client, worker)
    finally:
        worker.stop()
        client.repo.dispose()


def publish_tasks(
    client: Client, tasks: Sequence[TaskSpec], *, final_last: bool = True
) -> Callable[[], None]:
    """What sends ``tasks`` through the client: start each task, submit its rounds in order.

    The last round of a task is submitted ``final`` unless ``final_last`` is False.
    """
    prefix = f"b{uuid.uuid4().hex[:8]}-"

    def publish() -> None:
        for i, spec in enumerate(tasks):
            task_id = f"{prefix}{i}"
            client.start_task(
                spec.request, task_type=spec.task_type, model=spec.agent_model, task_id=task_id
            )
            for number, deliverable in enumerate(spec.rounds, start=1):
                client.submit(task_id, deliverable, final=final_last and number == len(spec.rounds))

    publish.prefix = prefix  # type: ignore[attr-defined]
    return publish


def pipeline_finished(client: Client, rounds: int) -> Callable[[dict[str, int]], bool]:
    """Done when the store holds a decision on every round of the batch.

    A round is decided by its intake (nothing due), its critic job (a review and no audit), its
    decide job (after an audit) or its failure: the store's count is the one measure of all.
    It is read only once the job count stopped moving between two looks, or reached a round's
    worth of jobs, so the batch is not slowed by a count query every poll.
    """
    from qgs_worker.store import DecisionRow

    target = client.repo.count_rows(DecisionRow) + rounds
    last = [-1]

    def finished(jobs: dict[str, int]) -> bool:
        total = sum(jobs.values())
        moving = total != last[0] and total < 2 * rounds
        last[0] = total
        return not moving and client.repo.count_rows(DecisionRow) >= target

    return finished


def store_errors(client: Client, prefix: str) -> int:
    """Rounds failed and reviews stored as judge failures, for the tasks whose id has ``prefix``."""
    from sqlalchemy import func
    from sqlmodel import Session, select

    from qgs_worker.store import ReviewRow, RoundRow

    with Session(client.repo.engine) as s:
        where = RoundRow.task_id.startswith(prefix)  # type: ignore[attr-defined]
        failed = s.exec(select(func.count()).where(where, RoundRow.status == "failed")).one()
        judge_failed = s.exec(
            select(func.count())
            .select_from(ReviewRow)
            .join(RoundRow, RoundRow.id == ReviewRow.round_id)  # type: ignore[arg-type]
            .where(where, ReviewRow.status == "failed")
        ).one()
    return int(failed) + int(judge_failed)


def task_hops(client: Client, prefix: str, n_tasks: int) -> list[list[list[str]]]:
    """Per task, per round, the queues of the jobs after intake that ran (``jobs.job_chain``).

    Read from the store's rows of what ran: a review row (critic), an audit run row
    (discriminate). A reviewed round with no audit is decided by its critic job; an audited
    round by a decide job after the audit; a round with nothing due by its intake.
    """
    from sqlmodel import Session, select

    from qgs_worker.store import AuditRunRow, ReviewRow, RoundRow

    out: list[list[list[str]]] = []
    with Session(client.repo.engine) as s:
        for i in range(n_tasks):
            rows = s.exec(
                select(RoundRow).where(RoundRow.task_id == f"{prefix}{i}").order_by(RoundRow.number)  # type: ignore[arg-type]
            ).all()
            hops = []
            for r in rows:
                queues = []
                reviewed = s.exec(select(ReviewRow.id).where(ReviewRow.round_id == r.id)).first()
                audited = s.exec(select(AuditRunRow.id).where(AuditRunRow.round_id == r.id)).first()
                if reviewed:
                    queues.append(CRITIC_QUEUE)
                if audited:
                    queues += [DISCRIMINATOR_QUEUE, DEFAULT_QUEUE]
                hops.append(queues)
            out.append(hops)
    return out


# -- the baseline side -----------------------------------------------------------------------


@dataclass
class BaselineSide:
    app: Celery
    worker: Worker


@contextlib.contextmanager
def baseline_side(
    label: str,
    db_url: str,
    workdir: Path,
    pool: str,
    concurrency: int,
    requests_file: Path | None = None,
    judge_url: str | None = None,
) -> Iterator[BaselineSide]:
    """A probed baseline worker (no-op and bare-review jobs) on ``db_url``."""
    app = baseline_app(db_url)
    extra = {"QGS_BROKER_URL": db_url}
    if requests_file is not None and judge_url is not None:
        extra.update({REQUESTS_ENV: str(requests_file), JUDGE_URL_ENV: judge_url})
    name = f"bench-base-{uuid.uuid4().hex[:6]}"
    worker = start_worker(
        label, baseline_command(pool, concurrency, name), clean_env(**extra), workdir, app,
        pool, concurrency,
    )  # fmt: skip
    try:
        yield BaselineSide(app, worker)
    finally:
        worker.stop()


def publish_noop_flat(app: Celery, queues: Sequence[str]) -> Callable[[], None]:
    """One ``bench.noop`` per entry of ``queues``, sent by the bench."""

    def publish() -> None:
        for queue in queues:
            app.send_task("bench.noop", queue=queue)

    return publish


def publish_noop_chains(app: Celery, hops: Sequence[Sequence[Sequence[str]]]) -> Callable[[], None]:
    """The pipeline's shape in no-ops: per task one chained no-op for its first round's intake
    whose chain holds every later hop of every round in order (a task's rounds are decided one
    after another), and a flat no-op for each later round's intake (sent by the client, as the
    pipeline's are). The same job count on the same queues as the pipeline run measured."""

    def publish() -> None:
        for task in hops:
            chained = [q for round_hops in task for q in round_hops]
            app.send_task("bench.noop_chain", args=[chained], queue=DEFAULT_QUEUE)
            for _ in task[1:]:
                app.send_task("bench.noop", queue=DEFAULT_QUEUE)

    return publish


def hop_jobs(hops: Sequence[Sequence[Sequence[str]]]) -> int:
    """Jobs the chained no-op batch runs: an intake per round plus every later hop."""
    return sum(len(r) + 1 for task in hops for r in task)


def flat_queues(hops: Sequence[Sequence[Sequence[str]]], repeat: int = 1) -> list[str]:
    """The queue of every job of ``hops`` (intakes on the default queue), ``repeat`` times."""
    one = [q for task in hops for r in task for q in (DEFAULT_QUEUE, *r)]
    return one * repeat


def count_at_least(
    total: int, names: Sequence[str] | None = None
) -> Callable[[dict[str, int]], bool]:
    """Done when the jobs named (all, when None) add up to ``total``."""

    def finished(jobs: dict[str, int]) -> bool:
        return sum(v for k, v in jobs.items() if names is None or k in names) >= total

    return finished


def publish_bare(app: Celery, n: int) -> Callable[[], None]:
    """``n`` bare review jobs on the critic queue."""

    def publish() -> None:
        for i in range(n):
            app.send_task("bench.bare_review", args=[i], queue=CRITIC_QUEUE)

    return publish
