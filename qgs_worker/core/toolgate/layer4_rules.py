"""Layer 4, business rules: file sizes, URL domains, and the rate limit per (agent, tool).

Rules come from the tool's ``BusinessRules`` (``x-qgs`` in its definition); a field the tool
leaves ``None`` takes the layer's registry-wide default (``RulesLayer(defaults=...)``). In order:

1. **File size** (``max_file_bytes``): every path-kind argument (``kinds.py``) names a file of at
   most that many bytes, as the ``file_size`` port reports it. A path the port cannot size (it
   does not exist, is not a regular file, cannot be read) is *not* a violation: the tool itself
   will report a missing file, and creating a file is legitimate. Relative paths are sized
   from the checking process's working directory (the default port, ``toolgate_io``).
2. **Domain allowlist** (``allowed_domains``): every url-kind argument's host equals an allowed
   domain or is a subdomain of one (the host of any other argument that is one whole URL,
   ``browse(location="https://evil.example/")``, is checked too, and a WARN says when it is
   not allowed: such an argument may be a link to post rather than a host to call) (``api.example.com`` matches ``example.com``;
   ``badexample.com`` does not). A URL without a scheme (``example.com/x``) is read host first.
   A URL that cannot be parsed, has no host, or whose host is not a DNS name or IP address
   (backslashes, percent signs, spaces) FAILs with the reason; ``"*"`` allows any host.
3. **Rate limit** (``rate_limit``): at most ``max_calls`` calls in any ``window_s`` seconds per
   (principal, agent, tool), counted by the ``RateLimiter`` port (Redis-backed: shared by every
   process). The key is ``toolgate:<principal>/<agent_id>:<tool>`` (a part the caller did not
   give is ``-``; neither: ``anonymous``), so one principal's calls never use another's budget
   whatever agent name they carry (over the HTTP API the principal is the key's, while the agent
   is a label its holder chooses: the per-key request limit bounds a holder that varies it;
   break test of issue 13). It runs last, so a call
   refused by rules 1-2 uses no part of the budget; a call this layer passes counts even if a
   later layer (permission, injection) refuses it. A refused call FAILs with "retry after N s".
   When the limiter raises (its Redis is down) the layer fails open with a WARN by default
   (``fail_open=False``: FAIL).

Errors start with the argument's JSON path (``$.url``, ``$.files[1]``) or the tool name's path,
name the rule, and say the fix. No I/O except the rate limiter and, for tools with a file-size
limit, one ``stat`` per path argument; everything else is precomputed per tool on first use.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from qgs_worker.core.toolgate.base import CheckContext, LayerResult
from qgs_worker.core.toolgate.kinds import ArgumentKind, looks_like_url
from qgs_worker.core.toolgate.paths import ArgumentPath
from qgs_worker.core.toolgate.spec import BusinessRules, RateLimit, ToolSpec

if TYPE_CHECKING:
    from qgs_worker.core.ports import FileSize, RateLimiter
    from qgs_worker.core.toolgate.calls import ParsedCall

__all__ = ["KEY_PREFIX", "RulesLayer", "host_allowed", "url_host"]

NUMBER = 4
NAME = "business_rules"
KEY_PREFIX = "toolgate:"
"""Rate-limit keys of the gate start with this (the limiter adds its own prefix in Redis)."""

_PASS = LayerResult.of(NUMBER, NAME)
_MAX_PLANS = 4096
_HOST = re.compile(r"[a-z0-9_.-]+|[0-9a-f:.]+")  # a DNS name / IPv4, or an IPv6 literal
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_SCP_LIKE = re.compile(r"[\w.+-]+@(?P<host>[A-Za-z0-9.-]+):(?!\d+(?:/|$))")


@functools.lru_cache(maxsize=1024)
def url_host(url: str) -> tuple[str | None, str | None]:
    """The host a URL names, lower case, or why none can be read.

    Args:
        url: A URL (``https://api.example.com/x``), a host-first string (``example.com/x``), or
            git's scp-like form (``git@github.com:org/repo.git``).

    Returns:
        ``(host, None)``, or ``(None, reason)`` when the URL cannot be parsed, has no host, or
        its host is not a plain DNS name or IP address. Answers are cached (1024 URLs).
    """
    text = url.strip()
    if not text:
        return None, "empty URL"
    if any(c in text for c in "\\\x00\t\r\n "):
        return None, "a URL with a backslash, a space or a control character"
    scp_like = _SCP_LIKE.match(text)
    if scp_like and not _SCHEME.match(text):
        text = "//" + scp_like.group("host")  # git's user@host:path form (git-clone(1), "URLS")
    elif not _SCHEME.match(text) and not text.startswith("//"):
        text = "//" + text
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number
        host = parts.hostname
    except ValueError as error:
        return None, f"not a parsable URL ({error})"
    if not host:
        return None, "no host name"
    host = host.rstrip(".")
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return None, f"host {host!r} is not a valid internationalized domain name"
    if not _HOST.fullmatch(host):
        return None, f"host {host!r} is not a DNS name or IP address"
    return host, None


def host_allowed(host: str, domains: frozenset[str], suffixes: tuple[str, ...]) -> bool:
    """Whether ``host`` equals one of ``domains`` or ends with one of ``suffixes`` (``.d``)."""
    return host in domains or host.endswith(suffixes)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What layer 4 checks for one tool, worked out once."""

    spec: ToolSpec
    rules: BusinessRules
    paths: tuple[ArgumentPath, ...]  # path-kind arguments, when a file-size limit applies
    urls: tuple[ArgumentPath, ...]  # url-kind arguments, when an allowlist applies
    allowlist: bool  # an allowlist applies: URL-shaped values of any argument are checked too
    own_rate_limit: bool  # the rate limit is the tool's own (x-qgs), not the registry default
    domains: frozenset[str]
    suffixes: tuple[str, ...]
    shown_domains: str


def _domains(raw: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    cleaned = set()
    for domain in raw:
        text = domain.strip().lower().removeprefix("*.").strip(".")
        if text and not text.isascii():
            # A domain IDNA cannot encode stays as written: no host reads like it, it allows nothing.
            with contextlib.suppress(UnicodeError):
                text = text.encode("idna").decode("ascii")
        if text:
            cleaned.add(text)
    return frozenset(cleaned), tuple(f".{d}" for d in sorted(cleaned))


class RulesLayer:
    """Layer 4: the business rules (see the module docstring for each rule).

    Args:
        limiter: Counts calls for the rate limit (``qgs_worker.limits.ratelimit.RedisRateLimiter``
            across processes, ``LocalRateLimiter`` in one). ``None``: rate limits are not
            enforced and a tool that has one gets a WARN saying so.
        defaults: Registry-wide rules; a tool's own non-``None`` fields override them.
        file_size: Sizes a path in bytes, ``None`` when it cannot (``qgs_worker.config.toolgate_io
            .stat_file_size``). ``None``: file-size limits are not enforced (a WARN says so).
        fail_open: When the limiter raises: ``True`` passes the call with a WARN, ``False``
            fails it.
    """

    number = NUMBER
    name = NAME

    def __init__(
        self,
        limiter: RateLimiter | None = None,
        *,
        defaults: BusinessRules | None = None,
        file_size: FileSize | None = None,
        fail_open: bool = True,
    ) -> None:
        self.limiter = limiter
        self.defaults = defaults or BusinessRules()
        self.file_size = file_size
        self.fail_open = fail_open
        self._plans: dict[int, _Plan] = {}

    def check(self, call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
        """Apply the tool's business rules to one call.

        Args:
            call: The parsed call; its arguments were validated by layer 3.
            spec: The registered tool (layer 2 passed); ``None`` is a FAIL.
            context: ``agent_id`` (else ``principal``) keys the rate limit.

        Returns:
            PASS; WARN when a configured rule could not be enforced; FAIL with one error per
            violation, each naming the argument, the rule and the fix.
        """
        if spec is None:
            return LayerResult.of(NUMBER, NAME, errors=(f"{call.name_path}: no registered tool",))
        plan = self._plans.get(id(spec))
        if plan is None or plan.spec is not spec:
            plan = self._plan(spec)
        rules = plan.rules
        if rules.rate_limit is None and not plan.paths and not plan.allowlist:
            return _PASS
        arguments = call.arguments or {}
        errors: list[str] = []
        warnings: list[str] = []
        if plan.paths:
            self._check_sizes(plan, arguments, errors, warnings)
        if plan.allowlist:
            checked = set()
            for path in plan.urls:
                for where, value in path.values(arguments):
                    if isinstance(value, str):
                        checked.add(where)
                        self._check_url(plan, where, value, errors)
            # a whole URL in another argument may be a link to post, not a host to call: WARN
            shaped: list[str] = []
            for where, value in _url_shaped(arguments, "$", 0):
                if where not in checked:
                    self._check_url(plan, where, value, shaped)
            warnings.extend(
                f"{line}; not a url argument, so reported, not blocked (declare it "
                "x-qgs-kind: url to enforce the allowlist)"
                for line in shaped
            )
        if errors:
            fix = _fix(spec.name, errors)
            shown = tuple(errors[: context.settings.max_errors])
            return LayerResult.of(NUMBER, NAME, errors=shown, suggestion=fix)
        if rules.rate_limit is not None:
            refused = self._check_rate(call, plan, rules.rate_limit, context, warnings)
            if refused is not None:
                return refused
        if warnings:
            return LayerResult.of(NUMBER, NAME, warnings=tuple(warnings))
        return _PASS

    def _plan(self, spec: ToolSpec) -> _Plan:
        own, base = spec.rules, self.defaults
        rules = BusinessRules(
            rate_limit=own.rate_limit if own.rate_limit is not None else base.rate_limit,
            max_file_bytes=own.max_file_bytes
            if own.max_file_bytes is not None
            else base.max_file_bytes,
            allowed_domains=own.allowed_domains
            if own.allowed_domains is not None
            else base.allowed_domains,
        )
        allowed = rules.allowed_domains
        open_hosts = allowed is None or "*" in allowed
        domains, suffixes = _domains(allowed or ())
        kinds = spec.kinds.items()
        plan = _Plan(
            spec=spec,
            rules=rules,
            paths=()
            if rules.max_file_bytes is None
            else tuple(ArgumentPath(p) for p, k in kinds if k is ArgumentKind.PATH),
            urls=()
            if open_hosts
            else tuple(ArgumentPath(p) for p, k in kinds if k is ArgumentKind.URL),
            allowlist=not open_hosts,
            own_rate_limit=own.rate_limit is not None,
            domains=domains,
            suffixes=suffixes,
            shown_domains=", ".join(sorted(domains)) or "none",
        )
        if len(self._plans) >= _MAX_PLANS:
            self._plans.clear()  # specs replaced many times over (disable/enable): start afresh
        self._plans[id(spec)] = plan  # the plan holds the spec, so its id is not reused
        return plan

    def _check_sizes(
        self, plan: _Plan, arguments: dict[str, object], errors: list[str], warnings: list[str]
    ) -> None:
        limit = plan.rules.max_file_bytes
        assert limit is not None
        if self.file_size is None:
            warnings.append(
                f"max_file_bytes: the {limit}-byte limit of {plan.spec.name!r} is not enforced "
                "(no file_size port was given to RulesLayer)"
            )
            return
        for path in plan.paths:
            for where, value in path.values(arguments):
                if not isinstance(value, str):
                    continue
                size = self.file_size(value)
                if size is not None and size > limit:
                    errors.append(
                        f"{where}: file {value!r} is {size} bytes, over the {limit}-byte limit "
                        f"of tool {plan.spec.name!r} (rule max_file_bytes)"
                    )

    @staticmethod
    def _check_url(plan: _Plan, where: str, value: str, errors: list[str]) -> None:
        host, problem = url_host(value)
        if host is None:
            errors.append(
                f"{where}: {_clip(value)!r} cannot be checked against the domain allowlist: "
                f"{problem} (rule allowed_domains)"
            )
        elif not host_allowed(host, plan.domains, plan.suffixes):
            errors.append(
                f"{where}: host {host!r} is not an allowed domain of tool {plan.spec.name!r} "
                f"(rule allowed_domains: {plan.shown_domains}, and their subdomains)"
            )

    def _check_rate(
        self,
        call: ParsedCall,
        plan: _Plan,
        limit: RateLimit,
        context: CheckContext,
        warnings: list[str],
    ) -> LayerResult | None:
        spec = plan.spec
        if self.limiter is None:
            warnings.append(
                f"rate_limit: {limit.max_calls} calls per {limit.window_s:g} s of {spec.name!r} "
                "is not enforced (no rate limiter was given to RulesLayer)"
            )
            return None
        agent = context.agent_id or context.principal or "anonymous"
        try:
            decision = self.limiter.hit(
                f"{KEY_PREFIX}{_subject(context)}:{spec.name}",
                limit=limit.max_calls,
                window_s=limit.window_s,
            )
        except Exception as error:  # the limiter's store is down: fail open or closed, as set
            message = f"rate_limit: could not be checked ({type(error).__name__}: {error}); " + (
                "the call passes unchecked" if self.fail_open else "the call is refused"
            )
            if self.fail_open:
                warnings.append(message)
                return None
            return LayerResult.of(NUMBER, NAME, errors=(f"{call.name_path}: {message}",))
        if decision.allowed:
            return None
        wait_s = max(math.ceil(decision.retry_after_s * 10) / 10, 0.1)
        refusal = (
            f"{call.name_path}: agent {agent!r} reached the rate limit of tool {spec.name!r}: "
            f"{decision.used} of {limit.max_calls} calls in the last {limit.window_s:g} s "
            f"(rule rate_limit); retry after {wait_s:g} s"
        )
        return LayerResult.of(
            NUMBER,
            NAME,
            errors=(refusal,),
            suggestion=f"retry after {wait_s:g} s, or raise "
            + (
                f"x-qgs.rate_limit of {spec.name!r}"
                if plan.own_rate_limit
                else "the registry-wide default rate limit (QGS_TOOLGATE__RATE_LIMIT_CALLS), "
                f"or give {spec.name!r} its own x-qgs.rate_limit"
            ),
        )


_MAX_DEPTH = 32


def _url_shaped(value: object, where: str, depth: int) -> Iterator[tuple[str, str]]:
    """Every string of ``value`` that is one whole URL (``kinds.looks_like_url``), with its path."""
    if isinstance(value, str):
        if looks_like_url(value):
            yield where, value
    elif depth >= _MAX_DEPTH:
        return
    elif isinstance(value, Mapping):
        for name, item in value.items():
            yield from _url_shaped(item, f"{where}.{name}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _url_shaped(item, f"{where}[{index}]", depth + 1)


def _fix(tool: str, errors: list[str]) -> str:
    fixes = []
    if any(e.endswith("(rule max_file_bytes)") for e in errors):
        fixes.append(f"pass a smaller file, or raise x-qgs.max_file_bytes of {tool!r}")
    if any("(rule allowed_domains" in e for e in errors):
        fixes.append(
            f"use a URL on an allowed domain, or add it to x-qgs.allowed_domains of {tool!r}"
        )
    return "; ".join(fixes)


def _clip(text: str) -> str:
    return text if len(text) <= 80 else f"{text[:77]}..."


def _subject(context: CheckContext) -> str:
    """Whose budget a call uses: ``principal/agent`` (``-`` for a part not given).

    ``/`` and ``:`` in a name are percent-encoded, so ``a/b`` + ``c`` and ``a`` + ``b/c`` never
    share a key.
    """
    if context.principal is None and context.agent_id is None:
        return "anonymous"
    parts = (context.principal, context.agent_id)
    return "/".join(
        "-" if p is None else p.replace("%", "%25").replace("/", "%2F").replace(":", "%3A")
        for p in parts
    )
