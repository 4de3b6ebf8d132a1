"""Judge adapters: the critic behind the :class:`~qgs_worker.core.ports.Judge` port.

``rules`` is the deterministic, offline default; ``openai`` is any OpenAI-compatible endpoint;
``panel`` is several models on that endpoint voting (median score, majority verdict).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``core``, ``errors``, ``service``. Imported by: ``client``, ``queue``, ``reports``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from qgs_worker.core.ports import Judge
from qgs_worker.errors import ConfigurationError
from qgs_worker.judges.audit_session import OpenAIAuditSessions
from qgs_worker.judges.llm_classifier import LLMClassifier, classify_with_llm
from qgs_worker.judges.openai_judge import OpenAIJudge
from qgs_worker.judges.panel import PanelJudge
from qgs_worker.judges.rules_judge import RulesJudge

__all__ = [
    "LLMClassifier",
    "OpenAIAuditSessions",
    "OpenAIJudge",
    "PanelJudge",
    "RulesJudge",
    "audit_sessions_for",
    "classify_with_llm",
    "make_judge",
]

JUDGE_KINDS = ("openai", "panel", "rules")
"""The values ``QGS_JUDGE__KIND`` accepts."""


def make_judge(
    kind: str,
    *,
    base_url: str | None = None,
    api_key: str = "",
    model: str = "gpt-4o-mini",
    timeout_s: float = 30.0,
    panel_models: Sequence[str] = (),
    panel_mode: str = "escalate",
    call_gate: Callable[[int], None] | None = None,
) -> Judge:
    """Build the judge that settings ask for.

    Args:
        kind: ``rules`` (deterministic, offline) or ``openai`` (any OpenAI-compatible endpoint).
        base_url: Endpoint root for ``openai``, e.g. ``http://127.0.0.1:8000/v1``; None for
            the openai client's default.
        api_key: Endpoint key; required for ``openai``.
        model: Judge model for ``openai`` (default ``gpt-4o-mini``, DESIGN.md "Critic").
        timeout_s: Timeout of each judge HTTP call, in seconds.
        panel_models: For ``panel``: the models that vote (2 or more), on ``base_url``.
        panel_mode: For ``panel``: ``escalate`` (ask the next model only near the threshold or
            when flagged) or ``all``.
        call_gate: Called before every HTTP call to the endpoint, by every judge of a panel
            too: the shared rate limit (``JudgeRateLimit.before_call``); None for no limit.

    Returns:
        A ready judge.

    Raises:
        ConfigurationError: ``kind`` is not one of ``JUDGE_KINDS``, ``openai`` or ``panel`` has
            no key, or a panel has fewer than 2 models.
    """
    normalized = kind.strip().lower()
    if normalized == "rules":
        return RulesJudge()
    if normalized == "panel":
        if len(panel_models) < 2:
            raise ConfigurationError(
                "judge kind 'panel' needs 2 or more models: set QGS_JUDGE__PANEL_MODELS, "
                'e.g. \'["gpt-4o-mini", "claude-3-5-haiku"]\''
            )
        judges = [
            make_judge(
                "openai",
                base_url=base_url,
                api_key=api_key,
                model=m,
                timeout_s=timeout_s,
                call_gate=call_gate,
            )
            for m in panel_models
        ]
        return PanelJudge(judges, mode="all" if panel_mode == "all" else "escalate")
    if normalized == "openai":
        if not api_key:
            raise ConfigurationError(
                "judge kind 'openai' needs an API key: set QGS_JUDGE__API_KEY "
                "(or use QGS_JUDGE__KIND=rules for the offline judge)"
            )
        return OpenAIJudge(
            base_url=base_url,
            api_key=api_key,
            model=model,
            timeout_s=timeout_s,
            call_gate=call_gate,
        )
    raise ConfigurationError(
        f"'judge.kind' must be one of {', '.join(repr(k) for k in JUDGE_KINDS)} (got {kind!r}); "
        "set QGS_JUDGE__KIND"
    )


def llm_classifier_for(
    judge: Any, *, call_gate: Callable[[int], None] | None = None
) -> LLMClassifier | None:
    """The classifier's LLM layer on the judge's endpoint, when ``QGS_JUDGE__CLASSIFIER_LLM``.

    Args:
        judge: ``Settings.judge`` (kind, base_url, api_key, model, panel_models, timeout_s,
            classifier_llm).
        call_gate: The judge's shared rate limit, called before each of its HTTP calls.

    Returns:
        An ``LLMClassifier``, or None when the setting is off or the judge is the rules judge.
    """
    if not judge.classifier_llm or judge.kind == "rules":
        return None
    model = judge.panel_models[0] if judge.kind == "panel" and judge.panel_models else judge.model
    return LLMClassifier(
        base_url=judge.base_url,
        api_key=judge.api_key.get_secret_value(),
        model=model,
        timeout_s=min(judge.timeout_s, 10.0),
        call_gate=call_gate,
    )


def audit_sessions_for(judge: Judge, *, low_memory: bool = False) -> OpenAIAuditSessions | None:
    """The session manager's judge sessions for the audit roles' LLM passes.

    Args:
        judge: The critic judge; a panel lends its first model.
        low_memory: Each session builds its own HTTP client and closes it with the session.

    Returns:
        Sessions on the judge's endpoint, or None for the rules judge (no LLM: the roles run
        their deterministic checks only).
    """
    if isinstance(judge, PanelJudge):
        judge = judge.judges[0]
    if isinstance(judge, OpenAIJudge):
        return OpenAIAuditSessions(judge, low_memory=low_memory)
    return None
