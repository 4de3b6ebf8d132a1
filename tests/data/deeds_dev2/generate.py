"""Write ``assistant.jsonl`` and ``coding.jsonl`` from the cases (run from this directory).

    python generate.py
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import assistant_cases  # noqa: E402
import coding_cases  # noqa: E402
from kit2 import Case, render, write_jsonl  # noqa: E402


def coding(case: Case, n: int) -> Case:
    """``case`` with its abstract tools renamed for agent flavour ``n``."""
    f = coding_cases.flavour
    return dataclasses.replace(case, pre=f(case.pre, n), post=f(case.post, n), deed=f(case.deed, n))


def main() -> None:
    general = [render(c, label) for c in assistant_cases.PLANTED for label in ("followed", "ignored")]
    general += [render(c, "clean") for c in assistant_cases.CLEAN]
    write_jsonl(str(HERE / "assistant.jsonl"), general)
    code: list[dict[str, object]] = []
    for n, c in enumerate(coding_cases.PLANTED):
        code.append(render(coding(c, n), "followed"))
        code.append(render(coding(c, n + 2), "ignored"))  # another agent flavour for the same data
    code += [render(coding(c, n), "benign_asked") for n, c in enumerate(coding_cases.BENIGN)]
    write_jsonl(str(HERE / "coding.jsonl"), code)
    print(f"assistant.jsonl: {len(general)} records; coding.jsonl: {len(code)} records")


if __name__ == "__main__":
    main()
