"""An agent SDK's objects as the JSON its API sent: what ``submit`` and the checks read.

An agent on the OpenAI Python SDK has ``message.tool_calls`` as pydantic models
(``ChatCompletionMessageFunctionToolCall``), a Responses ``output`` item
(``ResponseFunctionToolCall``) or an Anthropic SDK ``content`` block (``ToolUseBlock``) likewise:
``sdk_data`` turns them into the JSON they were read from (``model_dump`` in JSON mode, fields
that are None left out), so ``Client.submit(tool_calls=message.tool_calls)``,
``check_tool_call(call)`` and ``check_tool_calls(message)`` take them as they take that JSON.
QGS's own values (``ToolCall``) are left as they are; anything else is returned unchanged.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["sdk_data"]


def sdk_data(value: object) -> Any:
    """``value`` as JSON data when it is an SDK's pydantic object (or a list of them).

    Args:
        value: A call, a message, or a list of calls, as the agent has it.

    Returns:
        The object's ``model_dump(mode="json", exclude_none=True)`` for a pydantic model that is
        not one of QGS's own; a list with each such item dumped for a list or tuple (a tuple
        stays a tuple); else ``value`` itself.
    """
    if isinstance(value, BaseModel) and not type(value).__module__.startswith("qgs_worker."):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, list | tuple) and any(
        isinstance(item, BaseModel) and not type(item).__module__.startswith("qgs_worker.")
        for item in value
    ):
        items = [sdk_data(item) for item in value]
        return tuple(items) if isinstance(value, tuple) else items
    return value
