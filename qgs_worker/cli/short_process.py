"""What a command does to its own process before it runs: the short commands' exit, the model.

Used by the commands' bodies (``check_tool_body``, ``scan_body``) and by the typer commands
alike; the short path (``short``) reads the arguments and calls those bodies, so this sits
below both.
"""

from __future__ import annotations

import atexit
import gc

__all__ = ["load_instruction_model", "short_command"]


def short_command() -> None:
    """Run this process as a short command: ``qgs check-tool`` and ``qgs scan`` (issue 15).

    Two costs of a long-running process are left out, neither changing what the command does
    or prints:

    - the learned detector scores its first texts in plain Python rather than import numpy
      (``instruction_model.start_without_numpy``: the same scores, bit for bit);
    - at exit, after every other ``atexit`` handler (registered first, it runs last), the
      objects then alive are frozen (``gc.freeze``), so the interpreter's final garbage
      collections skip them: they walked ~50,000 objects, 50-80 ms of a ~400 ms command.
      Objects are still freed by reference counting as the modules are torn down and the
      standard streams flushed; only garbage in reference cycles is left to the operating
      system, and these commands hold nothing a finalizer must release (their broker, for
      ``--log``, is stopped by its ``with`` block).
    """
    from qgs_worker.core.instruction_model import start_without_numpy

    start_without_numpy()
    if not _SHORT[0]:
        _SHORT[0] = True
        atexit.register(gc.freeze)


_SHORT = [False]


def load_instruction_model() -> None:
    """Load the learned instruction detector now: a missing or corrupt artifact stops at start-up.

    ``ModelArtifactError`` names ``make train`` and exits 2, instead of failing mid-run. Where
    the optional encoder is installed (``qgs[encoder]``), it is registered first
    (``encoders.install``): the stack's head is checked now, the encoder's weights load on the
    first text scored.
    """
    from qgs_worker.core.instruction_model import default_model
    from qgs_worker.encoders import install

    install()
    default_model()
