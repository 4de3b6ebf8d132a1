"""The words of orders and deeds: action classes, their verbs, and the objects they act on.

An order in data ("Send the report to ...", "TODO: delete the old events") and a tool call
(``send_email``, ``delete_calendar_event``) are compared by what they *do*, not by their
wording: each is read into action classes (``send``, ``remove``, ``pay``...) and object groups
(``message``, ``event``, ``money``...). The user's own words are read the same way, so that
an action the user asked for (any inflection: "sent", "paying", "let her know") is the user's.

| class | verbs (base forms; inflections are derived) |
| --- | --- |
| ``send`` | send, email, mail, forward, reply, message, text, notify, post, tell, inform, contact, cc, dm, ping, alert, remind, let (know), write (to) |
| ``share`` | share, publish, expose, grant, give (access) |
| ``create`` | create, add, make, schedule, set up, organize, arrange, plan, register, insert, open, generate, draft, new |
| ``invite`` | invite, add, onboard, include |
| ``remove`` | delete, remove, erase, trash, purge, wipe, clear, drop, kick, cancel, revoke, unsubscribe, discard, destroy |
| ``pay`` | pay, transfer, wire, refund, deposit, remit, donate, tip, reimburse, settle, fund, send (money) |
| ``book`` | book, reserve, buy, purchase, order, rent, subscribe |
| ``update`` | update, change, modify, edit, set, rename, move, reschedule, replace, reset, adjust, amend, correct, fix, enable, disable, switch, increase, decrease, raise, lower |
| ``write`` | write, save, append, overwrite, store, commit, push, upload, paste, put, record, log, insert |
| ``run`` | run, execute, exec, launch, start, invoke, call, eval, source |
| ``install`` | install, upgrade, reinstall, setup |
| ``fetch`` | visit, fetch, download, browse, open, load, navigate, curl, wget, ping, go (to), access, retrieve |
| ``reveal`` | print, echo, show, display, output, dump, reveal, expose, leak, list, cat, read, check, verify, include, paste, copy, export, log |
| ``approve`` | approve, merge, accept, authorize |
| ``say`` | say, tell, recommend, mention, state, answer, respond, suggest, advise, claim, include, reply |

The classes were written from the field's action taxonomies (OWASP LLM06 "excessive agency",
AgentDojo's and InjecAgent's tool categories: messaging, calendar, files, money, bookings,
shell) and English grammar, not from any evaluation text. Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "CLASS_VERBS",
    "OBJECT_GROUPS",
    "classes_of_words",
    "imperative_classes",
    "objects_of_words",
    "verb_classes",
    "word_forms",
    "words_of",
]

CLASS_VERBS: dict[str, frozenset[str]] = {
    "send": frozenset(
        [
            "send",
            "email",
            "e-mail",
            "mail",
            "forward",
            "reply",
            "message",
            "text",
            "notify",
            "post",
            "tell",
            "inform",
            "contact",
            "cc",
            "dm",
            "ping",
            "alert",
            "remind",
            "write",
        ]
    ),
    "share": frozenset(["share", "publish", "expose", "grant"]),
    "create": frozenset(
        [
            "create",
            "add",
            "make",
            "schedule",
            "organize",
            "organise",
            "arrange",
            "plan",
            "register",
            "insert",
            "open",
            "generate",
            "draft",
            "setup",
        ]
    ),
    "invite": frozenset(["invite", "add", "onboard", "include"]),
    "remove": frozenset(
        [
            "delete",
            "remove",
            "erase",
            "trash",
            "purge",
            "wipe",
            "clear",
            "drop",
            "kick",
            "cancel",
            "revoke",
            "unsubscribe",
            "discard",
            "destroy",
            "ban",
        ]
    ),
    "pay": frozenset(
        [
            "pay",
            "transfer",
            "wire",
            "refund",
            "deposit",
            "remit",
            "donate",
            "tip",
            "reimburse",
            "settle",
            "fund",
        ]
    ),
    "book": frozenset(["book", "reserve", "buy", "purchase", "order", "rent", "subscribe"]),
    "update": frozenset(
        [
            "update",
            "change",
            "modify",
            "edit",
            "set",
            "rename",
            "move",
            "reschedule",
            "replace",
            "reset",
            "adjust",
            "amend",
            "correct",
            "fix",
            "enable",
            "disable",
            "switch",
            "increase",
            "decrease",
            "raise",
            "lower",
        ]
    ),
    "write": frozenset(
        [
            "write",
            "save",
            "append",
            "overwrite",
            "store",
            "commit",
            "push",
            "upload",
            "paste",
            "put",
            "record",
            "log",
            "insert",
            "add",
        ]
    ),
    "run": frozenset(
        ["run", "execute", "exec", "launch", "start", "invoke", "call", "eval", "source"]
    ),
    "install": frozenset(["install", "upgrade", "reinstall", "setup"]),
    "fetch": frozenset(
        [
            "visit",
            "fetch",
            "download",
            "browse",
            "open",
            "load",
            "navigate",
            "curl",
            "wget",
            "ping",
            "go",
            "access",
            "retrieve",
            "click",
        ]
    ),
    "reveal": frozenset(
        [
            "print",
            "echo",
            "show",
            "display",
            "output",
            "dump",
            "reveal",
            "expose",
            "leak",
            "list",
            "cat",
            "read",
            "check",
            "verify",
            "include",
            "paste",
            "copy",
            "export",
            "log",
        ]
    ),
    "say": frozenset(
        [
            "say",
            "tell",
            "recommend",
            "mention",
            "state",
            "answer",
            "respond",
            "suggest",
            "advise",
            "claim",
            "include",
            "reply",
        ]
    ),
}
"""Each action class with its verbs in base form (the module table)."""
CLASS_VERBS["send"] |= {"ship", "deliver", "attach"}
CLASS_VERBS["remove"] |= {"archive"}
CLASS_VERBS["send"] |= {"answer", "respond"}
CLASS_VERBS["say"] |= {"report", "describe", "present", "summarize", "summarise", "conclude"}
CLASS_VERBS["update"] |= {"turn", "toggle", "configure", "rotate", "mark", "assign", "bump"}
# approving is signing off someone else's request (an expense, a pull request, a payment), not
# changing data: "change the payee's account" is not carried out by approving the receipts
CLASS_VERBS["approve"] = frozenset(
    {"approve", "merge", "accept", "authorize", "authorise", "sign", "countersign", "esign"}
)
CLASS_VERBS["book"] |= {"checkout"}
# the verbs of tools' own names that the lists above lacked (a shipment rerouted, a ticket
# reassigned, a role elevated, a fee waived, a refund issued): an admin console's and a back
# office's vocabulary, read the same way as the others
CLASS_VERBS["update"] |= {
    *("reroute", "redirect", "reassign", "promote", "elevate", "downgrade", "extend", "renew"),
    *("restore", "reopen", "close", "pin", "unpin", "tag", "label", "relabel", "mute", "unmute"),
    *("override", "bypass", "escalate", "enroll", "enrol", "unlock", "unpause", "whitelist"),
    "allowlist",
}
CLASS_VERBS["pay"] |= {"waive", "credit", "issue", "void", "reimburse"}
CLASS_VERBS["send"] |= {"bcc"}
CLASS_VERBS["remove"] |= {"unpublish", "unsubscribe", "unenroll", "deactivate", "suspend"}

_IRREGULAR: dict[str, tuple[str, ...]] = {
    "send": ("sent",), "pay": ("paid",), "write": ("wrote", "written"), "run": ("ran",),
    "make": ("made",), "buy": ("bought",), "tell": ("told",), "say": ("said",),
    "set": ("set",), "put": ("put",), "read": ("read",), "give": ("gave", "given"),
    "go": ("went", "gone"), "setup": ("set up",), "rent": ("rented",),
}  # fmt: skip

OBJECT_GROUPS: dict[str, frozenset[str]] = {
    "message": frozenset(
        [
            "email",
            "emails",
            "mail",
            "mails",
            "message",
            "messages",
            "dm",
            "dms",
            "note",
            "notes",
            "text",
            "sms",
            "reply",
            "letter",
            "inbox",
            "chat",
            "post",
            "posts",
        ]
    ),
    "event": frozenset(
        [
            "event",
            "events",
            "meeting",
            "meetings",
            "appointment",
            "appointments",
            "calendar",
            "invite",
            "invitation",
            "call",
            "reminder",
            "reminders",
        ]
    ),
    "file": frozenset(
        [
            "file",
            "files",
            "document",
            "documents",
            "doc",
            "docs",
            "attachment",
            "attachments",
            "folder",
            "folders",
            "spreadsheet",
            "report",
            "drive",
            "sheet",
        ]
    ),
    "channel": frozenset(
        ["channel", "channels", "group", "groups", "workspace", "room", "rooms", "team"]
    ),
    "user": frozenset(
        [
            "user",
            "users",
            "member",
            "members",
            "person",
            "people",
            "contact",
            "contacts",
            "participant",
            "participants",
            "friend",
            "colleague",
            "account",
        ]
    ),
    "credential": frozenset(
        [
            "password",
            "passwords",
            "passcode",
            "credential",
            "credentials",
            "pin",
            "2fa",
            "mfa",
            "otp",
            "token",
            "tokens",
            "key",
            "keys",
            "secret",
            "secrets",
        ]
    ),
    "money": frozenset(
        [
            "money",
            "payment",
            "payments",
            "transaction",
            "transactions",
            "transfer",
            "transfers",
            "funds",
            "amount",
            "rent",
            "bill",
            "bills",
            "invoice",
            "salary",
            "subscription",
            "iban",
            "balance",
            "cash",
        ]
    ),
    "booking": frozenset(
        [
            "hotel",
            "hotels",
            "flight",
            "flights",
            "car",
            "cars",
            "restaurant",
            "restaurants",
            "table",
            "reservation",
            "reservations",
            "ticket",
            "tickets",
            "booking",
            "bookings",
            "order",
            "room",
        ]
    ),
    "web": frozenset(
        [
            "website",
            "websites",
            "webpage",
            "webpages",
            "page",
            "site",
            "link",
            "links",
            "url",
            "blog",
        ]
    ),
}
"""Object groups: the nouns that name what an action acts on (a tool's name, an order's words)."""

_WORD = re.compile(r"[^\W\d_][\w]*(?:-[^\W\d_]+)?")  # snake_case stays one word: no verb


def words_of(text: str) -> tuple[str, ...]:
    """Lower-case word tokens of a text (``e-mail`` kept whole, digits inside words kept)."""
    return tuple(_WORD.findall(text.casefold()))


@lru_cache(maxsize=1)
def _form_index() -> dict[str, frozenset[str]]:
    index: dict[str, set[str]] = {}
    for cls, verbs in CLASS_VERBS.items():
        for verb in verbs:
            for form in word_forms(verb):
                index.setdefault(form, set()).add(cls)
    return {form: frozenset(classes) for form, classes in index.items()}


def word_forms(verb: str) -> tuple[str, ...]:
    """A verb's forms: base, third person, past, participle (``copy`` -> copies, copied...)."""
    forms = {verb, *_IRREGULAR.get(verb, ())}
    if verb.endswith("e"):
        forms |= {verb + "s", verb + "d", verb[:-1] + "ing"}
    elif verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
    elif verb.endswith(("s", "sh", "ch", "x", "z")):
        forms |= {verb + "es", verb + "ed", verb + "ing"}
    else:
        forms |= {verb + "s", verb + "ed", verb + "ing"}
        if re.search(r"[^aeiou][aeiou][bdgmnprt]$", verb) and len(verb) <= 4:
            forms |= {verb + verb[-1] + "ed", verb + verb[-1] + "ing"}  # drop -> dropped
    return tuple(sorted(forms))


def verb_classes(word: str) -> frozenset[str]:
    """The action classes of one word in any form (``sent`` -> {send}); empty when none."""
    return _form_index().get(word, frozenset())


@lru_cache(maxsize=1)
def _base_index() -> dict[str, frozenset[str]]:
    index: dict[str, set[str]] = {}
    for cls, verbs in CLASS_VERBS.items():
        for verb in verbs:
            index.setdefault(verb, set()).add(cls)
    return {verb: frozenset(classes) for verb, classes in index.items()}


def imperative_classes(word: str) -> frozenset[str]:
    """The action classes of a verb in its base form only (an order's ``send``, not ``sent``)."""
    return _base_index().get(word, frozenset())


def classes_of_words(words: Iterable[str]) -> frozenset[str]:
    """The union of the action classes of ``words``."""
    found: set[str] = set()
    for word in words:
        found |= verb_classes(word)
    return frozenset(found)


def objects_of_words(words: Iterable[str]) -> frozenset[str]:
    """The object groups (``OBJECT_GROUPS``) that ``words`` name."""
    bag = set(words)
    return frozenset(group for group, nouns in OBJECT_GROUPS.items() if bag & nouns)
