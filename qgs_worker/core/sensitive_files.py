"""The files an agent must not read or write unasked: credentials, and persistence and CI files.

``SECRET_FILES``: the credential files named by OWASP's and GitHub's secret-scanning guidance
(``.env``, SSH keys, ``.aws/credentials``, ``.netrc`` and the package managers' token files, the
CLIs' token files, private keys, ``/etc/shadow``), each with what keeps its look-alikes out (a
template, a public key, a certificate). ``WRITE_TARGETS``: the files whose write persists or runs
later (git hooks, CI workflows, dependency lists, shell start-up files, ``authorized_keys``,
crontabs: MITRE ATT&CK T1546.004, T1053.003, T1098.004), and ``WRITE_WORDS`` the same in prose.
``acts`` reads calls and texts by them. Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["SECRET_FILES", "WRITE_TARGETS", "WRITE_WORDS", "secret_file_kinds"]

SECRET_FILES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "env",
        re.compile(
            r"(?:^|[\s/'\"`(=@])\.env(?!\.(?:example|sample|template|dist|defaults?)\b)(?:\.[\w-]+)?"
            r"(?=$|[\s'\"`),;:])|\b(?:the\s+)?(?:dot-?env|env)\s+files?\b",
            re.IGNORECASE,
        ),
    ),
    # a public key (``*.pub``) and ``known_hosts`` are meant to be shown
    (
        "ssh",
        re.compile(
            r"\.ssh/(?![\w.-]+\.pub\b|known_hosts\b)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub\b)"
            r"|\bssh\s+(?:private\s+)?keys?\b",
            re.I,
        ),
    ),
    # ~/.aws/config holds profiles and regions, no keys: the credentials file does
    ("aws", re.compile(r"\.aws/credentials\b|\baws\s+credentials\b", re.IGNORECASE)),
    (
        "netrc",
        re.compile(
            r"(?:^|[\s/'\"`])\.(?:netrc|npmrc|pypirc|git-credentials|pgpass)\b"
            r"(?!\.(?:example|sample|template|dist|defaults?)\b)"  # a template holds no secret
        ),
    ),
    ("docker", re.compile(r"\.docker/config\.json\b|\bkubeconfig\b|\.kube/config\b")),
    # the CLIs' own token files: Kaggle, GitHub's gh, gcloud, Azure
    (
        "cli",
        re.compile(
            r"\.kaggle/kaggle\.json\b|\.config/gh/hosts\.ya?ml\b|\.config/gcloud/\S*credentials"
            r"|\.azure/(?:accessTokens|msal_token_cache)\b"
        ),
    ),
    # a certificate (``cert.pem``, ``fullchain.pem``, a CA bundle) is public by design
    (
        "key",
        re.compile(
            r"(?<![\w-])(?!(?:cert|fullchain|chain|ca|cacert|ca-bundle|ca-certificates|bundle)\.pem\b)"
            r"[\w-]+\.(?:pem|p12|pfx|key)\b"
        ),
    ),
    ("etc", re.compile(r"/etc/(?:shadow|gshadow|sudoers)\b")),
    (
        "secrets",
        re.compile(
            r"\b(?:secrets?|credentials?|service[-_]account[\w-]*)\.(?:json|ya?ml|toml|txt|ini)\b",
            re.IGNORECASE,
        ),
    ),
)
WRITE_TARGETS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("hooks", re.compile(r"\.git/hooks/|\.husky/|\bcore\.hookspath\b", re.IGNORECASE)),
    (
        "ci",
        re.compile(
            r"\.github/workflows/|\.gitlab-ci\.ya?ml|\.circleci/|jenkinsfile|azure-pipelines"
            r"|\.travis\.ya?ml|bitbucket-pipelines",
            re.IGNORECASE,
        ),
    ),
    (
        "deps",
        re.compile(
            r"(?:^|/)(?:requirements[\w.-]*\.(?:txt|in)|package\.json|pyproject\.toml|setup\.py"
            r"|setup\.cfg|pipfile|gemfile|cargo\.toml|go\.mod|constraints\.txt)$",
            re.IGNORECASE,
        ),
    ),
    ("shellrc", re.compile(r"(?:^|/)\.(?:bashrc|zshrc|profile|bash_profile|zprofile|bash_login)$")),
    ("ssh", re.compile(r"authorized_keys")),
    ("cron", re.compile(r"crontab|/etc/cron|/var/spool/cron", re.IGNORECASE)),
)
# what a text says to make those writes happen (its file names, in words)
WRITE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "hooks",
        re.compile(
            r"\b(?:git|commit|commit-msg|pre-commit|pre-push|post-commit|post-merge|post-checkout"
            r"|pre-rebase|prepare-commit-msg)[\s-]+hooks?\b|\.git/hooks|\bhusky\b",
            re.I,
        ),
    ),
    (
        "ci",
        re.compile(
            r"\.github/workflows|\b(?:ci\s+(?:config|pipeline|workflow)s?|github\s+actions?|workflow\s+files?)\b",
            re.I,
        ),
    ),
    (
        "deps",
        re.compile(
            r"\brequirements[\w.-]*\.(?:txt|in)\b|\bpackage\.json\b|\bpyproject\.toml\b|\bsetup\.py\b",
            re.I,
        ),
    ),
    ("shellrc", re.compile(r"\.(?:bashrc|zshrc|bash_profile|zprofile)\b|~/\.profile\b")),
    ("ssh", re.compile(r"\bauthorized_keys\b")),
    ("cron", re.compile(r"\bcron(?:tab|\s+job)s?\b", re.I)),
)


def secret_file_kinds(text: str) -> Iterator[str]:
    """The kinds of credential file ``text`` names (``env``, ``ssh``, ``aws``...), in table order."""
    for kind, pattern in SECRET_FILES:
        if pattern.search(text):
            yield kind
