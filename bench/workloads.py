"""The pipeline bench's workloads: a simple one and a realistic mix, new content on every call.

Every call of :func:`simple` or :func:`mix` makes content no earlier call made (a ``tag`` goes
into every round's text), so the critic reuses no stored review across batches or repetitions
(a review is reused when request, output, criteria and judge match: ``pipeline.critic``).

- **simple**: one GENERATE task per item, one final round of ~400 characters, no tool calls:
  intake, critic, decide (3 jobs a round).
- **mix**: the 17 transcripts of ``tasks/`` (QUERY, GENERATE, ACTION and CRITICAL tasks, tool
  calls and tool outputs, revision loops of up to 10 rounds, the incidents the detectors
  escalate to CRITICAL and audit), classified by QGS as ``qgs audit`` does; every round that
  has text is grown to 2-8 KB (the size drawn per round, seeded) with paragraphs of a design
  note appended, as long deliverables are. 60 rounds a copy, of which CRITICAL final rounds
  and escalated rounds go through the discriminator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from qgs_worker.core.models import Deliverable
from qgs_worker.transcripts import TranscriptTask, iter_paths, read_transcripts

TASKS_DIR = Path(__file__).resolve().parents[1] / "tasks"
MIX_MIN_BYTES, MIX_MAX_BYTES = 2048, 8192


@dataclass(frozen=True)
class TaskSpec:
    """One task to submit: request, optional fixed type, and each round's deliverable."""

    request: str
    task_type: str | None
    agent_model: str | None
    rounds: tuple[Deliverable, ...]


def simple(n_tasks: int, tag: str) -> list[TaskSpec]:
    """``n_tasks`` GENERATE tasks of one ~400-character final round each (its last round is
    submitted final: see :func:`publish_tasks`)."""
    return [
        TaskSpec(
            request=f"Write a short note on on-call rotation {i} ({tag})",
            task_type="GENERATE",
            agent_model=None,
            rounds=(Deliverable(text=_note(i, tag)),),
        )
        for i in range(n_tasks)
    ]


def _note(i: int, tag: str) -> str:
    return (
        f"# On-call note {i} ({tag})\n\n"
        f"This note explains how the team rotates the on-call schedule for service {i}. "
        "Each engineer takes one week; handovers happen on Monday at 10:00 with a short written "
        "summary of open incidents, pending changes and known risks. The summary lists owners "
        "and due dates, and links the runbooks that the next engineer needs.\n"
    )


_PARAGRAPHS = (
    "The service keeps its state in PostgreSQL; every write goes through one repository "
    "module, so a schema change touches one place. Reads that may be stale come from a "
    "replica, and the code says which ones are allowed to be.",
    "Deployments are rolling: two instances at a time leave the load balancer, take the new "
    "version, pass their health checks and come back. A failed check stops the rollout and "
    "keeps the old version on the remaining instances.",
    "Each alert names its runbook. The runbook says what the alert means, how to confirm it, "
    "the first three things to try and who to call when none of them work. Alerts without a "
    "runbook are removed at the monthly review.",
    "Configuration lives in environment variables with one prefix, read once at start into a "
    "typed settings object. A missing or malformed value stops the process with a message that "
    "names the variable and the expected form.",
    "Timeouts are set on every outbound call: two seconds to connect, ten to read, and a retry "
    "with jittered backoff for errors that may pass. Errors that will not pass (a 4xx other "
    "than 408 or 429) are reported at once.",
    "Logs are structured: one JSON object per line with the request id, the user id when there "
    "is one, the duration in milliseconds and the outcome. Personal data is never logged; ids "
    "are, so an incident can be traced.",
    "The test suite has three layers: unit tests of the pure functions, integration tests "
    "against a real database in a container, and a smoke test of the deployed service that "
    "runs after every rollout and pages on failure.",
    "Capacity is planned from the last quarter's peaks: the cluster must carry the busiest "
    "hour with one zone lost. The plan is checked every month against the measured load and "
    "revised when the margin falls under a third.",
)


def _grow(text: str, rng: random.Random, tag: str, number: int) -> str:
    """``text`` with design-note paragraphs appended up to a size drawn in 2-8 KB (UTF-8)."""
    target = rng.randint(MIX_MIN_BYTES, MIX_MAX_BYTES)
    parts = [text.rstrip(), "", f"## Notes ({tag}, round {number})"]
    size = sum(len(p.encode()) + 1 for p in parts)
    index = 0
    while size < target:
        paragraph = f"{index + 1}. {_PARAGRAPHS[rng.randrange(len(_PARAGRAPHS))]}"
        parts.append(paragraph)
        size += len(paragraph.encode()) + 1
        index += 1
    return "\n".join(parts) + "\n"


def read_examples() -> list[TranscriptTask]:
    """Every transcript of ``tasks/``, in file order."""
    found: list[TranscriptTask] = []
    for path in iter_paths([TASKS_DIR]):
        for item in read_transcripts(path):
            if not isinstance(item, TranscriptTask):
                raise SystemExit(f"unreadable transcript in {path}: {item}")
            found.append(item)
    return found


def mix(copies: int, tag: str, examples: Sequence[TranscriptTask] | None = None) -> list[TaskSpec]:
    """``copies`` times the ``tasks/`` transcripts, with new content (``tag``) in every round."""
    examples = list(examples) if examples is not None else read_examples()
    out: list[TaskSpec] = []
    for copy in range(copies):
        for k, t in enumerate(examples):
            rng = random.Random(f"{k}-{copy}")  # the sizes repeat; the tag makes the text new
            label = f"{tag}-{copy}-{k}"
            rounds = []
            for number, d in enumerate(t.rounds, start=1):
                text = _grow(d.text, rng, label, number) if d.text.strip() else f"({label})"
                rounds.append(d.model_copy(update={"text": text}))
            out.append(TaskSpec(t.request, None, t.agent_model, tuple(rounds)))
    return out


def round_count(tasks: Sequence[TaskSpec]) -> int:
    return sum(len(t.rounds) for t in tasks)
