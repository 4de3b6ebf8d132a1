"""Agreement between raters on plain values: Cohen's kappa (two raters) and Krippendorff's alpha.

Pure Python, no QGS type: the spot-checks (``core.spotcheck``) call these on the labels people
gave and the gate's own calls. The figures are tested against their published worked examples
(Wikipedia's kappa tables; Krippendorff's 2011 examples, alpha 0.743 and 0.691) and, on random
data, against the ``krippendorff`` package (``tests/unit/test_agreement.py``). scikit-learn's
``cohen_kappa_score`` gives the same kappa; it is not a dependency (scipy and all for five lines).

    >>> round(cohen_kappa([("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15), 3)
    0.4
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Interval", "cohen_kappa", "kappa_interval", "krippendorff_alpha"]

Z_95 = 1.959963984540054
"""The standard normal's 97.5th percentile: a two-sided 95% interval is estimate +- Z_95 * se."""


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its two-sided 95% confidence interval (bounds clipped to [-1, 1]).

    Attributes:
        estimate: The point estimate.
        low: The interval's lower bound.
        high: The interval's upper bound.
    """

    estimate: float
    low: float
    high: float


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


def kappa_interval(pairs: Iterable[tuple[Hashable, Hashable]]) -> Interval | None:
    """Cohen's kappa with its 95% confidence interval (Cohen 1960's large-sample error).

    The standard error is ``sqrt(p_o (1 - p_o) / (n (1 - p_e)^2))``. It is an approximation for
    large ``n``: with few items (or all agreeing, where it is 0) the interval says little, which
    is why shadow mode also asks for a minimum number of labels.

    Returns:
        The interval, or None where :func:`cohen_kappa` is undefined.
    """
    pairs = list(pairs)
    kappa = cohen_kappa(pairs)
    if kappa is None:
        return None
    observed, expected = _chance(pairs)
    se = math.sqrt(observed * (1.0 - observed) / (len(pairs) * (1.0 - expected) ** 2))
    return Interval(
        estimate=kappa,
        low=max(-1.0, kappa - Z_95 * se),
        high=min(1.0, kappa + Z_95 * se),
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
