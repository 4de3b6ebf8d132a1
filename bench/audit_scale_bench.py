"""``qgs audit``'s client at scale: memory and CPU per transcript, and the cost of one poll.

Usage: .venv/bin/python bench/audit_scale_bench.py [--quick] [--sizes 1000,5000,10000]
       [--before PATH]   (a checkout of the revision to compare with, e.g. from `git archive`)

Client side only (no broker, no worker): each size runs in a fresh subprocess per tree, so the
RSS figures do not mix. Workload: generated JSONL transcripts (a request, two assistant turns of
~1.5 KB each). In each subprocess:

1. plan and send: ``cli._plan_audit`` over the files, with the sending replaced by a no-op (the
   new tree sends as it reads; the old one returned every submission, then sent them): peak RSS
   (``ru_maxrss``) and CPU ms per transcript;
2. one poll with every task waiting, on a SQLite store holding the tasks' rounds: the old wait
   read each waiting task's rounds (``_task_done``), the new one issues one query
   (``AuditWait.poll``): ms per poll, and what a poll every 0.2 s costs as a share of a core.

Prints a table and a ratio line (new / before) per size; with no ``--before``, the new tree only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from types import SimpleNamespace
folder, db, n = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
try:
    from qgs_worker.cli import audit as cli  # the cli package (a module per command group)
except ImportError:
    from qgs_worker import cli  # an older tree: cli.py
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.store.tables import RoundRow
import inspect
client = Client(Settings(database_url=f"sqlite:///{db}"))
files = sorted(folder.glob("*.jsonl"))
new = "send" in inspect.signature(cli._plan_audit).parameters
t0 = time.process_time()
plan = (cli._plan_audit(client, files, send=lambda batch: None) if new
        else cli._plan_audit(client, files))
plan_cpu = time.process_time() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
ids = plan.task_ids
repo = client.repo
from qgs_worker.queue import pipeline
from sqlmodel import Session
with Session(repo.engine) as s:  # the tasks and their rounds, as the intake would store them
    from qgs_worker.store.tables import TaskRow
    for t in ids:
        s.add(TaskRow(id=t, request="r", task_type="QUERY", complexity="SIMPLE",
                      classification_source="rules", confidence=1.0))
    s.commit()
    for t in ids:
        for k in (1, 2):
            s.add(RoundRow(submission_id=f"{t}:{k}", task_id=t, number=k, final=k == 2,
                           content="x", content_hash="h"))
    s.commit()
reps = 5
t0 = time.process_time()
for _ in range(reps):
    if new:
        from qgs_worker.cli.audit_wait import AuditWait
        AuditWait(repo, {t: {1, 2} for t in ids}).poll()
    else:
        {t for t in ids if not cli._task_done(SimpleNamespace(repo=repo), t)}
poll_ms = (time.process_time() - t0) / reps * 1000
print(json.dumps({"rss_mb": rss, "cpu_ms_per_tx": plan_cpu * 1000 / n, "poll_ms": poll_ms}))
"""


def generate(folder: Path, count: int) -> None:
    """``count`` transcripts in JSONL files of 1,000 each."""
    para = (
        "The function reads the configuration file, validates each field against the "
        "schema and returns a typed settings object; unknown keys are reported. "
    ) * 8
    for start in range(0, count, 1000):
        with (folder / f"runs_{start:06d}.jsonl").open("w", encoding="utf-8") as out:
            for i in range(start, min(count, start + 1000)):
                record = {
                    "id": f"run-{i}",
                    "messages": [
                        {"role": "user", "content": f"Explain how config loading works ({i})."},
                        {"role": "assistant", "content": f"Draft {i}. {para}"},
                        {"role": "user", "content": "Shorter, please."},
                        {"role": "assistant", "content": f"Final {i}. {para[:800]}"},
                    ],
                }
                out.write(json.dumps(record) + "\n")


def measure(tree: Path, folder: Path, count: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(tree), "QGS_DATA_DIR": tmp}
        env.pop("QGS_BROKER_URL", None)
        done = subprocess.run(
            [PY, "-c", CHILD, str(folder), str(Path(tmp) / "qgs.db"), str(count)],
            env=env, capture_output=True, text=True, check=True, cwd=tree,
        )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 200 and 1000")
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--before", type=Path, help="a checkout of the revision to compare")
    args = parser.parse_args()
    sizes = [200, 1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    trees = [("new", ROOT)] + ([("before", args.before)] if args.before else [])
    print(
        f"{'size':>6} {'tree':>7} {'RSS MB':>8} {'CPU ms/tx':>10} {'poll ms':>9} {'core @0.2s':>10}"
    )
    rss_new: dict[int, float] = {}
    for count in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            generate(Path(tmp), count)
            found = {name: measure(tree, Path(tmp), count) for name, tree in trees}
        rss_new[count] = found["new"]["rss_mb"]
        for name, f in found.items():
            core = f["poll_ms"] / 200
            print(
                f"{count:>6} {name:>7} {f['rss_mb']:>8.0f} {f['cpu_ms_per_tx']:>10.2f} "
                f"{f['poll_ms']:>9.1f} {core:>10.2f}"
            )
        if "before" in found:
            new, old = found["new"], found["before"]
            print(
                f"ratio new/before at {count}: RSS {new['rss_mb'] / old['rss_mb']:.2f}, "
                f"CPU/tx {new['cpu_ms_per_tx'] / old['cpu_ms_per_tx']:.2f}, "
                f"poll {new['poll_ms'] / old['poll_ms']:.3f}"
            )
    small, large = min(rss_new), max(rss_new)
    # Flat memory is the claim: the client's RSS at the largest batch against the smallest.
    print(f"ratio RSS at {large} / at {small} transcripts = {rss_new[large] / rss_new[small]:.2f}")


if __name__ == "__main__":
    main()
