"""Python code and package names in a deliverable, read with ``ast`` and regular expressions only.

The Reality Checker (``qgs_worker.roles.reality``) asks whether the modules, functions and
packages a deliverable names exist. This module finds them; it never executes, imports or
compiles the code it reads (``ast.parse`` builds a tree and nothing else).

- :func:`python_snippets`: the Python code in a round: fenced blocks of the text, ``python -c``
  commands and ``python - <<EOF`` heredocs in tool-call arguments, files a tool call writes.
- :func:`references`: the imported modules, from-imported names and attribute chains of a
  snippet (``np.linalg.norm`` after ``import numpy as np``), with their line numbers.
- :func:`pip_packages` (re-exported from :mod:`qgs_worker.core.pip_packages`): the package names
  of ``pip install`` / ``poetry add`` commands.
- :func:`local_modules`: module names the round itself provides (``utils`` for ``utils.py``).

Everything here is conservative: a false "this does not exist" costs the agent a revision, so
whatever cannot be read with confidence is left out rather than guessed.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple

from qgs_worker.core.models import Deliverable, ToolCall
from qgs_worker.core.pip_packages import INTERPRETER as _INTERPRETER  # python -c, heredocs
from qgs_worker.core.pip_packages import normalize_package, pip_packages

__all__ = [
    "ModuleRef",
    "ReferenceSet",
    "Snippet",
    "SyntaxProblem",
    "local_modules",
    "normalize_package",
    "pip_packages",
    "python_snippets",
    "references",
]

RefKind = Literal["import", "from", "attribute"]


@dataclass(frozen=True)
class Snippet:
    """A piece of Python code found in a round, and where.

    Attributes:
        source: The code, dedented (line numbers are relative to it, from 1).
        location: ``text:block N`` (the Nth fenced block of the text), ``text`` (a shell command
            in the text) or ``tool_call:NAME.ARG`` (an argument of a tool call).
    """

    source: str
    location: str


@dataclass(frozen=True)
class ModuleRef:
    """One reference to a module, or to a name reached from it along an attribute chain.

    Attributes:
        module: The dotted module name as imported (``numpy``, ``os.path``).
        attributes: The names looked up on it, in order (``("linalg", "norm")`` for
            ``np.linalg.norm``); empty for a bare ``import``.
        line: The line of the snippet where it appears, from 1.
        code: That line, stripped (the evidence of a finding).
        kind: ``import`` (``import a.b``), ``from`` (``from a import b``) or ``attribute``
            (an attribute chain on an imported name).
        optional: The import sits in a ``try`` whose handler catches ``ImportError``: the code
            is ready for the module to be missing.
    """

    module: str
    attributes: tuple[str, ...] = ()
    line: int = 0
    code: str = ""
    kind: RefKind = "import"
    optional: bool = False

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """What is checked: ``(module, attributes)``; equal keys need one check."""
        return self.module, self.attributes

    @property
    def top_level(self) -> str:
        """The top-level package name (``numpy`` for ``numpy.linalg``)."""
        return self.module.split(".", 1)[0]

    @property
    def dotted(self) -> str:
        """The full dotted name (``numpy.linalg.norm``)."""
        return ".".join((self.module, *self.attributes))


class SyntaxProblem(NamedTuple):
    """Why a snippet does not parse: the parser's message and the line (from 1; 0 if unknown)."""

    message: str
    line: int


@dataclass(frozen=True)
class ReferenceSet:
    """What a snippet refers to, or why it could not be read.

    Attributes:
        refs: Imports, from-imports and attribute chains, first occurrence of each kept.
        syntax_error: Set (and ``refs`` empty) when the snippet does not parse.
    """

    refs: tuple[ModuleRef, ...] = ()
    syntax_error: SyntaxProblem | None = None

    @property
    def modules(self) -> tuple[str, ...]:
        """The modules named by ``import`` and ``from`` statements, in order of appearance."""
        return tuple(dict.fromkeys(r.module for r in self.refs if r.kind != "attribute"))

    @property
    def names(self) -> tuple[tuple[str, str], ...]:
        """The ``(module, name)`` pairs of ``from module import name`` statements."""
        return tuple((r.module, r.attributes[0]) for r in self.refs if r.kind == "from")


