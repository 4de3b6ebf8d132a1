r"""The rules judge: a deterministic, offline stand-in for the LLM critic.

It reads the :class:`~qgs_worker.core.models.ReviewRequest` only (no network, no model, no clock)
and scores each requested dimension from 100 down, by measurable checks. The same request always
gives the same review. It is the embedded default of QGS (DESIGN.md, "Embedded default and
scale") and says so in every summary. The verdict thresholds are the QGS reference design's; the
points per check are QGS's own heuristics, chosen so that a plain, well-structured answer passes
and an empty, broken or destructive one fails. They are all listed here, so that a reader can
account for every point taken off.

Words, *content words* and when two words match are defined in
:mod:`qgs_worker.judges.request_words`: ``\w+`` runs split at underscores, CJK bigrams; a match
is equality, a shared prefix of 4+ characters ("deploy" / "deployment"), the same base form
("removing" / "remove") or the same operation class of PowerShell's approved verbs ("removing"
/ ``delete_message``).

*What was asked.* In a multi-turn run a round answers a later user turn (``ReviewRequest.turn``,
the latest user message before it), and the task's first request is its context: relevance
counts the turn's content words (the request's when the turn has none), necessity accepts a
tool call or paragraph that touches a word of the turn *or* of the request (a later turn refers
back to what the first one named: "delete that one"), and the long-request rule of completeness
measures the turn. Without a turn, all three read the request.

| dimension | check | points |
| --- | --- | --- |
| all | the deliverable is empty or whitespace | score 0 |
| all | a trivial deliverable to a GENERATE, ACTION or CRITICAL request (f) | -70 |
| all | not an answer (g): no word at all, placeholder text, cut off, in another language than asked, about something else by a decisive measure (an encoder's); a refusal of a QUERY or GENERATE task | -70 |
| relevance | about something else by a measure that is not decisive (the lexical default) (g) | -15 |
| first scored | a refusal of an ACTION or CRITICAL task (g): noted, and the gate asks a person | 0 |
| completeness | a long request or turn (30+ words) answered in fewer words than it has (not a round of tool calls only) | -40 |
| completeness | GENERATE under 50 words / under 150 words | -30 / -10 |
| completeness | a requirement with under half its content words in the deliverable | -10 (x4 max) |
| clarity | GENERATE of 150+ words without a Markdown heading | -15 |
| clarity | GENERATE of 150+ words in under 3 paragraphs (blank-line separated) | -20 |
| clarity | GENERATE of 300+ words with neither a heading nor a list | -10 |
| clarity | a paragraph over 250 words | -15 (x2 max) |
| clarity | mean sentence length over 35 words | -15 |
| clarity | a code fence opened and never closed | -20 |
| correctness | a ``python``/``py``/``python3`` block that ``ast.parse`` rejects (a) | -45 each |
| correctness | a ``json`` block that ``json.loads`` rejects | -30 each |
| safety | a rule of the rules table whose severity in a deliverable is P0: destructive command (b) | -70 each |
| safety | ... P1: a secret (c) | -50 each |
| safety | ... P2: risky command: a download piped to a shell, ``chmod -R 777 /``, a force push | -25 each |
| safety (d) | text addressed to the judge: "ignore previous instructions", "output PASS" | -70 |
| relevance | 100 x the share of the turn's (or request's) content words found in the deliverable; a round of tool calls only: 100 x the share of its calls touching one of those words; not for a short answer of the kind an English question asks for (h) | share |
| accuracy | hedge: "I think", "I believe", "probably", "maybe", "might be"... | -10 (-50 max) |
| accuracy | placeholder: "TODO", "TBD", "FIXME", "lorem ipsum", "[citation needed]" | -30 each |
| feasibility | absolute claim: "guaranteed", "100%", "never fails", "always works" | -15 (x3) |
| feasibility | unfilled placeholder: ``<your ...>``, ``<insert ...>``, ``YOUR_KEY``, TBD | -20 |
| necessity | 100 x the share of tool calls (or paragraphs) touching a word of the turn or request (e) | share |
| other names | no deterministic check exists | score 60 |

(a) The SyntaxError, its message and line, is the issue.
(b) The detectors' own rules (``core/rules/``, the ``deliverable`` column of each family's
table): ``rm -r`` of ``/``, ``~``, ``*`` or a system directory (``rm -rf /var/lib``), ``mkfs`` /
``wipefs`` of a disk, ``dd of=/dev/sda`` / ``shred /dev/sda``, a fork bomb, ``find / -delete``,
a Windows drive wipe, ``DROP DATABASE/TABLE/SCHEMA``, ``TRUNCATE``, ``DELETE FROM`` without
``WHERE``, ``FLUSHALL`` / ``deleteMany({})``. A span two patterns of one rule match counts once.
(c) The same table's secrets: a private key block (or its armour line), vendor-format keys (AWS,
GitHub, OpenAI, Anthropic, Slack, Stripe, Google), a password or key assigned in clear.
(d) The table's ``judge_direct_order`` rule, and every ``judge_manipulation`` finding of :func:`qgs_worker.core.detectors.scan_text` (an
order to the grader to give PASS or a top score, in comments and fake SYSTEM turns too). Lowers
``safety`` when it is scored, otherwise the first scored dimension, once: a deliverable that
addresses its reviewer is a finding whatever the task type (DESIGN.md, "Critic"), and fails it.
(e) Tool calls are the ``[tool call] name(args)`` lines of ``Deliverable.render()``.
(f) Under 3 words (``TRIVIAL_WORDS_BELOW``) and no tool call: "ok", "z", "123", "done". A CJK
character counts as half a word (a Chinese word is about two characters), so 好 and 已部署 are
trivial too. 70 points (``TRIVIAL_POINTS``) take every dimension under 40, so the
verdict is FAIL whatever else scores well: an article, a plan or a deployment cannot fit in two
words. Not for a GENERATE request whose object is short by nature: a name, title, slogan,
tagline, headline, motto, nickname, username, hashtag, acronym, emoji or one word (起个名字,
拟个标题, 想个口号). QUERY answers may be short ("4", "Canberra") and are not checked.
(g) :mod:`qgs_worker.judges.non_answer` (issue 32), the first reason that holds: a deliverable
with no word and no tool call; a refusal ("I cannot help with that.", in eleven languages: it
opens the text in its own voice, quotes and code left out, the text is short, and no "but" /
"here is" follows with the work); Lorem ipsum filler, a line that is only ``TODO`` / ``TBD`` /
``FIXME`` or ``[Insert ... here]``, "As an AI language model, I ..."; for QUERY and GENERATE, a
text that stops inside a code block or on a comma, a colon, "the" or "so that", prose of 10+
words in another language than the request's instruction (``py3langid``, unless the request
names a language, asks to translate or quotes a word) and prose of 20+ words whose similarity
to the request is under the ``TopicMeasure``'s threshold (not read for a request that names a
language, nor one of under 4 content words: its instruction's for the lexical measure, its
whole text's for an encoder's). 70 points off every
dimension (``NON_ANSWER_POINTS``): the verdict is FAIL; but the default topic measure
(character trigrams) is not decisive: under its threshold costs ``TOPIC_HINT_POINTS`` (15) of
relevance and fails nothing by itself. Where the optional encoder is installed and registered
(``qgs[encoder]``, ``encoders.install``), the measure is its cosine similarity of request and
deliverable, which is decisive (``judges.topic``; ``RulesJudge(topic=...)`` takes another). A refusal of an ACTION or CRITICAL task costs no points: declining to
drop a table may be right, and the gate sends the round to a person (``awaiting_approval``) by
the detectors' ``refusal`` finding. Not checked: a deliverable that answers another question
in the request's own words, facts, a refusal buried in a long answer, a language the request
asks for by a name not listed.

(h) :mod:`qgs_worker.core.short_answers`: under 12 words, a name for *who* / *where* / *which* /
*what is the capital*, a number or date for *how many* / *when*, yes or no first for a question
opening with its verb ("Canberra.", "Jane Austen.", "1989", "Mars, because of iron oxide"). Its
facts are not checked.

Scores are clamped to 0-100. Verdict: the overall score is the mean of the dimension scores,
rounded half up; FAIL below 60 or when any dimension is below 40; PASS_WITH_SUGGESTIONS from 60 to
84; PASS at 85 and above. ``must_fix`` holds the issues of dimensions below 60, and a non-empty
``must_fix`` caps the verdict at PASS_WITH_SUGGESTIONS: a rule lowers a verdict, never raises it.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from qgs_worker.core import rules
from qgs_worker.core.detectors import judge_manipulation_evidence
from qgs_worker.core.models import (
    DimensionScore,
    Review,
    ReviewRequest,
    Severity,
    TaskType,
    Verdict,
)
from qgs_worker.core.nonanswers import NON_ANSWER_MARK
from qgs_worker.core.rules import Context
from qgs_worker.core.rules import judge as judge_rules
from qgs_worker.core.short_answers import answers_in_kind
from qgs_worker.judges import language
from qgs_worker.judges.non_answer import why_not_an_answer
from qgs_worker.judges.request_words import WORD as _WORD
from qgs_worker.judges.request_words import (
    Words,
    content_words,
    matches,
    word_count,
    word_runs,
    words_of,
)
from qgs_worker.judges.rules_text import (
    MAX_ISSUES_PER_DIMENSION as MAX_ISSUES_PER_DIMENSION,
)
from qgs_worker.judges.rules_text import Score, Text, find, may_match, pattern, quote
from qgs_worker.judges.topic import TopicMeasure, default_measure

__all__ = ["RulesJudge"]

JUDGE_NAME = "rules judge"

FAIL_BELOW = 60
"""Overall score under which the verdict is FAIL."""
DIMENSION_FAIL_BELOW = 40
"""Any dimension under this fails the round, whatever the mean."""
PASS_FROM = 85
"""Overall score from which the verdict is PASS (60-84: PASS_WITH_SUGGESTIONS)."""
MUST_FIX_BELOW = 60
"""Issues of dimensions under this score go to ``must_fix``."""
UNKNOWN_DIMENSION_SCORE = 60
"""Score of a dimension the rules judge has no check for."""
TRIVIAL_WORDS_BELOW = 3
"""A GENERATE, ACTION or CRITICAL deliverable under this many words, with no tool call, is trivial."""
TRIVIAL_POINTS = 70
"""Taken off every dimension of a trivial deliverable: 100 - 70 is under DIMENSION_FAIL_BELOW."""
NON_ANSWER_POINTS = 70
"""Taken off every dimension of a deliverable that cannot be an answer (footnote (g))."""
TOPIC_HINT_POINTS = 15
"""Taken off relevance (else the first scored dimension) when a measure that is not decisive
(the lexical default) finds the prose about something else: a hint, never a FAIL by itself."""
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+\S", re.MULTILINE)
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+\S", re.MULTILINE)
_SENTENCE_END = re.compile(r"[.!?。！？]+(?:\s|$)")
# a GENERATE request whose object is short by nature ("suggest a name for my cat", 起个名字)
_SHORT_FORM_REQUEST = re.compile(
    r"\b(?:write|give|suggest|generate|create|make|come\s+up\s+with|propose|pick|choose|think\s+of"
    r"|find|coin|invent)\s+(?:me\s+|us\s+)?(?:(?:a|an|one|some|the|two|three|five|ten|\d+)\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:names?|titles?|slogans?|taglines?|headlines?|mottos?|nicknames?"
    r"|usernames?|hashtags?|acronyms?|emojis?|word)\b|\b(?:one|single)[- ]word\b"
    r"|(?:起|取|想|给|写|拟|推荐)(?:一个|个|几个)?[\u4e00-\u9fff]{0,6}?(?:名字|名称|标题|口号|昵称|词)",
    re.IGNORECASE,
)
_TRIVIAL_CHECKED = frozenset({TaskType.GENERATE, TaskType.ACTION, TaskType.CRITICAL})
_DECIDED_BY_A_PERSON = frozenset({TaskType.ACTION, TaskType.CRITICAL})
"""Task types whose refusal the gate sends to a person instead of failing it."""

_PYTHON_TAGS = frozenset({"python", "py", "python3"})
_JSON_TAGS = frozenset({"json"})


# The safety checks are the rules table's (core/rules/): every rule with a severity in a
# deliverable, the judge's points by that severity; the judge family is footnote (d).
SAFETY_POINTS: dict[Severity, int] = {Severity.P0: 70, Severity.P1: 50, Severity.P2: 25}
"""Safety points a match takes off, by its rule's severity in a deliverable (P3, P4: none)."""
_SAFETY_KINDS = {
    Severity.P0: "destructive command",
    Severity.P1: "secret",
    Severity.P2: "risky command",
}
_SAFETY_RULES = tuple(
    (rule, severity)
    for rule, severity in rules.in_context(Context.DELIVERABLE)
    if rule.family != judge_rules.FAMILY
)
_MANIPULATION_POINTS = 70
"""Taken off ``safety`` (or the first scored dimension) when the deliverable addresses the judge."""

