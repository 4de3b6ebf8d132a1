"""The learned detector's plain-Python engine: numpy's indices and scores, bit for bit, no numpy.

``qgs check-tool`` and ``qgs scan`` score with it and never import numpy on short texts (issue
15); a command that scores more than ``PURE_BUDGET_CHARS`` characters switches to numpy, and
every other process scores with numpy from the start. Whichever engine scores a text, every
score must be the same float, or a verdict could depend on how much the process had scored.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.core import instruction_model, instruction_pure
from qgs_worker.core.instruction_features import batch_indices
from qgs_worker.core.instruction_model import default_model, load_model
from qgs_worker.core.instruction_pure import PackedWeights, npz_arrays
from qgs_worker.core.instruction_text import FeatureConfig, normalize
from qgs_worker.errors import ModelArtifactError
from tests.unit.test_instruction_model import ATTACKS, BENIGN, DATA

ROOT = Path(__file__).resolve().parents[2]

MIXED = st.text(
    alphabet=st.sampled_from(
        [*"ab z_0-.!\n\t", "é", "Ａ", "漢", "字", "か", "\u200b", "а", "ο", "𠀀", "😀", "ß"]
    ),
    max_size=700,
)
"""ASCII, Latin-1, full-width, CJK and kana, format characters, look-alikes, astral: every
branch of the word split (``char_kind``) and of ``normalize``; up to three windows."""

OTHER_CONFIGS = [
    FeatureConfig(),
    FeatureConfig(hash_bits=12, char_ngrams=(2, 4), word_ngrams=(1, 3)),
    FeatureConfig(hash_bits=16, char_ngrams=(5, 1), word_ngrams=()),
    FeatureConfig(char_ngrams=(), word_ngrams=(2,)),
]


def numpy_indices(normalized: str, config: FeatureConfig) -> list[int]:
    return list(batch_indices([normalized], config)[1].tolist())


class TestSameIndices:
    """``instruction_pure.indices`` equals ``batch_indices``, element for element, in order."""

    @pytest.mark.parametrize("config", OTHER_CONFIGS, ids=str)
    def test_the_fixed_slice_at_many_lengths(self, config: FeatureConfig) -> None:
        texts = ["", " ", "a", "ab", "_", "0 0", "don't", "x" * 300]
        texts += [t[:cut] for t in ATTACKS + BENIGN for cut in range(1, len(t) + 1, 11)]
        for text in texts:
            normalized = normalize(text)
            assert numpy_indices(normalized, config) == instruction_pure.indices(
                normalized, config
            ), text

    @settings(max_examples=300, deadline=None)
    @given(MIXED)
    def test_any_mixed_text(self, text: str) -> None:
        normalized = normalize(text)
        for config in OTHER_CONFIGS[:2]:
            assert numpy_indices(normalized, config) == instruction_pure.indices(normalized, config)

    def test_a_lone_surrogate_fails_as_numpy_does(self) -> None:
        """A JSON argument may decode to one (``"\\ud800"``): both engines raise the same error."""
        with pytest.raises(UnicodeEncodeError):
            batch_indices(["hello \ud800"], FeatureConfig())
        with pytest.raises(UnicodeEncodeError):
            instruction_pure.indices("hello \ud800", FeatureConfig())


class TestSameScores:
    """Both engines, and both numpy paths, give the same window scores: the same floats."""

    def test_the_fixed_slice(self) -> None:
        model = default_model()
        for text in ATTACKS + BENIGN:
            expected = model.window_scores(text, engine="numpy")
            assert expected == model.window_scores(text, engine="python"), text
            assert expected == model.window_scores(text, engine="numpy", fast=False), text

    @settings(max_examples=150, deadline=None)
    @given(MIXED)
    def test_any_mixed_text(self, text: str) -> None:
        model = default_model()
        assert model.window_scores(text, engine="numpy") == model.window_scores(
            text, engine="python"
        )

    def test_a_long_text_of_many_windows(self) -> None:
        model = default_model()
        text = " ".join(BENIGN) + " " + ATTACKS[11] + " " + " ".join(reversed(BENIGN))
        scored = model.window_scores(text, engine="python")
        assert len(scored) > 5
        assert scored == model.window_scores(text, engine="numpy")
        assert max(s for _, _, s in scored) >= model.threshold  # the injection is still found

    def test_a_model_built_from_a_numpy_array_scores_the_same_in_python(self) -> None:
        shipped = default_model()
        model = instruction_model.InstructionModel(
            shipped.weights, shipped.bias, shipped.threshold, shipped.config
        )
        for text in ATTACKS[:5] + BENIGN[:5]:
            assert shipped.window_scores(text, engine="numpy") == model.window_scores(
                text, engine="python"
            )


class TestTheArtifactWithoutNumpy:
    """The ``.npz`` artifact is read by ``instruction_pure``; numpy builds its array on demand."""

    def test_the_weights_are_numpys_weights(self) -> None:
        arrays = npz_arrays((DATA / "instruction_model.npz").read_bytes())
        assert ("<f2", (1 << 20,)) == (arrays["weights"].descr, arrays["weights"].shape)
        packed = PackedWeights(arrays["weights"].data, "<f2", arrays["weights"].shape)
        with np.load(DATA / "instruction_model.npz") as loaded:
            expected = loaded["weights"].astype(np.float32)
        at = [0, 1, 7, 123_456, (1 << 20) - 1, *range(5000, 6000)]
        assert expected[at].tolist() == list(packed.values(at))
        assert np.array_equal(expected, default_model().weights)

    @pytest.mark.parametrize("dtype", ["float16", "float32", "float64", ">f4"])
    def test_other_dtypes_load_with_the_same_scores(self, dtype: str, tmp_path: Path) -> None:
        """float16 and float32 are read without numpy; any other dtype numpy still reads."""
        shipped = default_model()
        weights = shipped.weights.astype(dtype)
        artifact, manifest = self.write(tmp_path, weights, np.array([shipped.bias], "float32"))
        model = load_model(artifact, manifest)
        packed = dtype in ("float16", "float32")
        assert packed == (model._packed is not None)
        for text in ATTACKS[:3] + BENIGN[:3]:
            assert shipped.window_scores(text, engine="numpy") == model.window_scores(
                text, engine="python"
            )

    def test_an_archive_that_is_not_a_zip_names_make_train(self, tmp_path: Path) -> None:
        artifact, manifest = tmp_path / "m.npz", tmp_path / "m.json"
        artifact.write_bytes(b"PK\x03\x04 not really a zip archive")
        self.write_manifest(manifest, artifact.read_bytes())
        with pytest.raises(ModelArtifactError, match=r"cannot be read.*make train"):
            load_model(artifact, manifest)

    def test_an_empty_bias_names_make_train(self, tmp_path: Path) -> None:
        shipped = default_model()
        artifact, manifest = self.write(tmp_path, shipped.weights, np.zeros(0, "float32"))
        with pytest.raises(ModelArtifactError, match=r"cannot be read.*make train"):
            load_model(artifact, manifest)

    def write(self, tmp_path: Path, weights: np.ndarray, bias: np.ndarray) -> tuple[Path, Path]:
        artifact, manifest = tmp_path / "m.npz", tmp_path / "m.json"
        buffer = io.BytesIO()
        np.savez_compressed(buffer, weights=weights, bias=bias)
        artifact.write_bytes(buffer.getvalue())
        self.write_manifest(manifest, buffer.getvalue())
        return artifact, manifest

    def write_manifest(self, manifest: Path, data: bytes) -> None:
        import hashlib

        meta = json.loads((DATA / "instruction_model.json").read_text(encoding="utf-8"))
        meta["sha256"] = hashlib.sha256(data).hexdigest()
        manifest.write_text(json.dumps(meta), encoding="utf-8")


SWITCH = """
import json, sys
from qgs_worker.core import instruction_model
if sys.argv[2] == "short command":
    instruction_model.start_without_numpy()
