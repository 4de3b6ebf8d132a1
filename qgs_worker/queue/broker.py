"""The broker's side of the Celery app: queues, routes, limits, events, and Redis's transport.

Three queues: ``qgs.default`` (decide after an audit, tool-call check logs, webhooks),
``qgs.critic`` (intake and judge calls, I/O-bound, many threads: a round's intake runs where its
review will, and reviews the round in the same job when a review is due) and
``qgs.discriminator`` (audits, one at a time). Jobs are acknowledged late and their effects are
idempotent, so a job redelivered after a lost worker changes nothing twice.
No result backend: decisions live in the results store.

Every broker connection is bounded (``QGS_BROKER_TIMEOUT_S``): a Redis that accepts connections
but never answers makes a publish fail with ``kombu.exceptions.OperationalError`` (the client's
``BrokerUnavailableError``) instead of hanging. And a worker survives a Redis restart while it
holds jobs (:func:`guard_redis_channel_close`).

``new_app`` builds an app with no job registered; the jobs import this module, and
``celery_app.create_celery_app`` (a worker's app) imports the jobs, so this sits below both.
"""

from __future__ import annotations

import functools
import gc
import logging
import threading
import time
from typing import Any

from celery import Celery
from celery.signals import before_task_publish, worker_init
from kombu.entity import Queue

from qgs_worker import telemetry  # the standard library only, until tracing is on
from qgs_worker.config.settings import Settings
from qgs_worker.errors import ConfigurationError

log = logging.getLogger(__name__)

DEFAULT_QUEUE = "qgs.default"
CRITIC_QUEUE = "qgs.critic"
DISCRIMINATOR_QUEUE = "qgs.discriminator"
QUEUES = (DEFAULT_QUEUE, CRITIC_QUEUE, DISCRIMINATOR_QUEUE)

ROUTES = {
    "qgs.review.intake": {"queue": CRITIC_QUEUE},  # a round's intake runs where its review will
    "qgs.review.critic": {"queue": CRITIC_QUEUE},
    "qgs.audit.chunk": {"queue": CRITIC_QUEUE},  # qgs audit's batch path: reviews, in bulk
    "qgs.review.discriminate": {"queue": DISCRIMINATOR_QUEUE},
    "qgs.review.decide": {"queue": DEFAULT_QUEUE},
    "qgs.toolgate.log": {"queue": DEFAULT_QUEUE},
    "qgs.webhook.deliver": {"queue": DEFAULT_QUEUE},
}


def celery_config(settings: Settings) -> dict[str, Any]:
    """The Celery configuration QGS runs with (reliability, limits, events), as a dict."""
    w = settings.worker
    # One publish tries twice (a dropped connection is re-opened once); each try waits at most
    # half the budget for Redis to answer, so a hung Redis fails a submit within about
    # QGS_BROKER_TIMEOUT_S (plus the 0.1 s pause between the tries).
    socket_timeout_s = settings.broker_timeout_s / 2
    config: dict[str, Any] = {
        "broker_url": settings.broker_url,
        "broker_connection_retry_on_startup": True,
        "broker_connection_timeout": settings.broker_timeout_s,
        "task_publish_retry": True,
        "task_publish_retry_policy": {
            "max_retries": 1,
            "interval_start": 0.1,
            "interval_step": 0.1,
            "interval_max": 0.1,
        },
        "broker_transport_options": {
            "socket_timeout": socket_timeout_s,
            "socket_connect_timeout": socket_timeout_s,
            "visibility_timeout": w.visibility_timeout_s,
            # A job a lost worker left unacknowledged comes back after the visibility timeout,
            # found by a sweep every restore_interval_s (kombu's default sweep is ~100 s).
            "unacked_restore_interval": w.restore_interval_s,
            "unacked_restore_throttle": 1,
        },
        "task_serializer": "json",
        "accept_content": ["json"],
        "result_serializer": "json",
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_soft_time_limit": w.soft_time_limit_s,
        "task_time_limit": w.time_limit_s,
        "task_default_queue": DEFAULT_QUEUE,
        "task_queues": tuple(Queue(name) for name in QUEUES),
        "task_routes": ROUTES,
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        "worker_hijack_root_logger": False,
        "worker_cancel_long_running_tasks_on_connection_loss": False,
    }
    if w.low_memory:
        # Checked only after a job finishes, and only by the prefork pool (NOTES.md).
        config["worker_max_memory_per_child"] = w.max_memory_per_child_kb
        config["worker_max_tasks_per_child"] = 200
    return config


