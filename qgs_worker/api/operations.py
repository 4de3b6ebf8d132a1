"""The operations every transport offers (HTTP API, MCP): one layer, no transport in it.

Each operation takes the authenticated ``Principal`` first and calls the existing code (the
store-opening ``Client``, the ``Repository``'s views, ``service.approvals``, ``report``); the
review logic stays in ``qgs_worker.service``. What a transport does: turn its request into these
arguments, call, and turn the value or the error into its answer.

    ops = Operations(settings)
    me = ops.authenticate("qgs_3f...")                     # Principal("deploy-bot", {...})
    task = ops.start_task(me, "Deploy the billing service", agent="deploy-bot")
    sub = ops.submit_round(me, task.id, "Deployed.", final=True)
    result = ops.get_decision(me, sub.id, wait_s=30)       # DecisionResult; .decision None: pending
    report = ops.check_tool_call(me, {"type": "function", ...}, tools=[...])

Isolation: a task belongs to the principal that started it here; another principal's task or
submission id raises ``TaskNotFoundError`` / ``SubmissionNotFoundError``, exactly as an unknown
one does (ids are not confirmed to exist). Tasks started in-process (no principal) are not
visible to an agent's key at all; an operator's key (the console's) sees the principals it was
given, or every task (``Principal.may_see``). The console's reads are ``.operator_views``.

Errors (each names the field and the fix): ``AuthenticationError`` (no, unknown or revoked key),
``RateLimitedError`` (the key's window is full: ``retry_after_s``), ``PermissionDeniedError``
(``approve`` without the ``approve`` scope), ``InputError`` and its ``DeliverableTooLargeError``,
``TaskNotFoundError``/``SubmissionNotFoundError``, ``NotAwaitingApprovalError``,
``ApprovalConflictError``, ``BrokerUnavailableError`` / ``StoreError`` (nothing was queued or
stored), ``ConfigurationError`` (no tools to check a call against); the spot-checks' own
(``api.spot_checks``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from qgs_worker.api.access import Access, Principal
from qgs_worker.api.decisions import WAIT_MAX_S, DecisionResult, DecisionWaits
from qgs_worker.api.idempotency import Replays
from qgs_worker.api.operator_views import OperatorViews
from qgs_worker.api.spot_checks import SpotChecks
from qgs_worker.api.tool_sets import ToolSet, ToolSets
from qgs_worker.client import Client, SubmissionHandle, TaskHandle
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import Deliverable, TaskType, ToolCall, ToolResult
from qgs_worker.core.toolgate import GateReport
from qgs_worker.core.views import ApprovalView
from qgs_worker.errors import (
    InputError,
    PermissionDeniedError,
    SubmissionNotFoundError,
    TaskNotFoundError,
)
from qgs_worker.queue.notify import DecisionNotifier
from qgs_worker.store.keys import SCOPE_APPROVE

__all__ = [
    "WAIT_MAX_S",
    "DecisionResult",
    "Operations",
    "Principal",
]

log = logging.getLogger(__name__)


class Operations(DecisionWaits, SpotChecks, OperatorViews):
    """Start tasks, submit rounds, read decisions, check tool calls, approve: for a principal.

    The spot-check operations (queue, labels, agreement, shadow) are ``api.spot_checks``'.

    Args:
        settings: QGS settings (``QGS_*`` environment variables when None). ``broker_url`` is
            needed to submit; with it, decisions are waited for through ``qgs_worker.queue.notify``.
        client: The store-opening ``Client`` to call (built from ``settings`` when None).
        notifier: The decision notifier (built and started on first wait when None and the
            broker is set; pass one to share it).
        rate_limiter: Anything with ``hit(key, limit=, window_s=)`` (``ratelimit``'s limiters);
            None: the broker's Redis when set, else one in this process.

    Thread-safe: one instance serves every request of a process.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        client: Client | None = None,
        notifier: DecisionNotifier | None = None,
        rate_limiter: Any = None,
    ) -> None:
        self.settings = settings or (client.settings if client is not None else Settings())
        self.client = client or Client(self.settings)
        self.repo = self.client.repo
        self._notifier = notifier
        self._lock = threading.Lock()
        self.access = Access(self.settings, self.repo, rate_limiter=rate_limiter)
        self.replays = Replays(self.repo, self.settings.api.idempotency_ttl_s)
        self.tool_sets = ToolSets(self.client.tool_gate)

    # -- authentication and the rate limit ------------------------------------------------

    def authenticate(self, key: str | None) -> Principal:
        """The principal of an API key, counted against the key's rate limit (``Access``).

        Raises:
            AuthenticationError: no key, or one that is malformed, unknown or revoked.
            RateLimitedError: the key sent more than ``QGS_API__RATE_LIMIT_REQUESTS`` requests
                in the last ``QGS_API__RATE_LIMIT_WINDOW_S`` seconds.
        """
        return self.access.authenticate(key)

    # -- tasks and rounds -------------------------------------------------------------------

    def start_task(
        self,
        principal: Principal,
        request: str,
        *,
        agent: str | None = None,
        model: str | None = None,
        requirements: Sequence[str] = (),
        criteria: Sequence[str] = (),
        task_type: TaskType | str | None = None,
        task_id: str | None = None,
        callback_url: str | None = None,
        idempotency_key: str | None = None,
    ) -> TaskHandle:
        """Classify and store a new task owned by ``principal`` (``Client.start_task``).

        ``callback_url``: where each of the task's decisions is POSTed, signed with the webhook
        secret of the key that made the request (``principal.key_id``; once that key is
        revoked, the principal's newest live key's). ``idempotency_key``: the same key with
        the same request gets the same task (``qgs_worker.api.idempotency``).

        Raises:
            InputError: an empty request, an unknown task type, or a ``task_id`` in use;
                ``CallbackUrlError`` for a callback URL refused (malformed, or inside: SSRF);
                ``TooLargeError`` for a request over ``QGS_MAX_REQUEST_BYTES``.
            IdempotencyKeyReusedError: the key came before with another request.
            StoreError: the store failed; nothing was stored.
        """
        fields: dict[str, Any] = {
            "agent": agent,
            "model": model,
            "requirements": list(requirements),
            "criteria": list(criteria),
            "task_type": None if task_type is None else str(task_type),
            "callback_url": callback_url,
        }

        def run(made_id: str | None) -> TaskHandle:
            return self.client.start_task(
                request,
                **fields,
                task_id=made_id,
                principal=principal.name,
                key_id=principal.key_id,
            )

        if idempotency_key is None:
            return run(task_id)
        return self.replays.once(
            principal.name,
            idempotency_key,
            route="POST /v1/tasks",
            content={"request": request, **fields},
            prefix="t-",
            run=run,
            dump=lambda handle: handle.model_dump_json(),
            load=TaskHandle.model_validate_json,
        )

    def submit_round(
        self,
        principal: Principal,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        tool_calls: Sequence[ToolCall] = (),
        tool_results: Sequence[ToolResult] = (),
        final: bool = False,
        round_number: int | None = None,
        turn: str | None = None,
        callback_url: str | None = None,
        idempotency_key: str | None = None,
    ) -> SubmissionHandle:
        """Queue one round of the principal's task; returns at once (``Client.submit``).

        ``callback_url``: where this round's decision is POSTed (wins over the task's).
        ``idempotency_key``: the same key with the same round gets the same submission, and
        nothing is queued twice (``qgs_worker.api.idempotency``).

        Raises:
            TaskNotFoundError: no such task of this principal (an id with a NUL too).
            DeliverableTooLargeError: over ``QGS_MAX_DELIVERABLE_BYTES``; nothing queued.
            InputError: a malformed field (round number taken or leaving a gap...).
            IdempotencyKeyReusedError: the key came before with another request.
            BrokerUnavailableError: the broker did not answer; nothing queued or stored.
            StoreError: the store failed; nothing queued.
        """
        self._own_task(principal, task_id)
        if isinstance(deliverable, str):
            deliverable = Deliverable(
                text=deliverable, tool_calls=tuple(tool_calls), tool_results=tuple(tool_results)
            )
        round_of = deliverable
        fields: dict[str, Any] = {
            "final": final,
            "round_number": round_number,
            "turn": turn,
            "callback_url": callback_url,
        }

        def run(submission_id: str | None) -> SubmissionHandle:
            try:
                return self.client.submit(task_id, round_of, **fields, submission_id=submission_id)
            except InputError as exc:
                renamed = _request_fields(str(exc))
                if renamed == str(exc):
                    raise
                raise type(exc)(renamed) from exc

        if idempotency_key is None:
            return run(None)
        return self.replays.once(
            principal.name,
            idempotency_key,
            route=f"POST /v1/tasks/{task_id}/rounds",
            content={"deliverable": round_of.model_dump(mode="json"), **fields},
            prefix="s-",
            run=run,
            dump=lambda handle: handle.model_dump_json(),
            load=SubmissionHandle.model_validate_json,
            found=lambda sid: (
                SubmissionHandle(id=sid, task_id=task_id)
                if self.repo.submission_task_id(sid) is not None
                else None
            ),
        )

    def task_status(self, principal: Principal, task_id: str) -> dict[str, Any]:
        """What ``qgs status`` says of the task, as data: rounds, reviews, findings, decisions.

        The shape is one task of ``qgs report --format json`` (``report.task_report``) plus
        ``waiting_submissions``: submissions sent and not yet taken by a worker.

        Raises:
            TaskNotFoundError: no such task of this principal.
        """
        from qgs_worker.reports.report import task_report

        self._own_task(principal, task_id)
        report = task_report(self.repo, task_id, self.settings.worker.visibility_timeout_s)
        report["waiting_submissions"] = self.repo.count_untaken_outbox_of(task_id)
        return report

    def constraints(self, principal: Principal, task_id: str) -> str:
        """The text to add to the agent's next prompt ("" for SIMPLE tasks).

        Raises:
            TaskNotFoundError: no such task of this principal.
        """
        self._own_task(principal, task_id)
        return self.client.constraints(task_id)

    def _own_task(self, principal: Principal, task_id: str) -> None:
        """Raise unless the task exists and the principal may see it (another's is "not found").

        An agent's key sees its own principal's tasks; an operator's, those it ``sees``.

        An id no task can have (a NUL character, which PostgreSQL refuses in text; longer
        than the column) is "not found" without asking the store.
        """
        exists, owner = (
            self.repo.task_principal(task_id) if _storable(task_id, 64) else (False, None)
        )
        if not exists or not principal.may_see(owner):
            raise TaskNotFoundError(
                f"no task with id {_shown_id(task_id)} {_among(principal, 'tasks')}: "
                + (
                    _operator_fix(principal, "open one from the task list (/ui/live)")
                    if principal.operator
                    else "start one with start_task (POST /v1/tasks)"
                )
            )

    def _own_submission(self, principal: Principal, submission_id: str) -> str:
        task_id = (
            self.repo.submission_task_id(submission_id) if _storable(submission_id, 128) else None
        )
        exists, owner = self.repo.task_principal(task_id) if task_id is not None else (False, None)
        if not exists or not principal.may_see(owner):
            raise SubmissionNotFoundError(
                f"no submission with id {_shown_id(submission_id)} {_among(principal, 'rounds')}: "
                + (
                    _operator_fix(principal, "pick a round the console lists (/ui/spot-checks)")
                    if principal.operator
                    else "use the id submit_round returned"
                )
            )
        assert task_id is not None
        return task_id

    def close(self) -> None:
        """Stop the notifier's thread and flush the tool-call log; the store stays usable."""
        if self._notifier is not None:
            self._notifier.close()
        self.client.flush_tool_log(2.0)

    # -- tool calls and approvals -----------------------------------------------------------

    def check_tool_call(
        self,
        principal: Principal,
        call: object,
        *,
        tools: Sequence[Mapping[str, Any]] | Mapping[str, Any] | None = None,
        agent: str | None = None,
        tool_set: str | None = None,
    ) -> GateReport:
        """The six-layer report on one tool call; its principal is ``principal``'s name.

        ``report.to_dict()`` is what ``qgs check-tool --format json`` prints for one call. The
        check is logged to the store through the queue (fire-and-forget).

        Args:
            principal: Who asks; the permission layer's subject and the log's principal.
            call: One call as parsed JSON (OpenAI, Anthropic or MCP shape).
            tools: The tools the agent may call (OpenAI, Anthropic or MCP definitions); None:
                ``QGS_TOOLS_FILE``.
            agent: Which agent makes it (the gate's rate-limit key).
            tool_set: The id of tools registered before (:meth:`register_tools`), instead of
                ``tools``: the gate built then is used, whatever the list's size.

        Raises:
            InputError: ``call`` is not one call, ``call`` or ``tools`` holds text that is not
                UTF-8 (a lone surrogate) or nests too deeply, ``tools`` holds an unusable
                definition, or no ``tools`` came and the server has no ``QGS_TOOLS_FILE`` (the
                caller's to fix: a 422 naming the field, not a 500).
            ConfigurationError: ``QGS_TOOLS_FILE`` is set but unreadable.
        """
        if tool_set is not None:
            if tools is not None:
                raise InputError(
                    "send 'tools' or 'tool_set', not both: 'tool_set' names tools registered "
                    "before (POST /v1/tool-sets)"
                )
            from qgs_worker.service.submission import check_value

            check_value(call, where="call")
            gate = self.tool_sets.gate(tool_set)
            return self.client.check_tool_call(
                call, principal=principal.name, agent=agent, tools=gate, log=True
            )
        if tools is None and self.settings.tools_file is None:
            raise InputError(
                "'tools' is required: this server has no QGS_TOOLS_FILE, so send the tools the "
                "agent may call (OpenAI, Anthropic or MCP definitions, or an MCP tools/list "
                "result) with each check"
            )
        from qgs_worker.service.submission import check_value

        # A lone surrogate ("\ud800" in the JSON) could not be logged or answered (a 500).
        check_value(call, where="call")
        if tools is not None:
            check_value(tools, where="tools")
            _check_tools_size(tools)
        return self.client.check_tool_call(
            call, principal=principal.name, agent=agent, tools=tools, log=True
        )

    def register_tools(
        self, principal: Principal, tools: Sequence[Mapping[str, Any]] | Mapping[str, Any]
    ) -> ToolSet:
        """Register a tools list once; its id names it in later checks (``qgs_worker.api.tool_sets``).

        Args:
            principal: Who asks (any key may register: a set holds definitions only).
            tools: OpenAI, Anthropic or MCP definitions, or an MCP tools/list result.

        Returns:
            The set: its content id (the same for the same definitions) and its size.

        Raises:
            InputError: ``tools`` holds text that is not UTF-8, nests too deeply, is too large
                or holds an unusable definition.
        """
        del principal
        from qgs_worker.service.submission import check_value

        check_value(tools, where="tools")
        _check_tools_size(tools, MAX_TOOL_SUBSCHEMAS_PER_SET)
        return self.tool_sets.register(tools)

    def approve(
        self,
        principal: Principal,
        task_id: str,
        *,
        by: str | None = None,
        note: str = "",
        reject: bool = False,
        round_number: int | None = None,
    ) -> ApprovalView:
        """Approve (or reject) the principal's task whose latest decision awaits a person.

        Args:
            principal: Needs the ``approve`` scope (an operator's key: and to see the task).
            task_id: The task.
            by: A label for who decides (default: the principal's name). It is stored with the
                approving key's principal and key id (``"label (via principal, key ID)"``):
                an approve-scope key cannot record an approval as somebody else's alone. An
                operator's approval records the person: ``"NAME (operator, key ID)"``.
            note: Why; required when rejecting.
            reject: Reject instead of approve.
            round_number: The round the person looked at (the console's form sends it; None:
                the one awaiting): when the task moved on past it, nothing is recorded.

        Raises:
            PermissionDeniedError: the key has no ``approve`` scope.
            TaskNotFoundError: no such task of this principal.
            InputError, NotAwaitingApprovalError, ApprovalConflictError: as ``Client.approve``.
        """
        if not principal.has(SCOPE_APPROVE) and principal.operator:
            raise PermissionDeniedError(
                f"operator {principal.name!r} (key {principal.key_id}) may view, not approve: "
                f"make a key with `qgs keys create --operator {principal.name} --scope view "
                "--scope approve --sees PRINCIPAL`"
            )
        if not principal.has(SCOPE_APPROVE):
            raise PermissionDeniedError(
                f"key {principal.key_id} of {principal.name!r} may not approve: make a key with "
                f"`qgs keys create --principal {principal.name} --scope approve`"
            )
        self._own_task(principal, task_id)
        return self.client.approve(
            task_id,
            by=approver_label(by, principal),
            note=note,
            reject=reject,
            round_number=round_number,
        )


