"""Putting an intake message on the queue: what the client, the sweeper and the audit chunks send.

One function for every sender, so a submission looks the same in Flower whoever published it
(its ``argsrepr`` names the submission, never the deliverable's text).
"""

from __future__ import annotations

from typing import Any

__all__ = ["publish_intake"]


def publish_intake(app: Any, message: dict[str, Any], argsrepr: str | None = None) -> None:
    """Publish one intake message (``qgs.review.intake``), as the client and the sweeper do.

    Raises:
        kombu.exceptions.OperationalError: the broker could not be reached.
    """
    app.send_task(
        "qgs.review.intake",
        args=[message],
        argsrepr=argsrepr or _intake_repr(message),
        kwargsrepr="{}",
    )


def _intake_repr(message: dict[str, Any]) -> str:
    """A short, redacted description of an intake message for Flower (no deliverable text)."""
    return (
        f"(submission={message.get('submission_id')!r}, task={message.get('task_id')!r}, "
        f"round={message.get('round_number')}, republished)"
    )
