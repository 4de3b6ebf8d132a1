"""The spot-check tables: the queue of decisions a person checks, their labels, shadow changes.

Idempotent by unique keys: ``spot_check (round_id, decision_id)`` (a redelivered decided
listener, or a person asking for a round already queued, finds the row there), and
``spot_check_label (spot_check_id, person)`` (one label per person per sampled decision).
``shadow_change`` is a history: the latest row of a ``(kind, name)`` is its state.
``spot_check_sampling`` records each decision's sampling decision (queued or not), keyed by the
decision: the sweeper samples the decided rounds without one, never one twice.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from qgs_worker.store.base import utcnow

__all__ = ["ShadowChangeRow", "SpotCheckLabelRow", "SpotCheckRow", "SpotCheckSamplingRow"]


class SpotCheckRow(SQLModel, table=True):
    """A decided round in the spot-check queue: sampled by the settings, or asked for.

    ``decision_id`` is the decision it was queued with: a round decided again (its decision
    deleted and made anew, ``qgs audit --retry-failed``) gets a new row when the new decision is sampled, and
    labels of the old one are refused.
    """

    __tablename__ = "spot_check"
    __table_args__ = (
        UniqueConstraint("round_id", "decision_id", name="uq_spot_check_round_decision"),
    )

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    decision_id: int
    submission_id: str = Field(max_length=128, index=True)
    task_id: str = Field(max_length=64, index=True)
    task_type: str = Field(max_length=32)
    decision: str = Field(max_length=32)
    reason: str = Field(max_length=16)  # sampled | asked
    asked_by: str | None = Field(default=None, max_length=128)
    note: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class SpotCheckSamplingRow(SQLModel, table=True):
    """A decision's sampling decision: made once, by the decided listener or the sweeper.

    ``sampled`` says whether the settings of the time queued it. A decision without a row was
    never given one (its listener was lost): the sweeper samples it.
    """

    __tablename__ = "spot_check_sampling"

    decision_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    round_id: int = Field(index=True)
    sampled: bool
    created_at: datetime = Field(default_factory=utcnow)


class SpotCheckLabelRow(SQLModel, table=True):
    """One person's label of a queued decision: right or not, the verdict and severities.

    ``by_person`` is true when a person recorded it (an operator key, ``qgs``'s own person),
    false for an agent's key labelling its own round: only people's labels move shadow
    states. NULL in a row stored before the column: the key's kind (``api_key.operator``) says.
    """

    __tablename__ = "spot_check_label"
    __table_args__ = (
        UniqueConstraint("spot_check_id", "person", name="uq_spot_check_label_person"),
    )

    id: int | None = Field(default=None, primary_key=True)
    spot_check_id: int = Field(foreign_key="spot_check.id", index=True)
    person: str = Field(max_length=128)
    key_id: str | None = Field(default=None, max_length=32)
    by_person: bool | None = Field(default=None, nullable=True)
    decision_correct: bool
    verdict: str = Field(max_length=32)
    severities: str = Field(default="{}", sa_column=Column(Text, nullable=False))  # JSON object
    note: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class ShadowChangeRow(SQLModel, table=True):
    """A change of a judge's or rule's shadow state: a person's decision, or QGS's own leave."""

    __tablename__ = "shadow_change"
    __table_args__ = (Index("ix_shadow_change_subject", "kind", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=16)  # judge | rule
    name: str = Field(max_length=128)
    in_shadow: bool
    by: str = Field(max_length=128)
    automatic: bool = False
    reason: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
