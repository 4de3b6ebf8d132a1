r"""Injection checks of one tool-call argument, judged by what the argument is (tool gate, layer 6).

The pre-execution gate knows each parameter's kind (``ArgumentKind``: from the tool's schema, its
name or its description) and asks only the detectors that matter for it: ``rm -rf /`` inside a
``command`` is fatal, the same words in an e-mail ``body`` are prose. The kind also raises the
severity of injection syntax: ``' OR 1=1 --`` is P2 in an argument of unknown use
(``detectors.scan_tool_call``) and P1 in a SQL parameter, where it is the attack (OWASP Top 10
A03:2021 Injection).

| kind | what is checked | severity |
| --- | --- | --- |
| every kind | zero-width characters (U+200B-U+200D, U+2060, U+FEFF) are removed before any check | - |
| every kind | a JNDI lookup ``${jndi:...}``, obfuscated or not (CVE-2021-44228) | P1 |
| command | ``${IFS}`` / ``$IFS`` read as a space, and quoting the shell removes taken out (``shell.remove_quoting``: empty quotes, a backslash before a letter, quotes glued to a word: ``r''m``, ``r\m``, ``'r'm``), before every command check | - |
| command | destructive command (``rm -rf /``, ``mkfs``, ``dd of=/dev/sda``, fork bomb, ``chmod -R 777 /``), a download piped into a shell, a mass-deletion statement (``psql -c "DROP TABLE t"``, ``redis-cli FLUSHALL``) | P0 |
| command | infrastructure wiped by its own tool, where a command starts (not a ``grep`` for the words or a commit message): ``kubectl delete ns`` / ``--all``, ``aws s3 rm --recursive`` / ``rb --force``, ``aws s3api delete-bucket``, ``cloudformation delete-stack``, ``rds delete-db-*``, ``ec2 terminate-instances``, ``gsutil rm -r``, ``terraform destroy`` / ``apply -destroy``, ``az group`` / ``vm`` / ``aks delete`` | P0 |
| command | a reverse or bind shell (``nc -e /bin/sh``, ``nc.traditional -e``, ``bash -i >& /dev/tcp/h/p``, ``exec 5<>/dev/tcp/h/p`` whose lines are run, a Perl/Python/Ruby socket handed to ``/bin/sh``, ``sh -i`` piped into ``nc``, ``socat exec:sh``, a socket on the standard streams): P0 like a download piped into a shell, as it hands the host to whoever is at the other end; a port check (``echo > /dev/tcp/h/22``) is not one | P0 |
| command | a cloud metadata address (``curl 169.254.169.254``: instance credentials; NFKC first, for ``①⑥⑨.②⑤④...``) | P0 |
| command | a Shellshock function definition ``() { :; };`` (CVE-2014-6271) | P1 |
| command | a decoded payload piped into a shell (``base64 -d``, ``xxd -r``, ``openssl enc -d`` into ``sh``) | P1 |
| command | a write onto a persistence or privilege file / outside the working directory (``filewrites``) | P1 / P2 |
| command | command substitution or chaining into a second command (CWE-78), a code-execution primitive (``__import__``, ``os.system``, ``subprocess(..., shell=True)``, CWE-94): a command runs code by design, so these warn | P2 |
| sql | ``/* ... */`` read as a space (``drop/**/table``; MySQL's ``/*! ... */`` as its body), a ``-- `` comment outside quotes read both as written and as spaces (``SET a=1 -- WHERE id=5`` has no WHERE), and string literals skipped by the statement rules (this row and the P1 rows of ``UPDATE`` and privileges) when where each one ends is certain in every dialect: ``VALUES ('drop table is a bad idea')`` is data, ``x'; DROP TABLE t; --`` is not (an odd quote, a comment, a backslash, a dollar quote, a backquote or a bracket: nothing is skipped) | - |
| sql | ``DROP`` / ``TRUNCATE`` / ``DELETE`` without ``WHERE`` (also T-SQL's ``DELETE t``, any case) or with one always true (``1=1``, ``'a'='a'``, ``true``, or after its first ``OR``) / ``FLUSHALL``; a quoted name needs no space (``DROP TABLE"t"``) | P0 |
| sql | injection syntax: a tautology or ``UNION SELECT`` after a quote, a stacked statement after a number, time-based blind (``SLEEP``, ``WAITFOR DELAY``) (CWE-89, OWASP SQL Injection Prevention Cheat Sheet) | P1 |
| sql | a tautology without a quote (``OR 1=1``, ``OR x=x``), ``UNION SELECT`` of a credential column or system catalog (``password``, ``information_schema``, ``pg_shadow``) or of ``NULL, NULL`` (column probing), ``xp_cmdshell`` / ``COPY ... FROM`` or ``TO PROGRAM`` / ``INTO OUTFILE`` / ``LOAD_FILE`` | P1 |
| sql | a privilege change: ``GRANT``, ``CREATE`` / ``ALTER USER`` / ``ROLE`` | P1 |
| sql | ``UPDATE`` without ``WHERE`` or with one always true, ``ALTER TABLE ... DROP``, ``DROP INDEX / VIEW / USER / ROLE / FUNCTION`` | P1 |
| url | SSRF (``ssrf``): cloud metadata (address or name: ``instance-data``, ``metadata.google.internal``) P0; loopback (also ``0`` and ``0.0.0.0``), private, link-local, internal names, ``file://``, ``gopher://``, ``dict://`` P1; an encoded public IP P2 (CWE-918); the host read after NFKC (``①②⑦.0.0.1``, full-width digits) | P0 / P1 / P2 |
| url, html | character references decoded (``html.unescape``) before the script-URL / XSS checks, except those of ``<`` and ``>`` (``&lt;script&gt;`` is escaped text), and tabs and newlines inside a scheme ignored as a URL parser does (``&#106;avascript:``, ``java&#x09;script:``); evidence quotes the value as written | - |
| url | a script URL: ``javascript:``, ``vbscript:``, ``data:text/html`` (CWE-79) | P1 |
| path, url | shell syntax in the value: ``$(...)``, backticks, ``; cmd``, ``| cmd``, ``&& cmd``, ``() {`` (CWE-78, CWE-88: a tool may paste the value into a command line) | P1 |
| path | encoded traversal (``%2e%2e%2f``, double encoding ``%252e``), a NUL byte (CWE-22, CWE-158, CWE-174) | P1 |
| path | traversal (``../`` twice or more) that reaches a system directory; a secret file (``/etc/shadow``, ``~/.ssh/id_rsa``, ``~/.aws/credentials``, ``/proc/self/environ``...) | P1 |
| path | a probe target (``/etc/passwd``, ``/etc/hosts``, ``win.ini``, ``boot.ini``: OWASP WSTG-ATHZ-01) | P2 |
| path | other traversal of two levels or more (``../../packages/core/index.ts``: ordinary in a monorepo) | P3 |
| html | a ``<script>`` element, an event-handler attribute (``onerror=``), a ``javascript:`` / ``vbscript:`` / ``data:text/html`` URL (OWASP XSS Filter Evasion Cheat Sheet, CWE-79) | P1 |
| html | ``<base href>``, ``<meta http-equiv=refresh>``, ``<frameset>``; an ``<iframe>`` / ``<object>`` / ``<embed>`` whose source is a ``javascript:`` or ``data:`` URL | P2 |
| html | other ``<iframe>``, ``<object>``, ``<embed>`` (a YouTube embed) | P3 |
| free_text | prompt injection, jailbreak, system-prompt extraction (``detectors``' rules), a block of instructions aimed at an agent (``find_injected_instructions``' rule passages), read after NFKC and a small Cyrillic-to-Latin confusables map (``Ｉｇｎｏｒｅ``, ``Ignоre`` with a Cyrillic о) | P2 |
| free_text | the learned instruction detector (``instruction_model``), on values of three words or more (or four CJK characters): its own finding, ``rule="instruction_model"``, beside the rules'; P2 at or above its block threshold (0.1% false positives on benign training text), P3 between its two thresholds | P2 / P3 |

An ``html`` parameter is markup rendered for someone else (a comment, a message, a page
fragment); a whole page an agent writes as its own deliverable is better judged as free text.
Pure: stdlib and pydantic only (through ``models``).
"""