_FIELD_NAMES = (
    ("'deliverable.text'", "'deliverable'"),
    ("'deliverable.tool_calls.", "'tool_calls."),
    ("'deliverable.tool_results.", "'tool_results."),
)
"""The client's names of a round's parts (its ``Deliverable``) -> the request's fields."""


def _request_fields(message: str) -> str:
    """A client message naming a round's parts as the request names them (``tool_calls.0``)."""
    for inner, outer in _FIELD_NAMES:
        message = message.replace(inner, outer)
    return message


SHOWN_ID_MAX_CHARS = 80
"""An unknown id longer than this is cut in the 404's message (ids are at most 128)."""


def _shown_id(ident: str) -> str:
    """The id as a message quotes it: ``repr``, cut after 80 characters with its length."""
    if len(ident) <= SHOWN_ID_MAX_CHARS:
        return repr(ident)
    return f"{ident[:SHOWN_ID_MAX_CHARS]!r}… ({len(ident):,} characters)"


def _among(principal: Principal, what: str) -> str:
    """Whose ``what`` a "not found" looked among: an agent's own, or those an operator sees."""
    if not principal.operator:
        return f"of principal {principal.name!r}"
    seen = principal.visible_principals()
    agents = "every agent" if seen is None else ", ".join(seen) or "no agent"
    return f"among the {what} operator {principal.name!r} sees ({agents})"


