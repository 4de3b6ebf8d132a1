"""SIGTERM as an interrupt: a long command (``qgs audit``) unwinds as it does on Ctrl-C."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

__all__ = ["Terminated", "sigterm_interrupts"]


class Terminated(Exception):
    """SIGTERM arrived inside ``sigterm_interrupts`` (raised by its handler)."""


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """Inside: SIGTERM raises ``Terminated`` instead of ending the process where it stands.

    So ``with`` blocks close (``qgs audit``'s local workers and broker stop), the caller says
    what was left, and it exits 143. The previous handler is put back on the way out. Outside
    the main thread (a test's) Python allows no handler, and nothing changes.
    """

    def _raise(_signum: int, _frame: object) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, _raise)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