model = instruction_model.default_model()
short = json.loads(sys.argv[1])
steps = []
for text in short:
    steps.append([model.score(text), "numpy" in sys.modules])
long = " ".join(short) * (instruction_model.PURE_BUDGET_CHARS // len(" ".join(short)) + 1)
steps.append([model.score(long), "numpy" in sys.modules])
steps.append([model.score(short[0]), "numpy" in sys.modules])
print(json.dumps(steps))
"""


def run_switch(texts: list[str], kind: str) -> list[list[object]]:
    done = subprocess.run(
        [sys.executable, "-c", SWITCH, json.dumps(texts), kind],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=True,
    )
    steps: list[list[object]] = json.loads(done.stdout)
    return steps


def test_a_short_command_scores_in_python_until_its_budget_then_with_numpy() -> None:
    """In a fresh interpreter: short texts leave numpy unimported, a longer text imports it."""
    texts = [ATTACKS[0], BENIGN[0], ATTACKS[11]]
    steps = run_switch(texts, "short command")
    assert [False, False, False, True, True] == [imported for _, imported in steps]
    model = default_model()
    expected = [model.score(t) for t in texts]
    assert expected == [score for score, _ in steps[:3]]
    assert expected[0] == steps[4][0]  # the same score from numpy after the switch


def test_any_other_process_scores_with_numpy_from_its_first_text() -> None:
    """A worker, the HTTP API, an agent's client: the gate's latency does not change over time."""
    steps = run_switch([ATTACKS[0], BENIGN[0]], "long-running")
    assert [True, True, True, True] == [imported for _, imported in steps]
