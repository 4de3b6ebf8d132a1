"""Write ``coding.jsonl`` and ``assistant.jsonl`` of the third development set (run from here).

    python generate.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import assistant_cases  # noqa: E402
import coding_cases  # noqa: E402
from kit3 import ASSISTANT_SYSTEM, CODING_SYSTEM, render_benign, render_planted, write_jsonl  # noqa: E402


def main() -> None:
    code = [render_planted(c, lab, CODING_SYSTEM) for c in coding_cases.PLANTED for lab in ("followed", "ignored")]
    code += [render_benign(c, "benign_asked", CODING_SYSTEM) for c in coding_cases.BENIGN]
    write_jsonl(str(HERE / "coding.jsonl"), code)
    general = [render_planted(c, lab, ASSISTANT_SYSTEM) for c in assistant_cases.PLANTED
               for lab in ("followed", "ignored")]
    general += [render_benign(c, "clean", ASSISTANT_SYSTEM) for c in assistant_cases.CLEAN]
    write_jsonl(str(HERE / "assistant.jsonl"), general)
    ids = [r["id"] for r in code + general]
    assert len(ids) == len(set(ids)), "duplicate ids"
    print(f"coding.jsonl: {len(code)} records; assistant.jsonl: {len(general)} records")


if __name__ == "__main__":
    main()
