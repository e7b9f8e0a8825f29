"""The streaming noise suppressor: exact reconstruction, chunking independence, noise reduction."""

from __future__ import annotations

import numpy as np
import pytest

from voicegame.speech.denoise import Denoiser


def _run(d: Denoiser, x: np.ndarray, chunk: int) -> np.ndarray:
    parts = [d.push(x[i : i + chunk]) for i in range(0, len(x), chunk)]
    return np.concatenate(parts + [d.finish()])


def test_unit_gain_gives_back_the_input_sample_for_sample():
    x = np.random.default_rng(1).normal(0, 1000, 16000)
    y = _run(Denoiser(floor=1.0), x, 1234)
    assert len(y) == len(x)
    assert np.abs(y - x).max() < 1e-6


@pytest.mark.parametrize("chunk", [160, 777, 3200])
def test_output_does_not_depend_on_chunking(chunk):
    x = np.random.default_rng(2).normal(0, 1000, 20000)
    whole = _run(Denoiser(), x, len(x))
    assert len(whole) == len(x)
    assert np.allclose(_run(Denoiser(), x, chunk), whole)


def test_steady_noise_is_attenuated_and_a_tone_kept():
    rng = np.random.default_rng(3)
    t = np.arange(32000) / 16000
    noise = rng.normal(0, 300, len(t))
    tone = np.where(t > 1.0, 3000 * np.sin(2 * np.pi * 440 * t), 0.0)
    y = _run(Denoiser(), noise + tone, 1600)
    quiet, loud = slice(8000, 16000), slice(20000, 32000)
    assert np.sqrt(np.mean(y[quiet] ** 2)) < 0.5 * 300  # at least 6 dB less noise
    kept = np.dot(y[loud], tone[loud]) / np.dot(tone[loud], tone[loud])
    assert 0.8 < kept < 1.1


def test_digital_silence_stays_silent_and_the_estimate_survives_utterances():
    d = Denoiser()
    assert not np.any(_run(d, np.zeros(8000), 800))
    _run(d, np.random.default_rng(4).normal(0, 300, 32000), 800)  # longer than its memory
    assert d.noise is not None and d.noise.mean() > 0
    d.forget()
    assert d.noise is None


def test_drift_tells_a_settled_room_from_a_new_noise():
    rng = np.random.default_rng(6)
    d = Denoiser()
    _run(d, np.zeros(8000), 800)
    drifts = []
    for _ in range(5):
        _run(d, rng.normal(0, 300, 16000), 800)
        drifts.append(d.drift_db)
    # The silence leaves the estimate's memory during the second second of noise: it jumps there.
    # Before, the estimate stays empty: the output is the input, and that is no steady estimate either.
    assert drifts[0] == drifts[1] == float("inf") and max(drifts[2:]) < 1.0
    _run(d, rng.normal(0, 3000, 32000), 800)  # 20 dB louder, longer than the memory
    assert d.drift_db > 10
