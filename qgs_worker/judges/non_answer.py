"""Whether a deliverable can be an answer to its request at all (the rules judge, issue 32).

:func:`why_not_an_answer` gives the first reason that holds, in this order, or ``""``:

| check | where | from |
| --- | --- | --- |
| no word at all (punctuation, symbols) and no tool call | every task type | here |
| a refusal | every task type (the judge fails it on QUERY / GENERATE only) | ``core.nonanswers.refusal`` |
| placeholder text, a chat model's boilerplate | every task type | ``core.nonanswers.placeholder`` |
| cut off: an unclosed code block, a last sentence left hanging | QUERY / GENERATE, without tool calls | ``core.nonanswers.cut_off`` |
| in another language than asked | QUERY / GENERATE, prose of 10+ words | ``judges.language`` (py3langid) |
| about something else (a hint: ``soft`` unless the measure is decisive) | QUERY / GENERATE, prose of 20+ words, a request of 4+ content words naming no language | ``judges.topic`` |

Cut-off, language and topic are read on QUERY and GENERATE tasks only: an ACTION or CRITICAL
round's deliverable is what it does (an agent scaffold's stop sequence often cuts the closing
fence of the command it runs), and its report in words may be terse or in the tools' language.

The language check compares the instruction of what was asked (the user turn when it has 3+
words, else the request; :func:`instruction_of`: its first paragraph, or first line when that
ends with a colon, so that an article pasted after "Summarise this article:" does not count)
with the deliverable's prose (code blocks, inline code, links and tool calls left out): it
holds when the instruction (3+ words) is identified with a probability of at least
``ASKED_LANGUAGE_FROM`` and the prose's language, a different one, with at least
``ANSWER_LANGUAGE_FROM``, and the request names no language anywhere ("five common French
greetings", "auf Deutsch", "translate", "翻译"...) and quotes no word or phrase ("conjugate
'hablar'"): a request may ask for another language.

The topic check finds prose whose similarity to both the turn and the request is under the
measure's threshold (``judges.topic``). Not read when the request names a language (a
translation shares no word with its source), nor when it has under ``TOPIC_MIN_CONTENT_WORDS``
content words ("tl;dr please": its instruction's for the lexical measure, the whole request's
for an encoder's). The lexical measure is not decisive: its finding is ``soft`` (the rules judge
takes points off, it fails nothing by itself); an encoder's measure (the default where
``qgs[encoder]`` is installed) is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from qgs_worker.core import nonanswers
from qgs_worker.core.models import TaskType
from qgs_worker.judges.request_words import content_words, word_count
from qgs_worker.judges.topic import TopicMeasure

__all__ = [
    "ANSWER_LANGUAGE_FROM",
    "ASKED_LANGUAGE_FROM",
    "NonAnswer",
    "comparable",
    "instruction_of",
    "why_not_an_answer",
]

ASKED_LANGUAGE_FROM = 0.6
"""The request's language counts from this probability (py3langid, normalised)."""
ANSWER_LANGUAGE_FROM = 0.9
"""The deliverable's language counts from this probability."""
LANGUAGE_MIN_WORDS = 10
TOPIC_MIN_WORDS = 20
_TEXT_TYPES = frozenset({TaskType.QUERY, TaskType.GENERATE})

