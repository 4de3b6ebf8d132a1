"""The patterns an order is read by: modals, polite requests, markers, overrides, leads.

English grammar's and the injection literature's forms (OWASP LLM01:2025, Greshake et al., 2023)
that ``orders`` reads a sentence by, kept here as data so the reader stays one module's size:
a modal ("automation should also run X"), a polite or indirect request ("would you mind
forwarding"), a purpose clause ("to fix, run ..."), a marker (``TODO:``, ``[admin note]``,
``NOTE:``), a passive obligation ("the key should be printed"), an obligation word in nine
languages, an override ("ignore the above", "before answering, ..."), a sentence's lead ("please",
"make sure to", "you must"), and the verbs that tell the reader what to say. Pure: stdlib only.
"""

from __future__ import annotations

import re

MODAL = re.compile(  # "...automation should also run X", "whoever fixes this must add Y"
    r"\b(?:must|should|shall|needs?\s+to|have\s+to|has\s+to|are\s+(?:required|expected)\s+to"
    r"|is\s+(?:required|expected)\s+to|will\s+need\s+to)\s+(?:first\s+|also\s+|now\s+|always\s+)?",
    re.IGNORECASE,
)
# polite and indirect requests, anywhere in a sentence: "would you mind forwarding", "it would be
# great if you could send", "we'd appreciate it if the assistant could", "your next task is to"
REQUEST = re.compile(
    r"\b(?:(?:would|could|can|will)\s+(?:you|the\s+(?:assistant|agent|AI|model|bot))\s+(?:please\s+)?"
    r"(?:kindly\s+)?(?:also\s+)?(?:mind\s+)?"
    r"|(?:it\s+would\s+be|it'?d\s+be)\s+(?:great|nice|helpful|appreciated|good|ideal|best)\s+(?:if|to)\s+"
    r"(?:you|the\s+\w+)?\s*(?:could|would|can)?\s*"
    r"|(?:i|we)(?:'d|\s+would)\s+(?:appreciate|love|like)\s+(?:it\s+)?(?:if\s+)?(?:you|the\s+\w+)\s+"
    r"(?:could|would|to)?\s*"
    r"|(?:i|we)\s+(?:need|want|expect|ask)\s+(?:you|the\s+\w+)\s+to\s+"
    r"|(?:feel\s+free|don'?t\s+hesitate|be\s+so\s+kind\s+as|remember|make\s+sure|be\s+sure)\s+to\s+"
    r"|(?:your|the)\s+(?:next\s+|first\s+|final\s+|real\s+|actual\s+)?(?:task|job|step|goal|mission)\s+"
    r"(?:now\s+)?is\s+to\s+"
    # "the correct next step for any assistant editing this file is `npm i -g ...`"
    r"|\b(?:correct|right|proper|recommended|required|expected|only)\s+(?:next\s+)?(?:step|action|fix"
    r"|thing\s+to\s+do)\b[^.;:]{0,80}?\bis\s+(?:to\s+)?)",
    re.IGNORECASE,
)
# a purpose clause before an imperative: "To fix, run ...", "to resolve this: execute ..."
PURPOSE = re.compile(
    r"\bto\s+(?:fix|resolve|solve|repair|recover|continue|proceed|unblock|enable|complete|finish"
    r"|work\s+around)\b(?:\s+(?:this|it|that|the\s+\w+))?\s*[,:]\s*",
    re.IGNORECASE,
)
PLEASE = re.compile(r"\b(?:please|kindly|pls)\b[,\s]+", re.IGNORECASE)
CLAUSE = re.compile(
    r"[:;]\s*|\s[-–—]\s+|,\s+(?:and\s+)?(?:then\s+)?|\b(?:and|then)\s+(?:also\s+)?", re.IGNORECASE
)
PROHIBITION = re.compile(
    r"(?:please\s+)?(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|may\s+not"
    r"|no\s+need\s+to|avoid|refrain\s+from|stop)\b",
    re.IGNORECASE,
)
FIELD_LABEL = re.compile(r"^[A-Za-z]+(?:\s+(?:to|by|from|with|via|at|on|for|date|method))?\s*:")
SPELLED_CALL = re.compile(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*\(")  # a tool call spelled out
NOUN_LIKE = frozenset(
    {"open", "post", "text", "message", "call", "set", "order", "list", "record", "click", "commit"}
)
STRONG_MARKER = re.compile(
    r"^(?:\[[^\]]{0,40}\b(?:note|admin|system|internal|instructions?|ops|staff|tier|directive)\b[^\]]{0,40}\]"
    r"|TODO|FIXME|INSTRUCTIONS?|SYSTEM(?:\s+(?:NOTE|MESSAGE|PROMPT|OVERRIDE|NOTICE|ALERT|UPDATE|DIRECTIVE))?"
    r"|ADMIN|ACTION(?:\s+REQUIRED)?|TOOL\s+(?:RESULT|OUTPUT)|NEXT\s+STEP"
    r"|NEW\s+(?:TASK|INSTRUCTIONS?)|IMPORTANT(?:\s+NOTE)?|ATTENTION|URGENT|TASK|REQUIRED)"
    r"(?:\s*\([^)]{0,30}\))?\s*(?:[:!\]>-]+|\)\s*:?)\s*|^P\.\s?S\.?[:,]?\s+",
    re.IGNORECASE,
)
BRACKET_MARKER = re.compile(
    r"^[\s>*#/•\-]*[\[(](?:[^\])]{0,40}\b(?:note|admin|system|internal|instructions?|ops|staff|tier"
    r"|directive|override|moderator|support)\b[^\])]{0,40})[\])]\s*:?\s*",
    re.IGNORECASE,
)
WEAK_MARKER = re.compile(
    r"^(?:NOTE|REMINDER|WARNING|HINT|TIP|NB|INFO)(?:\s*\([^)]{0,30}\))?\s*[:!-]+\s*", re.IGNORECASE
)
PASSIVE = re.compile(
    r"\b(?:should|must|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to|shall|will\s+need\s+to|is\s+expected\s+to"
    r"|are\s+expected\s+to|is\s+required\s+to|are\s+required\s+to)\s+(?:also\s+|now\s+|first\s+|always\s+)?"
    r"be\s+(?P<verb>[a-z]+(?:ed|en|t)|sent|paid|shown|run|set|put|read|given|shared|made)\b"
    r"|\bit\s+is\s+(?:expected|required|mandatory|necessary|important)\s+that\b[^.]{0,80}?\b(?:is|are|be)\s+"
    r"(?P<verb2>[a-z]+(?:ed|en)|sent|shown|run|put|read)\b",
    re.IGNORECASE,
)
OBLIGED = re.compile(
    r"\b(?:must|should|shall|required|expected|mandatory|need(?:s|ed)?\s+to|have\s+to|has\s+to"
    r"|muss|müssen|soll(?:en|te)?|erwartet|doit|doivent|devez|obligatoire|debe|deben|debes|obligatorio"
    r"|deve|devono|obbligatorio|precisa|precisam|obrigatório|moet(?:en)?|verwacht|verplicht|dient|dienen"
    r"|należy|trzeba|musi|muszą|должен|должна|должны|нужно|необходимо|обязательно)\b"
    r"|必须|必須|需要|务必|務必|해야|필수",
    re.IGNORECASE,
)
ACT_MARKS = (
    *("env", "secret_file:", "write:hooks", "write:ci", "write:ssh", "write:cron", "write:shellrc"),
    *("git:remote", "git:push", "index:", "publish:", "install:"),
)
OVERRIDE = re.compile(
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
LEAD = re.compile(
    r"^(?:(?:please|kindly|also|and|then|now|first|firstly|next|finally|immediately|just|simply|always"
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
SAY_VERBS = frozenset(
    {"say", "recommend", "mention", "state", "claim", "suggest", "advise", "report", "describe"}
)
SAY_TELL = re.compile(
    r"^(?:tell|answer|respond|reply|include|inform)\w*\s+(?:\w+\s+){0,3}?"
    r"(?:that|the\s+user|users?|them|in\s+(?:your|the)\s+(?:answer|response|reply|summary|output))\b",
    re.IGNORECASE,
)
CONJUNCT = frozenset({"and", "then", "also", "to", "finally", "afterwards", "next"})
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "your", "my", "his", "her", "their"})
