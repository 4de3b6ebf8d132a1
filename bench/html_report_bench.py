"""``qgs report --format html`` on a store of generated tasks: time, peak memory, page size.

Usage: .venv/bin/python bench/html_report_bench.py [--tasks 10000] [--keep DIR] [--no-browser]

Generates a SQLite store of ``--tasks`` audited tasks (bulk-inserted rows of the real tables:
1-4 rounds each with a distinct ~1.5 KB deliverable, a review with four dimension scores on
every second round and the final one, a decision on each round, findings on one task in five),
then runs the real command, ``qgs report --format html -o FILE``, in a subprocess and prints
its wall time, its peak RSS, the page's size and the share of it that is data. With Chromium
and chromedriver installed it also opens the page headless and reports the time until the
page's script is done (``body[data-ready]``) and the number of elements in the page.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qgs_worker.store import Repository  # noqa: E402
from qgs_worker.store.tables import (  # noqa: E402
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    ReviewRow,
    RoundRow,
    TaskRow,
)

TYPES = (
    ("QUERY", "SIMPLE"),
    ("GENERATE", "COMPLEX"),
    ("ACTION", "COMPLEX"),
    ("CRITICAL", "REFLECT"),
)
DIMENSIONS = ("completeness", "correctness", "clarity", "feasibility")
WORDS = [
    "the",
    "service",
    "config",
    "parser",
    "deploy",
    "rollback",
    "database",
    "migration",
    "report",
    "user",
    "request",
]


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def generate(url: str, tasks: int, seed: int = 14) -> None:
    """Bulk-insert ``tasks`` audited tasks into a new store at ``url``."""
    rng = random.Random(seed)
    repo = Repository(url)
    now = datetime.now(UTC)
    rows: dict[Any, list[dict[str, Any]]] = {
        t: [] for t in (TaskRow, RoundRow, ReviewRow, DimensionScoreRow, DecisionRow, FindingRow)
    }
    round_id = review_id = 0
    for i in range(tasks):
        task_type, complexity = TYPES[i % 4]
        task_id = f"t{i:06d}"
        rows[TaskRow].append(TaskRow(
            id=task_id, request=f"task {i}: " + _text(rng, 20), task_type=task_type,
            complexity=complexity, classification_source="rules", confidence=0.9,
            source_file=f"transcripts/day-{i // 1000:02d}.jsonl", source_line=i % 1000 + 1,
            transcript_id=f"conv-{i:06d}", created_at=now,
        ).model_dump())  # fmt: skip
        n_rounds = rng.randint(1, 4)
        score = rng.randint(40, 80)
        for n in range(1, n_rounds + 1):
            round_id += 1
            content = f"round {n} of task {i}\n" + _text(rng, 230)
            final = n == n_rounds
            rows[RoundRow].append(RoundRow(
                id=round_id, submission_id=f"{task_id}:{n}", task_id=task_id, number=n,
                final=final, content=content, content_hash=f"{i:032x}{n:032x}", status="decided",
                status_at=now, created_at=now,
            ).model_dump())  # fmt: skip
            if n % 2 == 0 or final:
                review_id += 1
                score = min(100, score + rng.randint(-5, 15))
                rows[ReviewRow].append(ReviewRow(
                    id=review_id, round_id=round_id, verdict="PASS" if score >= 80 else "FAIL",
                    score=score, summary=_text(rng, 25), judge="rules judge",
                    must_fix=json.dumps([_text(rng, 8)] if score < 80 else []),
                    prompt_tokens=rng.randint(800, 2000), completion_tokens=rng.randint(100, 300),
                    latency_ms=rng.uniform(200, 900), created_at=now,
                ).model_dump())  # fmt: skip
                for d in DIMENSIONS:
                    rows[DimensionScoreRow].append(DimensionScoreRow(
                        review_id=review_id, name=d, score=max(0, min(100, score + rng.randint(-10, 10))),
                        issues=json.dumps([_text(rng, 6)] if rng.random() < 0.3 else []),
                    ).model_dump(exclude={"id"}))  # fmt: skip
            risk = 0
            if i % 5 == 0 and final:
                severity = rng.choice(("P0", "P1", "P2", "P3"))
                risk = {"P0": 100, "P1": 50, "P2": 20, "P3": 10}[severity]
                rows[FindingRow].append(FindingRow(
                    round_id=round_id, fingerprint=f"{round_id:064x}", role="security_auditor",
                    category=rng.choice(("destructive_command", "secret_leak", "injected_instructions")),
                    severity=severity, title=_text(rng, 8), evidence=_text(rng, 30),
                    location="line 3", created_at=now,
                ).model_dump(exclude={"id"}))  # fmt: skip
            kind = (
                "block"
                if risk >= 100
                else ("pass" if score >= 80 else ("revise" if not final else "force_deliver"))
            )
            rows[DecisionRow].append(DecisionRow(
                round_id=round_id, task_id=task_id, kind=kind, reason=_text(rng, 12), risk=risk,
                created_at=now,
            ).model_dump(exclude={"id"}))  # fmt: skip
    with repo.engine.begin() as conn:
        for table, values in rows.items():
            if values:
                conn.execute(table.__table__.insert(), values)
    repo.dispose()


def browser_load_s(page: Path) -> tuple[float, int] | None:
    """Seconds from navigation until the page's script is done, and the page's element count."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)
    try:
        driver.set_page_load_timeout(300)
        start = time.perf_counter()
        driver.get(page.as_uri())
        WebDriverWait(driver, 300).until(
            lambda d: d.execute_script("return document.body.dataset.ready === 'true'")
        )
        elapsed = time.perf_counter() - start
        return elapsed, int(
            driver.execute_script("return document.getElementsByTagName('*').length")
        )
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="keep the store and the page in this folder")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="qgs-html-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "qgs.db"
    db.unlink(missing_ok=True)
    url = f"sqlite:///{db}"
    start = time.perf_counter()
    generate(url, args.tasks)
    print(f"generated {args.tasks:,} tasks in {time.perf_counter() - start:.1f} s ({url})")
    page = folder / "audit.html"
    env = {**os.environ, "QGS_DATABASE_URL": url, "QGS_DATA_DIR": str(folder / ".qgs"),
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "qgs_worker.cli", "report", "--format", "html", "-o", str(page)],
        check=True, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    wall = time.perf_counter() - start
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    size = page.stat().st_size
    text = page.read_text(encoding="utf-8")
    blob = text.split('<script id="qgs-data" type="application/json">', 1)[1].split("</script>", 1)[
        0
    ]
    print(f"qgs report --format html: {wall:.1f} s wall, peak RSS {rss_mb:.0f} MB")
    print(f"page: {size / 1e6:.1f} MB ({len(blob.encode()) / 1e6:.1f} MB of it the data blob, "
          f"{size / args.tasks / 1e3:.1f} KB a task)")  # fmt: skip
    if not args.no_browser:
        loaded = browser_load_s(page)
        if loaded is None:
            print("browser: chromium or chromedriver not installed; load time not measured")
        else:
            print(
                f"headless chromium: ready in {loaded[0]:.1f} s, {loaded[1]:,} elements in the page"
            )
    if args.keep is None:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