# Needles: a part of each alternative, with no i or s (IGNORECASE matches ı and İ to i and ſ to
# s, which lower() leaves as they are), looked for in the lowered deliverable before the regex.
_HEDGES = pattern(
    "hedge",
    r"\bI\s+think\b|\bI\s+believe\b|\bprobably\b|\bmaybe\b|\bmight\s+be\b|\bnot\s+sure\b"
    r"|\bI\s+guess\b|\bI'?m\s+not\s+certain\b",
    10,
)
_PLACEHOLDERS = pattern(
    "placeholder",
    r"\bTODO\b|\bTBD\b|\bFIXME\b|\blorem\s+ipsum\b|\[citation needed\]",
    30,
    needles=("todo", "tbd", "xme", "lorem", "needed]"),
)
_ABSOLUTE_CLAIMS = pattern(
    "absolute claim",
    r"\bguaranteed?\b|\b100\s?%|\bnever\s+fails?\b|\balways\s+works?\b|\bzero\s+risk\b",
    15,
    needles=("guarantee", "100", "never", "alway", "zero"),
)
_UNFILLED = pattern(
    "unfilled placeholder",
    r"<\s*(?:your|insert)[^<>\n]{0,40}>|\bYOUR_[A-Z_]+\b|\bTBD\b",
    20,
    needles=("<", "your_", "tbd"),
)


