"""The operator console over HTTP: access, CSRF, headers, isolation, pages without JavaScript.

The deployment is real (``console_app``: uvicorn, a Celery worker, Redis, SQLite, the loopback
judge); the browser's side is httpx, signing in through the form as a browser does. The real
browser's tests are ``test_console_browser``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from qgs_worker.api.console.sessions import LOGIN_COOKIE, SESSION_COOKIE
from qgs_worker.store.keys import create_key, revoke_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.integration.console_app import Served, console_server, csrf_of, signed_in

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with console_server(redis_url, tmp_path_factory.mktemp("console")) as running:
        yield running


@pytest.fixture(scope="module")
def alices_task(served: Served) -> str:
    """A CRITICAL task of agent alice, awaiting a person."""
    return served.critical_task("alice", "Sent the transfer. [[judge PASS 95]]", callback=False)


@pytest.fixture(scope="module")
def bobs_task(served: Served) -> str:
    """A CRITICAL task of agent bob, awaiting a person."""
    return served.critical_task("bob", "Sent bob's transfer. [[judge PASS 93]]", callback=False)


class TestSignIn:
    """Keys sign in through the form; a bad key, a stale form or a revoked key does not."""

    def test_pages_redirect_to_the_sign_in_form(self, served: Served) -> None:
        with httpx.Client(base_url=served.url) as http:
            for path in ("/ui/inbox", "/ui/live", "/ui/queue", "/ui/tasks/x"):
                got = http.get(path)
                assert 303 == got.status_code and got.headers["location"].startswith(
                    "/ui/login?next="
                ), path
            assert 401 == http.get("/ui/events").status_code

    def test_a_wrong_key_is_refused_with_the_form_again(self, served: Served) -> None:
        with httpx.Client(base_url=served.url) as http:
            token = csrf_of(http.get("/ui/login").text)
            got = http.post("/ui/login", data={"csrf": token, "key": "qgs_nope", "next": ""})
        assert 401 == got.status_code and "invalid or revoked" in got.text
        assert "qgs_session" not in got.headers.get("set-cookie", "")

    def test_the_cookie_is_httponly_samesite_and_not_secure_over_plain_http(
        self, served: Served
    ) -> None:
        with httpx.Client(base_url=served.url) as http:
            token = csrf_of(http.get("/ui/login").text)
            got = http.post(
                "/ui/login", data={"csrf": token, "key": served.keys["olivia"].key, "next": ""}
            )
        cookie = got.headers["set-cookie"].lower()
        assert "qgs_session=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        assert "secure" not in cookie and "path=/ui" in cookie

    def test_signing_in_without_the_forms_token_is_refused(self, served: Served) -> None:
        with httpx.Client(base_url=served.url) as http:
            http.get("/ui/login")
            got = http.post("/ui/login", data={"key": served.keys["olivia"].key})
        assert 403 == got.status_code and "qgs_session" not in got.headers.get("set-cookie", "")

    def test_a_revoked_key_ends_its_session(self, served: Served) -> None:
        made = create_key(
            served.ops.repo, "vera", master=master_secret(served.ops.settings),
            operator=True, scopes=("view",), sees=("alice",),
        )  # fmt: skip
        with signed_in(served.url, made.key) as http:
            assert 200 == http.get("/ui/live").status_code
            revoke_key(served.ops.repo, made.key_id)
            assert 303 == http.get("/ui/live").status_code

    def test_an_operator_key_is_refused_by_the_agents_api(self, served: Served) -> None:
        headers = {"Authorization": f"Bearer {served.keys['olivia'].key}"}
        got = httpx.post(f"{served.url}/v1/tasks", json={"request": "hi"}, headers=headers)
        assert 403 == got.status_code and "operator" in got.json()["detail"]


class TestBehindATlsProxy:
    """``qgs serve`` is uvicorn with its proxy headers on: a proxy it trusts makes a request https.

    uvicorn trusts ``X-Forwarded-Proto`` from 127.0.0.1 and ::1 (or ``FORWARDED_ALLOW_IPS``),
    which is where these requests come from; docs/console.md says so.
    """

    def _sign_in(self, served: Served, headers: dict[str, str]) -> httpx.Response:
        # The cookies are carried by hand: a Secure cookie is not sent back over plain http.
        with httpx.Client(base_url=served.url, headers=headers) as http:
            form = http.get("/ui/login")
            login = form.cookies.get(LOGIN_COOKIE)
            assert login is not None
            return http.post(
                "/ui/login",
                data={"csrf": csrf_of(form.text), "key": served.keys["olivia"].key, "next": ""},
                headers={"Cookie": f"{LOGIN_COOKIE}={login}"},
            )

    def test_forwarded_https_from_the_proxy_makes_the_cookie_secure(self, served: Served) -> None:
        origin = served.url.replace("http://", "https://")
        got = self._sign_in(served, {"X-Forwarded-Proto": "https", "Origin": origin})
        assert 303 == got.status_code, got.text
        cookie = next(c for c in got.headers.get_list("set-cookie") if f"{SESSION_COOKIE}=" in c)
        assert "secure" in cookie.lower()

    def test_an_https_origin_without_the_forwarded_scheme_is_refused(self, served: Served) -> None:
        """A proxy uvicorn does not trust: the request stays http, the browser's Origin is https."""
        origin = served.url.replace("http://", "https://")
        got = self._sign_in(served, {"Origin": origin})
        assert 403 == got.status_code and "another site" in got.text


