"""The results store: SQLModel tables and an idempotent repository (SQLite default, PostgreSQL by URL).

Layer: an adapter. May import: ``service``, ``core``, ``errors`` and another adapter where no cycle
forms (today ``config``: the data folder). Imported by: the faces (``cli``, ``api``, ``client``),
``queue``, ``webhooks``.
"""

from qgs_worker.store.approvals import approval_view
from qgs_worker.store.base import utcnow
from qgs_worker.store.repository import Repository, as_utc, loads_list
from qgs_worker.store.tables import (
    ApprovalRow,
    AuditErrorRow,
    AuditRunRow,
    DeadLetterRow,
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    LeaseRow,
    OutboxRow,
    ReviewRow,
    RoundRow,
    TaskRow,
    ToolCallCheckRow,
)

__all__ = [
    "ApprovalRow",
    "AuditErrorRow",
    "AuditRunRow",
    "DeadLetterRow",
    "DecisionRow",
    "DimensionScoreRow",
    "FindingRow",
    "LeaseRow",
    "OutboxRow",
    "Repository",
    "ReviewRow",
    "RoundRow",
    "TaskRow",
    "ToolCallCheckRow",
    "approval_view",
    "as_utc",
    "loads_list",
    "utcnow",
]
