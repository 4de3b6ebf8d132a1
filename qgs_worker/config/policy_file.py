"""The policy file: who may call which tools, with which permissions and argument values.

TOML (``.toml``, read with the standard library's ``tomllib``) or JSON (``.json``), the same
keys in both. ``QGS_POLICY_FILE`` names it; the tool-call gate's permission layer and the review
pipeline load it through ``load_pdp``. An example, the AgentDojo banking agent::

    # Roles of a principal the file does not name. [] (the default): it may do nothing.
    default_roles = []

    [principals]
    banking-agent = ["reader", "teller"]

    [roles.reader]
    tools = ["get_*", "read_file"]          # names or fnmatch globs; "*" is every tool
    permissions = ["read"]                  # read, write, delete, execute

    [roles.teller]
    tools = ["send_money", "schedule_transaction", "update_scheduled_transaction"]
    permissions = ["write"]
    deny_tools = []                         # denied even when another role allows them

    [roles.teller.arguments.send_money]     # tool name or glob -> argument path -> values
    recipient = "payees"                    # a string names a list under [sets]

    [roles.teller.arguments."*_transaction"]
    recipient = "payees"

    [sets]
    payees = ["UK12345678901234567890", "GB29NWBK60161331926819", "Spotify", "Apple"]

Argument paths are those of the tool's arguments (``recipient``, ``options.url``, ``files[]``);
values are strings, numbers or booleans. Every mistake raises ``ConfigurationError`` naming the
file, the key and the fix; unknown keys are mistakes (a misspelt ``deny_tool`` must not
silently grant what it meant to deny).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qgs_worker.core.toolgate.paths import compile_path
from qgs_worker.core.toolgate.spec import Permission
from qgs_worker.errors import ConfigurationError

if TYPE_CHECKING:
    # Imported where a policy file is read: without one (``qgs check-tool``'s default) the
    # command starts without the policy engine and the TOML parser (issue 15).
    from qgs_worker.config.settings_groups import GateConfig
    from qgs_worker.core.policy import Policy, Role
    from qgs_worker.core.ports import PolicyDecisionPoint

__all__ = ["load_pdp", "load_policy", "parse_policy"]

_TOP_KEYS = frozenset({"default_roles", "principals", "roles", "sets"})
_ROLE_KEYS = frozenset({"tools", "permissions", "deny_tools", "arguments"})
_PERMISSIONS = ", ".join(p.value for p in Permission)


def load_pdp(settings: GateConfig) -> PolicyDecisionPoint | None:
    """The policy ``QGS_POLICY_FILE`` names, or ``None`` when it is unset.

    Without a policy the gate's permission layer passes calls with a "no policy configured"
    warning and the review pipeline checks no permissions.

    Raises:
        ConfigurationError: The file is missing, unreadable or invalid (naming the file, the
            key and the fix).
    """
    if settings.policy_file is None:
        return None
    return load_policy(settings.policy_file, setting="QGS_POLICY_FILE")


def load_policy(path: str | Path, *, setting: str | None = None) -> Policy:
    """Read a policy file (TOML, or JSON when it ends in ``.json``).

    Args:
        path: The file.
        setting: The setting that named it, quoted when the file is missing.

    Raises:
        ConfigurationError: The file is missing, unreadable, not TOML/JSON, or invalid.
    """
    import tomllib

    file = Path(path)
    named = f" ({setting})" if setting else ""
    try:
        raw = file.read_bytes()
    except OSError as error:
        raise ConfigurationError(
            f"policy file {file}{named} cannot be read: {error.strerror or error}; "
            "fix the path or unset the setting to run without a policy"
        ) from error
    try:
        text = raw.decode("utf-8")
        data = json.loads(text) if file.suffix.lower() == ".json" else tomllib.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        form = "JSON" if file.suffix.lower() == ".json" else "TOML (name it .json for JSON)"
        raise ConfigurationError(f"policy file {file}: not valid {form}: {error}") from error
    return parse_policy(data, source=str(file))


def parse_policy(data: Any, *, source: str = "the policy") -> Policy:
    """Build a ``Policy`` from a policy file's parsed content (the format in the module docs).

    Args:
        data: The parsed TOML or JSON document.
        source: The file's name, quoted in errors and in the policy's fixes.

    Raises:
        ConfigurationError: A key is unknown, a value has the wrong type, a permission or set
            is unknown, or a principal names an undefined role.
    """
    top = _table(data, "(top level)", source)
    _no_unknown(top, _TOP_KEYS, "(top level)", source)
    sets = {
        name: _values(values, f"sets.{name}", source)
        for name, values in _table(top.get("sets", {}), "sets", source).items()
    }
    roles = [
        _role(name, body, sets, source)
        for name, body in _table(top.get("roles", {}), "roles", source).items()
    ]
    principals = {
        name: _strings(names, f"principals.{name}", source)
        for name, names in _table(top.get("principals", {}), "principals", source).items()
    }
    default_roles = _strings(top.get("default_roles", []), "default_roles", source)
    from qgs_worker.core.policy import Policy

    return Policy(roles, principals, default_roles, source=source)


def _role(name: str, body: Any, sets: Mapping[str, tuple[Any, ...]], source: str) -> Role:
    key = f"roles.{name}"
    table = _table(body, key, source)
    _no_unknown(table, _ROLE_KEYS, key, source)
    permissions = []
    for value in _strings(table.get("permissions", []), f"{key}.permissions", source):
        try:
            permissions.append(Permission(value))
        except ValueError:
            raise ConfigurationError(
                f"{source}: {key}.permissions: unknown permission {value!r} "
                f"(one of: {_PERMISSIONS})"
            ) from None
    arguments: dict[str, dict[str, tuple[Any, ...]]] = {}
    argument_sets: dict[str, dict[str, str]] = {}
    for tool, paths in _table(table.get("arguments", {}), f"{key}.arguments", source).items():
        constraints: dict[str, tuple[Any, ...]] = {}
        for path, values in _table(paths, f"{key}.arguments.{tool}", source).items():
            where = f"{key}.arguments.{tool}.{path}"
            try:
                compile_path(path)
            except ValueError as error:
                raise ConfigurationError(
                    f"{source}: {key}.arguments.{tool}: {error}; quote a path with dots in TOML"
                ) from error
            if isinstance(values, str):
                if values not in sets:
                    known = ", ".join(sorted(sets)) or "none"
                    raise ConfigurationError(
                        f"{source}: {where}: names the set {values!r}, which [sets] does not "
                        f"define (sets: {known}); define it, or give the values as a list"
                    )
                constraints[path] = sets[values]
                argument_sets.setdefault(tool, {})[path] = values
            else:
                constraints[path] = _values(values, where, source)
        arguments[tool] = constraints
    from qgs_worker.core.policy import Role

    return Role(
        name=name,
        tools=_strings(table.get("tools", []), f"{key}.tools", source),
        permissions=frozenset(permissions),
        deny_tools=_strings(table.get("deny_tools", []), f"{key}.deny_tools", source),
        arguments=arguments,
        argument_sets=argument_sets,
    )


def _table(value: Any, key: str, source: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigurationError(
            f"{source}: {key} must be a table (an object in JSON) (got {_kind(value)})"
        )
    return {str(k): v for k, v in value.items()}


def _no_unknown(table: Mapping[str, Any], known: frozenset[str], key: str, source: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigurationError(
            f"{source}: {key}: unknown key {unknown[0]!r} (known keys: {', '.join(sorted(known))})"
        )


def _strings(value: Any, key: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigurationError(
            f"{source}: {key} must be a list of non-empty strings (got {value!r})"
        )
    return tuple(value)


def _values(value: Any, key: str, source: str) -> tuple[Any, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, str | int | float | bool) for v in value
    ):
        raise ConfigurationError(
            f"{source}: {key} must be a list of strings, numbers or booleans (got {value!r})"
        )
    return tuple(value)


def _kind(value: Any) -> str:
    names = {list: "a list", str: "a string", bool: "a boolean", type(None): "nothing"}
    return names.get(type(value), "a number" if isinstance(value, int | float) else repr(value))
