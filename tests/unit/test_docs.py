"""The README and docs/ stay true to the tree: links resolve, named commands and settings exist.

Every Markdown page checked (``README.md`` and ``docs/*.md``):

- each relative link (``[text](path)``, ``[text](path#anchor)``, ``[text](#anchor)``) names a file
  or folder of the tree, and an anchor names a heading of that file (GitHub's slugs);
- each ``qgs COMMAND [SUBCOMMAND] [--option ...]`` in a code span or a code block is a command of
  the typer app, and each option it shows is one of that command's;
- each ``QGS_*`` variable is a setting of ``Settings`` (nested groups by ``__``) or one of the few
  read elsewhere (``OUTSIDE_SETTINGS``), and each ``make TARGET`` is a rule of the Makefile;
- each page of docs/ opens with its title and a one-paragraph summary.

``TestTheChecks`` feeds each check a broken page, so a check that stops catching is caught.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250
"""The README is the first five minutes (issue 30); everything else has a page in docs/."""

OUTSIDE_SETTINGS = {
    # name: (a file that reads it, relative to the root), what it is
    "QGS_API_KEY": ("qgs_worker/cli/serve.py", "the key `qgs mcp` acts with over stdio"),
    "QGS_ENV_FILE": ("docker-compose.yml", "the env file every QGS container reads"),
    "QGS_URL": ("examples/agent.mjs", "the server the examples talk to (also api_quickstart.sh)"),
    "QGS_KEY": ("examples/agent.mjs", "the API key the examples send (also api_quickstart.sh)"),
    "QGS_TEST_REDIS_DB": ("tests/integration/conftest.py", "the integration tests' first Redis db"),
    "QGS_TEST_REDIS_HOST": ("tests/integration/conftest.py", "the integration tests' Redis host"),
    "QGS_TEST_REDIS_PORT": ("tests/integration/conftest.py", "the integration tests' Redis port"),
    "QGS_HTML_SHOT": ("tests/integration/test_report_html.py", "where the HTML test saves a shot"),
    "QGS_CONSOLE_SHOTS": (
        "tests/integration/test_console_browser.py",
        "where the console's browser tests save their screenshots",
    ),
    "QGS_BENCH_REDIS_URL": ("bench/toolgate_bench.py", "the Redis `make bench` uses (and flushes)"),
    "QGS_BENCH_CORPUS": ("bench/toolgate_bench.py", "the shared corpus the tool gate benches read"),
    "QGS_BENCH_LLM_API_KEY": ("bench/classifier_llm_accuracy.py", "a real endpoint's key"),
    "QGS_ENCODER": ("qgs_worker/encoders/__init__.py", "off: the detector without the encoder"),
    "QGS_BENCH_ENCODER_PATH": ("bench/encoder_bench.py", "a folder holding the encoder package"),
}
"""``QGS_*`` variables read outside ``Settings``: each with a file that reads it (checked)."""

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
QGS_COMMAND = re.compile(r"(?<![\w.$/-])qgs[ \t]+")
MAKE_TARGET = re.compile(r"(?<![\w.$/-])make[ \t]+([a-z][\w-]*)")
SETTING = re.compile(r"(?<![A-Za-z0-9_])QGS_[A-Z0-9_]*")
WORD = re.compile(r"[a-z][a-z0-9-]*")
OPTION = re.compile(r"(-{1,2}[A-Za-z][\w-]*)(?:=.*)?")


@dataclass
class Page:
    """A Markdown page split into prose, code and headings."""

    prose: list[str] = field(default_factory=list)
    """Paragraphs outside code blocks, code spans left in."""
    code: list[str] = field(default_factory=list)
    """Code spans (newlines as spaces) and code block lines (continuations joined)."""
    headings: list[str] = field(default_factory=list)
    """Each heading's text, as written."""


def parse(text: str) -> Page:
    """Split a Markdown text into prose paragraphs, code and headings."""
    page = Page()
    paragraph: list[str] = []
    block: list[str] | None = None

    def end_paragraph() -> None:
        if paragraph:
            chunk = "\n".join(paragraph)
            page.prose.append(chunk)
            page.code.extend(m.group(2).replace("\n", " ") for m in CODE_SPAN.finditer(chunk))
            paragraph.clear()

    for line in text.splitlines():
        if FENCE.match(line):
            if block is None:
                end_paragraph()
                block = []
            else:
                page.code.extend(re.sub(r"\\\n\s*", " ", "\n".join(block)).splitlines())
                block = None
        elif block is not None:
            block.append(line)
        elif heading := HEADING.match(line):
            end_paragraph()
            page.headings.append(heading.group(2))
        elif line.strip():
            paragraph.append(line)
        else:
            end_paragraph()
    end_paragraph()
    return page


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text in lower case, punctuation out, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a Markdown text has: its headings' slugs, repeats numbered as GitHub does."""
    seen: dict[str, int] = {}
    found = set()
    for heading in parse(text).headings:
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


