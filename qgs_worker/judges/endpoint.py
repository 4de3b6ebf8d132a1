"""One OpenAI-compatible chat-completions endpoint, asked for one JSON contract at a time.

Every LLM user in QGS (the critic, the classifier's LLM layer, the audit roles' sessions) asks
the same way, here, and only the prompt and the contract differ:

1. ``chat.completions.parse`` with the contract (a pydantic model) as a strict ``json_schema``
   response format. An endpoint that answers HTTP 400 to it is asked again in JSON mode
   (``{"type": "json_object"}``) and is remembered as such for the endpoint's lifetime.
2. The caller's ``parse`` validates the answer's text either way (:func:`extract_json_object`
   takes the first JSON object out of any code fence or prose).
3. An invalid answer gets ONE repair request carrying the errors (:meth:`ChatEndpoint.ask`);
   whether a second invalid answer is an error is the caller's to say, with its own words.

Errors (the openai client is built with ``max_retries=0``: retries belong to the caller):

| what happened | raised |
| --- | --- |
| timeout, connection refused/reset, HTTP 408, HTTP 5xx | ``JudgeUnavailableError`` |
| HTTP 429 (``Retry-After`` seconds -> ``retry_after_s``) | ``JudgeUnavailableError`` |
| HTTP 429 with code ``insufficient_quota`` (retrying cannot help) | ``JudgeResponseError`` |
| any other HTTP 4xx (bad key, unknown model, request too large) | ``JudgeResponseError`` |
| HTTP 200 whose body is not JSON (a proxy's error page) | ``JudgeUnavailableError`` |
| HTTP 200 without ``choices[0].message`` | ``JudgeResponseError`` |
| the shared rate limit (``call_gate``) held the call too long | ``JudgeUnavailableError`` |
| the call's deadline passed (see below), or had passed before it | ``JudgeUnavailableError`` |

Every HTTP call ends by a wall-clock deadline: ``timeout_s`` from its start, or the enclosing
deadline (``core.deadline.within``: the review attempt's lease) if that ends sooner. The openai
client's own ``timeout`` bounds each phase only (a server trickling a byte every half second
kept a 2 s call open 20 s); the default HTTP client here bounds every socket operation by the
time left (``judges.deadline_transport``) and closes the connection at the deadline. A caller's
own ``http_client`` should be built on ``DeadlineTransport`` to keep that guarantee.
"""

from __future__ import annotations

import copy
import email.utils
import functools
import json
import time
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx2
import openai
from openai.types.chat import ChatCompletionMessageParam
from pydantic import BaseModel

from qgs_worker.core.deadline import left_s, within
from qgs_worker.errors import JudgeResponseError, JudgeUnavailableError
from qgs_worker.judges.deadline_transport import deadline_http_client

__all__ = ["Answer", "ChatEndpoint", "Usage", "extract_json_object", "format_validation_error"]

T = TypeVar("T")


