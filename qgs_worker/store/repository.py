"""The results store: idempotent writes and plain reads over the SQLModel tables.

Every write that a job makes is an insert that ignores a conflict on the table's unique key,
followed by a read of the row that is there: a redelivered job finds its own earlier row and
changes nothing. SQLite (WAL, busy timeout) is the embedded default; PostgreSQL by URL.
"""

from __future__ import annotations

from sqlalchemy.exc import ArgumentError, InterfaceError, OperationalError, SQLAlchemyError

from qgs_worker.errors import StoreError, StoreUnavailableError
from qgs_worker.store.base import as_utc, loads_list
from qgs_worker.store.console_views import ConsoleViewStore
from qgs_worker.store.idempotency import IdempotencyStore
from qgs_worker.store.report_views import ReportViewStore
from qgs_worker.store.runs import RunStore
from qgs_worker.store.schema import create_schema, make_engine, redact
from qgs_worker.store.spotchecks import SpotCheckStore
from qgs_worker.store.views import ViewStore

__all__ = ["Repository", "as_utc", "loads_list"]


class Repository(
    ViewStore, ReportViewStore, RunStore, IdempotencyStore, SpotCheckStore, ConsoleViewStore
):
    """The results store: every part over one engine (SQLite default, PostgreSQL by URL).

    Parts, one module each: ``RoundStore`` (tasks, rounds), ``ReviewStore`` (reviews, findings,
    decisions), ``ApprovalStore``, ``AuditLogStore`` (input errors, audit runs, tool-call
    checks), ``RecoveryStore`` (outbox, leases, parked retries, dead letters), ``ViewStore``
    (decisions and approvals as core views, for the client and the CLI), ``ReportViewStore``
    (tasks, rounds and totals as ``report_model`` values, for the reports), ``WebhookStore``
    (webhook deliveries and their attempts), ``RunStore`` (``qgs audit`` runs and their tasks),
    ``IdempotencyStore`` (the API's idempotency keys), ``SpotCheckStore`` (the spot-check queue,
    its labels, shadow changes), ``ConsoleViewStore`` (the operator console's task lines and
    health figures);
    ``schema`` makes the engine and the tables.

    Args:
        url: A SQLAlchemy database URL (``sqlite:///path.db``, ``postgresql://...``).

    Raises:
        StoreError: when the database cannot be reached or the schema cannot be created.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine = make_engine(url)
        except (ArgumentError, ImportError) as exc:
            raise StoreError(
                f"QGS_DATABASE_URL {redact(url)!r} is not a usable store URL ({exc}); use "
                "sqlite:///path/qgs.db or postgresql://user:password@host:5432/db"
            ) from exc
        try:
            create_schema(self.engine)
        except (OperationalError, InterfaceError) as exc:
            raise StoreUnavailableError(
                f"cannot reach the store QGS_DATABASE_URL={redact(url)}: {str(exc).splitlines()[0]}"
            ) from exc
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot open the store at {redact(url)}: {exc}") from exc

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
