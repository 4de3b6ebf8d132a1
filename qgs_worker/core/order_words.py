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
    "FOREIGN_ADDRESSEE",
    "FOREIGN_POLITE",
    "OBJECT_GROUPS",
    "classes_of_words",
    "foreign_classes",
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
CLASS_VERBS["update"] |= {"turn", "toggle", "configure", "rotate", "mark", "approve", "assign"}
CLASS_VERBS["book"] |= {"checkout"}

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


# Orders in other languages: imperative and infinitive forms of the classes' main verbs in
# German, French, Spanish, Italian and Portuguese (standard grammar references: the imperative
# (du/ihr/Sie; tu/vous; tú/usted; tu/Lei; tu/você) and the infinitive that polite requests
# take: "bitte ... senden", "veuillez envoyer", "por favor enviar"), and the addressees.
_FOREIGN: dict[str, str] = {
    # send
    **dict.fromkeys(
        ["sende", "senden", "schicke", "schicken", "schickt", "sendet", "leite", "leiten", "weiterleiten", "antworte", "antworten", "envoie", "envoyez", "envoyer", "transmets", "transmettez", "transmettre", "réponds", "répondez", "répondre", "transfère", "transférez", "transférer", "envía", "envíe", "enviar", "envia", "reenvía", "reenvíe", "reenviar", "responde", "responda", "responder", "invia", "inviate", "inviare", "inoltra", "inoltrate", "inoltrare", "rispondi", "rispondete", "rispondere", "envie", "enviem", "encaminhe", "encaminha", "encaminhar", "responda"],
        "send",
    ),
    # pay
    **dict.fromkeys(
        ["überweise", "überweisen", "zahle", "zahlen", "bezahle", "bezahlen", "paie", "payez", "payer", "virement", "vire", "virez", "virer", "paga", "pague", "pagar", "transfiere", "transfiera", "transferir", "paghi", "pagate", "pagare", "bonifica", "trasferisci", "trasferire", "transfira", "transferir"],
        "pay",
    ),
    # remove
    **dict.fromkeys(
        ["lösche", "löschen", "entferne", "entfernen", "supprime", "supprimez", "supprimer", "efface", "effacez", "effacer", "elimina", "elimine", "eliminar", "borra", "borre", "borrar", "cancella", "cancellate", "cancellare", "eliminare", "exclua", "excluir", "apague", "apagar", "remova", "remover"],
        "remove",
    ),
    # run
    **dict.fromkeys(
        ["führe", "ausführen", "starte", "starten", "exécute", "exécutez", "exécuter", "lance", "lancez", "lancer", "ejecuta", "ejecute", "ejecutar", "esegui", "eseguite", "eseguire", "execute", "executar", "rode", "rodar"],
        "run",
    ),
    # install
    **dict.fromkeys(
        ["installiere", "installieren", "installe", "installez", "installer", "instala", "instale", "instalar", "installa", "installate", "installare"],
        "install",
    ),
    # share, invite, book, create, reveal, say
    **dict.fromkeys(
        ["teile", "teilen", "partage", "partagez", "partager", "comparte", "comparta", "compartir", "condividi", "condividere", "compartilhe", "compartilhar"],
        "share",
    ),
    **dict.fromkeys(
        ["lade", "einladen", "invite", "invitez", "inviter", "invita", "invite", "invitar", "invitate", "invitare", "convide", "convidar"],
        "invite",
    ),
    **dict.fromkeys(
        ["buche", "buchen", "reserviere", "reservieren", "réserve", "réservez", "réserver", "reserva", "reserve", "reservar", "prenota", "prenotate", "prenotare"],
        "book",
    ),
    **dict.fromkeys(
        ["erstelle", "erstellen", "crée", "créez", "créer", "crea", "cree", "crear", "creare", "crie", "criar"], "create"
    ),
    **dict.fromkeys(
        ["zeige", "zeigen", "gib", "ausgeben", "affiche", "affichez", "afficher", "imprime", "imprimez", "muestra", "muestre", "mostrar", "imprimir", "mostra", "mostrate", "stampa", "stampare", "mostre"],
        "reveal",
    ),
    **dict.fromkeys(
        ["sage", "sagen", "empfiehl", "empfehlen", "dis", "dites", "dire", "recommande", "recommandez", "recommander", "di", "diga", "decir", "recomienda", "recomiende", "recomendar", "dì", "dite", "dire", "consiglia", "consigliate", "consigliare", "diga", "dizer", "recomende", "recomendar"],
        "say",
    ),
}
_FOREIGN.update(
    dict.fromkeys(
        ["publica", "publique", "publicar", "publie", "publiez", "publier", "pubblica", "pubblicate", "pubblicare", "veröffentliche", "veröffentlichen", "poste", "posten"],
        "send",
    )
)
_FOREIGN.update(
    dict.fromkeys(
        ["ajoute", "ajoutez", "ajouter", "añade", "añada", "añadir", "agrega", "agregue", "agregar", "aggiungi", "aggiungete", "aggiungere", "adicione", "adicionar", "füge", "hinzufügen"],
        "create",
    )
)
_FOREIGN.update(
    dict.fromkeys(
        ["ändere", "ändern", "aktualisiere", "aktualisieren", "change", "changez", "changer", "modifie", "modifiez", "modifier", "cambia", "cambie", "cambiar", "modifica", "modifique", "modificar", "actualiza", "actualice", "actualizar", "aggiorna", "aggiornate", "aggiornare", "altere", "alterar", "atualize", "atualizar"],
        "update",
    )
)
_FOREIGN.update(  # Russian imperatives (ты/вы)
    {
        **dict.fromkeys("отправь отправьте перешли перешлите напиши напишите".split(), "send"),  # noqa: SIM905
        **dict.fromkeys("переведи переведите оплати оплатите".split(), "pay"),  # noqa: SIM905
        **dict.fromkeys("удали удалите".split(), "remove"),  # noqa: SIM905
        **dict.fromkeys(
            "добавь добавьте создай создайте zet maak voeg".split(), "create"  # noqa: SIM905
        ),
        **dict.fromkeys("поделись поделитесь".split(), "share"),  # noqa: SIM905
        **dict.fromkeys("пригласи пригласите".split(), "invite"),  # noqa: SIM905
        **dict.fromkeys("измени измените".split(), "update"),  # noqa: SIM905
        **dict.fromkeys("забронируй забронируйте".split(), "book"),  # noqa: SIM905
        **dict.fromkeys("выполни выполните запусти запустите".split(), "run"),  # noqa: SIM905
        **dict.fromkeys("установи установите".split(), "install"),  # noqa: SIM905
        **dict.fromkeys("покажи покажите выведи выведите прочитай прочитайте".split(), "reveal"),  # noqa: SIM905
    }
)
_FOREIGN.update(  # Dutch and Polish imperatives, and Dutch participles of passive orders
    {
        **dict.fromkeys(
            ["stuur", "verstuur", "doorsturen", "stuurt", "verstuurd", "doorgestuurd", "wyślij", "prześlij", "przekaż", "wyślijcie"],
            "send",
        ),
        **dict.fromkeys("deel delen gedeeld udostępnij".split(), "share"),  # noqa: SIM905
        **dict.fromkeys("verwijder verwijderd usuń".split(), "remove"),  # noqa: SIM905
        **dict.fromkeys(
            "betaal betaald overmaken overgemaakt zapłać przelej opłać".split(), "pay"  # noqa: SIM905
        ),
        **dict.fromkeys(
            "voer uitgevoerd uruchom wykonaj".split(), "run"  # noqa: SIM905
        ),
        **dict.fromkeys("installeer geïnstalleerd zainstaluj".split(), "install"),  # noqa: SIM905
        **dict.fromkeys(
            "toon getoond print geprint pokaż wyświetl wypisz".split(), "reveal"  # noqa: SIM905
        ),
        **dict.fromkeys("nodig uitgenodigd zaproś".split(), "invite"),  # noqa: SIM905
        **dict.fromkeys("boek reserveer geboekt zarezerwuj".split(), "book"),  # noqa: SIM905
        **dict.fromkeys("voeg toegevoegd dodaj utwórz".split(), "create"),  # noqa: SIM905
        **dict.fromkeys("wijzig verander gewijzigd zmień".split(), "update"),  # noqa: SIM905
    }
)
"""Foreign order verbs (the comment above) with their class."""