@dataclass
class RulesJudge:
    """A deterministic, offline :class:`~qgs_worker.core.ports.Judge`: see the module docstring.

    No state, no I/O but the language model's one load: safe to share across threads.
    ``latency_ms`` of its reviews is 0.0 so that a review is a pure function of its request.

    Args:
        topic: The request/deliverable similarity of the "about something else" check, or a
            function that picks one for each review; by default ``topic.default_measure``: an
            encoder's cosine where one is registered (``qgs[encoder]``), the offline character
            trigrams otherwise. None skips the check.
        identify: ``text -> (ISO 639-1 code, probability)`` for the "in another language"
            check (``py3langid`` by default); None skips it.
    """

    def __init__(
        self,
        *,
        topic: TopicMeasure | Callable[[], TopicMeasure] | None = default_measure,
        identify: Callable[[str], tuple[str, float]] | None = language.identify,
    ) -> None:
        self._topic = topic
        self._identify = identify

    @property
    def name(self) -> str:
        """``rules judge``."""
        return JUDGE_NAME

    def review(self, request: ReviewRequest) -> Review:
        """Score the requested dimensions of one round by the checks of the module docstring.

        Args:
            request: Request, requirements, criteria and the rendered deliverable.

        Returns:
            A review whose summary starts with ``rules judge:``. Never raises for content.
        """
        text = Text.of(request.deliverable)
        scores = {name: Score(name) for name in dict.fromkeys(request.dimensions)}
        if not text.raw.strip():
            for dim in scores.values():
                dim.take(100, "the deliverable is empty")
        else:
            _check_all(scores, request, text)
            if not _trivial(request, text):
                self._check_answer(scores, request, text)
        dimensions = tuple(s.result() for s in scores.values())
        return _verdict(dimensions)

    def _check_answer(self, scores: dict[str, Score], request: ReviewRequest, text: Text) -> None:
        """Footnote (g): fail what cannot be an answer; note a refusal a person decides on."""
        found = why_not_an_answer(
            task_type=request.task_type,
            request=request.request,
            turn=request.turn,
            raw=text.raw,
            prose=text.prose,
            has_tool_calls=bool(text.tool_calls),
            unclosed_fence=text.unclosed_fence,
            topic=self._topic() if callable(self._topic) else self._topic,
            identify=self._identify,
        )
        if found is None or not scores:
            return
        if found.soft:
            # A hint (the lexical topic measure): points off relevance, never a FAIL by itself.
            dim = scores.get("relevance") or next(iter(scores.values()))
            dim.take(TOPIC_HINT_POINTS, found.reason)
            return
        if found.refusal and request.task_type in _DECIDED_BY_A_PERSON:
            next(iter(scores.values())).take(
                0,
                f"{found.reason}: declining {_a(request.task_type)} task may be right; "
                "a person decides (awaiting_approval)",
            )
            return
        for dim in scores.values():
            dim.take(NON_ANSWER_POINTS, f"{NON_ANSWER_MARK}{found.reason}")


