"""Requests/s of POST /v1/tool-calls/check through the HTTP API (real uvicorn, loopback) beside
the in-process Client.check_tool_call, as a ratio; and the API process's RSS.

    PYTHONPATH=. .venv/bin/python bench/api_bench.py [--seconds 5]

Submit + decision through the API is not measured here yet (it needs workers). Measured on
the 2-core machine: ~18,000 checks/s in-process, ~21/s over the API; a bare FastAPI route served
the same way answers in ~45 ms to curl and httpx alike, so the cost is the loopback server setup
(a 40 ms delayed-ACK stall is suspected), not the QGS layer: to be investigated.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.client import Client
from qgs_worker.settings import ApiSettings, Settings
from qgs_worker.store.keys import create_key
from tests.integration.api_server import serving

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]  # fmt: skip
CALL = {"id": "c1", "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}  # fmt: skip


def rate(fn: object, seconds: float) -> float:
    n, end = 0, time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        fn()  # type: ignore[operator]
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    settings = Settings(
        data_dir=folder, database_url=f"sqlite:///{folder}/qgs.db",
        api=ApiSettings(rate_limit_requests=0),
    )  # fmt: skip
    client = Client(settings)
    in_process = rate(lambda: client.check_tool_call(CALL, tools=TOOLS, log=False), args.seconds)
    ops = Operations(settings, client=client)
    key = create_key(ops.repo, "bench")
    with (
        serving(create_app(operations=ops), log_config=None) as url,
        httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key.key}"}) as http,
    ):
        body = {"call": CALL, "tools": TOOLS}
        over_api = rate(lambda: http.post("/v1/tool-calls/check", json=body), args.seconds)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"tool-call check, in-process: {in_process:,.0f} /s")
    print(f"tool-call check, HTTP API (one client, keep-alive): {over_api:,.0f} /s")
    print(f"ratio API / in-process: {over_api / in_process:.4f}")
    print(f"peak RSS of this process (API server + client + bench): {rss_mb:.0f} MB")


if __name__ == "__main__":
    main()