from __future__ import annotations

import bisect
import dataclasses
import html
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from qgs_worker.core import detectors, filewrites, shell, ssrf
from qgs_worker.core.models import ArgumentKind, Finding, Severity

__all__ = ["ArgumentKind", "keyword_pattern", "scan_argument"]

_P0, _P1, _P2, _P3 = Severity.P0, Severity.P1, Severity.P2, Severity.P3
_Rule = detectors._Rule
_rule = detectors._rule
_BY_ID: dict[str, _Rule] = {
    rule.rule_id: rule
    for table in (
        detectors._DESTRUCTIVE,
        detectors._MASS_DELETION,
        detectors._ARG_INJECTION,
        detectors._INJECTION,
    )
    for rule in table
}
_STATEMENTS = ("sql_drop", "sql_truncate", "sql_delete_all", "store_flush")
_IDENT = detectors._IDENT
_SEP = detectors._SEP
# a WHERE clause that holds for every row: 1=1, id=id, '1'='1', true, 1, not false, 1<>2
_ALWAYS = (
    r"(?:(?P<same>\d+|\w+)\s*=\s*(?P=same)(?![\w.])|'(?P<text>[^'\s]{0,40})'\s*=\s*'(?P=text)'"
    r"|(?P<num>\d+)\s*(?:<>|!=)\s*(?!(?P=num)\b)\d+\b|true\b|1\b|not\s+false\b)\s*(?=;|$|--|#)"
)
# The scheme names of script URLs, with the tabs and newlines a URL parser drops (``java\tscript:``)
_JS, _VBS, _DATA = (r"[\t\n\r]*+".join(word) for word in ("javascript", "vbscript", "data"))