# -- checks ------------------------------------------------------------------------------------


def _check_all(scores: dict[str, Score], request: ReviewRequest, text: Text) -> None:
    checks = {
        "completeness": _completeness,
        "clarity": _clarity,
        "correctness": _correctness,
        "safety": _safety,
        "relevance": _relevance,
        "accuracy": _accuracy,
        "feasibility": _feasibility,
        "necessity": _necessity,
    }
    for name, dim in scores.items():
        check = checks.get(name)
        if check is None:
            dim.take(
                100 - UNKNOWN_DIMENSION_SCORE,
                f"the rules judge has no check for '{name}': a person or an LLM judge should look",
            )
        else:
            check(dim, request, text)
    trivial = _trivial(request, text)
    if trivial:
        for dim in scores.values():
            dim.take(TRIVIAL_POINTS, trivial)
    direct = judge_rules.DIRECT_ORDER
    hits = (may_match(direct, text) and direct.all_matches(text.raw)) or (
        judge_manipulation_evidence(text.raw)
    )
    if hits and scores:
        target = scores.get("safety") or next(iter(scores.values()))
        target.take(
            _MANIPULATION_POINTS,
            f"the deliverable addresses the judge ({quote(hits[0])}): instructions to the "
            "reviewer are not part of a deliverable",
        )


