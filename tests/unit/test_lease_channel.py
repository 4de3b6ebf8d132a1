"""Leases renewed ahead without a thread (issue 15): requests written now, answers read later.

A scripted connection stands in for redis-py's: it records what is written and hands out the
answers a test has made "arrive". What is asserted is behaviour: what is written when, who
reads which answer, and that nothing blocks unless an answer is needed now.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest
import redis

from qgs_worker.limits.lease_channel import LeaseChannel, pack
from qgs_worker.limits.leases import BATCH_S, Ahead, Lease


class ScriptedConnection:
    """A redis-py ``Connection`` look-alike: ``arrive`` makes an answer readable."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.arrived: deque[Any] = deque()
        self.blocking_reads = 0  # can_read with a timeout: the caller waits
        self.connected = False
        self.encoder = type("Encoder", (), {"encoding": "utf-8"})()

    def connect(self) -> None:
        self.connected = True

    def disconnect(self) -> None:
        self.connected = False

    def send_packed_command(self, chunks: list[bytes], check_health: bool = True) -> None:
        assert self.connected and not check_health
        self.writes.append(b"".join(chunks))

    def can_read(self, timeout: float = 0) -> bool:
        if timeout:
            self.blocking_reads += 1
        return bool(self.arrived)

    def read_response(self) -> Any:
        answer = self.arrived.popleft()  # a read with nothing arrived would block: a bug here
        if isinstance(answer, Exception):
            raise answer
        return answer

    def arrive(self, *answers: Any) -> None:
        self.arrived.extend(answers)


@pytest.fixture
def conn() -> ScriptedConnection:
    return ScriptedConnection()


def opened(conn: ScriptedConnection, scripts: dict[str, str] | None = None) -> LeaseChannel:
    channel = LeaseChannel(lambda: conn, scripts or {"abc": "return 1"})
    channel.open()
    return channel


class TestPack:
    """Commands are written in the Redis protocol, as redis-py writes them."""

    def test_strings_and_integers(self) -> None:
        expected = b"*4\r\n$7\r\nEVALSHA\r\n$3\r\nabc\r\n$1\r\n2\r\n$4\r\nk\xc3\xa9y\r\n"
        assert expected == pack(("EVALSHA", "abc", 2, "kéy"))

    def test_as_redis_py_packs_them(self) -> None:
        args = ("EVALSHA", "a" * 40, 2, "qgs:ratelimit:k", "", 60000, -1, "m:3")
        packed = redis.connection.Connection().pack_command(*args)
        assert b"".join(packed) == pack(args)


class TestChannel:
    """Writes never wait; reads wait only when asked to."""

    def test_commands_sent_together_in_one_write(self, conn: ScriptedConnection) -> None:
        channel = opened(conn)
        channel.send([(("PING",), print), (("PING",), print)])
        assert [pack(("PING",)) * 2] == conn.writes
        assert 2 == channel.pending == channel.sent

    def test_collect_reads_only_what_has_arrived(self, conn: ScriptedConnection) -> None:
        channel = opened(conn)
        answers: list[Any] = []
        channel.send([((f"C{i}",), answers.append) for i in range(3)])
        assert channel.collect(4)  # nothing arrived: nothing read, nothing waited for
        conn.arrive(1, 2)
        assert not channel.collect(1)  # stopped at its limit, more has arrived
        assert channel.collect(4)
        assert ([1, 2], 1, 0) == (answers, channel.pending, conn.blocking_reads)

    def test_wait_blocks_until_done(self, conn: ScriptedConnection) -> None:
        channel = opened(conn)
        answers: list[Any] = []
        channel.send([(("A",), answers.append), (("B",), answers.append)])
        conn.arrive("a", "b")
        assert channel.wait(lambda: len(answers) == 1, timeout_s=1.0)
        assert (["a"], 1) == (answers, channel.pending)

    def test_a_refused_command_leaves_the_link_open(self, conn: ScriptedConnection) -> None:
        channel = opened(conn, {"sha1": "return 1", "sha2": "return 2"})
        answers: list[Any] = []
        channel.send([(("EVALSHA", "sha1", 0), answers.append)])
        conn.arrive(redis.exceptions.NoScriptError("NOSCRIPT No matching script"))
        channel.collect(4)
        assert isinstance(answers[0], redis.exceptions.NoScriptError) and channel.is_open
        # both scripts are loaded again, in one write, not waited for
        loads = pack(("SCRIPT", "LOAD", "return 1")) + pack(("SCRIPT", "LOAD", "return 2"))
        assert loads == conn.writes[-1] and 2 == channel.pending

    def test_a_broken_link_fails_every_pending_answer(self, conn: ScriptedConnection) -> None:
        channel = opened(conn)
        answers: list[Any] = []
        channel.send([(("A",), answers.append), (("B",), answers.append)])
        conn.arrive(redis.exceptions.ConnectionError("reset by peer"))
        channel.collect(4)
        assert [type(a) for a in answers] == [redis.exceptions.ConnectionError] * 2
        assert not channel.is_open and not conn.connected and 0 == channel.pending

    def test_never_connects_when_sending(self, conn: ScriptedConnection) -> None:
        """Only ``open`` connects (where the caller already waits for Redis)."""
        channel = LeaseChannel(lambda: conn, {})
        answers: list[Any] = []
        channel.send([(("A",), answers.append)])
        assert [] == conn.writes and not conn.connected
        assert isinstance(answers[0], ConnectionError)


