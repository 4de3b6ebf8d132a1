"""The message an agent's submission becomes on the queue (``qgs.review.intake``).

A submission carries one round's deliverable and, for the first round of a task that is not in
the store yet (transcript audits), the task itself. It is validated before it is enqueued, so a
bad submission fails at the caller with a clear error, not later in a worker.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from qgs_worker.core.callback_url import parse_callback_url
from qgs_worker.core.models import Deliverable, TaskType
from qgs_worker.errors import (
    DeliverableTooLargeError,
    InputError,
    TooLargeError,
    json_type_name,
    validation_summary,
)

MAX_ROUND_NUMBER = 2**31 - 1
"""The largest round number (the store's ``integer`` column: PostgreSQL's 4-byte maximum)."""

MAX_NESTING_DEPTH = 128
"""The deepest nesting of objects and lists a submission may hold (levels).

Python's ``json`` (and every recursive walk over a value: the detectors, the size count) stops
near 1,000 levels with a ``RecursionError``; real tool-call arguments are a few levels deep.
"""


def _url_form(url: str | None) -> str | None:
    """A callback URL's form (http/https, a host, no userinfo; never a metadata address).

    Private receivers pass here: whether they are allowed is the client's setting, checked
    with DNS at submit (``qgs_worker.webhooks.check_callback``) and again at each delivery.

    Returns:
        The URL in its one kept form (``CallbackTarget.normalized``).
    """
    if url is None:
        return None
    return parse_callback_url(url, allow_private=True).normalized


class NewTask(BaseModel):
    """A task to create with its first submission (when it is not in the store yet)."""

    model_config = ConfigDict(extra="forbid")

    request: str = Field(min_length=1)
    agent: str | None = None
    agent_model: str | None = None
    requirements: tuple[str, ...] = ()
    criteria: tuple[str, ...] = ()
    task_type: TaskType | None = None
    source_file: str | None = None
    source_line: int | None = None
    transcript_id: str | None = None
    callback_url: str | None = Field(
        default=None,
        description="where the task's decisions are POSTed (a signed webhook); checked by the "
        "client (``qgs_worker.webhooks.check_callback``) and again at each delivery",
    )

    @field_validator("callback_url")
    @classmethod
    def _callback_form(cls, url: str | None) -> str | None:
        return _url_form(url)


class Submission(BaseModel):
    """One round handed in for review; ``round_number`` None means "the next free one".

    The client numbers rounds in the order they are submitted (intake jobs may run in any
    order) and sets ``renumber_on_conflict``, so two processes feeding one task lose nothing.
    """

    model_config = ConfigDict(extra="forbid")

    submission_id: str = Field(min_length=1, max_length=128)
    task_id: str = Field(min_length=1, max_length=64)
    round_number: int | None = Field(default=None, ge=1, le=MAX_ROUND_NUMBER)
    renumber_on_conflict: bool = Field(
        default=False,
        description="take the next free number if another submission holds round_number",
    )
    final: bool = False
    deliverable: Deliverable
    task: NewTask | None = None
    turn: str | None = Field(
        default=None,
        description="the user turn this round answers (the latest user message before it, in a "
        "multi-turn run); None: the task's request",
    )
    callback_url: str | None = Field(
        default=None,
        description="where this round's decision is POSTed (wins over the task's callback URL)",
    )

    @field_validator("callback_url")
    @classmethod
    def _callback_form(cls, url: str | None) -> str | None:
        return _url_form(url)

    def size_bytes(self) -> int:
        """The deliverable's size in bytes: its text plus its tool calls' names and arguments.

        Tool results (what the agent read) are context, not the deliverable, and do not count.
        """
        d = self.deliverable
        calls = sum(
            len(c.name.encode())
            + len((c.raw_arguments or json.dumps(c.arguments, ensure_ascii=False)).encode())
            for c in d.tool_calls
        )
        return len(d.text.encode()) + calls

    def check_size(self, limit_bytes: int) -> None:
        """Refuse a deliverable, or a user turn, over ``limit_bytes``.

        Raises:
            DeliverableTooLargeError: naming the field, its size, the limit and the setting to
                change.
        """
        size = self.size_bytes()
        if size > limit_bytes:
            raise DeliverableTooLargeError(
                f"'deliverable' is {size:,} bytes, over the limit of {limit_bytes:,} bytes; "
                "send a smaller deliverable (e.g. a diff or a summary) or raise "
                "QGS_MAX_DELIVERABLE_BYTES"
            )
        turn_size = len(self.turn.encode()) if self.turn else 0
        if turn_size > limit_bytes:
            raise DeliverableTooLargeError(
                f"'turn' is {turn_size:,} bytes, over the limit of {limit_bytes:,} bytes; "
                "send the part of the user's message this round answers, or raise "
                "QGS_MAX_DELIVERABLE_BYTES"
            )

    def intake_message(self) -> dict[str, Any]:
        """The ``qgs.review.intake`` message of this submission (JSON-ready).

        No ``turn`` or ``callback_url`` key when there is none: a worker of an older QGS still
        takes the message.
        """
        absent = {k for k in ("turn", "callback_url") if getattr(self, k) is None}
        return self.model_dump(mode="json", exclude=absent or None)

    def short_repr(self) -> str:
        """A short, redacted description for Flower (no deliverable text)."""
        return (
            f"(submission={self.submission_id!r}, task={self.task_id!r}, "
            f"round={self.round_number}, final={self.final}, bytes={self.size_bytes()}"
            + (f", turn_bytes={len(self.turn.encode())}" if self.turn else "")
            + ")"
        )


def check_task_size(
    request: str, requirements: Sequence[str], criteria: Sequence[str], limit_bytes: int
) -> None:
    """Refuse a task whose request, requirements or criteria are over ``limit_bytes`` (UTF-8).

    The classifier reads the request before anything is stored (its time grows with the text:
    about half a second for 32 KB on the 2-core test machine); the requirements and the
    criteria go into every judge prompt. Each list counts in all.

    Raises:
        TooLargeError: naming the field, its size, the limit and the setting to change.
    """
    for field, size in (
        ("request", _utf8_bytes(request)),
        ("requirements", sum(_utf8_bytes(str(r)) for r in requirements)),
        ("criteria", sum(_utf8_bytes(str(c)) for c in criteria)),
    ):
        if size > limit_bytes:
            raise TooLargeError(
                f"'{field}' is {size:,} bytes, over the limit of {limit_bytes:,} bytes; send "
                f"the part the agent must act on (link to a longer text), or raise "
                "QGS_MAX_REQUEST_BYTES"
            )


def _utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def check_value(value: Any, *, where: str = "submission") -> None:
    """Refuse a value no worker could process: nesting too deep, or text that is not UTF-8.

    Walks dicts, lists, tuples and pydantic models without recursion (so a 100,000-level value
    is refused, not a ``RecursionError``).

    Args:
        value: Plain JSON data (a raw intake message) or a model (a ``Deliverable``).
        where: The name of the value, for the message.

    Raises:
        InputError: nesting over ``MAX_NESTING_DEPTH`` levels, or a string with a lone
            surrogate (not encodable as UTF-8), naming the path.
    """
    if _plain_and_sound(value):
        return
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise InputError(
                    f"'{path}' holds text that is not valid UTF-8 (a lone surrogate "
                    f"{item[exc.start]!r} at character {exc.start}); send the text as decoded "
                    "UTF-8 (e.g. decode with errors='replace')"
                ) from None
            continue
        if depth > MAX_NESTING_DEPTH:
            raise InputError(
                f"'{path}' is nested more than {MAX_NESTING_DEPTH} levels deep; flatten the "
                "value (e.g. send deep data as a JSON string)"
            )
        if isinstance(item, BaseModel):
            children: Any = item.__dict__.items()
        elif isinstance(item, dict):
            children = item.items()
        elif isinstance(item, list | tuple):
            children = enumerate(item)
        else:
            continue
        for key, child in children:
            if isinstance(key, str):
                stack.append((key, path, depth + 1))
            if isinstance(child, str | dict | list | tuple | BaseModel):
                stack.append((child, f"{path}.{key}" if depth < 8 else path, depth + 1))


_JSON_TEXT = json.JSONEncoder(ensure_ascii=False)
_PLAIN_SCALARS = frozenset({str, int, float, bool})


def _plain_and_sound(value: Any) -> bool:
    """Whether ``value`` is plain JSON data ``check_value`` would pass, told at C speed.

    Its containers (not its strings) are walked for the depth, then one ``json`` encoding and
    one UTF-8 encoding check every string and key at once. False on anything else (a model, a
    lone surrogate, too deep): the full walk then names the path. The walk over every string
    was ~1% of ``qgs audit``'s worker time, in the client again (issue 14).
    """
    if type(value) is not dict and type(value) is not list:
        return False  # a string or a model: the walk is as quick, or must decide
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_NESTING_DEPTH:
            return False
        children = item.values() if type(item) is dict else item
        for child in children:
            kind = type(child)
            if kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif child is not None and kind not in _PLAIN_SCALARS:
                return False  # a model, a tuple, a subclass: the walk decides
    try:
        _JSON_TEXT.encode(value).encode("utf-8")
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return False
    return True


def validate_message(message: object, limit_bytes: int) -> Submission:
    """The checks every submission passes, in the client and again in the worker.

    Shape (a JSON object whose ``deliverable`` is an object), nesting depth and encoding
    (``check_value``), the fields (``Submission``), and the size (``Submission.check_size``).

    Args:
        message: The intake message as decoded JSON (or a ``Submission`` to check again).
        limit_bytes: ``QGS_MAX_DELIVERABLE_BYTES``.

    Returns:
        The validated submission.

    Raises:
        DeliverableTooLargeError: over ``limit_bytes``.
        InputError: anything else, naming the field.
    """
    if isinstance(message, Submission):
        check_value(message.deliverable, where="deliverable")
        if message.turn is not None:
            check_value(message.turn, where="turn")
        message.check_size(limit_bytes)
        return message
    if not isinstance(message, dict):
        raise InputError(f"a submission must be a JSON object (got {json_type_name(message)})")
    check_value(message)
    deliverable = message.get("deliverable")
    if not isinstance(deliverable, dict):
        raise InputError(
            "'deliverable' must be an object with 'text' (and 'tool_calls', 'tool_results') "
            f"(got {json_type_name(deliverable)})"
        )
    try:
        submission = Submission.model_validate(message)
    except ValidationError as exc:
        raise InputError(f"invalid submission: {validation_summary(exc)}") from None
    submission.check_size(limit_bytes)
    return submission


def content_hash(deliverable: Deliverable) -> str:
    """SHA-256 (hex) of the deliverable's canonical JSON: text, tool calls and tool results."""
    canonical = json.dumps(deliverable.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
