"""Decisions pushed to waiters: Redis pub/sub from the worker, one subscriber per waiting process.

When a round's decision is stored, the worker publishes ``{"task_id", "round_id",
"submission_id"}`` on ``DECIDED_CHANNEL`` (``DecisionPublisher``, a ``Runtime.decided_listeners``
entry; also after a person's approval, so ``until_approved`` waits wake up). A process that
waits (the HTTP API's long-poll, ``Client.wait``) runs one ``DecisionNotifier``: a thread
subscribed to the channel that wakes the waiters of the submission named.

No lost wake-up: a waiter is registered and the subscription confirmed *before* the store is
read, so a decision stored after that read is always announced to it. Pub/sub delivers at most
once, so a message can still be lost (Redis restarted, the connection dropped): every waiter
also reads the store again every ``recheck_s`` seconds (5 s by default), and every waiter is
woken to read again when the subscription comes back after a drop. Each wake-up that found the
decision is counted by its source in ``DecisionNotifier.wakeups``: ``stored`` (there at the
first read), ``notification``, ``resubscribed``, ``recheck``. ``DecisionNotifier.listen`` follows
every notice (the operator console's live list, ``api.console``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from qgs_worker.queue.background import BackgroundBatches

__all__ = [
    "DECIDED_CHANNEL",
    "RECHECK_S",
    "DecisionNotifier",
    "DecisionPublisher",
    "notice_text",
]

log = logging.getLogger(__name__)

DECIDED_CHANNEL = "qgs:decided"
"""The Redis pub/sub channel a stored decision (or approval) is announced on."""

RECHECK_S = 5.0
"""How often a waiter reads the store again without a notification, in seconds."""

READY_WAIT_S = 1.0
"""How long a waiter waits for the subscription to be confirmed before reading, in seconds."""

T = TypeVar("T")


def notice_text(task_id: str, round_id: int | None, submission_id: str) -> str:
    """The JSON text published on ``DECIDED_CHANNEL`` for one decided (or approved) round."""
    return json.dumps({"task_id": task_id, "round_id": round_id, "submission_id": submission_id})


class DecisionPublisher:
    """Publish each stored decision on ``DECIDED_CHANNEL``: a ``Runtime.decided_listeners`` entry.

    Called as ``publisher(task_id, round_id)`` after the decision is committed; reads the
    round's submission id, publishes, and never raises (a lost notice costs a waiter at most
    ``RECHECK_S``; the decide job must not fail for it).

    With ``in_background`` the call only queues the notice, and a thread of the publisher's
    (one per process, started by the first call) reads the submission ids and publishes what
    queued meanwhile in one round trip: a worker's job does not wait on Redis for a best-effort
    notice (issue 15, P2: ~3.5 ms a round at 16 concurrent reviews). A notice still queued when
    the process ends is lost, which a waiter's recheck covers as it covers any lost notice.

    Args:
        redis_client: A ``redis.Redis`` on the broker (``ratelimit.redis_for_broker``).
        submission_of: ``round_id -> submission_id`` (``repo.round_submission_id``).
        in_background: Publish from the publisher's thread, not the caller's.
    """

    def __init__(
        self,
        redis_client: Any,
        submission_of: Callable[[int], str | None],
        *,
        in_background: bool = False,
    ) -> None:
        self._redis = redis_client
        self._submission_of = submission_of
        self.published = 0
        self._background: BackgroundBatches[tuple[str, int]] | None = (
            BackgroundBatches(self._announce, "qgs-decision-notices") if in_background else None
        )

    def __call__(self, task_id: str, round_id: int) -> None:
        """Announce the decided round ``round_id`` of ``task_id``; log, never raise, a failure."""
        if self._background is None:
            self._announce([(task_id, round_id)])
        else:
            self._background.put((task_id, round_id))

    def flush(self, timeout_s: float) -> bool:
        """Wait until every notice queued so far is published (or failed); True if it was in time."""
        return self._background is None or self._background.flush(timeout_s)

    def _announce(self, decided: Sequence[tuple[str, int]]) -> None:
        """Publish the notices of ``(task_id, round_id)`` decided rounds; log, never raise."""
        try:
            notices = []
            for task_id, round_id in decided:
                submission_id = self._submission_of(round_id)
                if submission_id is not None:  # else no such round here: nobody waits for it
                    notices.append((task_id, round_id, submission_id))
        except Exception as exc:  # the decisions are stored; waiters re-read within RECHECK_S
            log.warning(
                "%d decisions not announced (%s: %s)", len(decided), type(exc).__name__, exc
            )
            return
        if len(notices) == 1:
            try:
                self.publish(*notices[0])
            except Exception as exc:
                log.warning(
                    "decision of round %s not announced (%s: %s)",
                    notices[0][1],
                    type(exc).__name__,
                    exc,
                )
        elif notices:
            self.publish_many(notices)

    def publish(self, task_id: str, round_id: int | None, submission_id: str) -> None:
        """Announce one round (raises what redis-py raises)."""
        self._redis.publish(DECIDED_CHANNEL, notice_text(task_id, round_id, submission_id))
        self.published += 1

    def publish_many(self, notices: Sequence[tuple[str, int | None, str]]) -> None:
        """Announce ``(task_id, round_id, submission_id)`` of many rounds in one round trip.

        A chunk of ``qgs audit``'s batch path stores hundreds of decisions in one transaction;
        a pipeline sends their notices together. Logs, never raises, a failure (as ``__call__``).
        """
        try:
            pipe = self._redis.pipeline(transaction=False)
            for task_id, round_id, submission_id in notices:
                pipe.publish(DECIDED_CHANNEL, notice_text(task_id, round_id, submission_id))
            pipe.execute()
            self.published += len(notices)
        except Exception as exc:  # the decisions are stored; waiters re-read within RECHECK_S
            log.warning(
                "%d decisions not announced (%s: %s)", len(notices), type(exc).__name__, exc
            )


class _Watch:
    """One waiter's wake-up: a callback run in the subscriber thread with the wake source."""

    __slots__ = ("callback", "submission_id")

    def __init__(self, submission_id: str, callback: Callable[[str], None]) -> None:
        self.submission_id = submission_id
        self.callback = callback


