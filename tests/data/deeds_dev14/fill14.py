"""Bulk for the fourteenth set's tool outputs (adapted from ``deeds_dev11/fill11.py``):
deterministic generators of the genuine data around a planted order (git logs, test runs,
timestamped logs, issue and comment objects, inboxes, statements).

Every function takes a ``seed`` (or fixed inputs) so that ``generate.py`` writes the same bytes
each run. Planted text is never made here: the case files pass it in.
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime, timedelta
from typing import Any

_VERBS = ["fix", "feat", "chore", "refactor", "test", "docs", "perf", "build"]
_AREAS = ["api", "auth", "billing", "cli", "db", "deps", "ui", "worker", "cache", "ci", "search"]
_WHAT = ["handle empty page token", "bump minor deps", "retry on 503", "drop unused helper",
         "tighten type hints", "cache tenant lookup", "split settings module", "log request id",
         "paginate export", "guard against None owner", "rename flag", "faster fixture setup",
         "stream large uploads", "timeouts from env", "clearer error message", "dedupe events"]
_NAMES = ["Ana Ruiz", "Tomasz Nowak", "Priya Raman", "Lena Vogel", "Kofi Mensah", "Mei Tanaka",
          "Jonas Berg", "Sara Haddad", "Diego Alves", "Ines Costa", "Ravi Iyer", "Olga Petrova"]


def sha(seed: str, n: int = 7) -> str:
    """A hex digest prefix of ``seed``, ``n`` characters: stable fake commit ids and hashes."""
    return hashlib.sha1(seed.encode()).hexdigest()[:n]


def gitlog(seed: str, n: int = 8, extra: list[str] | None = None) -> str:
    """``git log --oneline`` text of ``n`` made-up commits; ``extra`` lines go first."""
    r = random.Random(seed)
    lines = list(extra or [])
    for k in range(n):
        lines.append(f"{sha(seed + str(k))} {r.choice(_VERBS)}({r.choice(_AREAS)}): "
                     f"{r.choice(_WHAT)}")
    return "\n".join(lines)


def pytest_ok(seed: str, files: list[str], failed: str | None = None) -> str:
    """A pytest run over ``files``; all pass unless ``failed`` ('path::test - reason')."""
    r = random.Random(seed)
    out = ["============================= test session starts ==============================",
           "platform linux -- Python 3.12.4, pytest-8.3.2, pluggy-1.5.0",
           "rootdir: /home/dev/work", "configfile: pyproject.toml",
           "plugins: anyio-4.4.0, cov-5.0.0, xdist-3.6.1"]
    ks = [r.randint(3, 24) for _ in files]
    total, run = sum(ks), 0
    for f, k in zip(files, ks, strict=True):
        run += k
        out.append(f"{f} {'.' * k}{' ' * max(1, 40 - k - len(f) // 3)}[{run * 100 // total:>3}%]")
    if failed:
        out += ["", "=================================== FAILURES ===================================",
                f"_____ {failed.split(' - ')[0].split('::')[-1]} _____", f"E   {failed.split(' - ')[-1]}",
                "=========================== short test summary info ============================",
                f"FAILED {failed}", f"======================== 1 failed, {total - 1} passed in "
                f"{r.randint(3, 40)}.{r.randint(10, 99)}s ========================"]
    else:
        out.append(f"============================== {total} passed in {r.randint(3, 40)}."
                   f"{r.randint(10, 99)}s ==============================")
    return "\n".join(out)


def logs(seed: str, service: str, n: int, start: str = "2025-03-11T09:14:02",
         inject: dict[int, str] | None = None, fmt: str = "plain") -> str:
    """``n`` timestamped log lines of ``service``; ``inject`` maps a line index to a raw line
    (its timestamp is added). ``fmt`` 'plain' or 'json'."""
    r = random.Random(seed)
    t = datetime.fromisoformat(start)
    msgs = [("INFO", "request completed path=/v1/orders status=200 dur_ms={d}"),
            ("INFO", "request completed path=/v1/items status=200 dur_ms={d}"),
            ("DEBUG", "cache hit key=tenant:{k}"),
            ("INFO", "worker heartbeat queue=default lag_ms={d}"),
            ("WARN", "slow query dur_ms={D} table=orders"),
            ("INFO", "request completed path=/healthz status=200 dur_ms=1"),
            ("ERROR", "upstream timeout host=payments.internal.test attempt={a}"),
            ("INFO", "db pool size=20 in_use={k}")]
    out = []
    for i in range(n):
        t += timedelta(milliseconds=r.randint(40, 2400))
        ts = t.isoformat(timespec="milliseconds") + "Z"
        if inject and i in inject:
            out.append(f"{ts} {inject[i]}")
            continue
        lvl, m = r.choice(msgs)
        m = m.format(d=r.randint(2, 180), D=r.randint(900, 4000), k=r.randint(1, 19),
                     a=r.randint(1, 3))
        if fmt == "json":
            out.append(json.dumps({"ts": ts, "level": lvl.lower(), "svc": service, "msg": m,
                                   "trace_id": sha(seed + str(i), 16)}, separators=(",", ":")))
        else:
            out.append(f"{ts} {lvl:<5} [{service}] {m} trace={sha(seed + str(i), 12)}")
    return "\n".join(out)


def gh_user(login: str, uid: int) -> dict[str, Any]:
    """A GitHub API user object."""
    return {"login": login, "id": uid, "type": "User", "site_admin": False,
            "html_url": f"https://github.example/{login}"}


def gh_issue(repo: str, number: int, title: str, body: str, login: str,
             labels: list[str] | None = None, comments: int = 0, state: str = "open",
             created: str = "2025-03-04T10:22:51Z", pr: bool = False) -> dict[str, Any]:
    """A GitHub REST issue (or pull request when ``pr``) object with its usual fields."""
    d: dict[str, Any] = {
        "url": f"https://api.github.example/repos/{repo}/issues/{number}",
        "html_url": f"https://github.example/{repo}/{'pull' if pr else 'issues'}/{number}",
        "id": 2000000000 + number * 37, "node_id": "I_kwDO" + sha(repo + str(number), 10),
        "number": number, "title": title, "user": gh_user(login, 10000 + number * 13),
        "labels": [{"name": x} for x in (labels or [])], "state": state, "locked": False,
        "assignee": None, "comments": comments, "created_at": created,
        "updated_at": created, "author_association": "NONE", "body": body,
        "reactions": {"total_count": 0, "+1": 0}}
    if pr:
        d["pull_request"] = {"url": f"https://api.github.example/repos/{repo}/pulls/{number}"}
    return d


def gh_comment(repo: str, cid: int, login: str, body: str,
               created: str = "2025-03-05T08:01:10Z", assoc: str = "CONTRIBUTOR") -> dict[str, Any]:
    """A GitHub REST issue comment object."""
    return {"id": cid, "html_url": f"https://github.example/{repo}/issues#issuecomment-{cid}",
            "user": gh_user(login, cid % 99991), "created_at": created, "updated_at": created,
            "author_association": assoc, "body": body}


def inbox(items: list[tuple[str, str, str, str]], seed: str = "inbox") -> dict[str, Any]:
    """A Gmail-like search result: ``items`` are (from, subject, snippet, date)."""
    return {"messages": [
        {"id": sha(seed + s, 16), "threadId": sha(seed + s + "t", 16), "from": f, "subject": s,
         "snippet": sn, "date": d, "labelIds": ["INBOX"] + (["UNREAD"] if k % 3 == 0 else [])}
        for k, (f, s, sn, d) in enumerate(items)], "resultSizeEstimate": len(items),
        "nextPageToken": None}


def mail(mid: str, frm: str, to: str, subject: str, date: str, body: str,
         attachments: list[str] | None = None, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """A Gmail-like message read result with decoded text body."""
    h = {"From": frm, "To": to, "Subject": subject, "Date": date,
         "Message-ID": f"<{sha(mid, 20)}@mail.example>"}
    h.update(headers or {})
    return {"id": mid, "threadId": sha(mid + "t", 16), "labelIds": ["INBOX"], "headers": h,
            "body": {"mimeType": "text/plain", "text": body},
            "attachments": [{"filename": a, "attachmentId": sha(a, 12)} for a in attachments or []]}


def txns(seed: str, n: int, extra: list[dict[str, Any]] | None = None,
         start: str = "2025-02-01") -> dict[str, Any]:
    """A bank transactions page of ``n`` made-up card and transfer lines plus ``extra``."""
    r = random.Random(seed)
    shops = [("GROCER OAKLEAF 114", "groceries"), ("TRANSIT CARD TOPUP", "transport"),
             ("CAFE BRIO", "eating_out"), ("STREAMLY SUBSCRIPTION", "subscriptions"),
             ("PHARMA PLUS 22", "health"), ("FUEL STOP 9", "transport"),
             ("BOOKNOOK ONLINE", "shopping"), ("CITY WATER UTILITY", "bills")]
    d = datetime.fromisoformat(start)
    out = []
    for i in range(n):
        d += timedelta(days=r.randint(0, 2))
        name, cat = r.choice(shops)
        out.append({"id": "tx_" + sha(seed + str(i), 10), "date": d.date().isoformat(),
                    "description": name, "amount": -round(r.uniform(3, 140), 2),
                    "currency": "EUR", "category": cat, "status": "booked", "memo": None})
    out += extra or []
    return {"transactions": out, "page": 1, "page_size": 50, "has_more": False}


def rows(cols: list[str], data: list[list[Any]]) -> str:
    """A psql-style result table of ``data`` under ``cols``."""
    w = [max(len(str(c)), *(len(str(r[i])) for r in data)) if data else len(c)
         for i, c in enumerate(cols)]
    line = " | ".join(str(c).ljust(w[i]) for i, c in enumerate(cols))
    sep = "-+-".join("-" * x for x in w)
    body = [" | ".join(str(r[i]).ljust(w[i]) for i in range(len(cols))) for r in data]
    return "\n".join([" " + line, "-" + sep + "-", *(" " + b for b in body),
                      f"({len(data)} row{'s' if len(data) != 1 else ''})"])


def people(seed: str, k: int) -> list[str]:
    """``k`` made-up full names."""
    r = random.Random(seed)
    return r.sample(_NAMES, k)


def numbered(text: str, start: int = 1) -> str:
    """``text`` with Claude Code Read-style line numbers (``     1\\t...``)."""
    return "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(text.split("\n"), start))
