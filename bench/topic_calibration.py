"""The "about something else" thresholds of the rules judge, calibrated on public (request, reply) pairs.

Two sources of pairs, read from their wheels as zips (not installed):

- ``chatterbot-corpus`` 1.3.3 (PyPI, BSD-3-Clause; ``chatterbot_corpus/data/<language>/*.yml``,
  28 languages): conversations as lists of lines, each answering the one before. Every distinct
  consecutive (line, reply) pair whose reply has 20+ words outside code blocks (the rules judge
  checks only prose of 20+ words, code left out) is a positive.
- ``pyrit`` 1.1.0 (PyPI, MIT; ``pyrit/datasets/scorer_evals/``): the (objective,
  assistant_response) pairs of its scorer evaluations that a person scored as answering: the
  refusal set's non-refusals (``human_score`` 0) and the objective sets' achieved objectives
  (``human_score`` 1), a response of 20+ words that ``core.nonanswers.refusal`` does not read
  as a refusal. Model answers to written requests, English; some requests are harmful (the
  texts are only compared here).

The negative of each positive is the same request with the reply of another pair of the same
source (and language), drawn with a fixed seed: a shuffled pair. Pairs whose request's SHA-256
is even form a source's calibration half, the odd ones its held-out half.

The lexical measure (``topic.LEXICAL``, not decisive): the threshold of best pair accuracy among
those that put at most ``MAX_FALSE_FAIL`` of chatterbot's calibration positives under it. The
encoder's measure (``--encoder``, decisive: it fails a round): the highest threshold that puts at
most ``ENCODER_MAX_FALSE_FAIL`` of the calibration positives under it, pooled over both sources'
calibration halves. Every measure is then scored on both held-out halves, and across sources:
calibrated on one source's pairs alone, scored on the other's.

    pip download --no-deps -d /tmp/cc chatterbot-corpus==1.3.3 pyrit==1.1.0
    .venv/bin/python bench/topic_calibration.py /tmp/cc/chatterbot_corpus-1.3.3-py2.py3-none-any.whl \
        /tmp/cc/pyrit-1.1.0-py3-none-any.whl
    .venv-encoder/bin/python bench/topic_calibration.py --encoder /tmp/cc/chatterbot_corpus-*.whl \
        /tmp/cc/pyrit-1.1.0-py3-none-any.whl

Measured (the second command, ~10 s; 192 chatterbot pairs, 96 + 96, and 189 PyRIT pairs,
97 + 92, the same pairs for both measures; true pass = genuine replies at or over the
threshold, caught = shuffled replies under it):

| measure, threshold | calibrated on | scored on | true pass | shuffled caught |
| --- | --- | --- | --- | --- |
| encoder cosine, 0.11 (shipped) | all chatterbot (best accuracy, <=10% failed) | all PyRIT | 98.4% | 76.2% |
| encoder cosine, 0.11 | all PyRIT (<=2% failed) | all chatterbot | 90.1% | 53.1% |
| encoder cosine, 0.11 | | PyRIT held-out half | 97.8% | 78.3% |
| encoder cosine, 0.11 | | chatterbot held-out half | 93.8% | 56.2% |
| trigrams, 0.05 (shipped) | chatterbot calibration half | all PyRIT | 98.9% | 2.1% |
| trigrams, 0.05 | | all chatterbot | 89.1% | 30.7% |
| trigrams, 0.22 | all PyRIT (best accuracy, <=10% failed) | all chatterbot | 68.8% | 74.0% |
| trigrams, 0.01 | all chatterbot (best accuracy, <=10% failed) | all PyRIT | 99.5% | 0.5% |

With ``--all-requests`` (every pair, as first measured for the trigrams: 229 + 256 chatterbot
pairs), the trigrams at 0.05 on chatterbot's held-out half: pair accuracy 63.3%, positives
failed 33.6%, negatives caught 60.2%. Needs PyYAML (a
dependency of QGS's dependencies); ``--encoder`` needs ``qgs[encoder]`` (``make test-encoder``
builds ``.venv-encoder`` with it).
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import re
import sys
import zipfile
from collections.abc import Sequence
from itertools import pairwise

import yaml

from qgs_worker.core import nonanswers
from qgs_worker.judges.non_answer import comparable
from qgs_worker.judges.request_words import word_count
from qgs_worker.judges.topic import LEXICAL, MAX_FALSE_FAIL, TopicMeasure, encoder_measure

MIN_REPLY_WORDS = 20
SEED = 32
ENCODER_MAX_FALSE_FAIL = 0.02
"""The largest share of genuine pairs the decisive (encoder's) threshold may put under it."""
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)

Pair = tuple[str, str, str]  # (group: a language, line, reply)
Scored = tuple[float, float]  # (positive's similarity, negative's similarity)


def read_pairs(wheel: str) -> list[Pair]:
    """Every consecutive (line, reply) pair of chatterbot-corpus, with its language folder."""
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


