"""Tests of the review rubric and the constraint text."""

from __future__ import annotations

import pytest

from qgs_worker.core.models import Complexity, TaskType
from qgs_worker.core.rubric import DIMENSION_REQUIREMENTS, constraints_text, dimensions_for

ALL_DIMENSIONS = (
    "accuracy",
    "relevance",
    "completeness",
    "correctness",
    "clarity",
    "feasibility",
    "safety",
    "necessity",
)


class TestDimensionsFor:
    """Each task type has the dimensions DESIGN.md lists, in order."""

    @pytest.mark.parametrize(
        ("task_type", "expected"),
        [
            (TaskType.QUERY, ("accuracy", "relevance")),
            (TaskType.GENERATE, ("completeness", "correctness", "clarity", "feasibility")),
            (TaskType.ACTION, ("safety", "necessity")),
            (TaskType.CRITICAL, ALL_DIMENSIONS),
        ],
    )
    def test_dimensions(self, task_type: TaskType, expected: tuple[str, ...]) -> None:
        assert expected == dimensions_for(task_type)

    def test_critical_has_no_duplicates(self) -> None:
        dims = dimensions_for(TaskType.CRITICAL)
        assert len(set(dims)) == len(dims)


class TestRequirements:
    """Every dimension has one requirement sentence."""

    def test_one_per_dimension(self) -> None:
        assert set(ALL_DIMENSIONS) == set(DIMENSION_REQUIREMENTS)

    @pytest.mark.parametrize("name", ALL_DIMENSIONS)
    def test_is_a_sentence(self, name: str) -> None:
        text = DIMENSION_REQUIREMENTS[name]
        assert text.endswith(".")
        assert "\n" not in text

    def test_read_only(self) -> None:
        with pytest.raises(TypeError):
            DIMENSION_REQUIREMENTS["accuracy"] = "x"  # type: ignore[index]


class TestConstraintsText:
    """The text to inject: requirements, open must_fix items, human confirmation for CRITICAL."""

    @pytest.mark.parametrize("task_type", list(TaskType))
    def test_simple_is_empty(self, task_type: TaskType) -> None:
        expected = ""
        assert expected == constraints_text(task_type, Complexity.SIMPLE, ["fix the title"])

    @pytest.mark.parametrize("task_type", list(TaskType))
    def test_lists_each_dimension_requirement(self, task_type: TaskType) -> None:
        text = constraints_text(task_type, Complexity.COMPLEX)
        for name in dimensions_for(task_type):
            assert f"- {name}: {DIMENSION_REQUIREMENTS[name]}" in text

    def test_open_must_fix_listed_once_in_order(self) -> None:
        text = constraints_text(
            TaskType.GENERATE,
            Complexity.COMPLEX,
            ["cite sources", " ", "add tests", "cite sources"],
        )
        lines = text.splitlines()
        start = lines.index("Still open from the last review (fix these first):")
        expected = ["- cite sources", "- add tests"]
        assert expected == lines[start + 1 :]

    def test_no_open_section_without_items(self) -> None:
        assert "Still open" not in constraints_text(TaskType.ACTION, Complexity.COMPLEX)

    def test_critical_says_a_person_must_confirm(self) -> None:
        text = constraints_text(TaskType.CRITICAL, Complexity.REFLECT)
        assert "a person must confirm" in text

    def test_complex_action_needs_no_confirmation(self) -> None:
        assert "a person must confirm" not in constraints_text(TaskType.ACTION, Complexity.COMPLEX)
