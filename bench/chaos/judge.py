"""The chaos run's loopback judge: an OpenAI chat-completions server that fails a share of calls.

It wraps ``tests/fake_openai.py``'s ``FakeOpenAIServer`` (a real HTTP server on 127.0.0.1) and
answers every call from one function, which also writes the call log the harness reads:

- the round a call is about comes from a marker the harness puts in every deliverable
  (``[chaos-round 000123]``, :data:`MARKER`); a call without a marker is logged under ``""``;
- a call is a review, a repair (the messages already hold an assistant answer) or an audit
  role's pass (its material fenced as ``<<<MATERIAL nonce>>>``), keyed by role;
- ``failure_rate`` of the calls fail, in four ways drawn evenly: HTTP 500, a hang longer than
  the judge's timeout (``hang_s``), a 200 whose body is not JSON (a proxy's error page), and a
  200 whose message content is not JSON. The draw is a hash of (seed, marker, key, n-th call),
  so the same round meets the same faults in every run whatever the order of the calls.
- a good answer's verdict is drawn per round too: mostly PASS, some FAIL with must_fix, some
  PASS_WITH_SUGGESTIONS, so tasks go through revision rounds.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from tests.fake_openai import Answer, FakeOpenAIServer, message_texts, requested_dimensions

MARKER = re.compile(r"\[chaos-round (\d+)\]")
"""The marker of a round in its deliverable; the number is the harness's own round index."""

_NONCE = re.compile(r"<<<(END )?MATERIAL [^>]*>>>")

FAILURES = ("http_500", "hang", "non_json_body", "non_json_content")


@dataclass
class Call:
    """One call the judge received.

    Attributes:
        marker: The round index from the deliverable's marker ("" when none was found).
        key: ``review`` or ``audit:<hash of the role's instructions>``.
        repair: The call is a repair request (an assistant answer is already in the messages).
        started_s: When it arrived, in seconds on the harness's monotonic clock.
        ended_s: When its answer was (or would have been) sent, same clock.
        outcome: ``ok`` or one of :data:`FAILURES`.
        verdict: The verdict of an ``ok`` review answer ("" otherwise).
    """

    marker: str
    key: str
    repair: bool
    started_s: float
    ended_s: float
    outcome: str
    verdict: str = ""


def _draw(seed: int, *parts: object) -> float:
    """A number in [0, 1) fixed by the seed and the parts (reproducible whatever the order)."""
    digest = hashlib.sha256(repr((seed, *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class FlakyJudge:
    """A loopback judge failing ``failure_rate`` of its calls; ``calls`` is its log.

    Args:
        seed: The run's seed.
        failure_rate: Share of calls that fail, 0-1 (the chaos run uses 0.3).
        hang_s: How long a hanging call holds the connection, in seconds; above the judge's
            timeout, so the caller gives up first.
        fail_share: Share of good review answers that say FAIL (0-1).
    """

    def __init__(
        self, *, seed: int, failure_rate: float = 0.3, hang_s: float = 5.0, fail_share: float = 0.25
    ) -> None:
        self.seed = seed
        self.failure_rate = failure_rate
        self.hang_s = hang_s
        self.fail_share = fail_share
        self.calls: list[Call] = []
        self._seen: defaultdict[tuple[str, str, bool], int] = defaultdict(int)
        self._lock = threading.Lock()
        self._server = FakeOpenAIServer()
        self._server.default = Answer.dynamic(self._answer)
        self._server.audit_default = Answer.dynamic(self._answer)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return self._server.base_url

    def start(self) -> FlakyJudge:
        """Serve on a free loopback port (a daemon thread of this process); returns self."""
        self._server.start()
        return self

    def close(self) -> None:
        """Stop serving."""
        self._server.close()

    def log(self) -> list[dict[str, Any]]:
        """The call log as plain dicts (for the JSON summary)."""
        with self._lock:
            return [asdict(c) for c in self.calls]

    def snapshot(self) -> list[Call]:
        """A copy of the call log."""
        with self._lock:
            return list(self.calls)

    # -- answering (called from the server's handler threads) ------------------------------

    def _answer(self, request: dict[str, Any]) -> Answer:
        self._server.forget()  # the fake keeps every body; the log below is all the run needs
        texts = message_texts(request)
        joined = "\n".join(texts)
        found = MARKER.search(joined)
        marker = found.group(1) if found else ""
        audit = "<<<MATERIAL " in joined
        key = "review"
        if audit:
            system = next(
                (str(m.get("content", "")) for m in request.get("messages", [])
                 if m.get("role") == "system"),
                "",
            )  # fmt: skip
            key = "audit:" + hashlib.sha256(_NONCE.sub("", system).encode()).hexdigest()[:8]
        repair = any(m.get("role") == "assistant" for m in request.get("messages", []))
        now = time.monotonic()
        with self._lock:
            n = self._seen[(marker, key, repair)]
            self._seen[(marker, key, repair)] = n + 1
        outcome = "ok"
        if _draw(self.seed, "fail", marker, key, repair, n) < self.failure_rate:
            outcome = FAILURES[int(_draw(self.seed, "kind", marker, key, repair, n) * 4)]
        answer, verdict = self._good(request, marker, audit) if outcome == "ok" else (None, "")
        ended = now + (self.hang_s if outcome == "hang" else 0.0)
        with self._lock:
            self.calls.append(Call(marker, key, repair, now, ended, outcome, verdict))
        if outcome == "http_500":
            return Answer.status(500, message="chaos judge: internal error")
        if outcome == "hang":
            return Answer.delay(self.hang_s, then=Answer.status(504, message="chaos: too late"))
        if outcome == "non_json_body":
            return Answer.status(200, body=b"<html><body>502 Bad Gateway</body></html>")
        if outcome == "non_json_content":
            return Answer.content("Looks fine to me overall, nothing to add.")
        assert answer is not None
        return answer

    def _good(self, request: dict[str, Any], marker: str, audit: bool) -> tuple[Answer, str]:
        if audit:
            return Answer.findings(), ""
        names = requested_dimensions(request) or ["quality"]
        roll = _draw(self.seed, "verdict", marker)
        if roll < self.fail_share:
            score = 40 + int(roll * 40)
            dims = dict.fromkeys(names, score)
            return Answer.review("FAIL", score, dims, must_fix=["cite the source"]), "FAIL"
        if roll < self.fail_share + 0.15:
            return Answer.review("PASS_WITH_SUGGESTIONS", 75, dict.fromkeys(names, 75)), (
                "PASS_WITH_SUGGESTIONS"
            )
        score = 85 + int(roll * 10)
        return Answer.review("PASS", score, dict.fromkeys(names, score)), "PASS"
