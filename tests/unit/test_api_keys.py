"""API keys (store/keys.py) and problem documents (api/problems.py), on an in-memory store."""

from __future__ import annotations

from pathlib import Path

import pytest

from qgs_worker.api.problems import problem_for, validation_problem
from qgs_worker.errors import (
    AuthenticationError,
    BrokerUnavailableError,
    DeliverableTooLargeError,
    InputError,
    PermissionDeniedError,
    SubmissionNotFoundError,
)
from qgs_worker.store import Repository
from qgs_worker.store.keys import (
    ApiKeyRow,
    create_key,
    list_keys,
    parse_key,
    revoke_key,
    verify_key,
    webhook_secret,
)

MASTER = b"test-master-secret"


@pytest.fixture
def repo() -> Repository:
    return Repository("sqlite://")


class TestKeys:
    """A key is found by its id, checked by its salted hash, and revoked for good."""

    def test_made_verified_and_revoked(self, repo: Repository) -> None:
        made = create_key(repo, "deploy-bot", master=MASTER, scopes=("approve",))
        found = verify_key(repo, made.key)
        assert found is not None
        assert ("deploy-bot", frozenset({"approve"})) == (found.principal, found.scopes)
        assert revoke_key(repo, made.key_id) is True
        assert verify_key(repo, made.key) is None
        assert revoke_key(repo, made.key_id) is False

    def test_a_wrong_secret_or_shape_is_refused(self, repo: Repository) -> None:
        made = create_key(repo, "a", master=MASTER)
        key_id, secret = parse_key(made.key) or ("", "")
        other = "A" if secret[0] != "A" else "B"
        assert verify_key(repo, f"qgs_{key_id}_{other}{secret[1:]}") is None
        assert verify_key(repo, made.key[:-1]) is None
        assert verify_key(repo, "Bearer " + made.key) is None

    def test_the_secret_is_not_stored(self, repo: Repository) -> None:
        made = create_key(repo, "a", master=MASTER)
        # The key is qgs_<id>_<secret>; the secret may hold "_" itself (token_urlsafe): a
        # split on the last "_" gave a few characters that a hash could hold by chance.
        secret = made.key.split("_", 2)[2]
        assert len(secret) >= 40
        assert 1 == repo.count_rows(ApiKeyRow)
        from sqlmodel import Session, select

        with Session(repo.engine) as session:
            row = session.exec(select(ApiKeyRow)).one()
        assert secret not in str(row.model_dump())
        assert [made.key_id] == [k.key_id for k in list_keys(repo)]

    def test_webhook_secret_is_the_newest_live_keys(self, repo: Repository) -> None:
        assert webhook_secret(repo, "a", master=lambda: MASTER) is None
        first = create_key(repo, "a", master=MASTER)
        second = create_key(repo, "a", master=MASTER)
        newest = max((first, second), key=lambda k: (k.key_id == second.key_id, k.key_id))
        assert newest.webhook_secret.encode() == webhook_secret(repo, "a", master=lambda: MASTER)
        revoke_key(repo, first.key_id)
        revoke_key(repo, second.key_id)
        assert webhook_secret(repo, "a", master=lambda: MASTER) is None

    @pytest.mark.parametrize("principal", ["", " a", "a b", "x" * 129, "a/b"])
    def test_bad_principal_names(self, repo: Repository, principal: str) -> None:
        with pytest.raises(InputError, match="'--principal'"):
            create_key(repo, principal, master=MASTER)

    def test_unknown_scope(self, repo: Repository) -> None:
        with pytest.raises(InputError, match="unknown scope 'admin'"):
            create_key(repo, "a", master=MASTER, scopes=("admin",))


