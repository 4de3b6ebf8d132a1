"""Agreement figures (``core.agreement``) against their published worked examples and the
``krippendorff`` package."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.core.agreement import (
    KAPPA_MIN_ITEMS,
    Z_95,
    cohen_kappa,
    kappa_interval,
    krippendorff_alpha,
    wilson_interval,
)


def table(yy: int, yn: int, ny: int, nn: int) -> list[tuple[str, str]]:
    """Two raters' yes/no calls from a 2x2 table (first rater's answer first)."""
    return [("y", "y")] * yy + [("y", "n")] * yn + [("n", "y")] * ny + [("n", "n")] * nn


class TestCohenKappa:
    """Wikipedia's worked examples ("Cohen's kappa": 50 grant proposals, two readers)."""

    def test_the_first_example_is_0_4(self) -> None:
        assert 0.4 == pytest.approx(cohen_kappa(table(20, 5, 10, 15)))

    @pytest.mark.parametrize(
        ("cells", "kappa"),
        [((45, 15, 25, 15), 0.1304), ((25, 35, 5, 35), 0.2593)],
    )
    def test_same_agreement_different_kappas(
        self, cells: tuple[int, int, int, int], kappa: float
    ) -> None:
        assert kappa == pytest.approx(cohen_kappa(table(*cells)), abs=5e-5)

    def test_full_agreement_is_1_and_one_category_is_undefined(self) -> None:
        assert 1.0 == cohen_kappa(table(3, 0, 0, 4))
        assert cohen_kappa(table(5, 0, 0, 0)) is None  # scikit-learn: NaN
        assert cohen_kappa([]) is None

    def test_three_categories_match_a_hand_count(self) -> None:
        pairs = [("a", "a")] * 4 + [("b", "b")] * 3 + [("c", "c")] * 2 + [("a", "b"), ("c", "a")]
        n = len(pairs)
        po = 9 / n
        pe = (5 * 5 + 3 * 4 + 3 * 2) / (n * n)  # first rater a5 b3 c3; second a5 b4 c2
        assert (po - pe) / (1 - pe) == pytest.approx(cohen_kappa(pairs))

    def test_the_interval_is_wilsons_on_the_agreement_mapped_to_kappa(self) -> None:
        found = kappa_interval(table(20, 5, 10, 15))  # p_o 35/50, p_e 0.5
        assert found is not None
        low, high = wilson_interval(35, 50)
        assert ((low - 0.5) / 0.5, (high - 0.5) / 0.5) == pytest.approx((found.low, found.high))
        assert found.low < found.estimate < found.high
        assert (50, False) == (found.n, found.too_few)


class TestKappaInterval:
    """The interval is honest for few labels and Cohen's (1960) for many."""

    @pytest.mark.parametrize(
        ("successes", "n", "low", "high"),
        [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
         (1, 29, 0.0061, 0.1718)],
    )  # fmt: skip
    def test_wilson_matches_newcombes_published_table(
        self, successes: int, n: int, low: float, high: float
    ) -> None:
        # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (score).
        assert (low, high) == pytest.approx(wilson_interval(successes, n), abs=5e-5)

    def test_all_agreeing_few_labels_is_not_zero_wide(self) -> None:
        found = kappa_interval(table(3, 0, 0, 2))
        assert found is not None
        assert 1.0 == found.estimate == found.high
        assert found.low < 0.5  # five labels cannot show kappa is high
        assert found.too_few and 5 == found.n

    def test_more_agreeing_labels_narrow_it(self) -> None:
        lows = []
        for n in (5, 10, 40, 160):
            found = kappa_interval(table(n // 2, 0, 0, n - n // 2))
            assert found is not None
            lows.append(found.low)
        assert lows == sorted(lows) and lows[-1] > 0.9
        assert KAPPA_MIN_ITEMS <= 10

    def test_many_labels_give_cohens_large_sample_interval(self) -> None:
        found = kappa_interval(table(2000, 500, 1000, 1500))  # kappa 0.4 over 5,000 items
        assert found is not None
        se = math.sqrt(0.7 * 0.3 / (5000 * 0.5**2))
        cohen = (0.4 - Z_95 * se, 0.4 + Z_95 * se)
        assert cohen == pytest.approx((found.low, found.high), abs=2e-3)

    def test_a_bad_count_is_refused(self) -> None:
        with pytest.raises(ValueError, match="successes"):
            wilson_interval(3, 2)


def units_of(rows: list[str]) -> list[list[str]]:
    """Units (columns) of a coders-by-units table; ``*`` is a missing value."""
    cells = [row.split() for row in rows]
    return [[r[i] for r in cells if r[i] != "*"] for i in range(len(cells[0]))]


class TestKrippendorffAlpha:
    """Krippendorff's published examples (nominal data, missing values)."""

    def test_three_coders_fifteen_units_is_0_691(self) -> None:
        # The krippendorff package's README and Wikipedia's example.
        rows = [
            "* * * * * 3 4 1 2 1 1 3 3 * 3",
            "1 * 2 1 3 3 4 3 * * * * * * *",
            "* * 2 1 3 4 4 * 2 1 1 3 3 * 4",
        ]
        assert 0.691 == pytest.approx(krippendorff_alpha(units_of(rows)), abs=5e-4)

    def test_four_observers_twelve_units_is_0_743(self) -> None:
        # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", example C.
        rows = [
            "1 2 3 3 2 1 4 1 2 * * *",
            "1 2 3 3 2 2 4 1 2 5 * 3",
            "* 3 3 3 2 3 4 2 2 5 1 *",
            "1 2 3 3 2 4 4 1 2 5 1 *",
        ]
        assert 0.743 == pytest.approx(krippendorff_alpha(units_of(rows)), abs=5e-4)

    def test_undefined_without_pairs_or_variation(self) -> None:
        assert krippendorff_alpha([["a"], ["b"]]) is None
        assert krippendorff_alpha([["a", "a"], ["a", "a"]]) is None

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(
            st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=3, max_size=3),
            min_size=2,
            max_size=25,
        )
    )
    def test_the_same_as_the_krippendorff_package(self, table: list[list[int | None]]) -> None:
        krippendorff = pytest.importorskip("krippendorff")
        np = pytest.importorskip("numpy")
        units = [[v for v in unit if v is not None] for unit in table]
        ours = krippendorff_alpha(units)
        data = np.array(
            [[np.nan if unit[c] is None else unit[c] for unit in table] for c in range(3)],
            dtype=float,
        )
        pairable = [u for u in units if len(u) > 1]
        if ours is None:
            # Undefined here; the package raises or returns NaN on such data.
            values = {v for u in pairable for v in u}
            assert len(values) <= 1
            return
        theirs = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
        assert theirs == pytest.approx(ours, abs=1e-9)
