"""The console's pure parts: sessions and CSRF tokens, text shown as text, changes, who sees what."""

from __future__ import annotations

import pytest

from qgs_worker.api.access import Principal
from qgs_worker.api.console.changes import changes, spark_points
from qgs_worker.api.console.render import shown
from qgs_worker.api.console.sessions import SESSION_S, SessionCodec
from qgs_worker.core.models import Finding, Severity
from qgs_worker.errors import InputError
from qgs_worker.service.report_model import ReviewFacts, RoundFacts
from qgs_worker.store import Repository
from qgs_worker.store.keys import create_key, verify_key


class TestSessions:
    """A cookie is the signer's, unaltered and unexpired; a CSRF token is its session's."""

    codec = SessionCodec(b"master")

    def test_a_cookie_reads_back(self) -> None:
        cookie, made = self.codec.issue("abc123abc123", now=1000.0)
        assert made == self.codec.read(cookie, now=1001.0)

    def test_altered_foreign_or_expired_cookies_are_nothing(self) -> None:
        cookie, _ = self.codec.issue("abc123abc123", now=1000.0)
        body, mac = cookie.rsplit(".", 1)
        assert self.codec.read(cookie, now=1000.0 + SESSION_S + 1) is None
        assert self.codec.read(body + "." + mac[::-1], now=1001.0) is None
        assert SessionCodec(b"other").read(cookie, now=1001.0) is None
        assert self.codec.read("", now=1001.0) is None and self.codec.read("x.y") is None

    def test_a_csrf_token_belongs_to_one_nonce(self) -> None:
        token = self.codec.csrf("nonce-1")
        assert self.codec.csrf_ok("nonce-1", token)
        assert not self.codec.csrf_ok("nonce-2", token)
        assert not self.codec.csrf_ok("nonce-1", None) and not self.codec.csrf_ok(None, token)


class TestShownAsText:
    """Markup is escaped; invisible characters that change how text reads become marks."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"),
            ('<a href="javascript:x">', "&lt;a href=&#34;javascript:x&#34;&gt;"),
            ("a\u202eb", 'a<span class="ctl" title="hidden character">⟦U+202E⟧</span>b'),
            (
                "zero\u200bwidth",
                'zero<span class="ctl" title="hidden character">⟦U+200B⟧</span>width',
            ),
            ("tab\tand\nnewline", "tab\tand\nnewline"),
            (None, ""),
        ],
    )
    def test_shown(self, text: str | None, expected: str) -> None:
        assert expected == str(shown(text))


def _round(number: int, text: str, score: int | None, *findings: Finding) -> RoundFacts:
    review = ReviewFacts(status="ok", score=score, must_fix=("fix it",) if number == 1 else ())
    return RoundFacts(
        id=number, number=number, submission_id=f"s{number}", status="decided",
        content=text, length=len(text), review=review, findings=findings,
    )  # fmt: skip


class TestChanges:
    """What changed from one round to the next: score, findings, must-fix, the text's diff."""

    def test_changes(self) -> None:
        old = Finding(
            severity=Severity.P1, category="pii", title="email", rule="pii.email", role="detector"
        )
        new = Finding(
            severity=Severity.P0, category="shell", title="rm -rf", rule="shell.rm", role="detector"
        )
        got = changes(_round(1, "a\nb\n", 60, old), _round(2, "a\nc\n", 85, new))
        assert (60, 85, 25) == (got.score_before, got.score_now, got.score_delta)
        assert (("P0", "shell.rm", "rm -rf"),) == got.new_findings
        assert (("P1", "pii.email", "email"),) == got.gone_findings
        assert ((), ("fix it",)) == (got.new_must_fix, got.gone_must_fix)
        assert ["@@ -1,2 +1,2 @@", " a", "-b", "+c"] == list(got.diff)

    def test_spark_points(self) -> None:
        assert "" == spark_points([])
        assert "0.0,40.0 160.0,0.0" == spark_points([0, 100])
        assert "0.0,20.0 160.0,20.0" == spark_points([50])


class TestOperatorKeys:
    """A person's key: its scopes, the principals it sees; refused where it does not belong."""

    def test_made_and_verified(self) -> None:
        repo = Repository("sqlite://")
        made = create_key(repo, "olivia", master=b"m", operator=True, sees=("bot", "all"))
        found = verify_key(repo, made.key)
        assert found is not None
        me = Principal.of(found)
        assert (True, frozenset({"view"}), frozenset({"*"})) == (me.operator, me.scopes, me.sees)
        assert me.may_see(None) and me.may_see("anyone") and me.visible_principals() is None

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"operator": True}, "must see some principals"),
            ({"sees": ("bot",)}, "'--sees' is for operator keys"),
            ({"scopes": ("view",)}, "unknown scope 'view'"),
            ({"operator": True, "sees": ("bot",), "scopes": ("admin",)}, "unknown scope 'admin'"),
            ({"operator": True, "sees": ("bad name",)}, "'--sees' must be"),
        ],
    )
    def test_refused(self, kwargs: dict[str, object], message: str) -> None:
        with pytest.raises(InputError, match=message):
            create_key(Repository("sqlite://"), "olivia", master=b"m", **kwargs)  # type: ignore[arg-type]


class TestWhoSeesWhat:
    """An agent sees its own; an operator those it was given, with ``view``; nobody else's."""

    @pytest.mark.parametrize(
        ("me", "owner", "sees"),
        [
            (Principal("bot"), "bot", True),
            (Principal("bot"), "other", False),
            (Principal("bot"), None, False),
            (Principal("o", frozenset({"view"}), "k", True, frozenset({"bot"})), "bot", True),
            (Principal("o", frozenset({"view"}), "k", True, frozenset({"bot"})), "other", False),
            (Principal("o", frozenset({"view"}), "k", True, frozenset({"bot"})), None, False),
            (Principal("o", frozenset({"approve"}), "k", True, frozenset({"*"})), "bot", False),
            (Principal("o", frozenset({"view"}), "k", True, frozenset({"*"})), None, True),
        ],
    )
    def test_may_see(self, me: Principal, owner: str | None, sees: bool) -> None:
        assert sees == me.may_see(owner)


def test_the_live_events_mark_hidden_characters_as_the_pages_do() -> None:
    """An RTL override in an agent's name or request does not reverse the live list's text."""
    from qgs_worker.api.console.render import plain_marked

    assert "2+2 ⟦U+202E⟧gnp.exe" == plain_marked("2+2 \u202egnp.exe")
    assert "agent⟦U+200B⟧x <b>" == plain_marked(
        "agent\u200bx <b>"
    )  # text, not markup: the script sets textContent
    assert plain_marked(None) is None


def test_an_operator_key_always_has_view_with_its_other_rights() -> None:
    """`--scope approve --scope spot-check` alone once made a key that could never sign in."""
    repo = Repository("sqlite://")
    made = create_key(
        repo, "olivia", master=b"m", scopes=("approve", "spot-check"), operator=True, sees=("all",)
    )
    assert {"view", "approve", "spot-check"} == set(verify_key(repo, made.key).scopes)