class TestWebhookSecrets:
    """A key's webhook secret is derived, never stored; an older key's stored one still signs."""

    def test_derived_from_the_master_and_not_stored(self, repo: Repository) -> None:
        from sqlmodel import Session, select

        from qgs_worker.store.keys import derive_webhook_secret

        made = create_key(repo, "a", master=MASTER)
        assert made.webhook_secret == derive_webhook_secret(MASTER, made.key_id)
        assert made.webhook_secret.startswith("whsec_") and 49 == len(made.webhook_secret)
        with Session(repo.engine) as session:
            row = session.exec(select(ApiKeyRow)).one()
        dumped = str(row.model_dump())
        assert made.webhook_secret not in dumped and made.webhook_secret[6:] not in dumped
        assert "" == row.webhook_secret and row.webhook_check
        assert made.webhook_secret.encode() == webhook_secret(repo, "a", master=lambda: MASTER)
        other = create_key(repo, "b", master=MASTER)
        assert other.webhook_secret != made.webhook_secret  # one per key

    def test_a_key_made_by_an_older_qgs_keeps_its_stored_secret(self, repo: Repository) -> None:
        from sqlmodel import Session

        with Session(repo.engine) as session:
            session.add(
                ApiKeyRow(
                    key_id="0123456789ab",
                    principal="old",
                    salt="00" * 16,
                    secret_hash="00" * 32,
                    webhook_secret="whsec_stored-by-an-older-qgs",
                )
            )
            session.commit()

        def no_master() -> bytes:
            raise AssertionError("an older key's secret needs no master")

        found = webhook_secret(repo, "old", "0123456789ab", master=no_master)
        assert b"whsec_stored-by-an-older-qgs" == found

    def test_another_master_is_refused_naming_the_setting(self, repo: Repository) -> None:
        from qgs_worker.errors import WebhookSecretMissingError

        create_key(repo, "a", master=MASTER)
        with pytest.raises(WebhookSecretMissingError, match="QGS_WEBHOOKS__MASTER_SECRET"):
            webhook_secret(repo, "a", master=lambda: b"another master")


