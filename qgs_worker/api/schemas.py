"""The HTTP API's request and response bodies (pydantic; unknown fields refused).

Requests are ``extra="forbid"``: a misspelt field (``finale``) is a 422 naming it, never
silently ignored; booleans and integers are strict (``"yes"`` or ``1`` for ``final``,
``"1"`` or ``true`` for ``round_number`` is a 422, not a value). Responses reuse the core views (``DecisionView``, ``ApprovalView``) and the
gate's report as ``qgs check-tool --format json`` prints it.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    StrictBool,
    StrictInt,
    ValidationInfo,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from qgs_worker.core.free_text import check_free_text, is_blank
from qgs_worker.core.models import Classification, Complexity, TaskType
from qgs_worker.core.tool_shapes import (
    CALL_SHAPES,
    CHECK_CALL_SHAPES,
    RESULT_SHAPES,
    AnyOfShapes,
    read_call,
    read_result,
)
from qgs_worker.core.views import ApprovalView, DecisionView
from qgs_worker.service.approvals import APPROVAL_NOTE_MAX_CHARS, APPROVER_MAX_CHARS
from qgs_worker.service.submission import MAX_ROUND_NUMBER

__all__ = [
    "ApprovalIn",
    "ConstraintsOut",
    "DecisionOut",
    "FreeText",
    "RoundIn",
    "SubmissionOut",
    "TaskIn",
    "TaskOut",
    "ToolCallCheckIn",
    "ToolCallIn",
    "ToolResultIn",
    "ToolSetIn",
    "ToolSetOut",
]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _free_text(value: str | None, info: ValidationInfo) -> str | None:
    """A free-text field (a name, a note) as stored: no control character, blank as empty.

    A NUL or other C0 control character other than tab and newline is a 422 naming the field
    (PostgreSQL refuses a NUL: a 500 otherwise); a value blank once whitespace and format
    (``Cf``, e.g. zero-width) characters are removed is ``""`` (None stays None), so the
    checks for an empty value refuse it.
    """
    if value is None:
        return None
    check_free_text(value, info.field_name or "text")
    return "" if is_blank(value) else value


FreeText = AfterValidator(_free_text)
"""The one validator of every free-text request field: ``Annotated[str, FreeText]``."""


class TaskIn(_In):
    """``POST /v1/tasks``: a new task for the key's principal."""

    request: str = Field(min_length=1, description="the user's request, as the agent got it")
    agent: str | None = Field(default=None, max_length=128, description="the agent's name")
    model: str | None = Field(default=None, max_length=128, description="the agent's model")
    requirements: list[str] = Field(
        default_factory=list, description="the planner's requirements the judge checks"
    )
    criteria: list[str] = Field(default_factory=list, description="verification criteria")
    task_type: TaskType | None = Field(default=None, description="skip the classifier")
    callback_url: str | None = Field(
        default=None,
        max_length=2048,
        description="where each decision is POSTed, signed with the webhook secret of the API "
        "key that created this task (once that key is revoked: the principal's newest live "
        "key's) (X-QGS-Signature: sha256=HMAC over '<X-QGS-Timestamp>.<body>'); public "
        "http(s) only",
    )


class TaskOut(BaseModel):
    """A started task: its id and classification."""

    id: str
    task_type: TaskType
    complexity: Complexity
    classification: Classification


class _Shaped(_In):
    """A request part that also takes agents' API shapes, published as one ``anyOf``."""

    _shapes: ClassVar[tuple[type[BaseModel], ...]] = ()
    _what: ClassVar[str] = ""

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """QGS's own form and each shape the round reads (OpenAPI, MCP's input schemas)."""
        return {
            "anyOf": [
                handler.resolve_ref_schema(handler(core_schema)),
                *(handler(shape.__pydantic_core_schema__) for shape in cls._shapes),
            ],
            "description": f"{cls._what}: QGS's form, or as the agent's API wrote it",
        }


class ToolCallIn(_Shaped):
    """A tool call the agent made in the round, in QGS's form or as the agent's API wrote it.

    QGS's form is ``{"id", "name", "arguments": {...}}``. An OpenAI ``tool_calls`` item
    (``function.arguments`` a JSON string), an OpenAI Responses ``function_call`` item, an
    Anthropic ``tool_use`` (``server_tool_use``, ``mcp_tool_use``) block and an MCP
    ``tools/call`` request are read into it (``qgs_worker.core.tool_shapes``), so an agent can pass on
    what its model returned; ``arguments`` may also be a JSON string. Arguments that are not a
    JSON object are kept raw (``raw_arguments``) for the reviewer and the detectors. A call
    with no name, or of no known shape, is a 422 naming it (``tool_calls.0``) and why.
    """

    _shapes = CALL_SHAPES
    _what = "a tool call"

    id: str = ""
    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = Field(
        default=None, description="the arguments as sent, when they are not a JSON object"
    )

    @model_validator(mode="before")
    @classmethod
    def _from_api_shapes(cls, data: Any) -> Any:
        return read_call(data) if isinstance(data, dict) else data


