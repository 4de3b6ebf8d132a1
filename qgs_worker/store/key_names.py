"""The names an API key may carry: its principal (or operator), and the principals it ``sees``.

``store.keys.create_key`` checks every name here before it makes a key, so each refusal comes
before anything is stored and names the ``qgs keys create`` option the name came in:

- a name is 1-128 letters, digits or ``. _ @ : -`` (``check_principal``); ``all`` and ``*``
  are no principal's name: in ``--sees`` they mean every principal (``RESERVED``);
- a name is an agent's or a person's, never both (``check_kind``): a label is one person's,
  and Krippendorff's alpha counts people by name, so an agent and an operator of one name
  would be one rater;
- an operator's ``--sees`` names principals QGS knows: an agent key's or a task's
  (``check_sees``); a typo is refused with the close names, unless the caller says the
  principal does not exist yet (``allow_unknown``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from sqlalchemy import false, func
from sqlmodel import Session, col, select

from qgs_worker.errors import InputError
from qgs_worker.store.key_rows import PRINCIPAL_MAX_CHARS, ApiKeyRow, engine_of
from qgs_worker.store.tables import TaskRow

__all__ = ["ALL_PRINCIPALS", "RESERVED", "check_kind", "check_principal", "check_sees"]

ALL_PRINCIPALS = "*"
"""In an operator key's ``sees``: every principal, and tasks that belong to none."""

RESERVED = frozenset({"all", ALL_PRINCIPALS})
"""Words that mean every principal in ``--sees``, so no principal or operator may be named so."""

_PRINCIPAL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$")


def check_principal(name: str, option: str = "--principal") -> str:
    """The principal (or operator) name, checked.

    Args:
        name: The name given.
        option: The ``qgs keys create`` option it came in (``--principal``, ``--operator``,
            ``--sees``): the error names it.

    Raises:
        InputError: empty, over 128 characters, characters other than letters, digits and
            ``. _ @ : -`` (it appears in URLs of reports and in log lines), or ``all`` / ``*``.
    """
    if (name or "").strip().lower() in RESERVED and option != "--sees":
        raise InputError(
            f"'{option}' may not be {name!r}: 'all' (and '*') means every principal in --sees, "
            "so no principal or person may be named so: give the agent's or person's own name"
        )
    if not _PRINCIPAL.match(name or ""):
        raise InputError(
            f"'{option}' must be 1-{PRINCIPAL_MAX_CHARS} letters, digits or . _ @ : - , "
            f"starting with a letter or digit (got {name!r}): give the name without spaces"
        )
    return name


def check_kind(store: Any, name: str, *, operator: bool) -> None:
    """Refuse a name the other kind of key already has (an agent's for a person, or back).

    An operator's name is also refused when tasks belong to that principal (an agent's).

    Raises:
        InputError: the name is taken by the other kind; the message names the option.
    """
    with Session(engine_of(store)) as session:
        other = session.exec(
            select(func.count())
            .select_from(ApiKeyRow)
            .where(
                col(ApiKeyRow.principal) == name,
                (
                    func.coalesce(col(ApiKeyRow.operator), false()) == false()
                    if operator
                    else col(ApiKeyRow.operator).is_(True)
                ),
            )
        ).one()
        tasks = (
            session.exec(
                select(func.count()).select_from(TaskRow).where(col(TaskRow.principal) == name)
            ).one()
            if operator and not other
            else 0
        )
    if other or tasks:
        option, theirs = ("--operator", "an agent's") if operator else ("--principal", "a person's")
        what = f"{other} key(s)" if other else f"{tasks} task(s)"
        raise InputError(
            f"'{option}' {name!r} is already {theirs} name ({what}): an agent and a person of "
            "one name would be one rater in the spot-check figures; give another name "
            "(`qgs keys list` shows the names)"
        )


def check_sees(
    store: Any, sees: Iterable[str], *, operator: bool, allow_unknown: bool = False
) -> tuple[str, ...]:
    """An operator's principals, checked and sorted (``all`` is ``*``); () for an agent.

    Args:
        store: A ``Repository`` or an ``Engine``.
        sees: The names given (``--sees``, repeatable).
        operator: Whether the key is a person's (only theirs ``sees``).
        allow_unknown: Keep a name no agent key or task has yet (``--allow-unknown``).

    Raises:
        InputError: ``sees`` on an agent's key, an operator key that sees nobody, a malformed
            name, or (without ``allow_unknown``) a name QGS does not know, with the close ones.
    """
    given = tuple(sees)
    if not operator:
        if given:
            raise InputError(
                "'--sees' is for operator keys: an agent's key sees its own principal's tasks "
                "(make a person's key with `qgs keys create --operator NAME --sees PRINCIPAL`)"
            )
        return ()
    if not given:
        raise InputError(
            "an operator key must see some principals: pass --sees PRINCIPAL (repeatable) "
            "or --sees all (every task, those started in-process included)"
        )
    names = {ALL_PRINCIPALS if s.strip().lower() in RESERVED else s.strip() for s in given}
    if ALL_PRINCIPALS in names:
        return (ALL_PRINCIPALS,)
    checked = tuple(sorted(check_principal(n, "--sees") for n in names))
    if not allow_unknown:
        _refuse_unknown(store, checked)
    return checked


def _refuse_unknown(store: Any, names: tuple[str, ...]) -> None:
    """Refuse the first name no agent key and no task has, naming the close ones."""
    with Session(engine_of(store)) as session:
        agents = set(
            session.exec(
                select(ApiKeyRow.principal).where(col(ApiKeyRow.operator).is_not(True)).distinct()
            ).all()
        )
        missing = [n for n in names if n not in agents]
        if missing:
            found = session.exec(
                select(TaskRow.principal).where(col(TaskRow.principal).in_(missing)).distinct()
            ).all()
            missing = [n for n in missing if n not in set(found)]
        if not missing:
            return
        tasks = session.exec(
            select(TaskRow.principal).where(col(TaskRow.principal).is_not(None)).distinct()
        ).all()
    known = sorted(agents | {t for t in tasks if t})
    name = missing[0]
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = (
        f"did you mean {' or '.join(repr(c) for c in close)}? "
        if close
        else (f"the known ones are {', '.join(known[:10])}; " if known else "")
    )
    raise InputError(
        f"'--sees' names {name!r}, a principal no agent key or task has: {hint}pass "
        "--allow-unknown to keep it (a principal whose key is made later)"
    )
