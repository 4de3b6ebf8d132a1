"""``qgs serve`` (the HTTP API), ``qgs mcp`` (the MCP server) and ``qgs keys`` (their API keys)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from qgs_worker.cli.common import app, broker_session, console, err_console
from qgs_worker.cli.terminal import markup_safe

if TYPE_CHECKING:  # the store (sqlalchemy) is imported where used: `qgs check-tool` starts without
    from qgs_worker.store import Repository

__all__ = ["keys_app", "mcp", "serve", "shadow"]

keys_app = typer.Typer(
    name="keys",
    help="API keys of the HTTP API: create (shown once), list, revoke.",
    no_args_is_help=True,
)
app.add_typer(keys_app, name="keys")


@app.command()
def serve(
    host: Annotated[
        str | None, typer.Option(help="Listen address (default QGS_API__HOST, 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None,
        typer.Option(min=1, max=65535, help="Listen port (default QGS_API__PORT, 8080)."),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
) -> None:
    """Serve the HTTP API (OpenAPI at /openapi.json, docs at /docs) and the console (/ui).

    With no QGS_BROKER_URL it starts the embedded broker; run `qgs worker` beside it on the
    same data folder. Every /v1 request needs an API key (`qgs keys create`); people sign in to
    the console at /ui with an operator key (`qgs keys create --operator NAME`).
    """
    import uvicorn

    from qgs_worker.api.http import create_app
    from qgs_worker.config.settings import Settings
    from qgs_worker.queue.preflight import check_broker, check_store

    settings = Settings()
    check_store(settings).dispose()  # a store that cannot be reached stops here, not per request
    with broker_session(settings, workers=False) as live:
        check_broker(live.broker_url or "", live.broker_timeout_s)
        bind_host = host or live.api.host
        bind_port = port if port is not None else live.api.port
        err_console.print(
            f"QGS API on http://{bind_host}:{bind_port} (docs at /docs, console at /ui)",
            soft_wrap=True,
        )
        uvicorn.run(
            create_app(live),
            host=bind_host,
            port=bind_port,
            log_level=log_level,
            server_header=False,
        )


class McpTransport(StrEnum):
    """How ``qgs mcp`` talks to its client."""

    stdio = "stdio"
    http = "http"


@app.command()
def mcp(
    transport: Annotated[
        McpTransport,
        typer.Option(help="stdio (the MCP host starts this command) or streamable HTTP at /mcp."),
    ] = McpTransport.stdio,
    host: Annotated[
        str | None, typer.Option(help="HTTP: listen address (default QGS_API__HOST, 127.0.0.1).")
    ] = None,
    port: Annotated[int, typer.Option(min=1, max=65535, help="HTTP: listen port.")] = 8090,
    log_level: Annotated[str, typer.Option(help="HTTP: uvicorn's log level.")] = "info",
) -> None:
    """Serve the MCP tools (start_task, submit_round, get_decision, get_constraints, check_tool_call, register_tools).

    stdio: every call acts with the API key in QGS_API_KEY (the server refuses to start
    without a live one). HTTP: every request needs 'Authorization: Bearer KEY'. Keys come
    from `qgs keys create`; workers (`qgs worker`) make the decisions.
    """
    import os

    from qgs_worker.api.mcp_server import create_http_app, run_stdio
    from qgs_worker.api.operations import Operations
    from qgs_worker.config.settings import Settings
    from qgs_worker.errors import AuthenticationError
    from qgs_worker.queue.preflight import check_broker, check_store

    settings = Settings()
    check_store(settings).dispose()
    key = os.environ.get("QGS_API_KEY", "").strip() or None
    if transport is McpTransport.stdio and key is None:
        raise AuthenticationError(
            "QGS_API_KEY is not set: put an API key in the MCP server's environment (make one "
            "with `qgs keys create --principal NAME`)"
        )
    with broker_session(settings, workers=False) as live:
        check_broker(live.broker_url or "", live.broker_timeout_s)
        ops = Operations(live)
        try:
            if transport is McpTransport.stdio:
                try:
                    run_stdio(ops, key)
                except AuthenticationError:
                    raise AuthenticationError(
                        "QGS_API_KEY is invalid or revoked: put a live key in the MCP server's "
                        "environment (`qgs keys list` shows the keys, `qgs keys create "
                        "--principal NAME` makes one)"
                    ) from None
                return
            import uvicorn

            bind_host = host or live.api.host
            err_console.print(f"QGS MCP on http://{bind_host}:{port}/mcp", soft_wrap=True)
            uvicorn.run(
                create_http_app(ops, host=bind_host),
                host=bind_host,
                port=port,
                log_level=log_level,
                server_header=False,
            )
        finally:
            ops.close()


@keys_app.command("create")
def keys_create(
    principal: Annotated[
        str | None,
        typer.Option("--principal", help="Who the key acts for (its tasks are theirs)."),
    ] = None,
    operator: Annotated[
        str | None,
        typer.Option(
            "--operator",
            help="A person's key for the console (/ui), named for them, instead of an agent's.",
        ),
    ] = None,
    scope: Annotated[
        list[str] | None,
        typer.Option(
            "--scope",
            help="An extra right (repeatable): approve, spot-check; an operator's: view, approve, spot-check.",
        ),
    ] = None,
    sees: Annotated[
        list[str] | None,
        typer.Option(
            "--sees",
            help="An operator's: a principal whose tasks they may see (repeatable), or 'all'.",
        ),
    ] = None,
    allow_unknown: Annotated[
        bool,
        typer.Option(
            "--allow-unknown",
            help="Keep a --sees principal that no agent key or task has yet (else refused as "
            "a likely typo, with the close names).",
        ),
    ] = False,
    note: Annotated[str, typer.Option(help="What the key is for (kept with it).")] = "",
    new_master: Annotated[
        bool,
        typer.Option(
            "--new-master",
            help="Make the key under a new webhook master secret although the store holds keys "
            "made under another one (their webhooks then fail until they are made again).",
        ),
    ] = False,
) -> None:
    """Make an API key (an agent's, or with --operator a person's); shown once, here only."""
    from qgs_worker.cli.common import _fail
    from qgs_worker.config.settings import Settings
    from qgs_worker.store.keys import create_key, keys_by_master
    from qgs_worker.webhooks.key_secrets import MASTER_FILE, MASTER_SETTING, master_at_hand
    from qgs_worker.webhooks.key_secrets import master_secret as read_master

    if (principal is None) == (operator is None):
        raise _fail(
            "pass --principal NAME (an agent's key) or --operator NAME (a person's key for the "
            "console), one of them"
        )

    settings, repo = Settings(), _repo()
    # A master made afresh (the file deleted, another data folder) would derive secrets the
    # workers signing the existing keys' webhooks do not have: said before anything is made.
    if not new_master and not master_at_hand(settings):
        _, others = keys_by_master(repo, b"")
        if others:
            raise _fail(
                f"the store holds {others} API key(s) made under a webhook master secret, and "
                f"neither {MASTER_SETTING} nor {settings.data_dir / MASTER_FILE} is here: "
                "restore that file (or set the setting to the master they were made with), "
                "or pass --new-master to make one (those keys' webhooks then fail until the "
                "keys are made again)"
            )
    try:
        master = read_master(settings)
    except OSError as exc:
        raise _fail(str(exc)) from exc
    if not new_master:
        same, others = keys_by_master(repo, master)
        if others and not same:
            raise _fail(
                f"the webhook master secret here ({MASTER_SETTING}, or "
                f"{settings.data_dir / MASTER_FILE}) is not the one the store's {others} API "
                "key(s) were made under: use that one, or pass --new-master"
            )
    made = create_key(
        repo,
        operator or principal or "",
        master=master,
        scopes=tuple(scope or ()),
        note=note,
        operator=operator is not None,
        sees=tuple(sees or ()),
        allow_unknown=allow_unknown,
    )
    console.print(f"key id:         {made.key_id}")
    if made.operator:
        console.print(f"operator:       {markup_safe(made.principal)}")
        console.print(f"sees:           {markup_safe(_sees_words(made.sees))}")
    else:
        console.print(f"principal:      {markup_safe(made.principal)}")
    console.print(f"scopes:         {', '.join(made.scopes) or '(default)'}")
    console.print(f"API key:        {made.key}", highlight=False, soft_wrap=True)
    if made.operator:
        err_console.print(
            "The key is shown once: store it now. Sign in with it at /ui of `qgs serve` (it is "
            "refused by the agents' API)."
        )
        return
    console.print(f"webhook secret: {made.webhook_secret}", highlight=False, soft_wrap=True)
    err_console.print(
        "Both secrets are shown once: store them now (the store keeps only a salted hash of "
        "the key, and the webhook secret is derived from the master secret, "
        "QGS_WEBHOOKS__MASTER_SECRET or the data folder's webhook-master.key). Send the key "
        "as 'Authorization: Bearer KEY'."
    )


@keys_app.command("list")
def keys_list(
    principal: Annotated[str | None, typer.Option(help="Only this principal's keys.")] = None,
) -> None:
    """List the keys (ids, principals, scopes, created, revoked); never their secrets."""
    from qgs_worker.store.keys import list_keys

    found = list_keys(_repo(), principal=principal)
    if not found:
        console.print("no API keys: `qgs keys create --principal NAME` makes one")
        return
    for k in found:
        revoked = f"revoked {k.revoked_at:%Y-%m-%d %H:%M}" if k.revoked_at else "live"
        note = f"  {markup_safe(k.note)}" if k.note else ""
        who = (
            f"operator {markup_safe(k.principal)} (sees {markup_safe(_sees_words(k.sees))})"
            if k.operator
            else markup_safe(k.principal)
        )
        console.print(
            f"{k.key_id}  {who}  {','.join(k.scopes) or '-'}  "
            f"created {k.created_at:%Y-%m-%d %H:%M}  {revoked}{note}",
            highlight=False,
        )


@keys_app.command("revoke")
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id (`qgs keys list`).")],
) -> None:
    """Revoke a key: every request with it is refused (401) from now on."""
    from qgs_worker.store.keys import revoke_key

    if revoke_key(_repo(), key_id):
        console.print(f"key {key_id} revoked")
    else:
        console.print(f"key {key_id} was already revoked")


def _sees_words(sees: tuple[str, ...]) -> str:
    """An operator's principals as ``--sees`` takes them: ``all`` for every task (stored ``*``)."""
    from qgs_worker.store.keys import ALL_PRINCIPALS

    return ",".join("all" if s == ALL_PRINCIPALS else s for s in sees)