def _operator_fix(principal: Principal, pick: str) -> str:
    """An operator's way on from a "not found": pick one shown, or a key that sees its agent."""
    return (
        f"{pick}, or sign in with a key that sees its agent (`qgs keys create --operator "
        f"{principal.name} --scope view --sees AGENT`)"
    )


def _storable(ident: str, max_chars: int) -> bool:
    """Whether an id from a path or an argument could be stored: not too long, no NUL."""
    return len(ident) <= max_chars and "\x00" not in ident


def approver_label(by: str | None, principal: Principal) -> str:
    """Who approved, as stored: the caller's label with the key that made the call.

    ``by`` is free text the caller chooses; the principal and key id come from the
    authenticated key, so the record says who really approved (break test, finding 8).

    Raises:
        InputError: ``by`` does not fit beside the key's label (the stored name is at most
            ``APPROVER_MAX_CHARS``): refused, never cut.
    """
    from qgs_worker.service.approvals import APPROVER_MAX_CHARS

    if principal.operator:  # a person signed in: the record names them, never an agent's key
        return f"{principal.name} (operator, key {principal.key_id})"
    via = f" (via {principal.name}, key {principal.key_id})"
    room = max(1, APPROVER_MAX_CHARS - len(via))
    label = (by or "").strip()
    if len(label) > room:
        raise InputError(
            f"'by' must be at most {room} characters with this key (got {len(label):,}): it is "
            f"stored as '<by>{via}', at most {APPROVER_MAX_CHARS} characters; pass a name, the "
            "reason goes in 'note'"
        )
    return (label or principal.name)[:room] + via


