"""Audit roles: the built-in ones and any another package registers (issue 4).

A role is any object with ``name``, ``task_types`` and ``audit(context, session)`` (the
``qgs_worker.core.discriminator.Role`` protocol). Packages register roles in the ``qgs.roles``
entry-point group; the value is a class or factory called with the role's options as keyword
arguments (``QGS_DISCRIMINATOR__ROLE_OPTIONS``)::

    [project.entry-points."qgs.roles"]
    performance_reviewer = "my_pkg.roles:PerformanceReviewer"

QGS's own roles are registered the same way in its ``pyproject.toml``.

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``core``, ``errors``. Imported by: ``config``, ``queue``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from qgs_worker.core.discriminator import (
    ALL_TASK_TYPES,
    AuditContext,
    Role,
    RoleUnavailableError,
)
from qgs_worker.core.models import Finding
from qgs_worker.core.ports import AuditSession
from qgs_worker.errors import ConfigurationError

ENTRY_POINT_GROUP = "qgs.roles"


def registered_roles() -> dict[str, EntryPoint]:
    """The roles installed in this environment, by name (the entry points, not yet loaded)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def load_roles(
    names: Sequence[str] = (), options: Mapping[str, Mapping[str, Any]] | None = None
) -> list[Role]:
    """Load and build the audit roles, in order.

    Args:
        names: The roles to run, in this order; empty for every registered role (sorted by name,
            so the order is stable).
        options: Keyword arguments per role name, e.g. ``{"reality_checker": {"memory_mb": 256}}``.

    Returns:
        The roles. A registered role that fails to load or build is replaced by a stand-in that
        reports ``role failed`` with the reason on every audit (the other roles still run).

    Raises:
        ConfigurationError: A name in ``names`` is not registered (the message lists the ones
            that are).
    """
    available = registered_roles()
    chosen = list(names) or sorted(available)
    unknown = [n for n in chosen if n not in available]
    if unknown:
        raise ConfigurationError(
            f"'discriminator.roles' names unknown role(s) {', '.join(map(repr, unknown))}; "
            f"registered in the {ENTRY_POINT_GROUP!r} entry-point group: "
            f"{', '.join(sorted(available)) or 'none'}; fix QGS_DISCRIMINATOR__ROLES"
        )
    roles: list[Role] = []
    for name in chosen:
        kwargs = dict((options or {}).get(name, {}))
        try:
            role = available[name].load()(**kwargs)
        except Exception as exc:  # a broken plugin must not take the audit down
            roles.append(BrokenRole(name, f"could not be loaded: {type(exc).__name__}: {exc}"))
            continue
        if not isinstance(role, Role):
            roles.append(BrokenRole(name, f"{type(role).__name__} is not a Role"))
            continue
        roles.append(role)
    return roles


@dataclass
class BrokenRole:
    """Stands in for a role that failed to load: each audit reports why, as ``role failed``."""

    name: str
    reason: str
    task_types: frozenset[Any] = ALL_TASK_TYPES

    def audit(self, context: AuditContext, session: AuditSession | None) -> list[Finding]:
        """Always raises, so the session manager records ``role failed`` with the reason."""
        raise RoleUnavailableError(self.reason)