# fmt: off
_SHELLSHOCK = _rule(
    "shellshock", "shell_injection",
    "a Shellshock function definition (CVE-2014-6271)",
    r"\(\)\s*\{\s*[^}]{0,40};\s*\}\s*;",
    prose=None, executed=_P1, needles=("()",),
)
# PostgreSQL / MySQL manuals: UPDATE without WHERE changes every row; dropping a column or an
# object is as irreversible as dropping a table.
_SQL_DDL = _rule(
    "sql_mass_change", "mass_deletion",
    "an UPDATE without WHERE (or always true), or a DROP of a column or schema object",
    # the run stops at WHERE or at the next UPDATE (where a new try starts: linear)
    rf"\bupdate{_SEP}{_IDENT}\s+set\s+(?:(?!\bwhere\b|\bupdate\b)[^;])*+(?:;|$)",
    rf"\bupdate{_SEP}{_IDENT}\s+set\s+(?:(?!\bwhere\b|\bupdate\b)[^;])*+\bwhere\s+{_ALWAYS}",
    # ... WHERE id = 5 OR 'x'='x': the first OR after the WHERE ends in a tautology
    rf"\bupdate{_SEP}{_IDENT}\s+set\s+(?:(?!\bwhere\b|\bupdate\b)[^;])*+\bwhere\b"
    rf"(?:(?!\bor\b|\bwhere\b)[^;])*+\bor\s+{_ALWAYS}",
    rf"\balter\s+table{_SEP}{_IDENT}\s+drop\b",
    r"\bdrop\s+(?:index|view|materialized\s+view|user|role|function|procedure|trigger|sequence)\b",
    prose=None, executed=_P1, needles=("update", "alter", "drop"),
)
_SCRIPT_URL = _rule(
    "script_url", "xss",
    "a script URL (javascript:, vbscript:, data:text/html)",
    rf"^[\x00-\x20]*+(?:{_JS}|{_VBS})\s*:", rf"^[\x00-\x20]*+{_DATA}\s*:\s*text/html",
    prose=None, executed=_P1, needles=("script", "data"),
)
_XSS_STRONG = _rule(
    "xss_script", "xss",
    "script injection markup (XSS)",
    r"<\s*script\b",
    r"<[a-z][^<>]{0,200}?[\s\"'/]on[a-z]{3,20}\s*=",
    # a script URL: the whole value, an attribute value, or code right after the colon
    rf"(?:^|=)\s*+(?:[\"']\s*+)?(?:{_JS}|{_VBS})\s*:|\b(?:{_JS}|{_VBS}):(?=\S)",
    rf"\b{_DATA}\s*:\s*text/html",
    r"\bsrcdoc\s*=",
    prose=None, executed=_P1, needles=("<", "script", "data"),
)
_XSS_WEAK = _rule(
    "xss_embed", "xss",
    "redirecting markup (base, meta refresh, frameset), or an embed of a script or data URL",
    r"<\s*(?:base|frameset)\b",
    r"<\s*meta\b[^>]{0,100}http-equiv\s*=\s*[\"']?refresh",
    r"<\s*(?:iframe|object|embed)\b[^<>]{0,300}?\b(?:src|data)\s*=\s*+(?:[\"']\s*+)?"
    rf"(?:{_JS}|{_VBS}|{_DATA})\s*:",
    prose=None, executed=_P2, needles=("<",),
)
_XSS_EMBED = _rule(
    "xss_frame", "xss",
    "embedding markup (iframe, object, embed)",
    r"<\s*(?:iframe|object|embed)\b",
    prose=None, executed=Severity.P3, needles=("<",),
)
# An obfuscated command: a payload decoded (base64, base32, hex) and piped or handed to a shell.
_DECODER = r"\b(?:base64|base32|basenc|xxd|openssl)\b"
_DECODE_TO_SHELL = _rule(
    "decode_to_shell", "shell_injection",
    "a decoded payload piped into a shell (obfuscated command)",
    # Linear: each run stops where a new try starts (the next decoder, the next ``$(``), and
    # the first decode flag is committed to (a later one finds no more).
    rf"(?>{_DECODER}(?:(?!{_DECODER})[^\n|;&])*?(?:\s-d\b|\s-D\b|--decode\b|\s-r\b|\s-p?r\b))"
    rf"(?:(?!{_DECODER})[^\n;&])*?\|\s*+(?:sudo\s+(?:-\S+\s+){{0,8}})?(?:ba|z|k|da|fi)?sh\b",
    r"\b(?:(?:ba|z|k|da)?sh\s+-c|eval)\s+[\"']?\$\((?>(?:(?!\$\()[^)])*?\b(?:base64|base32|xxd)\b)"
    r"(?:(?!\$\()[^)])*?(?:-d|--decode|-r)\b",
    prose=None, executed=_P1, needles=("base64", "base32", "basenc", "xxd", "openssl"),
)
# The shell-syntax rule, titled for a command argument (where it only warns).
_SHELL_IN_COMMAND = dataclasses.replace(
    _BY_ID["shell_metacharacters"],
    rule_id="shell_in_command",
    title="command substitution / chaining in a shell command (reported, not blocked)",
)
_SQL_MORE = _rule(
    "sql_injection_arg", "sql_injection",
    "SQL injection syntax",
    # a tautology without a quote: OR 1=1, OR x=x
    r"\bor\s+(\d+|\w+)\s*=\s*\1(?![\w.])",
    # UNION SELECT of credentials or the catalog, or NULL column probing
    # (the bounded runs stop at the next UNION / COPY / tag, where a new try starts)
    r"\bunion\s+(?:all\s+)?select\b(?:(?!\bunion\b)[^;]){0,200}?\b(?:password|passwd|pwd|passhash|password_hash"
    r"|secret|api_key|token|ssn|credit_card|information_schema|pg_shadow|pg_authid|pg_user"
    r"|mysql\.user|sqlite_master|sys\.\w+|load_file|@@version|version\s*\(|current_user|user\s*\()",
    r"\bunion\s+(?:all\s+)?select\s+null\s*,",
    # out of the database: OS commands and files
    r"\bxp_cmdshell\b|\bsp_oacreate\b|\bcopy\b(?:(?!\bcopy\b)[^;]){0,200}?\b(?:from|to)\s+program\b"
    r"|\binto\s+(?:out|dump)file\b|\bload_file\s*\(",
    prose=None, executed=_P1,
    needles=("or", "union", "xp_cmdshell", "sp_oacreate", "program", "file"),
)
# one rule with detectors' sql_injection patterns: one finding however many of them match
_SQL_INJECTION = dataclasses.replace(
    _SQL_MORE,
    patterns=_BY_ID["sql_injection"].patterns + _SQL_MORE.patterns,
    needles=_BY_ID["sql_injection"].needles + _SQL_MORE.needles,
)
_SQL_PRIVILEGE = _rule(
    "sql_privilege", "privilege_change",
    "a privilege change (GRANT, CREATE / ALTER USER or ROLE)",
    r"(?:^|;)\s*grant\s+\S",
    r"\b(?:create|alter)\s+(?:user|role|login)\b",
    prose=None, executed=_P1, needles=("grant", "user", "role", "login"),
)
# In a sql argument DELETE is a statement in any case; T-SQL's DELETE needs no FROM.
_DELETE_ALL = dataclasses.replace(
    _BY_ID["sql_delete_all"],
    title="a DELETE without a WHERE clause, or with one that is always true",
    patterns=_BY_ID["sql_delete_all"].patterns + tuple(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            rf"\bdelete(?:\s+from)?{_SEP}(?!(?:from|where)\b){_IDENT}"
            r"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s*(?=;|$|--|#)",
            rf"\bdelete(?:\s+from)?{_SEP}(?!(?:from|where)\b){_IDENT}"
            rf"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s+where\s+{_ALWAYS}",
            rf"\bdelete(?:\s+from)?{_SEP}(?!(?:from|where)\b){_IDENT}"
            rf"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s+where\b(?:(?!\bor\b|\bwhere\b)[^;])*+\bor\s+{_ALWAYS}",
        )
    ),
)
# Infrastructure wiped by its own tool: every object of a Kubernetes namespace or kind, a whole
# S3 / GCS bucket, a Terraform / OpenTofu / Pulumi stack, an Azure resource group.
# The tool's name must stand where a command starts (line start, after ; & | ( ` $( or a
# `-c "`), so a grep for the words, a commit message or a runbook line is not a wipe.
_AT_COMMAND = r"(?:^|(?<=[;&|(`\n])|(?<=\$\()|(?<=-c\s[\"']))\s*+(?:(?:sudo|env|exec|time|nohup)(?:\s+-\S+)*\s+)*"
_CLOUD_WIPE = _rule(
    "cloud_wipe", "destructive_command",
    "a deletion of a whole namespace, bucket, stack or resource group (kubectl, aws, terraform, az)",
    _AT_COMMAND + r"kubectl(?:\s+[^\s;&|]+){0,6}?\s+delete(?:\s+[^\s;&|]+){0,8}?\s+"
    r"(?:(?:ns|namespaces?)(?:/[^\s;&|]+)?(?=$|[\s;&|])|--all\b)",
    _AT_COMMAND + r"aws(?:\s+[^\s;&|]+){0,6}?\s+s3\s+(?:rm|rb)(?:\s+[^\s;&|]+){0,8}?\s+--(?:recursive|force)\b",
    _AT_COMMAND + r"aws(?:\s+[^\s;&|]+){0,6}?\s+(?:s3api\s+delete-bucket|cloudformation\s+delete-stack"
    r"|rds\s+delete-db-(?:instance|cluster)|dynamodb\s+delete-table|ec2\s+terminate-instances)\b",
    _AT_COMMAND + r"(?:gsutil|gcloud\s+storage)(?:\s+-\S+){0,4}\s+rm(?:\s+[^\s;&|]+){0,8}?\s+"
    r"(?:-[a-zA-Z]*[rR]\b|--recursive\b)",
    _AT_COMMAND + r"(?:terraform|tofu|pulumi)(?:\s+-\S+){0,4}\s+destroy\b",
    _AT_COMMAND + r"(?:terraform|tofu)(?:\s+-\S+){0,4}\s+apply(?:\s+[^\s;&|]+){0,8}?\s+-destroy\b",
    _AT_COMMAND + r"(?:az\s+(?:group|vm|aks|sql\s+(?:db|server)|storage\s+account)\s+delete\b"
    r"|gcloud\s+projects\s+delete\b)",
    prose=None, executed=_P0,
    needles=("kubectl", "aws", "gsutil", "gcloud", "terraform", "tofu", "pulumi", "az"),
)
# A reverse or bind shell: a shell whose input and output are a network socket (PayloadsAllTheThings,
# "Reverse Shell Cheatsheet"). A port check (``echo > /dev/tcp/host/22``) is not one.
_SHELL_PROGRAM = r"(?:/[\w/.-]*/)?(?:(?:ba|z|k|da|tc|fi)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?|python\d?|perl)\b"
_INTERACTIVE = r"\b(?:ba|z|k|da)?sh\s+-i\b"
_NETCAT = r"\b(?:nc|ncat|netcat|telnet)\b"
_REVERSE_SHELL = _rule(
    "reverse_shell", "reverse_shell",
    "a reverse or bind shell (a shell wired to a network socket)",
    rf"\b(?:nc|ncat|netcat)(?:\.\w+)?(?:\s+[^\s;&|]+){{0,8}}?\s+(?:-[a-zA-Z]*[ec]|--(?:sh-)?exec)[\s=]+[\"']?{_SHELL_PROGRAM}",
    r"(?:>&|&>)\s*/dev/(?:tcp|udp)/",
    # a socket opened read-write whose lines are run: exec 5<>/dev/tcp/h/p; ... do $line; done
    r"\d<>\s*/dev/(?:tcp|udp)/[^\n]{0,300}?\bwhile\s+read\s+(?:-\w+\s+)*(\w+)[^\n]{0,80}?\bdo\s+\$\{?\1\b",
    # a script language's socket handed to a shell (perl -e 'use Socket; ... exec("/bin/sh -i")')
    r"\b(?:perl|ruby|php|python\d?)\b[^\n]{0,300}?\bsocket\b[^\n]{0,600}?"
    r"(?:\bexec\s*\(?\s*[\"']/bin/(?:ba)?sh|pty\.spawn|subprocess\.call\(\s*\[?[\"']/bin/(?:ba)?sh)",
    r"/dev/(?:tcp|udp)/[^\s;&|/]+/\w+\s+0\s*[<>]&\s*[12]\b",
    rf"{_INTERACTIVE}[^\n;&|]{{0,40}}?[<>]\s*/dev/(?:tcp|udp)/",
    # the runs stop where a new try starts (linear)
    rf"{_INTERACTIVE}(?:(?!{_INTERACTIVE})(?:>&|[^\n;&|]))*+\|\s*+(?:{_NETCAT}|openssl\s+s_client\b)",
    rf"{_NETCAT}(?:(?!{_NETCAT})(?:>&|[^\n;&|]))*+\|\s*+(?:/[\w/.-]*/)?(?:ba|z|k|da)?sh\b",
    rf"\bsocat(?:\s+[^\s;&|]+){{0,6}}?\s+[\"']?(?:exec|system):[\"']?{_SHELL_PROGRAM}",
    # a script's socket on the standard streams: os.dup2(s.fileno(), 0); sh <&3 >&3 2>&3
    r"\bdup2\s*\(\s*\w+\.fileno\s*\(\s*\)\s*,\s*[012]\s*\)",
    r"<&\s*(\d+)\s+1?>&\s*\1\s+2>&\s*\1\b",
    prose=None, executed=_P0,
    needles=("/dev/tcp/", "/dev/udp/", "nc", "netcat", "telnet", "socat", "dup2", "<&", "socket"),
)
# fmt: on

