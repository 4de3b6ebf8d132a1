"""The HTML report's plots, built with Plotly from the JSON report (``report.build_report``).

Each plot is a Plotly figure as plain JSON (``{"data": [...], "layout": {...}}``) that the page's
script hands to ``Plotly.newPlot``. Plotly reads labels as a small subset of HTML (``<b>``,
``<a href>``, ``<br>``): every label that can come from a transcript or a role (task ids,
categories) is HTML-escaped first, so it shows as the text it is and links nowhere.
"""

from __future__ import annotations

import html
import json
import statistics
from collections import Counter, defaultdict
from typing import Any

__all__ = ["RISK_BANDS", "SEVERITIES", "TRAJECTORY_TASKS", "decided_risk", "plots", "risk_band"]

SEVERITIES = ("P0", "P1", "P2", "P3", "P4")
TRAJECTORY_TASKS = 30
"""The score-trajectory plot draws this many tasks' own lines (beside the median of all)."""

_SEVERITY_COLOURS = {
    "P0": "#8b0000",
    "P1": "#d62728",
    "P2": "#ff7f0e",
    "P3": "#bcbd22",
    "P4": "#7f7f7f",
}
_DECISION_COLOURS = {
    "pass": "#2ca02c",
    "revise": "#1f77b4",
    "force_deliver": "#ff7f0e",
    "block": "#d62728",
    "awaiting_approval": "#9467bd",
    "pending": "#c7c7c7",
}


def _label(text: object) -> str:
    """A label Plotly shows as plain text (its pseudo-HTML escaped)."""
    return html.escape(str(text), quote=False)  # Plotly decodes &lt; &gt; &amp;, not &quot;


def decided_risk(task: dict[str, Any]) -> int:
    """The risk the gate weighed at the task's latest decision, or the task's own when undecided."""
    decision = task["decision"]
    return int(decision["risk"]) if decision else int(task["risk"])


def _figure(data: list[Any], layout: dict[str, Any]) -> dict[str, Any]:
    """A Plotly figure as plain JSON, validated by Plotly's own figure model."""
    import plotly.graph_objects as go

    base = {"margin": {"l": 50, "r": 20, "t": 50, "b": 50}, "height": 340}
    merged = {**base, **layout}
    # Titles start on the left: Plotly's mode bar sits at the top right.
    merged["title"] = {
        **merged.get("title", {}),
        "x": 0.01,
        "xanchor": "left",
        "font": {"size": 14},
    }
    figure = go.Figure(data=data, layout=merged)
    result: dict[str, Any] = json.loads(figure.to_json())
    # The page styles the plots; Plotly's default template adds ~8 KB to each figure.
    result["layout"].pop("template", None)
    return result


