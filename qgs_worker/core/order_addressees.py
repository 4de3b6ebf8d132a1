"""The agent named as the reader of a text: "Note to the assistant:", "@agent", "if you are an AI".

An order in data counts against the agent whatever its wording when it names the agent as its
reader (``orders``' addressed orders): a greeting or a heading ("Dear AI,", "Assistant:"), an
instruction marker for it ("Note to AI agents:", "hint for the bot"), a modal after it ("AI agents
must ..."), a condition ("if you are an LLM ...", "when summarising this, ..."), in English here
and in other languages through ``order_words_foreign`` (``FOREIGN_ADDRESSEE``, ``WORLD_ADDRESSEE``,
``conditional_addressee``). The forms are those OWASP LLM01:2025 and Greshake et al. (2023)
catalogue for indirect prompt injection, and ordinary English grammar. Pure: stdlib and the core.
"""

from __future__ import annotations

import re

from qgs_worker.core.order_words_foreign import (
    FOREIGN_ADDRESSEE,
    WORLD_ADDRESSEE,
    conditional_addressee,
)

__all__ = ["NAMED_KEY", "addressee", "addresses_agent"]

_AI_NAME = (
    r"(?:AI|A\.I\.|assistants?|LLMs?|copilot|claude|gpt[\w.-]*|chatgpt|gemini|llama"
    r"|(?:large\s+)?language\s+models?"
    r"|(?:automated|autonomous|ai|llm|agentic)[\s-]+[a-z]{3,}|(?:\w+\s+)?automations?"
    r"|coding[\s-]+(?:agents?|assistants?|tools?|bots?))"
)
_ANY_NAME = rf"(?:{_AI_NAME}|agents?|bots?)"  # "agents", "bots" alone only where a form says so
# greetings that open a vocative ("hey bot,"), in English and the languages that mix with it
# ("oye bot,", "bhai assistant,", "hola asistente,")
_GREETING = (
    r"(?:hey|hi|hello|ok|okay|dear|yo|oye|hola|hallo|hej|salut|ciao|oi|olá|ola|bhai|yaar|arre"
    r"|merhaba|selam|halo|hai|habari|jambo|chào|shalom|ahoj|moi|hei|szia|salam)"
)
_MODALS = (
    r"(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|(?:is|are)\s+(?:required|instructed|expected"
    r"|asked)\s+to|will\s+need\s+to|(?:is|are)\s+to|please)"
)
ADDRESSED = re.compile(
    rf"\b(?:dear|hey|hi|hello|attention|note\s+(?:to|for)|hint\s+for|message\s+(?:to|for)|instructions?\s+for)"
    rf"\s+(?:the\s+|all\s+|any\s+)?{_ANY_NAME}\b[^:.]{{0,40}}?[:,]?"
    rf"|@{_ANY_NAME}\b\s*:?"
    rf"|\b{_ANY_NAME}(?:[\s-]+(?:note|notice|hint|instructions?|action\s+required|only))?\s*(?::|\s[-–—]\s)"
    rf"|\b{_ANY_NAME}\s+\w+ing\b[^:.]{{0,60}}?(?::|\s{_MODALS}\b)"
    rf"|\b(?:the\s+|all\s+|any\s+|every\s+)?{_ANY_NAME}\s*,?\s*(?:reading\s+this\b[^.]*?)?"
    rf"(?:also\s+)?{_MODALS}\b"
    r"|\b(?:when|while|if|before|after)\s+(?:you\s+(?:are\s+)?)?(?:summari[sz]\w*|answering|responding|replying"
    r"|reviewing|reading|processing|describing|explaining|reporting|writing\s+(?:a|the|your)\s+\w+)"
    r"\b[^,:]{0,60}[,:]"
    rf"|\bif\s+you\s+(?:are|'re)\s+(?:an?\s+)?(?:[\w-]+\s+){{0,2}}{_ANY_NAME}\b[^,.]{{0,40}},?"
    rf"|\bby\s+(?:the\s+|an?\s+|any\s+)?{_AI_NAME}\b"
    r"|\b(?:note\s+(?:to|for)\s+)?(?:whoever|anyone\s+who|any\s+one\s+who)\s+\w+\b[^:.]{0,50}:"
    rf"|\bas\s+an?\s+{_AI_NAME}\b"
    rf"|\b(?:need|needs|want|wants|ask|asks|expect|expects|require|requires)\s+(?:the\s+|our\s+|your\s+)?"
    rf"{_ANY_NAME}\s+to\b"
    rf"|(?:^|[:;.!?(\[]\s*|\b{_GREETING}\s+)(?:the\s+)?{_ANY_NAME}\s*,"
    rf"|\bif\s+(?:an?\s+|any\s+|the\s+)?{_ANY_NAME}\s+(?:is\s+|are\s+)?(?:reading|processing|summari[sz]ing"
    r"|seeing|parsing|handling|reviewing|messaging|writing|replying|contacting|emailing|answering"
    r"|comparing|shopping|browsing|booking)\b[^:,.]{0,40}[:,]?"
    # the same in the simple present: "if an assistant summarises this message, it should ..."
    rf"|\bif\s+(?:an?\s+|any\s+|the\s+)?{_ANY_NAME}\s+(?:reads|processes|summari[sz]es|sees|parses"
    r"|handles|reviews|writes|replies|answers|compares|books|gets|receives|opens)\b[^:,.]{0,40},",
    re.IGNORECASE,
)
NAMED_KEY = re.compile(
    r"(?:agents?|bots?|assistants?|ai|llm|automation)[_\s-]*(?:directives?|instructions?|notes?|tasks?"
    r"|actions?|todos?|commands?|orders?|hints?|steps?|prompts?|messages?)\b|"
    rf"\b{_AI_NAME}\b|(?:^|[-_\s])(?:ai|llm|assistants?|ki|ia)(?=$|[-_\s:])"
    r"|\b(?:asistente|assistente|assistent(?:in)?|agente)\b",
    re.IGNORECASE,
)


def addressee(text: str) -> re.Match[str] | None:
    """Where ``text`` names the agent as its reader, in English or another language, or None."""
    return (
        ADDRESSED.search(text)
        or FOREIGN_ADDRESSEE.search(text)
        or WORLD_ADDRESSEE.search(text)
        or conditional_addressee(text)
    )


def addresses_agent(text: str) -> bool:
    """Whether ``text`` speaks to the agent ("Note to the assistant:", "Pokud jste AI agent")."""
    return addressee(text) is not None
