"""The Redis side of ``ratelimit.RedisRateLimiter``: key prefixes, the Lua scripts, the client.

Redis runs each script atomically, with its own clock (``TIME``), so processes on machines
with skewed clocks still share one window. ``redis_for_broker`` makes the Redis clients QGS
uses (with timeouts).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "GIVE_BACK_LUA",
    "KEY_PREFIX",
    "REDIS_TIMEOUT_S",
    "SLIDING_WINDOW_LUA",
    "USED_PREFIX",
    "redis_for_broker",
]

KEY_PREFIX = "qgs:ratelimit:"
"""Every rate-limit key in Redis starts with this."""

USED_PREFIX = "qgs:ratelimit-used:"
"""The running total of each window lives beside it, under this prefix."""

# KEYS[1] = window (sorted set), KEYS[2] = its running total.
# ARGV = window_ms, limit, need, member, want, lease_ms, returned member, its replacement.
# Members are "<unique id>:<units>", scored by the time of the hit in milliseconds; a lease's
# score is the *end* of its lease, so it counts in every window its units may be spent in.
# The running total makes a check O(hits leaving the window), not O(hits in it): with a limit
# of thousands a minute, summing the whole window on every call cost milliseconds. The total is
# rebuilt from the set whenever the two disagree on emptiness (a key deleted by hand, or
# written by an older QGS).
SLIDING_WINDOW_LUA = """
local now_parts = redis.call('TIME')
local now_ms = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local window_ms = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local need = tonumber(ARGV[3])
local want = tonumber(ARGV[5])
local lease_ms = tonumber(ARGV[6])
local cutoff = now_ms - window_ms
local used = redis.call('GET', KEYS[2])
if used and redis.call('EXISTS', KEYS[1]) == 1 then
  used = tonumber(used)
  local leaving = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  for i = 1, #leaving do
    used = used - tonumber(string.match(leaving[i], ':(%d+)$'))
  end
  if #leaving > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  end
else
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  used = 0
  local members = redis.call('ZRANGE', KEYS[1], 0, -1)
  for i = 1, #members do
    used = used + tonumber(string.match(members[i], ':(%d+)$'))
  end
end
-- A lease's units that were never spent go back: the lease shrinks to what was spent.
if ARGV[7] ~= '' then
  local score = redis.call('ZSCORE', KEYS[1], ARGV[7])
  if score then
    redis.call('ZREM', KEYS[1], ARGV[7])
    used = used - tonumber(string.match(ARGV[7], ':(%d+)$'))
    if ARGV[8] ~= '' then
      redis.call('ZADD', KEYS[1], score, ARGV[8])
      used = used + tonumber(string.match(ARGV[8], ':(%d+)$'))
    end
  end
end
if used + need <= limit then
  local granted = math.min(want, limit - used)
  redis.call('ZADD', KEYS[1], now_ms + lease_ms, ARGV[4] .. ':' .. granted)
  local keep = math.max(redis.call('PTTL', KEYS[1]), window_ms + lease_ms)
  redis.call('PEXPIRE', KEYS[1], keep)
  redis.call('SET', KEYS[2], used + granted, 'PX', keep)
  return {1, used + granted, 0, granted}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('SET', KEYS[2], used, 'PX', ttl)
end
-- Refused: wait until enough of the oldest hits leave the window (read a page at a time).
local short = used + need - limit
local freed = 0
local start = 0
while true do
  local page = redis.call('ZRANGE', KEYS[1], start, start + 99, 'WITHSCORES')
  if #page == 0 then
    return {0, used, window_ms, 0}
  end
  for i = 1, #page, 2 do
    freed = freed + tonumber(string.match(page[i], ':(%d+)$'))
    if freed >= short then
      return {0, used, tonumber(page[i + 1]) + window_ms - now_ms, 0}
    end
  end
  start = start + 100
end
"""


# KEYS as above; ARGV = a lease's member, its replacement ('' when nothing of it was spent).
GIVE_BACK_LUA = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
local back = tonumber(string.match(ARGV[1], ':(%d+)$'))
if ARGV[2] ~= '' then
  redis.call('ZADD', KEYS[1], score, ARGV[2])
  back = back - tonumber(string.match(ARGV[2], ':(%d+)$'))
end
local total = redis.call('GET', KEYS[2])
if total then
  redis.call('SET', KEYS[2], tonumber(total) - back, 'KEEPTTL')
end
return back
"""


REDIS_TIMEOUT_S = 2.5
"""Default connect and read timeout of a Redis client QGS makes, in seconds: half the default
``QGS_BROKER_TIMEOUT_S``. A Redis that accepts connections but never answers (a stopped
process, a half-open connection) raises ``redis.TimeoutError`` instead of hanging."""


def redis_for_broker(broker_url: str, *, timeout_s: float | None = REDIS_TIMEOUT_S) -> Any:
    """A ``redis.Redis`` client on the broker's Redis (``redis://``, ``rediss://``, ``redis+socket://``).

    Args:
        broker_url: The broker URL.
        timeout_s: Socket connect and read timeout, in seconds (``REDIS_TIMEOUT_S`` by
            default); None waits as long as it takes.
    """
    import redis

    if broker_url.startswith(("redis+socket://", "unix://")):
        path = broker_url.split("://", 1)[1]
        return redis.Redis(
            unix_socket_path=path, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
        )
    return redis.Redis.from_url(
        broker_url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
    )
