"""The command line of a tool named after its program: ``kubectl(args="scale ...")``.

Agents' frameworks expose command-line programs as tools of their own name (``git``,
``kubectl``, ``pulumi``, ``gh``) whose arguments are the rest of the command line. The detectors
and the deed checks read such a call as the line it runs, so ``pulumi(args="destroy --stack
prod")`` is the ``pulumi destroy`` the rules know. Pure: stdlib and the core's models only (the
detectors import it, so it imports none of them).
"""

from __future__ import annotations

import re

from qgs_worker.core.models import ToolCall

__all__ = ["ARGV_KEYS", "PROGRAM_TOOLS", "program_line"]


PROGRAM_TOOLS = frozenset(
    {"git", "docker", "podman", "kubectl", "helm", "npm", "yarn", "pnpm", "pip", "pip3", "uv"}
    | {"cargo", "go", "gem", "curl", "wget", "gh", "aws", "gcloud", "az", "terraform", "tofu"}
    | {"pulumi", "psql", "mysql", "gsutil", "flyctl", "heroku", "vercel", "ansible"}
)
"""Programs that agents' frameworks expose as a tool of their own name (``kubectl(args=...)``)."""

ARGV_KEYS = frozenset({"args", "argv", "arguments", "command", "cmd", "subcommand", "params"})
"""The argument names under which a program-named tool takes its command line."""
_PLAIN_WORD = re.compile(r"[\w@%+=:,./-]+")


def program_line(call: ToolCall) -> str:
    """The command line a tool named after its program runs, or "".

    ``kubectl(args="scale deploy/api --replicas=0")`` runs ``kubectl scale deploy/api
    --replicas=0``; ``git_push(remote="origin")`` runs ``git push origin``; ``pulumi(args=
    "destroy --stack prod", cwd="billing")`` runs ``pulumi destroy --stack prod`` (a working
    directory is where, not what). An ``args``-like string is the command line as written;
    other values, and each item of an ``args`` list, are quoted words (``git(args=["commit",
    "-m", "docs: cat ~/.npmrc"])`` commits a message, it runs no ``cat``).
    """
    program, _, sub = call.name.rsplit(".", 1)[-1].casefold().replace("-", "_").partition("_")
    if program not in PROGRAM_TOOLS:
        return ""
    words = [program, *(w for w in sub.split("_") if w)]
    for path, value in call.argument_values():
        leaf = path.rsplit(".", 1)[-1].split("[", 1)[0].casefold()
        if leaf in {"cwd", "dir", "workdir", "working_dir", "directory", "timeout", "env"}:
            continue
        if leaf in ARGV_KEYS and "[" not in path:  # a command line as one string
            value = value.strip()
            words.append(
                value.removeprefix(program + " ") if value.startswith(program + " ") else value
            )
        else:
            words.append(
                value if _PLAIN_WORD.fullmatch(value) else "'" + value.replace("'", "'\\''") + "'"
            )
    return " ".join(words)
