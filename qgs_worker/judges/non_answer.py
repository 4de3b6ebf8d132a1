"""Whether a deliverable can be an answer to its request at all (the rules judge, issue 32).

:func:`why_not_an_answer` gives the first reason that holds, in this order, or ``""``:

| check | where | from |
| --- | --- | --- |
| no word at all (punctuation, symbols) and no tool call | every task type | here |
| a refusal | every task type (the judge fails it on QUERY / GENERATE only) | ``core.nonanswers.refusal`` |
| placeholder text, a chat model's boilerplate | every task type | ``core.nonanswers.placeholder`` |
| cut off: an unclosed code block, a last sentence left hanging | QUERY / GENERATE, without tool calls | ``core.nonanswers.cut_off`` |
| in another language than asked | QUERY / GENERATE, prose of 10+ words | ``judges.language`` (py3langid) |
| about something else | QUERY / GENERATE, prose of 20+ words | ``judges.topic`` |

Cut-off, language and topic are read on QUERY and GENERATE tasks only: an ACTION or CRITICAL
round's deliverable is what it does (an agent scaffold's stop sequence often cuts the closing
fence of the command it runs), and its report in words may be terse or in the tools' language.

The language check compares what was asked (the user turn when it has 3+ words, else the
request) with the deliverable's prose (code blocks, inline code, links and tool calls left out):
it holds when the request's language is identified with a probability of at least
``ASKED_LANGUAGE_FROM`` and the prose's, a different one, with at least
``ANSWER_LANGUAGE_FROM``, and the request names no language ("in French", "auf Deutsch",
"translate", "翻译"...): a request may ask for another language.

The topic check fails prose whose similarity to both the turn and the request is under the
measure's threshold (``judges.topic``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from qgs_worker.core import nonanswers
from qgs_worker.core.models import TaskType
from qgs_worker.judges.request_words import word_count
from qgs_worker.judges.topic import TopicMeasure

__all__ = ["ANSWER_LANGUAGE_FROM", "ASKED_LANGUAGE_FROM", "NonAnswer", "why_not_an_answer"]

ASKED_LANGUAGE_FROM = 0.6
"""The request's language counts from this probability (py3langid, normalised)."""
ANSWER_LANGUAGE_FROM = 0.9
"""The deliverable's language counts from this probability."""
LANGUAGE_MIN_WORDS = 10
TOPIC_MIN_WORDS = 20
_TEXT_TYPES = frozenset({TaskType.QUERY, TaskType.GENERATE})

_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"https?://\S+|\]\([^)]*\)")
_NAMES_A_LANGUAGE = re.compile(
    r"\b(?:in|into|to)\s+(?:english|french|german|spanish|italian|portuguese|dutch|russian|"
    r"chinese|mandarin|japanese|korean|arabic|hindi|polish|turkish|swedish|ukrainian|greek|"
    r"hebrew|vietnamese|indonesian|czech|danish|finnish|norwegian|romanian|hungarian)\b"
    r"|\btranslat|\btradu|\bübersetz|\btraduz|\btraduc|\ben\s+(?:français|anglais|allemand|"
    r"espagnol|italien|inglés|francés|alemán|español|inglese|francese|tedesco|spagnolo|inglês|"
    r"francês|alemão|espanhol)|\bauf\s+(?:englisch|deutsch|französisch|spanisch|italienisch)"
    r"|\bin\s+het\s+(?:engels|nederlands)|翻译|翻譯|用(?:英|中|日|法|德|西班牙|韩)[文语語]|"
    r"(?:英|日本|中国|フランス|ドイツ)語で|(?:영어|한국어|일본어)로",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NonAnswer:
    """Why a deliverable is not an answer; ``refusal`` when it declines the task."""

    reason: str
    refusal: bool = False


def why_not_an_answer(
    *,
    task_type: TaskType,
    request: str,
    turn: str,
    raw: str,
    prose: str,
    has_tool_calls: bool,
    unclosed_fence: bool,
    topic: TopicMeasure | None,
    identify: Callable[[str], tuple[str, float]] | None,
) -> NonAnswer | None:
    """The first reason (module docstring) ``raw`` cannot answer the request, or None.

    Args:
        task_type: The task's type.
        request: The task's first request.
        turn: The user turn the round answers, or ``""``.
        raw: The rendered deliverable (text, then its tool-call lines).
        prose: ``raw`` outside fenced code blocks.
        has_tool_calls: The round made tool calls.
        unclosed_fence: A code fence is opened and never closed.
        topic: The request/deliverable similarity, or None to skip the topic check.
        identify: ``text -> (language, probability)``, or None to skip the language check.
    """
    text = "\n".join(
        line for line in prose.splitlines() if not line.lstrip().startswith("[tool call] ")
    )
    asked = f"{request}\n{turn}"
    if not has_tool_calls and not re.search(r"\w", raw):
        return NonAnswer(f"the deliverable has no word at all ({raw.strip()[:20]!r})")
    if not has_tool_calls:
        refused = nonanswers.refusal(text)
        if refused:
            return NonAnswer(refused, refusal=True)
    found = nonanswers.placeholder(text, asked)
    if found:
        return NonAnswer(found)
    if task_type not in _TEXT_TYPES:
        # An action's text is not its deliverable: an agent scaffold's stop sequence often cuts
        # the closing fence of the command it runs.
        return None
    if not has_tool_calls:
        ends_in_code = raw.rstrip().endswith(("```", "~~~"))
        found = nonanswers.cut_off(text, unclosed_fence=unclosed_fence, ends_in_code=ends_in_code)
        if found:
            return NonAnswer(found)
    plain = _LINK.sub(" ", _INLINE_CODE.sub(" ", text))
    words = word_count(plain)
    if identify is not None and words >= LANGUAGE_MIN_WORDS:
        found = _other_language(turn if word_count(turn) >= 3 else request, plain, identify)
        if found:
            return NonAnswer(found)
    if topic is not None and words >= TOPIC_MIN_WORDS:
        scores = [
            s for s in (topic.similarity(a, plain) for a in (request, turn) if a) if s is not None
        ]
        if scores and max(scores) < topic.threshold:
            return NonAnswer(
                f"the deliverable is about something else: {topic.name} similarity "
                f"{max(scores):.2f} to what was asked (under {topic.threshold:.2f})"
            )
    return None


def _other_language(asked: str, plain: str, identify: Callable[[str], tuple[str, float]]) -> str:
    if not asked.strip() or _NAMES_A_LANGUAGE.search(asked):
        return ""
    wanted, wanted_p = identify(asked)
    if wanted_p < ASKED_LANGUAGE_FROM:
        return ""
    given, given_p = identify(plain)
    if given == wanted or given_p < ANSWER_LANGUAGE_FROM:
        return ""
    return (
        f"the deliverable is in another language than asked: '{given}' ({given_p:.2f}) for a "
        f"request in '{wanted}' ({wanted_p:.2f})"
    )