@cache
def file_anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file (read once)."""
    return anchors(path.read_text(encoding="utf-8"))


def link_errors(path: Path, text: str) -> list[str]:
    """Relative links of a page that name no file, or no heading of the file they name."""
    errors = []
    own = anchors(text)
    for chunk in parse(text).prose:
        chunk = CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), chunk)
        for target in [*LINK.findall(chunk), *REF_LINK.findall(chunk)]:
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # http:, https:, mailto:: not a file of the tree
            file_part, _, anchor = target.partition("#")
            if not file_part:
                if anchor not in own:
                    errors.append(f"{target}: no heading #{anchor} in {path.name}")
                continue
            linked = (path.parent / file_part).resolve()
            if not linked.exists():
                errors.append(f"{target}: no such file ({linked})")
            elif anchor and linked.is_file() and anchor not in file_anchors(linked):
                errors.append(f"{target}: no heading #{anchor} in {linked.name}")
    return errors


@cache
def command_tree() -> dict[tuple[str, ...], set[str] | None]:
    """``qgs`` commands (and subcommands) by path: their options, or None for a group."""
    import typer

    from qgs_worker.cli.commands import app

    tree: dict[tuple[str, ...], set[str] | None] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands is None:
            opts = {"--help"}
            for param in command.params:
                opts.update(o for o in [*param.opts, *param.secondary_opts] if o.startswith("-"))
            tree[path] = opts
        else:
            tree[path] = None
            for name, sub in subcommands.items():
                walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return tree


def tokens(line: str) -> list[str]:
    """A command line's words as a shell reads them, up to a pipe, `;`, `&&` or a comment."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = []
    try:
        for word in lexer:
            if not word.strip("();<>|&"):
                break
            words.append(word)
    except ValueError:  # an unclosed quote in prose: words as written
        words = line.split()
    return words


def command_errors(text: str) -> list[str]:
    """``qgs`` commands, subcommands and options in a page's code that the command line lacks."""
    tree = command_tree()
    errors = []
    for code in parse(text).code:
        for found in QGS_COMMAND.finditer(code):
            words = []
            for word in tokens(code[found.start() :])[1:]:
                words.append(word.rstrip("`'\".,:;"))
                if "`" in word:
                    break  # a code span inside a code block ends here
            if not words or not WORD.fullmatch(words[0]):
                continue  # `qgs --help`, `qgs <command>`: no command named
            path: tuple[str, ...] = (words[0],)
            if path not in tree:
                errors.append(f"`qgs {words[0]}`: no such command")
                continue
            rest = words[1:]
            if tree[path] is None and rest and WORD.fullmatch(rest[0]):
                path, rest = (*path, rest[0]), rest[1:]
                if path not in tree:
                    errors.append(f"`qgs {' '.join(path)}`: no such command")
                    continue
            opts = tree[path] or {"--help"}
            for word in rest:
                option = OPTION.fullmatch(word.strip("[]"))
                if option and option.group(1) not in opts:
                    errors.append(f"`qgs {' '.join(path)} {option.group(1)}`: no such option")
    return errors


def _groups(model: Any, prefix: str) -> Iterator[str]:
    for name, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
            yield from _groups(annotation, f"{prefix}{name.upper()}__")
        else:
            yield f"{prefix}{name.upper()}"


@cache
def setting_names() -> frozenset[str]:
    """Every ``QGS_*`` variable ``Settings`` reads, nested groups joined by ``__``."""
    from qgs_worker.config.settings import Settings

    prefix = str(Settings.model_config.get("env_prefix", "")).upper()
    return frozenset(_groups(Settings, prefix))


def setting_errors(text: str) -> list[str]:
    """``QGS_*`` names in a page that no setting has (``QGS_GROUP__*``, ``QGS_<NAME>``: a prefix)."""
    known = setting_names() | OUTSIDE_SETTINGS.keys()
    errors = []
    for found in SETTING.finditer(text):
        name, after = found.group(0), text[found.end() : found.end() + 1]
        if name == "QGS_":
            continue  # the prefix itself (`QGS_*`, `QGS_<NAME>`, "the prefix `QGS_`")
        if after in ("*", "<"):
            if not any(k.startswith(name) for k in known):
                errors.append(f"{name}{after}: no setting starts so")
        elif name not in known:
            errors.append(f"{name}: no such setting")
    return errors


