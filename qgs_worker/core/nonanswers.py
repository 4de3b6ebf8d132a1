"""What cannot be an answer: a refusal, placeholder text, a cut-off deliverable (issue 32).

Pure functions on the text of a deliverable. Each returns why the text is not an answer (a short
sentence quoting the evidence), or ``""`` when it may be one. They are QGS's own heuristics, kept
narrow, because a false "non-answer" fails a good round:

- :func:`refusal`: the text, in its own voice (:func:`refusal_prose`: code blocks, inline code
  and quoted spans left out), *opens* by declining (in its first two sentences, or its first
  300 characters) and is short (under ``REFUSAL_MAX_WORDS`` words): "I cannot help with that.",
  "I'm sorry, but I can't...", "I must decline", "I'm not comfortable doing that", "that's not
  something I can help with", "I'm not able to open attachments", and the same in French,
  German, Spanish, Italian, Portuguese, Dutch, Russian, Chinese, Japanese and Korean. "I can't
  help but notice" is not a refusal; nor is an answer that declines one part and then does the
  work: a long one, or one where "but", "however", "instead", "here is" follows the refusal
  with ``WORK_MIN_WORDS``+ words that are not only an offer of other help ("but I'd be happy
  to help with something else" is still a refusal).
- :func:`placeholder`: filler stands where content should be: a paragraph mostly of Lorem
  ipsum's words (60%+ of 4+ words, holding "lorem" or "ipsum"), a line that is only a marker
  (``TODO``, ``TBD``, ``FIXME``, ``XXX``, with at most a short note: ``TODO: write the
  conclusion``), a line that is only a bracketed instruction (``[Insert introduction here]``,
  ``<insert chart>``, ``{your content here}``), or a chat model's boilerplate at a sentence's
  start in the first person ("As an AI language model, I ..."; not "As an AI assistant, Claude
  is designed to..."). Not when the request asks for the thing itself (Lorem
  ipsum, a template, a to-do list), not in code blocks, block quotes or quotation marks: an
  article about typesetting may quote "Lorem ipsum dolor sit amet", and "my TODO list" is prose.
- :func:`cut_off`: the text stops mid-way: inside a code block opened and never closed, or its
  last line, when it reads as a sentence (4+ tokens, three in four of them words), ends on a
  word or mark that cannot end a sentence (a comma, a colon, an opening bracket, a dash; "the",
  "and", "of", "with"... in English, French, German, Spanish, Italian, Portuguese; or two
  words that end none together: "so that", "in order", "rather than"). A command
  (``format C: /y``), a table row or a rule (``---``) is not read.

Pure: stdlib only.
"""

from __future__ import annotations

import re

__all__ = [
    "NON_ANSWER_MARK",
    "REFUSAL_MAX_WORDS",
    "WORK_MIN_WORDS",
    "cut_off",
    "placeholder",
    "refusal",
    "refusal_prose",
]

NON_ANSWER_MARK = "not an answer: "
"""What opens a dimension issue of a round failed as a non-answer (the rules judge writes
``not an answer: <reason>`` on every dimension; ``core/replan.py`` reads it back)."""

REFUSAL_MAX_WORDS = 80
"""A text of this many words or more is an answer that may decline a part, not a refusal."""

_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")