# --- snippets -----------------------------------------------------------------------------------
_PYTHON_TAGS = frozenset({"python", "py", "python3", "py3", "ipython", "pycon", "python-repl"})
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")
_MAGIC = re.compile(r"^[ \t]*[%!]")
_PY_FILE = re.compile(r"^\S{0,300}\.py$")
_FILE_KEYS = frozenset(
    {"content", "contents", "file_text", "text", "code", "source", "data", "body", "new_content"}
)
_FRAGMENT_KEYS = frozenset({"new_str", "new_string", "insert_text", "replacement", "new_text"})
_PYTHON_TOOL = re.compile(
    r"(?:^|[_.-])(?:python\d?|ipython|jupyter|notebook|code_interpreter)(?:$|[_.-])", re.I
)
_CODE_KEYS = frozenset({"code", "source", "script", "cell", "input"})
_PYTHON_C = re.compile(
    rf"(?:^|(?<=[\s;&|(`]))(?:sudo\s+)?{_INTERPRETER}(?:\s+-[A-Za-z]+)*?\s+-[A-Za-z]*c(?![\w-])\s*(?=\S)"
)
_HEREDOC = re.compile(
    r"(?<!<)<<(?!<)(?P<dash>-?)[ \t]*(?P<quote>['\"]?)(?P<tag>[A-Za-z_]\w*)(?P=quote)"
)
_PY_HEREDOC_HEAD = re.compile(rf"(?:^|[\s;&|(`]){_INTERPRETER}(?:\s+-[A-Za-z]+)*(?:\s+-)?\s*$")
_PY_REDIRECT = re.compile(r"(?:>>?|\btee(?:\s+-a)?)\s*(?P<path>[\w./~-]+\.py)\b")
_PY_FILE_NAME = re.compile(r"(?<![\w.])((?:[\w-]+/)*)([A-Za-z_]\w*)\.py\b")


def python_snippets(deliverable: Deliverable) -> list[Snippet]:
    """Find the Python code in one round.

    Read, in order: fenced blocks of ``deliverable.text`` tagged ``python``, ``py``,
    ``python3`` (or ``pycon`` / ``>>>`` sessions, whose prompts are removed and output lines
    blanked); untagged fences only when they parse as Python *and* contain an import; and, in the
    text and every string argument of every tool call, ``python -c CODE`` commands, heredocs fed
    to an interpreter (``python3 - <<'EOF'``) or written to a ``.py`` file (``cat > x.py <<EOF``).
    A tool call with an argument ending in ``.py`` (``write_file(path="x.py", content=...)``)
    gives its file content; a partial edit (``new_str``) only when it parses on its own. Tools
    named like ``python`` / ``code_interpreter`` give their ``code`` argument. IPython magics
    (``%timeit``, ``!pip``) become blank lines.

    Args:
        deliverable: The round to read.

    Returns:
        The snippets, each with its location (``text:block 2``, ``tool_call:bash.command``).
    """
    found: list[Snippet] = []
    for number, info, body in _fenced_blocks(deliverable.text):
        tag = info.split(maxsplit=1)[0].strip("{}.").lower() if info.strip() else ""
        location = f"text:block {number}"
        code = _clean_python(body)
        if tag in _PYTHON_TAGS or (not tag and _parses_with_import(code)):
            found.append(Snippet(code, location))
    found.extend(Snippet(code, "text") for code in _shell_python(deliverable.text))
    for call in deliverable.tool_calls:
        found.extend(_call_snippets(call))
    return found


def local_modules(deliverable: Deliverable) -> frozenset[str]:
    """Module names the round provides itself: ``utils`` when it writes or names ``utils.py``.

    The stems of ``.py`` files named in the text or a tool-call argument, and the folders on their
    paths (``app/models.py`` gives ``app`` and ``models``). An import of one of them is the
    project's own code, not a claim about an installed package.
    """
    names: set[str] = set()
    texts = [deliverable.text, *(v for c in deliverable.tool_calls for _, v in c.argument_values())]
    for text in texts:
        if ".py" not in text:  # every name it reads ends so: most texts are passed at C speed
            continue
        for match in _PY_FILE_NAME.finditer(text):
            names.add(match.group(2))
            names.update(p for p in match.group(1).split("/") if p.isidentifier())
    return frozenset(names)



