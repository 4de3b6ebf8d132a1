"""Script injection (XSS): markup and URLs that run script in someone else's browser.

| rule | what | tool call | ``url`` | ``html`` |
| --- | --- | --- | --- | --- |
| ``xss`` | ``<script``, ``javascript:``, an ``onerror=`` / ``onload=``... attribute, ``<iframe`` | P2 | - | - |
| ``script_url`` | a value that is a script URL: ``javascript:``, ``vbscript:``, ``data:text/html`` (tabs and newlines inside the scheme ignored, as a URL parser does) | - | P1 | - |
| ``xss_script`` | a ``<script>`` element, an event-handler attribute (``onerror=``), a script URL as an attribute value or right after its colon, ``data:text/html``, ``srcdoc=``, an attribute-injection fragment (as ``xss_attribute``) | - | - | P1 |
| ``xss_attribute`` | an attribute-injection fragment: a quote that closes the attribute value, then an event handler (up to three attributes on) or ``>`` and a new element (``" onmouseover="alert(1)``, ``'><svg/onload=...>``), or a value that starts with an event-handler attribute of the HTML standard (`` onfocus=alert(1) autofocus ``: an unquoted attribute ends at a space) | - | P1 | P2 (``free_text``) |
| ``xss_embed`` | ``<base href>``, ``<meta http-equiv=refresh>``, ``<frameset>``; an ``<iframe>`` / ``<object>`` / ``<embed>`` whose source is a script or data URL | - | - | P2 |
| ``xss_frame`` | any other ``<iframe>``, ``<object>``, ``<embed>`` (a YouTube embed) | - | - | P3 |
| ``xss_markup`` | in a ``free_text`` argument, markup that runs script: an element with an event handler, a ``<script>`` element with a body or a source, a script URL in a link or attribute (HTML or Markdown), a whole value that is a script URL; not a mention of a tag ("use ``<script>`` tags") | - | - | P2 (``free_text``) |

In ``url`` and ``html`` arguments character references are decoded first (``&#106;avascript:``;
``argscan``), except those of ``<`` and ``>``: ``&lt;script&gt;`` is escaped text.
Sources: OWASP XSS Filter Evasion Cheat Sheet, OWASP Cross Site Scripting Prevention Cheat
Sheet, CWE-79, the HTML Living Standard (event handler content attributes, ``srcdoc``).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

from qgs_worker.core.rules.base import P1, P2, P3, Rule, rule

__all__ = [
    "RULES",
    "SCRIPT_URL",
    "XSS",
    "XSS_ATTRIBUTE",
    "XSS_EMBED",
    "XSS_FRAME",
    "XSS_MARKUP",
    "XSS_SCRIPT",
]

FAMILY = "xss"
_OWASP = "OWASP XSS Filter Evasion Cheat Sheet; CWE-79"

# The scheme names of script URLs, with the tabs and newlines a URL parser drops (``java\tscript:``)
_JS, _VBS, _DATA = (r"[\t\n\r]*+".join(word) for word in ("javascript", "vbscript", "data"))

# An attribute-injection fragment (OWASP XSS Filter Evasion Cheat Sheet; PortSwigger's XSS
# cheat sheet): a quote that closes the attribute value the fragment is pasted into, then a new
# event-handler attribute (up to three attributes on: `" autofocus onfocus=`), or `>` and a new
# element: `" onmouseover="alert(1)`, `'><svg/onload=alert(1)>`.
_ATTRIBUTE_BREAKOUT = (
    r"[\"'`]\s*+(?:/\s*+)?(?:[a-z][\w:-]{0,30}(?:\s*=\s*(?:\"[^\"]{0,200}\"|'[^']{0,200}'|[^\s\"'>]{1,200}))?"
    r"[\s/]++){0,3}on[a-z]{3,20}\s*="
)
# An unquoted attribute value ends at a space: a fragment that starts with an event-handler
# attribute (`` onfocus=alert(1) autofocus ``) injects too. The names are the HTML Living
# Standard's event handler content attributes, so "online=yes" is not one (that would be ononline).
_EVENT = (
    r"on(?:abort|animation\w+|auxclick|before\w+|blur|cancel|canplay\w*|change|click|close"
    r"|contextmenu|copy|cuechange|cut|dblclick|drag\w*|drop|durationchange|emptied|ended|error"
    r"|focus\w*|formdata|hashchange|input|invalid|key(?:down|press|up)|load\w*|message\w*"
    r"|mouse\w+|offline|online|page\w+|paste|pause|play\w*|pointer\w+|popstate|progress"
    r"|ratechange|reset|resize|scroll\w*|search|seek\w+|select\w*|show|stalled|storage|submit"
    r"|suspend|timeupdate|toggle|touch\w+|transition\w+|unload|volumechange|waiting|wheel)"
)
_UNQUOTED_BREAKOUT = rf"^\s*+{_EVENT}\s*=\s*+\S"
_ELEMENT_BREAKOUT = (
    r"[\"'`]\s*+>\s*+<\s*+(?:script|svg|img|iframe|body|details|video|audio|input|math|object|embed"
    r"|a|style|link|meta|form|marquee|select|textarea|isindex|frameset)\b"
)

# fmt: off
XSS = rule(
    "xss", FAMILY, "xss",
    "script injection markup (XSS)",
    r"<\s*script\b",
    r"\bjavascript\s*:",
    r"<[a-z][^<>]{0,200}?\bon(?:error|load|click|mouseover|focus)\s*=",
    r"<\s*iframe\b",
    tool_call=P2,
    source=_OWASP,
    needles=("<", "javascript"),
)
SCRIPT_URL = rule(
    "script_url", FAMILY, "xss",
    "a script URL (javascript:, vbscript:, data:text/html)",
    rf"^[\x00-\x20]*+(?:{_JS}|{_VBS})\s*:", rf"^[\x00-\x20]*+{_DATA}\s*:\s*text/html",
    url=P1,
    source=_OWASP, needles=("script", "data"),
)
XSS_SCRIPT = rule(
    "xss_script", FAMILY, "xss",
    "script injection markup (XSS)",
    r"<\s*script\b",
    r"<[a-z][^<>]{0,200}?[\s\"'/]on[a-z]{3,20}\s*=",
    # a script URL: the whole value, an attribute value, or code right after the colon
    rf"(?:^|=)\s*+(?:[\"']\s*+)?(?:{_JS}|{_VBS})\s*:|\b(?:{_JS}|{_VBS}):(?=\S)",
    rf"\b{_DATA}\s*:\s*text/html",
    r"\bsrcdoc\s*=",
    _ATTRIBUTE_BREAKOUT,
    _UNQUOTED_BREAKOUT,
    _ELEMENT_BREAKOUT,
    html=P1,
    source=_OWASP,
    needles=("<", "script", "data", "="),
)
XSS_EMBED = rule(
    "xss_embed", FAMILY, "xss",
    "redirecting markup (base, meta refresh, frameset), or an embed of a script or data URL",
    r"<\s*(?:base|frameset)\b",
    r"<\s*meta\b[^>]{0,100}http-equiv\s*=\s*[\"']?refresh",
    r"<\s*(?:iframe|object|embed)\b[^<>]{0,300}?\b(?:src|data)\s*=\s*+(?:[\"']\s*+)?"
    rf"(?:{_JS}|{_VBS}|{_DATA})\s*:",
    html=P2,
    source=_OWASP, needles=("<",),
)
XSS_FRAME = rule(
    "xss_frame", FAMILY, "xss",
    "embedding markup (iframe, object, embed)",
    r"<\s*(?:iframe|object|embed)\b",
    html=P3,
    source=_OWASP, needles=("<",),
)
XSS_ATTRIBUTE = rule(
    "xss_attribute", FAMILY, "xss",
    "an attribute-injection fragment (a quote closing the attribute, then an event handler or a new element)",
    _ATTRIBUTE_BREAKOUT,
    _UNQUOTED_BREAKOUT,
    _ELEMENT_BREAKOUT,
    url=P1, free_text=P2,
    source=_OWASP + "; PortSwigger Web Security Academy, XSS in HTML tag attributes",
    needles=("=", "<"),
)
# Markup in free text (a message, a comment, a page an app renders): only what runs script, not
# a mention of a tag ("use <script> tags"): an element with an event handler, a script element
# with a body or a source, a link or attribute with a script URL (HTML or Markdown).
XSS_MARKUP = rule(
    "xss_markup", FAMILY, "xss",
    "markup that runs script (an event handler, a script element, a script URL in a link)",
    r"<[a-z][^<>]{0,200}?[\s\"'/]on[a-z]{3,20}\s*=",
    r"<\s*script\b[^<>]{0,200}>[^<]{0,2000}?\S[^<]{0,2000}?<\s*/\s*script|<\s*script\b[^<>]{0,200}?\bsrc\s*=",
    rf"\]\(\s*+<?\s*+(?:{_JS}|{_VBS})\s*:|\]\(\s*+<?\s*+{_DATA}\s*:\s*text/html",
    # an attribute whose value runs script (junk before the scheme, as filter-evasion strings have)
    r"\b(?:href|src|action|formaction|xlink:href|data|style|background|poster)\s*=\s*+[\"']?[^\"'<>]{0,40}?"
    rf"(?:(?:{_JS}|{_VBS})\s*:|{_DATA}\s*:\s*text/html|expression\s*\()",
    # the whole value is a script URL with code after the colon ("javascript: the book" is not)
    r"^\s*+(?:javascript|vbscript):(?=\S)|^\s*+data:text/html",
    free_text=P2,
    source=_OWASP + "; CommonMark (link destinations); HTML Living Standard (event handler attributes)",
    needles=("<", "](", "=", "javascript", "vbscript", "data:text/html"),
)
# fmt: on

RULES: tuple[Rule, ...] = (
    XSS,
    SCRIPT_URL,
    XSS_SCRIPT,
    XSS_ATTRIBUTE,
    XSS_EMBED,
    XSS_FRAME,
    XSS_MARKUP,
)
