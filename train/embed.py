"""The encoder's vectors of every window of every record, cached on disk.

The windows are the n-gram model's (``instruction_text.windows`` with the shipped feature
config), the text as written (not normalized), and the vectors come from the product's own
adapter (``qgs_worker.encoders.use_m3``): what is trained is what is served. A window's vector
is stored under the sha256 of its text in ``.train-cache/embeddings/``, in chunk files of
``CHUNK`` windows, so a run that stops keeps what it did and a second run encodes only new
windows.

Usage: ``.venv-train/bin/python train/embed.py`` (``make train`` and ``make eval`` call
``window_vectors``).
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from qgs_worker.core.instruction_text import FeatureConfig, windows  # noqa: E402
from qgs_worker.encoders.use_m3 import UniversalSentenceEncoder  # noqa: E402
from sources import CACHE, Record  # noqa: E402

STORE = CACHE / "embeddings"
CHUNK = 2000


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]


def _read_store() -> dict[bytes, np.ndarray]:
    known: dict[bytes, np.ndarray] = {}
    for path in sorted(STORE.glob("chunk-*.npz")):
        with np.load(path) as z:
            for key, vector in zip(z["keys"], z["vectors"], strict=True):
                known[key.tobytes()] = vector
    return known


def window_texts(records: list[Record], config: FeatureConfig) -> list[list[str]]:
    """Per record, the text of each of its windows (as the n-gram model reads them)."""
    return [[r.text[s:e] for s, e in windows(r.text, config)] for r in records]


def window_vectors(records: list[Record], config: FeatureConfig) -> np.ndarray:
    """Every window's vector, in ``fit.featurize``'s window order: shape ``(windows, 512)``, float16."""
    texts = [t for per in window_texts(records, config) for t in per]
    keys = [_digest(t) for t in texts]
    known = _read_store()
    todo = list({k: t for k, t in zip(keys, texts, strict=True) if k not in known}.items())
    if todo:
        STORE.mkdir(parents=True, exist_ok=True)
        encoder = UniversalSentenceEncoder(threads=1, cache_texts=0)
        started = time.perf_counter()
        first = len(list(STORE.glob("chunk-*.npz")))
        for n, at in enumerate(range(0, len(todo), CHUNK)):
            part = todo[at : at + CHUNK]
            vectors = encoder.encode([t for _, t in part]).astype(np.float16)
            np.savez(STORE / f"chunk-{first + n:05d}.npz",
                     keys=np.array([np.frombuffer(k, dtype=np.uint8) for k, _ in part]), vectors=vectors)
            for (k, _), v in zip(part, vectors, strict=True):
                known[k] = v
            print(f"  encoded {at + len(part)}/{len(todo)} windows, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    return np.stack([known[k] for k in keys])


if __name__ == "__main__":
    import json

    import sources
    from qgs_worker.core.instruction_model import load_model

    records = sources.all_records()
    config = load_model().config
    vectors = window_vectors(records, config)
    print(json.dumps({"records": len(records), "windows": int(vectors.shape[0])}))
