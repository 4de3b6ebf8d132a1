"""Free text a person types (``core.free_text``) and the CLI's ``--by`` / ``--note`` (issue 33).

``qgs shadow rule sql_drop --on --note x --by $'\\u200b'`` exited 0: a name of zero-width
characters names nobody, so it is blank; a control character is refused.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.core.free_text import bad_control, check_free_text, is_blank


@pytest.mark.parametrize("text", ["", " ", "\u200b", " \u2060\u200d\t", "\ufeff\n", None])
def test_blank_once_format_and_space_characters_are_removed(text: str | None) -> None:
    assert is_blank(text)


@pytest.mark.parametrize("text", ["a", "a\u200b", "\u200bolivia", "確認"])
def test_text_is_not_blank(text: str) -> None:
    assert not is_blank(text)


def test_control_characters_other_than_tab_and_newline_are_refused() -> None:
    assert bad_control("a\tb\nc\r\n") is None
    assert "U+0000" == bad_control("nul\u0000here")
    assert "U+001B" == bad_control("\u001b[2J")
    assert "U+007F" == bad_control("\u007f")
    with pytest.raises(ValueError, match="'note' holds the control character U\\+0000"):
        check_free_text("a\u0000", "note")
    assert "plain" == check_free_text("plain", "note")


@pytest.mark.parametrize(
    ("by", "note", "said"),
    [
        ("\u200b", "x", "'--by' is required"),
        ("olivia", "\u200b\u2060", "'note' is required"),
        ("oli\u0000via", "x", "'--by' holds the control character U+0000"),
        ("olivia", "a\u0007", "'--note' holds the control character U+0007"),
    ],
)
def test_qgs_shadow_refuses_a_blank_or_controlled_by_and_note(
    by: str, note: str, said: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(
        app, ["shadow", "rule", "sql_drop", "--on", "--note", note, "--by", by]
    )
    assert 0 != result.exit_code, result.output
    said_all = " ".join(f"{result.output} {result.exception or ''}".split())
    assert said in said_all, said_all


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--by", "\u200b"], "'--by' is required"),
        (["--by", "alice", "--reject", "--note", "\u200b"], "'--note' is required"),
    ],
)
def test_qgs_approve_refuses_a_blank_by_and_note(args: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["approve", "t-1", *args])
    assert 0 != result.exit_code, result.output
    said_all = " ".join(f"{result.output} {result.exception or ''}".split())
    assert said in said_all, said_all


def test_a_key_note_with_a_nul_is_refused(tmp_path: object) -> None:
    from qgs_worker.errors import InputError
    from qgs_worker.store import Repository
    from qgs_worker.store.keys import create_key

    repo = Repository(f"sqlite:///{tmp_path}/q.db")
    try:
        with pytest.raises(InputError, match="'--note' holds the control character U\\+0000"):
            create_key(repo, "alice", master=b"m" * 32, note="ci\u0000")
        assert create_key(repo, "alice", master=b"m" * 32, note="ci\tkey").principal == "alice"
    finally:
        repo.dispose()


def test_the_approval_service_refuses_control_characters_from_any_face() -> None:
    """The console's forms and the Python client reach ``service.approvals.approve`` directly."""
    from qgs_worker.errors import InputError
    from qgs_worker.service.approvals import approve

    class NoStore:
        def approval_target(self, task_id: str) -> None:
            raise AssertionError("the input is refused before the store is read")

    for by, note in (("ann\x00", "ok"), ("ann", "bad\x00note"), ("\u200b", "ok")):
        with pytest.raises(InputError):
            approve(NoStore(), "t-1", by=by, note=note, reject=False)  # type: ignore[arg-type]
