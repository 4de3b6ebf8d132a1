"""What `make test` needs beyond Python, checked before it runs: each missing piece named with
the command that installs or starts it.

The tests that need a missing piece skip on a developer's machine and fail in CI (``CI=true``),
so this check only warns; it exits 0 either way. Run: ``python -m tests.needs``.
"""

from __future__ import annotations

import shutil
import socket
import sys

NEEDS = (
    ("chromium", ("chromium", "chromium-browser"), "apt-get install -y chromium chromium-driver",
     "the HTML report's and the console's browser tests"),
    ("chromedriver", ("chromedriver",), "apt-get install -y chromium-driver",
     "the same browser tests (selenium drives chromium through it)"),
    ("docker-compose", ("docker-compose",), "apt-get install -y --no-install-recommends docker-compose",
     "the test that validates docker-compose.yml offline"),
    ("redis-server", ("redis-server",), "apt-get install -y redis-server",
     "the pipeline bench's quick run (it starts a private server)"),
)  # fmt: skip
SERVICES = (
    ("Redis", 6379, "redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --appendonly no",
     "every integration test"),
    ("PostgreSQL", 5432, "pg_ctlcluster <version> main start (Debian), or QGS_TEST_POSTGRES_URL",
     "the PostgreSQL store tests"),
)  # fmt: skip


def listening(port: int, host: str = "127.0.0.1", timeout_s: float = 0.5) -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return True
    except OSError:
        return False


def missing() -> list[str]:
    """One line per missing program or service: what it is, what needs it, how to get it."""
    lines: list[str] = []
    for name, programs, install, why in NEEDS:
        if not any(shutil.which(p) for p in programs):
            lines.append(f"{name} is not installed ({why}): {install}")
    for name, port, start, why in SERVICES:
        if not listening(port):
            lines.append(f"{name} is not listening on 127.0.0.1:{port} ({why}): {start}")
    return lines


def main() -> int:
    lines = missing()
    for line in lines:
        print(f"make test: {line}", file=sys.stderr)
    if lines:
        print("make test: the tests that need these skip here (and fail in CI)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
