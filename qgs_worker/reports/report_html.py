"""The report as one self-contained HTML page: summary, plots, a table of tasks, drill-downs.

:func:`render_html` renders the JSON document of :func:`qgs_worker.reports.report.build_report` (best
built with ``details=True``, so the drill-down has each round's deliverable, review words and
decision reason) through a Jinja2 template with autoescape on. The page needs no network: the
Plotly bundle, the page's script and its styles are inlined, and a Content-Security-Policy lets
only those two scripts run (by their SHA-256), connects nowhere and loads nothing.

Everything that comes from transcripts travels as data, never as markup: the tasks are one JSON
blob in a ``<script type="application/json">`` element (Jinja2's ``tojson`` escapes ``<``, ``>``,
``&`` and ``'``, so a ``</script>`` in a deliverable cannot close it), and the page's script puts
text into the page with ``textContent`` only. The table shows ``PAGE_ROWS`` rows at a time and a
drill-down is built when it is opened, so 10,000 tasks make a page of a few hundred elements.
The plots are built here with Plotly (``report_plots``) and drawn by its bundle in the browser.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from qgs_worker.reports.report_plots import SEVERITIES, decided_risk, plots

if TYPE_CHECKING:
    from jinja2 import Environment

    from qgs_worker.config.settings import Settings

__all__ = ["PAGE_ROWS", "drill_down", "html_context", "render_html", "table_row"]

PAGE_ROWS = 50
"""Rows of the task table shown at a time (the page's script pages through the rest)."""
INPUT_ERRORS_SHOWN = 500
"""At most this many input errors are listed on the page (the count is always whole)."""


def html_context(settings: Settings, run: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page says of the configuration that decided: the judge and the policy file.

    Args:
        settings: The current settings, used when no run is given.
        run: A run's stored decision settings (``RunFacts.settings``, as ``runs.run_settings``
            wrote them when it started): with ``qgs report --run``, the page shows what decided
            that run, not what the shell has set now.

    Returns:
        ``{"judge": str, "policy": str}``: the judge kind and model, and the policy file's path
        with the first 12 hex digits of its SHA-256 (or that none is set, or that it cannot be
        read). With ``run``, "of run N" is said by the caller.
    """
    if run is None:
        from qgs_worker.reports.runs import run_settings

        run = run_settings(settings)
    judge = run.get("judge") or {}
    kind = judge.get("kind", "?")
    if kind == "rules":
        judge_text = "rules judge (deterministic, offline)"
    elif kind == "panel":
        models = judge.get("panel_models") or [judge.get("model", "?")]
        judge_text = f"panel of {', '.join(models)} ({judge.get('panel_mode', '?')})"
    else:
        judge_text = f"openai-compatible endpoint, model {judge.get('model', '?')}"
    policy_file = run.get("policy_file") or {}
    path, digest = policy_file.get("path"), policy_file.get("sha256")
    if path is None:
        policy = "no policy file (QGS_POLICY_FILE unset: no permission checks)"
    elif digest in (None, "missing"):
        policy = f"{path} (cannot be read)"
    else:
        policy = f"{path} (sha256 {str(digest).removeprefix('sha256:')[:12]})"
    return {"judge": judge_text, "policy": policy}


_TASK_KEYS = (
    "id", "request", "task_type", "complexity", "classification_source", "escalated",
    "escalation_reason", "source_file", "line", "transcript_id", "agent", "agent_model",
    "decision", "risk", "scores", "findings", "approvals",
)  # fmt: skip
_ROUND_KEYS = (
    "number", "final", "status", "turn", "error", "score", "verdict", "review_status",
    "review_error", "judge", "warnings", "reused_from", "prompt_tokens", "completion_tokens",
    "decision", "risk", "audit_runs", "deliverable", "deliverable_cut", "summary", "must_fix",
    "dimensions", "decision_reason", "suggestions",
)  # fmt: skip


def drill_down(task: dict[str, Any]) -> dict[str, Any]:
    """What the page's drill-down shows of a task: its report entry less what it never reads.

    Hashes, timestamps, retry counters, webhooks and dead letters stay in the JSON report
    (they are a third of an entry without its deliverables).
    """
    entry = {k: task[k] for k in _TASK_KEYS if k in task}
    entry["rounds"] = [{k: r[k] for k in _ROUND_KEYS if k in r} for r in task["rounds"]]
    return entry


def table_row(task: dict[str, Any]) -> dict[str, Any]:
    """The columns the task table shows, sorts and filters on, for one task of the report.

    ``severity`` is the task's most severe finding (``""`` without findings), ``risk`` the risk
    the gate weighed at its latest decision (the task's own when undecided), ``source``
    ``file:line`` of the transcript (``""`` for a live task).
    """
    decision = task["decision"] or {}
    severities = Counter(f["severity"] for f in task["findings"])
    source = f"{task['source_file']}:{task['line']}" if task["source_file"] else ""
    return {
        "id": task["id"],
        "decision": decision.get("outcome") or decision.get("kind") or "pending",
        "task_type": task["task_type"],
        "complexity": task["complexity"],
        "escalated": task["escalated"],
        "severity": next((s for s in SEVERITIES if severities.get(s)), ""),
        "p0": severities.get("P0", 0),
        "p1": severities.get("P1", 0),
        "risk": decided_risk(task),
        "scores": task["scores"],
        "rounds": len(task["rounds"]),
        "source": source,
        "transcript_id": task["transcript_id"] or "",
        "request": task["request"],
    }


@cache
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(
        loader=PackageLoader("qgs_worker.reports", "templates"),
        autoescape=True,  # every value is text unless the template says otherwise
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


@cache
def _scripts() -> tuple[str, str]:
    """The Plotly bundle and the page's own script, as inlined (checked not to end the tag).

    Raises:
        RuntimeError: a script contains ``</script`` (it would end its element early).
    """
    from plotly.offline import get_plotlyjs

    page = files("qgs_worker.reports").joinpath("templates/report.js").read_text(encoding="utf-8")
    scripts = (get_plotlyjs(), page)
    for script in scripts:
        if "</script" in script.lower():
            raise RuntimeError("an inlined script contains '</script': it cannot be inlined")
    return scripts


def _sha256(script: str) -> str:
    """The CSP source that lets exactly this inline script run."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def render_html(report: dict[str, Any], context: dict[str, Any] | None = None) -> str:
    """The report as one self-contained HTML page (no network needed to open it).

    Args:
        report: The JSON report (``build_report``; with ``details=True`` the drill-down shows
            each round's deliverable, review summary, dimensions, must_fix and decision reason,
            otherwise it says they are not in this report).
        context: What decided (``html_context(settings)``: ``judge`` and ``policy`` texts);
            None: the page says it was not given.

    Returns:
        The page, UTF-8 text (about 4.8 MB of it is the Plotly bundle).
    """
    plotly_js, page_js = _scripts()
    s = report["summary"]
    severities = Counter(f["severity"] for t in report["tasks"] for f in t["findings"])
    data = {
        "page_rows": PAGE_ROWS,
        "rows": [table_row(t) for t in report["tasks"]],
        "tasks": [drill_down(t) for t in report["tasks"]],
        "plots": plots(report),
    }
    csp = (
        "default-src 'none'; "
        f"script-src {_sha256(plotly_js)} {_sha256(page_js)}; "
        "style-src 'unsafe-inline'; img-src data:; font-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            csp=csp,
            report=report,
            summary=s,
            context=context or {"judge": "not given", "policy": "not given"},
            severities=[(sev, severities.get(sev, 0)) for sev in SEVERITIES],
            decisions=sorted(s["decisions"].items()),
            errors=report["errors"][:INPUT_ERRORS_SHOWN],
            errors_left=max(0, len(report["errors"]) - INPUT_ERRORS_SHOWN),
            data=data,
            plotly_js=plotly_js,
            page_js=page_js,
        )
    )