MAX_TOOL_SUBSCHEMAS_PER_CHECK = 4_000
"""The most subschemas the ``tools`` of one check may hold in all (each tool at most 500,
``core.toolgate.schema_cost.MAX_SUBSCHEMAS``): loading tools a caller sends costs about 0.5 ms
of CPU a subschema, once per distinct list (the gate cache keeps it), so one request costs at
most about two seconds of loading."""


MAX_TOOL_SUBSCHEMAS_PER_SET = 40_000
"""The most subschemas a registered tool set may hold in all (``POST /v1/tool-sets``): loaded
once, not with every check, so ten times a check's bound (1,000 BFCL tools hold ~7,000 and load
in ~0.4 s on a loaded 2-core machine; the request body's limit comes first beyond ~3,000)."""


def _check_tools_size(
    tools: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    limit: int = MAX_TOOL_SUBSCHEMAS_PER_CHECK,
) -> None:
    from qgs_worker.core.toolgate.schema_cost import count_subschemas

    if count_subschemas(tools, limit) > limit:
        fix = (
            "register them once (POST /v1/tool-sets, MCP register_tools: up to "
            f"{MAX_TOOL_SUBSCHEMAS_PER_SET:,}) and send 'tool_set', "
            if limit < MAX_TOOL_SUBSCHEMAS_PER_SET
            else ""
        )
        raise InputError(
            f"'tools' hold more than {limit:,} JSON objects in all: send the tools this agent "
            f"may call, not a whole catalogue, {fix}or set QGS_TOOLS_FILE on the server and "
            "send no tools"
        )
