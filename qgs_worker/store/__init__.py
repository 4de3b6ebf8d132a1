"""The results store: SQLModel tables and an idempotent repository (SQLite default, PostgreSQL by URL)."""

from qgs_worker.store.repository import Repository, loads_list
from qgs_worker.store.tables import (
    AuditErrorRow,
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    ReviewRow,
    RoundRow,
    TaskRow,
)

__all__ = [
    "AuditErrorRow",
    "DecisionRow",
    "DimensionScoreRow",
    "FindingRow",
    "Repository",
    "ReviewRow",
    "RoundRow",
    "TaskRow",
    "loads_list",
]