@cache
def make_targets() -> frozenset[str]:
    """The Makefile's rules."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return frozenset(re.findall(r"^([a-z][\w-]*)\s*:(?!=)", makefile, re.MULTILINE))


def make_errors(text: str) -> list[str]:
    """``make TARGET`` in a page's code with no such rule in the Makefile."""
    return [
        f"`make {target}`: no such target"
        for code in parse(text).code
        for target in MAKE_TARGET.findall(code)
        if target not in make_targets()
    ]


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", PAGES, ids=page_id)
class TestPages:
    """Every page says only what the tree has."""

    def test_relative_links_resolve(self, path: Path) -> None:
        assert [] == link_errors(path, path.read_text(encoding="utf-8"))

    def test_named_commands_exist(self, path: Path) -> None:
        assert [] == command_errors(path.read_text(encoding="utf-8"))

    def test_named_settings_exist(self, path: Path) -> None:
        assert [] == setting_errors(path.read_text(encoding="utf-8"))

    def test_named_make_targets_exist(self, path: Path) -> None:
        assert [] == make_errors(path.read_text(encoding="utf-8"))


class TestShape:
    """The README is short; every page of docs/ opens with its title and a summary."""

    def test_readme_is_the_first_five_minutes(self) -> None:
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        assert len(text.splitlines()) <= README_MAX_LINES
        assert "make demo" in text and "make test" in text

    @pytest.mark.parametrize("path", PAGES[1:], ids=page_id)
    def test_page_opens_with_a_summary(self, path: Path) -> None:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# "), "the first line is the page's title"
        summary = "\n".join(lines[1:]).strip().split("\n\n", 1)[0]
        assert summary and not summary.startswith(("#", "`" * 3, "|", "* ", "- ")), summary

    def test_every_page_is_in_the_index(self) -> None:
        index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
        linked = {t.partition("#")[0] for t in LINK.findall(index)}
        assert [] == [p.name for p in PAGES[1:] if p.name != "README.md" and p.name not in linked]

    def test_outside_settings_are_read_where_said(self) -> None:
        missing = {
            name: file
            for name, (file, _what) in OUTSIDE_SETTINGS.items()
            if name not in (ROOT / file).read_text(encoding="utf-8")
        }
        assert {} == missing
        assert set() == OUTSIDE_SETTINGS.keys() & setting_names()


class TestTheChecks:
    """Each check catches what it is for (a broken page, built here)."""

    def test_a_broken_link(self, tmp_path: Path) -> None:
        (tmp_path / "other.md").write_text("# Other\n\n## A `qgs scan` section\n", "utf-8")
        page = tmp_path / "page.md"
        text = (
            "# Page\n\n[ok](other.md#a-qgs-scan-section) [gone](missing.md) "
            "[bad anchor](other.md#nowhere) [here](#page) [self](#not-here) "
            "[web](https://example.org/x) `[not a link](nowhere.md)`\n"
        )
        assert [
            f"missing.md: no such file ({tmp_path / 'missing.md'})",
            "other.md#nowhere: no heading #nowhere in other.md",
            "#not-here: no heading #not-here in page.md",
        ] == link_errors(page, text)

    def test_slugs_as_github_makes_them(self) -> None:
        assert "mcp-qgs-mcp" == slug("MCP: `qgs mcp`")
        assert "over-http-clientbase_url" == slug("Over HTTP: `Client(base_url=...)`")
        assert "qgs-audits-batch-path-a-chunk" == slug("`qgs audit`'s batch path: a chunk")

    def test_an_unknown_command_or_option(self) -> None:
        text = (
            "Run `qgs audti tasks/` or `qgs keys rotate`, then `qgs report --colour red`;\n"
            "`qgs keys create --principal me [--scope approve]` and `qgs --help` are fine.\n\n"
            "```sh\nqgs scan --jsonl x.jsonl | grep --count P1   # qgs nope\n"
            "qgs worker \\\n  --queue critic --bogus\n"
            "cli/  `qgs scna` and `qgs scan --jsonl`, one text a line\n```\n"
        )
        assert [
            "`qgs audti`: no such command",
            "`qgs keys rotate`: no such command",
            "`qgs report --colour`: no such option",
            "`qgs nope`: no such command",  # a comment names commands too
            "`qgs worker --bogus`: no such option",
            "`qgs scna`: no such command",  # backticks inside a code block
        ] == command_errors(text)

    def test_an_unknown_setting(self) -> None:
        text = (
            "`QGS_JUDGE__KIND`, `QGS_BROKER_URL`, `QGS_TOOLGATE__*`, `QGS_*`, `QGS_<NAME>`, "
            "`QGS_URL`, the prefix `QGS_`; but `QGS_JUDGE__KINDS`, `QGS_NOPE__*` and `QGS_JUDGE_KIND`.\n"
        )
        assert [
            "QGS_JUDGE__KINDS: no such setting",
            "QGS_NOPE__*: no setting starts so",
            "QGS_JUDGE_KIND: no such setting",
        ] == setting_errors(text)

    def test_an_unknown_make_target(self) -> None:
        assert ["`make tests`: no such target"] == make_errors("`make test` and `make tests`\n")
