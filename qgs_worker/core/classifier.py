"""The rule layer of the task classifier: English and Chinese regular expressions.

A request is matched against a table of named patterns, each pointing at one task type
(DESIGN.md, "Classifier"). The patterns are general: question words and lookup verbs for
``QUERY``, writing verbs and artefact nouns for ``GENERATE``, imperative verbs that change
something for ``ACTION``, and irreversible or dangerous operations for ``CRITICAL``. The
CRITICAL rules live in ``core/irreversible.py`` as classes, a verb class times an object class
with a short gap (deleting or overwriting stored data, by id, by name or all; moving money or
changing who receives it; sending personal or secret data to an address; revoking access;
production changes that cannot be undone), so new phrasings of the same operation match.

How matches are settled (:func:`classify_rules`):

1. any ``CRITICAL`` match wins over every other type; a CRITICAL match only inside a question
   *about* the operation ("How do I delete all rows from a table in SQL?", 如何删除...) gives
   ``QUERY`` (``GENERATE`` when a writing request is beside it, or when the operation is what
   code to be written does: "a script that removes duplicate rows"), and quoted text is a
   mention, not a request;
2. matches of one type only give that type;
3. ``QUERY`` together with one other type gives the other type: a request phrased as a
   question ("Can you deploy ...?") is still a request to act or to write. The exceptions: a
   how-to question ("how do I install ...?"), which asks *about* the action, is unsettled; one
   wh- or yes/no question not put to the agent ("What is the difference between DELETE and
   TRUNCATE?", "Is it safe to delete system32?") gives ``QUERY``;
4. ``ACTION`` together with ``GENERATE`` is unsettled ("write a deployment guide" and "deploy
   what you wrote" both match both); precedence alone should not decide it;
5. no match at all is unsettled.

Unsettled requests go to the fallback (the LLM layer) when one is given; otherwise
:func:`classify` applies a default that is always reviewed (see there).

Measured by ``bench/classifier_accuracy.py`` (rules + default, no LLM layer): the shared
labelled corpus 62/68, CRITICAL 14/15; the held-out set's report half (requests the rules were
not written against, ``bench/data/classification_heldout.jsonl``) 100/138, CRITICAL recall 21/27
(8/27 before the class rules). A request is classified once; ``core/deeds.py`` escalates a task
by what its rounds' tool calls do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from qgs_worker.core.irreversible import IrreversibleReading, read_irreversible
from qgs_worker.core.models import DEFAULT_COMPLEXITY, Classification, TaskType
from qgs_worker.core.rules.lazy_prescan import LazyPrescan
from qgs_worker.errors import InputError

__all__ = ["PRECEDENCE", "classify", "classify_rules"]

PRECEDENCE: tuple[TaskType, ...] = (
    TaskType.CRITICAL,
    TaskType.ACTION,
    TaskType.GENERATE,
    TaskType.QUERY,
)
"""Task types, strongest first (DESIGN.md: CRITICAL wins; the corpus labels use this order)."""

# Confidence of each way of settling (0-1). Rules are trusted more than the default.
_CONFIDENCE_CRITICAL = 0.9
_CONFIDENCE_SINGLE = 0.8
_CONFIDENCE_QUESTION_FRAME = 0.7
_CONFIDENCE_DEFAULT_CONFLICT = 0.4
_CONFIDENCE_DEFAULT_NO_MATCH = 0.2


@dataclass(frozen=True)
class _Rule:
    name: str
    task_type: TaskType
    pattern: re.Pattern[str]


def _rule(name: str, task_type: TaskType, regex: str) -> _Rule:
    return _Rule(name, task_type, re.compile(regex, re.IGNORECASE | re.MULTILINE))


# Where an English imperative verb can stand: start of a sentence or clause, after "and/then",
# after "please", or inside a polite frame ("can you", "I want you to", "help me").
_CLAUSE = (
    r"(?:^|[.!?;:,()\n]\s*|\b(?:and|then|also|please|pls|kindly|now)\s+"
    r"|\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:also\s+)?"
    r"|\b(?:i\s+(?:want|need|would\s+like)|i'd\s+like)\s+(?:you\s+)?to\s+"
    r"|\b(?:wants?|needs?|would\s+like|'d\s+like)\s+to\s+"
    r"|\bhelp\s+(?:me\s+)?(?:to\s+)?|\bgo\s+ahead\s+and\s+)"
)
# The rest of a sentence: a dot inside a token (an address, a file name) does not end it.
_SENTENCE_REST = r"(?:[^.!?\n]|\.(?=\S))*?"
# Up to four words between a verb and its object ("send the remaining 100 dollars").
_GAP = r"(?:[\w'$€£.,-]+\s+){0,4}?"
_QUERY_RULES: tuple[_Rule, ...] = (
    _rule(
        "query.question_word",
        TaskType.QUERY,
        r"(?:^|[.!?\n]\s*)(?:what|what's|whats|when|where|who|whom|whose|which|why|how)\b",
    ),
    _rule(
        "query.how_to",
        TaskType.QUERY,
        r"\bhow\s+(?:do|can|should|would|could|to)\s+(?:i|we|you|one|\w+)?\b|\bwhat\s+is\s+the\s+best\s+way\s+to\b",
    ),
    _rule(
        "query.yes_no_question",
        TaskType.QUERY,
        r"(?:^|[.!?\n]\s*)(?:is|are|was|were|do|does|did|has|have|had|should|is\s+there|are\s+there)\b[^.!?\n]*\?",
    ),
    _rule("query.question_mark", TaskType.QUERY, r"[?？]\s*$"),
    _rule(
        "query.lookup_verb",
        TaskType.QUERY,
        _CLAUSE
        + r"(?:find|search|look\s+up|lookup|look\s+for|check|tell\s+me|show\s+me|show|list|get\s+me"
        r"|give\s+me|fetch|retrieve|calculate|compute|estimate|convert|count|compare|recommend|suggest"
        r"|summari[sz]e|read|identify|determine|explain|describe|predict|forecast|analy[sz]e|verify"
        r"|let\s+me\s+know|figure\s+out|what's|get|visit|browse|go\s+to)\b",
    ),
    _rule(
        "query.want_to_know",
        TaskType.QUERY,
        r"\b(?:i\s+(?:want|would\s+like|need)\s+to\s+know|i'd\s+like\s+to\s+know|i\s+wonder|do\s+you\s+know|any\s+idea)\b",
    ),
    # Chinese: question words and particles, lookup verbs.
    _rule(
        "query.question_zh",
        TaskType.QUERY,
        r"什么|几点|多少|哪(?:里|个|些|儿|家|天)|谁|为什么|怎么样|是否|有没有|是不是|吗\s*[？?]?\s*$|呢\s*[？?]?\s*$|几[个天号月年次]",
    ),
    _rule("query.how_to_zh", TaskType.QUERY, r"如何|怎么|怎样"),
    _rule(
        "query.lookup_zh",
        TaskType.QUERY,
        r"查询|查找|查一下|查看|搜索|搜一下|找(?:到|一下|出|个|一家|家)|告诉我|列出|计算|推荐|估算|比较|解释|总结|概括|检查",
    ),
)

_GENERATE_ARTEFACT = (
    r"(?:article|essay|blog|post|poem|story|report|summary|plan|proposal|outline|script|function"
    r"|class|program|code|app|application|website|web\s?page|document|letter|speech|presentation"
    r"|slides|itinerary|recipe|resume|cv|cover\s+letter|draft|template|unit\s+tests?|spec"
    r"|specification|diagram|tutorial|guide|poster|slogan|description|review|song|lyrics)s?\b"
)

_GENERATE_RULES: tuple[_Rule, ...] = (
    _rule(
        "generate.write_verb",
        TaskType.GENERATE,
        r"\b(?:write|draft|compose|author|rewrite|paraphrase|brainstorm|refactor|implement|translate)\b(?!\s+(?:it\s+|them\s+|this\s+|that\s+)?(?:to|into)\s+(?:a\s+|the\s+)?(?:file|disk|database|db|table)\b)",
    ),
    _rule(
        "generate.make_artefact",
        TaskType.GENERATE,
        r"\b(?:generate|create|produce|prepare|make|build|design|develop|code|come\s+up\s+with|put\s+together)\b\s+"
        + _GAP
        + _GENERATE_ARTEFACT,
    ),
    _rule(
        "generate.write_zh",
        TaskType.GENERATE,
        r"写(?!入|进|到|了|着|的)|撰写|编写|起草|草拟|创作|生成|翻译|润色|改写|制定.{0,6}(?:计划|方案|策略)|设计(?:一个|一套|一份)",
    ),
    _rule(
        "generate.artefact_zh",
        TaskType.GENERATE,
        r"(?:一篇|一份|一首|一段|一个).{0,8}(?:文章|作文|报告|论文|代码|脚本|方案|计划|诗|故事|总结|简历|邮件草稿|教程)",
    ),
)

_ACTION_RULES: tuple[_Rule, ...] = (
    _rule(
        "action.operate",
        TaskType.ACTION,
        r"\b(?:deploy|redeploy|restart|reboot|install|uninstall|reinstall|upgrade|downgrade|execute"
        r"|launch|invite|unsubscribe|reschedule|rename|upload|download|migrate|provision|terminate"
        r"|send|transfer|delete|remove|cancel|reserve|purchase|buy|forward|reply|configure|modify|revoke"
        r"|archive|unarchive|rollback|roll\s+back|sign\s+up|log\s+in|kick|ban|mute|unmute)\b",
    ),
    _rule(
        "action.imperative",
        TaskType.ACTION,
        _CLAUSE
        + r"(?:book|order|post|email|e-mail|message|dm|notify|remind|add(?="
        + _SENTENCE_REST
        + r"\bto\b)|update|change|edit|set(?:\s+up)?|enable|disable|start|stop"
        r"|run|move|copy|mark|assign|share|grant|block|push|merge|commit|save|apply|submit|register"
        r"|schedule|subscribe|publish|open|close|turn\s+(?:on|off)|put|make\s+a\s+reservation"
        r"|kill|scale|join|leave|accept|decline|approve|reject|replace|fix)\b",
    ),
    _rule(
        "action.delegated",
        TaskType.ACTION,
        r"\b(?:do|perform|carry\s+out|complete|handle|execute|follow)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|these\s+|my\s+)?"
        r"(?:\w+\s+)?(?:tasks|actions|steps|instructions|todos|to-dos|items)\b",
    ),
    _rule(
        "action.create_resource",
        TaskType.ACTION,
        r"\b(?:create|add|make|open|set\s+up)\b\s+(?:[\w'-]+\s+){0,6}?(?:file|folder|directory|event|channel|user|account|repo(?:sitory)?|branch|ticket|issue|meeting|reminder|calendar\s+entry|appointment|reservation|booking|vm|instance|container|bucket|database|table)s?\b",
    ),
    _rule(
        "action.shell",
        TaskType.ACTION,
        r"(?:^|[\s`$])(?:sudo|systemctl|kubectl|docker|git\s+(?:push|pull|merge|checkout|reset|rebase)|(?:pip|npm|apt(?:-get)?|brew|yum|dnf)\s+install|rm\s+-?\w*|mv|cp|chmod|chown|mkdir)\s",
    ),
    _rule(
        "action.operate_zh",
        TaskType.ACTION,
        r"部署|重启|启动|停止|关闭|安装|卸载|升级|配置|运行|执行|删除|删掉|移除|移动|重命名|复制|创建|新建"
        r"|发送|发(?:给|一封|一条|个|条|邮件|消息)|邀请|添加|加入|预订|预定|订(?:一|个|张|票|酒店|机票|餐)"
        r"|安排|取消|发布|上传|下载|推送|合并|提交|迁移|回滚|扩容|启用|禁用|授权|撤销|分享|转发|回复|购买|下单"
        r"|修改|更改|更新|设置|编辑|保存|归档|标记|写入|清空|建立|改成|改为|换成|完成.{0,4}(?:任务|待办)",
    ),
)

_RULES: tuple[_Rule, ...] = _QUERY_RULES + _GENERATE_RULES + _ACTION_RULES
# Tried only where a pattern may start, once the table has read enough text (``LazyPrescan``).
_PRESCAN = LazyPrescan([rule.pattern for rule in _RULES], "classifier")
_HOW_TO = frozenset({"query.how_to", "query.how_to_zh"})


_CONFUSABLES = str.maketrans("аеорсухіАЕОРСУХІ", "aeopcyxiAEOPCYXI")
"""Cyrillic letters drawn like Latin ones (``wіre`` with a Cyrillic ``і``), read as Latin."""


def _normalise(request: str) -> str:
    """The request as the patterns read it: what hides a word from them taken out.

    Format characters (Unicode category Cf: soft hyphen, zero-width space and joiners, BOM,
    bidirectional marks) are removed, so ``pro\u00adduction`` and ``w\u200bire`` read as words;
    NFKC folds full-width and compatibility forms (``ｗｉｒｅ``, ``Ｄelete``) into ASCII, and
    Cyrillic look-alikes are read as Latin. Curly quotes become straight ones. Break test of
    issue 13: each of these passed a CRITICAL request as QUERY/SIMPLE.
    """
    if not request.isascii():
        stripped = "".join(c for c in request if unicodedata.category(c) != "Cf")
        request = unicodedata.normalize("NFKC", stripped).translate(_CONFUSABLES)
    return request.replace("\u2019", "'").replace("\u2018", "'").strip()


def _matches(text: str) -> tuple[dict[TaskType, list[str]], IrreversibleReading]:
    # Each pattern sees the text as written and with snake_case identifiers read as words
    # ("passport_number"), so that neither "DELETE FROM user_table;" nor the identifier is missed.
    spaced = text.replace("_", " ")
    found: dict[TaskType, list[str]] = {}
    reading = read_irreversible(text)
    if reading.matched:
        found[TaskType.CRITICAL] = list(reading.matched)
    starts = _PRESCAN.starts(text)
    spaced_starts = _PRESCAN.starts(spaced) if spaced != text else starts
    for rule, at, spaced_at in zip(_RULES, starts, spaced_starts, strict=True):
        if _PRESCAN.search(rule.pattern, text, at) or _PRESCAN.search(
            rule.pattern, spaced, spaced_at
        ):
            found.setdefault(rule.task_type, []).append(rule.name)
    return found, reading


_Source = Literal["rules", "default"]


def _make(
    task_type: TaskType, confidence: float, source: _Source, matched: tuple[str, ...], reason: str
) -> Classification:
    return Classification(
        task_type=task_type,
        complexity=DEFAULT_COMPLEXITY[task_type],
        confidence=confidence,
        source=source,
        matched=matched,
        reason=reason,
    )


def _check(request: str) -> str:
    if not isinstance(request, str) or not request.strip():
        raise InputError(f"'request' must be a non-empty string (got {request!r})")
    return _normalise(request)


def classify_rules(request: str) -> Classification | None:
    """Classify a request by the pattern table alone.

    Args:
        request: The user's request, English or Chinese.

    Returns:
        A classification with ``source="rules"`` and the names of the matched patterns in
        ``matched`` (e.g. ``critical.delete_all``), complexity from ``DEFAULT_COMPLEXITY``;
        or None when the rules cannot settle it: no pattern matched, ``ACTION`` and
        ``GENERATE`` both matched, or a how-to question matched together with an action or
        writing verb (see the module docstring).

    Raises:
        InputError: ``request`` is empty or only whitespace.
    """
    return _settle(request, *_matches(_check(request)))


def _settle(
    request: str, found: dict[TaskType, list[str]], reading: IrreversibleReading
) -> Classification | None:
    """``classify_rules`` on the table's matches (``_matches``), read once by ``classify``."""
    matched = tuple(name for names in found.values() for name in names)
    if TaskType.CRITICAL in found:
        names = ", ".join(found[TaskType.CRITICAL])
        return _make(
            TaskType.CRITICAL,
            _CONFIDENCE_CRITICAL,
            "rules",
            matched,
            f"dangerous or irreversible operation ({names}); CRITICAL wins over other types",
        )
    if reading.asked_about:
        # The operation's verb also matched ACTION; the question is what was asked. A writing
        # request beside it ("... write me the SQL") makes it GENERATE.
        names = ", ".join(reading.asked_about)
        asked = TaskType.GENERATE if TaskType.GENERATE in found else TaskType.QUERY
        return _make(
            asked,
            _CONFIDENCE_QUESTION_FRAME,
            "rules",
            (*matched, *reading.asked_about),
            f"a question about an irreversible operation ({names}), not a request to do it",
        )
    types = set(found)
    if len(types) == 1:
        (only,) = types
        return _make(
            only, _CONFIDENCE_SINGLE, "rules", matched, f"only {only.value} patterns matched"
        )
    if types == {TaskType.QUERY, TaskType.ACTION} and _asks_about(request, found[TaskType.QUERY]):
        return _make(
            TaskType.QUERY,
            _CONFIDENCE_QUESTION_FRAME,
            "rules",
            matched,
            "a question about an action (one wh- or yes/no question, not addressed to the agent)",
        )
    if types == {TaskType.QUERY, TaskType.ACTION} or types == {TaskType.QUERY, TaskType.GENERATE}:
        if _HOW_TO.intersection(found[TaskType.QUERY]):
            return None  # "how do I deploy ...?" asks about the action: let the LLM layer say
        (other,) = types - {TaskType.QUERY}
        return _make(
            other,
            _CONFIDENCE_QUESTION_FRAME,
            "rules",
            matched,
            f"a {other.value} request phrased as a question; {other.value} wins over QUERY",
        )
    return None