def _fenced_blocks(text: str) -> Iterator[tuple[int, str, str]]:
    """``(number, info string, body)`` of each fenced block (CommonMark fences, any indent)."""
    lines = text.splitlines()
    number = 0
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        fence = opening.group("fence")
        indent = len(opening.group("indent"))
        body: list[str] = []
        i += 1
        while i < len(lines):
            stripped = lines[i].strip()
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                break
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            i += 1
        i += 1
        number += 1
        yield number, opening.group("info"), "\n".join(body)


def _clean_python(code: str) -> str:
    """Dedent; strip ``>>>`` prompts (blanking output lines); blank IPython magic lines.

    Magic lines (``%timeit``, ``!pip``) are blanked only when the code does not parse as it is:
    a continuation line may also start with ``%`` (``("%s"`` then ``% x)``). The number of lines is
    kept, so a line number still points into the original block.
    """
    lines = textwrap.dedent(code).splitlines()
    first = next((line for line in lines if line.strip()), "")
    if _PROMPT.match(first.lstrip()):
        lines = [line.lstrip()[4:] if _PROMPT.match(line.lstrip()) else "" for line in lines]
    code = "\n".join(lines)
    if not any(_MAGIC.match(line) for line in lines) or _parses(code):
        return code
    return "\n".join("" if _MAGIC.match(line) else line for line in lines)


def _parses_with_import(code: str) -> bool:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.walk(tree))


def _call_snippets(call: ToolCall) -> Iterator[Snippet]:
    values = list(call.argument_values())
    writes_py = any("\n" not in v and _PY_FILE.match(v.strip()) for _, v in values if v.strip())
    python_tool = _PYTHON_TOOL.search(call.name) is not None
    for path, value in values:
        key = path.rsplit(".", 1)[-1].split("[", 1)[0].lower()
        location = f"tool_call:{call.name}.{path}"
        whole_file = writes_py and key in _FILE_KEYS and bool(value.strip())
        maybe_fragment = writes_py and key in _FRAGMENT_KEYS
        code_value = python_tool and key in _CODE_KEYS
        # Cleaned only where it may be Python: most values are shell commands or prose, and
        # cleaning (dedent, prompts, magics) cost more than the rest of the audit's reading.
        code = _clean_python(value) if whole_file or maybe_fragment or code_value else ""
        fragment = maybe_fragment and _parses(code)
        if whole_file or fragment or code_value:
            yield Snippet(code, location)
        else:
            for code in _shell_python(value):
                yield Snippet(code, location)


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _shell_python(text: str) -> Iterator[str]:
    """Python code in shell text: ``python -c CODE`` and heredocs fed to Python or a ``.py`` file."""
    if "python" in text or "py " in text:
        for match in _PYTHON_C.finditer(text):
            word = _shell_word(text, match.end())
            if word:
                yield _clean_python(word)
    if "<<" not in text:  # no heredoc (``_HEREDOC`` starts with it): no line to read
        return
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        heredoc = _HEREDOC.search(line)
        if heredoc is None:
            i += 1
            continue
        head, tail = line[: heredoc.start()], line[heredoc.end() :]
        into_python = _PY_HEREDOC_HEAD.search(head) is not None
        if not into_python and _PY_REDIRECT.search(f"{head} {tail}") is None:
            i += 1  # another command's heredoc (or a `<<` shift in code): not ours to skip
            continue
        tag, dash = heredoc.group("tag"), heredoc.group("dash")
        body: list[str] = []
        i += 1
        while i < len(lines):
            candidate = lines[i].lstrip("\t") if dash else lines[i]
            if candidate == tag:
                break
            body.append(candidate)
            i += 1
        i += 1
        yield _clean_python("\n".join(body))


