"""Shadow changes (a person's decision, or QGS's own leave) and the workers' cached read of them.

A part of ``SpotCheckStore`` (and so of ``Repository``): ``shadow_change`` is a history, the
latest row of a ``(kind, name)`` its state; ``ShadowReader`` is what the review service calls
before each decision.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import func, select
from sqlmodel import Session, col

from qgs_worker.core.spotcheck import Shadow, ShadowChange, ShadowPolicy, current_shadow
from qgs_worker.store.base import StoreBase, clean_row
from qgs_worker.store.spotcheck_rows import ShadowChangeRow

__all__ = ["ShadowReader", "ShadowStore"]


class ShadowStore(StoreBase):
    """The stored shadow changes."""

    def shadow_changes(self) -> dict[tuple[str, str], ShadowChange]:
        """The latest stored change of each judge and rule."""
        latest = (
            select(func.max(ShadowChangeRow.id))
            .group_by(col(ShadowChangeRow.kind), col(ShadowChangeRow.name))
            .scalar_subquery()
        )
        with Session(self.engine) as session:
            rows = session.execute(
                select(ShadowChangeRow).where(col(ShadowChangeRow.id).in_(latest))
            ).scalars()
            return {
                (r.kind, r.name): ShadowChange(
                    kind=r.kind,
                    name=r.name,
                    in_shadow=r.in_shadow,
                    by=r.by,
                    automatic=r.automatic,
                    reason=r.reason,
                )
                for r in rows
            }

    def add_shadow_change(self, change: ShadowChange) -> None:
        """Store a change of a subject's shadow state (the newest row is its state).

        Its text is cleaned (``clean_row``: a NUL, which PostgreSQL refuses, becomes U+FFFD).
        """
        values = clean_row(
            {
                "kind": change.kind,
                "name": change.name,
                "in_shadow": change.in_shadow,
                "by": change.by,
                "automatic": change.automatic,
                "reason": change.reason,
            }
        )
        with Session(self.engine) as session:
            session.add(ShadowChangeRow(**values))
            session.commit()


class ShadowReader:
    """What the gate holds back now, read from the store at most once per ``refresh_s``.

    The review service calls it before each decision (``ReviewService(shadow=...)``): the
    settings' subjects, less those that left shadow, plus what people put in (the stored
    changes). Thread-safe; a read that fails keeps the last state (and the caller logs it).

    Args:
        store: The store part with ``shadow_changes`` (a ``Repository``).
        policy: The shadow settings.
        refresh_s: How long a read is kept, in seconds.
        clock: Monotonic seconds (tests pass their own).
    """

    def __init__(
        self,
        store: ShadowStore,
        policy: ShadowPolicy,
        refresh_s: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._policy = policy
        self._refresh_s = refresh_s
        self._clock = clock
        self._lock = threading.Lock()
        self._shadow = Shadow()
        self._until: float | None = None

    def __call__(self) -> Shadow:
        """The current ``Shadow`` (cached up to ``refresh_s``)."""
        now = self._clock()
        if self._until is not None and now < self._until:
            return self._shadow
        with self._lock:
            if self._until is None or self._clock() >= self._until:
                self._shadow = current_shadow(self._policy, self._store.shadow_changes())
                self._until = self._clock() + self._refresh_s
            return self._shadow
