"""Free text a person or agent types (names, notes): what every face refuses before it is stored.

PostgreSQL refuses a NUL character in text (a 500 ``DataError`` when it reaches it), and a C0
control character in a note or name is never meant; a value made only of zero-width or other
format characters (Unicode category ``Cf``) and whitespace looks blank and names nobody. The API's
request models (``api.schemas``, ``api.spot_check_schemas``), the console's filters and the CLI's
``--by`` / ``--note`` options use these checks alike.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["bad_control", "check_free_text", "is_blank"]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""C0 control characters (and DEL), except tab (``\\t``) and the newlines (``\\n``, ``\\r``)."""


def bad_control(text: str) -> str | None:
    """The first control character ``text`` may not hold, as ``U+0000``; None when it has none.

    Tab, newline and carriage return are allowed (a note may have lines).
    """
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def is_blank(text: str | None) -> bool:
    r"""Whether ``text`` is blank: empty once whitespace and format (``Cf``) characters are removed.

    ``"\u200b"`` (zero-width space) and ``" \u2060 "`` are blank; ``"a\u200b"`` is not.
    """
    if text is None:
        return True
    return all(c.isspace() or unicodedata.category(c) == "Cf" for c in text)


def check_free_text(text: str, field: str) -> str:
    """``text`` unchanged when it holds no control character it may not (``bad_control``).

    Args:
        text: The value given.
        field: Its name as the caller knows it (``note``, ``--by``): the error names it.

    Raises:
        ValueError: a NUL or other control character other than tab and newline; the message
            names ``field`` and the character (pydantic turns it into a 422 naming the field).
    """
    bad = bad_control(text)
    if bad is not None:
        raise ValueError(
            f"'{field}' holds the control character {bad}: send text without control "
            "characters (tab and newline are allowed)"
        )
    return text