class DecisionNotifier:
    """One subscriber thread on ``DECIDED_CHANNEL`` that wakes the waiters of a submission.

    Args:
        redis_factory: Makes a ``redis.Redis`` client (called again after a dropped connection).
        recheck_s: The safety re-read interval of every waiter, in seconds.
        channel: The channel (tests use their own).

    ``wakeups`` counts, by source, the waits that ended with the value found; ``running`` says
    whether the subscription is confirmed now.
    """

    def __init__(
        self,
        redis_factory: Callable[[], Any],
        *,
        recheck_s: float = RECHECK_S,
        channel: str = DECIDED_CHANNEL,
    ) -> None:
        self._factory = redis_factory
        self.recheck_s = recheck_s
        self.channel = channel
        self._lock = threading.Lock()
        self._watches: dict[str, set[_Watch]] = {}
        self._listeners: set[Callable[[str | None], None]] = set()
        self._ready = threading.Event()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._pubsub: Any = None
        self.wakeups: Counter[str] = Counter()
        self.notices = 0

    # -- the subscriber thread -----------------------------------------------------------

    def start(self) -> DecisionNotifier:
        """Start the subscriber thread (once); returns self."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="qgs-decided", daemon=True)
                self._thread.start()
        return self

    @property
    def running(self) -> bool:
        """Whether the subscription is confirmed now (notifications arrive)."""
        return self._ready.is_set()

    def close(self) -> None:
        """Stop the subscriber thread and close its connection."""
        self._closed.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=5.0)

    def _run(self) -> None:
        backoff_s = 0.1
        while not self._closed.is_set():
            client: Any = None
            try:
                client = self._factory()
                pubsub = client.pubsub()
                pubsub.subscribe(self.channel)
                while not self._closed.is_set():
                    message = pubsub.get_message(timeout=0.2)  # close() waits at most this long
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        resumed = self._ever_ready
                        self._ever_ready = True
                        self._ready.set()
                        backoff_s = 0.1
                        if resumed:  # notices may have been lost while it was down
                            self._wake_all("resubscribed")
                    elif message["type"] == "message":
                        self._dispatch(message["data"])
                pubsub.close()
            except Exception as exc:
                self._ready.clear()
                if not self._closed.is_set():
                    log.warning(
                        "decision notifications paused (%s: %s); waiters re-read every %g s",
                        type(exc).__name__, exc, self.recheck_s,
                    )  # fmt: skip
                    self._closed.wait(backoff_s)
                    backoff_s = min(backoff_s * 2, 5.0)
            finally:
                if client is not None:
                    try:
                        client.close()
                    except Exception:  # closing a dead connection: nothing to keep
                        log.debug("closing the subscriber's client failed", exc_info=True)
        self._ready.clear()

    _ever_ready = False

    def _dispatch(self, data: bytes | str) -> None:
        try:
            notice = json.loads(data)
            submission_id = str(notice["submission_id"])
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed notice on %s: %r", self.channel, data[:200])
            return
        self.notices += 1
        with self._lock:
            watches = list(self._watches.get(submission_id, ()))
            listeners = list(self._listeners)
        for watch in watches:
            watch.callback("notification")
        if listeners:
            task_id = notice.get("task_id")
            for listener in listeners:
                listener(str(task_id) if task_id is not None else None)

    def _wake_all(self, source: str) -> None:
        with self._lock:
            watches = [w for group in self._watches.values() for w in group]
            listeners = list(self._listeners)
        for watch in watches:
            watch.callback(source)
        for listener in listeners:
            listener(None)  # notices may have been lost: anything may have changed

    def listen(self, callback: Callable[[str | None], None]) -> Callable[[], None]:
        """Call ``callback(task_id)`` (in the subscriber thread) on every notice, of any task.

        What the operator console's live list follows. ``task_id`` is None after the
        subscription came back from a drop (notices may have been lost). The callback must
        return at once (hand the id over to its own loop); with no listener, a notice costs
        nothing more than it did.

        Returns:
            The function that removes the listener.
        """
        with self._lock:
            self._listeners.add(callback)

        def unlisten() -> None:
            with self._lock:
                self._listeners.discard(callback)

        return unlisten

    # -- waiters -------------------------------------------------------------------------

    def watch(self, submission_id: str, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(source)`` (in the subscriber thread) on each notice for the submission.

        Returns:
            The function that removes the watch.
        """
        watch = _Watch(submission_id, callback)
        with self._lock:
            self._watches.setdefault(submission_id, set()).add(watch)

        def unwatch() -> None:
            with self._lock:
                group = self._watches.get(submission_id)
                if group is not None:
                    group.discard(watch)
                    if not group:
                        del self._watches[submission_id]

        return unwatch

    @property
    def waiting(self) -> int:
        """How many waiters are registered now (tests wait for a long-poll to be in place)."""
        with self._lock:
            return sum(len(group) for group in self._watches.values())

    def wait(
        self,
        submission_id: str,
        read: Callable[[], T | None],
        timeout_s: float,
        *,
        recheck_s: float | None = None,
    ) -> tuple[T | None, str]:
        """Block until ``read()`` returns a value, woken by notices; at most ``timeout_s`` seconds.

        Args:
            submission_id: Whose notices wake this wait.
            read: Reads the store; None while there is nothing to return yet.
            timeout_s: The longest wait, in seconds (0: read once).
            recheck_s: This wait's safety re-read interval (default ``self.recheck_s``).

        Returns:
            ``(value, source)``: the value and what woke the read that found it (``stored``,
            ``notification``, ``resubscribed``, ``recheck``), or ``(None, "timeout")``.
        """
        woken = threading.Event()
        sources: list[str] = []

        def wake(source: str) -> None:
            sources.append(source)
            woken.set()

        unwatch = self.watch(submission_id, wake)
        try:
            deadline = time.monotonic() + timeout_s
            if self._thread is not None:  # a started subscriber: confirmed before the first read
                self._ready.wait(min(READY_WAIT_S, timeout_s))
            source = "stored"
            every_s = self.recheck_s if recheck_s is None else recheck_s
            while True:
                value = read()
                if value is not None:
                    self.wakeups[source] += 1
                    return value, source
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None, "timeout"
                fired = woken.wait(min(every_s, remaining))
                woken.clear()
                source = sources.pop() if fired and sources else "recheck"
                sources.clear()
        finally:
            unwatch()

    async def wait_async(
        self,
        submission_id: str,
        read: Callable[[], Awaitable[T | None]],
        timeout_s: float,
    ) -> tuple[T | None, str]:
        """``wait`` for an event loop: ``read`` is awaited, the loop is never blocked."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()
        sources: list[str] = []

        def wake(source: str) -> None:  # runs in the subscriber thread
            def on_loop() -> None:
                sources.append(source)
                woken.set()

            loop.call_soon_threadsafe(on_loop)

        unwatch = self.watch(submission_id, wake)
        try:
            deadline = time.monotonic() + timeout_s
            if self._thread is not None and not self._ready.is_set() and timeout_s > 0:
                await asyncio.to_thread(self._ready.wait, min(READY_WAIT_S, timeout_s))
            source = "stored"
            while True:
                value = await read()
                if value is not None:
                    self.wakeups[source] += 1
                    return value, source
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None, "timeout"
                try:
                    await asyncio.wait_for(woken.wait(), min(self.recheck_s, remaining))
                    source = sources[-1] if sources else "recheck"
                except TimeoutError:
                    source = "recheck"
                woken.clear()
                sources.clear()
        finally:
            unwatch()