class TestMasterSecret:
    """The master is the setting, else one generated file (mode 0600) every process reads."""

    def test_generated_once_into_a_private_file(self, tmp_path: Path) -> None:
        import stat

        from qgs_worker.config.settings import Settings
        from qgs_worker.webhooks import key_secrets

        first = key_secrets.master_secret(Settings(data_dir=tmp_path / "d"))
        path = tmp_path / "d" / key_secrets.MASTER_FILE
        assert 0o600 == stat.S_IMODE(path.stat().st_mode)
        assert first == path.read_text().strip().encode() and 64 == len(first)
        key_secrets._cache.clear()  # another process: reads the same file
        assert first == key_secrets.master_secret(Settings(data_dir=tmp_path / "d"))
        assert [key_secrets.MASTER_FILE] == [p.name for p in (tmp_path / "d").iterdir()]

    def test_the_setting_wins_and_makes_no_file(self, tmp_path: Path) -> None:
        from qgs_worker.config.settings import Settings
        from qgs_worker.config.webhook_settings import WebhookSettings
        from qgs_worker.webhooks import key_secrets

        settings = Settings(
            data_dir=tmp_path / "d", webhooks=WebhookSettings(master_secret="from-the-env")
        )
        assert b"from-the-env" == key_secrets.master_secret(settings)
        assert not (tmp_path / "d" / key_secrets.MASTER_FILE).exists()

    @pytest.mark.parametrize("content", ["", "\n", "  \n\n"])
    def test_an_empty_file_is_refused_not_read_as_an_empty_master(
        self, tmp_path: Path, content: str
    ) -> None:
        # Break test bt14: an empty webhook-master.key was read as the master b"", so every
        # key's webhook secret was HMAC(b"", key id): anyone who saw a key id could forge.
        from qgs_worker.config.settings import Settings
        from qgs_worker.webhooks import key_secrets

        path = tmp_path / key_secrets.MASTER_FILE
        path.write_text(content)
        path.chmod(0o600)
        with pytest.raises(OSError, match=r"is empty.*QGS_WEBHOOKS__MASTER_SECRET") as caught:
            key_secrets.master_secret(Settings(data_dir=tmp_path))
        assert str(path) in str(caught.value)
        assert content == path.read_text()  # left as it was: the operator decides

    def test_a_file_others_may_read_is_used_with_a_warning(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        from qgs_worker.config.settings import Settings
        from qgs_worker.webhooks import key_secrets

        path = tmp_path / key_secrets.MASTER_FILE
        path.write_text("a-master-written-by-hand\n")
        path.chmod(0o644)
        with caplog.at_level("WARNING", logger="qgs_worker.webhooks.key_secrets"):
            found = key_secrets.master_secret(Settings(data_dir=tmp_path))
        assert b"a-master-written-by-hand" == found
        assert "may be read by others (mode 0644)" in caplog.text and "chmod 600" in caplog.text

    @pytest.mark.parametrize("broken", ["empty", "directory"])
    def test_a_master_that_cannot_be_read_fails_the_signing_naming_it(
        self, tmp_path: Path, repo: Repository, broken: str
    ) -> None:
        # The delivery then fails for good saying why (and the API's submit is a 500
        # "Server misconfigured" with the fix), instead of the job raising an OSError that
        # left its lease held and `qgs status` saying the receiver "may have got it".
        from qgs_worker.config.settings import Settings
        from qgs_worker.errors import WebhookSecretMissingError
        from qgs_worker.webhooks import key_secrets
        from qgs_worker.webhooks.urls import webhook_secret_for

        path = tmp_path / key_secrets.MASTER_FILE
        if broken == "empty":
            path.write_text("")
        else:
            path.mkdir()
        made = create_key(repo, "p", master=MASTER)
        with pytest.raises(WebhookSecretMissingError, match="QGS_WEBHOOKS__MASTER_SECRET"):
            webhook_secret_for(
                None, Settings(data_dir=tmp_path), principal="p", key_id=made.key_id, store=repo
            )


class TestProblems:
    """Each error maps to its status, with the field and the fix lifted from its message."""

    @pytest.mark.parametrize(
        ("error", "status"),
        [
            (AuthenticationError("no API key: send one"), 401),
            (PermissionDeniedError("may not approve: make a key"), 403),
            (SubmissionNotFoundError("no submission"), 404),
            (DeliverableTooLargeError("'deliverable' is 3 bytes over"), 413),
            (InputError("'request' is empty: pass the user's request text"), 422),
            (BrokerUnavailableError("cannot reach the broker"), 503),
        ],
    )
    def test_status(self, error: Exception, status: int) -> None:
        found = problem_for(error)
        assert found is not None and status == found[0] == found[1]["status"]

    def test_field_and_fix(self) -> None:
        found = problem_for(InputError("'request' is empty: pass the user's request text"))
        assert found is not None
        assert [{"field": "request", "message": "'request' is empty: pass the user's request "
                 "text", "fix": "pass the user's request text"}] == found[1]["errors"]  # fmt: skip

    def test_unknown_error_is_none(self) -> None:
        assert problem_for(RuntimeError("boom")) is None

    def test_validation_errors(self) -> None:
        status, body = validation_problem(
            [{"type": "extra_forbidden", "loc": ("body", "finale"), "msg": "Extra inputs"}]
        )
        assert (422, "finale") == (status, body["errors"][0]["field"])
        status, _ = validation_problem([{"type": "json_invalid", "loc": ("body", 1), "msg": "x"}])
        assert 400 == status

    def test_a_lone_surrogate_names_the_field_and_says_what_to_send(self) -> None:
        """Break test: pydantic's "unable to parse raw data as a unicode string" was the message."""
        status, body = validation_problem(
            [{"type": "string_unicode", "loc": ("body", "request"),
              "msg": "Input should be a valid string, unable to parse raw data as a unicode string"}]
        )  # fmt: skip
        [error] = body["errors"]
        assert (422, "request") == (status, error["field"])
        assert "not valid UTF-8" in error["message"] and "surrogate" in error["message"]
        assert "errors='replace'" in error["fix"]


def test_an_approval_label_carries_the_calling_key() -> None:
    from qgs_worker.api.operations import Principal, approver_label
    from qgs_worker.service.approvals import APPROVER_MAX_CHARS

    me = Principal(name="alice", scopes=frozenset({"approve"}), key_id="k1")
    assert "ceo (via alice, key k1)" == approver_label("ceo", me)
    assert "alice (via alice, key k1)" == approver_label(None, me)
    assert "alice (via alice, key k1)" == approver_label("  ", me)
    room = APPROVER_MAX_CHARS - len(" (via alice, key k1)")
    fits = approver_label("x" * room, me)
    assert len(fits) == APPROVER_MAX_CHARS and fits.endswith("(via alice, key k1)")
    # A longer one is refused naming 'by' and its limit, like a long note (break test 22):
    # it was cut without a word.
    with pytest.raises(InputError, match=rf"'by' must be at most {room} characters"):
        approver_label("x" * (room + 1), me)


@pytest.mark.parametrize("key", ["", "a b", "ключ", "k" * 256])
def test_a_malformed_idempotency_key_is_a_422_naming_the_header(key: str) -> None:
    from qgs_worker.api.idempotency import check_key

    with pytest.raises(InputError) as info:
        check_key(key)
    found = problem_for(info.value)
    assert found is not None
    status, body = found
    assert (422, "Idempotency-Key") == (status, body["errors"][0]["field"])
