"""Paths: traversal out of where a tool should stay, secret files, and where a write plants persistence.

| rule | what | tool call | ``path`` argument | a file a tool call writes |
| --- | --- | --- | --- | --- |
| ``path_traversal`` | ``../`` twice or more, ``%2e%2e%2f`` twice, ``%00``, ``/etc/passwd`` / ``/etc/shadow`` | P2 | - | - |
| ``path_encoded_traversal`` | encoded traversal (``%2e%2e%2f``, double encoding ``%252e``, overlong UTF-8 ``%c0%ae``, ``%u002e``) (CWE-174) | - | P1 | - |
| ``path_nul_byte`` | a NUL byte, raw or ``%00`` (path truncation, CWE-158) | - | P1 | - |
| ``path_secret_file`` | a secret file: ``/etc/shadow``, ``~/.ssh/id_rsa``, ``~/.aws/credentials``, ``/proc/self/environ``, ``/var/run/secrets/``, ``SAM`` hives... (``SECRET_FILES``) | - | P1 | - |
| ``path_traversal_system`` | traversal (``../`` twice or more) that reaches a system directory (``SYSTEM_DIRS``) | - | P1 | - |
| ``path_probe_file`` | a probe target: ``/etc/passwd``, ``/etc/hosts``, ``win.ini``, ``boot.ini`` (OWASP WSTG-ATHZ-01) | - | P2 | - |
| ``path_traversal_climb`` | other traversal of two levels or more (``../../packages/core/index.ts``: ordinary in a monorepo) | - | P3 | - |
| ``file_write_persistence`` | a persistence or privilege file (``PERSISTENCE``, ``SHELL_RC``): ``authorized_keys``, ``/etc/sudoers``, crontabs, ``.bashrc``, ``/etc/ld.so.preload``, systemd units, ``/etc/rc.local`` (MITRE ATT&CK) | - | - | P1 |
| ``file_write_outside`` | outside the working directory: a system directory (``WRITE_SYSTEM_DIRS``), a dot directory of the home, a relative path that climbs out | - | - | P2 |
| ``file_write`` | any other file (``report.md``, ``/tmp/x``): an audit-trail entry | - | - | P4 |

``core/argscan.py`` applies the ``path`` rules, ``core/filewrites.py`` the file-write ones (in a
``command`` argument and in a tool call made alike).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import re

from qgs_worker.core.rules.base import P1, P2, P3, P4, Rule, rule

__all__ = [
    "ENCODED_TRAVERSAL",
    "PATH_NEEDLES",
    "PATH_TRAVERSAL",
    "PERSISTENCE",
    "PROBE_FILES",
    "RULES",
    "SECRET_FILES",
    "SHELL_RC",
    "SYSTEM_DIRS",
    "WRITE_SYSTEM_DIRS",
]

FAMILY = "paths"
_ATTACK = "MITRE ATT&CK T1098.004, T1136.001, T1548.003, T1053.003, T1546.004, T1574.006, T1543.002, T1037.004"

ENCODED_TRAVERSAL = re.compile(
    r"%(?:25)*2e%(?:25)*2e|\.\.%(?:25)*(?:2f|5c)|%c0%ae|%c0%af|%c1%9c|%u002e|%u2215|%u2216",
    re.IGNORECASE,
)
SECRET_FILES = re.compile(
    r"/etc/(?:shadow|gshadow|sudoers|master\.passwd)\b|/\.ssh/(?:id_[\w-]+|authorized_keys)"
    r"|/\.aws/credentials|/\.kube/config|/\.docker/config\.json|/\.git-credentials|/\.netrc"
    r"|/\.pgpass|/\.gnupg/|/proc/(?:self|\d+)/(?:environ|mem|maps)|/var/run/secrets/"
    r"|\\windows\\system32\\config\\(?:sam|system|security)\b",
    re.IGNORECASE,
)
PROBE_FILES = re.compile(
    r"/etc/(?:passwd|hosts|group|issue|hostname)\b|/proc/(?:self|\d+)/(?:cmdline|status)\b"
    r"|\bwin\.ini\b|\bboot\.ini\b",
    re.IGNORECASE,
)
SYSTEM_DIRS = frozenset(
    {"etc", "usr", "var", "root", "proc", "sys", "boot", "bin", "sbin", "dev", "windows", "winnt"}
)
"""First segments after a traversal that make it reach the system."""
PATH_NEEDLES = ("..", "%", "\x00", "/etc/", "/proc/", "/.", ".ini", "/var/run/", "\\windows")
"""Substrings one of which every ``path`` rule's match contains (a cheap pre-check)."""

