"""The learned detector's second reader: a linear head over a sentence encoder, fused by rank.

The n-gram model (``instruction_model``) reads character and word n-grams; a frozen multilingual
sentence encoder (behind the ``TextEncoder`` port, ``qgs_worker.encoders``) reads what a window
means, in 16 languages. A logistic-regression head over the encoder's vector gives the second
logit of a window. The two are fused **by rank**: each logit becomes its *benign tail share*,
the share of benign training windows that scored at least as high by a model that never saw
their source (leave one source out), and a window's fused score is

    fused = ln(t_ngrams * t_encoder) / ln(t_min_ngrams * t_min_encoder)     (0-1)

with weights: ``fused = (w ln t_ngrams + (1 - w) ln t_encoder) / (w ln t_min_ngrams + (1 - w)
ln t_min_encoder)``, ``w = ngram_weight``. A tail share is ``(benign windows at or above + 1) /
(benign windows + 1)``, so it is never 0 and ``t_min`` is its smallest value. Two readers that
each find a window unusual for benign text make it more unusual than either alone; neither can
veto the other.

The encoder costs ~5 ms of CPU a 300-character window, the n-grams ~0.01 ms. The windows overlap
by half (300 characters every 150), so the encoder reads every ``every``-th window only (with
``every = 2``, windows that touch end to end: each character once) and a window it skipped takes
the higher logit of the encoded windows on either side, which overlap it. Training computes the
same (``spread``), so the figures are the shipped model's.

The head, the two sorted benign logit arrays, the thresholds and the fusion's constants are the artifact
``core/data/instruction_encoder.npz`` with its manifest ``instruction_encoder.json`` (sha256,
the encoder's name), written by ``make train`` only when the stack beats the n-grams alone at
the same false-positive budget. Numpy is imported on first use.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qgs_worker.errors import ModelArtifactError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["HEAD_ARTIFACT", "EncoderHead", "head_path", "load_head", "spread", "tail_share"]

HEAD_ARTIFACT = "instruction_encoder.npz"
HEAD_MANIFEST = "instruction_encoder.json"
_RETRAIN = "rebuild it with `make train` (or reinstall qgs-worker)"


@dataclass(frozen=True)
class EncoderHead:
    """The encoder's head and the rank fusion with the n-grams.

    Attributes:
        weights: The head's weights, shape ``(dimension,)``, float32.
        bias: The head's intercept, in logits.
        ngram_benign: The n-gram model's logits of benign windows, sorted ascending.
        encoder_benign: The head's logits of benign windows, sorted ascending.
        threshold: The fused score (0-1) at and above which a window is an instruction aimed at
            the model (at most 1% of benign training records, leave one source out).
        block_threshold: The same at 0.1% (the tool gate's P2).
        ngram_weight: The n-gram model's weight in the fusion (0-1; the encoder's is the rest).
        every: The encoder reads windows 0, every, 2 * every, ... of a text (1: all).
        encoder: The name of the encoder the head was fitted on (``TextEncoder.name`` up to its
            version's parenthesis).
        metadata: The manifest's fields.
    """

    weights: npt.NDArray[np.float32]
    bias: float
    ngram_benign: npt.NDArray[np.float32]
    encoder_benign: npt.NDArray[np.float32]
    threshold: float
    block_threshold: float
    ngram_weight: float
    every: int
    encoder: str
    metadata: dict[str, Any]

    def fits(self, encoder_name: str) -> bool:
        """Whether the head was fitted on the encoder of this name, whatever its package's version.

        Compared: the name up to `` (``, e.g. ``use-multilingual-v3``.
        """
        return encoder_name.split(" (")[0] == self.encoder.split(" (")[0]

    def encoder_logits(self, vectors: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.float64]:
        """The head's logit per vector, shape ``(n,)``."""
        import numpy as np

        logits = np.asarray(vectors, dtype=np.float32) @ self.weights.astype(np.float64)
        return np.asarray(logits + self.bias, dtype=np.float64)

    def ngram_tail(self, logits: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The n-gram tail share of each logit: (benign windows at or above + 1) / (benign + 1)."""
        return tail_share(self.ngram_benign, logits)

    def fuse(
        self, ngram_tails: npt.ArrayLike, encoder_tails: npt.ArrayLike
    ) -> npt.NDArray[np.float64]:
        """The fused score (0-1, higher: more unusual for benign text) of each window."""
        import numpy as np

        w = self.ngram_weight
        floor = w * math.log(1.0 / (self.ngram_benign.size + 1)) + (1.0 - w) * math.log(
            1.0 / (self.encoder_benign.size + 1)
        )
        both = w * np.log(np.asarray(ngram_tails, dtype=np.float64)) + (1.0 - w) * np.log(
            np.asarray(encoder_tails, dtype=np.float64)
        )
        return np.asarray(np.clip(both / floor, 0.0, 1.0), dtype=np.float64)

    def scores(self, ngram_logits: npt.ArrayLike, vectors_of: Any) -> npt.NDArray[np.float64]:
        """The fused score of each window of one text, from its n-gram logits and some vectors.

        Args:
            ngram_logits: The n-gram model's logit of each window of the text, in order, shape
                ``(n,)``.
            vectors_of: ``f(positions) -> vectors``: the encoder's vectors (shape
                ``(len(positions), dimension)``) of the windows at those positions, called once
                with windows 0, every, 2 * every, ... (not called for a text of no window).

        Returns:
            Shape ``(n,)``, each 0-1.
        """
        import numpy as np

        ngram = np.asarray(ngram_logits, dtype=np.float64)
        if ngram.size == 0:
            return np.zeros(0)
        read = np.arange(0, ngram.size, self.every)
        encoded = self.encoder_logits(vectors_of(read))
        encoder = spread(encoded, ngram.size, self.every)
        return self.fuse(self.ngram_tail(ngram), tail_share(self.encoder_benign, encoder))


def spread(encoded: npt.ArrayLike, windows: int, every: int) -> npt.NDArray[np.float64]:
    """Every window's encoder logit from those of windows 0, every, 2 * every, ...

    A window read is its own; one between two read windows takes the higher of theirs (both
    overlap it), one after the last read window takes that one's.

    Args:
        encoded: The logits of the windows read, shape ``(ceil(windows / every),)``.
        windows: The text's number of windows.
        every: The step between windows read.

    Returns:
        Shape ``(windows,)``.
    """
    import numpy as np

    values = np.asarray(encoded, dtype=np.float64)
    at = np.arange(windows)
    before = at // every
    after = np.minimum(before + (at % every > 0), values.size - 1)
    return np.asarray(np.maximum(values[before], values[after]), dtype=np.float64)


def tail_share(
    benign_sorted: npt.NDArray[np.floating[Any]], logits: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """``(benign logits >= each logit + 1) / (benign logits + 1)``: never 0, 1 below them all.

    Args:
        benign_sorted: Benign windows' logits, sorted ascending.
        logits: The logits to place, any shape.
    """
    import numpy as np

    at = np.searchsorted(benign_sorted, np.asarray(logits, dtype=np.float64), side="left")
    return np.asarray(
        (benign_sorted.size - at + 1.0) / (benign_sorted.size + 1.0), dtype=np.float64
    )


def head_path() -> Path:
    """The shipped head artifact's path (it exists only when ``make train`` shipped the stack)."""
    return Path(str(resources.files("qgs_worker.core").joinpath("data", HEAD_ARTIFACT)))


def load_head(artifact: Path | None = None) -> EncoderHead | None:
    """Load and verify the encoder head, or None where none was shipped.

    Args:
        artifact: The ``.npz``; default: ``core/data/instruction_encoder.npz``. Its manifest is
            the same name with ``.json``.

    Returns:
        The head; None when neither the artifact nor its manifest exists (the stack did not ship).

    Raises:
        ModelArtifactError: One exists without the other, or the artifact is unreadable or does
            not match its manifest's sha256.
    """
    artifact = artifact or head_path()
    manifest = artifact.with_suffix(".json")
    if not artifact.exists() and not manifest.exists():
        return None
    try:
        meta = json.loads(manifest.read_text(encoding="utf-8"))
        data = artifact.read_bytes()
    except (OSError, ValueError) as exc:
        raise ModelArtifactError(
            f"the instruction model's encoder head {artifact} or its manifest is missing or "
            f"unreadable ({exc}): {_RETRAIN}"
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    if not isinstance(meta, dict) or digest != meta.get("sha256"):
        raise ModelArtifactError(
            f"the instruction model's encoder head {artifact} does not match its manifest "
            f"(sha256 {digest[:12]}…): {_RETRAIN}"
        )
    import numpy as np

    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            return EncoderHead(
                weights=np.asarray(z["weights"], dtype=np.float32),
                bias=float(z["bias"].reshape(-1)[0]),
                ngram_benign=np.asarray(z["ngram_benign"], dtype=np.float32),
                encoder_benign=np.asarray(z["encoder_benign"], dtype=np.float32),
                threshold=float(meta["threshold"]),
                block_threshold=float(meta["block_threshold"]),
                ngram_weight=float(meta["ngram_weight"]),
                every=int(meta["every"]),
                encoder=str(meta["encoder"]),
                metadata=meta,
            )
    except (KeyError, TypeError, ValueError, OSError) as exc:
        raise ModelArtifactError(
            f"the instruction model's encoder head {artifact} cannot be read ({exc}): {_RETRAIN}"
        ) from exc
