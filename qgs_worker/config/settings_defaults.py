"""The settings of a process that sets none, read without pydantic-settings (issue 15).

``Settings`` (``settings.py``) reads ``QGS_*`` variables and a ``.env`` file through
pydantic-settings, whose import (with asyncio and python-dotenv) took ~35 ms of the ~300 ms
``qgs check-tool`` may spend starting. When no ``QGS_*`` variable is set (but ``QGS_DATA_DIR``)
and there is no ``.env`` file, every setting is its default, so a short command reads them
here: ``short_settings.short_settings`` returns ``DefaultSettings`` then, and ``Settings()`` otherwise (an
invalid setting is refused there, as before). ``tests/unit/test_settings_defaults.py`` checks
that both give the same values.

What a short command reads (``settings_groups.GateConfig``): ``broker_url``, ``toolgate``,
``policy_file``, ``tools_file``, and the store line. Pure: stdlib and pydantic (through
``settings_groups``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from qgs_worker.config.settings_groups import ToolGateSettings
from qgs_worker.errors import moved_attribute

__all__ = [
    "ENV_FILE",
    "DefaultSettings",
    "check_data_dir",
    "data_folder_error",
    "default_data_dir",
    "store_line_of",
    "unconfigured",
]

ENV_FILE = ".env"
"""The file ``Settings`` also reads variables from, in the working folder."""

_READ_HERE = frozenset({"QGS_DATA_DIR"})
"""The one ``QGS_*`` variable ``DefaultSettings`` reads itself (a path: any value is valid)."""


def default_data_dir() -> Path:
    r"""The user's data folder for QGS, the same whatever folder a process starts in.

    ``$XDG_DATA_HOME/qgs`` (default ``~/.local/share/qgs``) on Linux and other POSIX systems,
    ``~/Library/Application Support/qgs`` on macOS, ``%LOCALAPPDATA%\\qgs`` on Windows: the
    platform's user data directory (as ``platformdirs.user_data_dir`` names it, without the
    dependency). ``QGS_DATA_DIR`` sets another.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "qgs"


def check_data_dir(path: Path) -> Path:
    """Refuse a data folder that can never be used: a file, or a folder under a file.

    A folder that is missing is made when it is first needed (``data_folder_error`` names it
    then, when it cannot be made); this check makes no folder.

    Args:
        path: ``QGS_DATA_DIR``, made absolute.

    Returns:
        ``path``.

    Raises:
        ConfigurationError: naming ``QGS_DATA_DIR``, what is in the way and the fix.
    """
    probe = path
    while not os.path.lexists(probe) and probe.parent != probe:
        probe = probe.parent
    if os.path.isdir(probe):
        return path
    what = "is a file" if probe == path else f"is under {probe}, which is a file"
    raise data_folder_error(path, f"{what}, not a folder")


def data_folder_error(
    path: Path, why: str | OSError, *, setting: str = "QGS_DATA_DIR"
) -> Exception:
    """The ``ConfigurationError`` for a data folder that cannot be used or made (one line).

    Args:
        path: The data folder (or the folder the store's SQLite file goes in).
        why: What is wrong, or the ``OSError`` its creation raised.
        setting: The variable(s) that name the folder, for the message and the fix.
    """
    from qgs_worker.errors import ConfigurationError

    reason = why if isinstance(why, str) else f"cannot be made ({why.strerror or why})"
    return ConfigurationError(
        f"the data folder {path} ({setting}) {reason}: point {setting} at a folder this user "
        "may create and write (it is made when missing)"
    )


def store_line_of(url: str, data_dir: Path) -> str:
    """The line naming the store (``url``, password hidden) and the data folder."""
    import re

    shown = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)
    return f"qgs: store {shown} (data folder {data_dir}; QGS_DATA_DIR, QGS_DATABASE_URL)"


def unconfigured(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``Settings()`` would read nothing but defaults and ``QGS_DATA_DIR``.

    No ``QGS_*`` variable (in any case: pydantic-settings reads them case-insensitively) other
    than one ``QGS_DATA_DIR``, and no ``.env`` file in the working folder.
    """
    variables = os.environ if environ is None else environ
    read_here = 0
    for name in variables:
        upper = name.upper()
        if upper in _READ_HERE:
            read_here += 1
        elif upper.startswith("QGS_"):
            return False
    return read_here <= 1 and not os.path.lexists(ENV_FILE)


@dataclass(frozen=True, slots=True)
class DefaultSettings:
    """The settings when nothing is configured: ``Settings()``'s values, for a short command.

    Attributes:
        data_dir: ``QGS_DATA_DIR`` made absolute, else ``default_data_dir()``.
        toolgate: The tool gate's defaults (``ToolGateSettings()``).
        broker_url: None: the embedded broker.
        database_url: None: the SQLite file under ``data_dir``.
        policy_file: None: no permission checks.
        tools_file: None.
    """

    data_dir: Path
    toolgate: ToolGateSettings = field(default_factory=ToolGateSettings)
    broker_url: str | None = None
    database_url: str | None = None
    policy_file: Path | None = None
    tools_file: Path | None = None

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> DefaultSettings:
        """The default settings, with ``QGS_DATA_DIR`` when it is set (any case)."""
        variables = os.environ if environ is None else environ
        given = next((v for k, v in variables.items() if k.upper() == "QGS_DATA_DIR"), None)
        if given is None:
            return cls(data_dir=default_data_dir().expanduser().absolute())
        return cls(data_dir=check_data_dir(Path(given).expanduser().absolute()))

    @property
    def embedded(self) -> bool:
        """True: no broker URL is set."""
        return True

    @property
    def resolved_database_url(self) -> str:
        """The embedded SQLite store under ``data_dir`` (``Settings.resolved_database_url``)."""
        return f"sqlite:///{self.data_dir / 'qgs.db'}"

    def store_line(self) -> str:
        """``Settings.store_line``: which store (and data folder) this process uses."""
        return store_line_of(self.resolved_database_url, self.data_dir)


_MOVED_NAMES = {"short_settings": "qgs_worker.config.short_settings"}
"""Names this module once defined, and where they live now (issue 30)."""



def __getattr__(name: str) -> object:
    """A name that moved fails naming its new home (``errors.moved_attribute``)."""
    moved_attribute(__name__, name, _MOVED_NAMES)
