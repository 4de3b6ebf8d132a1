"""What a tool argument carries (command, SQL, URL, path, HTML, free text), and how QGS guesses it.

The injection layer (6) and the business rules (4) judge an argument by its kind, not by naive
substrings: a ``rm -rf`` inside a ``command`` is a shell risk, the same words inside a ``body``
of an e-mail are free text.

Kinds are keyed by an argument *path*: ``command``, ``options.url`` (a nested property),
``files[]`` (every string item of an array), ``files[].path``.

The heuristic of :func:`infer_kinds`, in order (the first rule that holds wins):

1. ``"x-qgs-kind": "<kind>"`` on the property schema: the tool author said so.
2. Only string-typed properties (and arrays of strings) get a kind; a string with ``enum`` or
   ``const`` gets none (the parameter layer already pins its value).
3. The property *name*, split into snake/camel tokens, by its last token, singular (or the whole
   name):
   ``command``/``cmd``/``script``/``shell`` -> command; ``sql`` -> sql; ``query``/``statement``
   -> sql only when the tool looks like a database tool (its name or description says
   sql/database/db/table/postgres/mysql/sqlite), else it goes on to rule 4; ``url``/``uri``/``endpoint``/
   ``link``/``href``/``webhook``/``website`` (or ``format: uri``) -> url; ``path``/``file``/
   ``filename``/``filepath``/``directory``/``dir``/``folder`` (also ``file_name``,
   ``directory_name``) -> path; any ``html`` token -> html.
4. The property *description*, when the name said nothing: "shell command"/"command line" ->
   command, "SQL" -> sql, "URL"/"URI" -> url, "file path"/"path to" -> path, "HTML" -> html.
5. Every other string -> free text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from qgs_worker.core.models import ArgumentKind  # one enum, shared with the detectors

__all__ = [
    "ArgumentKind",
    "infer_kinds",
    "is_database_tool",
    "kind_of_name",
    "looks_like_url",
    "split_name",
]


_NAME_WORDS: dict[ArgumentKind, frozenset[str]] = {
    ArgumentKind.COMMAND: frozenset({"command", "cmd", "script", "shell", "commandline"}),
    ArgumentKind.SQL: frozenset({"sql"}),
    ArgumentKind.URL: frozenset({"url", "uri", "endpoint", "link", "href", "webhook", "website"}),
    ArgumentKind.PATH: frozenset(
        {"path", "file", "filename", "filepath", "directory", "dir", "folder", "dirname"}
    ),
}
_PATH_NOUNS = frozenset({"file", "directory", "dir", "folder"})
_QUERY_WORDS = frozenset({"query", "statement", "stmt"})
_DATABASE_TOOL = re.compile(
    r"(?i)(?<![a-z])(sql|database|db|table|postgres\w*|mysql|sqlite)(?![a-z])"
)
_DESCRIPTION_RULES: tuple[tuple[re.Pattern[str], ArgumentKind], ...] = (
    (re.compile(r"(?i)\b(shell|bash|terminal) command|\bcommand[- ]line\b"), ArgumentKind.COMMAND),
    (re.compile(r"\bSQL\b"), ArgumentKind.SQL),
    (re.compile(r"\b(URL|URI)s?\b"), ArgumentKind.URL),
    (re.compile(r"(?i)\b(file|directory|folder) path\b|\bpath to\b"), ArgumentKind.PATH),
    (re.compile(r"\bHTML\b"), ArgumentKind.HTML),
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+")
_MAX_DEPTH = 4


_WHOLE_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,15}://\S+")


def looks_like_url(value: str) -> bool:
    """Whether a whole value is one URL with a scheme (``http://169.254.169.254/``).

    A free-text argument holding nothing but a URL is read as a URL by the injection layer
    (SSRF) and by the domain allowlist, whatever the argument is called: a tool named
    ``browse(location)`` fetches it all the same. Text around a URL keeps it free text.
    """
    return "://" in value and _WHOLE_URL.fullmatch(value) is not None


def split_name(name: str) -> tuple[str, ...]:
    """Split a name into lower-case tokens: ``filePath`` and ``file-path`` give ``("file", "path")``."""
    return tuple(token.lower() for token in _CAMEL.split(name) if token)


def infer_kinds(
    parameters: Mapping[str, Any], *, tool_name: str = "", tool_description: str = ""
) -> dict[str, ArgumentKind]:
    """Guess the kind of every string argument of a tool (see the module docstring for the rules).

    Args:
        parameters: The tool's parameters as a JSON Schema object (``properties`` at the top).
        tool_name: The tool's name; a database-looking name turns ``query`` into SQL.
        tool_description: The tool's description, read the same way as its name.

    Returns:
        Argument path -> kind, e.g. ``{"command": COMMAND, "options.url": URL, "files[]": PATH}``;
        arguments that are not strings are absent.
    """
    database_tool = is_database_tool(tool_name, tool_description)
    kinds: dict[str, ArgumentKind] = {}
    _Walk(parameters, kinds, database_tool).object(parameters, "", 0)
    return kinds


class _Walk:
    """One walk of a tool's schema; ``root`` resolves local ``$ref`` (``#/$defs/...``)."""

    def __init__(
        self, root: Mapping[str, Any], kinds: dict[str, ArgumentKind], database_tool: bool
    ) -> None:
        self.root = root
        self.kinds = kinds
        self.database_tool = database_tool

    def object(self, schema: Mapping[str, Any], prefix: str, depth: int) -> None:
        schema = self.resolve(schema)
        properties = schema.get("properties")
        if not isinstance(properties, Mapping) or depth > _MAX_DEPTH:
            return
        for name, sub in properties.items():
            if isinstance(sub, Mapping):
                self.value(sub, f"{prefix}{name}", str(name), depth)

    def value(self, schema: Mapping[str, Any], path: str, name: str, depth: int) -> None:
        schema = self.resolve(schema)
        explicit = _explicit_kind(schema, self)
        if explicit is not None:
            self.kinds[path] = ArgumentKind(explicit)
            return
        types = _types(schema)
        if "string" in types:
            if "enum" not in schema and "const" not in schema:
                self.kinds[path] = _kind_of(name, schema, self.database_tool)
        elif "array" in types and isinstance(schema.get("items"), Mapping):
            self.value(schema["items"], f"{path}[]", name, depth + 1)
        elif "object" in types:
            self.object(schema, f"{path}.", depth + 1)

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """A local ``$ref``'s target, with the referring schema's own keys over it."""
        ref = schema.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return schema
        target: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, Mapping) or part not in target:
                return schema  # a dangling $ref: compile_schema reports it
            target = target[part]
        if not isinstance(target, Mapping) or target is schema:
            return schema
        own = {k: v for k, v in schema.items() if k != "$ref"}
        return {**target, **own}


