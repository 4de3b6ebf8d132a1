"""``Client(base_url=..., api_key=...)``: the same agent-facing methods, over the HTTP API.

No store, no broker on the agent's machine: every call is one request to ``qgs serve``
(httpx). ``wait`` long-polls ``GET /v1/submissions/{id}/decision?wait_s=...`` (the server is
woken by the decision's notification), asking again until ``timeout_s``.

    qgs = Client(base_url="http://127.0.0.1:8080", api_key="qgs_...")
    task = qgs.start_task("Deploy the billing service", agent="deploy-bot")
    sub = qgs.submit(task.id, "Deployed v2 after a backup.", final=True)
    decision = qgs.wait(sub.id, timeout_s=60)

Problem documents come back as the QGS error of their status (401 ``AuthenticationError``,
403 ``PermissionDeniedError``, 404 ``TaskNotFoundError``, 409 ``NotAwaitingApprovalError`` or
``IdempotencyKeyReusedError``, 413 ``DeliverableTooLargeError`` or ``TooLargeError``, 400/422
``InputError``, 429 ``RateLimitedError``, 503 and a server that cannot be reached
``BrokerUnavailableError``); the message is the server's ``detail``.

``start_task`` and ``submit`` send an ``Idempotency-Key`` (a new UUID per call, or the
caller's ``idempotency_key``) and send the request again with it when no answer came (a read
timeout, a dropped connection) or a 503 did, ``retries`` times: the server answers a repeat
with the first answer and makes nothing twice. When every try went unanswered, the error is
``OutcomeUnknownError`` (the round may have been queued: call again with
``idempotency_key=exc.idempotency_key``), never a ``BrokerUnavailableError`` that says
nothing was queued.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from qgs_worker.client import Client
from qgs_worker.client.http_answers import (
    RETRY_AFTER_MAX_S,
    error_of,
    path_id,
    report_from_dict,
    retry_after_s,
)
from qgs_worker.client.sdk_objects import sdk_data
from qgs_worker.client.views import ApprovalView, DecisionView, SubmissionHandle, TaskHandle
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import Classification, Deliverable, TaskType, ToolCall
from qgs_worker.core.tool_shapes import read_tool_calls
from qgs_worker.core.toolgate import GateReport
from qgs_worker.errors import (
    BrokerUnavailableError,
    ConfigurationError,
    InputError,
    OutcomeUnknownError,
    WaitTimeoutError,
)
from qgs_worker.service.inputs import require_text, require_texts
from qgs_worker.service.submission import check_value

if TYPE_CHECKING:
    from qgs_worker.client.gate_cache import GateCache
    from qgs_worker.client.tool_calls import Tools
    from qgs_worker.core.toolgate import ToolGate
    from qgs_worker.queue.progress import WaitProgress
    from qgs_worker.store import Repository

__all__ = ["RETRY_AFTER_MAX_S", "ApiClient", "report_from_dict"]

LONG_POLL_S = 60.0
"""The longest one long-poll asks the server to wait, in seconds (the API's limit)."""

RETRY_PAUSE_S = 0.5
"""Seconds before the first retry of a request that got no answer (then twice that...)."""

class ApiClient(Client):
    """The agent-side API of QGS over HTTP (what ``Client(base_url=..., api_key=...)`` returns).

    Args:
        settings: Unused but for ``max_deliverable_bytes`` hints; the server's settings rule.
        app: Ignored (no broker here).
        base_url: The API's address, e.g. ``http://127.0.0.1:8080``.
        api_key: A key from ``qgs keys create``.
        timeout_s: One request's timeout beyond its long-poll, in seconds.
        transport: An ``httpx`` transport (tests); None: the network.
        retries: How often ``start_task`` and ``submit`` send a request again, with the same
            ``Idempotency-Key``, when no answer came (or a 503 did).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        app: Any = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        transport: Any = None,
        retries: int = 2,
    ) -> None:
        import httpx

        if not base_url or not api_key:
            raise ConfigurationError(
                "Client(base_url=..., api_key=...) needs both: the API's address "
                "(http://host:8080) and a key from `qgs keys create`"
            )
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.retries = max(0, retries)
        self._http = httpx.Client(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=timeout_s,
            transport=transport,
        )
        self._tool_sets: dict[str, list[Any] | dict[str, Any]] = {}
        """The tools of each set this client registered, to register again on a server that
        forgot it (a restart, another API process)."""

    @property
    def repo(self) -> Repository:  # type: ignore[override]
        """An API client has no store: raises ``ConfigurationError``."""
        raise ConfigurationError(
            "this Client speaks the HTTP API and opens no store: use its methods (status(), "
            "decision(), wait()), or Client() without base_url on the store's machine"
        )

    def close(self) -> None:
        """Close the HTTP connections."""
        self._http.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Any = None,
        wait_s: float = 0,
        idempotency_key: str | None = None,
    ) -> Any:
        """One request; with an ``idempotency_key``, retried with it when no answer came.

        A request that could not be sent (no connection) is a ``BrokerUnavailableError``
        (nothing was queued); one sent without an answer (a read timeout, a dropped connection)
        is retried ``retries`` times with the same key, then an ``OutcomeUnknownError``. A 503
        is retried too, after its ``Retry-After`` (at most ``RETRY_AFTER_MAX_S``).
        """
        import httpx

        if isinstance(json, dict):  # a lone surrogate: an InputError naming the field, not
            for field, value in json.items():  # httpx's UnicodeEncodeError while encoding
                check_value(value, where=field)
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        tries = 1 + (self.retries if idempotency_key else 0)
        for attempt in range(1, tries + 1):
            try:
                response = self._http.request(
                    method,
                    path,
                    json=json,
                    params=params,
                    headers=headers,
                    timeout=self.timeout_s + wait_s,
                )
            except httpx.HTTPError as exc:
                sent = not isinstance(
                    exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout
                )
                if attempt < tries:
                    time.sleep(RETRY_PAUSE_S * attempt)
                    continue
                raise self._unreachable(exc, sent=sent, idempotency_key=idempotency_key) from exc
            if response.status_code == 503 and attempt < tries:
                time.sleep(retry_after_s(response))
                continue
            if response.status_code >= 400:
                raise error_of(response)
            return response.json()
        raise AssertionError("unreachable")  # pragma: no cover

    def _unreachable(
        self, exc: Exception, *, sent: bool, idempotency_key: str | None
    ) -> BrokerUnavailableError:
        what = f"{type(exc).__name__}: {exc}"
        if sent and idempotency_key is not None:
            return OutcomeUnknownError(
                f"no answer from the QGS API at {self.base_url} ({what}) after "
                f"{1 + self.retries} tries: it may have been queued; retry with the same "
                f"Idempotency-Key ({idempotency_key!r}: idempotency_key=exc.idempotency_key), "
                "which gets the first answer and makes nothing twice",
                idempotency_key=idempotency_key,
            )
        return BrokerUnavailableError(
            f"cannot reach the QGS API at {self.base_url} ({what}); check base_url and that "
            "`qgs serve` runs"
        )

    # -- the agent-facing methods -----------------------------------------------------------

    def start_task(
        self,
        request: str,
        *,
        agent: str | None = None,
        model: str | None = None,
        requirements: Sequence[str] = (),
        criteria: Sequence[str] = (),
        task_type: TaskType | str | None = None,
        task_id: str | None = None,
        principal: str | None = None,
        callback_url: str | None = None,
        key_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> TaskHandle:
        """``POST /v1/tasks``; the task is the key's principal's, signed with the key's secret.

        ``principal`` and ``key_id`` are not sent: the server takes both from the key.
        ``idempotency_key``: sent as ``Idempotency-Key`` (a new UUID when None) and again on
        each retry, so a retried request starts one task.

        Raises:
            InputError: an empty request, an unknown task type, or a ``task_id`` (the API
                makes the ids).
            OutcomeUnknownError: no answer after the retries: the task may have been started;
                call again with ``idempotency_key=exc.idempotency_key``.
        """
        if task_id is not None:
            raise InputError("'task_id' cannot be chosen over the API: leave it out")
        body: dict[str, Any] = {
            "request": request,
            "agent": agent,
            "model": model,
            "requirements": list(require_texts(requirements, "requirements")),
            "criteria": list(require_texts(criteria, "criteria")),
        }
        if task_type is not None:
            body["task_type"] = str(getattr(task_type, "value", task_type)).upper()
        if callback_url is not None:
            body["callback_url"] = callback_url
        key = idempotency_key or str(uuid.uuid4())
        data = self._call("POST", "/v1/tasks", json=body, idempotency_key=key)
        return TaskHandle(
            id=data["id"],
            task_type=data["task_type"],
            complexity=data["complexity"],
            classification=Classification.model_validate(data["classification"]),
        )

    def constraints(self, task_id: str) -> str:
        """``GET /v1/tasks/{task_id}/constraints``."""
        return str(
            self._call("GET", f"/v1/tasks/{path_id(task_id, 'task_id')}/constraints")["constraints"]
        )

    def status(self, task_id: str) -> dict[str, Any]:
        """``GET /v1/tasks/{task_id}``: what ``qgs status`` says, as data."""
        return dict(self._call("GET", f"/v1/tasks/{path_id(task_id, 'task_id')}"))

    def submit(
        self,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        final: bool = False,
        round_number: int | None = None,
        tool_calls: Sequence[ToolCall | Mapping[str, Any]] = (),
        turn: str | None = None,
        callback_url: str | None = None,
        submission_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> SubmissionHandle:
        """``POST /v1/tasks/{task_id}/rounds``; returns at once with the submission id.

        ``idempotency_key``: sent as ``Idempotency-Key`` (a new UUID when None) and again on
        each retry, so a retried request queues one round.

        Raises:
            InputError: a ``submission_id`` (the API makes the ids), or a field the server
                refused.
            OutcomeUnknownError: no answer after the retries: the round may have been queued;
                call again with ``idempotency_key=exc.idempotency_key``.
        """
        if submission_id is not None:
            raise InputError(
                "'submission_id' cannot be chosen over the API: leave it out, and send an "
                "idempotency_key to make a retry safe"
            )
        if isinstance(deliverable, str):
            deliverable = Deliverable(
                text=deliverable, tool_calls=read_tool_calls(sdk_data(tool_calls))
            )
        elif not isinstance(deliverable, Deliverable):
            require_text(deliverable, "deliverable", "pass the agent's output as text")
        body = {
            "deliverable": deliverable.text,
            "tool_calls": [
                {"id": c.id, "name": c.name, "arguments": c.arguments}
                | ({"raw_arguments": c.raw_arguments} if c.raw_arguments is not None else {})
                for c in deliverable.tool_calls
            ],
            "tool_results": [r.model_dump() for r in deliverable.tool_results],
            "final": final,
            "round_number": round_number,
            "turn": turn,
            "callback_url": callback_url,
        }
        key = idempotency_key or str(uuid.uuid4())
        data = self._call(
            "POST", f"/v1/tasks/{path_id(task_id, 'task_id')}/rounds", json=body, idempotency_key=key
        )
        return SubmissionHandle(id=data["submission_id"], task_id=data["task_id"])

    def _decision(
        self, submission_id: str, wait_s: float, until_approved: bool
    ) -> tuple[DecisionView | None, str]:
        data = self._call(
            "GET",
            f"/v1/submissions/{path_id(submission_id, 'submission_id')}/decision",
            params={"wait_s": round(wait_s, 3), "until_approved": str(until_approved).lower()},
            wait_s=wait_s,
        )
        found = data.get("decision")
        view = DecisionView.model_validate(found) if found else None
        return view, str(data.get("detail", ""))

    def decision(self, submission_id: str) -> DecisionView | None:
        """The decision on a submission, or None while it is not made (no wait)."""
        return self._decision(submission_id, 0.0, False)[0]

    def wait(
        self,
        submission_id: str,
        *,
        timeout_s: float = 60.0,
        poll_s: float = 0.05,
        until_approved: bool = False,
        on_progress: Callable[[WaitProgress], None] | None = None,
    ) -> DecisionView:
        """Long-poll until the decision is stored (``poll_s`` and ``on_progress`` unused).

        Raises:
            WaitTimeoutError: no decision within ``timeout_s``; the message says where the
                submission stands (the server's words).
        """
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            view, detail = self._decision(
                submission_id, max(0.0, min(LONG_POLL_S, remaining)), until_approved
            )
            if view is not None:
                return view
            if time.monotonic() >= deadline:
                raise WaitTimeoutError(
                    f"no decision on submission {submission_id!r} after {timeout_s:g} s: {detail}"
                )

    def task_decision(self, task_id: str) -> DecisionView | None:
        """Not offered over the API: read ``status(task_id)["decision"]``."""
        raise ConfigurationError("task_decision needs the store: use status(task_id)['decision']")

    def check_tool_call(
        self,
        call: object,
        *,
        principal: str | None = None,
        agent: str | None = None,
        tools: Tools | None = None,
        log: bool = True,
        tool_set: str | None = None,
    ) -> GateReport:
        """``POST /v1/tool-calls/check``: the gate's report (the principal is the key's).

        With ``tool_set`` (an id from :meth:`register_tools`) the list is not sent: the server
        checks with the gate it built once. A server that forgot the set (a restart) is sent
        the tools again, once, when this client registered them.

        Raises:
            InputError: ``call`` is not one call as JSON, ``tools`` is not JSON data (send
                definitions, not a gate or registry object), or the server does not know
                ``tool_set`` and this client never registered it.
        """
        call = sdk_data(call)
        if not isinstance(call, dict):
            raise InputError(
                f"'call' must be one tool call as parsed JSON (got {type(call).__name__})"
            )
        if tools is not None and not isinstance(tools, list | dict):
            raise InputError(
                "'tools' must be tool definitions as JSON data (a list of OpenAI, Anthropic "
                "or MCP definitions) over the API"
            )
        if tool_set is None:
            body = {"call": call, "tools": tools, "agent": agent}
            return report_from_dict(self._call("POST", "/v1/tool-calls/check", json=body))
        body = {"call": call, "tool_set": tool_set, "agent": agent}
        try:
            return report_from_dict(self._call("POST", "/v1/tool-calls/check", json=body))
        except InputError as exc:
            known = self._tool_sets.get(tool_set)
            if known is None or "'tool_set'" not in str(exc):
                raise
        self.register_tools(known)  # the same content: the same id
        return report_from_dict(self._call("POST", "/v1/tool-calls/check", json=body))

    def register_tools(self, tools: list[Any] | dict[str, Any]) -> str:
        """``POST /v1/tool-sets``: register a tools list once; its id for ``tool_set=``.

        The id is a digest of the content: the same list gives the same id, on any server.

        Raises:
            InputError: ``tools`` is not JSON tool definitions, or one is unusable.
        """
        tools = sdk_data(tools)
        if not isinstance(tools, list | dict):
            raise InputError(
                "'tools' must be tool definitions as JSON data (a list of OpenAI, Anthropic "
                "or MCP definitions) over the API"
            )
        found = self._call("POST", "/v1/tool-sets", json={"tools": tools})
        set_id = str(found["tool_set"])
        self._tool_sets[set_id] = tools
        return set_id

    def check_tool_calls(
        self,
        message: object,
        *,
        principal: str | None = None,
        agent: str | None = None,
        tools: Tools | None = None,
        log: bool = True,
        tool_set: str | None = None,
    ) -> tuple[GateReport, ...]:
        """Every tool call of an assistant message, checked over the API in order (a request each).

        The message is split here as ``Client.check_tool_calls`` splits it (OpenAI, Anthropic,
        Responses, MCP, a list of calls, one call); ``()`` for a message without calls.

        Raises:
            InputError: the message is no message or list of calls, or ``tools`` is not JSON.
        """
        from qgs_worker.core.toolgate import parse_calls

        return tuple(
            self.check_tool_call(parsed.original, agent=agent, tools=tools, tool_set=tool_set)
            for parsed in parse_calls(sdk_data(message))
        )

    def tool_gate(self, tools: Tools | None = None) -> ToolGate:
        """Not over the API: the gate runs on the server. Raises ``ConfigurationError``."""
        raise _no_gate()

    @property
    def gate_cache(self) -> GateCache:
        """Not over the API (no gate here). Raises ``ConfigurationError``."""
        raise _no_gate()

    @property
    def app(self) -> Any:
        """Not over the API (no broker here). Raises ``ConfigurationError``."""
        raise ConfigurationError(
            "this Client speaks the HTTP API and sends nothing to a broker: use its methods"
        )

    @property
    def notifier(self) -> None:
        """None: ``wait`` long-polls the server, which is woken by the notifications."""
        return None

    @property
    def tool_log(self) -> None:
        """None: the server logs the checks it makes."""
        return None

    def flush_tool_log(self, timeout_s: float = 5.0) -> bool:
        """True at once: nothing is logged from here (the server logs the checks it makes)."""
        return True

    def approve(
        self,
        task_id: str,
        *,
        by: str,
        note: str = "",
        reject: bool = False,
        round_number: int | None = None,
    ) -> ApprovalView:
        """``POST /v1/tasks/{task_id}/approval`` (the key needs the ``approve`` scope).

        Raises:
            InputError: ``round_number`` given: the API decides on the round awaiting (tying
                a decision to a round is the console's, in the server's process).
        """
        if round_number is not None:
            raise InputError(
                "'round_number' is not sent over HTTP: the API approves the round awaiting; "
                "leave it out (the operator console ties an approval to the round it shows)"
            )
        body = {"decision": "reject" if reject else "approve", "by": by, "note": note}
        return ApprovalView.model_validate(
            self._call("POST", f"/v1/tasks/{path_id(task_id, 'task_id')}/approval", json=body)
        )


def _no_gate() -> ConfigurationError:
    return ConfigurationError(
        "this Client speaks the HTTP API: the tool gate runs on the server, so there is no "
        "gate object here; register the tools once (set_id = register_tools([...])) and "
        "check calls with check_tool_call(call, tool_set=set_id), or pass tools=[...] with "
        "each call, or use Client() without base_url (on a machine with the store) for a "
        "gate in this process"
    )