def new_app(settings: Settings | None = None) -> Celery:
    """A QGS Celery app for ``settings`` (the environment's when None), with no job registered.

    What sends jobs by name uses it as it is (the client, the tool-check log); a worker's app
    also registers the jobs (``celery_app.create_celery_app``).

    Raises:
        ConfigurationError: the time limits do not fit (see ``Settings.check``), or no broker
            URL is set (the CLI starts the embedded broker and sets it first).
    """
    settings = settings or Settings()
    settings.check()
    if not settings.broker_url:
        raise ConfigurationError(
            "no broker: set QGS_BROKER_URL (e.g. redis://127.0.0.1:6379/0), or use a `qgs` "
            "command, which starts the embedded broker"
        )
    app = Celery("qgs")
    app.conf.update(celery_config(settings))
    app.qgs_settings = settings
    return app


def _freeze_heap(**_: Any) -> None:
    """Move the parent's objects out of the garbage collector's reach before prefork forks.

    Without it every child's first collection touches (and so copies) the shared pages: about
    50 MB private memory per child; with it, about 5 MB (measured by ``make bench``).
    """
    gc.collect()
    gc.freeze()


worker_init.connect(_freeze_heap, weak=False)

SENT_AT_HEADER = telemetry.SENT_AT_HEADER
"""The header each published job carries: when it was published (``qgs_worker.telemetry``)."""


def _stamp_sent_at(
    sender: str | None = None, headers: dict[str, Any] | None = None, **_: Any
) -> None:
    # QGS's own jobs only: another app's Celery tasks in the same process are left as they are.
    if headers is not None and str(sender or "").startswith("qgs."):
        headers[SENT_AT_HEADER] = round(time.time(), 3)
        telemetry.inject_trace_context(headers)


before_task_publish.connect(_stamp_sent_at, weak=False)


_held_tags: set[str] = set()
"""Delivery tags of jobs a lost connection left in Redis's ``unacked`` hash, to give back."""
_held_lock = threading.Lock()


