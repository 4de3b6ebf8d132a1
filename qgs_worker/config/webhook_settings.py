"""``QGS_WEBHOOKS__*``: where pushed decisions may go, how they are signed, how they are retried."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr

from qgs_worker.core.webhooks import WebhookPolicy

__all__ = ["WebhookSettings"]


class WebhookSettings(BaseModel):
    """Webhooks (``qgs_worker.webhooks``): the signing secret, private receivers, retries.

    ``secret`` signs in-process tasks' webhooks (HMAC-SHA256, ``X-QGS-Signature``); with none,
    such a callback URL is refused at submit. ``master_secret`` is what API keys' webhook
    secrets are derived from (``qgs_worker.webhooks.key_secrets``). ``allow_private`` lets a callback go to loopback, private and
    link-local addresses (tests, on-prem receivers); metadata, unspecified, multicast and
    reserved addresses stay refused. ``concurrency`` caps the POSTs in flight in one worker
    process (``qgs_worker.queue.webhook_job``): the webhook job shares ``qgs.default``'s threads
    with the decide job, and a receiver that hangs holds a thread up to ``timeout_s`` (the whole
    POST's bound, however slowly it answers).
    """

    secret: SecretStr = Field(
        default=SecretStr(""),
        description=(
            "the secret in-process tasks' webhooks are signed with (a task started over the "
            "API is signed with the secret of the key that created it)"
        ),
    )
    master_secret: SecretStr = Field(
        default=SecretStr(""),
        description=(
            "the secret each API key's webhook secret is derived from (HMAC-SHA256 over the "
            "key id; nothing secret is stored); empty: generated once into "
            "<data folder>/webhook-master.key (mode 0600). Set the same on every process that "
            "makes keys or sends webhooks when they do not share a data folder"
        ),
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
        default=5.0,
        gt=0,
        le=120,
        description=(
            "one POST in total (connect, send, answer), in seconds: a receiver that answers "
            "slowly is cut off at it"
        ),
    )
    concurrency: int = Field(
        default=2,
        ge=1,
        le=64,
        description=(
            "webhook POSTs one worker process makes at once; a delivery that finds them all "
            "busy waits as a countdown (1 s, doubling up to timeout_s; held by the worker, no "
            "thread taken), so "
            "hanging receivers never take the threads the review jobs need"
        ),
    )

    def policy(self, *, soft_time_limit_s: float, visibility_timeout_s: float) -> WebhookPolicy:
        """The retry policy the delivery follows, fitted to the worker's limits.

        ``timeout_s`` (the whole POST's bound) is lowered to a third of the soft time limit
        (the POST, with the name's resolution and the store's writes, fits in one job) and ``backoff_max_s`` to 45% of the visibility timeout (a
        retry waits in the worker as a countdown, and Redis would deliver a job held past the
        visibility timeout a second time: NOTES.md), so settings made without webhooks in mind
        never stop a worker from starting.

        Args:
            soft_time_limit_s: ``QGS_WORKER__SOFT_TIME_LIMIT_S``.
            visibility_timeout_s: ``QGS_WORKER__VISIBILITY_TIMEOUT_S``.
        """
        return WebhookPolicy(
            max_attempts=self.max_attempts,
            backoff_base_s=self.backoff_base_s,
            backoff_max_s=min(self.backoff_max_s, 0.45 * visibility_timeout_s),
            timeout_s=min(self.timeout_s, soft_time_limit_s / 3),
        )
