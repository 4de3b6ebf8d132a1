"""``QGS_SPOTCHECK__*``: which decided rounds a person checks, and shadow mode.

    QGS_SPOTCHECK__RATE=0.05                            5% of decided rounds
    QGS_SPOTCHECK__STRATA='{"CRITICAL": 1.0, "block": 0.5, "QUERY/pass": 0.01}'
    QGS_SPOTCHECK__SHADOW_RULES='["prompt_ignore_previous"]'
    QGS_SPOTCHECK__SHADOW_THRESHOLD=0.6                 kappa's lower 95% bound to leave shadow
    QGS_SPOTCHECK__SHADOW_MIN_LABELS=30

The core never sees this object: it gets ``SamplePolicy`` and ``ShadowPolicy``
(``core.spotcheck``).
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from qgs_worker.core.spot_names import judge_names, rule_names, unknown_name
from qgs_worker.core.spotcheck import SamplePolicy, ShadowPolicy, strata_keys

__all__ = ["SpotCheckSettings"]


class SpotCheckSettings(BaseModel, defer_build=True):
    """Spot-checks and shadow mode (``QGS_SPOTCHECK__*``; docs/spot-checks.md)."""

    rate: float = Field(
        default=0.0,
        ge=0.0,
        le=1.0,
        description="the share of decided rounds queued for a person's spot-check, 0.0-1.0 (0: "
        "only rounds a person asks for); the same round is always sampled the same way",
    )
    strata: dict[str, float] = Field(
        default_factory=dict,
        description="rates by stratum, each 0.0-1.0: a task type (CRITICAL), a decision kind "
        "(block) or both (CRITICAL/pass); TYPE/kind wins, else the higher of the type's and the "
        "kind's, else QGS_SPOTCHECK__RATE",
    )
    backfill_s: float = Field(
        default=86_400.0,
        gt=0,
        description="how far back the sweeper looks for decided rounds that never got their "
        "sampling decision (their worker was lost before it sampled them), in seconds",
    )
    shadow_judges: tuple[str, ...] = Field(
        default=(),
        description="judges (by the name their reviews carry) whose verdicts are recorded, not "
        "deciding, until their agreement with people passes",
    )
    shadow_rules: tuple[str, ...] = Field(
        default=(),
        description="detector rules (by id) whose findings are recorded, not deciding, until "
        "their agreement passes; a rule that can raise P0 enters or leaves shadow only by a "
        "person's decision (POST /v1/shadow)",
    )
    shadow_threshold: float = Field(
        default=0.6,
        ge=-1.0,
        le=1.0,
        description="the Cohen's kappa (person vs gate) whose 95% interval's lower bound a "
        "shadowed judge or rule must reach to leave shadow",
    )
    shadow_min_labels: int = Field(
        default=30, ge=1, description="the fewest labels a shadowed subject's agreement counts"
    )
    shadow_refresh_s: float = Field(
        default=30.0,
        gt=0,
        description="how long a worker keeps the shadow state it read, in seconds: a person's "
        "change reaches the decisions within it",
    )

    @field_validator("strata")
    @classmethod
    def _known_strata(cls, value: dict[str, float]) -> dict[str, float]:
        known = set(strata_keys())
        for key, rate in value.items():
            if key not in known:
                raise ValueError(
                    f"unknown stratum {key!r}: use a task type (CRITICAL), a decision kind "
                    "(block) or TYPE/kind (CRITICAL/pass)"
                )
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"the rate of stratum {key!r} must be 0.0-1.0 (got {rate!r})")
        return value

    @field_validator("shadow_rules")
    @classmethod
    def _known_rules(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        known = rule_names()
        for name in value:
            refused = unknown_name("QGS_SPOTCHECK__SHADOW_RULES", name, known, "rule")
            if refused is not None:
                raise ValueError(refused)
        return value

    def unknown_judge(self, kind: str, model: str, panel_models: tuple[str, ...]) -> str | None:
        """The refusal of a ``shadow_judges`` name the configured judge's reviews never carry.

        Args:
            kind: ``QGS_JUDGE__KIND``.
            model: ``QGS_JUDGE__MODEL``.
            panel_models: ``QGS_JUDGE__PANEL_MODELS``.

        Returns:
            None when every name is the judge's (``core.spot_names.judge_names``), else the
            message naming the setting, the value and the close names.
        """
        known = judge_names(kind, model, panel_models)
        for name in self.shadow_judges:
            refused = unknown_name("QGS_SPOTCHECK__SHADOW_JUDGES", name, known, "judge")
            if refused is not None:
                return refused
        return None

    def sample_policy(self) -> SamplePolicy:
        """The sampling rates as the core takes them."""
        return SamplePolicy(rate=self.rate, strata=dict(self.strata))

    def shadow_policy(self) -> ShadowPolicy:
        """The shadow settings as the core takes them."""
        return ShadowPolicy(
            judges=frozenset(self.shadow_judges),
            rules=frozenset(self.shadow_rules),
            threshold=self.shadow_threshold,
            min_labels=self.shadow_min_labels,
        )
