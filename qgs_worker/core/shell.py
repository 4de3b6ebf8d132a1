r"""A small POSIX shell lexer: simple commands, their words and redirections.

The detectors need to know what a shell command does, not what characters it holds: in
``echo '<h1>Ann</h1>' > site.html`` the ``>`` inside quotes is data and the one outside writes
``site.html``. This lexer follows the token rules of POSIX.1-2017, Shell Command Language,
section 2.3 ("Token Recognition"), 2.6 (quote removal), 2.7 (redirection) and 2.9.2 (pipelines),
enough for that purpose:

- quotes (``'...'``, ``"..."``, ``\x``) are removed from words; ``$(...)``, ``${...}``,
  backquotes and process substitutions ``<(...)`` / ``>(...)`` stay inside their word, unparsed;
- ``;``, ``&``, ``&&``, ``||`` and newlines end a pipeline; ``|`` ends a command inside one;
  ``(``, ``)``, ``{``, ``}`` and the reserved words before a command (``if``, ``then``, ``do``...)
  only group;
- redirections ``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``N>`` are kept with their target;
  ``>&N`` (descriptor duplication), ``<`` and here-strings are dropped; here-document bodies are
  skipped as words but kept in the pipeline's text (they are the data written);
- ``#`` at the start of a word starts a comment; ``>`` inside ``[[ ]]`` and ``(( ))`` compares.

It never raises: an unterminated quote runs to the end of the input. Pure stdlib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["ShellCommand", "parse_shell", "remove_quoting", "strip_wrappers"]

_RESERVED = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time"})
# wrappers that run the next word as the command: sudo / doas / env / nohup / nice / timeout...
_WRAPPERS = frozenset({"sudo", "doas", "env", "nohup", "nice", "exec", "command", "timeout"})
_WRAPPER_ARGS = {"sudo": "ugCpUhrtTD", "doas": "uC", "nice": "n", "env": "uC"}


_PLAIN = re.compile(r"[^\s\\'\"`$<>&|;()#]+")


@dataclass(frozen=True, slots=True)
class ShellCommand:
    """One simple command.

    Attributes:
        words: Its words after quote removal, redirections taken out (``("tee", "-a", "f")``).
        redirects: ``(operator, target)`` pairs of its output redirections, e.g. ``(">>", "log")``.
        pipeline: The source text of the pipeline it belongs to, here-document bodies included:
            the data a write or a send in this pipeline can carry.
    """

    words: tuple[str, ...]
    redirects: tuple[tuple[str, str], ...]
    pipeline: str


def strip_wrappers(words: tuple[str, ...]) -> tuple[str, ...]:
    """Drop leading assignments (``A=1``), reserved words and wrappers (``sudo -u x``, ``env``).

    Args:
        words: A command's words.

    Returns:
        The words from the command that actually runs (its name first); empty when none.
    """
    i = 0
    while i < len(words):
        word = words[i]
        if word in _RESERVED or _is_assignment(word):
            i += 1
            continue
        name = word.rsplit("/", 1)[-1]
        if name not in _WRAPPERS:
            break
        i += 1
        takes = _WRAPPER_ARGS.get(name, "")
        while i < len(words) and (words[i].startswith("-") or _is_assignment(words[i])):
            option = words[i]
            i += 1
            if option == "--":
                break
            if len(option) == 2 and option[1] in takes and i < len(words):
                i += 1  # the option's value (sudo -u alice)
        if name == "timeout" and i < len(words):
            i += 1  # the duration
    return words[i:]


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.isidentifier()


# Quoting that the shell removes from a word (section 2.6.4): empty quotes, a backslash before an
# ordinary character, a backslash-newline, quotes glued to a word, and a quoted command name.
_HIDING_QUOTES = re.compile(
    r"""''|""|\\\n|\\(?=[\w/])"""
    r"""|(?<=\w)(['"])(\w+)\1|(['"])(\w+)\3(?=\w)|(?:^|(?<=[;&|(\n]))(\s*)(['"])(\w+)\6(?=\s)"""
)


def remove_quoting(command: str) -> str:
    r"""The command line with the quoting that hides a word removed, for pattern checks.

    ``r''m``, ``r""m``, ``r\m``, ``\rm``, ``'r'm``, ``r"m"`` and ``"rm"`` (where a command
    name stands) all run ``rm``; so does ``rm -rf \`` + newline + ``/``. Other quotes stay, so
    a pattern can still tell ``'a b'`` from ``a b``. Linear in the command's length.

    Args:
        command: A command line, any length.

    Returns:
        The command with that quoting removed; ``command`` itself when it has none.
    """
    if "'" not in command and '"' not in command and "\\" not in command:
        return command
    return _HIDING_QUOTES.sub(lambda m: (m[5] or "") + (m[2] or m[4] or m[7] or ""), command)


@lru_cache(maxsize=256)
def parse_shell(source: str) -> tuple[ShellCommand, ...]:
    """Split a shell command line into simple commands (see the module docstring for the rules).

    Results are memoized for the last 256 inputs: the file-write, personal-data and network
    checks of one tool call parse the same command.

    Args:
        source: A command line or a script, any length.

    Returns:
        The simple commands in order of appearance; those with no words and no redirection
        are left out.
    """
    return tuple(_Lexer(source).run())


class _Lexer:
    def __init__(self, source: str) -> None:
        self.src = source
        self.i = 0
        self.word: list[str] = []
        self.in_word = False
        self.words: list[str] = []
        self.redirects: list[tuple[str, str]] = []
        self.pending: str | None = None  # a redirection operator waiting for its target
        self.heredocs: list[tuple[str, bool]] = []  # (delimiter, strip leading tabs)
        self.commands: list[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = []
        self.start = 0  # where the current pipeline's text starts
        # each command with the span of its pipeline's text: (words, redirects, start, end)
        self.out: list[tuple[tuple[str, ...], tuple[tuple[str, str], ...], int, int]] = []

    def run(self) -> list[ShellCommand]:
        self._scan()
        return [ShellCommand(w, r, self.src[s:e]) for w, r, s, e in self.out]

    def _scan(self) -> None:
        src, n = self.src, len(self.src)
        while self.i < n:
            c = src[self.i]
            if c == "\\":
                if src.startswith("\n", self.i + 1):
                    self.i += 2  # a line continuation
                    continue
                self._add(src[self.i + 1 : self.i + 2])
                self.i += 2
            elif c == "'":
                end = src.find("'", self.i + 1)
                end = n if end < 0 else end
                self._add(src[self.i + 1 : end])
                self.i = end + 1
            elif c == '"':
                self.i = self._double_quoted(self.i + 1)
            elif c == "`":
                end = src.find("`", self.i + 1)
                end = n if end < 0 else end
                self._add(src[self.i : end + 1])
                self.i = end + 1
            elif c == "$" and src.startswith(("$(", "${"), self.i):
                end = self._balanced(self.i + 1)
                self._add(src[self.i : end])
                self.i = end
            elif c in "<>" and src.startswith("(", self.i + 1):
                end = self._balanced(self.i + 1)  # process substitution: part of the word
                self._add(src[self.i : end])
                self.i = end
            elif c in " \t\r":
                self._end_word()
                self.i += 1
            elif c == "\n":
                self._end_pipeline(self.i)
                self.i += 1
                self._skip_heredocs()
            elif c == "#" and not self.in_word:
                end = src.find("\n", self.i)
                self.i = n if end < 0 else end
            elif c == ";" or (c == "&" and not src.startswith(("&>",), self.i)):
                self._end_pipeline(self.i)
                self.i += 2 if src.startswith(("&&", ";;"), self.i) else 1
                self.start = self.i
            elif c == "|":
                if src.startswith("||", self.i):
                    self._end_pipeline(self.i)
                    self.i += 2
                    self.start = self.i
                else:
                    self._end_command()
                    self.i += 2 if src.startswith("|&", self.i) else 1
            elif src.startswith("((", self.i) and not self.in_word:
                end = self._balanced(self.i)  # an arithmetic command: one word, `>` compares
                self._add(src[self.i : end])
                self.i = end
            elif c in "()" and not self.in_word:
                self._end_command()
                self.i += 1
            elif c in "<>&":
                self._operator(c)
            else:
                run = _PLAIN.match(src, self.i)  # ordinary characters up to the next special one
                end = run.end() if run else self.i + 1
                self._add(src[self.i : end])
                self.i = end
        self._end_pipeline(n)

    # --- words ---------------------------------------------------------------------------------
    def _add(self, text: str) -> None:
        self.word.append(text)
        self.in_word = True

    def _end_word(self) -> None:
        if not self.in_word:
            return
        word = "".join(self.word)
        self.word, self.in_word = [], False
        if self.pending is None:
            self.words.append(word)
            return
        op, self.pending = self.pending, None
        if op == "<<":
            self.heredocs.append((word, False))
        elif op == "<<-":
            self.heredocs.append((word, True))
        elif op not in {"<", "<<<"} and not (op.endswith("&") and (word.isdigit() or word == "-")):
            self.redirects.append((op.rstrip("&") or ">", word))

    def _end_command(self) -> None:
        self._end_word()
        if self.words or self.redirects:
            self.commands.append((tuple(self.words), tuple(self.redirects)))
        self.words, self.redirects, self.pending = [], [], None

    def _end_pipeline(self, at: int) -> None:
        self._end_command()
        self.out.extend((w, r, self.start, at) for w, r in self.commands)
        self.commands = []

    # --- operators -----------------------------------------------------------------------------
    def _operator(self, c: str) -> None:
        src = self.src
        if c == ">" and self._comparing():
            self._add(c)  # a comparison
            self.i += 1
            return
        if c == "&":  # &> and &>>
            op = "&>>" if src.startswith("&>>", self.i) else "&>"
            self._end_word()
            self.pending, self.i = (">>" if op == "&>>" else ">"), self.i + len(op)
            return
        if self.in_word and "".join(self.word).isdigit():
            self.word, self.in_word = [], False  # a descriptor number: 2>file
        else:
            self._end_word()
        for op in ("<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<"):
            if src.startswith(op, self.i):
                self.i += len(op)
                self.pending = {"<&": "<", "<>": "<", ">|": ">"}.get(op, op)
                return

    def _comparing(self) -> bool:
        """Whether a ``>`` here compares: inside ``[[ ]]``, or after ``test`` / ``[``."""
        words = strip_wrappers(tuple(self.words))
        if words[:1] in (("test",), ("[",)):
            return True
        return self.words.count("[[") > self.words.count("]]")

    # --- quoted and nested text ----------------------------------------------------------------
    def _double_quoted(self, i: int) -> int:
        src, n = self.src, len(self.src)
        parts: list[str] = []
        while i < n and src[i] != '"':
            if src[i] == "\\" and i + 1 < n:
                parts.append(src[i + 1] if src[i + 1] in '"\\$`\n' else src[i : i + 2])
                i += 2
            elif src.startswith(("$(", "${"), i):
                end = self._balanced(i + 1)
                parts.append(src[i:end])
                i = end
            else:
                parts.append(src[i])
                i += 1
        self._add("".join(parts))
        return i + 1

    def _balanced(self, i: int) -> int:
        """The index after the bracket closing the one at ``i`` (quotes inside are skipped)."""
        src, n = self.src, len(self.src)
        opening = src[i]
        closing = ")" if opening == "(" else "}"
        depth = 0
        while i < n:
            c = src[i]
            if c in "'\"":
                end = src.find(c, i + 1)
                i = n if end < 0 else end + 1
                continue
            if c == "\\":
                i += 2
                continue
            depth += (c == opening) - (c == closing)
            i += 1
            if depth == 0:
                return i
        return n

    def _skip_heredocs(self) -> None:
        """After a newline: skip the bodies of pending here-documents, keeping them as text."""
        src = self.src
        for delimiter, strip_tabs in self.heredocs:
            while self.i < len(src):
                end = src.find("\n", self.i)
                end = len(src) if end < 0 else end
                line = src[self.i : end]
                self.i = end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
        if self.heredocs and self.out:  # the body is the data of the pipeline that opened it
            opened = self.out[-1][2]
            self.out = [(w, r, s, self.i if s == opened else e) for w, r, s, e in self.out]
        self.heredocs = []
        self.start = min(self.i, len(src))
