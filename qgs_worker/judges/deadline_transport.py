"""An HTTP transport whose every connect, read and write ends by the deadline in force.

httpx's timeouts (and so the openai client's ``timeout=``) bound each phase: a connect, each
read, each write. A server that sends a byte every half second keeps a call with a 2 s timeout
open for as long as it likes (measured: 20.1 s), past the review lease the call holds and the
broker's visibility timeout, and Redis hands the job to a second worker while the first still
waits (issue 31, item 1).

Here each socket operation gets ``min(its own timeout, time left)`` (``core.deadline.left_s``);
once the deadline has passed, the next operation raises httpcore's timeout at once. The
connection is then closed by httpcore (a request cut off mid-way is never reused), so the
server sees the call end at the deadline, not whenever it stops trickling. The openai client
maps the timeout to ``APITimeoutError`` (``judges.endpoint``: ``JudgeUnavailableError``).

:func:`deadline_http_client` is the ``httpx2.Client`` a :class:`~qgs_worker.judges.endpoint.
ChatEndpoint` uses when it is given none: the openai client's defaults (connection limits,
redirects followed, the environment's proxies) on this transport.
"""

from __future__ import annotations

import functools
import typing
from typing import Any

import httpcore2
import httpx2

from qgs_worker.core.deadline import left_s

__all__ = ["DeadlineBackend", "DeadlineTransport", "deadline_http_client", "environment_proxies"]

_MAX_CONNECTIONS = 1000
_MAX_KEEPALIVE = 100
"""The openai client's own connection limits (``openai.DefaultHttpxClient``)."""


def _bounded(timeout: float | None, late: type[Exception]) -> float | None:
    """``timeout`` capped by the time left; raises ``late`` when the deadline has passed."""
    left = left_s(timeout)
    if left is not None and left <= 0:
        raise late("the call's deadline passed")
    return left


class DeadlineStream(httpcore2.NetworkStream):
    """A network stream whose reads and writes end by the deadline in force."""

    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        """Read up to ``max_bytes``, waiting at most ``timeout`` and never past the deadline."""
        return self._inner.read(max_bytes, _bounded(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        """Write ``buffer``, waiting at most ``timeout`` and never past the deadline."""
        self._inner.write(buffer, _bounded(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        """Close the connection."""
        self._inner.close()

    def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore2.NetworkStream:
        """The TLS handshake, bounded like a connect."""
        bounded = _bounded(timeout, httpcore2.ConnectTimeout)
        return DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, bounded))

    def get_extra_info(self, info: str) -> Any:
        """What the underlying stream says (``"socket"``, ``"ssl_object"``, ...)."""
        return self._inner.get_extra_info(info)


class DeadlineBackend(httpcore2.NetworkBackend):
    """httpcore's blocking socket backend, every operation bounded by the deadline in force."""

    def __init__(self, inner: httpcore2.NetworkBackend | None = None) -> None:
        self._inner = inner or httpcore2.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        """Connect, waiting at most ``timeout`` and never past the deadline."""
        bounded = _bounded(timeout, httpcore2.ConnectTimeout)
        stream = self._inner.connect_tcp(host, port, bounded, local_address, socket_options)
        return DeadlineStream(stream)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: typing.Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        """Connect to a unix socket, bounded like a TCP connect."""
        bounded = _bounded(timeout, httpcore2.ConnectTimeout)
        return DeadlineStream(self._inner.connect_unix_socket(path, bounded, socket_options))

    def sleep(self, seconds: float) -> None:
        """Sleep (httpcore's connect retries), never past the deadline."""
        left = left_s(seconds)
        self._inner.sleep(max(0.0, seconds if left is None else left))


@functools.cache
def _ssl_context() -> Any:
    """One verifying TLS context for every transport (building one reads the CA bundle: ~10 ms)."""
    return httpx2.create_ssl_context()


class DeadlineTransport(httpx2.HTTPTransport):
    """``httpx2.HTTPTransport`` over :class:`DeadlineBackend` (TLS verified), maybe via a proxy.

    httpx2's transport takes no network backend, so its connection pool is built here with one
    instead of by ``HTTPTransport.__init__`` (which only builds the pool; ``handle_request``
    and ``close`` use nothing else). The TLS context is shared by every transport.

    Args:
        proxy: An HTTP(S) or SOCKS proxy URL (``HTTPS_PROXY`` and the like); None: direct.
        max_connections: Connections open at most.
        max_keepalive_connections: Idle connections kept at most.
        keepalive_expiry_s: How long an idle connection is kept, in seconds.
    """

    def __init__(  # not HTTPTransport.__init__: it would build a second pool and TLS context
        self,
        *,
        proxy: str | None = None,
        max_connections: int = _MAX_CONNECTIONS,
        max_keepalive_connections: int = _MAX_KEEPALIVE,
        keepalive_expiry_s: float = 5.0,
    ) -> None:
        limits: dict[str, Any] = {
            "ssl_context": _ssl_context(),
            "max_connections": max_connections,
            "max_keepalive_connections": max_keepalive_connections,
            "keepalive_expiry": keepalive_expiry_s,
            "network_backend": DeadlineBackend(),
        }
        if proxy is None:
            self._pool = httpcore2.ConnectionPool(**limits)
            return
        via = httpx2.Proxy(url=proxy)
        where = httpcore2.URL(
            scheme=via.url.raw_scheme, host=via.url.raw_host, port=via.url.port,
            target=via.url.raw_path,
        )  # fmt: skip
        if via.url.scheme in ("socks5", "socks5h"):
            self._pool = httpcore2.SOCKSProxy(proxy_url=where, proxy_auth=via.raw_auth, **limits)
        else:
            self._pool = httpcore2.HTTPProxy(
                proxy_url=where,
                proxy_auth=via.raw_auth,
                proxy_headers=via.headers.raw,
                proxy_ssl_context=via.ssl_context,
                **limits,
            )


def environment_proxies() -> dict[str, str | None]:
    """The proxies the environment names (``HTTP(S)_PROXY``, ``ALL_PROXY``, ``NO_PROXY``).

    As httpx2 reads them for a client without a transport of its own (a client given one
    ignores them): ``{"https://": "http://proxy:3128", "all://*.internal": None, ...}``.
    """
    try:
        from httpx2._utils import get_environment_proxies
    except ImportError:  # pragma: no cover - a later httpx2 may move it
        return {}
    return get_environment_proxies()


def deadline_http_client() -> httpx2.Client:
    """The openai client's default HTTP client, every transport a :class:`DeadlineTransport`.

    The environment's proxies are kept (a client given a transport would ignore them), each
    through a deadline transport of its own.
    """
    mounts: dict[str, httpx2.BaseTransport | None] = {
        pattern: None if url is None else DeadlineTransport(proxy=url)
        for pattern, url in environment_proxies().items()
    }
    return httpx2.Client(transport=DeadlineTransport(), mounts=mounts, follow_redirects=True)
