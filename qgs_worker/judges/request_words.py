r"""What a request asks, in words, and whether a piece of output touches it (the rules judge).

The rules judge's relevance, necessity and completeness checks compare the words of what the
user asked with the words of the deliverable. This module is that comparison, so that a reader
can see every way two words are taken to match.

*Words* are ``\w+`` runs, lower-cased, split at underscores (``create_wire_transfer`` is three
words); a CJK run is split into bigrams (or kept whole when it is one character). *Content
words* are words of 2+ characters that are not digits, stop words or instruction words
("write", "article", "please"...); a CJK bigram holding a function character (的, 了, 请...) is not
a content word.

Two words match when (first rule that holds):

| rule | example |
| --- | --- |
| equal | ``files`` / ``files`` |
| one is a prefix of the other, the shorter of 4+ characters | ``deploy`` / ``deployment`` |
| the same base form (below), of 3+ characters | ``removing`` / ``remove``, ``messages`` / ``message`` |
| an operation class holds both (below) | ``removing`` / ``delete``, ``display`` / ``show`` |

The *base form* strips one English inflection the way step 1 of the Porter stemmer does
(M. F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980: ``-sses``→``-ss``,
``-ies``→``-i``, ``-s``, and ``-ed``/``-ing`` after a vowel), then a doubled final consonant
(``stopped``→``stop``) and a final ``e``. Both words go through it, so only the agreement of
the two forms matters, not their spelling.

The *operation classes* are PowerShell's approved verbs (Microsoft, "Approved Verbs for
PowerShell Commands", PowerShell-Docs
``reference/docs-conceptual/developer/cmdlet/approved-verbs-for-windows-powershell-commands.md``):
each approved verb with the synonyms that page tells cmdlet authors not to use in its place
(Remove: "do not use verbs such as Clear, Cut, Dispose, Discard, or Erase"; its action reads
"Deletes a resource from a container", so ``delete`` is in the class too). A user who asks to
"remove" a message is answered by a ``delete_message`` call. Synonyms that are mostly nouns in
tool arguments and identifiers (``name``, ``type``, ``dir``, ``cat``, ``in``, ``out``,
``input``, ``output``, ``into``, ``object``, ``match``, ``release``) are left out: with them,
any call with a ``file_name`` argument would touch a request to "move" something.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType

__all__ = [
    "OPERATION_CLASSES",
    "Words",
    "base_form",
    "content_words",
    "matches",
    "tokens",
    "word_count",
    "word_runs",
    "words_of",
]

STOP_WORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have how i if in
    into is it its me my no not of on or our so than that the their them then there these they
    this to up us was we were what when where which who why will with would you your yours all
    any some also just very more most much many such only own same other each few both""".split()  # noqa: SIM905 - a word list reads best as text
)
INSTRUCTION_WORDS = frozenset(
    """write article essay post blog story report draft create make generate produce give tell
    show explain describe summarize summarise please help need want should about short long
    brief detailed good new answer question using use""".split()  # noqa: SIM905 - a word list reads best as text
)
CJK_FUNCTION_CHARS = frozenset("的了是在我你他她它们这那个一帮请把给和与及或吗呢吧啊篇于写")

WORD = re.compile(r"\w+", re.UNICODE)
CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD_PART = re.compile(r"[^\W_]+")
"""A ``WORD`` run's parts between underscores: ``tokens`` of a text without CJK characters."""

# In an ASCII text, WORD is [A-Za-z0-9_] and _WORD_PART [A-Za-z0-9]: with every other byte made a
# space, str.split finds the same runs in C, without findall's match object per run (~200 ns a
# word: most of the rules judge's word counting); with every word byte made "a", bytes.count
# counts the runs' starts.
_ASCII_WORD = bytes(
    ord("a") if c < 128 and (chr(c).isalnum() or c == ord("_")) else ord(" ") for c in range(256)
)
_ASCII_PART = bytes(c if c < 128 and chr(c).isalnum() else ord(" ") for c in range(256))

