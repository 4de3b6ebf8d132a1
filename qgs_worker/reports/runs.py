"""What decides an audit run: the settings fingerprint ``qgs audit`` stores with each run.

Two runs with the same fingerprint decided under the same judge, policy, gate, cadence, audit
roles, rules table and learned model; ``qgs runs`` shows it and ``qgs diff`` says when two runs'
fingerprints differ, and in what. The fingerprint is taken from the settings of the command
that starts the run: the local workers it starts share them; workers started elsewhere
(``qgs worker`` on another machine) must be started with the same settings for it to hold.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from qgs_worker.config.settings import Settings

__all__ = ["FINGERPRINT_CHARS", "changed_settings", "fingerprint_of", "run_settings"]

FINGERPRINT_CHARS = 12
"""Hex digits of a run's fingerprint (SHA-256 of its decision settings, truncated)."""

_JUDGE_FIELDS = ("kind", "model", "base_url", "panel_models", "panel_mode", "classifier_llm")
"""The judge settings that change a verdict (not its timeouts, rate limits or key)."""


def _file_hash(path: Path | None) -> str | None:
    """``sha256:<16 hex>`` of a file's bytes; None without a file, ``missing`` if unreadable."""
    if path is None:
        return None
    try:
        return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


def _rules_version() -> str:
    """A hash of the rules table's source (``core/rules/*.py``).

    The source covers the rules, their patterns and severities and the functions that accept a
    match (a repr of the rules would carry memory addresses).
    """
    digest = hashlib.sha256()
    for path in sorted((Path(__file__).parents[1] / "core" / "rules").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return "sha256:" + digest.hexdigest()[:16]


def _model_version() -> str:
    """The learned instruction detector's artifact hash, from its manifest (no model load)."""
    manifest = Path(__file__).parents[1] / "core" / "data" / "instruction_model.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "missing"
    return "sha256:" + str(data.get("sha256", ""))[:16]


def run_settings(settings: Settings) -> dict[str, Any]:
    """The settings that decide an audit's outcomes, as plain JSON values.

    Returns:
        ``{"judge": {...}, "policy_file": {"path", "sha256"}, "tools_file": {...},
        "gate": {...}, "cadence": {...}, "discriminator": {"roles", "llm_pass"},
        "rules": "sha256:...", "instruction_model": "sha256:...", "qgs": version}``.
    """
    from qgs_worker.core.version import QGS_VERSION

    judge = settings.judge.model_dump(mode="json", include=set(_JUDGE_FIELDS))
    if settings.judge.kind == "rules":  # the rules judge reads no model and no endpoint
        judge = {"kind": "rules"}
    return {
        "judge": judge,
        "policy_file": {
            "path": str(settings.policy_file) if settings.policy_file else None,
            "sha256": _file_hash(settings.policy_file),
        },
        "tools_file": {
            "path": str(settings.tools_file) if settings.tools_file else None,
            "sha256": _file_hash(settings.tools_file),
        },
        "gate": settings.gate.model_dump(mode="json"),
        "cadence": settings.cadence.model_dump(mode="json"),
        "discriminator": {
            "roles": list(settings.discriminator.roles),
            "llm_pass": settings.discriminator.llm_pass,
        },
        "rules": _rules_version(),
        "instruction_model": _model_version(),
        "qgs": QGS_VERSION,
    }


def fingerprint_of(decides: dict[str, Any]) -> str:
    """The first ``FINGERPRINT_CHARS`` hex digits of the SHA-256 of ``decides`` as canonical JSON.

    The policy and tools files count by content, not by path: the same policy copied elsewhere
    gives the same fingerprint.
    """
    canonical = {
        **decides,
        "policy_file": (decides.get("policy_file") or {}).get("sha256"),
        "tools_file": (decides.get("tools_file") or {}).get("sha256"),
    }
    text = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:FINGERPRINT_CHARS]


def changed_settings(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The dotted names of the settings that differ between two runs, e.g. ``policy_file.sha256``.

    Paths of the policy and tools files are left out (their content counts).
    """
    out: list[str] = []

    def walk(x: Any, y: Any, prefix: str) -> None:
        if isinstance(x, dict) and isinstance(y, dict):
            for key in sorted(set(x) | set(y)):
                if key == "path":
                    continue
                walk(x.get(key), y.get(key), f"{prefix}.{key}" if prefix else key)
        elif x != y:
            out.append(prefix)

    walk(a, b, "")
    return out