class ToolResultIn(_Shaped):
    """A tool output the agent saw since its previous round, in QGS's form or its API's.

    QGS's form is ``{"tool_call_id", "name", "content": "..."}``. An OpenAI tool message, an
    Anthropic ``tool_result`` block (``content`` optional), a Responses
    ``function_call_output`` item and an MCP ``tools/call`` response or ``CallToolResult`` are
    read into it (``qgs_worker.core.tool_shapes``); ``content`` given as a list of parts keeps their
    text; a tool that failed (``is_error``, ``isError``) is prefixed ``[tool error] ``.
    """

    _shapes = RESULT_SHAPES
    _what = "a tool result"

    tool_call_id: str = ""
    name: str = ""
    content: str

    @model_validator(mode="before")
    @classmethod
    def _from_api_shapes(cls, data: Any) -> Any:
        return read_result(data) if isinstance(data, dict) else data


class RoundIn(_In):
    """``POST /v1/tasks/{task_id}/rounds``: one round handed in for review."""

    deliverable: str = Field(description="the round's output text ('' for tool calls only)")
    tool_calls: list[ToolCallIn] = Field(default_factory=list)
    tool_results: list[ToolResultIn] = Field(default_factory=list)
    final: StrictBool = Field(
        default=False, description="the round the agent means to deliver (true or false)"
    )
    round_number: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_ROUND_NUMBER,
        description=f"1 to {MAX_ROUND_NUMBER}; default: the next one",
    )
    turn: str | None = Field(
        default=None, description="in a multi-turn run, the user message this round answers"
    )
    callback_url: str | None = Field(
        default=None,
        max_length=2048,
        description="where this round's decision is POSTed, signed like the task's (the "
        "secret of the key that created the task)",
    )


class SubmissionOut(BaseModel):
    """A queued round: ask ``decision_url`` for its decision (HTTP and MCP answer the same)."""

    submission_id: str
    task_id: str
    decision_url: str

    @classmethod
    def of(cls, submission_id: str, task_id: str) -> SubmissionOut:
        """The answer for a queued submission, with its decision's URL (``/v1/...``)."""
        return cls(
            submission_id=submission_id,
            task_id=task_id,
            decision_url=f"/v1/submissions/{submission_id}/decision",
        )


class DecisionOut(BaseModel):
    """``GET /v1/submissions/{id}/decision``: the decision, or where the submission stands.

    ``decided`` False (HTTP 202): no decision within ``wait_s``; ``detail`` says where it is.
    ``woken_by`` is what ended the wait: ``stored``, ``notification``, ``resubscribed``,
    ``recheck`` or ``timeout``.
    """

    submission_id: str
    decided: bool
    decision: DecisionView | None = None
    woken_by: str
    detail: str = ""


class ConstraintsOut(BaseModel):
    """``GET /v1/tasks/{task_id}/constraints``: the text to add to the agent's next prompt."""

    task_id: str
    constraints: str


class ToolCallCheckIn(_In):
    """``POST /v1/tool-calls/check``: one call, and the tools the agent may call."""

    call: Annotated[
        dict[str, Any],
        AnyOfShapes(
            CHECK_CALL_SHAPES,
            "one call: QGS's {id, name, arguments} (as a round's tool_calls item), an OpenAI "
            "tool_calls item, an OpenAI Responses function_call item, an Anthropic tool_use "
            "block or an MCP tools/call request",
        ),
    ]
    tools: list[dict[str, Any]] | dict[str, Any] | None = Field(
        default=None,
        description="OpenAI, Anthropic or MCP tool definitions (or an MCP tools/list result); "
        "default: the server's QGS_TOOLS_FILE (required when the server has none: a 422 "
        "naming 'tools')",
    )
    agent: str | None = Field(default=None, max_length=128, description="which agent calls")
    tool_set: str | None = Field(
        default=None,
        max_length=64,
        pattern="^[0-9a-f]+$",
        description="the id of tools registered before (POST /v1/tool-sets, MCP "
        "register_tools), instead of 'tools': the check costs the same at 10 tools as at 1,000",
    )


class ToolSetIn(_In):
    """``POST /v1/tool-sets``: a tools list to register once and name by its id in checks."""

    tools: list[dict[str, Any]] | dict[str, Any] = Field(
        description="OpenAI, Anthropic or MCP tool definitions (or an MCP tools/list result)"
    )


class ToolSetOut(BaseModel):
    """A registered tools list: name it as ``tool_set`` in ``POST /v1/tool-calls/check``."""

    tool_set: str = Field(description="the set's id: a digest of its content (also its ETag)")
    tools: int = Field(description="how many tools it holds")


class ApprovalIn(_In):
    """``POST /v1/tasks/{task_id}/approval``: a person's decision (needs the approve scope)."""

    decision: Literal["approve", "reject"]
    by: Annotated[str | None, FreeText] = Field(
        default=None,
        max_length=APPROVER_MAX_CHARS,
        description="who decides (default: the principal); stored as '<by> (via <principal>, "
        f"key <id>)', at most {APPROVER_MAX_CHARS} characters in all (a longer one is a 422)",
    )
    note: Annotated[str, FreeText] = Field(
        default="",
        max_length=APPROVAL_NOTE_MAX_CHARS,
        description=f"why; required to reject; at most {APPROVAL_NOTE_MAX_CHARS:,} characters",
    )


ApprovalOut = ApprovalView