_FRAMED_AS_QUESTION = frozenset({"query.question_word", "query.yes_no_question"})
_ADDRESSED = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|u)\b|\bplease\b|\bpls\b|\bfor\s+me\b"
    r"|\bi\s+(?:want|need)\s+you\b|\bmind\s+\w+ing\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?？。！]+(?=\s|$)")


def _asks_about(request: str, query_matches: list[str]) -> bool:
    """Whether the request is one question about an action, not an order to do it.

    One sentence that starts with a question word or an auxiliary and ends with "?", not put
    to the agent as a request ("Can you / please / for me"): "What is the difference between
    DELETE and TRUNCATE?", "Is it safe to delete system32?". "Can you deploy it?" and a
    question beside an order stay ACTION; a how-to question stays unsettled.
    """
    if "query.question_mark" not in query_matches or not _FRAMED_AS_QUESTION.intersection(
        query_matches
    ):
        return False
    if _HOW_TO.intersection(query_matches):
        return False  # "how do I install ...?": unsettled, the LLM layer says (rule 3)
    if _ADDRESSED.search(request):
        return False
    return len([p for p in _SENTENCE_END.split(request.strip()) if p.strip()]) == 1


def classify(
    request: str, fallback: Callable[[str], Classification] | None = None
) -> Classification:
    """Classify a request: rules first, then the fallback, then a default that gets reviewed.

    Args:
        request: The user's request, English or Chinese.
        fallback: The LLM layer, called only when the rules cannot settle the request; its
            answer is returned as it is.

    Returns:
        The rules' classification when they settle it; else the fallback's; else a default
        with ``source="default"``: among conflicting matches the strongest type by
        ``PRECEDENCE`` (CRITICAL > ACTION > GENERATE > QUERY, confidence 0.4), and with no match
        at all ``GENERATE``/``COMPLEX`` (confidence 0.2), so an unknown request is reviewed
        rather than passed silently as ``SIMPLE``.

    Raises:
        InputError: ``request`` is empty or only whitespace.
    """
    found, reading = _matches(_check(request))
    settled = _settle(request, found, reading)
    if settled is not None:
        return settled
    if fallback is not None:
        return fallback(request)
    matched = tuple(name for names in found.values() for name in names)
    if found:
        strongest = next(t for t in PRECEDENCE if t in found)
        kinds = ", ".join(t.value for t in PRECEDENCE if t in found)
        return _make(
            strongest,
            _CONFIDENCE_DEFAULT_CONFLICT,
            "default",
            matched,
            f"conflicting matches ({kinds}) and no LLM layer: precedence gives {strongest.value}",
        )
    return _make(
        TaskType.GENERATE,
        _CONFIDENCE_DEFAULT_NO_MATCH,
        "default",
        (),
        "no pattern matched and no LLM layer: default GENERATE/COMPLEX so the task is reviewed",
    )
