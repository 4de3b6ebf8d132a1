"""The "about something else" threshold of the rules judge, calibrated on public dialogue pairs.

``chatterbot-corpus`` (PyPI, BSD-3-Clause; ``chatterbot_corpus/data/<language>/*.yml``, 28
languages) holds conversations as lists of lines, each answering the one before. Every
distinct consecutive (line, reply) pair whose reply has 20+ words outside code blocks (the rules
judge checks only prose of 20+ words, code left out) is a positive; the same line with the reply of another pair of the same language,
drawn with a fixed seed, is its negative (another language would be too easy). Pairs whose
line's SHA-256 is even calibrate: the threshold is the one with the best pair accuracy among
those that put at most ``MAX_FALSE_FAIL`` of the positives under it. The odd ones are held out:
the script prints the pair accuracy, the positives failed and the negatives caught on them.

    pip download --no-deps -d /tmp/cc chatterbot-corpus==1.3.3
    .venv/bin/python bench/topic_calibration.py /tmp/cc/chatterbot_corpus-1.3.3-py2.py3-none-any.whl

Measured (chatterbot-corpus 1.3.3): 229 + 256 pairs; the calibration rule finds no threshold
above 0 (every one fails more than 10% of the positives); at the shipped 0.05, held out: pair
accuracy 63.3%, positives failed 33.6%, negatives caught 60.2%.

Needs PyYAML (a dependency of QGS's dependencies). The wheel is read as a zip, not installed.
"""

from __future__ import annotations

import hashlib
import random
import re
import sys
import zipfile
from collections.abc import Sequence
from itertools import pairwise

import yaml

from qgs_worker.judges.request_words import word_count
from qgs_worker.judges.topic import LEXICAL, MAX_FALSE_FAIL, TopicMeasure

MIN_REPLY_WORDS = 20
SEED = 32
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)

Pair = tuple[str, str, str]  # (language, line, reply)
Scored = tuple[float, float]  # (positive's similarity, negative's similarity)


def read_pairs(wheel: str) -> list[Pair]:
    """Every consecutive (line, reply) pair of the corpus, with its language folder."""
    pairs: list[Pair] = []
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            parts = name.split("/")
            if len(parts) != 4 or parts[1] != "data" or not name.endswith(".yml"):
                continue
            try:
                data = yaml.safe_load(archive.read(name).decode("utf-8"))
            except yaml.YAMLError:
                continue
            for conversation in (data or {}).get("conversations") or []:
                if not isinstance(conversation, list):
                    continue
                lines = [str(x) for x in conversation if x is not None]
                pairs.extend((parts[2], a, b) for a, b in pairwise(lines))
    return pairs


def scored_pairs(pairs: Sequence[Pair], measure: TopicMeasure) -> tuple[list[Scored], list[Scored]]:
    """(calibration, held-out) pairs of similarities, positives with their drawn negatives."""
    rng = random.Random(SEED)
    long = [
        (language, line, prose)
        for language, line, reply in dict.fromkeys(pairs)
        if word_count(prose := _FENCED.sub(" ", reply)) >= MIN_REPLY_WORDS
    ]
    by_language: dict[str, list[Pair]] = {}
    for p in long:
        by_language.setdefault(p[0], []).append(p)
    calibration: list[Scored] = []
    held_out: list[Scored] = []
    for language, line, reply in long:
        others = [p for p in by_language[language] if p[1] != line]
        if not others:
            continue
        negative = rng.choice(others)[2]
        positive_score = measure.similarity(line, reply)
        negative_score = measure.similarity(line, negative)
        if positive_score is None or negative_score is None:
            continue
        half = int(hashlib.sha256(line.encode()).hexdigest(), 16) % 2
        (calibration if half == 0 else held_out).append((positive_score, negative_score))
    return calibration, held_out


def rates(scored: Sequence[Scored], threshold: float) -> tuple[float, float, float]:
    """(pair accuracy, positives failed, negatives caught) at ``threshold``."""
    failed = sum(p < threshold for p, _ in scored) / len(scored)
    caught = sum(n < threshold for _, n in scored) / len(scored)
    return ((1 - failed) + caught) / 2, failed, caught


def calibrate(scored: Sequence[Scored]) -> float:
    """The threshold of best accuracy with at most MAX_FALSE_FAIL of the positives under it."""
    best = (0.0, 0.0)
    for step in range(101):
        threshold = step / 100
        accuracy, failed, _ = rates(scored, threshold)
        if failed <= MAX_FALSE_FAIL and accuracy > best[0]:
            best = (accuracy, threshold)
    return best[1]


def main(wheel: str) -> None:
    """Print the calibration (see the module docstring)."""
    pairs = read_pairs(wheel)
    calibration, held_out = scored_pairs(pairs, LEXICAL)
    print(f"{len(pairs)} pairs; {len(calibration)} + {len(held_out)} with a reply of "
          f"{MIN_REPLY_WORDS}+ words (calibration + held out)")  # fmt: skip
    threshold = calibrate(calibration)
    for name, scored in (("calibration", calibration), ("held out", held_out)):
        accuracy, failed, caught = rates(scored, threshold)
        print(f"{name}: threshold {threshold:.2f}: pair accuracy {accuracy:.1%}, positives "
              f"failed {failed:.1%}, negatives caught {caught:.1%}")  # fmt: skip
    print(f"shipped threshold ({LEXICAL.name}): {LEXICAL.threshold:.2f}")
    accuracy, failed, caught = rates(held_out, LEXICAL.threshold)
    print(f"held out at the shipped threshold: pair accuracy {accuracy:.1%}, positives failed "
          f"{failed:.1%}, negatives caught {caught:.1%}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1])