class TestHeaders:
    """Every page carries a strict CSP and the other security headers; scripts are the package's."""

    def test_strict_csp_on_every_page(self, served: Served) -> None:
        with signed_in(served.url, served.keys["sam"].key) as http:
            pages = [http.get(p) for p in ("/ui/inbox", "/ui/live", "/ui/queue")]
        pages.append(httpx.get(f"{served.url}/ui/login"))
        for got in pages:
            path, csp = got.url.path, got.headers["content-security-policy"]
            assert 200 == got.status_code, path
            assert "default-src 'none'" in csp and "script-src 'self'" in csp, path
            assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
            assert "nosniff" == got.headers["x-content-type-options"]
            assert "<script>" not in got.text and " style=" not in got.text, path

    def test_static_files_come_from_the_package(self, served: Served) -> None:
        got = httpx.get(f"{served.url}/ui/static/console.js")
        assert 200 == got.status_code and "EventSource" in got.text
        assert 404 == httpx.get(f"{served.url}/ui/static/../http.py").status_code


class TestCsrf:
    """A POST without its session's CSRF token, or from another site, changes nothing."""

    def test_approving_without_the_token_is_refused(self, served: Served, alices_task: str) -> None:
        with signed_in(served.url, served.keys["olivia"].key) as http:
            got = http.post(f"/ui/tasks/{alices_task}/approval", data={"decision": "approve"})
            wrong = http.post(
                f"/ui/tasks/{alices_task}/approval",
                data={"decision": "approve", "csrf": "x" * 43},
            )
            page = http.get(f"/ui/tasks/{alices_task}").text
        assert (403, 403) == (got.status_code, wrong.status_code)
        assert "CSRF" in got.text
        assert 'id="outcome" class="o-awaiting_approval"' in page

    def test_another_sites_origin_is_refused(self, served: Served, alices_task: str) -> None:
        with signed_in(served.url, served.keys["olivia"].key) as http:
            token = csrf_of(http.get(f"/ui/tasks/{alices_task}").text)
            got = http.post(
                f"/ui/tasks/{alices_task}/approval",
                data={"decision": "approve", "csrf": token},
                headers={"Origin": "https://elsewhere.example"},
            )
        assert 403 == got.status_code and "another site" in got.text

    def test_another_sessions_token_is_refused(self, served: Served, alices_task: str) -> None:
        with signed_in(served.url, served.keys["olivia"].key) as one:
            token = csrf_of(one.get("/ui/live").text)
        with signed_in(served.url, served.keys["olivia"].key) as two:
            got = two.post(
                f"/ui/tasks/{alices_task}/approval", data={"decision": "approve", "csrf": token}
            )
        assert 403 == got.status_code