_APOSTROPHE = "['’]"
_REFUSALS = re.compile(
    # English: "I cannot help with that", "I'm unable to assist", "I won't do that"
    rf"\bI(?:\s+am|{_APOSTROPHE}m)?\s+(?:(?:really|afraid|sorry)[,\s]+(?:but\s+)?I\s+)?"
    rf"(?:cannot|can\s?not|can{_APOSTROPHE}?t|won{_APOSTROPHE}?t|will\s+not|"
    r"(?:not\s+)?(?:able|unable)\s+to|not\s+(?:allowed|permitted|comfortable)\s+(?:to\s+)?"
    r"|must\s+(?:respectfully\s+)?decline|have\s+to\s+decline)"
    r"\s*(?:(?:be\s+able\s+to|really|fully|directly|in\s+good\s+conscience)\s+)?"
    r"(?:help(?!\s+but\b)|assist|comply|do\s+(?:that|this|it|so)\b|provide|fulfil|complete|"
    r"write|create|generate|produce|perform|carry\s+out|execute|run|proceed|go\s+ahead|"
    r"support|answer|share|drop|delete|remove|make|open|access|browse|process|"
    r"download|retrieve|that\b|this\b|your\s+request|the\s+request)"
    r"|\bI\s+must\s+(?:respectfully\s+)?decline\b"
    # "I'm not comfortable doing that", "I am not willing to", "I'm not in a position to"
    rf"|\bI(?:\s+am|{_APOSTROPHE}m)\s+(?:really\s+|just\s+)?not\s+(?:comfortable|willing|"
    r"in\s+a\s+position)\s+(?:to\s+\w+|\w+ing\b|with\s+(?:that|this|it|your\s+request|the\s+"
    r"request)\b)"
    # "that's not something I'm able to do", "That's not something I can help with"
    rf"|\b(?:that|this|it|which)(?:{_APOSTROPHE}s|\s+is)\s+not\s+(?:something|anything)\s+"
    rf"(?:that\s+)?I(?:{_APOSTROPHE}m|\s+am)?\s+(?:can|could|will|would|do|able|allowed|"
    r"permitted|comfortable|willing|going|in\s+a\s+position)\b"
    # French: "Je ne peux pas vous aider", "Désolé, je ne peux pas"
    r"|\bje\s+ne\s+(?:peux|pourrai|suis\s+pas\s+en\s+mesure)\s+(?:pas\s+)?"
    r"(?:(?:vous|t['’]|te)\s*)?(?:aider|répondre|faire|fournir|effectuer|exécuter|écrire|"
    r"rédiger|supprimer|accéder|de\s)"
    r"|\bd[ée]sol[ée]e?s?,?\s+(?:mais\s+)?je\s+ne\s+(?:peux|pourrai)\b"
    # German: "Ich kann Ihnen dabei nicht helfen", "Es tut mir leid, aber ich kann das nicht"
    r"|\bich\s+kann\s+(?:(?:Ihnen|dir|euch|das|dies|diese\s+Anfrage|hier|dabei|damit|hierbei|"
    r"leider|Ihre\s+Anfrage)\s+){0,3}(?:nicht|keine)\b"
    r"|\bes\s+tut\s+mir\s+leid,?\s+aber\s+ich\s+kann\b"
    # Spanish / Portuguese / Italian
    r"|\bno\s+(?:puedo|podré)\s+(?:ayudar|hacer|cumplir|proporcionar|realizar|ejecutar|"
    r"escribir|eliminar|borrar|asistir)"
    r"|\blo\s+siento,?\s+(?:pero\s+)?no\s+puedo\b"
    r"|\bnão\s+(?:posso|consigo|poderei)\s+(?:te\s+|lhe\s+)?(?:ajudar|fazer|fornecer|executar|"
    r"escrever|excluir|apagar|atender|realizar)"
    r"|\bdesculpe,?\s+(?:mas\s+)?não\s+(?:posso|consigo)\b"
    r"|\bnon\s+(?:posso|sono\s+in\s+grado\s+di)\s+(?:aiutar|fare|fornire|eseguire|scrivere|"
    r"eliminare|cancellare|assister|soddisfare)"
    r"|\bmi\s+dispiace,?\s+(?:ma\s+)?non\s+posso\b"
    # Dutch, Russian
    r"|\bik\s+kan\s+(?:(?:je|jou|u|jullie|daar|hier|dit|dat|helaas|hiermee|daarmee)\s+){0,3}"
    r"niet\s+(?:mee\s+)?(?:helpen|doen|uitvoeren|schrijven|maken|beantwoorden)"
    r"|\b(?:извините|простите|к\s+сожалению),?\s+(?:но\s+)?я\s+не\s+могу\b"
    r"|\bя\s+не\s+(?:могу|буду)\s+(?:вам\s+|тебе\s+)?(?:помочь|выполнить|сделать|предоставить|"
    r"удалить|написать)"
    # Chinese, Japanese, Korean
    r"|我(?:不能|无法|沒辦法|没办法|不可以|無法)(?:帮|幫|协助|協助|提供|完成|执行|執行|满足|滿足|"
    r"回答|处理|處理|删除|刪除|为你|為你|为您|為您)"
    r"|(?:抱歉|对不起|對不起)[，,]?\s*(?:但)?我(?:不能|无法|無法)"
    r"|(?:お手伝い|対応|お答え|ご協力|実行|作成)(?:すること)?(?:は|が)?できません"
    r"|申し訳(?:ありません|ございません)が[、,].{0,30}?できません"
    r"|(?:도와|도움을\s*드릴\s*수|도와\s*드릴\s*수)\s*(?:없습니다|없어요)"
    r"|죄송(?:합니다|하지만)[,.]?\s*.{0,30}?(?:할\s*수\s*없습니다|수\s*없습니다)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?。！？]+(?:\s|$)|[。！？]")
