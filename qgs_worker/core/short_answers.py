"""A short answer of the kind a question asks for: "Canberra." to "What is the capital of Australia?".

The rules judge measures relevance by the request's words found in the deliverable. An answer
to a question supplies what the question lacks rather than repeating it: "Canberra.", "Jane
Austen.", "Eight.", "1989" share no word with their questions and are the best answers there
are. This module says whether a short answer (under ``SHORT_WORDS`` words) is of the kind the
question's interrogative asks for, the answer types of open-domain question answering (Li and
Roth, "Learning Question Classifiers", COLING 2002: a person for *who*, a number or a date for
*how many* / *when*, a place or a named entity for *where* / *which* / *what is the <name-like
noun>*, yes or no for a question that opens with its verb):

| the question opens with | an answer of its kind |
| --- | --- |
| *who*, *whom*, *whose* | a name: a capitalised word that is not only the sentence's first |
| *how many / much / old / long / far / big / tall / often*, *what year / time / date / percentage*, *when*, *in what year*, *what is the* + a measure (boiling point, population, price, port...) | a number, in digits or words, or a date |
| *where*, *which*, *what is the* + a name-like noun (capital, name, title, author...) | a name, one leading capitalised word closed by punctuation ("Mars, because ..."), or one that opens a sentence sharing a word with the question ("Canberra is the capital.") |
| *is / are / does / do / can / will / was / were / has / have / should* | yes or no, first |

"Bananas are rich in potassium." to the capital question is not of its kind: its one
capitalised word only opens the sentence and runs on into prose. English questions only: in
another language the lexical relevance stands. Pure: stdlib only.
"""

from __future__ import annotations

import re

__all__ = ["SHORT_WORDS", "answers_in_kind"]

SHORT_WORDS = 12
"""Answers of fewer words are read by kind; longer ones are expected to name their subject."""

_WHO = re.compile(r"^\s*(?:who|whom|whose)\b", re.IGNORECASE)
_NUMBER_Q = re.compile(
    r"^\s*(?:how\s+(?:many|much|old|long|far|big|tall|often|high|deep|large|fast)"
    r"|(?:in\s+)?what\s+(?:year|time|date|percentage|age|century|decade)|when)\b",
    re.IGNORECASE,
)
_MEASURE_Q = re.compile(
    r"^\s*(?:what|what's)\s+(?:is|was|are|were)?\s*(?:the\s+)?(?:default\s+)?(?:boiling\s+point"
    r"|melting\s+point|freezing\s+point|temperature|population|height|length|distance|speed|price"
    r"|cost|value|number|port|size|weight|area|depth|age|square\s+root|sum|product|result|total"
    r"|average|mean|median|percentage|rate|version)\b",
    re.IGNORECASE,
)
_NAME_Q = re.compile(
    r"^\s*(?:where|which|(?:what|what's)\s+(?:is|was|are|were)?\s*(?:the\s+)?(?:capital|name|title"
    r"|author|currency|language|largest|smallest|highest|longest|tallest|biggest|official|chemical"
    r"\s+symbol|symbol|national))\b",
    re.IGNORECASE,
)
_YES_NO_Q = re.compile(
    r"^\s*(?:is|are|does|do|did|can|could|will|would|was|were|has|have|had|should|shall|may)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty"
    r"|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|half|once|twice)\b",
    re.IGNORECASE,
)
_YES_NO = re.compile(r"^\W*(?:yes|no|yeah|nope|not\s+really|correct|incorrect)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_LEADING_NAME = re.compile(r"^\W*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}\s*(?:[,.;:!\u2014-]|$)")


def answers_in_kind(question: str, answer: str) -> bool:
    """Whether ``answer`` is a short answer of the kind ``question`` asks for (the module's table).

    Args:
        question: The user's request or turn.
        answer: The deliverable's text.

    Returns:
        True for an answer under ``SHORT_WORDS`` words whose form fits the question's
        interrogative; False for a longer answer, a question this module does not read, or an
        answer of another kind. Never raises.
    """
    words = _WORD.findall(answer)
    if not answer.strip() or len(words) >= SHORT_WORDS:
        return False
    if _WHO.match(question):
        return _names(answer, words)
    if _NUMBER_Q.match(question) or _MEASURE_Q.match(question):
        return _NUMBER.search(answer) is not None
    if _NAME_Q.match(question):
        return (
            _names(answer, words)
            or _LEADING_NAME.match(answer) is not None
            # "Canberra is the capital.": a name that opens a sentence about the question's subject
            or (words[0][:1].isupper() and bool(_content(question) & _content(answer)))
        )
    if _YES_NO_Q.match(question):
        return _YES_NO.match(answer) is not None
    return False


def _content(text: str) -> set[str]:
    """Words of four or more letters, lower-cased: enough to tell a shared subject."""
    return {w.casefold() for w in _WORD.findall(text) if len(w) >= 4}


def _names(answer: str, words: list[str]) -> bool:
    """A capitalised word past the first, or an answer that is only a name ("Jane Austen.")."""
    if any(w[:1].isupper() for w in words[1:]):
        return True
    return _LEADING_NAME.match(answer) is not None and len(words) <= 4
