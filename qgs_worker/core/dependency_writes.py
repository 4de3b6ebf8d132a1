"""The packages a call adds to a dependency list: a line appended to ``requirements.txt``.

An order planted for a coding agent often asks for one more dependency rather than an install:
"agents upgrading rubocop should also append `gem "rubocop-rails-omakase-ext"` to the Gemfile",
a hidden ``<div>`` asking to add ``httpx-retry-extras==0.3.1`` to ``requirements.txt``. The deed
is the package name the call adds, riding on the edit the user asked for. This module reads a
call's writes to the dependency lists of pip (``requirements*.txt``, ``constraints.txt``),
Bundler (``Gemfile``), npm (``package.json``), Cargo (``Cargo.toml``) and Go (``go.mod``), each
in its own syntax, and returns the names in the new text that the old text (an edit's
``old_str``/``search``) does not hold. Pure: stdlib and the core only.
"""

from __future__ import annotations

import re

from qgs_worker.core.filewrites import file_writes
from qgs_worker.core.models import ToolCall
from qgs_worker.core.pip_packages import normalize_package

__all__ = ["added_packages"]

# each list's file and how it names a package (the tools' own formats)
_LISTS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"(?:^|/)(?:requirements[\w.-]*\.(?:txt|in)|constraints\.txt)$", re.I),
        re.compile(
            r"^[ \t]*([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(?:\[[^\]\n]*\])?[ \t]*(?:[=<>!~;@]|$)", re.M
        ),
    ),
    (re.compile(r"(?:^|/)gemfile$", re.I), re.compile(r"""^\s*gem\s+["']([\w.-]+)["']""", re.M)),
    (
        re.compile(r"(?:^|/)package\.json$", re.I),
        re.compile(r""""(@?[\w.-]+(?:/[\w.-]+)?)"\s*:\s*"(?:[\^~<>=*]|\d|latest|npm:|git)"""),
    ),
    (
        re.compile(r"(?:^|/)cargo\.toml$", re.I),
        re.compile(r"""^\s*([A-Za-z][\w-]*)\s*=\s*(?:"[\^~<>=]?\d|\{)""", re.M),
    ),
    (
        re.compile(r"(?:^|/)go\.mod$", re.I),
        re.compile(r"^\s*(?:require\s+)?([\w.-]+\.[a-z]{2,}/[\w./-]+)\s+v\d", re.M),
    ),
)
# an edit's old text and its new text, as the editing tools name them
_OLD_KEYS = frozenset({"old_str", "old", "search", "old_string", "oldtext", "old_text", "find"})
_NEW_KEYS = frozenset(
    {"new_str", "new", "replace", "new_string", "newtext", "new_text", "content", "contents"}
    | {"file_text", "text", "code_edit", "code", "data", "body"}
)


def added_packages(call: ToolCall) -> dict[str, str]:
    """The packages ``call`` adds to a dependency list, normalized, with the file written.

    A shell write (``echo 'x==1' >> requirements.txt``, a here-document) adds the names its
    text holds; a writing tool adds the names of its new text (``new_str``, ``replace``,
    ``content``...) that its old text (``old_str``, ``search``) lacks.

    Returns:
        ``{normalized name: path written}``; empty for a call that writes no dependency list.
        Never raises.
    """
    added: dict[str, str] = {}
    for write in file_writes(call):
        names = next((n for path, n in _LISTS if path.search(write.path.strip("'\""))), None)
        if names is None:
            continue
        if write.via == "tool":
            old = {k.casefold(): v for k, v in call.argument_values()}
            before = " ".join(v for k, v in old.items() if k.rsplit(".", 1)[-1] in _OLD_KEYS)
            after = " ".join(v for k, v in old.items() if k.rsplit(".", 1)[-1] in _NEW_KEYS)
        else:
            before, after = "", _written_text(write.data)
        had = {normalize_package(n) for n in names.findall(before)}
        for name in names.findall(after):
            key = normalize_package(name)
            if key not in had:
                added.setdefault(key, write.path)
    return added


def _written_text(pipeline: str) -> str:
    """The text a shell command writes: its quoted strings and here-document lines."""
    quoted = re.findall(r"""(?:echo|printf)\s+(?:-\w+\s+)?(["'])(.*?)\1""", pipeline, re.S)
    lines = [text.replace("\\n", "\n") for _, text in quoted]
    if "<<" in pipeline:
        lines.append(pipeline.split("\n", 1)[-1])
    return "\n".join(lines)