_FENCED = re.compile(
    r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL
)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_SINGLE_QUOTED = re.compile(r"(?<!\w)['‘][^\n]{1,400}?['’](?!\w)")
# After a refusal, what turns to the work: "..., but here is an outline", "however", "instead".
_BUT_WORK = re.compile(
    r"\b(?:but|however|instead|though|although|here\s+is|here\s+are|here['’]s|mais|aber|pero|"
    r"ma|mas|maar|但是?|不过|ですが|하지만)\b[,:]?",
    re.IGNORECASE,
)
WORK_MIN_WORDS = 4
"""Words after "but"/"here is" that make a refusal partial: it declines a part and does the rest."""
# ... unless those words only offer other help or send the user elsewhere.
_OFFER = re.compile(
    r"\W*(?:I(?:\s+would|['’]d)\s+(?:be\s+)?(?:happy|glad|love)|I(?:\s+(?:can|could|would)|['’]d)\s+"
    r"(?:help|assist|suggest|recommend|offer|be\s+happy)\b(?!\s+(?:you\s+)?(?:write|draft|"
    r"outline|fix|with\s+the\s+(?:first|rest|outline|structure)))|I['’]m\s+(?:happy|glad)|"
    r"(?:you|they)\s+(?:might|could|may|should|can|would)\s+(?:want\s+to\s+)?(?:try|ask|"
    r"contact|consult|reach|seek|talk|speak|check)|is\s+there\s+anything|feel\s+free|"
    r"let\s+me\s+know|please\s+(?:contact|consult|ask|reach|seek))",
    re.IGNORECASE,
)

# Lorem ipsum's words: the standard passage (Cicero, "De finibus", as typesetters cut it) and
# the words generators add most; lower case.
_LOREM_WORDS = frozenset(
    """lorem ipsum dolor sit amet consectetur consectetuer adipiscing adipisicing elit sed do
    eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud
    exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in
    reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur excepteur sint occaecat
    cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum integer
    nec odio praesent libero sapien vestibulum curabitur mauris nunc pellentesque aenean
    phasellus donec vitae vel at vivamus etiam morbi suspendisse nam a ac eget erat justo
    tincidunt ligula quam lectus lacus metus nibh neque orci porta purus risus tellus turpis
    urna varius massa felis mi arcu augue dui diam eros leo nisl""".split()  # noqa: SIM905 - a word list reads best as text
)
LOREM_SHARE = 0.6
"""A paragraph of 4+ words this share of which are Lorem ipsum's is filler."""

_MARKER_LINE = re.compile(
    r"^(?:[-*+>#\s]|\d{1,3}[.)])*[*_`]*(?:TODO|TBD|FIXME|XXX|TO\s?DO)[*_`]*"
    r"(?:\s*[:\-–—.]\s*(?P<note>[^\n]*))?$",
)
_INSTRUCTION_LINE = re.compile(
    r"^(?:[-*+>#\s]|\d{1,3}[.)])*[*_]*(?:\[[^\]\n]{1,80}\]|<[^<>\n]{1,80}>|\{[^{}\n]{1,80}\}"
    r"|\([^()\n]{1,80}\))[*_]*[.:]?$",
)
_INSTRUCTION_WORDS = re.compile(
    r"^\W*(?:insert|add|put|enter|write|fill\s+in|placeholder)\b|\bgoes?\s+here\b|\bhere\W*$",
    re.IGNORECASE,
)
_BOILERPLATE = re.compile(
    r"(?:^|(?<=[.!?:]\s)|(?<=\n))\s*(?:As\s+an?\s+(?:AI|artificial\s+intelligence)"
    r"(?:\s+(?:language\s+)?model|\s+assistant)?\s*,\s*(?:I|I['’](?:m|ve|d|ll)|my|me)\b"
    r"|I\s+am\s+an\s+AI\s+language\s+model\b)",
    re.IGNORECASE,
)
_ASKS_FOR_LOREM = re.compile(r"lorem|ipsum|filler|dummy\s+text|placeholder", re.IGNORECASE)
_ASKS_FOR_TEMPLATE = re.compile(
    r"templat|placeholder|fill[- ]in|boilerplate|skeleton|outline|stub|mod[eè]le|plantilla|"
    r"vorlage|模板",
    re.IGNORECASE,
)
_ASKS_FOR_TODO = re.compile(r"\bto-?\s?do|\bTBD\b|\bFIXME\b|待办", re.IGNORECASE)
_ASKS_ABOUT_MODELS = re.compile(r"language\s+model|\bAI\s+(?:model|assistant)", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"\n]{0,400}\"|“[^”\n]{0,400}”|«[^»\n]{0,400}»|„[^“\n]{0,400}“")

