"""``/readyz``: the store and the broker answer, and at least one worker replies to a ping.

Each check is bounded by ``timeout_s`` (``QGS_API__READY_TIMEOUT_S``) and returns
``{"ok", "detail", "fix"}``; a failing check never raises.
"""

from __future__ import annotations

from typing import Any

__all__ = ["readiness"]


def _check(ok: bool, detail: str, fix: str = "") -> dict[str, Any]:
    return {"ok": ok, "detail": detail, "fix": "" if ok else fix}


def readiness(ops: Any, *, timeout_s: float) -> dict[str, dict[str, Any]]:
    """Ask the store, the broker and the workers; one entry each (``store``, ``broker``, ``workers``).

    Args:
        ops: The ``Operations`` the API serves (its settings, store and client).
        timeout_s: The longest each check waits, in seconds.
    """
    from sqlalchemy import text

    from qgs_worker.ratelimit import redis_for_broker
    from qgs_worker.store.schema import redact

    checks: dict[str, dict[str, Any]] = {}
    try:
        with ops.repo.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        checks["store"] = _check(True, redact(ops.repo.url))
    except Exception as exc:
        checks["store"] = _check(
            False,
            f"{redact(ops.repo.url)}: {type(exc).__name__}: {str(exc).splitlines()[0]}",
            "check QGS_DATABASE_URL and that the database runs",
        )
    url = ops.settings.broker_url
    if not url:
        checks["broker"] = _check(False, "no broker configured", "set QGS_BROKER_URL")
        checks["workers"] = _check(False, "no broker to reach workers on", "set QGS_BROKER_URL")
        return checks
    client = redis_for_broker(url, timeout_s=timeout_s)
    try:
        client.ping()
        checks["broker"] = _check(True, "ping answered")
    except Exception as exc:
        checks["broker"] = _check(
            False, f"{type(exc).__name__}: {exc}", "check QGS_BROKER_URL and that Redis runs"
        )
        checks["workers"] = _check(False, "the broker is unreachable", "start the broker first")
        return checks
    finally:
        client.close()
    try:
        replies = ops.client.app.control.ping(timeout=timeout_s) or []
    except Exception as exc:
        replies = []
        detail = f"{type(exc).__name__}: {exc}"
    else:
        detail = f"{len(replies)} worker(s) replied"
    checks["workers"] = _check(
        bool(replies), detail, "start a worker: `qgs worker` (with the same QGS_BROKER_URL)"
    )
    return checks