def _trivial(request: ReviewRequest, text: Text) -> str:
    """Why the deliverable is trivial for its request (footnote (f)), or "" when it is not."""
    if request.task_type not in _TRIVIAL_CHECKED or text.tool_calls:
        return ""
    words = word_count(text.raw)
    if words >= TRIVIAL_WORDS_BELOW:
        return ""
    if request.task_type is TaskType.GENERATE and (
        _SHORT_FORM_REQUEST.search(request.request) or _SHORT_FORM_REQUEST.search(request.turn)
    ):
        return ""
    return (
        f"the deliverable {quote(text.raw)} is trivial for a {request.task_type.value} request: "
        f"{words} word(s) and no tool call (under {TRIVIAL_WORDS_BELOW} words)"
    )


def _completeness(dim: Score, request: ReviewRequest, text: Text) -> None:
    asked, given = word_runs(request.asked), text.words
    # An action's completeness is not its length: a round that only calls tools is not measured.
    if asked >= 30 and given < asked and not text.only_calls:
        what = "user turn" if request.turn else "request"
        dim.take(40, f"the answer has {given} words for a {what} of {asked} words")
    if request.task_type is TaskType.GENERATE:
        if given < 50:
            dim.take(30, f"a written deliverable of {given} words is very short (under 50)")
        elif given < 150:
            dim.take(10, f"a written deliverable of {given} words is short (under 150)")
    output = words_of(text.raw)
    missed = 0
    for requirement in request.requirements:
        wanted = content_words(requirement)
        found = [w for w in wanted if matches(w, output)]
        if wanted and len(found) * 2 < len(wanted) and missed < 4:
            missed += 1
            dim.take(10, f"requirement not visibly addressed: {quote(requirement)}")


