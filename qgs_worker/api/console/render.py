"""The console's pages: Jinja2 templates (autoescape on), the security headers, the filters.

Every page is rendered on the server and works without JavaScript; ``static/console.js`` (the
package's own, served from ``/ui/static``) only adds live updates. What agents wrote is shown
as text: autoescaped, never put into an attribute that can run it (no link is ever made from
it), and with its invisible characters (``is_hidden``: controls, format characters such as RTL
overrides, zero-width characters and tags, line separators, and Unicode's default-ignorable
code points such as Hangul fillers and variation selectors) shown as visible marks (``shown``:
``⟦U+202E⟧``), so a deliverable cannot make its text read other than it is stored.

Headers on every page: a strict Content-Security-Policy (``CSP``: scripts and styles from
``/ui/static`` only, no inline code, connections to this origin only, no framing, forms post
here only), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` (a form then sends its ``Origin``),
``Cache-Control: no-store``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from jinja2 import Environment
    from starlette.responses import HTMLResponse

__all__ = [
    "CSP",
    "DEFAULT_IGNORABLE",
    "SECURITY_HEADERS",
    "environment",
    "exact_stamp",
    "is_hidden",
    "page",
    "shown",
    "stamp",
    "warm_up",
    "when",
]

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

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's ``Default_Ignorable_Code_Point`` ranges (DerivedCoreProperties.txt, Unicode 15.1,
assigned or not): what a renderer draws as nothing. Among them the Hangul fillers (U+115F,
U+1160, U+3164, U+FFA0), variation selectors (U+FE00-FE0F, U+E0100-E01EF), the Mongolian ones,
the combining grapheme joiner, and the tag characters (U+E0000-E007F) that can carry a hidden
text; ``unicodedata`` does not give the property, so it is listed here."""

_SHOWN_CONTROLS = frozenset("\t\n\r")
"""Controls shown as they are (tab, newline, carriage return): the rest of ``Cc`` is marked."""
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""General categories marked: controls, format characters (bidi controls, zero-width ones,
tags), lone surrogates, the line and paragraph separators (U+2028, U+2029)."""


def is_hidden(char: str) -> bool:
    """Whether ``char`` changes how text reads without being seen (it is marked).

    Hidden: ``Cc`` but tab, newline and carriage return; ``Cf``, ``Cs``, ``Zl``, ``Zp``; and
    every ``DEFAULT_IGNORABLE`` code point. Other combining marks (``Mn``) are not: accents
    and the vowel signs of Indic, Arabic and Hebrew text are drawn, and marking them would
    make such text unreadable; the ignorable ones among them (variation selectors, U+034F)
    are in the list.
    """
    if char in _SHOWN_CONTROLS:
        return False
    point = ord(char)
    if any(low <= point <= high for low, high in DEFAULT_IGNORABLE):
        return True
    return unicodedata.category(char) in _HIDDEN_CATEGORIES


@cache
def _hidden() -> re.Pattern[str]:
    """A character class of every hidden code point (built once: a scan of Unicode's categories)."""
    category = unicodedata.category
    points = {p for p in range(0x110000) if category(chr(p)) in _HIDDEN_CATEGORIES}
    points -= {ord(c) for c in _SHOWN_CONTROLS}
    for low, high in DEFAULT_IGNORABLE:
        points.update(range(low, high + 1))
    ranges: list[list[int]] = []
    for point in sorted(points):
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1][1] = point
        else:
            ranges.append([point, point])
    parts = "".join(
        f"\\U{low:08x}" if low == high else f"\\U{low:08x}-\\U{high:08x}" for low, high in ranges
    )
    return re.compile(f"[{parts}]")


def warm_up() -> None:
    """Build the hidden characters' class now (about 0.2 s), not on a page's first request."""
    _hidden()


def _mark(found: re.Match[str]) -> str:
    return f"⟦U+{ord(found.group()):04X}⟧"


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
        _hidden().sub(
            lambda m: f'<span class="ctl" title="hidden character">{_mark(m)}</span>', escaped
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
    return _hidden().sub(_mark, text)


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


def exact_stamp(moment: datetime | str | None) -> Markup:
    """``stamp``, kept as the exact UTC time by ``console.js`` (``data-exact``).

    For a time shown beside its age in words: "waiting 5 min (decided 2025-01-31 14:05:09
    UTC)", not "waiting 5 min (since 5 min ago)".
    """
    found = stamp(moment)
    return Markup(str(found).replace("<time ", '<time data-exact="yes" ', 1))


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
    env.filters.update(
        shown=shown, when=when, stamp=stamp, exact_stamp=exact_stamp, age=age,
        pretty_json=pretty_json,
    )  # fmt: skip
    return env


def page(template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A rendered console page with the security headers."""
    from starlette.responses import HTMLResponse

    html = environment().get_template(template).render(**context)
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
