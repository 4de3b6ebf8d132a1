"""The policy decision point: principals and roles -> allowed tools, permissions and arguments.

One ``Policy`` answers for the whole of QGS: the tool-call gate's permission layer (5) asks it
before a call runs, and the review pipeline asks it about the tool calls of ACTION and CRITICAL
rounds (``permission_findings``). Pure: the file format and its loader live in
``qgs_worker.config.policy_file``.

How a decision is made, for ``decide(principal, tool, permission, arguments)``:

1. The principal's roles: those ``principals`` lists for it, else the ``default_roles`` (empty
   by default: an unknown principal may do nothing).
2. A role of the principal that lists the tool in ``deny_tools`` denies it, whatever the others
   allow (deny wins).
3. At least one role must list the tool in ``tools`` (names or ``fnmatch`` globs: ``get_*``,
   ``*``) *and* grant the tool's ``permission`` (read, write, delete, execute).
4. Argument constraints: a role may pin the values an argument takes (``send_money.recipient``
   one of the known payees). The call passes when one role that grants the tool has all its
   constraints for that tool met. A constraint applies to the argument when the call gives it
   (whether it must be given is the schema's business, layer 3); each value must equal an
   allowed value exactly (strings are case-sensitive; ``1`` equals ``1.0``; ``true`` is not
   ``1``); ``path[]`` constrains every item of an array.

The role-level part (steps 1-3) is cached per (principal, tool, permission): a decision costs
a dict lookup, plus the argument constraints when the tool has any.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qgs_worker.core.models import Finding, Severity, ToolCall
from qgs_worker.core.ports import PolicyDecision as PolicyDecision  # the port's answer
from qgs_worker.core.ports import PolicyDecisionPoint
from qgs_worker.core.toolgate.kinds import infer_kinds
from qgs_worker.core.toolgate.paths import ArgumentPath
from qgs_worker.core.toolgate.registry import ToolRegistry
from qgs_worker.core.toolgate.spec import Permission, infer_permission
from qgs_worker.errors import ConfigurationError

__all__ = [
    "PERMISSION_CATEGORY",
    "PERMISSION_ROLE",
    "Policy",
    "PolicyDecision",
    "Role",
    "permission_findings",
]

PERMISSION_ROLE = "permission"
"""The ``role`` of the findings the review pipeline stores for denied tool calls."""
PERMISSION_CATEGORY = "permission_denied"
"""Their ``category``."""

_CACHE_SIZE = 4096
_SHOWN_VALUES = 5


class _Names:
    """Tool names and globs, matched fast: a set for names, one regex for the globs."""

    __slots__ = ("_exact", "_glob")

    def __init__(self, patterns: Iterable[str]) -> None:
        exact, globs = set(), []
        for pattern in patterns:
            if any(c in pattern for c in "*?["):
                globs.append(fnmatch.translate(pattern))
            else:
                exact.add(pattern)
        self._exact = frozenset(exact)
        self._glob = re.compile("|".join(globs)) if globs else None

    def __call__(self, name: str) -> bool:
        return name in self._exact or (self._glob is not None and bool(self._glob.match(name)))


_ALLOWED: Any = object()


def _disallowed(value: Any, allowed: frozenset[tuple[str, Any]]) -> Any:
    """The value (or, for an array, its first item) that ``allowed`` lacks, else ``_ALLOWED``."""
    if isinstance(value, list):
        for item in value:
            if _value_key(item) not in allowed:
                return item
        return _ALLOWED
    return _ALLOWED if _value_key(value) in allowed else value


def _value_key(value: Any) -> tuple[str, Any]:
    if isinstance(value, bool):
        return "bool", value
    if isinstance(value, int | float):
        return "number", value
    if isinstance(value, str):
        return "string", value
    return "json", json.dumps(value, sort_keys=True, default=str)


@dataclass(frozen=True, slots=True)
class _Constraint:
    tool_key: str
    path: ArgumentPath
    allowed: frozenset[tuple[str, Any]]
    shown: str
    set_name: str | None = None


@dataclass(frozen=True, slots=True)
class Role:
    """A named set of grants.

    Args:
        name: The role's name, as ``principals`` refers to it.
        tools: Tool names or ``fnmatch`` globs the role may call (``"*"``: all).
        permissions: What those tools may do for this role.
        deny_tools: Names or globs this role denies, even when another role allows them.
        arguments: Tool (name or glob) -> argument path -> the values allowed
            (``{"send_money": {"recipient": ("GB29...", "Spotify")}}``); scalars only. When the
            value at the path is an array, every item must be allowed.
        argument_sets: Tool -> argument path -> the name of the ``[sets]`` entry its values came
            from, so a denial says which set to extend.

    Raises:
        ConfigurationError: An argument path is malformed.
    """

    name: str
    tools: tuple[str, ...] = ()
    permissions: frozenset[Permission] = frozenset()
    deny_tools: tuple[str, ...] = ()
    arguments: Mapping[str, Mapping[str, Sequence[Any]]] = field(default_factory=dict)
    argument_sets: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    _allows: _Names = field(init=False, repr=False, compare=False)
    _denies: _Names = field(init=False, repr=False, compare=False)
    _constraints: tuple[tuple[_Names, tuple[_Constraint, ...]], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_allows", _Names(self.tools))
        object.__setattr__(self, "_denies", _Names(self.deny_tools))
        compiled = []
        for tool_key, paths in self.arguments.items():
            constraints = []
            for path, values in paths.items():
                try:
                    compiled_path = ArgumentPath(path)
                except ValueError as error:
                    raise ConfigurationError(
                        f"roles.{self.name}.arguments.{tool_key}: {error}"
                    ) from error
                shown = ", ".join(repr(v) for v in list(values)[:_SHOWN_VALUES])
                if len(values) > _SHOWN_VALUES:
                    shown += f", ... ({len(values)} in all)"
                set_name = self.argument_sets.get(tool_key, {}).get(path)
                allowed = frozenset(map(_value_key, values))
                constraints.append(_Constraint(tool_key, compiled_path, allowed, shown, set_name))
            compiled.append((_Names([tool_key]), tuple(constraints)))
        object.__setattr__(self, "_constraints", tuple(compiled))

    def constraints_for(self, tool: str) -> tuple[_Constraint, ...]:
        """Every argument constraint of this role that applies to ``tool``."""
        return tuple(c for names, group in self._constraints if names(tool) for c in group)


@dataclass(frozen=True, slots=True)
class _Grant:
    """Roles that grant a tool and permission, but with argument constraints to check."""

    principal: str
    tool: str
    options: tuple[tuple[Role, tuple[_Constraint, ...]], ...]


class Policy:
    """Principals, their roles, and what each role may do (see the module docstring).

    Args:
        roles: The roles; names must be unique.
        principals: Principal name -> its role names.
        default_roles: The roles of a principal ``principals`` does not name (and of ``None``);
            empty (the default): such a principal may do nothing.
        source: Where the policy came from (a file name), quoted in fixes.

    Raises:
        ConfigurationError: Two roles share a name, or a principal or ``default_roles`` names
            a role that is not defined.
    """

    def __init__(
        self,
        roles: Iterable[Role],
        principals: Mapping[str, Sequence[str]],
        default_roles: Sequence[str] = (),
        *,
        source: str = "the policy",
    ) -> None:
        self.roles: dict[str, Role] = {}
        for role in roles:
            if role.name in self.roles:
                raise ConfigurationError(f"{source}: role {role.name!r} is defined twice")
            self.roles[role.name] = role
        self.principals = {name: tuple(names) for name, names in principals.items()}
        self.default_roles = tuple(default_roles)
        self.source = source
        for key, names in [
            *((f"principals.{p}", n) for p, n in self.principals.items()),
            ("default_roles", self.default_roles),
        ]:
            for name in names:
                if name not in self.roles:
                    known = ", ".join(sorted(self.roles)) or "none"
                    raise ConfigurationError(
                        f"{source}: {key} names role {name!r}, which is not defined "
                        f"(roles: {known}); define it under [roles.{name}] or remove it"
                    )
        self._cache: dict[tuple[str | None, str, str], PolicyDecision | _Grant] = {}

    def roles_of(self, principal: str | None) -> tuple[str, ...]:
        """The role names of a principal (the default roles for one the policy does not name)."""
        if principal is not None and principal in self.principals:
            return self.principals[principal]
        return self.default_roles

    def decide(
        self,
        principal: str | None,
        tool: str,
        permission: Permission,
        arguments: Mapping[str, Any] | None = None,
    ) -> PolicyDecision:
        """See ``qgs_worker.core.ports.PolicyDecisionPoint.decide``; never raises."""
        key = (principal, tool, permission)
        grant = self._cache.get(key)
        if grant is None:
            grant = self._grant(principal, tool, Permission(permission))
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = grant
        if isinstance(grant, PolicyDecision):
            return grant
        return self._check_arguments(grant, arguments or {})

    def _grant(
        self, principal: str | None, tool: str, permission: Permission
    ) -> PolicyDecision | _Grant:
        who = "anonymous" if principal is None else principal
        names = self.roles_of(principal)
        if not names and principal in self.principals:
            return PolicyDecision.deny(
                f"principal {who!r} has no role in the policy",
                f"principals.{who}",
                f"give {who!r} a role under [principals] in {self.source}",
            )
        if not names:
            return PolicyDecision.deny(
                f"principal {who!r} is not in the policy, and the policy gives unknown "
                "principals no role",
                "default_roles",
                f"add {who!r} under [principals] in {self.source}, or set default_roles",
            )
        roles = [self.roles[n] for n in names]
        for role in roles:
            if role._denies(tool):
                return PolicyDecision.deny(
                    f"role {role.name!r} of {who!r} denies tool {tool!r}",
                    f"roles.{role.name}.deny_tools",
                    f"remove {tool!r} from roles.{role.name}.deny_tools in {self.source}",
                )
        shown = ", ".join(names)
        granting = [r for r in roles if r._allows(tool)]
        if not granting:
            return PolicyDecision.deny(
                f"no role of {who!r} ({shown}) allows tool {tool!r}",
                f"roles.{'|'.join(names)}.tools",
                f"add {tool!r} to the tools of one of {who!r}'s roles in {self.source}",
            )
        permitted = [r for r in granting if permission in r.permissions]
        if not permitted:
            names_granting = "|".join(r.name for r in granting)
            granted = sorted({p.value for r in granting for p in r.permissions})
            return PolicyDecision.deny(
                f"role {names_granting!r} of {who!r} allows tool {tool!r} but not the "
                f"{permission.value!r} permission it needs (granted: {', '.join(granted) or 'none'})",
                f"roles.{names_granting}.permissions",
                f"add {permission.value!r} to roles.{granting[0].name}.permissions in "
                f"{self.source}, if {who!r} may {permission.value}",
            )
        options = tuple((r, r.constraints_for(tool)) for r in permitted)
        for role, constraints in options:
            if not constraints:
                return PolicyDecision.allow(
                    f"role {role.name!r} of {who!r} allows tool {tool!r} ({permission.value})",
                    f"roles.{role.name}.tools",
                )
        return _Grant(who, tool, options)

    def _check_arguments(self, grant: _Grant, arguments: Mapping[str, Any]) -> PolicyDecision:
        first_refusal: PolicyDecision | None = None
        for role, constraints in grant.options:
            refusal = self._refusal(grant, role, constraints, arguments)
            if refusal is None:
                return PolicyDecision.allow(
                    f"role {role.name!r} of {grant.principal!r} allows tool {grant.tool!r} "
                    "with these arguments",
                    f"roles.{role.name}.arguments",
                )
            first_refusal = first_refusal or refusal
        assert first_refusal is not None
        return first_refusal

    def _refusal(
        self,
        grant: _Grant,
        role: Role,
        constraints: tuple[_Constraint, ...],
        arguments: Mapping[str, Any],
    ) -> PolicyDecision | None:
        for constraint in constraints:
            for where, value in constraint.path.values(arguments):
                bad = _disallowed(value, constraint.allowed)
                if bad is _ALLOWED:
                    continue
                rule = f"roles.{role.name}.arguments.{constraint.tool_key}.{constraint.path.text}"
                target = rule if constraint.set_name is None else f"[sets] {constraint.set_name}"
                got = f"{_clip(bad)!r}" if bad is value else f"{_clip(bad)!r} in {_clip(value)!r}"
                return PolicyDecision.deny(
                    f"role {role.name!r} of {grant.principal!r} allows "
                    f"{grant.tool}.{constraint.path.text} only to be one of "
                    f"{constraint.shown} (got {got})",
                    rule,
                    f"if {_clip(bad)!r} is legitimate, add it to {target} in {self.source}",
                    where,
                )
        return None

    def __repr__(self) -> str:
        return f"Policy({len(self.roles)} roles, {len(self.principals)} principals, {self.source})"


def permission_findings(
    pdp: PolicyDecisionPoint,
    calls: Iterable[ToolCall],
    principal: str | None,
    registry: ToolRegistry | None = None,
) -> list[Finding]:
    """Ask the policy about each tool call of a round; one P1 finding per denied call.

    Args:
        pdp: The policy decision point (the same one the tool-call gate asks).
        calls: The round's tool calls.
        principal: Who the calls acted for (the task's agent).
        registry: Registered tools; a registered tool's declared permission is used, else the
            permission is inferred from the tool's name and argument names (``infer_permission``).

    Returns:
        Findings with role ``permission``, category ``permission_denied``, severity P1, the
        title naming the principal, tool, permission and the policy's reason.
    """
    findings = []
    for call in calls:
        spec = registry.get(call.name) if registry is not None else None
        if spec is not None:
            permission = spec.permission
        else:
            shape = {"properties": {k: {"type": "string"} for k in call.arguments}}
            permission = infer_permission(call.name, infer_kinds(shape, tool_name=call.name))
        decision = pdp.decide(principal, call.name, permission, call.arguments)
        if decision.allowed:
            continue
        argument = (decision.argument or "").removeprefix("$.")
        findings.append(
            Finding(
                role=PERMISSION_ROLE,
                category=PERMISSION_CATEGORY,
                severity=Severity.P1,
                title=(
                    f"{principal or 'anonymous'!r} may not call {call.name!r} "
                    f"({permission.value}): {decision.reason}"
                ),
                evidence=_clip(json.dumps(call.arguments, ensure_ascii=False, default=str), 200),
                location=f"tool_call:{call.name}" + (f".{argument}" if argument else ""),
            )
        )
    return findings


def _clip(value: Any, most: int = 80) -> Any:
    if isinstance(value, str) and len(value) > most:
        return f"{value[: most - 3]}..."
    return value
