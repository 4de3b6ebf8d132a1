"""Whether a deliverable is about what was asked: a measure and its threshold (the rules judge).

The rules judge's "about something else" check compares what was asked with the deliverable's
prose through a :class:`TopicMeasure`: a similarity function (0-1) and the threshold under which
the two are taken to be about different things. Two ship:

| measure | when | similarity | threshold | decisive |
| --- | --- | --- | --- | --- |
| :func:`encoder_measure` | a sentence encoder is registered (``qgs[encoder]``: ``encoders.install``) | cosine of the two texts' vectors | ``ENCODER_THRESHOLD`` | yes: under it fails the round |
| :data:`LEXICAL` | otherwise | shared character trigrams / content words | 0.05 | no: 15 points of relevance |

:func:`default_measure` picks one for each review (``RulesJudge()`` without ``topic=``): the
encoder's where one is registered whose name starts with ``ENCODER_FAMILY`` (the threshold was
calibrated on it), the lexical one otherwise. Nothing of the encoder is imported here: it is the
core's :class:`~qgs_worker.core.ports.TextEncoder` port, registered by the faces; its weights
load on the first text it encodes, once per process.

*The lexical measure* (:data:`LEXICAL`) is cheap and
offline: the share of the request's character trigrams (of its content words: ``dat``, ``ata``, ``tab``...; a
word under 4 letters is one gram, whole: "ai", "sql"; a CJK bigram and its characters are grams) found among the trigrams of the
deliverable's words, or the share of its content words the deliverable matches
(:func:`~qgs_worker.judges.request_words.matches`: prefixes, base forms, operation classes),
whichever is higher. Trigrams carry inflections and compounds across languages ("artículo" /
"artículos", "Datenbank" / "Datenbanken"); the word share carries "remove" / "delete".

The threshold of ``LEXICAL`` is calibrated by ``bench/topic_calibration.py`` on the
``chatterbot-corpus`` package's dialogues (BSD-3-Clause; 28 languages): each (line, reply) pair
whose reply has 20+ words is a positive, the same line with the reply of another pair of the
same language a negative; pairs whose line hashes even calibrate, the others are held out.
Measured (229 + 256 pairs, every request: ``--all-requests``): no threshold keeps the calibration half's positives under
``MAX_FALSE_FAIL`` while catching a negative (dialogue replies rarely restate the line: "What is
it like to be a robot?" / "Much the same as being a human..."), so the shipped 0.05 is a
judgment, not an optimum: prose sharing under 5% of the request's grams. Held out at 0.05: pair
accuracy 63.3%, 60.2% of the negatives caught, 33.6% of the positives under it. Deliverables
restate their subject far more than chit-chat does, and the check reads only QUERY and GENERATE
prose of 20+ words. ``LEXICAL`` is not ``decisive``: the rules judge takes points off for it and
fails no round on it alone.

*The encoder's measure* (:func:`encoder_measure`) is the cosine similarity of the request's
vector and the vector of the deliverable's first ``ENCODER_MAX_CHARS`` characters (Universal
Sentence Encoder multilingual v3: 16 languages share one space, so a Spanish answer to a
Spanish request is judged on its meaning, not on shared letters). Its threshold
``ENCODER_THRESHOLD`` is calibrated by the same script with ``--encoder`` (in ``.venv-encoder``,
which ``make test-encoder`` builds), on two public sources of (request, reply) pairs, each
reply of 20+ words and each request one the judge compares (4+ content words, no language
named); shuffled pairs (the request with another pair's reply) are the negatives:
``chatterbot-corpus`` 1.3.3's dialogues (192 pairs, 28 languages) and ``pyrit`` 1.1.0's
scorer-evaluation (objective, response) pairs a person scored as answering (189, English).
Calibrated on one source, scored on the other: the threshold of best pair accuracy that fails at
most ``MAX_FALSE_FAIL`` of chatterbot's replies is 0.11; on PyRIT's pairs at 0.11, 98.4% of the
genuine answers pass (3 of 189 fail: two are code outside a fence, one answers an injected
order instead of the request) and 76.2% of the shuffled ones are caught (the lexical measure at
0.05 on the same pairs: 98.9% pass, 2.1% caught: the shuffled replies share the harm topics'
vocabulary). The other way, the highest threshold failing at most 2% of PyRIT's answers is
0.11 too; on chatterbot's pairs it passes 90.1% of the replies and catches 53.1% of the
shuffled (the lexical at 0.05: 89.1% / 30.7%). Chit-chat replies restate their line least;
deliverables are closer to PyRIT's answers. The measure is ``decisive``: under 0.11 fails the
round. Cost: ~11 ms of CPU for a request and a 4,000-character deliverable once the encoder is
loaded (the worker loads it once per process, on the first text it encodes, detector or judge).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from qgs_worker.core.ports import TextEncoder
from qgs_worker.judges.request_words import CJK_RUN, content_words, matches, tokens, words_of

__all__ = [
    "ENCODER_FAMILY",
    "ENCODER_MAX_CHARS",
    "ENCODER_THRESHOLD",
    "LEXICAL",
    "MAX_FALSE_FAIL",
    "TopicMeasure",
    "default_measure",
    "encoder_measure",
    "lexical_similarity",
]

MAX_FALSE_FAIL = 0.1
"""The largest share of genuine (request, reply) pairs of the calibration set the threshold may
put under it: a false "about something else" fails a good round."""


@dataclass(frozen=True)
class TopicMeasure:
    """A similarity between what was asked and a deliverable, and where "off topic" starts.

    Attributes:
        name: Named in the issue a failing round gets (``"character trigrams"``).
        similarity: ``(asked, deliverable) -> 0-1``; None when ``asked`` has nothing to compare
            (no content word).
        threshold: Under this, the deliverable is about something else.
        decisive: Under the threshold fails the round (an encoder's measure); when False (the
            lexical default) it costs ``TOPIC_HINT_POINTS`` in the rules judge and fails nothing
            by itself: shared letters are too weak a signal to reject a good answer on.
    """

    name: str
    similarity: Callable[[str, str], float | None]
    threshold: float
    decisive: bool = True


def lexical_similarity(asked: str, deliverable: str) -> float | None:
    """The higher of the trigram share and the content-word share (the module docstring).

    Args:
        asked: The request or user turn.
        deliverable: The deliverable's prose.

    Returns:
        0-1, or None when ``asked`` has no content word.
    """
    wanted = content_words(asked)
    if not wanted:
        return None
    grams = _grams(tuple(wanted))
    found = _grams(tuple(set(tokens(deliverable))))
    trigram_share = len(grams & found) / len(grams) if grams else 0.0
    output = words_of(deliverable)
    word_share = sum(matches(w, output) for w in wanted) / len(wanted)
    return max(trigram_share, word_share)


@functools.lru_cache(maxsize=256)
def _grams(words: tuple[str, ...]) -> frozenset[str]:
    found: set[str] = set()
    for word in words:
        if CJK_RUN.fullmatch(word):
            found.add(word)
            found.update(word)  # its characters: a Chinese word is one or two of them
            continue
        if len(word) < 4:  # "ai", "sql", "cat": the whole word
            found.add(f" {word} ")
            continue
        found.update(word[i : i + 3] for i in range(len(word) - 2))
    return frozenset(found)


LEXICAL = TopicMeasure(
    name="character trigrams", similarity=lexical_similarity, threshold=0.05, decisive=False
)
"""The offline default; its threshold from ``bench/topic_calibration.py``."""


ENCODER_FAMILY = "use-multilingual-v3"
"""The encoder ``ENCODER_THRESHOLD`` was calibrated on: a registered encoder whose ``name`` does
not start with it leaves the lexical measure in place."""
ENCODER_THRESHOLD = 0.11
"""Cosine similarity under which the deliverable is about something else (module docstring)."""
ENCODER_MAX_CHARS = 4000
"""The deliverable's characters the encoder reads: its opening says its subject, and the
encoder's cost grows with the text (~5 ms of CPU a 300-character window)."""


