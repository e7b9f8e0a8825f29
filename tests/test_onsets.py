"""Reading a stop's place from its burst (``speech.onsets``), on rendered speech."""

from __future__ import annotations

import numpy as np
import pytest

from voicegame.speech.onsets import ALVEOLAR, LABIAL, Room, burst_tilts, stop_place


def _speech(text: str) -> np.ndarray:
    pytest.importorskip("hibari", reason="hibari-tts is not installed (pip install hibari-tts)")
    from voicegame.speech.render import speech_pcm

    return np.frombuffer(speech_pcm(text), "<i2").astype(np.float64)


def _first_sound(samples: np.ndarray) -> int:
    return int(np.nonzero(np.abs(samples) > 100)[0][0])


@pytest.mark.parametrize("text, place", [("Ben.", LABIAL), ("Bun.", LABIAL), ("Dan.", ALVEOLAR),
                                         ("Dip.", ALVEOLAR), ("Ten.", ALVEOLAR)])
@pytest.mark.parametrize("early_ms", [30, 0, -20, -40])
def test_a_words_first_stop_is_read_from_its_burst(text, place, early_ms):
    """From where a recognizer would say the word starts: at its first sound, a little before, or
    up to 40 ms after (the vowel's onset, which tilts low like a B, must not make a D read as one)."""
    samples = _speech(text)
    assert stop_place(samples, _first_sound(samples) - 16 * early_ms, Room.of(samples)) == place


def test_lips_and_tongue_tip_lie_far_apart_inside_a_request():
    ben, dan = _speech("Ben, is Mrs. Bun at home?"), _speech("Dan, is Mrs. Bun at home?")
    tilt_ben = burst_tilts(ben, _first_sound(ben), Room.of(ben))[0]
    tilt_dan = burst_tilts(dan, _first_sound(dan), Room.of(dan))[0]
    assert tilt_dan - tilt_ben > 15


def test_no_burst_gives_no_reading():
    rng = np.random.default_rng(3)
    for samples in (np.zeros(16000), rng.normal(0, 300, 16000), 3000 * np.sin(np.arange(16000) / 5)):
        assert burst_tilts(samples, 4000, Room.of(samples)) == []
        assert stop_place(samples, 4000, Room.of(samples)) is None


def test_audio_that_ends_before_the_burst_gives_no_reading():
    samples = _speech("Ben.")
    start = _first_sound(samples)
    assert stop_place(samples[: start - 16], start, Room.of(samples)) is None


def test_a_word_with_no_audio_before_it_gives_no_reading():
    """Without the closure's quiet before it, a burst cannot be told from the start of the audio."""
    samples = _speech("Dan.")
    samples = samples[_first_sound(samples):]
    assert stop_place(samples, 0, Room.of(samples)) is None