def _trajectories(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    """Score by round: the median of all scored tasks, and a few tasks' own lines."""
    import plotly.graph_objects as go

    scored = [t for t in tasks if t["scores"]]
    by_round: dict[int, list[int]] = defaultdict(list)
    for t in scored:
        for r in t["rounds"]:
            if r["score"] is not None:
                by_round[r["number"]].append(r["score"])
    # The tasks with the most scored rounds (the longest revision loops), lowest last score first.
    shown = sorted(scored, key=lambda t: (-len(t["scores"]), t["scores"][-1], t["id"]))
    lines = [
        go.Scatter(
            x=[r["number"] for r in t["rounds"] if r["score"] is not None],
            y=t["scores"],
            mode="lines+markers",
            name=_label(t["id"]),
            opacity=0.55,
            line={"width": 1},
        )
        for t in shown[:TRAJECTORY_TASKS]
    ]
    rounds = sorted(by_round)
    median = go.Scatter(
        x=rounds,
        y=[statistics.median(by_round[n]) for n in rounds],
        mode="lines+markers",
        name=f"median of {len(scored)} tasks",
        line={"width": 4, "color": "#222"},
    )
    title = (
        f"Score by round: median of {len(scored)} scored tasks, "
        f"{len(lines)} longest revision loops drawn"
    )
    return _figure(
        [*lines, median],
        {
            "title": {"text": title},
            "xaxis": {"title": {"text": "round"}, "dtick": 1},
            "yaxis": {"title": {"text": "score (0-100)"}, "range": [0, 102]},
            "showlegend": len(lines) <= 12,
        },
    )


def _decisions_by_type(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    import plotly.graph_objects as go

    counts = Counter(
        (t["task_type"], (t["decision"] or {}).get("outcome") or "pending") for t in tasks
    )
    types = sorted({t for t, _ in counts})
    kinds = sorted({k for _, k in counts}, key=lambda k: (k not in _DECISION_COLOURS, k))
    bars = [
        go.Bar(
            x=[_label(t) for t in types],
            y=[counts.get((t, k), 0) for t in types],
            name=_label(k),
            marker={"color": _DECISION_COLOURS.get(k, "#17becf")},
        )
        for k in kinds
    ]
    return _figure(
        bars,
        {
            "title": {"text": "Decisions by task type"},
            "barmode": "stack",
            "yaxis": {"title": {"text": "tasks"}},
        },
    )


def _findings(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    import plotly.graph_objects as go

    counts = Counter((f["category"], f["severity"]) for t in tasks for f in t["findings"])
    totals = Counter(category for category, _ in counts.elements())
    categories = sorted(totals, key=lambda c: (-totals[c], c))
    bars = [
        go.Bar(
            x=[_label(c) for c in categories],
            y=[counts.get((c, sev), 0) for c in categories],
            name=sev,
            marker={"color": _SEVERITY_COLOURS[sev]},
        )
        for sev in SEVERITIES
    ]
    title = "Findings by category and severity" + ("" if categories else " (no findings)")
    return _figure(
        bars,
        {
            "title": {"text": title},
            "barmode": "stack",
            "yaxis": {"title": {"text": "findings"}},
            # A category name can be long (a role's own, or text from a transcript): the axis
            # shows its first characters, the hover the whole name.
            "xaxis": {
                "tickangle": -30,
                "automargin": True,
                "tickvals": [_label(c) for c in categories],
                "ticktext": [_label(_short(c)) for c in categories],
            },
            "legend": {
                "orientation": "h",
                "x": 1,
                "xanchor": "right",
                "y": 1.0,
                "yanchor": "bottom",
            },
        },
    )


_TICK_CHARS = 24
"""Characters of a category name shown on the findings plot's axis (the hover has them all)."""


def _short(text: str) -> str:
    return text if len(text) <= _TICK_CHARS else text[: _TICK_CHARS - 1] + "…"


RISK_BANDS: tuple[tuple[str, int, str], ...] = (
    ("no findings (0)", 0, "#2ca02c"),
    ("P4 band (5-9)", 5, _SEVERITY_COLOURS["P4"]),
    ("P3 band (10-19)", 10, _SEVERITY_COLOURS["P3"]),
    ("P2 band (20-49)", 20, _SEVERITY_COLOURS["P2"]),
    ("P1 band (50-99)", 50, _SEVERITY_COLOURS["P1"]),
    ("P0 band (100+)", 100, _SEVERITY_COLOURS["P0"]),
)
"""The risk chart's bands: (name, lowest risk, colour), by the severity weight a risk reaches
(P4=5, P3=10, P2=20, P1=50, P0=100); risk 0 is green, never the red of P1."""

_RISK_BINS = 30
"""About how many bins the risk histogram has (each a multiple of 5 wide: risks are)."""


def risk_band(risk: int) -> int:
    """The index in ``RISK_BANDS`` of the band ``risk`` falls in."""
    return max(i for i, (_name, lowest, _colour) in enumerate(RISK_BANDS) if risk >= lowest)


def _risk(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    import plotly.graph_objects as go

    risks = [decided_risk(t) for t in tasks]
    top = max(risks, default=0)
    width = max(5, -(-(top + 5) // (_RISK_BINS * 5)) * 5)  # a multiple of 5, ~30 bins in all
    bins = {"start": 0, "end": top + width, "size": width}
    by_band: dict[int, list[int]] = defaultdict(list)
    for risk in risks:
        by_band[risk_band(risk)].append(risk)
    bars = [
        go.Histogram(x=by_band[i], xbins=bins, marker={"color": colour}, name=name)
        for i, (name, _lowest, colour) in enumerate(RISK_BANDS)
        if by_band[i]
    ]
    return _figure(
        bars,
        {
            "title": {"text": "Risk the gate weighed (P0=100, P1=50, P2=20, P3=10, P4=5)"},
            "xaxis": {"title": {"text": "risk"}},
            "yaxis": {"title": {"text": "tasks"}},
            "bargap": 0.05,
            "barmode": "stack",
        },
    )


def plots(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The page's four plots by element id, as Plotly figures in plain JSON.

    ``trajectory``: score by round (median and the longest loops); ``decisions``: decision
    outcomes stacked by task type; ``findings``: findings by category, stacked by severity;
    ``risk``: a histogram of the risk the gate weighed per task, coloured by severity band
    (``RISK_BANDS``: risk 0 green, the P1 band red).
    """
    tasks = report["tasks"]
    return {
        "plot-trajectory": _trajectories(tasks),
        "plot-decisions": _decisions_by_type(tasks),
        "plot-findings": _findings(tasks),
        "plot-risk": _risk(tasks),
    }