def _explicit_kind(schema: Mapping[str, Any], walk: _Walk) -> Any:
    """``x-qgs-kind`` on the schema, else on its first ``anyOf``/``oneOf`` branch with one.

    E.g. ``{"anyOf": [{"type": "string", "x-qgs-kind": "command"}, {"type": "null"}]}``.
    """
    if "x-qgs-kind" in schema:
        return schema["x-qgs-kind"]
    for branch in (*schema.get("anyOf", ()), *schema.get("oneOf", ())):
        if isinstance(branch, Mapping):
            branch = walk.resolve(branch)
            if "x-qgs-kind" in branch:
                return branch["x-qgs-kind"]
    return None


def _types(schema: Mapping[str, Any]) -> frozenset[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    found: set[str] = set()
    for branch in (*schema.get("anyOf", ()), *schema.get("oneOf", ())):
        if isinstance(branch, Mapping):
            found |= _types(branch)
    return frozenset(found)


def is_database_tool(name: str, description: str = "") -> bool:
    """Whether a tool's name or description says SQL/database (then ``query`` is SQL)."""
    return bool(_DATABASE_TOOL.search(name.replace("_", " ")) or _DATABASE_TOOL.search(description))


@lru_cache(maxsize=4096)
def kind_of_name(name: str, database_tool: bool = False) -> ArgumentKind | None:
    """Rule 3 of the module docstring: the kind a property's name alone says, or None.

    The last snake/camel token, singular, or the whole name (``shell_command``, ``targetUrl``,
    ``file_name``, ``bodyHtml``); ``query`` is SQL in a database tool. Memoized: the injection
    layer asks it for undeclared argument names on the hot path.
    """
    tokens = split_name(name)
    last = tokens[-1] if tokens else ""
    if last.endswith("s") and len(last) > 3:
        last = last[:-1]  # files, urls, paths, commands: one kind for the whole list
    if "html" in tokens:
        return ArgumentKind.HTML
    for kind, words in _NAME_WORDS.items():
        if last in words or "".join(tokens) in words:
            return kind
    if last == "name" and len(tokens) > 1 and tokens[-2] in _PATH_NOUNS:
        return ArgumentKind.PATH
    if last in _QUERY_WORDS and database_tool:
        return ArgumentKind.SQL
    return None


def _kind_of(name: str, schema: Mapping[str, Any], database_tool: bool) -> ArgumentKind:
    by_name = kind_of_name(name, database_tool)
    if by_name is not None:
        return by_name
    if schema.get("format") in ("uri", "url", "iri", "uri-reference"):
        return ArgumentKind.URL
    description = schema.get("description")
    if isinstance(description, str):
        for pattern, kind in _DESCRIPTION_RULES:
            if pattern.search(description):
                return kind
    return ArgumentKind.FREE_TEXT
