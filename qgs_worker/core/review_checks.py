"""Checks on a review after the judge gave it: the halo effect and self-preference.

Both add a warning to the review (a person should look again); neither changes the verdict.
"""

from __future__ import annotations

import re

from qgs_worker.core.models import Review

HALO_SPREAD_POINTS = 10
"""Reference design: every dimension within 10 points of the others suggests one overall
impression scored several times (the halo effect), not dimensions judged on their own."""

HALO_MIN_DIMENSIONS = 3
"""Two dimensions (ACTION: safety, necessity) often agree for good reasons: the check needs 3+."""

_FAMILIES = (
    ("gpt", r"\b(?:gpt|o[134](?:-mini)?|chatgpt)\b"),
    ("claude", r"\bclaude\b"),
    ("gemini", r"\b(?:gemini|gemma)\b"),
    ("llama", r"\bllama\b"),
    ("mistral", r"\b(?:mistral|mixtral|codestral)\b"),
    ("qwen", r"\bqwen\b"),
    ("deepseek", r"\bdeepseek\b"),
)


def model_family(model: str | None) -> str | None:
    """The family of a model name (``gpt-4.1`` -> ``gpt``, ``openai:gpt-4o-mini`` -> ``gpt``), or None."""
    if not model:
        return None
    name = model.lower().split(":", 1)[-1].split("/")[-1]
    for family, pattern in _FAMILIES:
        if re.search(pattern, name.replace("_", "-")):
            return family
    return None


def halo_warning(review: Review, spread_points: int = HALO_SPREAD_POINTS) -> str | None:
    """A warning when the review scores 3+ dimensions all within ``spread_points`` of each other."""
    scores = [d.score for d in review.dimensions]
    if len(scores) < HALO_MIN_DIMENSIONS or max(scores) - min(scores) > spread_points:
        return None
    return (
        f"halo effect: all {len(scores)} dimension scores lie within {max(scores) - min(scores)} "
        f"points ({min(scores)}-{max(scores)}); a person should look again"
    )


def self_preference_warning(agent_model: str | None, judge: str) -> str | None:
    """A warning when the judge's model is of the agent's own model family (self-preference bias)."""
    family = model_family(agent_model)
    if family is None or family != model_family(judge):
        return None
    return f"self-preference: the judge ({judge}) is of the agent's model family ({agent_model})"


def annotate(
    review: Review,
    *,
    agent_model: str | None,
    spread_points: int = HALO_SPREAD_POINTS,
) -> Review:
    """The review with the halo-effect and self-preference warnings that apply added."""
    found = [
        w
        for w in (
            halo_warning(review, spread_points),
            self_preference_warning(agent_model, review.judge),
        )
        if w and w not in review.warnings
    ]
    return review.model_copy(update={"warnings": (*review.warnings, *found)}) if found else review