def read_pyrit_pairs(wheel: str) -> list[Pair]:
    """PyRIT's scorer-evaluation pairs a person scored as answering (module docstring)."""
    pairs: list[Pair] = []
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            folder = name.rsplit("/", 2)[-2] if name.count("/") >= 2 else ""
            answered = {"refusal_scorer": "0", "objective": "1"}.get(folder)
            if answered is None or not name.endswith(".csv") or "scorer_evals" not in name:
                continue
            text = archive.read(name).decode("utf-8-sig")
            rows = csv.DictReader(
                io.StringIO("\n".join(x for x in text.splitlines() if not x.startswith("#")))
            )
            for row in rows:
                objective = (row.get("objective") or "").strip()
                response = (row.get("assistant_response") or "").strip()
                if row.get("human_score") != answered or not objective or not response:
                    continue
                if nonanswers.refusal(response):
                    continue
                pairs.append(("en", objective, response))
    return pairs


def scored_pairs(
    pairs: Sequence[Pair], measures: Sequence[TopicMeasure], *, everything: bool = False
) -> list[tuple[list[Scored], list[Scored]]]:
    """Per measure, (calibration, held-out) similarities of positives and their drawn negatives.

    Every measure scores the same pairs: the requests the rules judge compares by each
    (``non_answer.comparable``: 4+ content words, no language named; all with ``everything``)
    and that each can measure.
    """
    rng = random.Random(SEED)
    long = [
        (group, line, prose)
        for group, line, reply in dict.fromkeys(pairs)
        if word_count(prose := _FENCED.sub(" ", reply)) >= MIN_REPLY_WORDS
        and (everything or all(comparable(line, "", m) for m in measures))
    ]
    by_group: dict[str, list[Pair]] = {}
    for p in long:
        by_group.setdefault(p[0], []).append(p)
    out: list[tuple[list[Scored], list[Scored]]] = [([], []) for _ in measures]
    for group, line, reply in long:
        others = [p for p in by_group[group] if p[1] != line]
        if not others:
            continue
        negative = rng.choice(others)[2]
        scores = [(m.similarity(line, reply), m.similarity(line, negative)) for m in measures]
        half = int(hashlib.sha256(line.encode()).hexdigest(), 16) % 2
        for (positive, negative_score), halves in zip(scores, out, strict=True):
            if any(x is None for pair in scores for x in pair):
                break
            assert positive is not None and negative_score is not None
            halves[half].append((positive, negative_score))
    return out


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


def calibrate_decisive(scored: Sequence[Scored]) -> float:
    """The highest threshold (in steps of 0.01) with at most ENCODER_MAX_FALSE_FAIL positives under it."""
    best = 0.0
    for step in range(101):
        threshold = step / 100
        if rates(scored, threshold)[1] <= ENCODER_MAX_FALSE_FAIL:
            best = threshold
    return best


def _line(name: str, scored: Sequence[Scored], threshold: float) -> str:
    accuracy, failed, caught = rates(scored, threshold)
    return (
        f"{name} ({len(scored)} pairs) at {threshold:.2f}: true pass {1 - failed:.1%} "
        f"(positives failed {failed:.1%}), shuffled caught {caught:.1%}, pair accuracy "
        f"{accuracy:.1%}"
    )


def main(argv: Sequence[str]) -> None:
    """Print the calibration (see the module docstring)."""
    flags = {a for a in argv if a.startswith("--")}
    chatterbot_wheel, pyrit_wheel = [a for a in argv if not a.startswith("--")]
    sources = {"chatterbot": read_pairs(chatterbot_wheel), "pyrit": read_pyrit_pairs(pyrit_wheel)}
    measures = [LEXICAL]
    if "--encoder" in flags:
        from qgs_worker.encoders import shared_encoder

        measures.append(encoder_measure(shared_encoder()))
    scored = {
        name: scored_pairs(pairs, measures, everything="--all-requests" in flags)
        for name, pairs in sources.items()
    }
    for name, per_measure in scored.items():
        calibration, held_out = per_measure[0]
        print(f"{name}: {len(sources[name])} pairs read; {len(calibration)} + {len(held_out)} "
              f"compared (calibration + held out), the same for every measure")  # fmt: skip
    rules = {"best accuracy, <=10% false fail": calibrate, "<=2% false fail": calibrate_decisive}
    for index, measure in enumerate(measures):
        halves = {name: per_measure[index] for name, per_measure in scored.items()}
        print(f"== {measure.name} (shipped threshold {measure.threshold:.2f})")
        threshold = calibrate(halves["chatterbot"][0])
        print(f"calibrated on chatterbot's calibration half: {threshold:.2f}")
        for shown in dict.fromkeys((threshold, measure.threshold)):
            for name, (_, held_out) in halves.items():
                print("  held out: " + _line(name, held_out, shown))
        for label, rule in rules.items():
            for source, target in (("chatterbot", "pyrit"), ("pyrit", "chatterbot")):
                crossed = rule([s for half in halves[source] for s in half])
                pairs = [s for half in halves[target] for s in half]
                print(f"  {label}: calibrated on all of {source}: {crossed:.2f}; scored on all "
                      f"of " + _line(target, pairs, crossed))  # fmt: skip
        for name, (calibration, held_out) in halves.items():
            print("  at the shipped threshold, all of " + _line(name, calibration + held_out,
                                                                 measure.threshold))  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