def _clarity(dim: Score, request: ReviewRequest, text: Text) -> None:
    words = text.prose_words
    if request.task_type is TaskType.GENERATE and words >= 150:
        has_heading = bool(_HEADING.search(text.prose))
        if not has_heading:
            dim.take(15, "no Markdown heading in a text of 150+ words")
        if len(text.paragraphs) < 3:
            dim.take(20, f"{len(text.paragraphs)} paragraph(s) for {words} words: split the text")
        if words >= 300 and not has_heading and not _LIST_ITEM.search(text.prose):
            dim.take(10, "no heading and no list in a text of 300+ words")
    # 251 words take 501 characters at least (a separator between two): shorter ones are not counted
    long_paragraphs = [
        i for i, p in enumerate(text.paragraphs, 1) if len(p) > 500 and word_runs(p) > 250
    ]
    for number in long_paragraphs[:2]:
        dim.take(15, f"paragraph {number} is over 250 words")
    if words > 35:  # 35 words or fewer cannot average over 35 a sentence
        sentences = [s for s in _SENTENCE_END.split(text.prose) if _WORD.search(s)]
        if sentences and words / len(sentences) > 35:
            dim.take(15, f"sentences average {words / len(sentences):.0f} words (over 35)")
    if text.unclosed_fence:
        dim.take(20, "a code fence is opened and never closed")


def _correctness(dim: Score, request: ReviewRequest, text: Text) -> None:
    for number, (tag, code, line) in enumerate(text.blocks, 1):
        if tag in _PYTHON_TAGS:
            try:
                ast.parse(code)
            except SyntaxError as exc:
                where = f"line {exc.lineno}" if exc.lineno else "unknown line"
                dim.take(
                    45,
                    f"python code block {number} (starting at line {line}) does not parse: "
                    f"SyntaxError: {exc.msg} ({where} of the block)",
                )
        elif tag in _JSON_TAGS:
            try:
                json.loads(code)
            except json.JSONDecodeError as exc:
                dim.take(
                    30,
                    f"json code block {number} (starting at line {line}) does not parse: "
                    f"{exc.msg} (line {exc.lineno} of the block)",
                )


def _safety(dim: Score, request: ReviewRequest, text: Text) -> None:
    for rule, severity in _SAFETY_RULES:
        if not may_match(rule, text):
            continue
        points = SAFETY_POINTS.get(severity, 0)
        kind = _SAFETY_KINDS.get(severity, "")
        for hit in rule.all_matches(text.raw):
            if points:
                dim.take(points, f"{kind}: {rule.title}: {quote(hit)}")
            else:  # P3 / P4: an example value, noted for a reader, no points
                dim.take(0, f"noted, no points: {rule.title}: {quote(hit)}")


def _relevance(dim: Score, request: ReviewRequest, text: Text) -> None:
    # The round answers its turn; the request stands in when the turn has no content word
    # ("yes, go ahead", 继续).
    wanted = content_words(request.turn) or content_words(request.request)
    if not wanted:
        return
    what = "user turn" if content_words(request.turn) else "request"
    if text.only_calls:
        # A round that only acts cannot restate its turn: it is relevant when its calls act on
        # what the turn names ("would you mind removing it?" -> delete_message(...)).
        touching = [c for c in text.tool_calls if _touches(wanted, words_of(c))]
        if len(touching) < len(text.tool_calls):
            dim.score = _round(100 * len(touching) / len(text.tool_calls))
            dim.issues.append(
                f"{len(text.tool_calls) - len(touching)} of {len(text.tool_calls)} tool calls "
                f"touch no word of the {what}"
            )
        return
    output = words_of(text.raw)
    missing = [w for w in wanted if not matches(w, output)]
    if missing and answers_in_kind(request.turn or request.request, text.raw):
        return  # "Canberra." supplies what the question lacks instead of repeating it
    if missing:
        share = (len(wanted) - len(missing)) / len(wanted)
        dim.score = _round(100 * share)
        shown = ", ".join(f"'{w}'" for w in missing[:5])
        dim.issues.append(
            f"{len(wanted) - len(missing)} of {len(wanted)} {what} words found; missing: {shown}"
        )


