"""The console's form posts: read with a size cap, the origin and the CSRF token checked.

Every console POST is ``application/x-www-form-urlencoded`` and carries its CSRF token
(``sessions``). ``read_form`` answers one of:

- ``dict[str, str]``: the fields (the first value of each), once the origin and token match;
- ``TooLarge``: a form over ``FORM_MAX_BYTES`` (but under ``FORM_READ_MAX_BYTES``, token
  checked): its fields and the largest one's name, so the page can be shown again with what was
  typed and a 413 naming the field;
- a ``Response``: a 403 page (another site's origin, not a form, a missing or stale token) or a
  413 page (a body over ``FORM_READ_MAX_BYTES``, not read any further).

The caps: a note is at most 2,000 characters; a 4-byte UTF-8 character URL-encodes to 12
bytes, so a note in any script is at most 24,000 bytes, and a label's other fields (rules,
severities, the token) add a few hundred. ``FORM_MAX_BYTES`` (64 KiB) holds any form the
console's pages send with room to spare.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.responses import Response

if TYPE_CHECKING:
    from collections.abc import Callable

    from fastapi import Request

    from qgs_worker.api.console.sessions import SessionCodec

__all__ = ["FORM_MAX_BYTES", "FORM_READ_MAX_BYTES", "TooLarge", "read_form"]

FORM_MAX_BYTES = 65_536
"""The largest form the console takes (2,000 characters of any script need at most 24,000)."""
FORM_READ_MAX_BYTES = 1_048_576
"""A body larger than this is not read to its end (413 with no form shown again)."""


@dataclass(frozen=True)
class TooLarge:
    """A form over ``FORM_MAX_BYTES``: what was sent, and which field made it too large.

    ``field`` is the largest field's name; ``chars`` its length in characters; ``message``
    the words for the page (``'note' is too long ...``).
    """

    fields: dict[str, str]
    field: str
    chars: int
    size: int

    @property
    def message(self) -> str:
        """What the page says (the form is shown again with the text kept)."""
        return (
            f"the form is too large ({self.size:,} bytes, at most {FORM_MAX_BYTES:,}): "
            f"'{self.field}' has {self.chars:,} characters; shorten it (a note is at most "
            "2,000 characters) and send it again"
        )


async def _body(request: Request) -> bytes | None:
    """The request's body, or None once it passes ``FORM_READ_MAX_BYTES``."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > FORM_READ_MAX_BYTES:
        return None
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > FORM_READ_MAX_BYTES:
            return None
        parts.append(chunk)
    return b"".join(parts)


async def read_form(
    request: Request,
    codec: SessionCodec,
    nonce: str | None,
    refused: Callable[[str, int], Response],
) -> dict[str, str] | TooLarge | Response:
    """The POST's fields once its origin and CSRF token are checked (see the module docstring).

    Args:
        request: The POST.
        codec: The session signer (checks the token).
        nonce: The session's (or the sign-in form's) nonce the token must belong to.
        refused: Makes the refusal page from its message and status (403 or 413).
    """
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        return refused("this form was sent from another site.", 403)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return refused("send the page's form (URL-encoded).", 403)
    body = await _body(request)
    if body is None:
        return refused(
            f"the form is larger than {FORM_READ_MAX_BYTES:,} bytes: it was not read. Shorten "
            "the note (at most 2,000 characters) and send it again.",
            413,
        )
    fields = {
        k: v[0]
        for k, v in urllib.parse.parse_qs(
            body.decode("utf-8", "replace"), keep_blank_values=True
        ).items()
    }
    if not codec.csrf_ok(nonce, fields.get("csrf")):
        return refused(
            "the form's CSRF token is missing or stale: reload the page and send it again.", 403
        )
    if len(body) > FORM_MAX_BYTES:
        name = max(fields, key=lambda k: len(fields[k].encode("utf-8")))
        return TooLarge(fields, name, len(fields[name]), len(body))
    return fields
