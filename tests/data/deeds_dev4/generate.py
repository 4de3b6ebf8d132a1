"""Write ``agents.jsonl``, the fourth development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev4/generate.py`` (from anywhere).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cleans import CLEANS  # noqa: E402
from kit4 import render_clean, render_pair  # noqa: E402
from pairs import PAIRS  # noqa: E402


def main() -> None:
    """Render every case and write them one a line."""
    records = [rec for case in PAIRS for rec in render_pair(case)]
    records += [render_clean(case) for case in CLEANS]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"{len(records)} records")


if __name__ == "__main__":
    main()
