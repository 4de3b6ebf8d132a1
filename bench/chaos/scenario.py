"""What a chaos run submits and which faults it injects when, all drawn from one seed.

The workload is a stream of rounds of mixed tasks (QUERY, GENERATE, ACTION, CRITICAL), a task
having one to four rounds, its last one marked final; rounds of a few open tasks interleave, a
task's own rounds in order. The faults are five worker SIGKILLs (one of them right after a
hand-off: SIGSTOP the idle default worker, submit, SIGKILL it) and one Redis restart, spread
over the first 80% of the submission phase.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

TASK_TYPES = {
    # type: (share of tasks, request, what a round says)
    "QUERY": (0.25, "what time is it in Tokyo right now", "It is 14:05 JST in Tokyo."),
    "GENERATE": (
        0.35,
        "write an article about AI safety for engineers",
        "AI safety for engineers: threat models, evaluation, red-teaming and rollout gates, "
        "each with a worked example and references.",
    ),
    "ACTION": (
        0.25,
        "deploy this service to staging",
        "Deployed billing v2 to staging with a canary at 5%; health checks are green.",
    ),
    "CRITICAL": (
        0.15,
        "delete all records in the database",
        "Backed up the records table (12,408 rows) and prepared the deletion; it runs only "
        "after a person confirms.",
    ),
}
ROUNDS_PER_TASK = ((1, 0.5), (2, 0.25), (3, 0.15), (4, 0.10))
OPEN_TASKS = 6
"""How many tasks have rounds in flight at once in the stream."""


@dataclass(frozen=True)
class PlannedRound:
    """One round the harness submits.

    Attributes:
        index: The round's place in the stream (0-based); its marker in the deliverable.
        task: The task's index in the run.
        task_type: QUERY, GENERATE, ACTION or CRITICAL.
        number: The round's number within its task (1-based).
        final: The task's last round.
    """

    index: int
    task: int
    task_type: str
    number: int
    final: bool

    def text(self) -> str:
        """The deliverable, carrying the marker the loopback judge counts calls by."""
        body = TASK_TYPES[self.task_type][2]
        return f"[chaos-round {self.index:06d}] Round {self.number}. {body}"


@dataclass(frozen=True)
class Fault:
    """One fault: ``kill`` (SIGKILL a worker), ``handoff`` or ``redis`` (restart).

    Attributes:
        at_s: When, in seconds after the first submission.
        kind: ``kill``, ``handoff`` or ``redis``.
        queue: The worker's queue (kill, handoff); "" for redis.
        down_s: How long the process stays down before it is started again, in seconds.
    """

    at_s: float
    kind: str
    queue: str
    down_s: float


def plan_rounds(rounds: int, seed: int) -> list[PlannedRound]:
    """``rounds`` rounds of mixed tasks, in submission order (see the module docstring)."""
    rng = random.Random(seed)
    names = list(TASK_TYPES)
    weights = [TASK_TYPES[n][0] for n in names]
    sizes, size_weights = zip(*ROUNDS_PER_TASK, strict=True)
    stream: list[PlannedRound] = []
    open_tasks: list[list[object]] = []  # [task index, type, rounds, next number]
    next_task = 0
    while len(stream) < rounds:
        while len(open_tasks) < OPEN_TASKS:
            drawn = rng.choices(sizes, size_weights)[0]
            open_tasks.append([next_task, rng.choices(names, weights)[0], drawn, 1])
            next_task += 1
        slot = open_tasks[rng.randrange(len(open_tasks))]
        task, kind, size, number = slot
        assert isinstance(task, int) and isinstance(size, int) and isinstance(number, int)
        left = rounds - len(stream)
        final = number == size or left == 1
        stream.append(PlannedRound(len(stream), task, str(kind), number, final))
        slot[3] = number + 1
        if final:
            open_tasks.remove(slot)
    # The stream may end with tasks whose last round was not final: that is an agent that stopped.
    return stream


def plan_faults(
    duration_s: float, seed: int, kills: int = 5, *, handoff: bool = True, redis: bool = True
) -> list[Fault]:
    """``kills`` worker SIGKILLs (the first of kind ``handoff``) and one Redis restart.

    ``handoff`` False makes every kill a plain one; ``redis`` False leaves Redis running.

    They fall in evenly spaced slots over 10%-80% of the submission phase, each moved by up to
    a fifth of a slot, in an order drawn from the seed. Kills name the critic queue twice (it
    holds running reviews and retry countdowns), then default and discriminator.
    """
    rng = random.Random(seed + 1)
    queues = ["critic", "default", "discriminator", "critic"]
    first = 1 if handoff and kills else 0
    kinds: list[tuple[str, str]] = [("handoff", "default")] * first
    kinds += [("kill", queues[i % len(queues)]) for i in range(kills - first)]
    kinds += [("redis", "")] * redis
    if not kinds:
        return []
    rng.shuffle(kinds)
    slot = 0.7 * duration_s / len(kinds)
    faults = []
    for i, (kind, queue) in enumerate(kinds):
        at = 0.1 * duration_s + slot * (i + 0.5) + rng.uniform(-0.2, 0.2) * slot
        down = rng.uniform(1.0, 3.0) if kind != "redis" else rng.uniform(1.5, 3.0)
        faults.append(Fault(round(at, 2), kind, queue, round(down, 2)))
    return faults
