"""``QGS_WEBHOOKS__*``: where pushed decisions may go, how they are signed, how they are retried."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr

from qgs_worker.core.webhooks import WebhookPolicy
from qgs_worker.errors import ConfigurationError

__all__ = ["WebhookSettings"]


class WebhookSettings(BaseModel):
    """Webhooks (``qgs_worker.webhooks``): the signing secret, private receivers, retries.

    ``secret`` signs every webhook (HMAC-SHA256, ``X-QGS-Signature``); with none, a callback
    URL is refused at submit. ``allow_private`` lets a callback go to loopback, private and
    link-local addresses (tests, on-prem receivers); metadata, unspecified, multicast and
    reserved addresses stay refused.
    """

    secret: SecretStr = Field(
        default=SecretStr(""),
        description="the secret webhooks are signed with (until API keys carry their own)",
    )
    allow_private: bool = Field(
        default=False,
        description="allow callback URLs on loopback, private and link-local addresses",
    )
    max_attempts: int = Field(
        default=5, ge=1, le=50, description="POSTs of one webhook before it is stored as failed"
    )
    backoff_base_s: float = Field(
        default=2.0, gt=0, description="seconds before the second attempt; each wait doubles"
    )
    backoff_max_s: float = Field(
        default=60.0, gt=0, description="the longest wait between two attempts, in seconds"
    )
    timeout_s: float = Field(
        default=10.0, gt=0, le=120, description="one POST (connect, send, answer), in seconds"
    )

    def policy(self) -> WebhookPolicy:
        """The retry policy the delivery follows."""
        return WebhookPolicy(
            max_attempts=self.max_attempts,
            backoff_base_s=self.backoff_base_s,
            backoff_max_s=self.backoff_max_s,
            timeout_s=self.timeout_s,
        )

    def check(self, *, soft_time_limit_s: float, visibility_timeout_s: float) -> None:
        """Check that a POST fits in a job and a retry's wait is held below the visibility timeout.

        A retry waits in the worker (a countdown): past the visibility timeout Redis would
        deliver the held job a second time (NOTES.md).

        Raises:
            ConfigurationError: naming the settings and the fix.
        """
        if not self.timeout_s < soft_time_limit_s:
            raise ConfigurationError(
                f"QGS_WEBHOOKS__TIMEOUT_S ({self.timeout_s}) must be below "
                f"QGS_WORKER__SOFT_TIME_LIMIT_S ({soft_time_limit_s})"
            )
        if not self.backoff_max_s < visibility_timeout_s / 2:
            raise ConfigurationError(
                f"QGS_WEBHOOKS__BACKOFF_MAX_S ({self.backoff_max_s}) must be below half the "
                f"visibility timeout QGS_WORKER__VISIBILITY_TIMEOUT_S ({visibility_timeout_s}): "
                "a retry waits in the worker, and Redis redelivers a job held longer"
            )