_CHECKS: dict[ArgumentKind, tuple[tuple[_Rule, Severity], ...]] = {
    ArgumentKind.COMMAND: (
        *((rule, _P0) for rule in detectors._DESTRUCTIVE),
        (_CLOUD_WIPE, _P0),
        (_REVERSE_SHELL, _P0),
        *((_BY_ID[rule_id], _P0) for rule_id in _STATEMENTS),
        (_SHELLSHOCK, _P1),
        (_DECODE_TO_SHELL, _P1),
        (_SHELL_IN_COMMAND, _P2),
        (_BY_ID["code_execution"], _P2),
    ),
    ArgumentKind.SQL: (
        *(
            (_DELETE_ALL if rule_id == "sql_delete_all" else _BY_ID[rule_id], _P0)
            for rule_id in _STATEMENTS
        ),
        (_SQL_INJECTION, _P1),
        (_SQL_DDL, _P1),
        (_SQL_PRIVILEGE, _P1),
    ),
    ArgumentKind.URL: ((_SCRIPT_URL, _P1),),
    ArgumentKind.PATH: (),
    ArgumentKind.HTML: ((_XSS_STRONG, _P1), (_XSS_WEAK, _P2), (_XSS_EMBED, _P3)),
    ArgumentKind.FREE_TEXT: tuple((rule, _P2) for rule in detectors._INJECTION),
}


