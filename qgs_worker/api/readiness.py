"""``/readyz``: the store and the broker answer, and at least one worker replies to a ping.

Each check is bounded by ``timeout_s`` (``QGS_API__READY_TIMEOUT_S``) and returns
``{"ok", "detail", "fix"}``; a failing check never raises. The store is asked in a thread of its
own that ``/readyz`` waits for at most ``timeout_s``: a store that accepts the connection and
never answers (a stopped peer) is a 503 in time, not a hung probe (the thread ends when the
driver gives up: PostgreSQL's ``connect_timeout``, keepalives and ``tcp_user_timeout``, see
``store.schema.make_engine``). The answer names no host, port or database (``/readyz`` needs no
key): those go to the server log.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

__all__ = ["readiness", "store_answers"]

log = logging.getLogger(__name__)


def _check(ok: bool, detail: str, fix: str = "") -> dict[str, Any]:
    return {"ok": ok, "detail": detail, "fix": "" if ok else fix}


def store_answers(engine: Any, timeout_s: float) -> BaseException | None:
    """Run ``SELECT 1`` on ``engine`` in a daemon thread, waiting at most ``timeout_s`` seconds.

    Returns:
        None when the store answered; the error it raised; ``TimeoutError`` when it did not
        answer in time (the thread is left to end when the driver gives up).
    """
    from sqlalchemy import text

    outcome: list[BaseException | None] = []

    def ask() -> None:
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            outcome.append(None)
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=ask, name="qgs-readyz-store", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if not outcome:
        return TimeoutError(f"no answer within {timeout_s:g} s")
    return outcome[0]


def readiness(ops: Any, *, timeout_s: float) -> dict[str, dict[str, Any]]:
    """Ask the store, the broker and the workers; one entry each (``store``, ``broker``, ``workers``).

    Args:
        ops: The ``Operations`` the API serves (its settings, store and client).
        timeout_s: The longest each check waits, in seconds.
    """
    from qgs_worker.limits.ratelimit import redis_for_broker
    from qgs_worker.store.schema import redact

    checks: dict[str, dict[str, Any]] = {}
    dialect = ops.repo.engine.dialect.name
    failed = store_answers(ops.repo.engine, timeout_s)
    if failed is None:
        checks["store"] = _check(True, f"the store ({dialect}) answered")
    else:
        why = (str(failed).splitlines() or [""])[0]
        log.warning(
            "readyz: the store %s failed: %s: %s", redact(ops.repo.url), type(failed).__name__, why
        )
        what = "did not answer" if isinstance(failed, TimeoutError) else "failed"
        checks["store"] = _check(
            False,
            f"the store ({dialect}, QGS_DATABASE_URL) {what} ({type(failed).__name__}); the "
            "server log has the address and the error",
            "check QGS_DATABASE_URL and that the database runs and answers",
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
        log.warning("readyz: the broker failed: %s: %s", type(exc).__name__, exc)
        checks["broker"] = _check(
            False,
            f"the broker (QGS_BROKER_URL) did not answer a ping ({type(exc).__name__}); the "
            "server log has the address and the error",
            "check QGS_BROKER_URL and that Redis runs",
        )
        checks["workers"] = _check(False, "the broker is unreachable", "start the broker first")
        return checks
    finally:
        client.close()
    try:
        replies = ops.client.app.control.ping(timeout=timeout_s) or []
    except Exception as exc:
        replies = []
        detail = f"{type(exc).__name__}"
        log.warning("readyz: pinging the workers failed: %s: %s", type(exc).__name__, exc)
    else:
        detail = f"{len(replies)} worker(s) replied"
    checks["workers"] = _check(
        bool(replies), detail, "start a worker: `qgs worker` (with the same QGS_BROKER_URL)"
    )
    return checks
