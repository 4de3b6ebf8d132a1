"""The short path of ``qgs check-tool`` and ``qgs scan``: run without building the typer app.

Issue 15: these two commands sit on an agent's path or in a pre-commit hook and must start in
at most 300 ms. Building the typer app imports typer, click and rich and every command module
(~40 ms), so ``main`` first tries this path: an argument list made only of the options these
commands declare, each once, with valid values (``--tools FILE``, ``--format json``, ``--as
input``...), is read here and the command's body runs (``check_tool_body``, ``scan_body``, the
same functions the typer commands call), printing through ``out``. Anything else, ``--help``, an
unknown or repeated option, a missing argument, a value that is not one of the choices, a value
that starts with ``-``, ``scan --jsonl`` (its progress bar is rich's), shell completion,
returns None and the typer app runs as before, with its own messages.

What typer does around a command is done the same way: the store line on a terminal (the app's
callback), exit 130 on Ctrl-C, exit 1 on a broken pipe. ``tests/unit/test_cli_short.py``
compares both paths' output and exit codes.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import IO, Any

from qgs_worker.errors import moved_attribute

__all__ = ["parse", "run_short"]


@dataclass(frozen=True)
class Spec:
    """A command's arguments as typer declares them (only what the short path accepts)."""

    positional: str
    positional_required: bool
    values: Mapping[str, str]
    """``--option`` -> the parameter it sets, from the next argument or after ``=``."""
    flags: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    """``--flag`` -> the parameter and the value it sets."""
    choices: Mapping[str, type[Enum]] = field(default_factory=dict)
    """Parameters whose value must be one of an enum's values (exactly, as typer's choices)."""
    paths: frozenset[str] = frozenset()
    """Parameters typer converts to ``Path`` (checked readable when they exist)."""
    required: frozenset[str] = frozenset()


def parse(spec: Spec, args: Sequence[str]) -> dict[str, Any] | None:
    """The parameters of ``args`` as typer would pass them, or None when typer must read them.

    Only the arguments typer reads without a message are accepted (the module docstring).
    """
    got: dict[str, Any] = {}
    positionals: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "-" or not arg.startswith("-"):
            positionals.append(arg)
            continue
        name, equals, value = arg.partition("=")
        if name in spec.flags and not equals:
            key, flag = spec.flags[name]
            found: Any = flag
        elif name in spec.values:
            key = spec.values[name]
            if not equals:
                if index >= len(args) or args[index].startswith("-"):
                    return None
                value = args[index]
                index += 1
            found = value
        else:
            return None  # --help, --, -x, an unknown option, --flag=value
        if key in got:
            return None  # given twice
        got[key] = found
    if len(positionals) > 1 or (spec.positional_required and not positionals):
        return None
    if positionals:
        got[spec.positional] = positionals[0]
    if not spec.required <= got.keys():
        return None
    for key, enum in spec.choices.items():
        if key in got:
            member = next((m for m in enum if m.value == got[key]), None)
            if member is None:
                return None
            got[key] = member
    for key in spec.paths & got.keys():
        path = got[key]
        if os.path.exists(path) and not os.access(path, os.R_OK):
            return None  # typer says "... is not readable"
        got[key] = Path(path)
    return got


def run_short(argv: Sequence[str]) -> int | None:
    """Run ``qgs check-tool`` or ``qgs scan`` from ``argv`` (without the program name).

    Returns:
        The exit code; None when the typer app must run instead (the module docstring).
    """
    if not argv or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return None
    command = _COMMANDS.get(argv[0])
    if command is None:
        return None
    spec, run = command()
    parsed = parse(spec, argv[1:])
    if parsed is None or parsed.get("jsonl"):
        return None
    if sys.stderr.isatty():  # the app's callback: which store this process uses
        _print_store_line()
    try:
        run(**parsed)
    except SystemExit as done:
        return _exit_code(done)
    except KeyboardInterrupt:
        return 130  # as typer: no message
    except EOFError:  # as typer: a blank line, then "Aborted" (never seen here)
        from typer import core, rich_utils

        print(file=sys.stderr)
        if core.HAS_RICH:
            rich_utils.rich_abort_error()
        else:
            print("Aborted!", file=sys.stderr)
        return 1
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        sys.stdout = _QuietFlush(sys.stdout)  # as click: no "Exception ignored" at exit
        sys.stderr = _QuietFlush(sys.stderr)
        return 1
    return 0


def _check_tool() -> tuple[Spec, Callable[..., None]]:
    from qgs_worker.cli.check_tool_body import CheckFormat, check_tool
    from qgs_worker.core.models import Strictness

    spec = Spec(
        positional="call_file",
        positional_required=True,
        values={
            "--tools": "tools",
            "--principal": "principal",
            "--agent": "agent",
            "--format": "fmt",
            "--strictness": "strictness",
        },
        flags={"--log": ("log", True), "--no-log": ("log", False)},
        choices={"fmt": CheckFormat, "strictness": Strictness},
        paths=frozenset({"tools"}),
        required=frozenset({"tools"}),
    )
    return spec, check_tool


def _scan() -> tuple[Spec, Callable[..., None]]:
    from qgs_worker.cli.scan_body import ScanAs, ScanFormat, scan
    from qgs_worker.core.models import ArgumentKind

    spec = Spec(
        positional="file",
        positional_required=False,
        values={"--as": "as_", "--format": "fmt", "--kind": "kind", "--field": "field_name"},
        flags={"--jsonl": ("jsonl", True)},
        choices={"as_": ScanAs, "fmt": ScanFormat, "kind": ArgumentKind},
    )
    return spec, scan


_COMMANDS: dict[str, Callable[[], tuple[Spec, Callable[..., None]]]] = {
    "check-tool": _check_tool,
    "scan": _scan,
}


def _exit_code(done: SystemExit) -> int:
    code = done.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # as the interpreter does with a message
    return 1


def _print_store_line() -> None:
    """``settings.print_store_line``, without pydantic-settings when nothing is configured."""
    from qgs_worker.config.settings_defaults import DefaultSettings, unconfigured

    if not unconfigured():
        from qgs_worker.config.settings import print_store_line

        print_store_line()
        return
    try:
        line = DefaultSettings.read().store_line()
    except Exception:  # as print_store_line: the command itself reports what is wrong
        return
    print(line, file=sys.stderr)


class _QuietFlush:
    """A stream whose ``flush`` ignores a broken pipe (click's ``PacifyFlushWrapper``)."""

    def __init__(self, wrapped: IO[str]) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


_MOVED_NAMES = {"short_command": "qgs_worker.cli.short_process", "load_instruction_model": "qgs_worker.cli.short_process"}
"""Names this module once defined, and where they live now (issue 30)."""



def __getattr__(name: str) -> object:
    """A name that moved fails naming its new home (``errors.moved_attribute``)."""
    moved_attribute(__name__, name, _MOVED_NAMES)
