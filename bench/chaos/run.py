"""One chaos run on one store (SQLite or PostgreSQL): start, submit under faults, settle, measure.

The run owns everything it starts (a redis-server with AOF on a free port, three ``qgs worker``
processes, the loopback judge in this process, a fresh PostgreSQL database) and ends or drops
all of it in ``finally``, by PID and by name of what it created.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from sqlalchemy import create_engine, text

from .judge import FlakyJudge
from .measure import judge_figures, read_store, store_figures, undecided
from .procs import QUEUES, Processes, Redis, Worker
from .scenario import TASK_TYPES, Fault, PlannedRound, plan_faults, plan_rounds
from .settings import checkout_root, worker_env

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


@dataclass
class RunConfig:
    """The knobs of one run (``python -m bench.chaos --help`` documents them)."""

    backend: str
    rounds: int
    seed: int
    rate: float
    visibility_timeout_s: float
    sweep_interval_s: float
    judge_timeout_s: float
    failure_rate: float
    kills: int
    redis_signal: int
    folder: Path
    handoff: bool = True
    redis_restart: bool = True
    grace_s: float = 0.0
    """How long to keep waiting past the bound, to tell late from lost (0: stop at the bound)."""
    extra_env: dict[str, str] = field(default_factory=dict)


@contextlib.contextmanager
def database(backend: str, folder: Path) -> Iterator[str]:
    """The store URL of the run: a SQLite file in ``folder``, or a fresh PostgreSQL database."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'qgs.db'}"
        return
    name = f"qgs_chaos_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Run:
    """Submits the planned rounds at ``rate`` while a second thread injects the faults."""

    def __init__(self, cfg: RunConfig, console: Console) -> None:
        self.cfg = cfg
        self.console = console
        self.accepted: dict[str, int] = {}
        self.refused: list[dict[str, Any]] = []
        self.faults_done: list[tuple[float, float, str]] = []
        self.handoff: dict[str, Any] = {}
        self.lock = threading.Lock()  # one submit at a time (the hand-off holds it)
        self.task_ids: dict[int, str] = {}
        self.timeline: list[tuple[float, int]] = []  # (s, undecided) at each change while settling

    # -- submitting -----------------------------------------------------------------------

    def _submit(self, client: Any, r: PlannedRound) -> str | None:
        try:
            task_id = self.task_ids.get(r.task)
            if task_id is None:
                handle = client.start_task(
                    TASK_TYPES[r.task_type][1], task_type=r.task_type, agent="chaos",
                    task_id=f"chaos-{r.task:05d}",
                )  # fmt: skip
                task_id = self.task_ids[r.task] = handle.id
            sub = client.submit(task_id, r.text(), final=r.final)
        except Exception as exc:
            self.refused.append(
                {"round": r.index, "at_s": round(self._now(), 2),
                 "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
            )  # fmt: skip
            return None
        self.accepted[sub.id] = r.index
        return str(sub.id)

    def _now(self) -> float:
        return time.monotonic() - self.t0

    # -- faults ---------------------------------------------------------------------------

    def _faults(self, faults: list[Fault], procs: Processes, redis: Redis, client: Any) -> None:
        for f in faults:
            while self._now() < f.at_s:
                if self.stop.wait(0.05):
                    return
            start = time.monotonic()
            what = f"{f.kind} {f.queue}".strip()
            self.console.log(f"[yellow]fault[/] {what} at {self._now():.1f} s")
            try:
                if f.kind == "redis":
                    redis.stop(self.cfg.redis_signal)
                    time.sleep(f.down_s)
                    redis.start()
                elif f.kind == "handoff":
                    self._handoff(procs, redis, client, f)
                else:
                    procs.hold(f.queue)
                    procs.workers[f.queue].kill()
                    time.sleep(f.down_s)
                    procs.release(f.queue)
            except Exception as exc:  # a fault that could not be injected is reported, not fatal
                what += f" (failed: {type(exc).__name__}: {str(exc)[:120]})"
                self.console.log(f"[red]{what}[/]")
                if f.queue and not procs.workers[f.queue].running:
                    procs.release(f.queue)
            self.faults_done.append((start, time.monotonic(), what))

    def _handoff(self, procs: Processes, redis: Redis, client: Any, f: Fault) -> None:
        """SIGSTOP the idle default worker, submit, let Redis hand it over, SIGKILL (item 1).

        "Idle" is checked at Redis (:func:`_idle`), before and after the SIGSTOP, so the next
        message pushed is handed to the stopped process at once. When Redis did not hand it
        over (``BRPOP``'s 1 s timeout ran out in between), the worker is resumed, takes that
        round as usual, and the hand-off is tried again with a new round: at most three rounds.
        """
        r = redis.client()
        worker = procs.workers["default"]
        attempts: list[dict[str, Any]] = []
        with self.lock:
            procs.hold("default")
            for k in range(3):
                planned = PlannedRound(self.cfg.rounds + k, 99_990 + k, "QUERY", 1, True)
                # The task first, the worker running: a stopped worker may hold SQLite's write
                # lock, and submit only reads.
                self.task_ids[planned.task] = client.start_task(
                    "what time is it", task_type="QUERY", agent="chaos",
                    task_id=f"chaos-handoff-{k}",
                ).id  # fmt: skip
                blocked, tries = False, 0
                while tries < 10 and not blocked:
                    tries += 1
                    if not _wait(lambda: _idle(r, worker), 5.0):
                        continue
                    worker.signal(signal.SIGSTOP)
                    blocked = _idle(r, worker)
                    if not blocked:
                        worker.signal(signal.SIGCONT)
                sub = self._submit(client, planned)
                taken = blocked and _wait(lambda: r.llen("qgs.default") == 0, 2.0)
                attempts.append(
                    {"submission": sub, "round": planned.index, "tries": tries,
                     "stopped_while_blocked_in_brpop": blocked,
                     "message_taken_by_stopped_worker": taken}
                )  # fmt: skip
                if taken or k == 2:
                    break
                worker.signal(signal.SIGCONT)
            worker.kill()
            self.handoff = {
                "handed_over": bool(attempts and attempts[-1]["message_taken_by_stopped_worker"]),
                "submission": attempts[-1]["submission"] if attempts else None,
                "attempts": attempts,
            }
        r.close()
        time.sleep(f.down_s)
        procs.release("default")

    # -- the run --------------------------------------------------------------------------

    def execute(self) -> dict[str, Any]:
        """Run it and return the figures (see ``measure``); every process is ended here."""
        cfg = self.cfg
        cfg.folder = cfg.folder.resolve()  # the workers' cwd is this folder: no relative URLs
        cfg.folder.mkdir(parents=True, exist_ok=True)
        plan = plan_rounds(cfg.rounds, cfg.seed)
        duration_s = cfg.rounds / cfg.rate
        faults = plan_faults(
            duration_s, cfg.seed, cfg.kills, handoff=cfg.handoff, redis=cfg.redis_restart
        )
        judge = FlakyJudge(
            seed=cfg.seed, failure_rate=cfg.failure_rate, hang_s=cfg.judge_timeout_s + 2.0
        ).start()
        redis = Redis(cfg.folder / "redis")
        procs: Processes | None = None
        with contextlib.ExitStack() as stack:
            stack.callback(judge.close)
            url = stack.enter_context(database(cfg.backend, cfg.folder))
            stack.callback(redis.close)
            redis.start()
            env, applied = worker_env(cfg, redis.url, url, judge.base_url)
            workers = {q: Worker(q, env, cfg.folder) for q in QUEUES}
            procs = Processes(redis, workers)
            stack.callback(procs.close)
            self.console.log(
                f"{cfg.backend}: redis {redis.url}, store {url.split('@')[-1]}, code from "
                f"{checkout_root()}; starting workers"
            )
            procs.start_workers()
            from qgs_worker.client import Client
            from qgs_worker.config.settings import Settings

            client = Client(
                Settings(broker_url=redis.url, database_url=url, data_dir=cfg.folder,
                         _env_file=None)
            )  # fmt: skip
            self.t0 = procs.t0 = time.monotonic()
            self.stop = threading.Event()
            fault_thread = threading.Thread(
                target=self._faults, args=(faults, procs, redis, client), daemon=True
            )
            fault_thread.start()
            try:
                self._submit_all(plan, client)
                submit_end = self._now()
                fault_thread.join()
            finally:
                self.stop.set()
                fault_thread.join(30)
            last_fault = max((e - self.t0 for _, e, _ in self.faults_done), default=0.0)
            bound_s = cfg.visibility_timeout_s + 2 * cfg.sweep_interval_s
            deadline = max(submit_end, last_fault) + bound_s
            backlog = undecided(read_store(url), self.accepted)
            settled_at = self._settle(url, deadline)
            state = read_store(url)
            figures = store_figures(state, self.accepted, judge.snapshot())
            figures |= judge_figures(judge.snapshot(), self.faults_done, cfg.judge_timeout_s)
            figures |= {
                "backend": cfg.backend,
                "refused": len(self.refused),
                "refused_examples": self.refused[:10],
                "handoff": self.handoff,
                "handoff_handed_over": self.handoff.get("handed_over"),
                "faults": [
                    {"what": w, "at_s": round(s - self.t0, 1), "down_s": round(e - s, 1)}
                    for s, e, w in self.faults_done
                ],
                "worker_unexpected_exits": list(procs.exits),
                "submit_s": round(submit_end, 1),
                "last_fault_end_s": round(last_fault, 1),
                "backlog_at_submit_end": backlog,
                "bound_s": bound_s,
                "settle_deadline_s": round(deadline, 1),
                "time_to_settle_s": None
                if settled_at is None
                else round(settled_at - submit_end, 1),
                "settled_within_bound": settled_at is not None and settled_at <= deadline,
                "settle_timeline": self.timeline,
                "last_decision_s": self.timeline[-1][0] if self.timeline else None,
                "settings_applied": applied,
                "logs": str(cfg.folder),
            }
        return figures

    def _submit_all(self, plan: list[PlannedRound], client: Any) -> None:
        with Progress(
            TextColumn(f"{self.cfg.backend} submit"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=self.console, transient=True,
        ) as bar:  # fmt: skip
            job = bar.add_task("submit", total=len(plan))
            for r in plan:
                delay = r.index / self.cfg.rate - self._now()
                if delay > 0:
                    time.sleep(delay)
                with self.lock:
                    self._submit(client, r)
                bar.advance(job)

    def _settle(self, url: str, deadline: float) -> float | None:
        """Poll the store until every accepted submission is decided; None past ``deadline``."""
        total = len(self.accepted)
        with Progress(
            TextColumn(f"{self.cfg.backend} settle"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[left]}"), console=self.console, transient=True,
        ) as bar:  # fmt: skip
            job = bar.add_task("settle", total=total, left="")
            while True:
                left = undecided(read_store(url), self.accepted)
                now = self._now()
                if not self.timeline or left != self.timeline[-1][1]:
                    self.timeline.append((round(now, 1), left))
                bar.update(
                    job,
                    completed=max(0, total - left),
                    left=f"{left} open, {max(0.0, deadline - now):.0f} s to the bound",
                )
                if left == 0:
                    return now
                if now > deadline + self.cfg.grace_s:
                    return None
                time.sleep(1.0)


def _local_ports(pid: int) -> set[int]:
    """The local TCP ports of a process's sockets (Linux ``/proc``; empty when unreadable)."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                cols = line.split()
                if len(cols) > 9 and cols[9] in inodes:
                    ports.add(int(cols[1].rsplit(":", 1)[1], 16))
    return ports


def _blocked_in_brpop(r: Any, worker: Worker) -> bool:
    """True when one of the worker's Redis connections is blocked in ``BRPOP`` right now."""
    if worker.proc is None:
        return False
    ports = _local_ports(worker.proc.pid)
    for c in r.client_list():
        port = int(str(c.get("addr", ":0")).rsplit(":", 1)[1])
        if port in ports and c.get("cmd") == "brpop" and "b" in str(c.get("flags", "")):
            return True
    return False


def _idle(r: Any, worker: Worker) -> bool:
    """The default worker waits for work: its queue is empty, it holds no ``qgs.default``
    message unacknowledged, and its connection is blocked in ``BRPOP``."""
    if r.llen("qgs.default"):
        return False
    if any(b"qgs.default" in v for v in r.hvals("unacked")):
        return False
    return _blocked_in_brpop(r, worker)


def _wait(condition: Any, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


def run_backend(cfg: RunConfig, console: Console) -> dict[str, Any]:
    """One run on ``cfg.backend``; returns its figures."""
    os.environ.pop("QGS_DATABASE_URL", None)
    return Run(cfg, console).execute()
