"""Whether a tool call changes something: the one answer the deed checks share.

A registered tool's declared permission wins; a call whose arguments hold a statement that
changes a database (``UPDATE``, ``INSERT``, ``GRANT``...) changes it, whatever the tool that runs
it is called (``sql_db_query``); otherwise the permission the tool gate infers from the tool's
name and arguments (``toolgate.spec.infer_permission``: a name that only reads, ``read_file``,
``search_logs``, is READ). Used by ``order_flow`` (which calls can carry out an order) and
``acts`` (which calls can weaken security). ``tool_classes`` says what act a tool's name does
(``send_email``: send; ``outlook__move_message``: move, an update, not a send). Pure: the core only; the tool gate's modules are
imported on first use, so ``qgs scan``'s start-up does not load them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from qgs_worker.core.models import Permission, ToolCall

if TYPE_CHECKING:
    from qgs_worker.core.toolgate.registry import ToolRegistry

__all__ = ["has_side_effect", "tool_classes"]

# a statement that changes a database, whatever the tool that runs it is called (``sql_db_query``)
_SQL_WRITE = re.compile(
    r"(?:^|;)\s*(?:UPDATE|INSERT|DELETE|DROP|ALTER|GRANT|REVOKE|TRUNCATE|MERGE|UPSERT"
    r"|CREATE\s+(?!TEMP))\b",
    re.IGNORECASE,
)


def has_side_effect(call: ToolCall, registry: ToolRegistry | None = None) -> bool:
    """Whether ``call`` changes something (writes, deletes, runs), not only reads.

    Args:
        call: The tool call.
        registry: Registered tools: a declared permission wins over the inferred one.

    Returns:
        False for a READ permission (declared, or inferred from the name and the argument
        names), True otherwise. Never raises.
    """
    spec = registry.get(call.name) if registry is not None else None
    if spec is not None:
        return spec.permission is not Permission.READ
    if any(_SQL_WRITE.search(v) for _, v in call.argument_values()):
        return True
    return _inferred(call.name, tuple(sorted(call.arguments))) is not Permission.READ


@lru_cache(maxsize=1024)  # a few tool names and argument sets, read on every round
def _inferred(name: str, keys: tuple[str, ...]) -> Permission:
    from qgs_worker.core.toolgate.kinds import infer_kinds
    from qgs_worker.core.toolgate.spec import infer_permission

    shape = {"properties": {k: {"type": "string"} for k in keys}}
    return infer_permission(name, infer_kinds(shape, tool_name=name))


def tool_classes(call: ToolCall) -> tuple[frozenset[str], frozenset[str]]:
    """A tool name's action classes (``order_words.CLASS_VERBS``) and object groups.

    The verb is the first verb-like word of the name's last dotted part (``email.delete``:
    delete; ``send_email``: send), a word that is not also an object noun first (``email``,
    ``message``, ``post`` name things as often as acts); a noun only in its base form
    (``message_landlord`` messages, ``wallet__contacts`` lists contacts). A name whose objects
    are money pays.

    Returns:
        ``(classes, objects)``; both empty for a name with no verb or object. Never raises.
    """
    return _tool_classes(call.name)


@lru_cache(maxsize=1024)  # a few tool names, read on every round
def _tool_classes(name: str) -> tuple[frozenset[str], frozenset[str]]:
    from qgs_worker.core.filewrites import tool_words
    from qgs_worker.core.order_words import (
        OBJECT_GROUPS,
        imperative_classes,
        objects_of_words,
        verb_classes,
    )

    def is_noun(word: str) -> bool:
        return any(word in nouns for nouns in OBJECT_GROUPS.values())

    words = sorted(tool_words(name), key=name.casefold().find)
    last = [w for w in words if w in tool_words(name.rsplit(".", 1)[-1])] or words
    verbs = [w for w in last if not is_noun(w)]
    nouns = [w for w in last if is_noun(w)]
    classes: frozenset[str] = frozenset()
    for word in verbs:
        classes = verb_classes(word)
        if classes:
            break
    else:
        classes = next((imperative_classes(w) for w in nouns if imperative_classes(w)), frozenset())
    objects = objects_of_words(words)
    if "money" in objects:
        classes |= {"pay"}
    return classes, objects
