"""API keys (store/keys.py) and problem documents (api/problems.py), on an in-memory store."""

from __future__ import annotations

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


@pytest.fixture
def repo() -> Repository:
    return Repository("sqlite://")


class TestKeys:
    """A key is found by its id, checked by its salted hash, and revoked for good."""

    def test_made_verified_and_revoked(self, repo: Repository) -> None:
        made = create_key(repo, "deploy-bot", scopes=("approve",))
        found = verify_key(repo, made.key)
        assert found is not None
        assert ("deploy-bot", frozenset({"approve"})) == (found.principal, found.scopes)
        assert revoke_key(repo, made.key_id) is True
        assert verify_key(repo, made.key) is None
        assert revoke_key(repo, made.key_id) is False

    def test_a_wrong_secret_or_shape_is_refused(self, repo: Repository) -> None:
        made = create_key(repo, "a")
        key_id, secret = parse_key(made.key) or ("", "")
        other = "A" if secret[0] != "A" else "B"
        assert verify_key(repo, f"qgs_{key_id}_{other}{secret[1:]}") is None
        assert verify_key(repo, made.key[:-1]) is None
        assert verify_key(repo, "Bearer " + made.key) is None

    def test_the_secret_is_not_stored(self, repo: Repository) -> None:
        made = create_key(repo, "a")
        secret = made.key.rsplit("_", 1)[1]
        assert 1 == repo.count_rows(ApiKeyRow)
        from sqlmodel import Session, select

        with Session(repo.engine) as session:
            row = session.exec(select(ApiKeyRow)).one()
        assert secret not in str(row.model_dump())
        assert [made.key_id] == [k.key_id for k in list_keys(repo)]

    def test_webhook_secret_is_the_newest_live_keys(self, repo: Repository) -> None:
        assert webhook_secret(repo, "a") is None
        first = create_key(repo, "a")
        second = create_key(repo, "a")
        newest = max((first, second), key=lambda k: (k.key_id == second.key_id, k.key_id))
        assert newest.webhook_secret.encode() == webhook_secret(repo, "a")
        revoke_key(repo, first.key_id)
        revoke_key(repo, second.key_id)
        assert webhook_secret(repo, "a") is None

    @pytest.mark.parametrize("principal", ["", " a", "a b", "x" * 129, "a/b"])
    def test_bad_principal_names(self, repo: Repository, principal: str) -> None:
        with pytest.raises(InputError, match="'principal'"):
            create_key(repo, principal)

    def test_unknown_scope(self, repo: Repository) -> None:
        with pytest.raises(InputError, match="unknown scope 'admin'"):
            create_key(repo, "a", scopes=("admin",))


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