def guard_redis_channel_close() -> None:
    """Let kombu's Redis channel close cleanly after a lost connection (idempotent).

    The defect (reproduced with kombu 5.7 by ``tests/integration/test_broker_restart.py``): a
    worker holding unacknowledged jobs (retries waiting for their countdown, or acks-late jobs
    running) exits with ``Unrecoverable error: AttributeError("'NoneType' object has no
    attribute 'hostname'")`` when Redis restarts. On the lost connection Celery first calls
    ``Connection.collect()``: closing the channel reads the pending ``BRPOP`` reply from the
    dead socket, which raises, so the close stops before it marks the channel closed; then
    ``collect`` detaches the transport from its connection (``transport.client = None``).
    Celery's second close, ``connection.close()``, now gets through, and giving back the held
    jobs needs a new Redis pool, whose parameters are read from ``transport.client``: None. An
    ``AttributeError`` is not a connection error, so nothing catches it and the worker exits
    (kombu issues 582 and 970 show the same failure on other close paths). Workers holding no
    job return early from that restore, which is why only the critic worker died.

    The guard: a close interrupted by a connection error is finished at once (the ``BRPOP``
    read is over), while the transport still has its connection; a close that still finds the
    transport detached logs a warning instead of killing the worker. Either way Celery
    reconnects. The jobs the channel held and could not give back (Redis was down) stay in
    Redis's ``unacked`` hash (with AOF on, across the restart); their tags are kept, and the
    first channel this process opens on the Redis that is back gives them back to their queues
    (``restore_by_tag``: a job another worker already restored is not restored twice). Celery
    drops its own copies of the jobs waiting for a countdown on the lost connection. A job that
    was running goes back too: its acknowledgement (or the publish of its retry, rejected by
    Celery while Redis is down) cannot reach Redis, so only this keeps it from waiting for the
    visibility timeout; it may run a second time, which the idempotent jobs make harmless
    (a critic job whose review is already stored calls no judge).
    """
    from kombu.transport import redis as kombu_redis

    channel_cls: Any = kombu_redis.Channel
    if getattr(channel_cls.close, "_qgs_guarded", False):
        return
    original_close = channel_cls.close
    original_init = channel_cls.__init__

    def keep_held(channel: Any) -> None:
        qos = channel.__dict__.get("_qos")
        held = list(getattr(qos, "_delivered", None) or ())
        if held:
            with _held_lock:
                _held_tags.update(held)
            qos._delivered.clear()

    @functools.wraps(original_close)
    def close(self: Any) -> None:
        try:
            try:
                original_close(self)
            except self.connection_errors:
                if self.closed:
                    keep_held(self)
                    raise
                original_close(self)  # the pending BRPOP read is over: finish closing
        except self.connection_errors:
            keep_held(self)  # Redis is still down: give them back once it is up
            raise
        except AttributeError:
            if getattr(self.connection, "client", None) is not None:
                raise
            keep_held(self)
            log.warning(
                "broker connection lost while jobs were held: they are given back to their "
                "queues once Redis answers again"
            )

    @functools.wraps(original_init)
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)  # pings Redis: it answers
        if not _held_tags:
            return
        with _held_lock:
            tags = list(_held_tags)
            _held_tags.clear()
        left = []
        for tag in tags:
            try:
                self.qos.restore_by_tag(tag)
            except self.connection_errors:
                left.append(tag)
        with _held_lock:
            _held_tags.update(left)
        log.warning(
            "gave back %d job(s) held when the broker connection was lost", len(tags) - len(left)
        )

    close._qgs_guarded = True  # type: ignore[attr-defined]
    channel_cls.close = close
    channel_cls.__init__ = init


guard_redis_channel_close()


def reuse_redis_clients() -> None:
    """Make kombu's Redis channel reuse one ``redis.Redis`` client per connection pool.

    kombu 5.x builds a new ``redis.Redis`` for every publish, ack and event it sends outside the
    poller (``Channel.conn_or_acquire`` -> ``_create_client``), and redis-py's constructor copies
    its ~200 response callbacks into a new case-insensitive dict each time: measured with py-spy
    on a QGS worker (threads -c 8, reviewed rounds), 10-17 % of the worker's GIL time went to
    building those clients (three Celery events, the ack and the next job's publish a round).
    A ``redis.Redis`` over a shared ``ConnectionPool`` is thread-safe and holds no connection
    of its own (redis-py's documented usage), so the client is built once per pool: the
    channel's pool is replaced after a lost connection, and a new pool gets a new client. The
    asynchronous client (the poller's) is kombu's own and untouched.
    """
    from kombu.transport import redis as kombu_redis

    channel_cls: Any = kombu_redis.Channel
    if getattr(channel_cls._create_client, "_qgs_reused", False):
        return
    original = channel_cls._create_client

    @functools.wraps(original)
    def create_client(self: Any, asynchronous: bool = False) -> Any:
        if asynchronous:
            return original(self, asynchronous=True)
        pool = self.pool
        cached = self.__dict__.get("_qgs_sync_client")
        if cached is not None and cached[0] is pool:
            return cached[1]
        client = original(self)
        self.__dict__["_qgs_sync_client"] = (pool, client)
        return client

    create_client._qgs_reused = True  # type: ignore[attr-defined]
    channel_cls._create_client = create_client


reuse_redis_clients()
