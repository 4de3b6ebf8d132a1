"""The console's pages: Jinja2 templates (autoescape on), the security headers, the filters.

Every page is rendered on the server and works without JavaScript; ``static/console.js`` (the
package's own, served from ``/ui/static``) only adds live updates. What agents wrote is shown
as text: autoescaped, never put into an attribute that can run it (no link is ever made from
it), and with its invisible direction and format characters (RTL overrides, zero-width
characters) shown as visible marks (``shown``), so a deliverable cannot make its text read
other than it is stored.

Headers on every page: a strict Content-Security-Policy (``CSP``: scripts and styles from
``/ui/static`` only, no inline code, connections to this origin only, no framing, forms post
here only), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` (a form then sends its ``Origin``),
``Cache-Control: no-store``.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from jinja2 import Environment
    from starlette.responses import HTMLResponse

__all__ = ["CSP", "SECURITY_HEADERS", "environment", "page", "shown", "stamp", "when"]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""The console's Content-Security-Policy: nothing inline, nothing from elsewhere."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
"""The headers every console answer carries."""

_HIDDEN = re.compile(
    "[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00ad\u061c\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]"
)
"""Characters that change how text reads without being seen: bidi controls (RTL overrides,
isolates, marks), zero-width characters, soft hyphens, C0 controls but tab and newline."""


def shown(text: object) -> Markup:
    """``text`` escaped, each invisible control character made a visible mark (``⟦U+202E⟧``).

    Args:
        text: Anything (None shows as nothing).

    Returns:
        Safe markup: the text as text, its hidden characters in ``<span class="ctl">``.
    """
    if text is None:
        return Markup("")
    escaped = str(escape(str(text)))
    return Markup(
        _HIDDEN.sub(
            lambda m: f'<span class="ctl" title="hidden character">⟦U+{ord(m.group()):04X}⟧</span>',
            escaped,
        )
    )


def plain_marked(text: str | None) -> str | None:
    """``text`` as plain text (for a script's ``textContent``), hidden characters made visible.

    The live list's events carry text that ``console.js`` puts into the page as text; without
    this an RTL override in an agent's name or request would reverse what the operator reads
    there, as ``shown`` prevents on the server-rendered pages.
    """
    if text is None:
        return None
    return _HIDDEN.sub(lambda m: f"⟦U+{ord(m.group()):04X}⟧", text)


def when(moment: datetime | None) -> str:
    """A time as ``2025-01-31 14:05:09 UTC`` ("" for None)."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def stamp(moment: datetime | str | None) -> Markup:
    """A time as an HTML ``<time>``: the UTC time as its text and title, ISO 8601 as ``datetime``.

    Without JavaScript the page reads ``2025-01-31 14:05:09 UTC``; ``console.js`` turns the
    text into words (``3 min ago``) and keeps the exact time in the title.

    Args:
        moment: An aware datetime (a naive one is taken as UTC), an ISO 8601 string (as the
            operations' dicts carry), or None.

    Returns:
        The element, or nothing for None (or a string that is not a time, shown as text).
    """
    if moment is None or moment == "":
        return Markup("")
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment)
        except ValueError:
            return shown(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    exact = when(moment)
    iso = moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return Markup('<time datetime="{}" title="{}">{}</time>').format(iso, exact, exact)


def age(moment: datetime | None) -> str:
    """How long ago, in words (``3 min``, ``2 h 5 min``; "" for None)."""
    if moment is None:
        return ""
    seconds = max(0, int((datetime.now(UTC) - moment.astimezone(UTC)).total_seconds()))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    if seconds < 86_400:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    return f"{seconds // 86_400} d {seconds % 86_400 // 3600} h"


def pretty_json(value: object) -> str:
    """``value`` as indented JSON (for tool calls), non-ASCII kept as it is."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


@cache
def environment() -> Environment:
    """The console's Jinja2 environment (templates from the package, autoescape on)."""
    from jinja2 import DictLoader, Environment, StrictUndefined

    folder = files("qgs_worker.api.console") / "templates"
    templates = {
        entry.name: entry.read_text(encoding="utf-8")
        for entry in folder.iterdir()
        if entry.name.endswith(".html.j2")
    }
    env = Environment(
        loader=DictLoader(templates),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(shown=shown, when=when, stamp=stamp, age=age, pretty_json=pretty_json)
    return env


def page(template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A rendered console page with the security headers."""
    from starlette.responses import HTMLResponse

    html = environment().get_template(template).render(**context)
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
