"""Rate limits and leases: how often the judge and the tools may be called, in one process or many.

``limiters`` (the sliding window of one process, the circuit breaker), ``ratelimit`` (the same
window shared through Redis; ``ratelimit_redis``: its scripts and keys), ``leases`` and
``lease_channel`` (units of a Redis window spent locally and renewed ahead), ``judge_limit``
(one budget of requests and tokens for the judge's endpoint).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``core``, ``errors``. Imported by: ``api``, ``client``, ``config``, ``queue``,
``telemetry``.
"""
