"""Review cadence: which reviews are due on a round (DESIGN.md, "Cadence").

Defaults of the reference design (see ``CadencePolicy``): the critic every 2nd round and always
on a round marked final; the discriminator on COMPLEX and REFLECT tasks every 10th round and on
a final round, and on every round of a CRITICAL task (issue 4 widens DESIGN.md's "final round of
a REFLECT task" to any final round). SIMPLE tasks are never reviewed by an LLM.
"""

from __future__ import annotations

from qgs_worker.core.models import CadencePolicy, Complexity, RoundPlan, TaskType
from qgs_worker.errors import InputError

__all__ = ["plan_round"]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plan_round(
    complexity: Complexity,
    round_number: int,
    *,
    final: bool,
    policy: CadencePolicy,
    task_type: TaskType | None = None,
) -> RoundPlan:
    """Say whether the critic and the discriminator run on one round, and why.

    Args:
        complexity: The task's complexity (after any escalation).
        round_number: The round's number, starting at 1.
        final: Whether the agent marked this round as its final deliverable.
        policy: How often each review runs (``critic_every``, ``discriminator_every``, in rounds).
        task_type: The task's type: a CRITICAL task is audited on every round (issue 4).

    Returns:
        The plan: ``critic`` on every ``critic_every``-th round and on a final round;
        ``discriminate`` on every round of a CRITICAL task, and for COMPLEX and REFLECT every
        ``discriminator_every``-th round and on a final round; neither for SIMPLE. ``reason``
        says why in plain words.

    Raises:
        InputError: ``round_number`` is below 1.
    """
    if round_number < 1:
        raise InputError(f"'round_number' must be 1 or more (got {round_number!r})")
    if complexity is Complexity.SIMPLE:
        return RoundPlan(critic=False, discriminate=False, reason="simple task: no LLM review")

    critic_due = round_number % policy.critic_every == 0
    critic = critic_due or final
    if critic_due:
        critic_why = f"critic: every {_ordinal(policy.critic_every)} round"
    elif final:
        critic_why = "critic: final round"
    else:
        critic_why = (
            f"no critic: it runs every {_ordinal(policy.critic_every)} round and on the final one"
        )

    critical = task_type is TaskType.CRITICAL
    discriminator_due = round_number % policy.discriminator_every == 0
    discriminate = critical or discriminator_due or final
    every = _ordinal(policy.discriminator_every)
    if critical:
        discriminator_why = "discriminator: every round of a CRITICAL task"
    elif discriminator_due:
        discriminator_why = f"discriminator: every {every} round"
    elif final:
        discriminator_why = "discriminator: final round"
    else:
        discriminator_why = f"no discriminator: it runs every {every} round and on the final one"

    reason = f"round {round_number} ({complexity.value}): {critic_why}; {discriminator_why}"
    return RoundPlan(critic=critic, discriminate=discriminate, reason=reason)
