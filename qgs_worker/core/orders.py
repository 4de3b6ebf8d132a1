"""Orders in data: sentences of a tool output, file or page that tell their reader to act.

Untrusted content (tool outputs, files and pages read, e-mails) holds two kinds of order:

- **addressed** orders, meant for the agent whatever their wording: a sentence that names the
  agent as its addressee ("AI agents must...", "Note to the assistant:", "if you are an LLM,
  ..."), one behind an instruction marker (``TODO:``, ``IMPORTANT:``, ``INSTRUCTIONS:``,
  ``SYSTEM:``, ``ACTION REQUIRED:``), one that puts itself before the reader's task ("before
  you answer / change this file / continue, run ..."), or one that overrides ("ignore the
  above", "instead", "from now on");
- **plain** orders: an imperative sentence (it starts with a verb of ``order_words``, maybe
  after "please", "make sure to", "you must"...), as e-mails, tickets and READMEs are full of.

Neither is a finding by itself: what counts is an order *carried out* (``order_flow``). An
addressed order can be carried out by any act it names; a plain one only by a distinctive value
or a sensitive act (``acts``), since data is full of harmless imperatives. The markers and
addressees are the forms of indirect prompt injection catalogued by OWASP LLM01:2025 and
Greshake et al. ("Not what you've signed up for", 2023), and ordinary English imperative
grammar; Chinese orders are read by their modal and verb (请, 务必, 你必须 + verb).

Pure: stdlib and the core only.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from qgs_worker.core.acts import text_marks
from qgs_worker.core.order_words import (
    FOREIGN_ADDRESSEE,
    FOREIGN_POLITE,
    foreign_classes,
    imperative_classes,
    objects_of_words,
    verb_classes,
    words_of,
)

__all__ = ["Order", "find_orders", "inserted_orders"]


@dataclass(frozen=True, slots=True)
class Order:
    """One order found in a text.

    Attributes:
        text: The order, from its verb (or marker) to its sentence's end.
        addressed: Meant for the agent (the module's first kind), not plain data.
        classes: The action classes of its verbs (``order_words.CLASS_VERBS``).
        objects: The object groups it names (``order_words.OBJECT_GROUPS``).
        marks: The acts it names (``acts.text_marks``).
        say: It tells the reader what to say (recommend, mention, "tell the user that").
        named: It names the agent as its addressee ("AI agents:", "@assistant", "Asistente:"),
            not only a marker (``TODO:``) or an override.
    """

    text: str
    addressed: bool
    classes: frozenset[str]
    objects: frozenset[str]
    marks: frozenset[str]
    say: bool
    named: bool = False


_MAX_ORDERS = 64  # per text: a long document's orders past this are not read
_MAX_SENTENCE_CHARS = 600
_CARRY_SENTENCES = 2  # an override sentence makes the next two sentences' orders addressed
_SPLIT = re.compile(r"(?<=[.!?。！？])[\"')\]]*\s+|(?<=[a-z][.!?])(?=[A-Z])|(?<=\S)(?=(?:TODO|FIXME|IMPORTANT|INSTRUCTIONS?)\s*:)|\n|\\n|[ \t]{2,}#+[ \t]+|[ \t]//[ \t]+|(?<=[\"'])\s*[,}\]]\s*|[{\[]\s*(?=\")|\t")
_PUNCTUATION = re.compile(r"^(?:[\s>*#/•·\-–—|\[\]{}(),\"']+|<!--\s*|\d{1,2}[.)]\s+|\d+(?:→|\t))+")
_KEY = re.compile(
    r"^(?:step\s+\d+|[a-z_][\w-]{0,30})\s*:\s+(?=[\"'`A-Za-z])|^\"?[\w-]{1,30}\"\s*:\s*\"?",
    re.IGNORECASE,
)
# a hard-wrapped line (a README's, a comment's, an e-mail's) goes on lowercase on the next line,
# maybe behind the same comment marker; a serialized field (``key: value``) does not
_WRAPPED = re.compile(
    r"(?<![.!?:;,{}\[\]\"'>])[ \t]*\n[ \t]*(?:(?:#|//|--|\*|;)[ \t]*)?(?=[a-z`$(]|[A-Z_]{3,}\b)"
    r"(?![\w-]+:[ \t])"
)
_MODAL = re.compile(
    r"\b(?:(?:whoever|anyone|anybody)\b[^.,;]{0,60}?|you|we|agents?|assistants?)\s+(?:must|should|need\s+to|have\s+to|are\s+(?:required|expected)\s+to"
    r"|will\s+need\s+to)\s+(?:first\s+|also\s+|now\s+|always\s+)?",
    re.IGNORECASE,
)
# polite and indirect requests, anywhere in a sentence: "would you mind forwarding", "it would be
# great if you could send", "we'd appreciate it if the assistant could", "your next task is to"
_REQUEST = re.compile(
    r"\b(?:(?:would|could|can|will)\s+(?:you|the\s+(?:assistant|agent|AI|model|bot))\s+(?:please\s+)?"
    r"(?:kindly\s+)?(?:also\s+)?(?:mind\s+)?"
    r"|(?:it\s+would\s+be|it'?d\s+be)\s+(?:great|nice|helpful|appreciated|good|ideal|best)\s+(?:if|to)\s+"
    r"(?:you|the\s+\w+)?\s*(?:could|would|can)?\s*"
    r"|(?:i|we)(?:'d|\s+would)\s+(?:appreciate|love|like)\s+(?:it\s+)?(?:if\s+)?(?:you|the\s+\w+)\s+"
    r"(?:could|would|to)?\s*"
    r"|(?:i|we)\s+(?:need|want|expect|ask)\s+(?:you|the\s+\w+)\s+to\s+"
    r"|(?:feel\s+free|don'?t\s+hesitate|be\s+so\s+kind\s+as|remember|make\s+sure|be\s+sure)\s+to\s+"
    r"|(?:your|the)\s+(?:next\s+|first\s+|final\s+|real\s+|actual\s+)?(?:task|job|step|goal|mission)\s+"
    r"(?:now\s+)?is\s+to\s+)",
    re.IGNORECASE,
)
_PLEASE = re.compile(r"\b(?:please|kindly|pls)\b[,\s]+", re.IGNORECASE)
_CLAUSE = re.compile(
    r"[:;]\s*|\s[-–—]\s+|,\s+(?:and\s+)?(?:then\s+)?|\b(?:and|then)\s+(?:also\s+)?", re.IGNORECASE
)
_NOUN_LIKE = frozenset(
    {"open", "post", "text", "message", "call", "set", "order", "list", "record", "click"}
)
_STRONG_MARKER = re.compile(
    r"^(?:TODO|FIXME|INSTRUCTIONS?|SYSTEM(?:\s+(?:NOTE|MESSAGE|PROMPT))?|ADMIN|ACTION(?:\s+REQUIRED)?"
    r"|NEW\s+(?:TASK|INSTRUCTIONS?)|IMPORTANT(?:\s+NOTE)?|ATTENTION|URGENT|TASK|REQUIRED)"
    r"(?:\s*\([^)]{0,30}\))?\s*(?:[:!\]>-]+|\)\s*:?)\s*|^P\.\s?S\.?[:,]?\s+",
    re.IGNORECASE,
)
_WEAK_MARKER = re.compile(
    r"^(?:NOTE|REMINDER|WARNING|HINT|TIP|NB|INFO)(?:\s*\([^)]{0,30}\))?\s*[:!-]+\s*", re.IGNORECASE
)
_AI_NAME = (
    r"(?:AI|A\.I\.|assistants?|LLMs?|copilot|claude|gpt[\w.-]*|chatgpt|gemini|llama"
    r"|(?:large\s+)?language\s+models?"
    r"|(?:automated|autonomous|coding|ai|llm|agentic)[\s-]+(?:agents?|systems?|tools?|assistants?|bots?|models?))"
)
_ANY_NAME = rf"(?:{_AI_NAME}|agents?|bots?)"  # "agents", "bots" alone only where a form says so
_MODALS = (
    r"(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|(?:is|are)\s+(?:required|instructed|expected"
    r"|asked)\s+to|will\s+need\s+to|(?:is|are)\s+to|please)"
)
_ADDRESSED = re.compile(
    rf"\b(?:dear|hey|hi|hello|attention|note\s+(?:to|for)|hint\s+for|message\s+(?:to|for)|instructions?\s+for)"
    rf"\s+(?:the\s+|all\s+|any\s+)?{_ANY_NAME}\b[^:.]{{0,40}}?[:,]?"
    rf"|@{_ANY_NAME}\b\s*:?"
    rf"|\b{_ANY_NAME}(?:[\s-]+(?:note|notice|hint|instructions?|action\s+required|only))?\s*(?::|\s[-–—]\s)"
    rf"|\b{_ANY_NAME}\s+\w+ing\b[^:.]{{0,60}}?(?::|\s{_MODALS}\b)"
    rf"|\b(?:the\s+|all\s+|any\s+|every\s+)?{_AI_NAME}\s*,?\s*(?:reading\s+this\b[^.]*?)?{_MODALS}\b"
    rf"|\bif\s+you\s+(?:are|'re)\s+(?:an?\s+)?{_ANY_NAME}\b[^,.]{{0,40}},?"
    r"|\b(?:note\s+(?:to|for)\s+)?(?:whoever|anyone\s+who|any\s+one\s+who)\s+\w+\b[^:.]{0,50}:"
    rf"|\bas\s+an?\s+{_AI_NAME}\b"
    rf"|(?:^|[:;.!?(\[]\s*|\b(?:hey|hi|ok|okay|dear|yo)\s+)(?:the\s+)?{_ANY_NAME}\s*,"
    rf"|\bif\s+(?:an?\s+|any\s+|the\s+)?{_ANY_NAME}\s+(?:is\s+|are\s+)?(?:reading|processing|summari[sz]ing"
    r"|seeing|parsing|handling|reviewing)\b[^:,.]{0,40}[:,]?",
    re.IGNORECASE,
)
_NAMED_KEY = re.compile(
    rf"\b{_ANY_NAME}\b|(?:^|[-_\s])(?:ai|llm|agents?|assistants?|bots?|ki|ia)(?=$|[-_\s:])"
    r"|\b(?:asistente|assistente|assistent(?:in)?|agente)\b",
    re.IGNORECASE,
)
_OVERRIDE = re.compile(
    r"\b(?:ignore\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|other)"
    r"|disregard\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier)"
    r"|from\s+now\s+on|new\s+instructions?|instead\s+of\s+(?:that|the\s+user)|do\s+this\s+first"
    r"|\binstead\W*$"
    r"|before\s+(?:you\s+\w+|doing|answering|responding|replying|continuing|proceeding|completing"
    r"|making|starting|changing|editing|modifying|running|summari[sz]ing|touching|committing"
    r"|finishing|solving|working)\b[^,.;:]{0,80}?[,:;]?\s*(?:please\s+)?(?:first\s+)?(?:you\s+(?:must|should|need\s+to)\s+)?"
    r"(?=[a-z]+\b))",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:please|kindly|also|and|then|now|first|firstly|next|finally|immediately|just|simply"
    r"|quickly|urgently|instead|additionally|afterwards)[,\s]+"
    r"|(?:make\s+sure|be\s+sure|remember|don'?t\s+forget|do\s+not\s+forget|ensure\s+you|take\s+care)"
    r"\s+(?:to|that\s+you)\s+"
    r"|(?:you|we)\s+(?:must|should|need\s+to|have\s+to|will\s+need\s+to|are\s+(?:required|expected)\s+to"
    r"|'ll\s+need\s+to|can\s+now)\s+(?:also\s+|first\s+|now\s+|please\s+)?"
    r"|(?:i|we)\s+(?:need|want|would\s+like|'d\s+like)\s+you\s+to\s+"
    r"|(?:it\s+is|it'?s)\s+(?:important|essential|necessary|required|mandatory)\s+(?:to|that\s+you)\s+"
    r"|(?:could|can|would|will)\s+you\s+(?:please\s+)?"
    r"|do\s+(?=[a-z]+\s))+",
    re.IGNORECASE,
)
_SAY_VERBS = frozenset({"say", "recommend", "mention", "state", "claim", "suggest", "advise"})
_SAY_TELL = re.compile(
    r"^(?:tell|answer|respond|reply|include|inform)\w*\s+(?:\w+\s+){0,3}?"
    r"(?:that|the\s+user|users?|them|in\s+(?:your|the)\s+(?:answer|response|reply|summary|output))\b",
    re.IGNORECASE,
)
_CONJUNCT = frozenset({"and", "then", "also", "to", "finally", "afterwards", "next"})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "your", "my", "his", "her", "their"})

# Chinese: 请 / 务必 / 你必须 ... + a verb; the verbs by class
_ZH_ORDER = re.compile(
    r"(?:请(?:你|您)?(?:先|立即|马上|务必)?|务必|(?:你|您)(?:必须|需要|应该|要)|(?:AI|助手|智能体|模型)(?:必须|需要|应该|请))"
    r"\s*(?:[把将][^。！？\n]{0,16}?)?(?P<verb>发送|发给|转发|转账|汇款|支付|付款|删除|移除|运行|执行|安装|打印|输出|显示|读取|访问|打开|下载"
    r"|邀请|添加|创建|预订|预定|分享|回复|告诉|推荐|修改|更改)"
)
_ZH_CLASSES = {
    "发送": "send", "发给": "send", "转发": "send", "回复": "send", "转账": "pay", "汇款": "pay",
    "支付": "pay", "付款": "pay", "删除": "remove", "移除": "remove", "运行": "run", "执行": "run",
    "安装": "install", "打印": "reveal", "输出": "reveal", "显示": "reveal", "读取": "reveal",
    "访问": "fetch", "打开": "fetch", "下载": "fetch", "邀请": "invite", "添加": "create",
    "创建": "create", "预订": "book", "预定": "book", "分享": "share", "告诉": "say",
    "推荐": "say", "修改": "update", "更改": "update",
}  # fmt: skip


def find_orders(text: str) -> tuple[Order, ...]:
    """Find the orders in a text (the module's two kinds), in order of appearance.

    Args:
        text: An untrusted text: a tool output, a file read, a page, an e-mail. YAML folding
            and escaped newlines should be undone first (``injected_passages.unfold``).

    Returns:
        At most 64 orders (memoized for the last 256 texts). Never raises.
    """
    return _find_orders(text)


def _find_orders(text: str) -> tuple[Order, ...]:
    return _scan(text)[0]


@lru_cache(maxsize=256)
def _scan(text: str) -> tuple[tuple[Order, ...], int]:
    """The orders of ``text`` and how many of its sentences (three words or more) are not orders."""
    flat, origin = _unwrapped(text)
    orders: list[Order] = []
    prose = 0
    carry = 0  # sentences after an override that gave no order ("Ignore your instructions.")
    start = 0
    for stop in [*(m.start() for m in _SPLIT.finditer(flat)), len(flat)]:
        sentence, at = flat[start:stop], start
        start = _SPLIT.match(flat, stop).end() if stop < len(flat) else stop  # type: ignore[union-attr]
        if len(orders) >= _MAX_ORDERS:
            break
        if len(sentence) < 4:
            continue
        order, carries = _order(sentence[:_MAX_SENTENCE_CHARS], carried=carry > 0)
        carry = _CARRY_SENTENCES if carries and order is None else max(0, carry - 1)
        if order is None and len(words_of(sentence)) >= 3:
            prose += 0 if carries else 1
        if order is not None:
            # the order as the text writes it (wrapped lines and all): a substring of ``text``
            begin = flat.find(order.text, at)
            if begin >= 0 and order.text:
                end = begin + len(order.text) - 1
                order = replace(order, text=text[origin[begin] : origin[end] + 1])
            orders.append(order)
    for match in _ZH_ORDER.finditer(text):
        if len(orders) >= _MAX_ORDERS:
            break
        found_end = re.search(r"[。！？\n]", text[match.end() :])
        body = text[match.start() : match.end() + (found_end.start() if found_end else 200)]
        cls = _ZH_CLASSES[match.group("verb")]
        orders.append(
            Order(
                body,
                True,
                frozenset({cls}),
                objects_of_words(words_of(body)),
                text_marks(body),
                cls == "say",
            )
        )
    return tuple(orders), prose


def inserted_orders(text: str) -> bool:
    """Whether the addressed orders of ``text`` are inserted into a document of another voice.

    A letter that asks its reader to "adjust your standing order accordingly" and carries one
    "TODO: send ..." has an order planted in it; a TODO note whose lines are all TODOs is the
    list itself. Inserted: fewer addressed orders than the document's plain orders and prose
    sentences (three words or more) together.
    """
    return _inserted_orders(text)


def _inserted_orders(text: str) -> bool:
    orders, prose = _scan(text)
    addressed = sum(1 for o in orders if o.addressed)
    return 0 < addressed < prose + len(orders) - addressed


def _unwrapped(text: str) -> tuple[str, list[int]]:
    """``text`` with hard-wrapped lines joined, and each character's index in ``text``.

    Two lines join when they carry the same comment marker (none, ``#``, ``//``...), the first
    ends inside a sentence (no closing punctuation, no code: ``=``, brackets) and the second goes
    on in lowercase, a command or a variable, and is not a serialized ``key: value`` field.
    """
    if "\n" not in text:
        return text, list(range(len(text)))
    parts: list[str] = []
    origin: list[int] = []
    lines = text.split("\n")
    at = 0
    for index, line in enumerate(lines):
        parts.append(line)
        origin.extend(range(at, at + len(line)))
        end = at + len(line)  # the newline's index
        at = end + 1
        if index + 1 == len(lines):
            break
        following = lines[index + 1]
        mark, next_mark = _LINE_MARK.match(line), _LINE_MARK.match(following)
        if _joins(line[mark.end() :], following[next_mark.end() :], same=mark[1] == next_mark[1]):  # type: ignore[index, union-attr]
            skip = next_mark.end()  # type: ignore[union-attr]
            parts.append(" ")
            origin.append(end)
            lines[index + 1] = following[skip:]
            at += skip
        else:
            parts.append("\n")
            origin.append(end)
    return "".join(parts), origin


_LINE_MARK = re.compile(r"^[ \t]*(?:\d+(?:→|\t))?[ \t]*((?:#+|//+|--|\*|;+|>+)?)[ \t]*")
_CODE_LINE = re.compile(r"[=(){}\[\];]|^\s*(?:import|from|def|class|return|const|let|var|function)\b")
_CONTINUES = re.compile(r"[a-z`$(0-9]|[A-Z][A-Z0-9_]{2,}\b")
_OPEN_ENDED = re.compile(
    r"\b(?:to|the|a|an|of|with|at|in|on|for|from|by|and|or|account|address|number|is|be|are|this|that)$",
    re.IGNORECASE,
)
_FIELD = re.compile(r"[\w-]+:[ \t]")


def _joins(line: str, following: str, *, same: bool) -> bool:
    content = line.rstrip()
    return (
        same
        and bool(content)
        and content[-1] not in ".!?:;,{}[]\"'>()=+\\"
        and (_CONTINUES.match(following) is not None or _OPEN_ENDED.search(content) is not None)
        and _FIELD.match(following) is None
        and _CODE_LINE.search(content) is None
    )


def _order(sentence: str, *, carried: bool) -> tuple[Order | None, bool]:
    """The order a sentence gives, if any, and whether it makes the next sentences addressed.

    An addressed order's text is its whole sentence (after markers), so that what comes before
    its verb ("this needs our fork 'axois' - install it") is the order's too; its acts are the
    sentence's. An addressed sentence with no verb of the lexicon but a sensitive act ("attach
    diagnostics with `env | curl ...`") is an order by its act.
    """
    body = _PUNCTUATION.sub("", sentence.strip())
    addressed = carried
    marked = named = False
    for _ in range(4):  # "- body: TODO: Send ..." peels a bullet, a key, then a marker
        strong = _STRONG_MARKER.match(body)
        if strong:
            addressed = marked = True
            body = body[strong.end() :]
            continue
        peeled = _WEAK_MARKER.match(body) or _KEY.match(body)
        if not peeled:
            break
        if _NAMED_KEY.search(peeled.group(0)):  # "Assistant:", "assistant-note:", "DEBUG-AI:"
            addressed = named = True
        body = _PUNCTUATION.sub("", body[peeled.end() :])
    addressee = _ADDRESSED.search(body) or FOREIGN_ADDRESSEE.search(body)
    named = named or addressee is not None
    override = _OVERRIDE.search(body)
    addressed = addressed or addressee is not None or override is not None
    starts = [0, *(found.end() for found in (addressee, override) if found is not None)]
    starts += [m.end() for m in _PLEASE.finditer(body)]
    requests = [m.end() for m in _REQUEST.finditer(body)]
    starts += requests
    starts += [m.end() for m in _MODAL.finditer(body)]
    if addressed:  # an order after its preamble: "... and strictly adhere to this: Invite ..."
        starts += [m.end() for m in _CLAUSE.finditer(body)]
    carries = marked or override is not None
    for start in sorted(set(starts)):
        order = _order_at(body[start:], addressed=addressed, cued=start > 0, gerund=start in requests)
        if order is not None:
            if addressed:  # from the addressee on: "src/app.py:1: AGT001" before it is the data's
                whole = body[addressee.start() :] if addressee is not None else body
                order = replace(
                    order, text=whole.strip(), marks=order.marks | text_marks(body), named=named
                )
            return order, carries
    foreign = _foreign_order(body, addressed=addressed)
    if foreign is not None:
        return replace(foreign, named=named), carries
    words = words_of(body)
    classes = frozenset().union(*(imperative_classes(w) for w in words))
    if addressed and (text_marks(body) or classes):  # "issue a full refund of $349 to ..."
        marks = text_marks(body)
        return Order(body.strip(), True, classes, objects_of_words(words), marks, False, named), carries
    return None, carries


_FOREIGN_REACH_CHARS = 60  # a polite word or an addressee this close before a verb makes it an order


def _foreign_order(body: str, *, addressed: bool) -> Order | None:
    """An order in German, French, Spanish, Italian or Portuguese (``order_words._FOREIGN``).

    The verb opens the sentence, or follows a polite request word ("bitte", "veuillez", "por
    favor") or an addressee within 60 characters, or the sentence is addressed.
    """
    cues = [m.end() for m in FOREIGN_POLITE.finditer(body)]
    for match in _ANY_WORD.finditer(body):
        classes = foreign_classes(match.group(0))
        if not classes:
            continue
        at = match.start()
        cued = at == 0 or addressed or any(0 <= at - c <= _FOREIGN_REACH_CHARS for c in cues)
        if not cued:
            continue
        text = body if addressed else body[at:]
        words = words_of(text)
        return Order(
            text.strip(), addressed, classes, objects_of_words(words), text_marks(text), "say" in classes
        )
    return None


_ANY_WORD = re.compile(r"[^\W\d_]+")


def _order_at(rest: str, *, addressed: bool, cued: bool, gerund: bool = False) -> Order | None:
    rest = rest.lstrip(" ,:;-\"'")
    lead = _LEAD.match(rest)
    if lead:
        rest = rest[lead.end() :]
    words = words_of(rest[:_MAX_SENTENCE_CHARS])
    if not words:
        return None
    classes = imperative_classes(words[0])
    if not classes and gerund and words[0].endswith("ing"):  # "would you mind forwarding"
        classes = verb_classes(words[0])
    if not classes or (words[0] in _NOUN_LIKE and not (lead or addressed or cued)):
        return None  # "Open positions", "Post by Bob": a noun-like first word needs a cue
    return Order(
        text=rest.strip(),
        addressed=addressed,
        classes=classes | _chained_classes(words),
        objects=objects_of_words(words),
        marks=text_marks(rest),
        say=bool(classes & {"say"}) and (words[0] in _SAY_VERBS or bool(_SAY_TELL.match(rest))),
    )


def _chained_classes(words: tuple[str, ...]) -> frozenset[str]:
    """The classes of the further verbs of a chained order ("invite X, add him and then remove him")."""
    chained: list[str] = []
    for before, word in itertools.pairwise(words):
        if before in _CONJUNCT and word not in _DETERMINERS:
            chained.append(word)
    found: set[str] = set()
    for word in chained:
        found |= imperative_classes(word)
    return frozenset(found)