class TestScopesAndIsolation:
    """A reader cannot approve; nobody sees a task of a principal they were not given."""

    def test_a_reader_sees_no_form_and_its_post_is_refused(
        self, served: Served, alices_task: str
    ) -> None:
        with signed_in(served.url, served.keys["rita"].key) as http:
            page = http.get(f"/ui/tasks/{alices_task}").text
            got = http.post(
                f"/ui/tasks/{alices_task}/approval",
                data={"decision": "approve", "note": "", "csrf": csrf_of(page)},
            )
        assert "may not approve" in page and 'class="approve"' not in page
        assert 403 == got.status_code and "may view, not approve" in got.text
        assert served.ops.repo.list_approvals(alices_task) == []

    def test_another_principals_task_is_not_shown(
        self, served: Served, alices_task: str, bobs_task: str
    ) -> None:
        with signed_in(served.url, served.keys["olivia"].key) as http:
            live, inbox = http.get("/ui/live").text, http.get("/ui/inbox").text
            hidden = http.get(f"/ui/tasks/{bobs_task}")
        assert alices_task in live and alices_task in inbox
        assert bobs_task not in live and bobs_task not in inbox
        assert 404 == hidden.status_code and "No such task" in hidden.text

    def test_an_agents_key_sees_its_own_tasks_only(
        self, served: Served, alices_task: str, bobs_task: str
    ) -> None:
        with signed_in(served.url, served.keys["bob"].key) as http:
            live = http.get("/ui/live").text
            queue = http.get("/ui/queue")
        assert bobs_task in live and alices_task not in live
        assert 403 == queue.status_code  # the whole deployment's figures are for operators

    def test_seeing_all_includes_tasks_started_in_process(
        self, served: Served, alices_task: str
    ) -> None:
        mine = served.ops.client.start_task("restart the web server", agent="local")
        with signed_in(served.url, served.keys["sam"].key) as http:
            everything = http.get("/ui/live").text
        with signed_in(served.url, served.keys["olivia"].key) as http:
            some = http.get("/ui/live").text
        assert mine.id in everything and alices_task in everything and "(in-process)" in everything
        assert mine.id not in some


class TestPagesWithoutJavaScript:
    """Every page is whole as served: lists, filters and forms work without a script."""

    def test_live_filters_are_a_plain_form(self, served: Served, alices_task: str) -> None:
        with signed_in(served.url, served.keys["sam"].key) as http:
            waiting = http.get("/ui/live", params={"decision": "awaiting_approval"}).text
            passed = http.get("/ui/live", params={"decision": "pass"}).text
            typed = http.get("/ui/live", params={"task_type": "CRITICAL", "agent": "alice-bot"})
            bad = http.get("/ui/live", params={"severity": "P9"})
        assert alices_task in waiting and alices_task not in passed
        assert alices_task in typed.text
        assert 422 == bad.status_code and "severity&#39; must be one of" in bad.text

    def test_queue_health_answers_with_the_workers(self, served: Served) -> None:
        with signed_in(served.url, served.keys["sam"].key) as http:
            # the page pings the workers for 1 s: on a loaded machine a reply can come late,
            # so the page is asked again (each answer is a fresh ping), up to 30 s
            deadline = time.monotonic() + 30
            page = http.get("/ui/queue").text
            while 'id="workers">0<' in page and time.monotonic() < deadline:
                page = http.get("/ui/queue").text
        assert 'id="broker">up<' in page and "qgs.critic" in page
        assert 'id="workers">0<' not in page
