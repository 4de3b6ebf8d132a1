"""``qgs keys`` and ``qgs shadow`` refuse what a new user mistypes (issue 33's break test, 3, 5-7).

A ``--sees`` principal nobody has (a typo), ``--principal all``, a name the other kind of key
already has, a blank ``--by``: each is refused with exit 2 and one line naming the option and
the fix; ``qgs keys list`` shows an operator who sees every task as ``sees all``.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from qgs_worker.cli import main
from qgs_worker.config.settings import Settings
from qgs_worker.store import Repository
from qgs_worker.store.keys import list_keys
from qgs_worker.webhooks import key_secrets


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("QGS_DATABASE_URL", f"sqlite:///{tmp_path / 'qgs.db'}")
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("QGS_WEBHOOKS__MASTER_SECRET", raising=False)
    monkeypatch.delenv("QGS_BROKER_URL", raising=False)
    monkeypatch.setenv("COLUMNS", "250")
    key_secrets._cache.clear()
    yield tmp_path
    key_secrets._cache.clear()


@dataclass
class Ran:
    exit_code: object
    output: str


@pytest.fixture
def qgs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[..., Ran]:
    """``qgs ARGS`` through ``main()`` (its QGS errors are one line and exit 2)."""

    def run(*args: str) -> Ran:
        with monkeypatch.context() as patch:
            patch.setattr(sys, "argv", ["qgs", *args])
            before = signal.getsignal(signal.SIGTERM)
            try:
                main()
                code: object = 0
            except SystemExit as done:
                code = done.code
            finally:
                signal.signal(signal.SIGTERM, before)
        captured = capsys.readouterr()
        return Ran(code, captured.out + captured.err)

    return run


def keys() -> list[tuple[str, bool]]:
    return [
        (k.principal, k.operator) for k in list_keys(Repository(Settings().resolved_database_url))
    ]


class TestKeysCreate:
    def test_a_sees_typo_is_refused_with_the_close_name(
        self, env: Path, qgs: Callable[..., Ran]
    ) -> None:
        assert 0 == qgs("keys", "create", "--principal", "deploy-bot").exit_code
        refused = qgs("keys", "create", "--operator", "z", "--sees", "deploy-bott")
        assert 2 == refused.exit_code, refused.output
        assert "'--sees'" in refused.output and "did you mean 'deploy-bot'" in refused.output
        assert "--allow-unknown" in refused.output and "Traceback" not in refused.output
        assert [("deploy-bot", False)] == keys()  # nothing made
        made = qgs("keys", "create", "--operator", "z", "--sees", "deploy-bot")
        assert 0 == made.exit_code, made.output

    def test_an_unknown_principal_is_kept_when_asked(
        self, env: Path, qgs: Callable[..., Ran]
    ) -> None:
        assert 2 == qgs("keys", "create", "--operator", "z", "--sees", "later-bot").exit_code
        made = qgs("keys", "create", "--operator", "z", "--sees", "later-bot", "--allow-unknown")
        assert 0 == made.exit_code, made.output
        assert [("z", True)] == keys()

    @pytest.mark.parametrize("name", ["all", "ALL", "*"])
    def test_all_is_no_principals_name(self, env: Path, qgs: Callable[..., Ran], name: str) -> None:
        for option in ("--principal", "--operator"):
            extra = ("--sees", "all") if option == "--operator" else ()
            refused = qgs("keys", "create", option, name, *extra)
            assert 2 == refused.exit_code, refused.output
            assert f"'{option}'" in refused.output and "every principal" in refused.output
        assert [] == keys()

    def test_an_agent_and_a_person_may_not_share_a_name(
        self, env: Path, qgs: Callable[..., Ran]
    ) -> None:
        assert 0 == qgs("keys", "create", "--principal", "ann").exit_code
        refused = qgs("keys", "create", "--operator", "ann", "--sees", "all")
        assert 2 == refused.exit_code and "already an agent's name" in refused.output
        assert 0 == qgs("keys", "create", "--operator", "bea", "--sees", "ann").exit_code
        refused = qgs("keys", "create", "--principal", "bea")
        assert 2 == refused.exit_code and "already a person's name" in refused.output
        assert 0 == qgs("keys", "create", "--principal", "ann", "--scope", "approve").exit_code
        assert [("ann", False), ("bea", True), ("ann", False)] == keys()

    def test_a_blank_operator_names_the_option_typed(
        self, env: Path, qgs: Callable[..., Ran]
    ) -> None:
        refused = qgs("keys", "create", "--operator", "", "--sees", "all")
        assert 2 == refused.exit_code
        assert "'--operator' must be" in refused.output and "'principal'" not in refused.output

    def test_list_and_create_say_all_not_a_star(self, env: Path, qgs: Callable[..., Ran]) -> None:
        made = qgs("keys", "create", "--operator", "sam", "--sees", "all")
        assert 0 == made.exit_code and "sees:           all" in made.output
        listed = qgs("keys", "list")
        assert "operator sam (sees all)" in listed.output and "*" not in listed.output


class TestShadowBy:
    @pytest.mark.parametrize("by", ["", "   "])
    def test_a_blank_by_is_refused(self, env: Path, qgs: Callable[..., Ran], by: str) -> None:
        refused = qgs("shadow", "rule", "sql_drop", "--on", "--note", "measuring", "--by", by)
        assert 2 == refused.exit_code, refused.output
        assert "'--by' is required" in refused.output and "(by )" not in refused.output

    def test_a_named_person_is_recorded(self, env: Path, qgs: Callable[..., Ran]) -> None:
        made = qgs("shadow", "rule", "sql_drop", "--on", "--note", "measuring", "--by", "ana")
        assert 0 == made.exit_code, made.output
        assert "in shadow (by ana)" in made.output