def _shell_word(text: str, pos: int) -> str:
    """The shell word starting at ``pos`` (quotes removed, as POSIX sh reads it), or ``""``."""
    out: list[str] = []
    i = pos
    while i < len(text) and not text[i].isspace() and text[i] not in ";&|)`":
        char = text[i]
        if char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                return ""
            out.append(text[i + 1 : end])
            i = end + 1
        elif char == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$`\n':
                    i += 1
                out.append(text[i])
                i += 1
            if i >= len(text):
                return ""
            i += 1
        elif char == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


# --- references ---------------------------------------------------------------------------------
def references(source: str) -> ReferenceSet:
    """Read what a snippet imports and which attributes it uses on imported names.

    Only ``ast.parse``: nothing is compiled, imported or run. Relative imports (``from . import
    x``) are the project's own and ignored. An imported name that the snippet also binds in any
    other way (a ``def``, ``class``, assignment, parameter, loop or ``with`` target) or imports
    from two different modules is *shadowed*: its import is still reported, its attribute chains
    are not (``json.loads_fast`` after ``def json(): ...`` says nothing about the module
    ``json``). Chains that are assigned to or deleted (``mod.x = 1``) are not references.

    Args:
        source: Python code.

    Returns:
        The references, each ``(module, attributes)`` once at its first line; or, when the code
        does not parse, only ``syntax_error`` with the parser's message and line.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return ReferenceSet(syntax_error=SyntaxProblem(exc.msg, exc.lineno or 0))
    except ValueError as exc:  # e.g. a NUL byte in the source
        return ReferenceSet(syntax_error=SyntaxProblem(str(exc), 0))
    lines = source.splitlines()
    reader = _Reader(lines)
    reader.visit(tree)
    return ReferenceSet(refs=reader.result())


class _Reader(ast.NodeVisitor):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.imports: list[ModuleRef] = []
        self.bindings: dict[str, set[tuple[str, tuple[str, ...]]]] = {}
        self.other_bindings: set[str] = set()
        self.chains: list[tuple[str, tuple[str, ...], int]] = []
        self.optional_depth = 0

    # Bindings --------------------------------------------------------------------------------
    def _bind_import(self, name: str, target: tuple[str, tuple[str, ...]]) -> None:
        self.bindings.setdefault(name, set()).add(target)

    def _ref(self, module: str, attributes: tuple[str, ...], line: int, kind: RefKind) -> ModuleRef:
        code = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        return ModuleRef(module, attributes, line, code, kind, self.optional_depth > 0)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.imports.append(self._ref(alias.name, (), node.lineno, "import"))
            if alias.asname:
                self._bind_import(alias.asname, (alias.name, ()))
            else:
                top = alias.name.split(".", 1)[0]
                self._bind_import(top, (top, ()))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        for alias in node.names:
            if alias.name == "*":
                self.imports.append(self._ref(node.module, (), node.lineno, "import"))
                continue
            self.imports.append(self._ref(node.module, (alias.name,), node.lineno, "from"))
            self._bind_import(alias.asname or alias.name, (node.module, (alias.name,)))

    def visit_Try(self, node: ast.Try) -> None:
        self._visit_try(node)

    def visit_TryStar(self, node: ast.TryStar) -> None:
        self._visit_try(node)

    def _visit_try(self, node: ast.Try | ast.TryStar) -> None:
        guarded = any(_catches_import_error(h.type) for h in node.handlers)
        self.optional_depth += guarded
        for statement in node.body:
            self.visit(statement)
        self.optional_depth -= guarded
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    def _bind_other(self, name: str | None) -> None:
        if name:
            self.other_bindings.add(name)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._bind_other(node.name)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._bind_other(node.name)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._bind_other(node.name)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self._bind_other(node.arg)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._bind_other(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        self._bind_other(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        self._bind_other(node.name)
        self.generic_visit(node)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        self._bind_other(node.rest)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            self._bind_other(node.id)

    # Uses ------------------------------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts: list[str] = []
        value: ast.expr = node
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if not isinstance(value, ast.Name):
            self.generic_visit(node)
            return
        parts.reverse()
        if not isinstance(node.ctx, ast.Load):
            parts.pop()  # `mod.a.b = 1` reads mod.a, and sets b
        if parts:
            self.chains.append((value.id, tuple(parts), node.lineno))

    def result(self) -> tuple[ModuleRef, ...]:
        refs: dict[tuple[str, tuple[str, ...]], ModuleRef] = {}
        for ref in self.imports:
            refs.setdefault(ref.key, ref)
        for name, parts, line in self.chains:
            targets = self.bindings.get(name)
            if not targets or len(targets) > 1 or name in self.other_bindings:
                continue
            ((module, prefix),) = targets
            ref = self._ref(module, prefix + parts, line, "attribute")
            optional = any(r.optional for r in self.imports if r.key == (module, prefix))
            if optional:
                ref = ModuleRef(ref.module, ref.attributes, ref.line, ref.code, ref.kind, True)
            refs.setdefault(ref.key, ref)
        return tuple(refs.values())


def _catches_import_error(handler_type: ast.expr | None) -> bool:
    if handler_type is None:
        return True
    names = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    caught = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "") for n in names}
    return bool(caught & {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
