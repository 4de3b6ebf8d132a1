"""What the operator reads besides reviews: input errors, audit role runs, tool-call checks."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from qgs_worker.store.base import StoreBase, as_utc, clean_row, dialect_insert, dumps
from qgs_worker.store.row_values import role_run_values
from qgs_worker.store.tables import AuditErrorRow, AuditRunRow, ToolCallCheckRow

__all__ = ["AuditLogStore"]


class AuditLogStore(StoreBase):
    """Input errors, audit runs and tool-call checks (a part of ``Repository``)."""

    # -- audit errors ----------------------------------------------------------------------

    def save_audit_error(self, source_file: str, line: int, message: str) -> None:
        """Record an input that could not become a task, once per (file, line, message)."""
        fingerprint = hashlib.sha256(message.encode()).hexdigest()[:32]
        with Session(self.engine) as session:
            self._insert_ignore(
                session,
                AuditErrorRow,
                [
                    {
                        "source_file": source_file,
                        "line": line,
                        "fingerprint": fingerprint,
                        "message": message,
                    }
                ],
            )
            session.commit()

    def clear_audit_errors(self, source_file: str) -> None:
        """Forget the input errors recorded for a file (before it is read again)."""
        with Session(self.engine) as session:
            session.execute(
                delete(AuditErrorRow).where(col(AuditErrorRow.source_file) == source_file)
            )
            session.commit()

    def audit_error_of(self, source_file: str) -> str | None:
        """The first input error recorded for ``source_file`` (e.g. ``submission:ID``), or None."""
        with Session(self.engine) as session:
            return session.exec(
                select(AuditErrorRow.message)
                .where(col(AuditErrorRow.source_file) == source_file)
                .order_by(col(AuditErrorRow.id))
            ).first()

    def list_audit_errors(self) -> list[AuditErrorRow]:
        """Every recorded input error, by file and line."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(AuditErrorRow).order_by(
                        col(AuditErrorRow.source_file), col(AuditErrorRow.line)
                    )
                )
            )

    def save_audit_run(
        self,
        round_id: int,
        role: str,
        *,
        error: str | None,
        findings: int,
        duration_ms: float,
    ) -> None:
        """Record that ``role`` audited the round (once: a second record is ignored)."""
        row = role_run_values(round_id, role, findings, error=error, duration_ms=duration_ms)
        with Session(self.engine) as session:
            self._insert_ignore(session, AuditRunRow, [row])
            session.commit()

    def list_audit_runs(self, round_id: int) -> list[AuditRunRow]:
        """The audit roles that ran on a round, in the order they ran."""
        with Session(self.engine) as session:
            query = select(AuditRunRow).where(AuditRunRow.round_id == round_id)
            return sorted(session.exec(query), key=lambda r: r.id or 0)

    # -- tool-call checks ------------------------------------------------------------------

    def save_tool_call_check(
        self,
        *,
        check_id: str,
        created_at: datetime,
        shape: str,
        allowed: bool,
        latency_us: float,
        principal: str | None = None,
        agent: str | None = None,
        tool: str | None = None,
        call_id: str | None = None,
        stopped_at: int | None = None,
        stopped_layer: str | None = None,
        errors: Sequence[str] = (),
        warnings: Sequence[str] = (),
        layers: Sequence[Sequence[Any]] = (),
        suggestion: str | None = None,
    ) -> bool:
        """Record one gate check, once per ``check_id`` (a redelivered log job writes nothing).

        Args:
            check_id: The client's id of the check (32 hex digits).
            created_at: When the check ran (stored as UTC).
            shape: ``openai``, ``anthropic``, ``mcp`` or ``unknown``.
            allowed: Whether the call may run.
            latency_us: The check's wall time, in microseconds.
            principal: Who the call acted for.
            agent: Which agent made it.
            tool: The called tool's name, as sent.
            call_id: The call's id, as sent (MCP's integer ids as text).
            stopped_at: The number of the layer that rejected the call (None when allowed).
            stopped_layer: That layer's name.
            errors: The failing layer's errors.
            warnings: Every layer's warnings.
            layers: ``(number, name, status)`` of each configured layer.
            suggestion: The failing layer's suggestion.

        Returns:
            True when this call stored the row, False when the check was already stored.
        """
        row = clean_row(
            {
                "check_id": check_id,
                "created_at": as_utc(created_at),
                "principal": principal,
                "agent": agent,
                "tool": tool,
                "shape": shape,
                "call_id": call_id,
                "allowed": allowed,
                "stopped_at": stopped_at,
                "stopped_layer": stopped_layer,
                "errors": dumps(errors),
                "warnings": dumps(warnings),
                "layers": dumps(list(layer) for layer in layers),
                "suggestion": suggestion,
                "latency_us": latency_us,
            }
        )
        insert = dialect_insert(self.engine.dialect.name)
        with Session(self.engine) as session:
            # Core, not ORM, execution: its result says whether a row went in.
            result = session.connection().execute(
                insert(ToolCallCheckRow).on_conflict_do_nothing(), row
            )
            session.commit()
        return bool(result.rowcount)

    def list_tool_call_checks(
        self, limit: int = 100, *, rejected_only: bool = False
    ) -> list[ToolCallCheckRow]:
        """The most recent tool-call checks, newest first.

        Args:
            limit: At most this many rows.
            rejected_only: Only the checks that rejected their call.
        """
        query = select(ToolCallCheckRow)
        if rejected_only:
            query = query.where(col(ToolCallCheckRow.allowed).is_(False))
        query = query.order_by(
            col(ToolCallCheckRow.created_at).desc(), col(ToolCallCheckRow.id).desc()
        ).limit(limit)
        with Session(self.engine) as session:
            return list(session.exec(query))

    def tool_call_check_counts(self) -> tuple[int, int]:
        """How many checks are stored, and how many of them allowed their call."""
        with Session(self.engine) as session:
            total, allowed = session.execute(
                select(
                    func.count(),
                    func.count().filter(col(ToolCallCheckRow.allowed).is_(True)),
                ).select_from(ToolCallCheckRow)
            ).one()
        return int(total), int(allowed)

    def rejected_by_layer(self) -> dict[int, int]:
        """Rejected checks counted by the number of the layer that stopped them (1-6)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(col(ToolCallCheckRow.stopped_at), func.count())
                .where(col(ToolCallCheckRow.allowed).is_(False))
                .group_by(col(ToolCallCheckRow.stopped_at))
            ).all()
        return {int(layer or 0): int(count) for layer, count in rows}
