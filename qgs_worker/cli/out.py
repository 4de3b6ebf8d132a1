"""What ``qgs check-tool`` and ``qgs scan`` print, written without importing rich when it can be.

The commands print through rich consoles (``cli.common``): their lines with ``markup=False,
highlight=False, soft_wrap=True``, errors and warnings as ``[bold red]error:[/] <escaped
text>``. To a stream that is not a terminal (a pipe, a file, a test's capture) rich writes such
a line as its text and a newline, with emoji codes (``:warning:``) replaced, tabs expanded and
no colour. That is written here directly, with rich's own emoji table when the text holds a
code; rich itself (~20 ms to import, issue 15) prints when the stream is a terminal or rich is
told to treat it as one (``FORCE_COLOR``, ``TTY_COMPATIBLE``), or the text holds a tab.
``tests/unit/test_cli_short.py`` compares the two on hostile texts.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from typing import IO, Any

from qgs_worker.cli.terminal import visible

__all__ = ["error", "fail", "line", "warning"]

_EMOJI_CODE = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")
"""Where rich sees an emoji code (``rich._emoji_replace``'s own pattern); the name is group 2."""
_DIGIT_EMOJI = frozenset({"100", "1234"})
"""The names made of digits in rich's emoji table (``tests/unit/test_cli_short.py`` reads it):
``text.txt:1:`` in a finding's line holds no emoji, and needs no table (~8 ms to load)."""
_CONSOLES: dict[bool, Any] = {}


def line(text: str) -> None:
    """Print one line of untrusted text on stdout, control characters made visible.

    As ``console.print(visible(text), markup=False, highlight=False, soft_wrap=True)``.
    """
    shown = visible(text)
    if _plain(sys.stdout, shown):
        sys.stdout.write(_emoji(shown) + "\n")
    else:
        _console(stderr=False).print(shown, markup=False, highlight=False, soft_wrap=True)


def error(message: str) -> None:
    """Print ``error: <message>`` on stderr, on one line (its newlines shown as escapes)."""
    _labelled("[bold red]error:[/]", "error:", visible(message, lines=False))


def warning(message: str) -> None:
    """Print ``warning: <message>`` on stderr (newlines kept)."""
    _labelled("[yellow]warning:[/]", "warning:", visible(message, lines=True))


def fail(message: str, code: int = 2) -> SystemExit:
    """Print the error, and give the exit to raise with its code: ``raise out.fail(...)``."""
    error(message)
    return SystemExit(code)


def _labelled(markup: str, plain: str, shown: str) -> None:
    # rich reads the escaped text as markup: it drops the backslash of ``\[`` and replaces the
    # emoji codes of each run between brackets; such a text is printed by rich itself.
    if _plain(sys.stderr, shown) and "[" not in shown and "\\" not in shown:
        sys.stderr.write(f"{plain} {_emoji(shown)}\n")
        return
    from rich.markup import escape

    _console(stderr=True).print(f"{markup} {escape(shown)}", soft_wrap=True)


def _plain(stream: IO[str], text: str) -> bool:
    """Whether rich would write ``text`` to ``stream`` as plain text (see the module docstring)."""
    if "\t" in text or os.environ.get("TTY_COMPATIBLE") == "1" or "FORCE_COLOR" in os.environ:
        return False
    if "get_ipython" in vars(builtins) or "DATABRICKS_RUNTIME_VERSION" in os.environ:
        return False  # rich may be in a notebook: it prints there its own way
    if os.environ.get("TTY_COMPATIBLE") == "0":
        return True
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream: rich says no terminal
        return True


def _emoji(text: str) -> str:
    """``text`` with rich's emoji codes replaced, as rich prints it."""
    names = [found.group(2) for found in _EMOJI_CODE.finditer(text)]
    if all(not name or (name.isdigit() and name not in _DIGIT_EMOJI) for name in names):
        return text  # no name that could be in rich's table (line numbers, "::")
    from rich._emoji_replace import _emoji_replace

    return _emoji_replace(text)


def _console(*, stderr: bool) -> Any:
    found = _CONSOLES.get(stderr)
    if found is None:
        from rich.console import Console

        found = _CONSOLES[stderr] = Console(stderr=stderr)
    return found
