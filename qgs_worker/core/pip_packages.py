"""Package names in ``pip install`` / ``poetry add`` / ``uv add`` commands (the Reality Checker's).

:func:`pip_packages` reads the requirement names of install commands in a text; it never runs
them. :func:`normalize_package` is PEP 503's normalized name, how an index compares names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

INTERPRETER = r"(?:[\w./~-]*/)?(?:python(?:\d(?:\.\d+)?)?|py)"
"""A Python interpreter word: ``python``, ``python3.12``, ``py``, with or without a path."""

_INSTALL = re.compile(
    r"(?<![\w.-])(?:"
    rf"{INTERPRETER}\s+-m\s+pip\s+install"
    r"|uv\s+pip\s+install|pip(?:\d(?:\.\d+)?)?\s+install|pipx\s+install"
    r"|poetry\s+add|uv\s+add"
    r")\b"
)
_VALUE_FLAGS = frozenset(
    {
        "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url",
        "--extra-index-url", "-f", "--find-links", "-t", "--target", "--prefix", "--root",
        "--src", "--upgrade-strategy", "--python-version", "--platform", "--implementation",
        "--abi", "--only-binary", "--no-binary", "--progress-bar", "--log", "--proxy",
        "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert",
        "--cache-dir", "--global-option", "--install-option", "--config-settings", "-C",
        "--report", "--python", "-p", "--group", "-G", "--source", "--extras", "-E", "--index",
        "--default-index", "--optional", "--directory", "--with", "--suffix",
    }
)  # fmt: skip
_STOP_TOKENS = frozenset({"&&", "||", ";", "|", "&", ">", ">>", "2>", "2>&1", "<", "#", "\\"})
_STOP_WORDS = frozenset(
    {
        "a", "again", "and", "as", "before", "after", "but", "can", "first", "for", "from",
        "if", "in", "into", "is", "it", "next", "now", "on", "or", "run", "see", "should",
        "that", "the", "then", "this", "to", "using", "via", "which", "will", "with", "you",
        "your", "we",
    }
)  # fmt: skip
_PLACEHOLDERS = frozenset(
    {
        "package", "packages", "package-name", "package_name", "packagename", "your-package",
        "your_package", "pkg", "name", "...", "etc", "library", "module",
    }
)  # fmt: skip
_REQUIREMENT = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?=$|[\[=<>~!@;^,(])")


def pip_packages(text: str) -> list[str]:
    r"""Package names installed by commands in ``text``.

    Commands: ``pip install``, ``pip3 install``, ``python -m pip install``, ``uv pip install``,
    ``uv add``, ``pipx install``, ``poetry add`` (also after ``!`` / ``%`` in notebooks and
    ``sudo``). Each requirement is reduced to its name: version specifiers (``==1.0``, ``>=2``,
    ``^1.2``, ``@latest``), extras (``[socks]``) and markers are removed. Skipped: flags and
    their values (``-r requirements.txt``, ``-i URL``, ``-e .``), URLs, local paths and archives,
    placeholders (``<package>``, ``package-name``). The command ends at a shell operator, a
    backtick, a comment or the end of the line (a ``\`` continuation joins lines), or at an
    English word in prose ("pip install rich and then...").

    Args:
        text: Prose, a shell command or a script.

    Returns:
        Names as written, each once (compared by their PEP 503 normal form), in order.
    """
    if "install" not in text and "add" not in text:  # every command ``_INSTALL`` reads has one
        return []
    text = re.sub(r"\\\r?\n", " ", text)
    names: dict[str, str] = {}
    for match in _INSTALL.finditer(text):
        end = len(text)
        for stop in ("\n", "`"):
            at = text.find(stop, match.end())
            if at >= 0:
                end = min(end, at)
        for name in _requirement_names(text[match.end() : end]):
            names.setdefault(normalize_package(name), name)
    return list(names.values())


def normalize_package(name: str) -> str:
    """A package name in its PEP 503 normal form (``Foo_Bar.baz`` -> ``foo-bar-baz``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_names(command: str) -> Iterator[str]:
    skip_next = False
    for raw in _split_words(command):
        if skip_next:
            skip_next = False
            continue
        if raw in _STOP_TOKENS or raw.lower() in _STOP_WORDS:
            return
        ends_command = raw.endswith((";", ".", ":", ","))
        token = raw.rstrip(";.:,)\"'")
        if token.startswith("-"):
            skip_next = "=" not in token and token in _VALUE_FLAGS
        elif token and _is_requirement(token):
            match = _REQUIREMENT.match(token)
            if match is not None and match.group(1).lower() not in _PLACEHOLDERS:
                yield match.group(1)
        if ends_command:
            return


def _split_words(command: str) -> list[str]:
    """Shell-like words: quotes removed, a ``#`` after a space starts a comment."""
    words: list[str] = []
    for match in re.finditer(r"""'([^']*)'|"([^"]*)"|(\S+)""", command):
        quoted = match.group(1) if match.group(1) is not None else match.group(2)
        if quoted is not None:
            words.append(quoted.strip())
        elif match.group(3).startswith("#"):
            break
        else:
            words.append(match.group(3))
    return words


def _is_requirement(token: str) -> bool:
    if "://" in token or token.startswith(("git+", "hg+", "svn+", "bzr+", ".", "/", "~", "$")):
        return False
    if token.endswith((".whl", ".tar.gz", ".zip", ".tgz", ".txt", ".toml", ".cfg")):
        return False
    return not ("/" in token.split("@", 1)[0] or "\\" in token)
