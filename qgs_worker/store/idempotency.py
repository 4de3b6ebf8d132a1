"""Idempotency keys of the API's creating requests: one row per principal and key, kept a while.

A caller that sends ``Idempotency-Key`` on ``POST /v1/tasks`` or ``POST /v1/tasks/{id}/rounds``
may send the same request again (a timeout, a lost answer) and gets the same answer, with no
second task or round. The row keeps what the key was used for (``route``), a digest of the
request (``fingerprint``: the same key with another request is refused), the id of what it
made (``resource_id``, derived from the key and the request, so a retry makes the same id even
before the first answer was stored) and the answer once given (``response``, JSON). Keys are
scoped to the principal; a row older than the retention (``QGS_API__IDEMPOTENCY_TTL_S``) is
forgotten (deleted when its principal next claims a key).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Column, DateTime, Text, UniqueConstraint, delete, select, update
from sqlmodel import Field, Session, SQLModel

from qgs_worker.store.base import StoreBase, clean_row, dialect_insert
from qgs_worker.store.tables import utcnow

__all__ = ["IdempotencyClaim", "IdempotencyKeyRow", "IdempotencyStore"]


class IdempotencyKeyRow(SQLModel, table=True):
    """One principal's idempotency key: what it was used for, and the answer once given."""

    __tablename__ = "idempotency_key"
    __table_args__ = (
        UniqueConstraint("principal", "idem_key", name="uq_idempotency_principal_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    principal: str = Field(max_length=128)
    idem_key: str = Field(max_length=255)
    route: str = Field(max_length=128)
    fingerprint: str = Field(max_length=64)
    resource_id: str = Field(max_length=128)
    response: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )


@dataclass(frozen=True, slots=True)
class IdempotencyClaim:
    """A key as stored: what it was first used for, and the answer when one was given."""

    route: str
    fingerprint: str
    resource_id: str
    response: str | None
    created: bool
    """True when this claim stored the key (the first request with it)."""


_k = IdempotencyKeyRow.__table__  # type: ignore[attr-defined]


class IdempotencyStore(StoreBase):
    """Idempotency keys (a part of ``Repository``)."""

    def claim_idempotency(
        self,
        principal: str,
        key: str,
        *,
        route: str,
        fingerprint: str,
        resource_id: str,
        ttl_s: float,
    ) -> IdempotencyClaim:
        """The key's stored use, storing this one when the key is new (or its row expired).

        Args:
            principal: Whose key (keys are scoped to the principal).
            key: The ``Idempotency-Key`` as sent.
            route: What the request does (``POST /v1/tasks``).
            fingerprint: A digest of the request's content.
            resource_id: The id the request makes (derived from the key and the content).
            ttl_s: How long a key is kept, in seconds: an older row is forgotten first.

        Returns:
            The stored claim: compare its ``route`` and ``fingerprint`` with the request's.
        """
        now = utcnow()
        row = clean_row(
            {
                "principal": principal,
                "idem_key": key,
                "route": route,
                "fingerprint": fingerprint,
                "resource_id": resource_id,
                "created_at": now,
            }
        )
        with Session(self.engine) as session:
            session.execute(
                delete(_k).where(
                    _k.c.principal == row["principal"],
                    _k.c.created_at < now - timedelta(seconds=ttl_s),
                )
            )
            insert = dialect_insert(self.engine.dialect.name)
            inserted = session.execute(
                insert(_k).on_conflict_do_nothing().returning(_k.c.id), row
            ).scalar()
            stored = session.execute(
                select(_k).where(
                    _k.c.principal == row["principal"], _k.c.idem_key == row["idem_key"]
                )
            ).one()
            session.commit()
        return IdempotencyClaim(
            stored.route,
            stored.fingerprint,
            stored.resource_id,
            stored.response,
            created=inserted is not None,
        )

    def answer_idempotency(self, principal: str, key: str, response: str) -> None:
        """Keep the answer given to the key's request (what a retry gets back)."""
        with Session(self.engine) as session:
            session.execute(
                update(_k)
                .where(_k.c.principal == principal, _k.c.idem_key == key)
                .values(response=response)
            )
            session.commit()

    def release_idempotency(self, principal: str, key: str, fingerprint: str) -> None:
        """Forget a key whose request changed nothing (refused, or not queued): free to reuse."""
        with Session(self.engine) as session:
            session.execute(
                delete(_k).where(
                    _k.c.principal == principal,
                    _k.c.idem_key == key,
                    _k.c.fingerprint == fingerprint,
                    _k.c.response.is_(None),
                )
            )
            session.commit()