_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"https?://\S+|\]\([^)]*\)")
_LANGUAGE_NAMES = (
    # English names, and the names in French, German, Spanish, Italian, Portuguese, Dutch
    r"english|anglais|englisch|ingl[ée]s|inglese|engels|french|fran[çc]ais|franz[öo]sisch|"
    r"franc[ée]s|francese|franc[êe]s|frans|german|deutsch|allemand|alem[áa]n|tedesco|alem[ãa]o|"
    r"duits|spanish|espagnol|spanisch|espa[ñn]ol|spagnolo|espanhol|spaans|italian|italien|"
    r"italienisch|italiano|portuguese|portugais|portugiesisch|portugu[ée]s|portoghese|"
    r"portugees|dutch|nederlands|n[ée]erlandais|niederl[äa]ndisch|holand[ée]s|olandese|"
    r"flemish|russian|russe|russisch|ruso|russo|русск\w*|chinese|mandarin|cantonese|chinois|"
    r"chinesisch|chino|cinese|chin[êe]s|japanese|japonais|japanisch|japon[ée]s|giapponese|"
    r"korean|cor[ée]en|koreanisch|coreano|arabic|arabe|arabisch|[áa]rabe|hindi|urdu|bengali|"
    r"turkish|swedish|norwegian|danish|finnish|icelandic|ukrainian|greek|hebrew|yiddish|latin|"
    r"latein|lat[íi]n|vietnamese|indonesian|malay|thai|tagalog|filipino|czech|slovak|"
    r"hungarian|romanian|bulgarian|serbian|croatian|persian|farsi|swahili|catalan|basque|"
    r"welsh|irish|esperanto"
)
_NAMES_A_LANGUAGE = re.compile(
    rf"\b(?:{_LANGUAGE_NAMES})\b"
    r"|\b(?:in|into|to)\s+polish\b|\btranslat|\btradu|\b[üu]bersetz|\bvertaal|\bconjugat|"
    r"\bpronounc|\bauf\s+(?:englisch|deutsch|französisch|spanisch|italienisch)"
    r"|翻译|翻譯|(?:英|中|日|法|德|俄|韩|韓|西班牙|葡萄牙|意大利|阿拉伯)(?:文|语|語)|中国語|"
    r"(?:フランス|ドイツ|スペイン|イタリア|韓国|ロシア)語|[영한일중]국?어|일본어|중국어|"
    r"用(?:英|中|日|法|德|西班牙|韩)[文语語]",
    re.IGNORECASE,
)
# A quoted word or phrase (up to 8 words) may be in another language: "What does 'Schadenfreude'
# mean?", "conjugate 'hablar'".
_QUOTED_PHRASE = re.compile(
    r"(?<!\w)['‘\"“«„]([^'‘’\"“”«»„\n]{1,80})['’\"”»“](?!\w)",
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
TOPIC_MIN_CONTENT_WORDS = 4
"""A request with fewer content words than this is too short to compare ("tl;dr please")."""


@dataclass(frozen=True)
class NonAnswer:
    """Why a deliverable is not an answer.

    Attributes:
        reason: The sentence the issue quotes.
        refusal: It declines the task.
        soft: A hint, not a proof: the topic check of a measure that is not ``decisive`` (the
            lexical default). It costs points; it does not fail the round by itself.
    """

    reason: str
    refusal: bool = False
    soft: bool = False


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
        # ``raw`` is the deliverable's text when it has no tool call: the detectors' ``refusal``
        # finding (service/preparing.py) reads the same text through the same function.
        refused = nonanswers.refusal(raw)
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
    if topic is not None and words >= TOPIC_MIN_WORDS and comparable(request, turn, topic):
        scores = [
            s for s in (topic.similarity(a, plain) for a in (request, turn) if a) if s is not None
        ]
        if scores and max(scores) < topic.threshold:
            return NonAnswer(
                f"the deliverable {'is' if topic.decisive else 'may be'} about something else: "
                f"{topic.name} similarity "
                f"{max(scores):.2f} to what was asked (under {topic.threshold:.2f})",
                soft=not topic.decisive,
            )
    return None


def instruction_of(asked: str) -> str:
    r"""The instruction of a request, without the text pasted after it.

    "Summarise this article:\n\n<article>" -> "Summarise this article:". The first paragraph
    (up to a blank line); of a paragraph whose first line ends with a colon, that line.

    Args:
        asked: A request or user turn.

    Returns:
        The instruction, stripped; ``asked`` stripped when it has no pasted part.
    """
    first = _PARAGRAPH_BREAK.split(asked.strip(), maxsplit=1)[0]
    line = first.split("\n", 1)[0].rstrip()
    return line if line.endswith((":", "：")) else first.strip()


def _names_a_language(asked: str) -> bool:
    """Whether ``asked`` names a language, asks to translate, or quotes a word or phrase."""
    if _NAMES_A_LANGUAGE.search(asked):
        return True
    return any(
        0 < word_count(m.group(1)) <= 8 for m in _QUOTED_PHRASE.finditer(instruction_of(asked))
    )


def comparable(request: str, turn: str, topic: TopicMeasure) -> bool:
    """Whether what was asked can be compared with the answer (the topic check).

    Not when it names a language (a translation shares no word with its source), nor when it
    has under ``TOPIC_MIN_CONTENT_WORDS`` content words ("tl;dr please", "continue": what they
    refer to is not in them): in its instruction for a measure that is not decisive (words, not
    meaning), in the whole of it, pasted text included, for a decisive one (an encoder's).
    """
    asked = [a for a in (request, turn) if a.strip()]
    if any(_names_a_language(a) for a in asked):
        return False
    # An encoder reads a pasted text as part of the request; letters only the instruction's.
    return any(
        len(content_words(a if topic.decisive else instruction_of(a))) >= TOPIC_MIN_CONTENT_WORDS
        for a in asked
    )


def _other_language(asked: str, plain: str, identify: Callable[[str], tuple[str, float]]) -> str:
    if not asked.strip() or _names_a_language(asked):
        return ""
    asked = instruction_of(asked)
    if word_count(asked) < 3:
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