def lease_of(length_s: float = 1.0, after: float = 1001.0) -> Lease:
    """A lease renewed ahead of one that ends at ``after``."""
    return Lease("m", 0, 0, after + length_s, 100, 60.0, length_s)


class TestAhead:
    """Renewals wait in an outbox, go together, and are installed when a later hit reads them."""

    def test_requests_go_together_after_a_while(self, conn: ScriptedConnection) -> None:
        ahead = Ahead(opened(conn))
        ahead.renew("a", ("R1",), lease_of(), now=1000.0)
        ahead.renew("b", ("R2",), lease_of(), now=1000.1)
        ahead.collect(1000.2)
        assert [] == conn.writes  # queued
        ahead.collect(1000.0 + BATCH_S)
        assert [pack(("R1",)) + pack(("R2",))] == conn.writes  # one write for both

    def test_a_short_lease_is_asked_for_sooner(self, conn: ScriptedConnection) -> None:
        ahead = Ahead(opened(conn))
        ahead.renew("a", ("R1",), lease_of(length_s=0.1), now=1000.0)
        ahead.collect(1000.03)  # a quarter of its lease
        assert 1 == len(conn.writes)

    def test_a_renewal_due_late_is_asked_for_sooner(self, conn: ScriptedConnection) -> None:
        """Half the time the lease before has left (the key was not hit in between)."""
        ahead = Ahead(opened(conn))
        ahead.renew("a", ("R1",), lease_of(after=1000.1), now=1000.0)
        ahead.collect(1000.05)
        assert 1 == len(conn.writes)

    def test_an_answer_is_installed_by_a_later_hit(self, conn: ScriptedConnection) -> None:
        ahead = Ahead(opened(conn))
        lease = lease_of()
        ahead.renew("a", ("R1",), lease, now=1000.0)
        ahead.collect(1000.3)  # sent
        conn.arrive([1, 40, 0, 10])
        ahead.collect(1000.301)
        assert {"a": lease} == ahead.ready and not ahead.asked
        assert (10, 40, 0, 0) == (lease.granted, lease.used, ahead.waits, conn.blocking_reads)

    def test_a_refused_renewal_is_forgotten(self, conn: ScriptedConnection) -> None:
        ahead = Ahead(opened(conn))
        ahead.renew("a", ("R1",), lease_of(), now=1000.0)
        ahead.collect(1000.3)
        conn.arrive([0, 100, 5000, 0])
        ahead.collect(1000.301)
        assert {} == ahead.ready and set() == ahead.asked

    def test_a_lease_needed_now_is_sent_and_waited_for(self, conn: ScriptedConnection) -> None:
        ahead = Ahead(opened(conn))
        ahead.renew("a", ("R1",), lease_of(), now=1000.0)
        conn.arrive([1, 40, 0, 10])
        ahead.wait_for("a", timeout_s=1.0)
        assert 1 == len(conn.writes) and "a" in ahead.ready and 1 == ahead.waits

    def test_without_a_channel_nothing_is_asked(self) -> None:
        ahead = Ahead()
        ahead.renew("a", ("R1",), lease_of(), now=1000.0)
        assert set() == ahead.asked and ahead.drain(1.0)
