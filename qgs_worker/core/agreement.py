"""Agreement between raters on plain values: Cohen's kappa (two raters) and Krippendorff's alpha.

Pure Python, no QGS type: the spot-checks (``core.spotcheck``) call these on the labels people
gave and the gate's own calls. The figures are tested against their published worked examples
(Wikipedia's kappa tables; Krippendorff's 2011 examples, alpha 0.743 and 0.691; Newcombe's 1998
Wilson intervals) and, on random data, against the ``krippendorff`` package
(``tests/unit/test_agreement.py``). scikit-learn's ``cohen_kappa_score`` gives the same kappa;
it is not a dependency (scipy and all for five lines).

Kappa's 95% interval (``kappa_interval``) is honest for few labels: Cohen's (1960) large-sample
error is the Wald interval of the observed agreement ``p_o`` mapped through
``kappa = (p_o - p_e) / (1 - p_e)``, and a Wald interval is zero-wide when every label agrees
and too narrow for small n (Brown, Cai & DasGupta 2001, "Interval estimation for a binomial
proportion", Statistical Science 16(2)). QGS maps Wilson's (1927) score interval instead, which
they recommend for small n: never zero-wide, and Cohen's interval again as n grows. Like
Cohen's, it holds the raters' marginals (``p_e``) fixed. Below ``KAPPA_MIN_ITEMS`` items the
interval is flagged ``too_few``.

    >>> round(cohen_kappa([("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15), 3)
    0.4
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "KAPPA_MIN_ITEMS",
    "Interval",
    "cohen_kappa",
    "kappa_interval",
    "krippendorff_alpha",
    "wilson_interval",
]

Z_95 = 1.959963984540054
"""The standard normal's 97.5th percentile: a two-sided 95% interval is estimate +- Z_95 * se."""

KAPPA_MIN_ITEMS = 10
"""Fewer items than this and a kappa's interval is flagged ``too_few`` (it is wide, and says so)."""


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its two-sided 95% confidence interval (bounds clipped to [-1, 1]).

    Attributes:
        estimate: The point estimate.
        low: The interval's lower bound.
        high: The interval's upper bound.
        n: The items it stands on (0: not said).
    """

    estimate: float
    low: float
    high: float
    n: int = 0

    @property
    def too_few(self) -> bool:
        """It stands on fewer than ``KAPPA_MIN_ITEMS`` items: read it as a rough guide only."""
        return 0 < self.n < KAPPA_MIN_ITEMS


def _chance(pairs: Sequence[tuple[Hashable, Hashable]]) -> tuple[float, float]:
    """Observed agreement and the agreement expected by chance from each rater's marginals."""
    n = len(pairs)
    observed = sum(1 for a, b in pairs if a == b) / n
    first = Counter(a for a, _ in pairs)
    second = Counter(b for _, b in pairs)
    expected = sum(first[k] * second.get(k, 0) for k in first) / (n * n)
    return observed, expected


def cohen_kappa(pairs: Iterable[tuple[Hashable, Hashable]]) -> float | None:
    """Cohen's kappa of two raters over the same items (nominal categories, unweighted).

    ``(p_o - p_e) / (1 - p_e)``: the observed agreement ``p_o`` beyond what the raters'
    own category frequencies give by chance (``p_e``). 1 is full agreement, 0 chance, below 0
    worse than chance. The same figure as scikit-learn's ``cohen_kappa_score(a, b)``.

    Args:
        pairs: ``(first rater's category, second rater's category)`` per item.

    Returns:
        The kappa, or None when it is undefined: no item, or chance agreement of 1 (both
        raters used one and the same category throughout; scikit-learn returns NaN).
    """
    pairs = list(pairs)
    if not pairs:
        return None
    observed, expected = _chance(pairs)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson's (1927) score interval for a binomial proportion ``successes / n``.

    Newcombe (1998, "Two-sided confidence intervals for the single proportion", Statistics in
    Medicine 17, method 3) tabulates it: 81/263 gives 0.2553-0.3662, 0/20 gives 0-0.1611.

    Args:
        successes: How many of the ``n`` items succeeded (0-n).
        n: How many items (at least 1).
        z: The normal quantile (``Z_95``: a two-sided 95% interval).

    Returns:
        ``(low, high)``, both within [0, 1]; never zero-wide.

    Raises:
        ValueError: ``n`` below 1, or ``successes`` outside 0-n.
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"wilson_interval needs 0 <= successes <= n, n >= 1 (got {successes}/{n})")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def kappa_interval(pairs: Iterable[tuple[Hashable, Hashable]]) -> Interval | None:
    """Cohen's kappa with its 95% confidence interval, honest for few items.

    The interval is Wilson's score interval of the observed agreement ``p_o`` mapped through
    ``(p_o - p_e) / (1 - p_e)`` with the chance agreement ``p_e`` held at the raters' marginals
    (see the module's docstring): Cohen's (1960) large-sample interval as n grows, never
    zero-wide when every item agrees. ``Interval.n`` is the number of items; below
    ``KAPPA_MIN_ITEMS`` it is flagged ``too_few``.

    Returns:
        The interval (bounds clipped to [-1, 1]), or None where :func:`cohen_kappa` is
        undefined.
    """
    pairs = list(pairs)
    kappa = cohen_kappa(pairs)
    if kappa is None:
        return None
    _observed, expected = _chance(pairs)
    agreeing = sum(1 for a, b in pairs if a == b)
    low, high = (
        (bound - expected) / (1.0 - expected) for bound in wilson_interval(agreeing, len(pairs))
    )
    return Interval(
        estimate=kappa,
        low=max(-1.0, min(low, kappa)),
        high=min(1.0, max(high, kappa)),
        n=len(pairs),
    )


def krippendorff_alpha(units: Iterable[Sequence[Hashable]]) -> float | None:
    """Krippendorff's alpha for nominal data, any number of raters, missing values allowed.

    ``1 - D_o / D_e`` over the coincidence matrix: each unit's values (one per rater who rated
    it; a rater who did not is simply absent) pair with each other, weighted ``1 / (m_u - 1)``;
    units with a single value pair with nothing and do not count.

    Args:
        units: The values given to each unit (a round), one per rater who rated it.

    Returns:
        The alpha (1 perfect, 0 chance, below 0 systematic disagreement), or None when it is
        undefined: fewer than two pairable values, or a single category throughout (no
        expected disagreement).
    """
    coincidences: dict[tuple[Hashable, Hashable], float] = {}
    for unit in units:
        values = list(unit)
        m = len(values)
        if m < 2:
            continue
        counts = Counter(values)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                pairs = n_c * (n_k - 1) if c == k else n_c * n_k
                if pairs:
                    coincidences[c, k] = coincidences.get((c, k), 0.0) + pairs / (m - 1)
    totals: dict[Hashable, float] = {}
    for (c, _k), weight in coincidences.items():
        totals[c] = totals.get(c, 0.0) + weight
    n = sum(totals.values())
    if n <= 1:
        return None
    observed = sum(w for (c, k), w in coincidences.items() if c != k)
    apart = n * n - sum(t * t for t in totals.values())  # the sum of n_c * n_k over c != k
    if apart <= 0:
        return None
    return 1.0 - (n - 1) * observed / apart
