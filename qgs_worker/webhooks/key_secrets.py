"""The master secret API keys' webhook secrets are derived from: a setting, or a 0600 file.

A key's webhook secret is ``HMAC-SHA256(master, key id)`` (``store.keys.derive_webhook_secret``):
``qgs keys create`` shows it once, the webhook job derives it again to sign, and the store keeps
neither it nor the master, only a check value that tells a wrong master from the right one.

The master is ``QGS_WEBHOOKS__MASTER_SECRET`` when set; else the file ``webhook-master.key`` in
the data folder (``QGS_DATA_DIR``), made on first use with 256 random bits, mode 0600, by one
process even when several start at once (written aside, then linked into place, so the file
is never seen half written). An existing file that is empty (or blank) is refused, never read
as an empty master: every key's webhook secret would then be HMAC-SHA256 of its key id under
an empty key, which anyone who saw the key id could compute. A file that the group or others
may read is used, with one warning naming it (it signs every key's webhooks). Processes
that make keys and processes that send webhooks must read the same master: on one machine the
data folder does it; across machines or containers, set the setting on each.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
import threading
from pathlib import Path

from qgs_worker.config.settings import Settings

__all__ = ["MASTER_FILE", "MASTER_SETTING", "master_at_hand", "master_secret"]

log = logging.getLogger(__name__)

MASTER_SETTING = "QGS_WEBHOOKS__MASTER_SECRET"
MASTER_FILE = "webhook-master.key"
"""The generated master's file name, in the data folder."""

_cache: dict[Path, bytes] = {}
_lock = threading.Lock()


def master_at_hand(settings: Settings) -> bool:
    """Whether a master exists already (the setting, or the data folder's file)."""
    configured = settings.webhooks.master_secret.get_secret_value().strip()
    return bool(configured) or (settings.data_dir / MASTER_FILE).exists()


def master_secret(settings: Settings) -> bytes:
    """The master secret: the setting's, else the data folder's file (made when missing).

    Args:
        settings: QGS settings (``QGS_WEBHOOKS__MASTER_SECRET``, ``QGS_DATA_DIR``).

    Returns:
        The master's bytes (the file's text, stripped, UTF-8).

    Raises:
        OSError: the data folder cannot be made or written, the file cannot be read, or it
            is empty; the message names the path (set ``QGS_WEBHOOKS__MASTER_SECRET`` instead).
    """
    configured = settings.webhooks.master_secret.get_secret_value().strip()
    if configured:
        return configured.encode()
    path = settings.data_dir / MASTER_FILE
    with _lock:
        found = _cache.get(path)
        if found is None:
            found = _cache[path] = _read_or_make(path)
        return found


def _read_or_make(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        raise OSError(f"cannot read {path} ({exc}): set {MASTER_SETTING} instead") from None
    if text is not None:
        return _checked(path, text)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_hex(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            # Fails when another process linked its own first: theirs is read below.
            with contextlib.suppress(FileExistsError):
                os.link(aside, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(aside)
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise OSError(f"cannot make {path} ({exc}): set {MASTER_SETTING} instead") from None
    return _checked(path, text)


def _checked(path: Path, text: str) -> bytes:
    """The file's master; an empty one refused, a file others may read warned about."""
    if not text:
        raise OSError(
            f"{path} is empty: a webhook master secret cannot be empty (every key's webhook "
            "secret could be computed from its key id); delete the file to have a new one "
            "generated and make new keys (`qgs keys create`; keys made while it was empty "
            f"cannot be trusted: revoke them), or set {MASTER_SETTING}"
        )
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning(
                "%s (the webhook master secret) may be read by others (mode %04o): "
                "`chmod 600 %s`, or set %s instead",
                path,
                mode,
                path,
                MASTER_SETTING,
            )
    return text.encode()