@dataclass
class Usage:
    """Tokens spent, summed over the calls of one question (as the endpoint reports them)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class Answer(Generic[T]):
    """What :meth:`ChatEndpoint.ask` got: the value, or None with the last answer's errors.

    Attributes:
        value: The parsed value; None when the answer was invalid even after the repair.
        errors: The last answer's validation errors (empty when ``value`` is set).
        raw: The last answer's text.
        usage: Tokens spent on every call of the question (one or two answers, three calls
            at most when the endpoint refused the schema).
        latency_ms: Wall time of the whole question, in milliseconds.
    """

    value: T | None
    errors: list[str]
    raw: str
    usage: Usage = field(default_factory=Usage)
    latency_ms: float = 0.0


class ChatEndpoint:
    """An OpenAI-compatible chat-completions endpoint and model (flow: the module docstring).

    Args:
        base_url: Endpoint root such as ``https://api.openai.com/v1`` or
            ``http://127.0.0.1:8000/v1``; None for the openai client's default.
        api_key: The endpoint's key.
        model: The model asked.
        timeout_s: Wall-clock deadline of each HTTP call, in seconds, whatever the server
            sends meanwhile (the openai default, 600 s per read, bounds no call).
        max_tokens: Cap on each answer's length, in tokens.
        temperature: Sampling temperature; 0.0 for repeatable answers.
        http_client: An ``httpx2.Client`` for the openai client (proxies, test transports);
            None for one on ``DeadlineTransport`` (build your own on it to keep the deadline).
        call_gate: Called with the request's size in characters before every HTTP call (the
            first request, the JSON-mode fallback, the repair): the shared rate limit
            (``JudgeRateLimit.before_call``), which waits or raises ``JudgeUnavailableError``.
            Copies (``with_timeout``, ``fresh_copy``) keep it.

    An endpoint is safe to share between threads (the openai client is).
    """

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key: str,
        model: str = "gpt-4o-mini",
        timeout_s: float = 30.0,
        max_tokens: int = 800,
        temperature: float = 0.0,
        http_client: httpx2.Client | None = None,
        call_gate: Callable[[int], None] | None = None,
    ) -> None:
        self.model = model
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.call_gate = call_gate
        self.json_schema_supported = True
        """False once the endpoint refused a strict schema and answered in JSON mode."""
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key,
            timeout=timeout_s,
            max_retries=0,
            http_client=http_client if http_client is not None else deadline_http_client(),
        )
        self._base_url, self._api_key, self._http_client = base_url, api_key, http_client

    @property
    def name(self) -> str:
        """``openai:<model>``."""
        return f"openai:{self.model}"

    def with_timeout(self, timeout_s: float) -> ChatEndpoint:
        """This endpoint with each call's timeout lowered to ``timeout_s`` (same connections)."""
        limited = copy.copy(self)
        limited.timeout_s = max(0.1, min(timeout_s, self.timeout_s))
        limited._client = self._client.with_options(timeout=limited.timeout_s)
        return limited

    def fresh_copy(self) -> ChatEndpoint:
        """A new endpoint on the same root and model, with its own HTTP client (close it)."""
        return ChatEndpoint(
            base_url=self._base_url,
            api_key=self._api_key,
            model=self.model,
            timeout_s=self.timeout_s,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            http_client=self._http_client,
            call_gate=self.call_gate,
        )

    def close(self) -> None:
        """Close the HTTP connections of the underlying client."""
        self._client.close()

    def __enter__(self) -> ChatEndpoint:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def ask(
        self,
        messages: Sequence[ChatCompletionMessageParam],
        contract: type[BaseModel],
        parse: Callable[[str], tuple[T | None, list[str]]],
        repair: Callable[[list[str]], str],
        *,
        log: MutableSequence[dict[str, str]] | None = None,
    ) -> Answer[T]:
        """Ask for ``contract``: one answer, and ONE repair request if it is invalid.

        Args:
            messages: The system and user messages.
            contract: The answer's shape, sent as a strict JSON schema.
            parse: Validates an answer's text (``(value, [])`` or ``(None, errors)``).
            repair: The repair request's text for the first answer's errors.
            log: Where to append every message sent and received, as it happens (an audit
                session's history); a call that raises leaves what was sent before it.

        Returns:
            The answer; ``value`` None when the repaired answer is invalid too.

        Raises:
            JudgeUnavailableError, JudgeResponseError: the endpoint failed (the module's table).
        """
        started = time.perf_counter()
        usage = Usage()
        sent = list(messages)
        if log is not None:
            log.extend({"role": m["role"], "content": str(m.get("content"))} for m in sent)
        raw = self.complete(sent, usage, contract)
        if log is not None:
            log.append({"role": "assistant", "content": raw})
        value, errors = parse(raw)
        if value is None:
            request = repair(errors)
            sent += [
                {"role": "assistant", "content": raw},
                {"role": "user", "content": request},
            ]
            if log is not None:
                log.append({"role": "user", "content": request})
            raw = self.complete(sent, usage, contract)
            if log is not None:
                log.append({"role": "assistant", "content": raw})
            value, errors = parse(raw)
        latency_ms = (time.perf_counter() - started) * 1000.0
        return Answer(value, [] if value is not None else errors, raw, usage, latency_ms)

    def complete(
        self,
        messages: list[ChatCompletionMessageParam],
        usage: Usage,
        contract: type[BaseModel],
    ) -> str:
        """One answer's text: structured output first, JSON mode where that is refused.

        Adds the calls' token usage to ``usage``.

        Raises:
            JudgeUnavailableError, JudgeResponseError: the module's table.
        """
        if self.json_schema_supported:
            self.before_call(messages)
            try:
                return self._call(messages, usage, contract)
            except openai.BadRequestError:
                self.before_call(messages)
                content = self._call(messages, usage, None)
                self.json_schema_supported = False  # JSON mode worked where the schema did not
                return content
        self.before_call(messages)
        return self._call(messages, usage, None)

    def before_call(self, messages: Sequence[ChatCompletionMessageParam]) -> None:
        """Pass one HTTP call's size (characters of every message) to ``call_gate``, if set.

        Raises:
            JudgeUnavailableError: The gate (the shared rate limit) refused the call.
        """
        if self.call_gate is not None:
            self.call_gate(sum(len(str(m.get("content") or "")) for m in messages))

    def _call(
        self,
        messages: list[ChatCompletionMessageParam],
        usage: Usage,
        contract: type[BaseModel] | None,
    ) -> str:
        """One HTTP call: a strict schema when ``contract`` is given, else JSON mode.

        The call ends by its deadline (the module docstring); one whose enclosing deadline has
        passed already is not sent.
        """
        left = left_s()
        if left is not None and left <= 0:
            raise JudgeUnavailableError(
                f"{self.name}: the review attempt's deadline passed before the call; not sent"
            )
        with within(self.timeout_s):
            return self._call_now(messages, usage, contract)

    def _call_now(
        self,
        messages: list[ChatCompletionMessageParam],
        usage: Usage,
        contract: type[BaseModel] | None,
    ) -> str:
        completions = self._client.chat.completions.with_raw_response
        try:
            strict = _structured_format(contract) if contract is not None else None
            if contract is not None and strict is None:  # an openai without the helper
                response: Any = completions.parse(
                    model=self.model,
                    messages=messages,
                    response_format=contract,
                    max_tokens=self.max_tokens,
                    temperature=self.temperature,
                )
            elif strict is not None:
                response = completions.create(
                    model=self.model,
                    messages=messages,
                    response_format=strict,
                    max_tokens=self.max_tokens,
                    temperature=self.temperature,
                )
            else:
                response = completions.create(
                    model=self.model,
                    messages=messages,
                    response_format={"type": "json_object"},
                    max_tokens=self.max_tokens,
                    temperature=self.temperature,
                )
        except openai.OpenAIError as exc:
            if contract is not None and isinstance(exc, openai.BadRequestError):
                raise  # complete() asks again in JSON mode
            raise self._map_error(exc) from exc
        return _content_of(response.http_response, usage)

    def _map_error(self, exc: openai.OpenAIError) -> JudgeUnavailableError | JudgeResponseError:
        where = f"{self.name} at {self._client.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return JudgeUnavailableError(
                f"{where} timed out after {self.timeout_s} s (the call's whole deadline, "
                "QGS_JUDGE__TIMEOUT_S; abandoned, its connection closed)"
            )
        if isinstance(exc, openai.APIConnectionError):
            return JudgeUnavailableError(f"{where} unreachable: {exc.message}")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            if status == 429 and "insufficient_quota" in (exc.code, exc.type):
                return JudgeResponseError(
                    f"insufficient_quota: {where} has no quota left (HTTP 429); not retried: "
                    "add credit or use another key",
                    raw=_body_text(exc),
                )
            if status == 429:
                retry_after_s = _retry_after_s(exc.response.headers)
                return JudgeUnavailableError(
                    f"{where} rate-limited (HTTP 429); retry after {retry_after_s} s",
                    retry_after_s=retry_after_s,
                )
            if status == 408 or status >= 500:
                return JudgeUnavailableError(f"{where} failed with HTTP {status}: {exc.message}")
            return JudgeResponseError(
                f"{where} refused the request with HTTP {status}: {exc.message}",
                raw=_body_text(exc),
            )
        return JudgeResponseError(f"{where}: {type(exc).__name__}: {exc}")