# Approved verb -> the synonyms its entry says not to use (PowerShell-Docs, see the docstring),
# verbatim except the left-out argument nouns. Verbs listed with no synonym are left out: a
# class of one word adds nothing to equality.
_APPROVED_VERB_SYNONYMS: dict[str, tuple[str, ...]] = {
    # Common verbs
    "add": ("append", "attach", "concatenate", "insert"),
    "clear": ("flush", "erase", "unmark", "unset", "nullify"),
    "copy": ("duplicate", "clone", "replicate", "sync"),
    "enter": ("push",),
    "exit": ("pop",),
    "get": ("read", "open", "obtain", "dump", "acquire", "examine", "find", "search"),
    "hide": ("block",),
    "join": ("combine", "unite", "connect", "associate"),
    "lock": ("restrict", "secure"),
    "move": ("transfer", "migrate"),
    "new": ("create", "generate", "build", "make", "allocate"),
    "remove": ("delete", "clear", "cut", "dispose", "discard", "erase"),
    "rename": ("change",),
    "search": ("find", "locate"),
    "select": ("find", "locate"),
    "set": ("write", "reset", "assign", "configure"),
    "show": ("display", "produce"),
    "skip": ("bypass", "jump"),
    "split": ("separate",),
    "unlock": ("unrestrict", "unsecure"),
    # Communications verbs
    "connect": ("join", "telnet"),
    "disconnect": ("break", "logoff"),
    "read": ("acquire", "prompt", "get"),
    "receive": ("read", "accept", "peek"),
    "send": ("put", "broadcast", "mail", "fax"),
    "write": ("put", "print"),
    # Data verbs
    "backup": ("save", "burn", "replicate", "sync"),
    "compress": ("compact",),
    "convert": ("change", "resize", "resample"),
    "dismount": ("unmount", "unlink"),
    "edit": ("change", "update", "modify"),
    "expand": ("explode", "uncompress"),
    "export": ("extract", "backup"),
    "group": ("aggregate", "arrange", "associate", "correlate"),
    "import": ("bulkload", "load"),
    "initialize": ("erase", "init", "renew", "rebuild", "reinitialize", "setup"),
    "merge": ("combine", "join"),
    "mount": ("connect",),
    "publish": ("deploy", "install"),
    "restore": ("repair", "return", "undo", "fix"),
    "sync": ("replicate", "coerce"),
    "unpublish": ("uninstall", "revert", "hide"),
    "update": ("refresh", "renew", "recalculate", "reindex"),
    # Diagnostic verbs
    "debug": ("diagnose",),
    "measure": ("calculate", "determine", "analyze"),
    "repair": ("fix", "restore"),
    "resolve": ("expand", "determine"),
    "test": ("diagnose", "analyze", "salvage", "verify"),
    "trace": ("track", "follow", "inspect", "dig"),
    # Lifecycle verbs
    "assert": ("certify",),
    "confirm": ("acknowledge", "agree", "certify", "validate", "verify"),
    "deny": ("block", "refuse", "reject"),
    "disable": ("halt", "hide"),
    "enable": ("start", "begin"),
    "install": ("setup",),
    "invoke": ("run", "start"),
    "restart": ("recycle",),
    "start": ("launch", "initiate", "boot"),
    "stop": ("end", "kill", "terminate", "cancel"),
    "submit": ("post",),
    "suspend": ("pause",),
    "unregister": ("remove",),
    "wait": ("sleep", "pause"),
    # Security verbs
    "block": ("prevent", "limit", "deny"),
    "grant": ("allow", "enable"),
    "protect": ("encrypt", "safeguard", "seal"),
    "revoke": ("remove", "disable"),
    "unblock": ("clear", "allow"),
    "unprotect": ("decrypt", "unseal"),
}

_VOWEL = re.compile(r"[aeiouy]")


@functools.lru_cache(maxsize=16_384)
def base_form(word: str) -> str:
    """``word`` without one English inflection (see the module docstring); others unchanged.

    Args:
        word: One lower-case word.

    Returns:
        The base form (``removing`` → ``remov``, ``messages`` → ``messag``); a word that is not
        ASCII letters, or is under 4 letters, comes back as it is.
    """
    if len(word) < 4 or not (word.isascii() and word.isalpha()):
        return word
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3 and _VOWEL.search(stem):
            word = stem
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # stopped -> stopp -> stop
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def _operation_index() -> dict[str, frozenset[str]]:
    classes: dict[str, set[str]] = {}
    for verb, synonyms in _APPROVED_VERB_SYNONYMS.items():
        for member in (verb, *synonyms):
            classes.setdefault(base_form(member), set()).add(verb)
    return {word: frozenset(verbs) for word, verbs in classes.items()}


