"""The request bodies of the spot-check routes and MCP tools (``api.spot_checks``' operations).

Each refuses unknown fields (a misspelt ``verdcit`` is a 422 naming it, not ignored), and a
control character (a NUL: PostgreSQL refuses it) in a free-text field (``FreeText``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StrictBool

from qgs_worker.api.schemas import FreeText, _In
from qgs_worker.api.spot_checks import NOTE_MAX_CHARS, RULE_MAX_CHARS

__all__ = [
    "AgreementArgs",
    "Blank",
    "LabelArgs",
    "LabelIn",
    "ShadowIn",
    "SpotCheckArgs",
    "SpotCheckIn",
    "SpotChecksArgs",
]

Status = Literal["open", "labelled", "stale", "all"]
Scope = Literal["gate", "judge", "task_type", "rule"]


def _blank_is_unset(value: Any) -> Any:
    """An empty or blank value (``?scope=``, ``"scope": ""``) is as if it were not given."""
    return None if isinstance(value, str) and not value.strip() else value


class Blank:
    """Validators for optional filters: an empty value means the filter's default (no filter).

    ``Annotated[Scope | None, Query(), Blank.unset]``; a filter with a default other than None
    takes ``Blank.default(value)``. The HTTP routes' query parameters and the MCP tools' arguments
    use them alike, so ``GET /v1/agreement?scope=`` is ``GET /v1/agreement``.
    """

    unset = BeforeValidator(_blank_is_unset)

    @staticmethod
    def default(value: Any) -> BeforeValidator:
        """A validator that turns an empty value into ``value`` (the filter's default)."""
        return BeforeValidator(lambda v: value if _blank_is_unset(v) is None else v)


_SUBMISSION = Field(min_length=1, max_length=128, description="the round's id (from submit_round)")
_NOTE = Field(default="", max_length=NOTE_MAX_CHARS, description="why, in words")


class SpotCheckIn(_In):
    """``POST /v1/spot-checks``: ask for a decided round to be checked by a person."""

    submission_id: Annotated[str, FreeText] = _SUBMISSION
    note: Annotated[str, FreeText] = _NOTE


class LabelIn(_In):
    """``POST /v1/spot-checks/{submission_id}/labels``: a person's label of a queued round."""

    decision_correct: StrictBool = Field(description="whether the gate's decision was right")
    verdict: Literal["PASS", "PASS_WITH_SUGGESTIONS", "FAIL"] = Field(
        description="the verdict the person would give"
    )
    severities: dict[str, Literal["P0", "P1", "P2", "P3", "P4", "none"]] = Field(
        default_factory=dict,
        description="the person's severity per rule id (none: it should not have fired); a "
        "rule that fired and is not named keeps the gate's severity",
    )
    note: Annotated[str, FreeText] = _NOTE


class ShadowIn(_In):
    """``POST /v1/shadow``: a person puts a judge or rule in shadow, or takes it out."""

    kind: Literal["judge", "rule"]
    name: Annotated[str, FreeText] = Field(min_length=1, max_length=RULE_MAX_CHARS, description="judge name or rule id")
    in_shadow: StrictBool = Field(description="true: recorded, not deciding; false: deciding")
    note: Annotated[str, FreeText] = Field(min_length=1, max_length=NOTE_MAX_CHARS, description="why (kept with it)")


class SpotChecksArgs(_In):
    """``list_spot_checks``: the queue."""

    status: Annotated[Status, Blank.default("open")] = "open"
    task_type: Annotated[str | None, Blank.unset, FreeText] = None
    decision: Annotated[str | None, Blank.unset, FreeText] = None
    limit: Annotated[int, Blank.default(100)] = Field(default=100, ge=1, le=1000)


class SpotCheckArgs(_In):
    """``get_spot_check``: one round to check, with its labels."""

    submission_id: Annotated[str, FreeText] = _SUBMISSION


class LabelArgs(LabelIn):
    """``label_spot_check``: a person's label of a queued round."""

    submission_id: Annotated[str, FreeText] = _SUBMISSION


class AgreementArgs(_In):
    """``get_agreement``: agreement with people, per judge, task type and rule."""

    scope: Annotated[Scope | None, Blank.unset] = None
