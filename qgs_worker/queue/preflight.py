"""Checks a process makes before it says it is ready: the store and broker answer, files load.

``qgs worker`` and ``qgs audit`` refuse to start with a policy or tools file that cannot be
read (``check_policy_files``: a worker would fail every job on it, and an audit would wait for
decisions that never come). ``qgs worker`` refuses to start without store or broker (exit 2, the
message naming the setting), and
``qgs submit --request`` checks the broker before it stores a new task, so a refused or hung
broker never leaves a task with no rounds.
"""

from __future__ import annotations

from qgs_worker.config.settings import Settings
from qgs_worker.errors import BrokerUnavailableError, StoreError
from qgs_worker.store import Repository

BROKER_CHECK_TIMEOUT_S = 5.0
"""How long the broker may take to answer a PING, in seconds, when the caller gives no timeout
(the commands pass ``QGS_BROKER_TIMEOUT_S``, whose default is the same)."""


def check_policy_files(settings: Settings) -> None:
    """Load ``QGS_POLICY_FILE`` and ``QGS_TOOLS_FILE`` (when set) as the workers will.

    Raises:
        ConfigurationError: a file is missing, unreadable or invalid; the message names the
            setting, the file and the fix.
    """
    from qgs_worker.config.policy_file import load_pdp
    from qgs_worker.config.toolgate_io import load_tools

    load_pdp(settings)
    load_tools(settings)


def check_store(settings: Settings) -> Repository:
    """Open the store and run ``SELECT 1``.

    Returns:
        The open repository.

    Raises:
        StoreError: the store cannot be opened or reached; the message names QGS_DATABASE_URL.
    """
    try:
        repo = Repository(settings.resolved_database_url)
        repo.ping()
    except StoreError as exc:
        raise StoreError(f"{exc} (set QGS_DATABASE_URL to a store this process can reach)") from exc
    return repo


def check_broker(broker_url: str, timeout_s: float = BROKER_CHECK_TIMEOUT_S) -> None:
    """PING the broker's Redis within ``timeout_s`` seconds.

    Raises:
        BrokerUnavailableError: no answer (refused, or hung past the timeout); the message
            names QGS_BROKER_URL.
    """
    import redis

    from qgs_worker.limits.ratelimit import redis_for_broker

    client = redis_for_broker(broker_url, timeout_s=timeout_s)
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        shown = broker_url.split("@", 1)[-1] if "@" in broker_url else broker_url
        raise BrokerUnavailableError(
            f"the broker QGS_BROKER_URL={shown} did not answer within {timeout_s:g} s ({exc}); "
            "check that Redis runs and the URL is right"
        ) from exc
    finally:
        client.close()
