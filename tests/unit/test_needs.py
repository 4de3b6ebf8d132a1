"""`make test` names what it needs and lacks, with the command to get it."""

from __future__ import annotations

import pytest

from tests import needs


class TestNeeds:
    """Each missing program and service is one line naming its fix; nothing missing, no line."""

    def test_a_missing_program_is_named_with_its_install_command(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(needs.shutil, "which", lambda name: None if "chrom" in name else "/x")
        monkeypatch.setattr(needs, "listening", lambda port, **_: True)
        lines = needs.missing()
        assert 2 == len(lines)
        assert all("apt-get install" in line for line in lines)
        assert lines[0].startswith("chromium is not installed")

    def test_a_service_not_listening_says_how_to_start_it(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(needs.shutil, "which", lambda name: "/x")
        monkeypatch.setattr(needs, "listening", lambda port, **_: port != 6379)
        assert ["Redis"] == [line.split()[0] for line in needs.missing()]
        assert "redis-server --bind 127.0.0.1" in needs.missing()[0]

    def test_nothing_missing_prints_nothing(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(needs.shutil, "which", lambda name: "/x")
        monkeypatch.setattr(needs, "listening", lambda port, **_: True)
        assert 0 == needs.main()
        assert "" == capsys.readouterr().err
