"""Acts that weaken a system's security: the same words in a command and in the data that asked.

A planted order to "open port 22 to 0.0.0.0/0", "bind the runner to cluster-admin" or "add
verify=False to every request" may be written in any language; the act it asks for is written in
the system's own vocabulary, which no translation changes: ``0.0.0.0/0``, ``cluster-admin``,
``verify=False``. So the marks below are read from a call's arguments and from a text alike, and
``acts`` compares them as it compares ``env`` or ``write:hooks``:

| mark | the tokens | source |
| --- | --- | --- |
| ``weaken:tls`` | ``verify=False``, ``verify_ssl: false``, ``--insecure``, ``--no-check-certificate``, ``NODE_TLS_REJECT_UNAUTHORIZED=0``, ``sslmode=disable``, ``InsecureSkipVerify: true``, ``insecure-skip-tls-verify``, ``GIT_SSL_NO_VERIFY``, ``sslVerify false``, ``strict-ssl false``, ``rejectUnauthorized: false``, ``CERT_NONE`` | CWE-295 (improper certificate validation); the clients' own switches |
| ``weaken:admin`` | ``cluster-admin``, ``GRANT ALL``, ``SUPERUSER``, ``roles/owner``, ``AdministratorAccess``, ``"Action": "*"`` (and HCL's ``actions = ["*"]``), ``NOPASSWD``, ``permissions: write-all``, ``SET role = 'admin'`` (and ``is_admin``/``is_superuser`` set true), a ``permission``/``role`` of admin, maintain or owner given, "maintainer role" | CWE-269 (improper privilege management); Kubernetes', PostgreSQL's, GCP's and AWS's built-in all-powerful roles |
| ``weaken:open`` | ``0.0.0.0/0``, ``::/0`` (a rule open to the whole internet) | CWE-284; the cloud consoles' "anywhere" CIDR |
| ``weaken:perm`` | ``chmod 777``, ``chmod a+rwx``, ``chmod o+w`` | CWE-732 (incorrect permission assignment) |
| ``weaken:code`` | ``trust_remote_code=True``, ``allow_pickle=True``, ``yaml.unsafe_load`` (code from the data runs) | CWE-94 / CWE-502; Hugging Face's and NumPy's own switches |
| ``weaken:ci`` | ``pull_request_target``, ``secrets: inherit``, ``ACTIONS_ALLOW_UNSECURE_COMMANDS`` (a fork's code with the repository's secrets) | GitHub's security hardening guide for Actions |
| ``weaken:forward`` | a mail rule or filter that forwards to an address, "auto-forward", "forwarding rule" | MITRE ATT&CK T1114.003 (email forwarding rule) |
| ``weaken:access`` | ``lock.unlock``, a ``"service": "unlock"`` / ``"disarm"`` call, ``set_usercode``, "unlock the back door" | Home Assistant's lock and alarm services |
| ``weaken:allow`` | a sender, domain or address put on an allow list ("allowlist", "safe senders", "unblock"; a tool ``allow_sender``, ``whitelist_domain``) | Microsoft 365's Tenant Allow/Block List, Google Workspace's safe senders |
| ``weaken:checks`` | ``--deselect``, ``--no-verify``, ``SKIP_TESTS=``, ``continue-on-error: true`` (a failing check made to pass), a security lint rule turned off (``"security/detect-...": "off"``, ``# nosec``, ``bandit --skip``) | the test runner's, git's and the linters' own switches |
| ``weaken:auth`` | authentication or a signature check turned off: ``verify_signature: False``, ``algorithms=["none"]``, ``auth.enabled=false``, ``--no-auth``, ``AUTH_DISABLED=1``, anonymous access enabled, CSRF protection off, ingress-nginx's ``allowSnippetAnnotations=true`` | CWE-287, CWE-306, CWE-347, CWE-352; CVE-2021-25742 for the ingress switch |
| ``weaken:protection`` | a branch's protection removed or loosened: ``DELETE .../branches/main/protection``, ``only_allow_merge_if_pipeline_succeeds=false``, ``enforce_admins: false``, ``allow_force_pushes: true``, ``required_approving_review_count: 0``, ``unprotect`` | GitHub's and GitLab's protected-branch settings; OWASP CI/CD Top 10, CICD-SEC-1 (insufficient flow control) |
| ``weaken:key`` | a key or token that can write or do anything: a deploy key with ``read_only: false`` or ``--allow-write``, ``can_push: true``, a Vault token of the ``root`` policy | GitHub's deploy keys; Vault's guidance against root tokens |

A command that only looks (``grep``, ``cat``, ``find``...) or a query that only reads
(``SELECT``) does not weaken anything, whatever it mentions: ``call_weakening`` skips them.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["WEAKEN", "command_weakening", "text_weakening", "tool_weakening"]

WEAKEN = "weaken:"
"""The prefix of every mark of this module."""

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "tls",
        re.compile(
            r"\bverify\s*[=:]\s*False\b|(?<![\w-])--insecure\b|--no-check-certificate\b"
            r"|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['\"]?0\b|\bsslmode\s*=\s*disable\b"
            r"|\bInsecureSkipVerify\s*:\s*true\b|\binsecure-skip-tls-verify\b|\bGIT_SSL_NO_VERIFY\b"
            r"|\b(?:ssl|tls)_?verify\s*[=:\s]\s*['\"]?(?:false|0|no)\b|\bstrict-ssl\s*[=:\s]\s*false\b"
            r"|\bverify_?(?:ssl|tls|certs?|certificates?)\s*[=:]\s*['\"]?(?:false|0|no|off)\b"
            r"|\brejectUnauthorized\s*:\s*false\b|\bCERT_NONE\b|\bcheck_hostname\s*=\s*False\b",
            re.IGNORECASE,
        ),
    ),
    (
        "admin",
        re.compile(
            r"\bcluster-admin\b|\bGRANT\s+ALL\b|\bSUPERUSER\b|\broles/owner\b|\bAdministratorAccess\b"
            # every action allowed, in IAM's JSON and Terraform's HCL: "Action": "*",
            # actions = ["*"], Action = "*"
            r"|\bactions?[\"']?\s*[:=]\s*\[?\s*[\"']\*[\"']|\bNOPASSWD\b|\bpermissions\s*:\s*write-all\b"
            # a collaborator or member given an all-powerful role (GitHub's maintain and admin)
            r"|\b(?:permission|role|access_level)[\"']?\s*[:=]\s*[\"']?(?:admin|administrator|maintain"
            r"|maintainer|owner|superuser|global\s+administrator)\b|\b(?:admin|maintain|maintainer|owner)\s+(?:role|permissions?|rights)\b"
            r"|\bSET\s+(?:\w+\.)?(?:role|user_role|is_admin|is_superuser|is_staff)\s*=\s*'?"
            r"(?:admin|administrator|owner|superuser|true|1)\b"
            # GCP's predefined admin roles (roles/storage.admin), GitLab's Maintainer and Owner
            # access levels (40, 50), every permission given at once
            r"|\broles/[\w.]*admin\b|\baccess_level[\"']?\s*[:=]\s*[\"']?(?:40|50)\b"
            r"|[\"']?permissions[\"']?\s*[:=]\s*\[?\s*[\"'](?:all|\*|full(?:_access)?)[\"']"
            r"|\ball\s+permissions\b|\bfull\s+(?:admin(?:istrator)?\s+)?access\b",
            re.IGNORECASE,
        ),
    ),
    ("open", re.compile(r"(?<![\d.])0\.0\.0\.0/0\b|(?<![\w:])::/0\b")),
    (
        "code",
        re.compile(
            r"\btrust_remote_code\s*=\s*True\b|--trust-remote-code\b|\ballow_pickle\s*=\s*True\b"
            r"|\byaml\.unsafe_load\b|\bLoader\s*=\s*yaml\.(?:Unsafe)?Loader\b"
        ),
    ),
    (
        "ci",
        re.compile(
            r"\bpull_request_target\b|\bsecrets\s*:\s*inherit\b|\bACTIONS_ALLOW_UNSECURE_COMMANDS\b"
        ),
    ),
    (
        # mail forwarded out by a rule: persistence and a leak at once (MITRE ATT&CK T1114.003)
        "forward",
        re.compile(
            r"[\"']?(?:forward|forward_?to|forwardTo|forwarding_?(?:address|email)|redirect_?to)[\"']?"
            r"\s*[:=]\s*[\"']?[\w.+-]+@[\w-]+\.[\w.-]+|\bauto-?forward\w*"
            r"|\bforwarding\s+(?:rule|filter|address)|\b(?:filter|rule)s?\b[^.\n]{0,60}\bforward\w*",
            re.IGNORECASE,
        ),
    ),
    (
        # a door, an alarm or a lock code opened for someone (smart-home services' own names)
        "access",
        re.compile(
            r"\block\.unlock\b"
            r"|[\"'](?:service|command|action|cmd|operation)[\"']\s*:\s*[\"'](?:unlock|alarm_disarm|disarm)[\"']"
            r"|\bset_usercode\b|\bunlock\w*\b[^.\n]{0,40}\b(?:door|gate|lock\.\w+)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "checks",
        re.compile(
            r"(?<![\w])(?:--)?deselect\b|--no-verify\b|\bSKIP_TESTS\s*=|\bcontinue-on-error\s*:\s*true\b"
            # a test switched off in its code: pytest's, unittest's, Jest's and Mocha's, Go's
            r"|@pytest\.mark\.skip(?:if)?\b|@unittest\.skip\w*|\b(?:it|test|describe)\.skip\s*\("
            r"|\bx(?:it|describe)\s*\(|\bt\.Skip(?:Now)?\s*\("
            # a security linter's rule turned off: eslint-plugin-security, bandit
            r"|[\"']security/[\w-]+[\"']\s*:\s*[\"']?(?:off|0)\b|#\s*nosec\b|\bbandit\b[^\n]*--skip\b",
            re.IGNORECASE,
        ),
    ),
    (
        "auth",
        re.compile(
            r"\bverify_signature[\"']?\s*[:=]\s*False\b|\balgorithms\s*[:=]\s*\[?\s*[\"']none[\"']"
            r"|\b(?:auth|authentication|authn|security|login)[._-]?(?:enabled|required|enforced)[\"']?"
            r"\s*[:=]\s*[\"']?(?:false|0|no|off)\b|(?<![\w-])--(?:no|disable)-auth\w*\b"
            r"|\b(?:AUTH|AUTHENTICATION)_DISABLED\s*[:=]\s*[\"']?(?:1|true|yes)\b"
            r"|\banonymous[._-]?(?:access|auth\w*|enabled)[\"']?\s*[:=]\s*[\"']?(?:true|1|yes|on|enabled)\b"
            r"|\b(?:WTF_)?CSRF[_-]?(?:ENABLED|protection)\s*[:=]\s*[\"']?(?:false|0|no|off)\b|@csrf_exempt\b"
            r"|\ballowSnippetAnnotations[\"']?\s*[:=]\s*[\"']?true\b"
            r"|\brequire_?auth(?:entication)?[\"']?\s*[:=]\s*[\"']?(?:false|0|no|off)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "protection",
        re.compile(
            r"\bDELETE\b[^\n]{0,120}/branches/[^\s/]+/protection\b"
            r"|/branches/[^\s/]+/protection\b[^\n]{0,60}\b(?:-X|--method)\s*DELETE\b"
            r"|\bonly_allow_merge_if_(?:pipeline_succeeds|all_discussions_are_resolved)[\"']?\s*[:=]\s*"
            r"[\"']?false\b|\benforce_admins[\"']?\s*[:=]\s*[\"']?false\b"
            r"|\ballow_force_pushes[\"']?\s*[:=]\s*[\"']?true\b"
            r"|\brequired_approving_review_count[\"']?\s*[:=]\s*0\b|\bunprotect(?:_branch|ed)?\b(?!\s*=)"
            r"|\bremove\s+(?:the\s+)?branch\s+protection\b",
            re.IGNORECASE,
        ),
    ),
    (
        "key",
        re.compile(
            r"\bread_only[\"']?\s*[:=]\s*[\"']?false\b|(?<![\w-])--allow-write\b"
            r"|\bcan_push[\"']?\s*[:=]\s*[\"']?true\b"
            r"|\btoken\s+create\b[^\n]{0,80}-polic(?:y|ies)[=\s][\"']?root\b"
            r"|[\"']polic(?:y|ies)[\"']\s*:\s*\[?\s*[\"']root[\"']",
            re.IGNORECASE,
        ),
    ),
    ("perm", re.compile(r"\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|o\+w)\b", re.IGNORECASE)),
    (
        # a sender, a domain or an address let past the filters (Microsoft's and Google's "allow
        # list", "safe senders", "tenant allow/block list")
        "allow",
        re.compile(
            r"\b(?:allow[\s-]?list|white[\s-]?list|safe-?list)\w*\b[^.\n]{0,40}\b(?:senders?|domains?"
            r"|e-?mails?|addresses)\b|\b(?:senders?|domains?|e-?mails?|addresses)\b[^.\n]{0,40}"
            r"\b(?:allow|white|safe)[\s-]?list|\bto\s+the\s+(?:allow|white|safe)[\s-]?list\b|\bsafe\s+senders?\b"
            r"|\btrusted\s+senders?\b|\btenant\s+allow\b|\bunblock\w*\s+(?:the\s+)?(?:sender|domain|address)",
            re.IGNORECASE,
        ),
    ),
)

_ALLOW_VERBS = frozenset({"allow", "allowlist", "whitelist", "safelist", "unblock", "trust"})
_ALLOW_OBJECTS = frozenset(
    {"sender", "senders", "domain", "domains", "ip", "ips", "address", "addresses", "url", "urls"}
    | {"host", "hosts", "list", "email", "emails"}
)


_ACCESS_VERBS = frozenset({"unlock", "disarm", "open"})
_ACCESS_OBJECTS = frozenset({"door", "doors", "lock", "locks", "gate", "garage", "alarm", "deadbolt"})


def tool_weakening(words: frozenset[str]) -> frozenset[str]:
    """The weakening a tool's name says it does.

    ``exo_allow_sender``: ``weaken:allow``; ``unlock_door``, ``disarm_alarm``, ``lock.unlock``:
    ``weaken:access``.
    """
    found: set[str] = set()
    if words & _ALLOW_VERBS and (words & _ALLOW_OBJECTS or words & {"allowlist", "whitelist"}):
        found.add(f"{WEAKEN}allow")
    if words & {"unlock", "disarm"} or (words & _ACCESS_VERBS and words & _ACCESS_OBJECTS):
        found.add(f"{WEAKEN}access")
    return frozenset(found)

# programs and statements that only read: what they mention is looked at, not done
_LOOKING = re.compile(
    r"^\s*(?:sudo\s+)?(?:grep|egrep|rg|ag|ack|cat|less|more|head|tail|find|ls|wc|diff|git\s+"
    r"(?:log|show|grep|diff|blame|status)|kubectl\s+(?:get|describe|logs|auth\s+can-i)"
    r"|aws\s+\S+\s+describe-\S+|terraform\s+(?:plan|show|validate)|select|show|explain|describe"
    r"|with\s+\w+\s+as\s*\(\s*select)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def text_weakening(text: str) -> frozenset[str]:
    """The weakening marks a text names (``weaken:tls``...), wherever in it."""
    return frozenset(f"{WEAKEN}{kind}" for kind, pattern in _PATTERNS if pattern.search(text))


def command_weakening(source: str) -> frozenset[str]:
    """The weakening marks of a command, a statement or a file's new text that acts.

    Each line or ``;``/``&&`` part that only reads (``_LOOKING``) is dropped first.
    """
    parts = re.split(r"\n|;|&&|\|\|?", source)
    acting = "\n".join(p for p in parts if p.strip() and not _LOOKING.match(p))
    return text_weakening(acting) if acting else frozenset()