def _repo() -> Repository:
    from qgs_worker.config.settings import Settings
    from qgs_worker.store import Repository

    return Repository(Settings().resolved_database_url)


BY_MAX_CHARS = 100
"""The longest ``qgs shadow --by`` name (it is stored as ``NAME (qgs shadow)``, at most 128)."""


class ShadowKind(StrEnum):
    """What ``qgs shadow`` moves: a judge (by its name) or a detector rule (by its id)."""

    RULE = "rule"
    JUDGE = "judge"


@app.command()
def shadow(
    kind: Annotated[ShadowKind, typer.Argument(help="rule or judge.")],
    name: Annotated[
        str, typer.Argument(help="The rule's id (a finding's `rule`) or the judge's name.")
    ],
    on: Annotated[
        bool,
        typer.Option(
            "--on/--off", help="Put it in shadow (recorded, not deciding), or take it out."
        ),
    ],
    note: Annotated[str, typer.Option(help="Why (kept with the change).")],
    by: Annotated[str, typer.Option(help="The person deciding (kept with the change).")],
) -> None:
    """A person's decision: put a judge or rule in shadow, or take it out, for every principal.

    The way for a rule that can raise P0 (it never moves on its own). Runs on the server,
    against the store of QGS_DATABASE_URL; workers see it within QGS_SPOTCHECK__SHADOW_REFRESH_S.
    """
    from qgs_worker.api.access import Principal
    from qgs_worker.api.operations import Operations
    from qgs_worker.cli.common import _fail
    from qgs_worker.core.free_text import bad_control, is_blank
    from qgs_worker.store.keys import ALL_PRINCIPALS, SCOPE_SPOT_CHECK, SCOPE_VIEW

    if is_blank(by):
        raise _fail(
            "'--by' is required: name the person deciding (kept with the change, as the note is)"
        )
    for option, value in (("--by", by), ("--note", note)):
        bad = bad_control(value)
        if bad is not None:
            raise _fail(f"'{option}' holds the control character {bad}: give it as plain text")
    if len(by) > BY_MAX_CHARS:
        raise _fail(f"'--by' must be at most {BY_MAX_CHARS} characters (got {len(by)})")
    by = by.strip()
    person = Principal(
        f"{by} (qgs shadow)",
        frozenset({SCOPE_VIEW, SCOPE_SPOT_CHECK}),
        key_id="cli",
        operator=True,
        sees=frozenset({ALL_PRINCIPALS}),
    )
    state = Operations().set_shadow(person, kind.value, name, in_shadow=on, note=note)
    where = "in shadow" if state.get("in_shadow") else "deciding"
    console.print(f"{kind.value} {markup_safe(name)}: {where} (by {markup_safe(by)})")