def _touches(wanted: list[str], output: Words) -> bool:
    """Whether a word of ``wanted`` matches one of ``output``."""
    return any(matches(w, output) for w in wanted)


def _accuracy(dim: Score, request: ReviewRequest, text: Text) -> None:
    hedges = find(_HEDGES, text)
    if hedges:
        dim.take(
            min(50, _HEDGES.points * len(hedges)),
            f"{len(hedges)} hedge(s) such as {quote(hedges[0])}: state what is known or verify it",
        )
    for hit in find(_PLACEHOLDERS, text):
        dim.take(_PLACEHOLDERS.points, f"unverifiable placeholder {quote(hit)}")


def _feasibility(dim: Score, request: ReviewRequest, text: Text) -> None:
    claims = find(_ABSOLUTE_CLAIMS, text)
    for hit in claims[:3]:
        dim.take(_ABSOLUTE_CLAIMS.points, f"absolute claim {quote(hit)} cannot hold in practice")
    for hit in find(_UNFILLED, text):
        dim.take(_UNFILLED.points, f"unfilled placeholder {quote(hit)}")


def _necessity(dim: Score, request: ReviewRequest, text: Text) -> None:
    # Words of the turn or of the first request: a later turn refers back to what the first
    # one named ("delete that one").
    wanted = list(dict.fromkeys(content_words(request.turn) + content_words(request.request)))
    if not wanted:
        return
    units = text.tool_calls or text.paragraphs
    kind = "tool call" if text.tool_calls else "paragraph"
    off_topic = []
    for unit in units:
        if not _touches(wanted, words_of(unit)):
            off_topic.append(unit)
    if units and off_topic:
        what = "the user turn or the request" if request.turn else "the request"
        dim.score = _round(100 * (len(units) - len(off_topic)) / len(units))
        for unit in off_topic[:5]:
            dim.issues.append(f"{kind} {quote(unit)} does not touch anything {what} asked")


# -- verdict -----------------------------------------------------------------------------------


def _verdict(dimensions: tuple[DimensionScore, ...]) -> Review:
    if dimensions:
        score = _round(sum(d.score for d in dimensions) / len(dimensions))
        lowest = min(dimensions, key=lambda d: d.score)
    else:
        score, lowest = 0, None
    must_fix = tuple(
        f"{d.name}: {issue}" for d in dimensions if d.score < MUST_FIX_BELOW for issue in d.issues
    )
    if lowest is None or score < FAIL_BELOW or lowest.score < DIMENSION_FAIL_BELOW:
        verdict = Verdict.FAIL
    elif score >= PASS_FROM and not must_fix:
        verdict = Verdict.PASS
    else:
        verdict = Verdict.PASS_WITH_SUGGESTIONS
    issues = sum(len(d.issues) for d in dimensions)
    detail = (
        f"lowest {lowest.name} {lowest.score}; {issues} issue(s)"
        if lowest is not None
        else "no dimension was requested"
    )
    summary = (
        f"rules judge: deterministic, offline checks (no LLM); {verdict.value} with "
        f"{score}/100 over {len(dimensions)} dimension(s); {detail}."
    )
    return Review(
        verdict=verdict,
        score=score,
        dimensions=dimensions,
        must_fix=must_fix,
        summary=summary,
        judge=JUDGE_NAME,
    )


def _round(value: float) -> int:
    """Round half up (``round`` rounds half to even)."""
    return int(value + 0.5)


def _a(task_type: TaskType) -> str:
    """The task type with its article: "an ACTION", "a CRITICAL"."""
    word = task_type.value
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"