# Words and marks a finished sentence does not end on.
_HANGING_MARKS = ",:([{–—"
_HANGING_WORDS = frozenset(
    """the a an and or but nor of to with for from by as at into onto than whose because while
    if when whereas although though such its their our your my le la les un une des du de et ou
    mais avec pour par dans sur que qui der die das den dem des ein eine einen einem und oder
    aber mit für von zu dass weil el los las una unos y o pero con para por en il lo gli della
    delle e ma per che um uma com mas""".split()  # noqa: SIM905 - a word list reads best as text
)


_HANGING_PAIRS = frozenset(
    {("so", "that"), ("such", "that"), ("in", "order"), ("rather", "than"), ("other", "than"),
     ("as", "soon"), ("pour", "que"), ("afin", "que"), ("so", "dass"), ("para", "que")}
)  # fmt: skip
"""Two words that end no sentence: "..., so that" (each alone may: "I can't do that")."""


def refusal(text: str) -> str:
    """Why ``text`` is a refusal of the task, or ``""`` (see the module docstring).

    Reads :func:`refusal_prose` of ``text``: code and quoted speech are not the deliverable
    declining ("403 means the server says 'I won't do that for you'").

    Args:
        text: The deliverable's text (without its tool calls); code blocks may be in it.

    Returns:
        ``"the deliverable declines the task ('<phrase>')"``, or ``""``.
    """
    prose = refusal_prose(text)
    if _words(prose) >= REFUSAL_MAX_WORDS:
        return ""
    opening = _opening(prose)
    match = _REFUSALS.search(opening)
    if match is None or _does_the_rest(prose[match.end() :]):
        return ""
    return f"the deliverable declines the task ({_quote(match.group(0))})"


def refusal_prose(text: str) -> str:
    """``text`` without what the deliverable does not say in its own voice.

    Fenced code blocks (closed, or open to the end), inline code and quoted spans ("...",
    “...”, «...», „...“, '...', ‘...’; a single quote opens a span only after a non-word
    character, so "can't" does not) become a space.

    Args:
        text: A deliverable's text.

    Returns:
        The text left, the same length or shorter.
    """
    plain = _FENCED.sub(" ", text)
    plain = _INLINE_CODE.sub(" ", plain)
    plain = _QUOTED.sub(" ", plain)
    return _SINGLE_QUOTED.sub(" ", plain)


def _does_the_rest(after: str) -> bool:
    """Whether the text after a refusal goes on to do work: "..., but here is an outline: ..."."""
    turn = _BUT_WORK.search(after)
    if turn is None:
        return False
    rest = after[turn.end() :]
    return _words(rest) >= WORK_MIN_WORDS and not _OFFER.match(rest)


