"""The OpenAPI document as the server answers: every error a problem document, by route.

FastAPI documents a 422 as its own ``HTTPValidationError`` (``application/json``) and nothing
else; the server answers every error as an RFC 9457 problem document
(``application/problem+json``, ``qgs_worker.api.problems``). ``install(app)`` replaces the
app's ``openapi()`` with one that, for each operation, lists the statuses it can answer with
the ``Problem`` schema (and ``Retry-After`` / ``WWW-Authenticate`` where they are sent):

- every ``/v1`` operation: 401 (no or a revoked key), 429 (the key's rate limit), 500 (a bug),
  503 (the store or the broker), 422 (a query or path parameter, or the body, that does not
  validate);
- with a body: 400 (cannot be read as JSON), 413 (over the body limit, or a field over its own);
- with a task or submission id in the path: 404;
- ``POST /v1/tasks`` and its rounds: 409 (an ``Idempotency-Key`` sent with another request);
- every ``/v1`` operation but the spot-check routes (``access.OPERATOR_PATHS``): 403 for an
  operator key (a person's key uses only those);
- the approval: 403 (no ``approve`` scope), 409 (not awaiting approval, or decided otherwise);
- the spot-checks' and shadow's writes: 403 (no ``spot-check`` scope; for ``POST /v1/shadow``
  also a key that does not see every task); asking: 404; a label: 409 (the round not sampled,
  labelled before by the person, or decided again);
- ``/readyz``: 503 with its ``checks``.

Tool calls and results in a round are published as ``anyOf`` their shapes (``schemas``).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

from qgs_worker.api.access import operator_path
from qgs_worker.api.problems import PROBLEM_TYPE

__all__ = ["Problem", "ProblemItem", "error_statuses", "install"]

PROBLEM_JSON = "application/problem+json"


class ProblemItem(BaseModel):
    """One thing wrong with a request: the field (None: not one field), what, and the fix."""

    field: str | None
    message: str
    fix: str


class Problem(BaseModel):
    """An RFC 9457 problem document, as every error of this API is answered."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description=f"{PROBLEM_TYPE}<slug>, e.g. {PROBLEM_TYPE}not-found")
    title: str
    status: int
    detail: str
    errors: list[ProblemItem]
    retry_after_s: float | None = Field(
        default=None, description="429 and 503: seconds to wait (also the Retry-After header)"
    )


_WHY = {
    400: "the body cannot be read as JSON (the detail says why: empty, not UTF-8, compressed...)",
    401: "no API key, or an unknown or revoked one",
    403: "the key may not do this: an operator's (a person's) key outside the spot-check "
    "routes, no approve or spot-check scope, or a shadow change by a key that does not see "
    "every task (the detail says which)",
    404: "no such task or submission of the key's principal",
    409: "a conflict (the detail says which)",
    413: "the body is over QGS_API__MAX_BODY_BYTES, or a field over its own limit",
    422: "a field or parameter does not validate (named in errors[].field)",
    429: "the key's rate limit is spent for now",
    500: "a server error (the server log has it)",
    503: "the store or the broker did not answer; nothing was stored",
}
_HEADERS = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}},
    429: {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
    503: {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
}


def error_statuses(path: str, method: str, operation: dict[str, Any]) -> list[int]:
    """The error statuses an operation can answer (see the module docstring)."""
    if not path.startswith("/v1/"):
        return [503] if path == "/readyz" else []
    found = {401, 429, 500, 503}
    if operation.get("requestBody") or operation.get("parameters"):
        found.add(422)
    if operation.get("requestBody"):
        found |= {400, 413}
    if "{task_id}" in path or "{submission_id}" in path:
        found.add(404)
    if method == "post" and (path == "/v1/tasks" or path.endswith("/rounds")):
        found.add(409)
    if not operator_path(path):
        found.add(403)  # an operator key: a person's key uses only the spot-check routes
    if path.endswith("/approval"):
        found |= {403, 409}
    if method == "post" and (path.startswith("/v1/spot-checks") or path == "/v1/shadow"):
        found.add(403)
        if path == "/v1/spot-checks":
            found.add(404)  # the submission is not the principal's, or not decided yet
    if path.endswith("/labels"):
        found.add(409)  # not sampled, labelled before, decided again
    return sorted(found)


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` publish the problem documents the server answers (built once)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _with_problems(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    summary=app.summary,
                    description=app.description,
                    routes=app.routes,
                )
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _with_problems(document: dict[str, Any]) -> dict[str, Any]:
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    problem = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(problem.pop("$defs", {}))
    schemas["Problem"] = problem
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    ref = {"$ref": "#/components/schemas/Problem"}
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)  # FastAPI's own validation error, never answered
            for status in error_statuses(path, method, operation):
                answer: dict[str, Any] = {
                    "description": _WHY[status],
                    "content": {PROBLEM_JSON: {"schema": ref}},
                }
                if status in _HEADERS:
                    answer["headers"] = _HEADERS[status]
                responses[str(status)] = answer
    return document