OPERATION_CLASSES: dict[str, frozenset[str]] = _operation_index()
"""Base form of a word -> the approved verbs whose class holds it (see the module docstring)."""


def tokens(text: str) -> list[str]:
    """Lower-cased words; snake_case split into its parts; CJK runs become bigrams."""
    lowered = text.lower()
    if lowered.isascii():  # no CJK run: _WORD_PART's runs, found by str.split
        return lowered.encode("ascii").translate(_ASCII_PART).decode("ascii").split()
    found: list[str] = []
    for word in WORD.findall(lowered):
        runs = CJK_RUN.findall(word)
        if not runs:
            # snake_case names (tool names, identifiers) count as their words too
            found.extend(part for part in word.split("_") if part)
            continue
        found.extend(CJK_RUN.sub(" ", word).split())
        for run in runs:
            if len(run) == 1:
                found.append(run)
            found.extend(a + b for a, b in pairwise(run))
    return found


def word_runs(text: str) -> int:
    r"""How many ``\w+`` runs (``WORD``) ``text`` has: ``len(WORD.findall(text))``."""
    if text.isascii():
        return (b" " + text.encode("ascii")).translate(_ASCII_WORD).count(b" a")
    return len(WORD.findall(text))


def word_count(text: str) -> int:
    r"""``\w+`` runs outside CJK text, plus one word per two CJK characters (rounded half up)."""
    if text.isascii():
        return word_runs(text)
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    return len(WORD.findall(CJK_RUN.sub(" ", text))) + int(cjk / 2 + 0.5)


@functools.lru_cache(maxsize=16_384)
def _is_cjk(token: str) -> bool:
    return bool(CJK_RUN.fullmatch(token))


def content_words(text: str) -> list[str]:
    """Distinct content words of ``text``, in order of first appearance."""
    return list(_content_words(text))


@functools.lru_cache(maxsize=256)
def _content_words(text: str) -> tuple[str, ...]:
    """``content_words``, kept for the last texts: a task's request is read for every round."""
    seen: dict[str, None] = {}
    for token in tokens(text):
        if _is_cjk(token):
            if any(c in CJK_FUNCTION_CHARS for c in token):
                continue
        elif len(token) < 2 or token.isdigit() or token in STOP_WORDS or token in INSTRUCTION_WORDS:
            continue
        seen.setdefault(token, None)
    return tuple(seen)


@dataclass(frozen=True)
class Words:
    """The words of a piece of output, measured once for many ``matches`` calls."""

    tokens: frozenset[str]
    bases: frozenset[str]
    operations: frozenset[str]

    @functools.cached_property
    def by_prefix(self) -> Mapping[str, tuple[str, ...]]:
        """The tokens of 4+ characters under their first four, built on first use.

        The only tokens the prefix rule can match a word with: a scan of every token for each
        word was most of the rules judge's necessity check.
        """
        found: dict[str, list[str]] = {}
        for token in self.tokens:
            if len(token) >= 4:
                found.setdefault(token[:4], []).append(token)
        return MappingProxyType({head: tuple(same) for head, same in found.items()})


@functools.lru_cache(maxsize=64)
def words_of(text: str) -> Words:
    """The tokens of ``text`` with their base forms and operation classes.

    Kept for the last 64 texts (``Words`` is frozen): the rules judge reads one deliverable's
    words for completeness, relevance and necessity, and a task's tool calls recur by round.
    """
    found = frozenset(tokens(text))
    if text.isascii():  # no CJK token to leave out
        bases = frozenset(map(base_form, found))
    else:
        bases = frozenset(base_form(t) for t in found if not _is_cjk(t))
    operations = frozenset(verb for b in bases for verb in OPERATION_CLASSES.get(b, ()))
    return Words(found, bases, operations)


def matches(word: str, words: Words) -> bool:
    """Whether ``word`` (a content word of the request) matches a word of ``words``.

    The rules are the module docstring's table, tried in order.
    """
    if word in words.tokens:
        return True
    if _is_cjk(word):
        return False
    if len(word) >= 4 and any(
        s.startswith(word) or word.startswith(s) for s in words.by_prefix.get(word[:4], ())
    ):
        return True
    base = base_form(word)
    if len(base) >= 3 and base in words.bases:
        return True
    return bool(OPERATION_CLASSES.get(base, frozenset()) & words.operations)