def keyword_pattern(needles: Iterable[str]) -> re.Pattern[str]:
    """One regex that finds any of ``needles`` (literal text), written as a trie.

    ``re`` tries the branches of ``a|b|c`` one by one at every position of the text; with the
    hundred-odd keywords of the free-text rules that was most of a clean argument's scan. As a
    trie (``i(?:gnore|nstruction)|d(?:an|isregard)``) a position costs one branch per distinct
    first character, about twice as fast on short values. Only whether it matches, and where,
    is meant: the matched text is the shortest keyword at the first position.
    """
    trie: dict[str, Any] = {}
    for needle in needles:
        node = trie
        for char in needle:
            node = node.setdefault(char, {})
        node[""] = {}  # a keyword ends here

    def render(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + render(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        # a keyword that ends here makes whatever follows optional
        return f"(?:{body})?" if "" in node else body

    return re.compile(render(trie))


# each rule's keywords as one compiled trie: one C-level scan instead of a Python loop
_NEEDLES: dict[str, re.Pattern[str]] = {
    rule.rule_id: keyword_pattern(rule.needles)
    for checks in _CHECKS.values()
    for rule, _ in checks
    if rule.needles
}

# Per kind, every rule's keywords in one pattern, when every rule of the kind has keywords
# (None otherwise: then the rules run one by one).
_ANY_NEEDLE: dict[ArgumentKind, re.Pattern[str] | None] = {
    kind: keyword_pattern(n for rule, _ in checks for n in rule.needles)
    if checks and all(rule.needles for rule, _ in checks)
    else None
    for kind, checks in _CHECKS.items()
}


def scan_argument(
    value: str, kind: ArgumentKind | str, *, location: str, tool: str = ""
) -> list[Finding]:
    """Check one argument value with the detectors of its kind (the module's table).

    Fast on the hot path: every rule first looks for a keyword of its own (a few microseconds
    for a short value that has none).

    Args:
        value: The argument's string value, any length.
        kind: What the argument carries; an ``ArgumentKind`` or its value (``"sql"``), so an
            equal enum defined elsewhere is accepted too.
        location: The ``Finding.location`` to report, e.g. ``tool_call:run_query.sql``.
        tool: The tool's name, used in titles ("tool call run_query carries ...").

    Returns:
        Deduplicated findings, each with its evidence (secrets never shown), at the severity
        the table gives for this kind; empty when the value is clean.

    Raises:
        ValueError: ``kind`` is not one of the ``ArgumentKind`` values.
    """
    if type(kind) is not ArgumentKind:
        kind = ArgumentKind(kind)
    where = f"tool call {tool} carries" if tool else "argument carries"
    if not value.isascii():
        value = value.translate(_ZERO_WIDTH)
        if kind is ArgumentKind.FREE_TEXT:
            value = _unconfuse(value)
    if kind is ArgumentKind.COMMAND and "$" in value and "IFS" in value:
        value = _IFS.sub(" ", value)
    lowered = value.lower()
    views, shown = _views(value, lowered, kind)
    any_needle = _ANY_NEEDLE[kind]
    plain = views[""]
    if any_needle is None:
        keyword = True
    elif len(plain) == 1:  # most values have one view: no generator on the hot path
        keyword = any_needle.search(plain[0].lowered) is not None
    else:
        keyword = any(any_needle.search(view.lowered) is not None for view in plain)
    # no keyword of any rule of this kind: one search instead of one per rule
    findings = list(_run(_CHECKS[kind], views, shown, location, where)) if keyword else []
    findings.extend(detectors._jndi(value, location, where=where, severity=_P1))
    if kind is ArgumentKind.COMMAND:
        findings.extend(_command_extras(value, location, tool))
    elif kind is ArgumentKind.URL:
        findings.extend(_ssrf(value, location, where))
        findings.extend(_shell_in_value(value, location, where))
    elif kind is ArgumentKind.PATH:
        findings.extend(_path(value, lowered, location, where))
        findings.extend(_shell_in_value(value, location, where))
    elif (
        kind is ArgumentKind.FREE_TEXT
        and _may_carry_passages(value, lowered, keyword)
        and not any(
            f.category in {"prompt_injection", "jailbreak", "prompt_extraction"} for f in findings
        )
    ):
        passages = detectors._passages(value).rules  # the model's passages: its own finding below
        if passages:
            findings.append(
                _finding(_P2, "prompt_injection", f"{where} instructions aimed at an agent",
                         detectors._clip(passages[0]), location)
            )  # fmt: skip
    if kind is ArgumentKind.FREE_TEXT and _MODEL_WORTHY.search(value) is not None:
        findings.extend(detectors.model_findings(value, location=location, where=where, gate=True))
    return detectors._dedupe(findings)


# The learned detector reads free text of three words or more: a name, a date or an id gives it
# nothing to read, and skipping them keeps short values within the gate's microsecond budget.
_MODEL_WORTHY = re.compile(r"\S\s+\S+\s+\S|[\u3040-\u30ff\u3400-\u9fff]{4}")


def _may_carry_passages(value: str, lowered: str, keyword: bool) -> bool:
    """A cheap test before ``find_injected_instructions``: a tag, or one of its trigger words.

    Most free-text arguments are short values (a city, a title) with neither; skipping them
    keeps the injection layer within the gate's microsecond budget. ``keyword`` says whether
    the kind's keyword search found anything: the trigger words are among those keywords, so
    when it found none they need no search of their own.
    """
    if "<" in value or "\\" in value:
        return True
    return keyword and _OVERRIDE_NEEDLES.search(lowered) is not None


_OVERRIDE_NEEDLES = keyword_pattern(detectors._OVERRIDE.needles)


# --- normalization before the checks ---------------------------------------------------------
# Invisible characters split a keyword (``rm\u200b -rf /``); ``${IFS}`` is a space to the shell;
# full-width letters and Cyrillic look-alikes hide an English keyword from the prompt rules.
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
_IFS = re.compile(r"\$\{IFS\}|\$IFS(?![A-Za-z0-9_])")
_CONFUSABLES = str.maketrans("аеорсухіАЕОРСУХІ", "aeopcyxiAEOPCYXI")


def _unconfuse(value: str) -> str:
    """NFKC (full-width and compatibility forms) and Cyrillic look-alikes as Latin letters."""
    return unicodedata.normalize("NFKC", value).translate(_CONFUSABLES)


class _View(NamedTuple):
    """One form of the value that rules read.

    Attributes:
        text: The form itself.
        lowered: Its lower-case form, for the keyword searches only.
        origin: For a form of another length, where its characters come from: sorted view
            offsets and the value offsets they start at; None when offsets are the value's.
    """

    text: str
    lowered: str
    origin: tuple[list[int], list[int]] | None = None


# Rules that read a view other than the default ("") when the kind makes one: the SQL
# statement rules read "code", where string literals are blanked.
_VIEW_OF: dict[str, str] = dict.fromkeys((*_STATEMENTS, "sql_mass_change", "sql_privilege"), "code")


def _views(
    value: str, lowered: str, kind: ArgumentKind
) -> tuple[dict[str, tuple[_View, ...]], str]:
    """The forms of the value the kind's rules read, and the text their evidence quotes.

    Returns:
        Views by name ("" for every rule, "code" for the SQL statement rules; a rule matches
        when one of its views matches), and the value evidence is taken from: the value as
        written, except for a command, whose normalized form is what the checks understood.
    """
    plain: tuple[_View, ...] = (_View(value, lowered),)
    if kind is ArgumentKind.COMMAND:
        flat = shell.remove_quoting(value)
        return ({"": (_View(flat, flat.lower()),)}, flat) if flat != value else ({"": plain}, value)
    if kind is ArgumentKind.SQL:
        uncommented = _sql_uncommented(value)
        if uncommented is not None:
            plain = (*plain, _View(uncommented, uncommented.lower()))
        unlined = _sql_without_line_comments(uncommented or value)
        if unlined is not None:  # UPDATE t SET a=1 -- WHERE id = 5: the WHERE never runs
            plain = (*plain, _View(unlined, unlined.lower()))
        code = _sql_code(value)
        return {"": plain, "code": plain if code is None else (_View(code, code.lower()),)}, value
    if kind is ArgumentKind.HTML or kind is ArgumentKind.URL:
        decoded = _html_decoded(value) if "&" in value else None
        view = decoded or plain[0]
        if "\t" in value or "\n" in value or "\r" in value:  # java\tscript: has no "script"
            view = view._replace(lowered=view.lowered.translate(_URL_BLANKS))
        return {"": (view,)}, value
    return {"": plain}, value


# --- SQL: comments and string literals ----------------------------------------------------------
# ``DROP/**/TABLE`` is DROP TABLE (a comment is a space); MySQL runs the body of ``/*! ... */``.
# The statement rules skip string literals (``VALUES ('drop table is a bad idea')``) only when
# where a literal ends is certain in every dialect: no comment, backslash, backquote, bracket or
# dollar quote outside literals, no backslash or quote inside them, every quote closed.
_MYSQL_EXECUTED = re.compile(r"/\*!\d{0,6}")
_SQL_QUOTE = re.compile(r"""['"]""")
_SQL_LITERAL = re.compile(r"'(?:[^'\\]|'')*+'")
_SQL_QUOTED_NAME = re.compile(r'"[^"\\\']*+"')
_SQL_UNSURE = re.compile(r"/\*|--|#|[`\[\\]|\$\w*\$")


_LINE_COMMENT = re.compile(r"--(?=\s|$)[^\n]*")


def _sql_without_line_comments(value: str) -> str | None:
    """``-- ...`` comments as spaces, outside single-quoted text; None when there is none.

    A space after the dashes is every dialect's form; a comment is outside text when an even
    number of single quotes comes before it.
    """
    if "--" not in value:
        return None
    pieces: list[str] = []
    pos = 0
    quotes = 0  # single quotes before ``counted``, counted once each (linear)
    counted = 0
    for comment in _LINE_COMMENT.finditer(value):
        quotes += value.count("'", counted, comment.start())
        counted = comment.start()
        if quotes % 2:
            continue  # inside a literal ('a -- b')
        pieces.append(value[pos : comment.start()] + " " * (comment.end() - comment.start()))
        pos = comment.end()
    if not pieces:
        return None
    return "".join(pieces) + value[pos:]


def _sql_uncommented(value: str) -> str | None:
    """``/* ... */`` comments as spaces, the length kept; None when the value has none."""
    start = value.find("/*")
    if start < 0:
        return None
    pieces: list[str] = []
    pos = 0
    while start >= 0:
        end = value.find("*/", start + 2)
        if end < 0:
            break  # an unclosed comment: left as written
        pieces.append(value[pos:start])
        executed = _MYSQL_EXECUTED.match(value, start)
        if executed is not None:  # /*!50000 DROP */: only the markers go
            pieces.append(" " * (executed.end() - start) + value[executed.end() : end] + "  ")
        else:
            pieces.append(" " * (end + 2 - start))
        pos = end + 2
        start = value.find("/*", pos)
    pieces.append(value[pos:])
    return "".join(pieces)


def _sql_code(value: str) -> str | None:
    """The value with every string literal that could hold a statement blanked, the length kept.

    A literal with a space in it is blanked (every statement rule needs a space between its
    keywords); a short one stays, so ``WHERE '1'='1'`` still reads as always true.

    Returns:
        None when there is no such literal, or when where a literal ends is not certain.
    """
    if "'" not in value:
        return None
    pieces: list[str] = []
    pos = 0
    blanked = False
    while (quote := _SQL_QUOTE.search(value, pos)) is not None:
        between = value[pos : quote.start()]
        if _SQL_UNSURE.search(between):
            return None
        literal = quote.group() == "'"
        token = (_SQL_LITERAL if literal else _SQL_QUOTED_NAME).match(value, quote.start())
        if token is None:
            return None  # not closed, or a backslash escape / a quote in a name: dialects differ
        text = token.group()
        if literal and re.search(r"\s", text):
            text = "'" + " " * (len(text) - 2) + "'"
            blanked = True
        pieces += (between, text)
        pos = token.end()
    rest = value[pos:]
    if not blanked or _SQL_UNSURE.search(rest):
        return None
    return "".join((*pieces, rest))


# --- html: character references -------------------------------------------------------------------
# A browser decodes character references in attribute values before it reads a URL, and drops
# tabs and newlines from the URL: ``&#106;avascript:``, ``&#x6A;avascript:`` and ``java&#x09;script:``
# are all javascript:. References to < and > stay as written: ``&lt;script&gt;`` is escaped text.
_CHARREF = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")  # as html's
_URL_BLANKS = dict.fromkeys(map(ord, "\t\n\r"))


def _html_decoded(value: str) -> _View | None:
    """The value with its character references decoded (``html.unescape``), or None if none."""
    pieces: list[str] = []
    view_at, value_at = [0], [0]
    pos = length = 0
    for ref in _CHARREF.finditer(value):
        char = html.unescape(ref.group())
        if char == ref.group() or "<" in char or ">" in char:
            continue
        before = value[pos : ref.start()]
        pieces += (before, char)
        length += len(before)
        view_at.append(length)
        value_at.append(ref.start())
        length += len(char)
        view_at.append(length)
        value_at.append(ref.end())
        pos = ref.end()
    if not pieces:
        return None
    pieces.append(value[pos:])
    text = "".join(pieces)
    return _View(text, text.lower(), (view_at, value_at))


def _run(
    checks: Sequence[tuple[_Rule, Severity]],
    views: dict[str, tuple[_View, ...]],
    shown: str,
    location: str,
    where: str,
) -> Iterator[Finding]:
    found: dict[str, Severity] = {}  # category -> the severity it was found at
    for rule, severity in checks:
        if rule.category in found and found[rule.category] is not severity:
            continue  # a weaker rule of a category already found (checks go P0 -> P2)
        needles = _NEEDLES.get(rule.rule_id)
        for view in views.get(_VIEW_OF.get(rule.rule_id, ""), ()) or views[""]:
            if needles is not None and needles.search(view.lowered) is None:
                continue
            match = detectors._first_match(rule, view.text)
            if match is not None:
                found[rule.category] = severity
                evidence = _evidence(shown, view, match, rule)
                yield _finding(severity, rule.category, f"{where} {rule.title}", evidence, location)
                break


def _evidence(shown: str, view: _View, match: re.Match[str], rule: _Rule) -> str:
    """The match in the value as written (a view may have blanked or decoded parts of it)."""
    if view.text is shown:
        return detectors._evidence(shown, match, rule.secret_group)
    start, end = match.span()
    if view.origin is not None:
        start, end = _in_value(view.origin, start), _in_value(view.origin, end)
    around = detectors._CONTEXT_CHARS
    return detectors._clip(shown[max(0, start - around) : end + around])


def _in_value(origin: tuple[list[int], list[int]], index: int) -> int:
    """Where a view's character ``index`` comes from in the value (``_View.origin``)."""
    view_at, value_at = origin
    segment = bisect.bisect_right(view_at, index) - 1
    return value_at[segment] + index - view_at[segment]


def _finding(
    severity: Severity, category: str, title: str, evidence: str, location: str
) -> Finding:
    return Finding(
        role=detectors.DETECTOR_ROLE,
        category=category,
        severity=severity,
        title=title,
        evidence=evidence,
        location=location,
    )


_METADATA_NEEDLES = ("169.254", "metadata", "fd00:ec2", "100.100", "192.0.0.192", "instance-data")


def _command_extras(value: str, location: str, tool: str) -> Iterator[Finding]:
    for write in filewrites.shell_command_writes(value, location):
        severity, why = filewrites.classify_path(write.path)
        if severity in {_P1, _P2}:
            title = f"{'tool call ' + tool if tool else 'command'} writes {write.path}: {why}"
            yield _finding(severity, "file_write", title, f"{write.via} {write.path}", location)
    probe = value if value.isascii() else unicodedata.normalize("NFKC", value)  # ①⑥⑨.②⑤④...
    if any(needle in probe for needle in _METADATA_NEEDLES):
        for target in ssrf.find_ssrf(value):
            if target.severity is _P0:
                title = f"{'tool call ' + tool if tool else 'command'} fetches {target.reason}"
                yield _finding(_P0, "ssrf", title, target.url, location)


def _ssrf(value: str, location: str, where: str) -> Iterator[Finding]:
    for target in ssrf.find_ssrf(value, whole=True):
        title = f"{where} {target.reason} (SSRF)"
        yield _finding(target.severity, "ssrf", title, target.url, location)


# --- shell syntax in a value ------------------------------------------------------------------
# A path or URL that a tool may paste into a shell command line (CWE-78 OS command injection,
# CWE-88 argument injection): command substitution, backticks, a second command after ; | &,
# or a Shellshock function. None of these belong in a file name or a URL.
_SHELL_IN_VALUE = re.compile(
    r"\$\((?:(?!\$\()[^)])*+\)|`[^`]+`|\(\)\s*\{|(?:^|[;&|\n])\s*(?:touch|rm|curl|wget|nc|ncat|bash|sh|zsh"
    r"|cat|id|whoami|uname|chmod|chown|python\d?|perl|ruby|php|ls|echo|ping|nslookup|sleep)\b"
)
_SHELL_NEEDLES = ("$(", "`", "()", ";", "|", "&", "\n")


def _shell_in_value(value: str, location: str, where: str) -> Iterator[Finding]:
    if not any(needle in value for needle in _SHELL_NEEDLES):
        return
    match = _SHELL_IN_VALUE.search(value)
    if match is not None:
        title = f"{where} shell syntax in a value a tool may pass to a shell (CWE-78, CWE-88)"
        yield _finding(_P1, "shell_injection", title, detectors._clip(value), location)


# --- paths ------------------------------------------------------------------------------------
_ENCODED = re.compile(
    r"%(?:25)*2e%(?:25)*2e|\.\.%(?:25)*(?:2f|5c)|%c0%ae|%c0%af|%c1%9c|%u002e|%u2215|%u2216",
    re.IGNORECASE,
)
_SECRET_FILES = re.compile(
    r"/etc/(?:shadow|gshadow|sudoers|master\.passwd)\b|/\.ssh/(?:id_[\w-]+|authorized_keys)"
    r"|/\.aws/credentials|/\.kube/config|/\.docker/config\.json|/\.git-credentials|/\.netrc"
    r"|/\.pgpass|/\.gnupg/|/proc/(?:self|\d+)/(?:environ|mem|maps)|/var/run/secrets/"
    r"|\\windows\\system32\\config\\(?:sam|system|security)\b",
    re.IGNORECASE,
)
_PROBE_FILES = re.compile(
    r"/etc/(?:passwd|hosts|group|issue|hostname)\b|/proc/(?:self|\d+)/(?:cmdline|status)\b"
    r"|\bwin\.ini\b|\bboot\.ini\b",
    re.IGNORECASE,
)
_SYSTEM_DIRS = frozenset(
    {"etc", "usr", "var", "root", "proc", "sys", "boot", "bin", "sbin", "dev", "windows", "winnt"}
)
_PATH_NEEDLES = ("..", "%", "\x00", "/etc/", "/proc/", "/.", ".ini", "/var/run/", "\\windows")


def _path(value: str, lowered: str, location: str, where: str) -> Iterator[Finding]:
    if not any(needle in lowered for needle in _PATH_NEEDLES):
        return
    shown = detectors._clip(value)
    encoded = _ENCODED.search(value)
    if encoded or "%00" in value or "\x00" in value:
        why = "an encoded path traversal" if encoded else "a NUL byte (path truncation)"
        yield _finding(_P1, "path_traversal", f"{where} {why}", shown, location)
    secret = _SECRET_FILES.search(value)
    if secret:
        yield _finding(_P1, "sensitive_file", f"{where} a path to a secret file", shown, location)
    segments = [s for s in re.split(r"[/\\]", value) if s not in {"", "."}]
    climbs = segments.count("..")
    if climbs >= 2:
        after = segments[len(segments) - segments[::-1].index("..") :]
        into_system = bool(after) and after[0].lower() in _SYSTEM_DIRS
        severity = _P1 if into_system else _P3
        why = "a path traversal into a system directory" if into_system else "a path traversal"
        yield _finding(severity, "path_traversal", f"{where} {why}", shown, location)
    elif not secret and _PROBE_FILES.search(value):
        yield _finding(_P2, "sensitive_file", f"{where} a path to a system file", shown, location)
