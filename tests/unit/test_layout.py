"""The layout of issue 30: a room per part, the layers kept, the old import paths still working.

The layers and the no-cycle rule are import-linter contracts in ``pyproject.toml``
(``[tool.importlinter]``); ``make lint`` runs them and so does this file, so a change that
breaks them fails the tests too. An import inside a function or under ``TYPE_CHECKING`` counts.
"""

from __future__ import annotations

import ast
import collections
import functools
import importlib
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import grimp
import pytest

import qgs_worker

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "qgs_worker"
ALLOWED_FILES = {"__init__.py", "errors.py", "py.typed"}
"""What may sit at the top of ``qgs_worker/`` besides packages: the public face, the error tree
and the typing marker."""


@functools.cache
def package_edges() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Which top-level parts of ``qgs_worker`` each one imports, and is imported by (the root
    ``__init__`` is ``qgs_worker``; lazy and ``TYPE_CHECKING`` imports count)."""
    graph = grimp.build_graph("qgs_worker", include_external_packages=False, cache_dir=None)

    def part(module: str) -> str:
        names = module.split(".")
        return names[1] if len(names) > 1 else "qgs_worker"

    out: dict[str, set[str]] = collections.defaultdict(set)
    into: dict[str, set[str]] = collections.defaultdict(set)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = part(module), part(imported)
            if a != b:
                out[a].add(b)
                into[b].add(a)
    return out, into


def contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return found


class TestTheTree:
    def test_nothing_loose_at_the_top(self) -> None:
        loose = sorted(
            p.name for p in PACKAGE.iterdir() if p.is_file() and p.name not in ALLOWED_FILES
        )
        assert [] == loose, "a module at the top of qgs_worker/: give it a room (a package)"

    def test_every_folder_at_the_top_is_a_package(self) -> None:
        for folder in PACKAGE.iterdir():
            if folder.is_dir() and folder.name != "__pycache__":
                assert (folder / "__init__.py").exists(), folder

    @pytest.mark.parametrize(
        "package",
        sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()),
    )
    def test_each_room_says_what_it_may_import_and_who_imports_it(self, package: str) -> None:
        tree = ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8"))
        doc = " ".join((ast.get_docstring(tree) or "").split())  # as read, whatever the wrap
        assert "Layer:" in doc and "may import" in doc and "Imported by:" in doc, package

    @pytest.mark.parametrize(
        "package", sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    )
    def test_each_room_names_what_it_imports_and_who_imports_it_truly(self, package: str) -> None:
        """The docstring's ``Imports:`` and ``Imported by:`` lists are the import graph's."""
        doc = " ".join(
            (
                ast.get_docstring(
                    ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8"))
                )
                or ""
            ).split()
        )
        found = re.search(r"Imports: (.*?)\. Imported by: (.*?)\.(?: |$)", doc)
        assert found is not None, f"{package}: no 'Imports: ... Imported by: ...' line"
        imports, importers = (set(re.findall(r"``(\w+)``", part)) for part in found.groups())
        out, into = package_edges()
        assert (out[package], into[package]) == (imports, importers)

    def test_every_package_is_in_a_layer(self) -> None:
        (layers,) = [c for c in contracts() if c["type"] == "layers"]
        named = {
            name.strip()
            for layer in layers["layers"]  # type: ignore[attr-defined]
            for name in layer.replace("|", ":").split(":")
        }
        packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
        assert set() == packages - named, "a new package needs its place in the layers contract"
        assert "errors" in named


class TestContracts:
    def test_lint_imports_keeps_every_contract(self) -> None:
        lint = Path(sys.executable).with_name("lint-imports")
        done = subprocess.run(
            [str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert 0 == done.returncode, done.stdout[-4000:] + done.stderr[-2000:]
        assert "0 broken" in done.stdout

    def test_there_is_a_layers_and_a_no_cycle_contract(self) -> None:
        kinds = sorted(str(c["type"]) for c in contracts())
        assert ["acyclic_siblings", "layers"] == kinds


class TestOldPaths:
    """``qgs_worker.MOVED``: every old module path imports the module it became."""

    @pytest.mark.parametrize("old", sorted(qgs_worker.MOVED))
    def test_an_old_path_is_the_new_module_with_a_warning(self, old: str) -> None:
        new = qgs_worker.MOVED[old]
        sys.modules.pop(old, None)
        with pytest.warns(DeprecationWarning, match=f"moved to {new.replace('.', '[.]')}"):
            module = importlib.import_module(old)
        assert importlib.import_module(new) is module
        assert new == module.__name__ == module.__spec__.name  # its own identity, kept
        assert not (ROOT / (old.replace(".", "/") + ".py")).exists()

    def test_from_an_old_path_import_a_name(self) -> None:
        sys.modules.pop("qgs_worker.settings", None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            from qgs_worker.settings import Settings as OldSettings
        from qgs_worker.config.settings import Settings

        assert Settings is OldSettings

    def test_no_code_of_ours_uses_an_old_path(self) -> None:
        """The aliases are for users: an old path in QGS's own code would hide its import from
        import-linter (the old module has no file, so the graph never sees the edge)."""
        found = []
        for folder in ("qgs_worker", "tests", "bench", "train", "examples"):
            for path in sorted((ROOT / folder).rglob("*.py")):
                if path.name == "test_layout.py":
                    continue
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                    named: list[str] = []
                    if isinstance(node, ast.Import):
                        named = [alias.name for alias in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                        named = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                        named = [node.value.rsplit(".", 1)[0], node.value]
                    if any(name in qgs_worker.MOVED for name in named):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        assert [] == found

    @pytest.mark.parametrize(
        ("module", "name", "home"),
        [
            ("qgs_worker.webhooks.delivery", "decided_listener", "qgs_worker.queue.webhook_starts"),
            ("qgs_worker.webhooks.delivery", "publish_delivery", "qgs_worker.queue.webhook_starts"),
            (
                "qgs_worker.config.settings_defaults",
                "short_settings",
                "qgs_worker.config.short_settings",
            ),
            ("qgs_worker.cli.short", "short_command", "qgs_worker.cli.short_process"),
        ],
    )
    def test_a_name_that_moved_between_modules_names_its_home(
        self, module: str, name: str, home: str
    ) -> None:
        with pytest.raises(ImportError, match=f"{name} moved to {home.replace('.', '[.]')}"):
            exec(f"from {module} import {name}", {})
        assert hasattr(importlib.import_module(home), name)
        with pytest.raises(AttributeError):
            _ = importlib.import_module(module).never_here

    def test_a_name_not_moved_is_still_an_error(self) -> None:
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("qgs_worker.no_such_module")

    def test_python_dash_m_runs_the_new_module(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "qgs_worker.celery_app"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert 2 == done.returncode
        assert "usage: python -m qgs_worker.queue.celery_app ping NAME" in done.stderr