def placeholder(prose: str, request: str = "") -> str:
    """Why ``prose`` holds placeholder text where content should be, or ``""``.

    Args:
        prose: The deliverable's text outside code blocks.
        request: What was asked (the request and the user turn): a request for Lorem ipsum, a
            template or a to-do list makes the matching checks moot.

    Returns:
        A sentence naming the placeholder and quoting it, or ``""``.
    """
    plain = _QUOTED.sub(" ", prose)
    lines = [line.strip() for line in plain.splitlines()]
    if not _ASKS_FOR_LOREM.search(request):
        for paragraph in re.split(r"\n[ \t]*\n", plain):
            filler = _lorem(paragraph)
            if filler:
                return f"Lorem ipsum filler stands where content should be ({_quote(filler)})"
    if not _ASKS_FOR_TODO.search(request):
        for line in lines:
            match = None if line.startswith("#") else _MARKER_LINE.match(line)
            if match and _words(match.group("note") or "") <= 8:
                return f"a placeholder line stands where content should be ({_quote(line)})"
    if not _ASKS_FOR_TEMPLATE.search(request):
        for line in lines:
            if _INSTRUCTION_LINE.match(line) and _INSTRUCTION_WORDS.search(
                line.strip("[]<>{}()*_ ")
            ):
                return f"an unfilled template line stands where content should be ({_quote(line)})"
    if not _ASKS_ABOUT_MODELS.search(request):
        boilerplate = _BOILERPLATE.search(plain)
        if boilerplate is not None:
            return (
                f"a chat model's boilerplate ({_quote(boilerplate.group(0))}) is not part of a "
                "deliverable"
            )
    return ""


def cut_off(prose: str, *, unclosed_fence: bool, ends_in_code: bool = False) -> str:
    """Why the deliverable stops mid-way, or ``""``.

    Args:
        prose: The deliverable's text outside code blocks (tool-call lines left out).
        unclosed_fence: A code fence is opened and never closed.
        ends_in_code: The deliverable ends with a (closed) code block: its prose is not its end.

    Returns:
        A sentence saying where it stops, or ``""``.
    """
    if unclosed_fence:
        return "the deliverable stops inside a code block that is never closed"
    if ends_in_code:
        return ""
    lines = [line.rstrip() for line in prose.splitlines() if line.strip()]
    if not lines:
        return ""
    last = lines[-1]
    if last.lstrip().startswith("|"):  # a table row ends on its bar or a cell
        return ""
    tail = last.rstrip("*_` ")
    if not _reads_as_prose(tail):  # a command, a path, a rule (---): its end is not a sentence's
        return ""
    if tail[-1] in _HANGING_MARKS:
        return f"the deliverable stops mid-sentence, on {tail[-1]!r} ({_quote(last[-60:])})"
    words = _WORD.findall(tail[-30:].lower())
    if words and tail[-1].isalpha() and words[-1] in _HANGING_WORDS:
        return f"the deliverable stops mid-sentence, on {words[-1]!r} ({_quote(last[-60:])})"
    if tail[-1].isalpha() and tuple(words[-2:]) in _HANGING_PAIRS:
        pair = " ".join(words[-2:])
        return f"the deliverable stops mid-sentence, on {pair!r} ({_quote(last[-60:])})"
    return ""


def _reads_as_prose(line: str) -> bool:
    """Whether ``line`` reads as a sentence: 4+ tokens, three in four of them words of letters."""
    parts = line.split()
    if len(parts) < 4:
        return False
    wordy = sum(bool(re.fullmatch(r"[^\W\d_]+[,:;.!?)\]'’\"]*", p)) for p in parts)
    return wordy >= 0.75 * len(parts)


def _lorem(paragraph: str) -> str:
    """The paragraph when it is Lorem ipsum filler, else ``""``."""
    lowered = paragraph.lower()
    if "lorem" not in lowered and "ipsum" not in lowered:
        return ""
    kept = "\n".join(line for line in lowered.splitlines() if not line.lstrip().startswith(">"))
    words = _WORD.findall(kept)
    if len(words) < 4 or ("lorem" not in words and "ipsum" not in words):
        return ""
    filler = sum(w in _LOREM_WORDS for w in words)
    return paragraph.strip() if filler >= LOREM_SHARE * len(words) else ""


def _opening(text: str) -> str:
    """The first two sentences of ``text``, at most 300 characters."""
    head = text.strip()[:300]
    ends = list(_SENTENCE_END.finditer(head))
    return head[: ends[1].end()] if len(ends) >= 2 else head


def _words(text: str) -> int:
    """Words of ``text``; a CJK character counts as half a word."""
    cjk = len(_CJK.findall(text))
    return len(_WORD.findall(_CJK.sub(" ", text))) + (cjk + 1) // 2


def _quote(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")
