"""File writes by tool calls (audit trail, persistence) and the shell lexer under them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.core.detectors import scan_tool_call
from qgs_worker.core.filewrites import classify_path, file_writes, scan_file_writes
from qgs_worker.core.models import Severity, ToolCall
from qgs_worker.core.shell import parse_shell

P1, P2, P4 = Severity.P1, Severity.P2, Severity.P4


def bash(command: str) -> ToolCall:
    return ToolCall(name="bash", arguments={"command": command})


def writes(call: ToolCall) -> list[tuple[str, str]]:
    return [(w.via, w.path) for w in file_writes(call)]


class TestShellLexer:
    """Quotes, operators and here-documents as POSIX defines them."""

    def test_quoted_angle_brackets_are_data(self) -> None:
        (command,) = parse_shell("echo '<h1>Ann</h1>' > site.html")
        assert ("echo", "<h1>Ann</h1>") == command.words
        assert ((">", "site.html"),) == command.redirects

    def test_pipelines_and_lists(self) -> None:
        commands = parse_shell("a | b > f; c && d 2>&1 | e >> g || h &")
        assert [c.words[0] for c in commands] == ["a", "b", "c", "d", "e", "h"]
        assert [c.redirects for c in commands] == [(), ((">", "f"),), (), (), ((">>", "g"),), ()]
        assert commands[0].pipeline == commands[1].pipeline == "a | b > f"

    def test_here_document_bodies_are_the_pipelines_data(self) -> None:
        source = "cat > page.html <<'EOF'\n<p>x > y</p>\nEOF\nls > /tmp/l"
        first, second = parse_shell(source)
        assert ((">", "page.html"),) == first.redirects
        assert "<p>x > y</p>" in first.pipeline
        assert ((">", "/tmp/l"),) == second.redirects

    @pytest.mark.parametrize(
        "source",
        [
            "[[ $a > $b ]] && echo yes",
            "(( n > 3 )) && echo yes",
            "python -c 'print(1 > 0)'",
            'echo "$(( 2 > 1 ))"',
            "cmd 2>&1 >&2",
            "grep x <<< 'a > b'",
            "diff <(sort a) <(sort b)",
            "# echo x > commented.txt",
        ],
    )
    def test_comparisons_and_duplications_are_not_writes(self, source: str) -> None:
        assert [] == [r for c in parse_shell(source) for r in c.redirects]

    @settings(max_examples=300, deadline=None)
    @given(st.text())
    def test_never_raises(self, source: str) -> None:
        parse_shell(source)
        file_writes(bash(source))


class TestShellWrites:
    """Every way the shell writes a file."""

    @pytest.mark.parametrize(
        ("command", "expected"),
        [
            ("echo hi > out.txt", [(">", "out.txt")]),
            ("echo hi >> log.txt", [(">>", "log.txt")]),
            ("make &> build.log", [(">", "build.log")]),
            ("echo x | sudo tee -a /etc/hosts > /dev/null", [("tee", "/etc/hosts")]),
            ("sed -i '1d' todo.txt", [("sed -i", "todo.txt")]),
            ("sed -i.bak -e 's/a/b/' a.txt b.txt", [("sed -i", "a.txt"), ("sed -i", "b.txt")]),
            ("cp -r src/ /srv/app/", [("cp", "/srv/app/")]),
            ("mv -t /opt/bin tool", [("mv", "/opt/bin")]),
            ("dd if=/dev/zero of=disk.img bs=1M count=1", [("dd", "disk.img")]),
            ("curl -sSL -o get.sh https://x.io/get.sh", [("curl -o", "get.sh")]),
            ("wget -O page.html https://x.io/", [("wget -O", "page.html")]),
            ("(crontab -l; echo '@reboot /tmp/x') | crontab -", [("crontab", "crontab")]),
        ],
    )
    def test_found(self, command: str, expected: list[tuple[str, str]]) -> None:
        assert expected == writes(bash(command))

    @pytest.mark.parametrize(
        "command",
        ["cat todo.txt", "ls 2>/dev/null", "sed -n '1p' f", "crontab -l", "curl https://x.io"],
    )
    def test_reads_are_not_writes(self, command: str) -> None:
        assert [] == writes(bash(command))


class TestToolWrites:
    """A tool whose name says it writes, with a path argument."""

    @pytest.mark.parametrize(
        ("name", "arguments", "path"),
        [
            ("write_file", {"path": "a.md", "content": "x"}, "a.md"),
            ("writeFile", {"filePath": "a.md", "text": "x"}, "a.md"),
            ("create_file", {"filename": "b.txt", "content": "x"}, "b.txt"),
            ("mv", {"source": "a", "destination": "/etc/b"}, "/etc/b"),
            ("echo", {"content": "x", "file_name": "n.txt"}, "n.txt"),
            ("append_to_file", {"file_id": "3", "content": "x"}, "file 3"),
            ("str_replace_based_edit_tool", {"command": "create", "path": "c.py"}, "c.py"),
            ("str_replace_based_edit_tool", {"command": "view", "path": "c.py"}, None),
            ("create_directory", {"path": "/etc/x"}, None),
            ("create_calendar_event", {"title": "x"}, None),
            ("read_file", {"path": "a.md"}, None),
        ],
    )
    def test_found(self, name: str, arguments: dict[str, Any], path: str | None) -> None:
        found = [w.path for w in file_writes(ToolCall(name=name, arguments=arguments))]
        assert ([] if path is None else [path]) == found


class TestSeverities:
    """P1 persistence and privilege files, P2 outside the working directory, P4 otherwise."""

    @pytest.mark.parametrize(
        ("path", "severity"),
        [
            ("~/.ssh/authorized_keys", P1),
            ("/root/.ssh/authorized_keys", P1),
            ("/etc/passwd", P1),
            ("/etc/shadow", P1),
            ("/etc/sudoers", P1),
            ("/etc/sudoers.d/agent", P1),
            ("/etc/crontab", P1),
            ("/etc/cron.d/job", P1),
            ("/var/spool/cron/crontabs/root", P1),
            ("crontab", P1),
            ("~/.bashrc", P1),
            ("$HOME/.zshrc", P1),
            ("/home/ann/.profile", P1),
            (".bashrc", P1),
            ("/etc/profile.d/x.sh", P1),
            ("/etc/ld.so.preload", P1),
            ("/etc/systemd/system/x.service", P1),
            ("/etc/rc.local", P1),
            ("/etc/nginx/nginx.conf", P2),
            ("/usr/local/bin/tool", P2),
            ("/srv/notes/job_notes.txt", P2),
            ("/var/www/html/index.html", P2),
            ("/opt/app/config.yml", P2),
            ("~/.aws/config", P2),
            ("~/.ssh/config", P2),
            ("../outside.txt", P2),
            (r"C:\Windows\System32\drivers\etc\hosts", P2),
            ("website.html", P4),
            ("./notes/todo.md", P4),
            ("/tmp/scratch.txt", P4),
            ("/var/tmp/x", P4),
            ("~/notes.txt", P4),
            ("/workspace/app/main.py", P4),
        ],
    )
    def test_by_path(self, path: str, severity: Severity) -> None:
        assert severity == classify_path(path)[0]

    def test_finding_names_tool_path_and_reason(self) -> None:
        (finding,) = scan_file_writes(bash("echo 'ssh-ed25519 AAAA' >> ~/.ssh/authorized_keys"))
        assert "file_write" == finding.category
        assert P1 == finding.severity
        assert finding.title.startswith("tool call bash writes ~/.ssh/authorized_keys: ")
        assert "T1098.004" in finding.title
        assert ">> ~/.ssh/authorized_keys" == finding.evidence
        assert "tool_call:bash.command" == finding.location

    def test_an_ordinary_write_is_an_audit_entry(self) -> None:
        findings = scan_tool_call(bash("python report.py > report.md"))
        assert [("file_write", P4, "tool call bash writes report.md")] == [
            (f.category, f.severity, f.title) for f in findings
        ]