FOREIGN_POLITE = re.compile(
    r"\b(?:doit|doivent|devez|muss|müssen|soll|sollen|debe|deben|deve|devono|precisa|precisam"
    r"|graag|alstublieft|alsjeblieft|gelieve|a\.u\.b\.|moet(?:en)?|dient|dienen|proszę|prosimy"
    r"|należy|trzeba|musi|muszą|bitte|veuillez|merci\s+de|s'il\s+vous\s+pla[iî]t|por\s+favor|per\s+favore|favor\s+de"
    r"|pode|podes|puoi|può|könntest\s+du|können\s+sie|pourriez-vous|pourrais-tu|podría|podrías"
    r"|não\s+esqueça\s+de|n'oubliez\s+pas\s+de|vergiss\s+nicht|no\s+olvides|non\s+dimenticare\s+di)\b",
    re.IGNORECASE,
)
"""Polite request words of those languages: a foreign verb after one of them is an order."""

FOREIGN_ADDRESSEE = re.compile(
    r"(?:AI|ＡＩ|人工知能|アシスタント|エージェント|助手|助理|智能体|ИИ)\s*(?:へ|に|は|さん|様|-?ассистент\w*)?\s*[:：、,]"
    r"|(?<!\w)(?:ассистент\w*|ии-агент\w*|нейросеть)\b"
    r"|\b(?:KI|IA|A\.I\.)(?:[\s-]+(?:Agent(?:en)?|Assistent(?:in|en)?|agent|assistant|agente|asistente"
    r"|assistente))?\b|\b(?:Assistent(?:in)?|l'assistant|asistente|assistente|agente\s+(?:de\s+)?IA"
    r"|asystent\w*|assistent|AI-assistent|assistants|les\s+agents|los\s+agentes|gli\s+agenti)\b"
    r"|\basystenci\w*\b|(?<!\w)asystencie\b"
    r"|(?:어시스턴트|에이전트|비서|인공지능|AI)\s*(?:에게|님|는|은)?\s*[:：,]",
    re.IGNORECASE,
)
"""Addressees in those languages (die KI, l'IA, la IA, l'assistente...)."""


def foreign_classes(word: str) -> frozenset[str]:
    """The class of a foreign order verb (``überweise`` -> {pay}); empty when none."""
    found = _FOREIGN.get(word.casefold())
    return frozenset({found}) if found else frozenset()
