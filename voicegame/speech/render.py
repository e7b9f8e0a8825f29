"""Synthetic speech as a recognizer hears it: for tests, the voice corpus and the benchmarks.

There are no human recordings here, so requests are spoken by two kinds of synthetic voice:

* ``"hibari"``: the hibari-tts neural voice (one US female voice, offline, 24 kHz). It sounds
  close enough to a person that the acoustic model's figures on it mean something.
* any espeak-ng voice name (``"en-us"``, ``"en+f3"``, ``"en-gb-scotland"``...), spoken by the
  game's own pyttsx3 engine (``tts.shared_engine``), so tests hear exactly what the program can
  say. These robotic voices fit an acoustic model badly: a hard case, and many accents.

Everything comes out as the recognizers take it: 16 kHz mono int16 PCM, with 0.3 s of digital
silence either side, as an end-of-speech detector leaves around an utterance. ``mix_noise`` adds
white noise or babble (other talkers) at a chosen signal-to-noise ratio. ``another_voice`` stands in
for other speakers (lower, slower, faster) and ``as_a_child`` for a young child's voice, which no
synthetic voice here has.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import threading
import wave
from pathlib import Path

import numpy as np

from voicegame.speech.audio import Resampler
from voicegame.speech.base import SAMPLE_RATE, SpeechError, Voice

__all__ = ["ESPEAK_RATE", "PAD_SECONDS", "active_power", "another_voice", "as_a_child", "mix_noise", "speech_pcm",
           "write_wav"]

PAD_SECONDS = 0.3
ESPEAK_RATE = 170  # words per minute at speed 1.0: the game's own default Voice
_BLOCK = SAMPLE_RATE // 100  # 10 ms
_ACTIVE_BELOW_PEAK_DB = 40.0  # a block this far under the loudest one is a pause, not speech

_hibari = None
_hibari_lock = threading.Lock()


def _hibari_voice():
    """One hibari model per process: loading it takes a while and holds its weights in memory."""
    global _hibari
    with _hibari_lock:
        if _hibari is None:
            try:
                import hibari
            except ImportError:
                raise SpeechError("The neural test voice is not installed. Install it with: pip install hibari-tts") \
                    from None
            _hibari = hibari.Hibari()
        return _hibari


def _to_16k(samples: np.ndarray, rate: int) -> np.ndarray:
    """int16-scale samples at ``rate`` -> int16 at 16 kHz, with the project's own resampler
    (the one that reads WAV files and microphones), so test audio goes the same way."""
    samples = np.asarray(samples, dtype=np.float64)
    if rate != SAMPLE_RATE:
        r = Resampler(rate)
        samples = np.concatenate([r.push(samples), r.finish()])
    return np.clip(np.rint(samples), -32768, 32767).astype("<i2")


def _pad(samples: np.ndarray) -> bytes:
    pad = np.zeros(round(PAD_SECONDS * SAMPLE_RATE), "<i2")
    return np.concatenate([pad, samples, pad]).tobytes()


def _espeak(text: str, voice: str, speed: float, pitch: int | None = None) -> np.ndarray:
    from voicegame.speech.tts import ENGINE_RATE, shared_engine

    extra = {} if pitch is None else {"pitch": pitch}
    pcm, problems = shared_engine().synthesize(text, Voice(voice, round(ESPEAK_RATE * speed), extra=extra))
    if problems:
        raise SpeechError(f"espeak-ng refused the voice {voice}: {problems[0]}")
    return _to_16k(np.frombuffer(pcm, "<i2"), ENGINE_RATE)


def speech_pcm(text: str, voice: str = "hibari", speed: float = 1.0) -> bytes:
    """``text`` spoken by ``voice`` as 16 kHz mono int16 PCM, 0.3 s of digital silence either side.

    ``speed``: 1.0 is the voice's normal pace (hibari's own; 170 words a minute for espeak-ng),
    1.3 is 30% faster. The same arguments always give the same samples (hibari is seeded).
    Raises SpeechError when the engine is missing or refuses the voice.
    """
    if voice == "hibari":
        h = _hibari_voice()
        samples = np.asarray(h(text, speed=speed, seed=1), dtype=np.float64) * 32767.0
        return _pad(_to_16k(samples, h.sample_rate))
    return _pad(_espeak(text, voice, speed))


def _samples(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, "<i2").astype(np.float64)


def active_power(pcm: bytes) -> float:
    """Mean square (int16 scale) of the speech itself: the 10 ms blocks within 40 dB of the
    loudest one. Padding and pauses are left out, so an SNR means the same for a short "Ben,
    Mrs. Bun" as for a long sentence, whatever the silence around it."""
    x = _samples(pcm)
    blocks = x[: len(x) // _BLOCK * _BLOCK].reshape(-1, _BLOCK)
    if not len(blocks):
        return 0.0
    power = (blocks * blocks).mean(axis=1)
    active = power[power >= power.max() * 10 ** (-_ACTIVE_BELOW_PEAK_DB / 10)]
    return float(active.mean()) if power.max() > 0 else 0.0


# Babble: six talkers in different espeak-ng voices, each reading its own sentences, summed.
_BABBLE_TALKERS = [
    ("en-us+m3", 60, "The bus was late again this morning, so we walked the long way round by the river."),
    ("en+f3", 70, "I told her the cake needed another ten minutes, but she took it out anyway."),
    ("en-gb-scotland+m2", 40, "We are going up to the hills at the weekend if the weather holds."),
    ("en-us+f2", 80, "Have you seen where I left my glasses? They were on the table a minute ago."),
    ("en-029+m1", 50, "My brother fixed the bicycle chain, and now the gears make a funny noise."),
    ("en-gb-x-rp+f4", 65, "The library closes early on Thursdays, which is rather annoying for everyone."),
]
_babble_tracks: list[np.ndarray] = []


def _babble_sources() -> list[np.ndarray]:
    """Each talker's speech, rendered once per process, pauses and padding cut out, scaled to
    the same loudness so that no single voice stands out of the crowd."""
    if not _babble_tracks:
        for voice, pitch, sentence in _BABBLE_TALKERS:
            x = _espeak(sentence, voice, 1.0, pitch).astype(np.float64)
            blocks = x[: len(x) // _BLOCK * _BLOCK].reshape(-1, _BLOCK)
            power = (blocks * blocks).mean(axis=1)
            x = blocks[power >= power.max() * 10 ** (-_ACTIVE_BELOW_PEAK_DB / 10)].ravel()
            _babble_tracks.append(x / math.sqrt((x * x).mean()))
    return _babble_tracks


def _babble(n: int, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(n)
    for track in _babble_sources():
        looped = np.tile(track, n // len(track) + 2)
        start = int(rng.integers(len(track)))
        out += looped[start : start + n]
    return out


def mix_noise(pcm: bytes, snr_db: float, kind: str = "white", seed: int = 0) -> bytes:
    """``pcm`` with noise added over the whole clip (padding included, as a room would), at
    ``snr_db`` against the speech's active power (``active_power``).

    ``kind``: "white" (Gaussian) or "babble" (six other talkers at once, the noise of a family
    table). The same ``seed`` gives the same noise. Samples are clipped to int16.
    """
    x = _samples(pcm)
    rng = np.random.default_rng(seed)
    if kind == "white":
        noise = rng.standard_normal(len(x))
    elif kind == "babble":
        noise = _babble(len(x), rng)
    else:
        raise ValueError(f"unknown noise kind {kind!r} (white or babble)")
    speech = active_power(pcm)
    noise *= math.sqrt(speech / 10 ** (snr_db / 10) / max(float((noise * noise).mean()), 1e-12))
    return np.clip(np.rint(x + noise), -32768, 32767).astype("<i2").tobytes()


def as_a_child(pcm: bytes, cents: int = 400) -> bytes:
    """``pcm`` a young child's stand-in: pitch and every formant ``cents`` higher (400: 26%, about
    a child of 6-8 from an adult woman's voice), length unchanged."""
    return another_voice(pcm, cents=cents)


def another_voice(pcm: bytes, cents: int = 0, tempo: float = 1.0) -> bytes:
    """``pcm`` as another speaker might say it: pitch and every formant ``cents`` higher (lower when
    negative: -300 is about a man's from a woman's voice) and ``tempo`` times as fast, through sox's
    ``pitch`` and ``tempo`` effects. The corpus has one neural voice; these stand in for the others.
    Repeatable (sox's ``-R``): sox dithers its output with a random seed otherwise, and a request
    whose margin is near a threshold then goes one way or the other from one render to the next."""
    if shutil.which("sox") is None:
        raise SpeechError("Other voices are made with sox, which is not installed. "
                          "Install it with: apt-get install sox")
    raw = ["-t", "raw", "-r", str(SAMPLE_RATE), "-e", "signed-integer", "-b", "16", "-c", "1"]
    effects = (["pitch", str(cents)] if cents else []) + (["tempo", str(tempo)] if tempo != 1.0 else [])
    return subprocess.run(["sox", "-R", *raw, "-", *raw, "-", *effects], input=pcm, capture_output=True,
                          check=True).stdout


def write_wav(path: str | Path, pcm: bytes, rate: int = SAMPLE_RATE) -> None:
    """Write mono int16 PCM as a WAV file (what ``voicegame transcribe`` and WavSource read)."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm)
