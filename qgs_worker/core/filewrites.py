"""File writes made by tool calls: an audit trail, and the writes that plant persistence.

A tool call writes a file when a shell command redirects into it (``>``, ``>>``, ``&>``), pipes
into ``tee``, edits it in place (``sed -i``), copies or moves onto it (``cp``, ``mv``,
``install``), writes it with ``dd of=``, ``curl -o`` or ``wget -O``, installs a crontab, or when
a tool whose name says it writes (``write_file``, ``create_file``, ``save_note``, ``append``,
``edit``, ``mv``...) gets a path argument. Severity by the path written:

| path | severity | why |
| --- | --- | --- |
| a persistence or privilege file: ``authorized_keys``, ``/etc/passwd``, ``/etc/shadow``, ``/etc/sudoers``, crontabs, shell start-up files (``.bashrc``, ``.profile``, ``/etc/profile.d``...), ``/etc/ld.so.preload``, systemd units, ``/etc/rc.local`` | P1 | what an intruder writes to keep access or gain root (MITRE ATT&CK T1098.004, T1136.001, T1548.003, T1053.003, T1546.004, T1574.006, T1543.002, T1037.004); an agent has no routine reason to |
| outside the working directory: a system directory (``/etc``, ``/usr``, ``/srv``, ``/var``, ``/opt``, ``/boot``, ``/root``...), a dot directory of the home (``~/.ssh``, ``~/.aws``, ``~/.config``...), a relative path that climbs out (``../x``) | P2 | the machine's or the user's configuration, not the task's files: a person should look |
| anything else (``report.md``, ``/tmp/x``, ``~/notes.txt``) | P4 | an audit-trail entry, never blocking |

``/dev/null``, ``/dev/stdout``, ``/dev/stderr``, ``/dev/tty`` and descriptor duplications
(``2>&1``) are not writes. Nested shells (``bash -c "..."``) are not unfolded. The category is
``file_write``; the data a write carries is what ``pii`` looks at (``FileWrite.data``).

Pure: stdlib and pydantic only (through ``models``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from qgs_worker.core.models import Finding, Severity, ToolCall
from qgs_worker.core.rules import Context, Rule, paths
from qgs_worker.core.shell import ShellCommand, parse_shell, strip_wrappers

__all__ = [
    "FileWrite",
    "classify_path",
    "classify_path_rule",
    "file_writes",
    "is_shell_tool",
    "only_filters",
    "scan_file_writes",
    "shell_command_writes",
    "tool_words",
]

_ROLE = "detectors"  # detectors.DETECTOR_ROLE (a test keeps them equal)

_SHELL_TOOL_WORDS = frozenset(
    {"bash", "shell", "sh", "zsh", "fish", "terminal", "cmd", "command", "console", "powershell"}
)
_WRITE_VERBS = frozenset(
    {
        "write", "create", "save", "append", "put", "edit", "overwrite", "store", "copy", "cp",
        "move", "mv", "rename", "dump", "export", "insert", "replace", "patch", "echo", "tee",
        "update", "editor",
    }
)  # fmt: skip
_NOT_FILES = frozenset({"dir", "directory", "folder", "mkdir"})
# argument names of the path written, the destination ones first (cp/mv-like tools)
_PATH_KEYS = (
    "destination", "dest", "dst", "target", "target_path", "new_path", "to_path", "output",
    "output_path", "output_file", "outfile", "out", "path", "file", "file_path", "filepath",
    "filename", "file_name", "fname", "file_id",
)  # fmt: skip
_READ_ONLY = frozenset({"view", "read", "list", "get", "cat", "open", "search", "show"})
_MODE_KEYS = ("command", "mode", "action", "operation")
_NOT_WRITES = re.compile(r"^/dev/(?:null|stdout|stderr|tty|fd/\d+)$|^&?\d$|^-$")


@dataclass(frozen=True, slots=True)
class FileWrite:
    """One file written by a tool call.

    Attributes:
        path: The path as written in the call (``website.html``, ``~/.bashrc``).
        via: How: ``>``, ``>>``, ``tee``, ``sed -i``, ``cp``, ``mv``, ``dd``, ``crontab``, or
            ``tool`` for a writing tool's path argument.
        data: Text that may be written: the shell pipeline (here-document bodies included), or
            the writing tool's other string arguments.
        location: ``tool_call:NAME.ARGPATH`` of the argument that holds the write.
    """

    path: str
    via: str
    data: str
    location: str


@functools.lru_cache(maxsize=1024)  # a few tool names, read by several detectors per call
def tool_words(name: str) -> frozenset[str]:
    """The lower-case words of a tool name: ``writeFile`` / ``write_file`` -> {write, file}."""
    return frozenset(w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name))


def is_shell_tool(name: str) -> bool:
    """Whether a tool runs shell commands (``bash``, ``run_shell_command``, ``terminal``...)."""
    return bool(tool_words(name) & _SHELL_TOOL_WORDS)


# programs that only turn text into other text on standard output (POSIX's filters, base64, jq)
_FILTERS = frozenset(
    {"echo", "printf", "tr", "base64", "xxd", "od", "hexdump", "rev", "cut", "sed", "awk", "cat"}
    | {"head", "tail", "wc", "sort", "uniq", "grep", "egrep", "jq", "column", "fold", "iconv"}
    | {"basenc", "base32", "nl", "tac", "fmt", "expand"}
)


_COMMAND_KEYS = frozenset({"command", "cmd", "script", "shell"})


def only_filters(call: ToolCall) -> bool:
    """A shell call whose every command only filters text to standard output, writing no file.

    ``echo '...' | tr 'A-Za-z' 'N-ZA-Mn-za-m'`` decodes a rot13 line the agent read: it shows
    text, it changes nothing. A redirect to a file, ``sed -i`` or ``tee`` is a write.
    """
    commanded = {p.rsplit(".", 1)[-1].casefold() for p, _ in call.argument_values()} & _COMMAND_KEYS
    if not (is_shell_tool(call.name) or commanded) or file_writes(call):
        return False
    values = [v for _, v in call.argument_values() if v.strip()]
    if any("$" in v or "`" in v for v in values):
        return False  # ``echo $TOKEN`` prints what the shell expands, not the text it was given
    commands = [c for v in values for c in parse_shell(v)]
    return bool(commands) and all(
        (words := strip_wrappers(c.words))
        and words[0].rsplit("/", 1)[-1] in _FILTERS
        and (words[0] in {"echo", "printf"} or not any(map(_names_a_file, words[1:])))
        for c in commands
    )


def _names_a_file(word: str) -> bool:
    """An operand that names a file to read (``~/.kaggle/kaggle.json``, ``src/``, ``notes.txt``)."""
    return not word.startswith("-") and bool(re.search(r"[/~]|\.\w{1,5}$", word))


def file_writes(call: ToolCall) -> list[FileWrite]:
    """Find the files a tool call writes (see the module docstring for what counts).

    Args:
        call: The tool call. A shell tool's string arguments are parsed as shell; any other
            tool counts when its name has a write verb and an argument names a path.

    Returns:
        The writes in order of appearance, one per (path, argument); empty when none.
    """
    found: dict[tuple[str, str], FileWrite] = {}
    if is_shell_tool(call.name):
        for path, value in call.argument_values():
            location = f"tool_call:{call.name}.{path}"
            for write in _shell_writes(value, location):
                found.setdefault((write.path, location), write)
    else:
        for write in _tool_writes(call):
            found.setdefault((write.path, write.location), write)
    return list(found.values())


def scan_file_writes(call: ToolCall) -> list[Finding]:
    """Report each file a tool call writes, at the severity of the module's table.

    Args:
        call: The tool call.

    Returns:
        One ``file_write`` finding per path written: P1 for a persistence or privilege file,
        P2 outside the working directory, P4 otherwise. The title names the tool and the path.
    """
    findings: list[Finding] = []
    for write in file_writes(call):
        rule, why = classify_path_rule(write.path)
        title = f"tool call {call.name} writes {write.path}" + (f": {why}" if why else "")
        findings.append(
            Finding(
                role=_ROLE,
                category=rule.category,
                severity=rule.severity_in(Context.TOOL_CALL) or Severity.P4,
                title=title,
                evidence=f"{write.via} {write.path}"[:200],
                location=write.location,
                rule=rule.rule_id,
            )
        )
    return findings


def shell_command_writes(command: str, location: str) -> list[FileWrite]:
    """The files one shell command line writes (``file_writes`` for a bare command string)."""
    return list(_shell_writes(command, location))


# --- shell ------------------------------------------------------------------------------------
_NEEDLES = (">", "tee", "sed", "cp", "mv", "install", "dd", "curl", "wget", "crontab")


def _shell_writes(source: str, location: str) -> Iterator[FileWrite]:
    if not any(needle in source for needle in _NEEDLES):
        return
    for command in parse_shell(source):
        for op, target in command.redirects:
            if not _NOT_WRITES.match(target):
                yield FileWrite(target, op, command.pipeline, location)
        for via, target in _command_targets(command):
            if not _NOT_WRITES.match(target):
                yield FileWrite(target, via, command.pipeline, location)


def _command_targets(command: ShellCommand) -> Iterator[tuple[str, str]]:
    words = strip_wrappers(command.words)
    if not words:
        return
    name, args = words[0].rsplit("/", 1)[-1], words[1:]
    positional = [a for a in args if not a.startswith("-") or a == "-"]
    if name == "tee":
        yield from (("tee", a) for a in positional if a != "-")
    elif name == "sed" and any(_sed_in_place(a) for a in args):
        given = any(a in {"-e", "-f"} or a.startswith(("--expression", "--file")) for a in args)
        yield from (("sed -i", f) for f in _sed_files(args, scripts_given=given))
    elif name in {"cp", "mv", "install"} and "-d" not in args:
        target = _option_value(args, "-t", "--target-directory")
        if target is not None:
            yield name, target
        elif len(positional) >= 2:
            yield name, positional[-1]
    elif name == "dd":
        yield from (("dd", a[3:]) for a in args if a.startswith("of="))
    elif name in {"curl", "wget"}:
        short = "-o" if name == "curl" else "-O"
        target = _option_value(args, short, "--output" if name == "curl" else "--output-document")
        if target is not None:
            yield f"{name} {short}", target
    elif name == "crontab" and not {"-l", "-r", "-e"} & set(args) and positional:
        yield "crontab", "crontab"


def _sed_in_place(arg: str) -> bool:
    return arg.startswith("--in-place") or re.match(r"-[nErsuz]*i", arg) is not None


def _sed_files(args: tuple[str, ...], *, scripts_given: bool) -> list[str]:
    files: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in {"-e", "-f", "-l", "--expression", "--file", "--line-length"}:
            skip = True  # its value is a script, a script file or a line length
        elif not arg.startswith("-"):
            files.append(arg)
    return files if scripts_given else files[1:]  # the first is the script


def _option_value(args: tuple[str, ...], short: str, long: str) -> str | None:
    for i, arg in enumerate(args):
        if arg in {short, long} and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(f"{long}="):
            return arg.split("=", 1)[1]
        if arg.startswith(short) and len(arg) > len(short) and not arg.startswith("--"):
            return arg[len(short) :]
    return None


# --- writing tools ----------------------------------------------------------------------------
def _tool_writes(call: ToolCall) -> Iterator[FileWrite]:
    words = tool_words(call.name)
    if not words & _WRITE_VERBS or words & _NOT_FILES:
        return
    args = call.arguments
    for mode_key in _MODE_KEYS:
        mode = args.get(mode_key)
        if isinstance(mode, str) and mode.strip().lower() in _READ_ONLY:
            return
    lowered = {k.lower(): k for k in args}
    key = next((lowered[k] for k in _PATH_KEYS if k in lowered), None)
    if key is None or not isinstance(args[key], str | int) or not str(args[key]).strip():
        return
    data = "\n".join(
        v for p, v in call.argument_values(numbers=True) if re.split(r"[.\[]", p)[0] != key
    )
    target = str(args[key]).strip()
    shown = f"file {target}" if key.lower() == "file_id" else target
    yield FileWrite(shown, "tool", data, f"tool_call:{call.name}.{key}")


# --- where a path points (rules/paths.py: the file-write classes) -----------------------------
_HOME = re.compile(r"^(?:~|\$HOME|\$\{HOME\}|/home/[^/]+|/Users/[^/]+)(?=/|$)")
_RULE_OF = {r.severity_in(Context.TOOL_CALL): r for r in paths.FILE_WRITES}


def classify_path(path: str) -> tuple[Severity, str]:
    """The severity of writing ``path``, and why (empty for P4): the module's table.

    Args:
        path: A path as written in a command or argument (``~`` and ``$HOME`` understood).

    Returns:
        ``(severity, reason)``.
    """
    normal = _HOME.sub("~", path.strip().strip("\"'"))
    normal = re.sub(r"/{2,}", "/", normal)
    name = normal.rsplit("/", 1)[-1]
    if name in paths.SHELL_RC:
        return Severity.P1, "a shell start-up file: persistence (T1546.004)"
    for pattern, why in paths.PERSISTENCE:
        if pattern.search(normal):
            return Severity.P1, why
    if paths.WRITE_SYSTEM_DIRS.search(normal):
        return Severity.P2, "outside the working directory, in a system directory"
    if normal.startswith("~/."):
        return Severity.P2, "outside the working directory, in a configuration directory"
    if normal == ".." or normal.startswith("../"):
        return Severity.P2, "outside the working directory"
    return Severity.P4, ""


def classify_path_rule(path: str) -> tuple[Rule, str]:
    """``classify_path`` as a rule of the rules table, and why.

    Returns:
        ``(rule, reason)``: ``file_write_persistence`` (P1), ``file_write_outside`` (P2) or
        ``file_write`` (P4).
    """
    severity, why = classify_path(path)
    return _RULE_OF[severity], why
