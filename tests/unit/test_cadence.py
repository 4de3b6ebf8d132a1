"""Tests of the review cadence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qgs_worker.core.cadence import plan_round
from qgs_worker.core.models import CadencePolicy, Complexity, TaskType
from qgs_worker.errors import InputError

DEFAULT = CadencePolicy()


class TestDefaultTable:
    """The reference cadence: critic every 2nd round and on final; discriminator every 10th."""

    @pytest.mark.parametrize(
        ("complexity", "round_number", "final", "critic", "discriminate"),
        [
            (Complexity.SIMPLE, 1, False, False, False),
            (Complexity.SIMPLE, 2, False, False, False),
            (Complexity.SIMPLE, 10, True, False, False),
            (Complexity.COMPLEX, 1, False, False, False),
            (Complexity.COMPLEX, 2, False, True, False),
            (Complexity.COMPLEX, 3, True, True, True),
            (Complexity.COMPLEX, 10, False, True, True),
            (Complexity.COMPLEX, 11, True, True, True),
            (Complexity.REFLECT, 1, False, False, False),
            (Complexity.REFLECT, 1, True, True, True),
            (Complexity.REFLECT, 4, False, True, False),
            (Complexity.REFLECT, 20, False, True, True),
            (Complexity.REFLECT, 7, True, True, True),
        ],
    )
    def test_plan(
        self,
        complexity: Complexity,
        round_number: int,
        final: bool,
        critic: bool,
        discriminate: bool,
    ) -> None:
        plan = plan_round(complexity, round_number, final=final, policy=DEFAULT)
        assert (critic, discriminate) == (plan.critic, plan.discriminate)


class TestCritical:
    """Issue 4: a CRITICAL task is audited on every round, whatever its complexity says."""

    @pytest.mark.parametrize("round_number", [1, 2, 3, 7])
    def test_every_round(self, round_number: int) -> None:
        plan = plan_round(
            Complexity.REFLECT,
            round_number,
            final=False,
            policy=DEFAULT,
            task_type=TaskType.CRITICAL,
        )
        assert plan.discriminate
        assert "every round of a CRITICAL task" in plan.reason

    def test_other_types_keep_the_cadence(self) -> None:
        plan = plan_round(
            Complexity.REFLECT, 3, final=False, policy=DEFAULT, task_type=TaskType.ACTION
        )
        assert not plan.discriminate


class TestReason:
    """The reason says why in plain words."""

    def test_simple(self) -> None:
        plan = plan_round(Complexity.SIMPLE, 1, final=False, policy=DEFAULT)
        expected = "simple task: no LLM review"
        assert expected == plan.reason

    @pytest.mark.parametrize(
        ("complexity", "round_number", "final", "phrase"),
        [
            (Complexity.COMPLEX, 2, False, "critic: every 2nd round"),
            (Complexity.COMPLEX, 3, True, "critic: final round"),
            (Complexity.COMPLEX, 1, False, "no critic"),
            (Complexity.COMPLEX, 10, False, "discriminator: every 10th round"),
            (Complexity.REFLECT, 3, True, "discriminator: final round"),
        ],
    )
    def test_phrase(
        self, complexity: Complexity, round_number: int, final: bool, phrase: str
    ) -> None:
        plan = plan_round(complexity, round_number, final=final, policy=DEFAULT)
        assert phrase in plan.reason


class TestPolicy:
    """Custom intervals are honoured."""

    @given(
        critic_every=st.integers(1, 12),
        discriminator_every=st.integers(1, 12),
        round_number=st.integers(1, 200),
        final=st.booleans(),
        complexity=st.sampled_from([Complexity.COMPLEX, Complexity.REFLECT]),
    )
    def test_intervals(
        self,
        critic_every: int,
        discriminator_every: int,
        round_number: int,
        final: bool,
        complexity: Complexity,
    ) -> None:
        policy = CadencePolicy(critic_every=critic_every, discriminator_every=discriminator_every)
        plan = plan_round(complexity, round_number, final=final, policy=policy)
        assert (round_number % critic_every == 0 or final) == plan.critic
        expected_disc = round_number % discriminator_every == 0 or final
        assert expected_disc == plan.discriminate

    @given(round_number=st.integers(1, 500), final=st.booleans())
    def test_simple_never_reviewed(self, round_number: int, final: bool) -> None:
        policy = CadencePolicy(critic_every=1, discriminator_every=1)
        plan = plan_round(Complexity.SIMPLE, round_number, final=final, policy=policy)
        expected = (False, False)
        assert expected == (plan.critic, plan.discriminate)


class TestInput:
    """Round numbers start at 1."""

    @pytest.mark.parametrize("round_number", [0, -1])
    def test_below_one(self, round_number: int) -> None:
        with pytest.raises(InputError, match="'round_number'"):
            plan_round(Complexity.COMPLEX, round_number, final=False, policy=DEFAULT)
