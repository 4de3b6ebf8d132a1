"""Write ``agents.jsonl``, the fifth development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev5/generate.py`` (from anywhere).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kit5 import render_pair, render_plain  # noqa: E402
from pairs_assist import ASSIST  # noqa: E402
from pairs_code import CODE  # noqa: E402
from plains import BENIGN, CLEAN  # noqa: E402


def main() -> None:
    """Render every case and write them one a line."""
    records = [rec for case in CODE + ASSIST for rec in render_pair(case)]
    records += [render_plain(case) for case in BENIGN + CLEAN]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)))


if __name__ == "__main__":
    main()