def encoder_measure(encoder: TextEncoder, threshold: float = ENCODER_THRESHOLD) -> TopicMeasure:
    """The decisive measure of an encoder: cosine similarity of the two texts' vectors.

    Args:
        encoder: Returns L2-normalized vectors (USE multilingual v3 does); loaded on its first
            ``encode``.
        threshold: Under this cosine, the deliverable is about something else.

    Returns:
        A ``TopicMeasure`` whose similarity is ``None`` for an empty request, else the cosine
        clipped to 0-1.
    """

    def similarity(asked: str, deliverable: str) -> float | None:
        if not asked.strip():
            return None
        vectors = encoder.encode([asked.strip(), deliverable.strip()[:ENCODER_MAX_CHARS]])
        return min(1.0, max(0.0, float(vectors[0] @ vectors[1])))

    return TopicMeasure(
        name=f"{ENCODER_FAMILY} cosine", similarity=similarity, threshold=threshold, decisive=True
    )


def default_measure() -> TopicMeasure:
    """The encoder's measure when one of ``ENCODER_FAMILY`` is registered, else ``LEXICAL``.

    Reads the core's registry (``instruction_model.registered_encoder``, filled by
    ``qgs_worker.encoders.install`` where ``qgs[encoder]`` is installed and ``QGS_ENCODER`` is not
    ``off``) on every call, so a judge built before the registration uses it; the measure is
    built once per encoder.
    """
    # Imported here: a process that imports the judges and never reviews does not load the
    # detector's module (~10 ms); a worker has it already.
    from qgs_worker.core import instruction_model

    encoder = instruction_model.registered_encoder()
    if encoder is None:
        return LEXICAL
    built = _BUILT[0] if _BUILT else None
    if built is None or built[0] is not encoder:
        # The name is read once per encoder (the adapter's looks its package's version up).
        family = encoder.name.startswith(ENCODER_FAMILY)
        built = (encoder, encoder_measure(encoder) if family else LEXICAL)
        _BUILT[:] = [built]  # a race builds it twice, harmlessly
    return built[1]


_BUILT: list[tuple[TextEncoder, TopicMeasure]] = []
"""The last encoder ``default_measure`` saw, with its measure (``LEXICAL`` for another family)."""
