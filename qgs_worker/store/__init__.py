"""The results store: SQLModel tables and an idempotent repository (SQLite default, PostgreSQL by URL).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``config``, ``core``, ``errors``, ``service``. Imported by: ``api``, ``cli``, ``client``,
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
