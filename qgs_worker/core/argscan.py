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
| command | code that hides what it runs: ``__import__('os')``, a sandbox-escape walk (``__mro__``, ``__subclasses__``, ``__globals__``), ``eval(compile(...))`` / of decoded text, a spawn inside string interpolation (Perl ``@{[ system ... ]}``, Ruby ``#{`...`}``) (CWE-94, CWE-95); a raw network socket opened by code (``socket.socket``, ``fsockopen``, ``TCPSocket.open``: how every reverse shell starts); code that writes onto a persistence file (``open('~/.bashrc', 'a')``) | P1 |
| command | command substitution or chaining into a second command (CWE-78); code that spawns a process (``os.system``, ``subprocess``, ``pty.spawn``, ``Kernel.exec``, ``%x()``, ``shell_exec``, ``passthru``, ``proc_open``, ``popen``, ``child_process``, ``Runtime.exec``), writes a file (``open(..., 'w')``, ``write_text``, ``fs.writeFile``, ``file_put_contents``) or sends a request (``requests``, ``urllib``, ``fetch``, ``Net::HTTP``); a force push (``git push --force``, git-push(1)): a command runs code by design, so these warn | P2 |
| sql | ``/* ... */`` read as a space (``drop/**/table``; MySQL's ``/*! ... */`` as its body), a ``-- `` comment outside quotes read both as written and as spaces (``SET a=1 -- WHERE id=5`` has no WHERE), and string literals skipped by the statement rules (this row and the P1 rows of ``UPDATE`` and privileges) when where each one ends is certain in every dialect: ``VALUES ('drop table is a bad idea')`` is data, ``x'; DROP TABLE t; --`` is not (an odd quote, a comment, a backslash, a dollar quote, a backquote or a bracket: nothing is skipped) | - |
| sql | ``DROP`` / ``TRUNCATE`` / ``DELETE`` without ``WHERE`` (also T-SQL's ``DELETE t``, any case) or with one always true (``1=1``, ``'a'='a'``, ``true``, or after its first ``OR``) / ``FLUSHALL``; a quoted name needs no space (``DROP TABLE"t"``) | P0 |
| sql | injection syntax: a tautology or ``UNION SELECT`` after a quote, a stacked statement after a number, time-based blind (``SLEEP``, ``WAITFOR DELAY``) (CWE-89, OWASP SQL Injection Prevention Cheat Sheet) | P1 |
| sql | a tautology without a quote (``OR 1=1``, ``OR x=x``), ``UNION SELECT`` of a credential column or system catalog (``password``, ``information_schema``, ``pg_shadow``) or of ``NULL, NULL`` (column probing), ``xp_cmdshell`` / ``COPY ... FROM`` or ``TO PROGRAM`` / ``INTO OUTFILE`` / ``LOAD_FILE`` | P1 |
| sql | a statement, ``;`` or comment right after a quote that closes the query's literal (the value's single quotes are odd in number: ``';shutdown --``, ``' INSERT INTO ...``, ``admin'--``); a stacked statement after such a quote or after a number (``10; DROP``, ``1); DELETE`` with a parenthesis it did not open) | P1 |
| sql | SQL built from pieces to hide a keyword: ``EXEC('SEL' + 'ECT *')``, ``EXECUTE IMMEDIATE 'a' || b``, a keyword across joined literals (``'DR' || 'OP'``, ``CONCAT('UNI', 'ON')``) or in character codes (``CHAR(68)+CHAR(82)+...``) | P1 |
| sql | a conditional on constants (``CASE WHEN (1=1)``, ``IF(1=1, ...)``, ``IIF(1=2, ...)``: boolean-based blind); an ``OR`` always true (``OR 2>1``, ``OR (1=1)``, ``OR NOT 0``, ``OR 1<>2``, evaluated) | P1 |
| sql | a privilege change: ``GRANT``, ``CREATE`` / ``ALTER USER`` / ``ROLE`` | P1 |
| sql | ``UPDATE`` without ``WHERE`` or with one always true, ``ALTER TABLE ... DROP``, ``DROP INDEX / VIEW / USER / ROLE / FUNCTION`` | P1 |
| url | SSRF (``ssrf``): cloud metadata (address or name: ``instance-data``, ``metadata.google.internal``) P0; loopback (also ``0`` and ``0.0.0.0``), private, link-local, internal names, ``file://``, ``gopher://``, ``dict://`` P1; an encoded public IP P2 (CWE-918); the host read after NFKC (``①②⑦.0.0.1``, full-width digits) | P0 / P1 / P2 |
| url, html | character references decoded (``html.unescape``) before the script-URL / XSS checks, except those of ``<`` and ``>`` (``&lt;script&gt;`` is escaped text), and tabs and newlines inside a scheme ignored as a URL parser does (``&#106;avascript:``, ``java&#x09;script:``); evidence quotes the value as written | - |
| url | a script URL: ``javascript:``, ``vbscript:``, ``data:text/html`` (CWE-79) | P1 |
| path, url | shell syntax in the value: ``$(...)``, backticks, ``; cmd``, ``| cmd``, ``&& cmd``, ``() {`` (CWE-78, CWE-88: a tool may paste the value into a command line); a script language's command call: ``system("...")``, ``exec(...)``, ``eval("...")``, ``Kernel.exec(...)``, ``%x(...)``, ``@{[ ... ]}``, ``shell_exec``, ``passthru``, ``proc_open``, ``popen``, ``os.system``, ``subprocess.*``, ``pty.spawn`` | P1 |
| url | an attribute-injection fragment: a quote that closes the attribute, then an event handler or a new element (``"onerror="alert(1)``, ``'><svg/onload=...>``) | P1 |
| path | encoded traversal (``%2e%2e%2f``, double encoding ``%252e``), a NUL byte (CWE-22, CWE-158, CWE-174) | P1 |
| path | traversal (``../`` twice or more) that reaches a system directory; a secret file (``/etc/shadow``, ``~/.ssh/id_rsa``, ``~/.aws/credentials``, ``/proc/self/environ``...) | P1 |
| path | a probe target (``/etc/passwd``, ``/etc/hosts``, ``win.ini``, ``boot.ini``: OWASP WSTG-ATHZ-01) | P2 |
| path | other traversal of two levels or more (``../../packages/core/index.ts``: ordinary in a monorepo) | P3 |
| html | a ``<script>`` element, an event-handler attribute (``onerror=``), a ``javascript:`` / ``vbscript:`` / ``data:text/html`` URL, an attribute-injection fragment (``" autofocus onfocus="alert(1)``) (OWASP XSS Filter Evasion Cheat Sheet, CWE-79) | P1 |
| html | ``<base href>``, ``<meta http-equiv=refresh>``, ``<frameset>``; an ``<iframe>`` / ``<object>`` / ``<embed>`` whose source is a ``javascript:`` or ``data:`` URL | P2 |
| html | other ``<iframe>``, ``<object>``, ``<embed>`` (a YouTube embed) | P3 |
| free_text | prompt injection, jailbreak, system-prompt extraction (``detectors``' rules), a block of instructions aimed at an agent (``find_injected_instructions``' rule passages), read after NFKC and a small Cyrillic-to-Latin confusables map (``Ｉｇｎｏｒｅ``, ``Ignоre`` with a Cyrillic о), and again in the value's plain view (``plain_text``: Unicode's confusables, spaced-out letters, leetspeak, base64 / hex / rot13 fragments), a finding found only there titled "(after undoing ...)" | P2 |
| free_text | markup that runs script: an element with an event handler, a ``<script>`` element with a body or a source, a script URL in a link or attribute (HTML or Markdown ``[x](javascript:...)``, numeric character references decoded), an attribute-injection fragment; not a mention of a tag ("use ``<script>`` tags") | P2 |
| free_text | the learned instruction detector (``instruction_model``), on values of three words or more (or four CJK characters): its own finding, ``rule="instruction_model"``, beside the rules'; P2 at or above its block threshold (0.1% false positives on benign training text), P3 between its two thresholds | P2 / P3 |

The rules (ids, patterns, sources, severity per kind) are the rules table's (``core/rules/``);
this module applies them: the kind's rules from P0 down, a weaker rule of a category already found
skipped, then the checks that are logic (SSRF, paths, file writes, passages). Every finding's
``rule`` names the rule that fired.
An ``html`` parameter is markup rendered for someone else (a comment, a message, a page
fragment); a whole page an agent writes as its own deliverable is better judged as free text.
Pure: stdlib and pydantic only (through ``models``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from qgs_worker.core import argviews, detectors, filewrites, injected_passages, rules, ssrf
from qgs_worker.core.argviews import View
from qgs_worker.core.models import ArgumentKind, Finding, Severity
from qgs_worker.core.plain_text import PlainText
from qgs_worker.core.plain_text import plain as plain_view
from qgs_worker.core.rules import Context, Rule, execution, paths, sql
from qgs_worker.core.rules import prompt as prompt_rules
from qgs_worker.core.rules import ssrf as ssrf_rules

__all__ = ["ArgumentKind", "keyword_pattern", "scan_argument"]

_P0, _P1, _P2, _P3 = Severity.P0, Severity.P1, Severity.P2, Severity.P3


def _checks(kind: ArgumentKind) -> tuple[tuple[Rule, Severity], ...]:
    """The table's rules of this kind that apply by their patterns, P0 first (``rules.in_context``)."""
    return tuple(
        (rule, severity)
        for rule, severity in rules.in_context(Context.of_kind(kind))
        if not rule.matched_by and rule.patterns
    )


_CHECKS: dict[ArgumentKind, tuple[tuple[Rule, Severity], ...]] = {
    kind: _checks(kind) for kind in ArgumentKind
}
# Rules that read a view other than the default ("") when the kind makes one: the SQL
# statement rules read "code", where string literals are blanked.
_VIEW_OF: dict[str, str] = dict.fromkeys(
    (
        *(r.rule_id for r in sql.STATEMENTS),
        sql.SQL_DELETE_UNBOUNDED.rule_id,
        sql.SQL_MASS_CHANGE.rule_id,
        sql.SQL_PRIVILEGE.rule_id,
    ),
    "code",
)
_JNDI = execution.JNDI_LOOKUP
_views = argviews.views
_JNDI_IN_ARGUMENTS = _JNDI.severity_in(Context.COMMAND) or _P1
"""The JNDI rule's severity in a tool argument: the same for every kind (a test checks)."""


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


# Each rule's keywords as one compiled trie (one C-level scan instead of a Python loop), and
# per kind every rule's keywords in one pattern when every rule of the kind has keywords (None
# otherwise: then the rules run one by one). Both are made on first use: compiling the 65 of
# them was a fifth of ``qgs check-tool``'s start (issue 15); a call uses a few kinds.
_NEEDLES: dict[str, re.Pattern[str] | None] = {}
_ANY_NEEDLE: dict[ArgumentKind, re.Pattern[str] | None] = {}
_UNSET: Any = object()


def _needles_of(rule: Rule) -> re.Pattern[str] | None:
    """The trie of ``rule``'s keywords (None without keywords), compiled once."""
    found = _NEEDLES[rule.rule_id] = keyword_pattern(rule.needles) if rule.needles else None
    return found


def _any_needle_of(kind: ArgumentKind) -> re.Pattern[str] | None:
    """Every keyword of the kind's rules in one trie, or None when a rule has none."""
    checks = _CHECKS[kind]
    found = _ANY_NEEDLE[kind] = (
        keyword_pattern(n for rule, _ in checks for n in rule.needles)
        if checks and all(rule.needles for rule, _ in checks)
        else None
    )
    return found


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
    written = value
    if not value.isascii():
        value = value.translate(argviews.ZERO_WIDTH)
        if kind is ArgumentKind.FREE_TEXT:
            value = argviews.unconfuse(value)
    if kind is ArgumentKind.COMMAND and "$" in value and "IFS" in value:
        value = argviews.IFS.sub(" ", value)
    lowered = value.lower()
    views, shown = _views(value, lowered, kind)
    any_needle = _ANY_NEEDLE.get(kind, _UNSET)
    if any_needle is _UNSET:
        any_needle = _any_needle_of(kind)
    plain = views[""]
    if any_needle is None:
        keyword = True
    elif len(plain) == 1:  # most values have one view: no generator on the hot path
        keyword = any_needle.search(plain[0].lowered) is not None
    else:
        keyword = any(any_needle.search(view.lowered) is not None for view in plain)
    # no keyword of any rule of this kind: one search instead of one per rule
    findings = list(_run(_CHECKS[kind], views, shown, location, where)) if keyword else []
    view = (  # a value of a word or two (a name, a city) holds no order: no view
        plain_view(written)
        if kind is ArgumentKind.FREE_TEXT
        and (len(written) >= 16 or _MODEL_WORTHY.search(written) is not None)
        else None
    )
    if view is not None and view.changed:  # what only the plain view shows (plain_text)
        findings.extend(_in_view(view.focus, findings, location, where))
    if "${" in value:  # every JNDI lookup has one: no call on the hot path without it
        findings.extend(detectors._jndi(value, location, where=where, severity=_JNDI_IN_ARGUMENTS))
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
        and (_may_carry_passages(value, lowered, keyword) or (view is not None and view.changed))
        and not any(
            f.category in {"prompt_injection", "jailbreak", "prompt_extraction"} for f in findings
        )
    ):
        found = injected_passages.injected(value)  # the model's passages: its own finding below
        if found.rules:
            passage = found.rules[0]
            after = f" (after {found.why(passage)})" if found.why(passage) else ""
            finding = _rule_finding(_PASSAGE, where, detectors._clip(passage), location)
            findings.append(finding.model_copy(update={"title": finding.title + after}))
    if kind is ArgumentKind.FREE_TEXT and _MODEL_WORTHY.search(value) is not None:
        findings.extend(detectors.model_findings(value, location=location, where=where, gate=True))
    return detectors._dedupe(findings) if findings else findings


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


_OVERRIDE_NEEDLES = keyword_pattern(prompt_rules.OVERRIDE.needles)
_PASSAGE = prompt_rules.INJECTED_PASSAGE


def _run(
    checks: Sequence[tuple[Rule, Severity]],
    views: dict[str, tuple[View, ...]],
    shown: str,
    location: str,
    where: str,
) -> Iterator[Finding]:
    found: dict[str, Severity] = {}  # category -> the severity it was found at
    for rule, severity in checks:
        if rule.category in found and found[rule.category] is not severity:
            continue  # a weaker rule of a category already found (checks go P0 -> P2)
        needles = _NEEDLES.get(rule.rule_id, _UNSET)
        if needles is _UNSET:
            needles = _needles_of(rule)
        for view in views.get(_VIEW_OF.get(rule.rule_id, ""), ()) or views[""]:
            if needles is not None and needles.search(view.lowered) is None:
                continue
            match = detectors._first_match(rule, view.text)
            if match is not None:
                found[rule.category] = severity
                evidence = _evidence(shown, view, match, rule)
                title = f"{where} {rule.title}"
                yield _finding(severity, rule.category, title, evidence, location, rule.rule_id)
                break


def _in_view(view: PlainText, found: list[Finding], location: str, where: str) -> Iterator[Finding]:
    """The free-text rules' findings on the plain view, for categories not found as written."""
    have = {f.category for f in found}
    lowered = view.text.lower()
    for rule, severity in _CHECKS[ArgumentKind.FREE_TEXT]:
        if rule.category in have or rule.category == "secret":
            continue
        needles = _NEEDLES.get(rule.rule_id, _UNSET)
        if needles is _UNSET:
            needles = _needles_of(rule)
        if needles is not None and needles.search(lowered) is None:
            continue
        match = detectors._first_match(rule, view.text)
        if match is not None:
            have.add(rule.category)
            title, evidence = detectors._as_written(
                view, match.start(), match.end(), f"{where} {rule.title}"
            )
            yield _finding(severity, rule.category, title, evidence, location, rule.rule_id)


def _evidence(shown: str, view: View, match: re.Match[str], rule: Rule) -> str:
    """The match in the value as written (a view may have blanked or decoded parts of it)."""
    if view.text is shown:
        return detectors._evidence(shown, match, rule.secret_group)
    start, end = match.span()
    if view.origin is not None:
        start, end = argviews.in_value(view.origin, start), argviews.in_value(view.origin, end)
    around = detectors._CONTEXT_CHARS
    return detectors._clip(shown[max(0, start - around) : end + around])


def _finding(
    severity: Severity, category: str, title: str, evidence: str, location: str, rule: str
) -> Finding:
    return Finding(
        role=detectors.DETECTOR_ROLE,
        category=category,
        severity=severity,
        title=title,
        evidence=evidence,
        location=location,
        rule=rule,
    )


def _rule_finding(
    rule: Rule, where: str, evidence: str, location: str, context: Context = Context.FREE_TEXT
) -> Finding:
    """A finding of ``rule`` at its severity in ``context``, titled "{where} {rule.title}"."""
    severity = rule.severity_in(context)
    assert severity is not None, (rule.rule_id, context)  # the table gives one: a test checks
    return _finding(
        severity, rule.category, f"{where} {rule.title}", evidence, location, rule.rule_id
    )


def _command_extras(value: str, location: str, tool: str) -> Iterator[Finding]:
    for write in filewrites.shell_command_writes(value, location):
        write_rule, why = filewrites.classify_path_rule(write.path)
        severity = write_rule.severity_in(Context.COMMAND)
        if severity in {_P1, _P2}:
            title = f"{'tool call ' + tool if tool else 'command'} writes {write.path}: {why}"
            evidence = f"{write.via} {write.path}"
            yield _finding(severity, "file_write", title, evidence, location, write_rule.rule_id)
    if "open" in value:  # code that writes a persistence file: open('~/.bashrc', 'a')
        for match in execution.CODE_FILE_WRITE.patterns[0].finditer(value):
            path = (match.group("path") or "").strip("\"'")
            if not path:
                continue
            code_rule, why = filewrites.classify_path_rule(path)
            if code_rule.severity_in(Context.COMMAND) is _P1:
                title = f"{'tool call ' + tool if tool else 'command'} writes {path}: {why}"
                yield _finding(
                    _P1, "file_write", title, match.group(0), location, code_rule.rule_id
                )
    probe = value if value.isascii() else unicodedata.normalize("NFKC", value)  # ①⑥⑨.②⑤④...
    if any(needle in probe for needle in ssrf_rules.METADATA_NEEDLES):
        for target in ssrf.find_ssrf(value):
            if target.severity is _P0:
                title = f"{'tool call ' + tool if tool else 'command'} fetches {target.reason}"
                yield _finding(_P0, "ssrf", title, target.url, location, target.rule)


def _ssrf(value: str, location: str, where: str) -> Iterator[Finding]:
    for target in ssrf.find_ssrf(value, whole=True):
        title = f"{where} {target.reason} (SSRF)"
        yield _finding(target.severity, "ssrf", title, target.url, location, target.rule)


# --- shell syntax in a value (rules/execution.py: shell_in_value) ------------------------------
_SHELL_IN_VALUE = execution.SHELL_IN_VALUE


def _shell_in_value(value: str, location: str, where: str) -> Iterator[Finding]:
    if not any(needle in value for needle in _SHELL_IN_VALUE.needles):
        return
    if _SHELL_IN_VALUE.first_match(value) is not None:
        yield _rule_finding(_SHELL_IN_VALUE, where, detectors._clip(value), location, Context.PATH)


# --- paths (rules/paths.py) ---------------------------------------------------------------------
_PATH_RULE = {r.rule_id: r for r in paths.PATH_RULES}


def _path(value: str, lowered: str, location: str, where: str) -> Iterator[Finding]:
    if not any(needle in lowered for needle in paths.PATH_NEEDLES):
        return
    shown = detectors._clip(value)

    def found(rule_id: str) -> Finding:
        return _rule_finding(_PATH_RULE[rule_id], where, shown, location, Context.PATH)

    encoded = paths.ENCODED_TRAVERSAL.search(value)
    if encoded or "%00" in value or "\x00" in value:
        yield found("path_encoded_traversal" if encoded else "path_nul_byte")
    secret = paths.SECRET_FILES.search(value)
    if secret:
        yield found("path_secret_file")
    segments = [s for s in re.split(r"[/\\]", value) if s not in {"", "."}]
    climbs = segments.count("..")
    if climbs >= 2:
        after = segments[len(segments) - segments[::-1].index("..") :]
        into_system = bool(after) and after[0].lower() in paths.SYSTEM_DIRS
        yield found("path_traversal_system" if into_system else "path_traversal_climb")
    elif not secret and paths.PROBE_FILES.search(value):
        yield found("path_probe_file")
