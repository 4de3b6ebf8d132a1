"""The store's own errors, as QGS errors where a caller sees them (``store_guarded``).

SQLAlchemy raises its own errors (``OperationalError`` when the database refuses connections,
``InterfaceError`` when a connection drops, a pool timeout when every connection is taken).
Inside the workers they are what the Celery adapter retries (``worker_runtime.STORE_ERRORS``);
at a face (``Client``'s public methods) a caller gets QGS's tree instead:

- the database cannot be reached -> ``StoreUnavailableError`` (transient: try again);
- any other store failure -> ``StoreError``.

Both keep SQLAlchemy's error as their cause and name the setting (``QGS_DATABASE_URL``), never
its value (the URL may hold a password).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import (
    DisconnectionError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import (
    TimeoutError as PoolTimeoutError,
)

from qgs_worker.errors import StoreError, StoreUnavailableError

__all__ = ["UNREACHABLE", "store_errors", "store_guarded"]

UNREACHABLE = (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError)
"""SQLAlchemy's errors for a database that cannot be reached (or has no free connection)."""

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def store_errors(what: str) -> Iterator[None]:
    """Inside: SQLAlchemy's errors become ``StoreUnavailableError`` / ``StoreError``.

    Args:
        what: What was being done, for the message (``Client.submit``).

    Raises:
        StoreUnavailableError: the database cannot be reached (connection refused, dropped,
            timed out, no free connection in the pool).
        StoreError: any other store failure.
    """
    try:
        yield
    except UNREACHABLE as exc:
        raise StoreUnavailableError(
            f"{what}: cannot reach the store ({_first_line(exc)}); check QGS_DATABASE_URL and "
            "that the database runs, then try again"
        ) from exc
    except SQLAlchemyError as exc:
        raise StoreError(f"{what}: the store failed ({_first_line(exc)})") from exc


def store_guarded(method: Callable[P, R]) -> Callable[P, R]:
    """A method whose store errors are QGS errors (``store_errors``), named after the method."""
    what = f"Client.{method.__name__}"

    @functools.wraps(method)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        with store_errors(what):
            return method(*args, **kwargs)

    return guarded


def _first_line(exc: BaseException) -> str:
    """The driver's message, first line only (no SQL, no parameters)."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