@functools.cache
def _structured_format(contract: type[BaseModel]) -> Any:
    """The strict ``json_schema`` response format ``chat.completions.parse`` sends for ``contract``.

    Built once per contract: ``parse`` derives it from the pydantic model on every call (about
    2 ms of CPU a review, measured by ``bench/pipeline_bench.py``'s I/O-bound part), and the
    answer is read from the raw response here anyway, never parsed by the client. None when
    this openai release lacks the helper (``parse`` is called then, as before).
    """
    try:
        from openai.lib._parsing._completions import type_to_response_format_param
    except ImportError:  # pragma: no cover - a later openai may move it
        return None
    return type_to_response_format_param(contract)


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The first ``{...}`` in ``text`` that parses as a JSON object, or None.

    Each ``{`` is tried in turn with :meth:`json.JSONDecoder.raw_decode`, which stops at the
    object's closing brace: prose before and after, code fences, and braces inside JSON strings
    are all tolerated, and a ``{`` in prose fails at once.
    """
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def format_validation_error(error: Any) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as a line for a repair."""
    location = ".".join(str(part) for part in error.get("loc", ())) or "(root)"
    got = error.get("input")
    shown = json.dumps(got)[:60] if not isinstance(got, dict) else "{...}"
    return f"'{location}': {error.get('msg', 'invalid')} (got {shown})"


def _content_of(response: httpx2.Response, usage: Usage) -> str:
    """The first choice's message content, adding the call's token usage to ``usage``."""
    try:
        body = response.json()
    except ValueError as exc:
        # A proxy's or gateway's error page served with 200 (HTML, "upstream timeout"): the
        # endpoint was not reached, so asking again can help; never a stored failure at once.
        raise JudgeUnavailableError(
            f"the endpoint answered HTTP {response.status_code} with a body that is not JSON "
            f"(a proxy's error page?): {response.text[:120]!r}"
        ) from exc
    tokens = body.get("usage") if isinstance(body, dict) else None
    if isinstance(tokens, dict):
        usage.prompt_tokens += int(tokens.get("prompt_tokens") or 0)
        usage.completion_tokens += int(tokens.get("completion_tokens") or 0)
    try:
        message = body["choices"][0]["message"]
    except (KeyError, IndexError, TypeError) as exc:
        raise JudgeResponseError(
            "the endpoint's answer has no choices[0].message", raw=response.text
        ) from exc
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    refusal = message.get("refusal") if isinstance(message, dict) else None
    return f"(no content; refusal: {refusal})" if refusal else "(no content)"


def _retry_after_s(headers: httpx2.Headers) -> float | None:
    """``Retry-After`` (seconds or HTTP date) or ``retry-after-ms``, in seconds; None if absent."""
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _body_text(exc: openai.APIStatusError) -> str:
    try:
        return exc.response.text
    except Exception:  # pragma: no cover - a streamed body that was never read
        return str(exc.body)