SHELL_RC = frozenset(
    {
        ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
        ".zshenv", ".zprofile", ".zlogin", ".kshrc", ".cshrc", ".tcshrc", "config.fish",
    }
)  # fmt: skip
"""Shell start-up file names: a write there runs at every login (T1546.004)."""
PERSISTENCE = (
    (
        re.compile(r"(?:^|/)authorized_keys2?$"),
        "SSH authorized keys: persistent access (T1098.004)",
    ),
    (re.compile(r"^/etc/(?:passwd|shadow|group|gshadow)$"), "the account database (T1136.001)"),
    (re.compile(r"^/etc/sudoers(?:$|\.d/)"), "sudo rules: privilege escalation (T1548.003)"),
    (
        re.compile(r"^crontab$|^/etc/(?:crontab$|cron\.)|^/var/spool/cron/|^/etc/anacrontab$"),
        "a crontab: scheduled persistence (T1053.003)",
    ),
    (
        re.compile(r"^/etc/(?:profile$|profile\.d/|bash\.bashrc$|zsh/|environment$)"),
        "a shell start-up file: persistence (T1546.004)",
    ),
    (re.compile(r"^/etc/ld\.so\.preload$"), "the dynamic linker preload list (T1574.006)"),
    (
        re.compile(r"^(?:/etc|/lib|/usr/lib)/systemd/system/|^~/\.config/systemd/user/"),
        "a systemd unit: persistence (T1543.002)",
    ),
    (re.compile(r"^/etc/(?:rc\.local$|init\.d/)"), "a boot script: persistence (T1037.004)"),
)
"""Persistence and privilege files (normalized paths, ``~`` for the home), with why."""
WRITE_SYSTEM_DIRS = re.compile(
    r"^/(?!var/tmp(?:/|$))(?:etc|usr|srv|var|opt|boot|bin|sbin|lib|lib32|lib64|libx32|root|sys"
    r"|proc|dev|snap|Library|System|Applications|private/etc)(?:/|$)"
    r"|^[A-Za-z]:\\(?:Windows|Program Files|ProgramData)\\",
    re.IGNORECASE,
)
"""System directories a write lands outside the working directory in."""

# fmt: off
PATH_TRAVERSAL = rule(
    "path_traversal", FAMILY, "path_traversal",
    "a path traversal sequence",
    r"(?:\.\.[/\\]){2,}",
    r"(?:%2e%2e(?:%2f|%5c|/|\\)){2,}",
    r"%00",
    r"(?:^|[\s\"'=])/etc/(?:passwd|shadow)\b",
    tool_call=P2,
    source="CWE-22 (path traversal); OWASP WSTG-ATHZ-01; the Big List of Naughty Strings",
    needles=("..", "%2e", "%00", "/etc/"),
)

_PATH_CHECKS = (
    ("path_encoded_traversal", "path_traversal", "an encoded path traversal", P1, "CWE-22, CWE-174 (double decoding)"),
    ("path_nul_byte", "path_traversal", "a NUL byte (path truncation)", P1, "CWE-158 (null byte)"),
    ("path_secret_file", "sensitive_file", "a path to a secret file", P1, "CWE-22; CWE-538 (sensitive file exposure)"),
    ("path_traversal_system", "path_traversal", "a path traversal into a system directory", P1, "CWE-22"),
    ("path_probe_file", "sensitive_file", "a path to a system file", P2, "OWASP WSTG-ATHZ-01 (directory traversal, file include)"),
    ("path_traversal_climb", "path_traversal", "a path traversal", P3, "CWE-22"),
)
PATH_RULES: tuple[Rule, ...] = tuple(
    rule(rule_id, FAMILY, category, title, path=severity, source=source, matched_by="core/argscan.py")
    for rule_id, category, title, severity, source in _PATH_CHECKS
)
"""The ``path`` argument's checks (applied by ``argscan``: their logic splits segments)."""
FILE_WRITES: tuple[Rule, ...] = (
    rule("file_write_persistence", FAMILY, "file_write", "a write onto a persistence or privilege file", tool_call=P1, command=P1, source=_ATTACK, matched_by="core/filewrites.py"),
    rule("file_write_outside", FAMILY, "file_write", "a write outside the working directory", tool_call=P2, command=P2, source="CWE-73 (external control of file name or path)", matched_by="core/filewrites.py"),
    rule("file_write", FAMILY, "file_write", "a file write (audit trail)", tool_call=P4, source="DESIGN.md (every tool call is audited)", matched_by="core/filewrites.py"),
)
"""The file-write classes (applied by ``filewrites.classify_path``)."""
# fmt: on

RULES: tuple[Rule, ...] = (PATH_TRAVERSAL, *PATH_RULES, *FILE_WRITES)
