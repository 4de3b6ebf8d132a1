"""Every bench of ``make bench`` runs in its quick mode and prints its ratio line.

So a bench cannot rot between two ``make bench`` runs: an API it calls that changed (a step
that takes a new argument, a renamed column) fails here. Only completion is asserted (exit 0
and a ``ratio ... = <number>`` line), never a speed: figures are for the README, measured by
``make bench`` as ratios against baselines run side by side.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from tests.conftest import CORPUS, IN_CI, ROOT

pytestmark = pytest.mark.integration

RATIO_LINE = re.compile(r"^ratio .+ = \d+(\.\d+)?", re.MULTILINE)
RUN_TIMEOUT_S = 600
"""A guard against a hung bench (a worker that never answers), not a speed assertion."""


@dataclass(frozen=True)
class Bench:
    """A bench script of ``make bench`` and what its quick mode needs."""

    script: str
    args: tuple[str, ...] = ("--quick",)
    redis_db: bool = False  # QGS_BENCH_REDIS_URL: the test's own (empty) Redis db
    corpus: bool = False  # reads ../shared/corpus
    redis_server: bool = False  # starts a redis-server of its own (--private-redis)
    ratios: tuple[str, ...] = ()  # the ratio lines it must print (each with a figure)

    def __str__(self) -> str:
        return self.script


BENCHES = (
    Bench("llm_calls_bench.py"),
    Bench("judge_deadline_bench.py", redis_db=True),
    Bench("audit_bench.py"),
    Bench("instruction_model_bench.py"),
    Bench("detector_speed_bench.py"),
    Bench("audit_scale_bench.py"),
    Bench("cold_start_bench.py"),
    Bench("toolgate_bench.py", redis_db=True, corpus=True),
    Bench("api_bench.py", redis_db=True),
    Bench(
        "console_bench.py",
        redis_db=True,
        ratios=("p99 console open / closed", "worker idle RSS with / without the console"),
    ),
    Bench("pipeline_bench.py", args=("--quick", "--private-redis"), redis_server=True),
    Bench("audit_batch_bench.py", redis_server=True),
    Bench("deed_cost_bench.py"),
    Bench("encoder_bench.py"),
)
"""Every script the Makefile's ``bench`` target runs (a test checks the two lists agree)."""


def makefile_benches() -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = text.split("\nbench:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"bench/(\w+\.py)", target)


def test_every_make_bench_script_has_a_quick_run() -> None:
    assert sorted(makefile_benches()) == sorted(b.script for b in BENCHES)


def _needs(what: str) -> None:
    if IN_CI:
        pytest.fail(what)
    pytest.skip(what)


@pytest.mark.slow
@pytest.mark.parametrize("bench", BENCHES, ids=str)
def test_quick_mode_completes_and_prints_its_ratio(
    bench: Bench, request: pytest.FixtureRequest
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env["PYTHONPATH"] = str(ROOT)
    if bench.corpus and not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    if bench.redis_db:
        url: str = request.getfixturevalue("redis_url")
        redis.Redis.from_url(url).flushdb()  # the test's own db: the bench wants it empty
        env["QGS_BENCH_REDIS_URL"] = url
    if bench.redis_server and shutil.which("redis-server") is None:
        _needs("redis-server is not on the PATH (the pipeline bench's quick run starts one)")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / bench.script), *bench.args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    assert RATIO_LINE.search(done.stdout), done.stdout[-4000:]
    for name in bench.ratios:
        line = re.compile(rf"^ratio {re.escape(name)} = \d+(\.\d+)?", re.MULTILINE)
        assert line.search(done.stdout), f"no 'ratio {name} = ...' line:\n{done.stdout[-4000:]}"


def test_ratio_line_pattern_rejects_a_line_without_a_figure() -> None:
    assert RATIO_LINE.search("ratio QGS / naive judge calls = 0.235  (target <= 0.5: met)")
    assert not RATIO_LINE.search("ratio QGS / naive judge calls = n/a")
    assert not RATIO_LINE.search("the ratio = 1.0 is mentioned mid-line")


def test_bench_list_is_the_bench_folder() -> None:
    """A bench script named in the list exists (a rename fails here, not silently)."""
    for bench in BENCHES:
        assert Path(ROOT / "bench" / bench.script).is_file(), bench.script
