"""Where a word's first stop consonant was made, lips or tongue tip, read from its burst.

The recognizer's acoustic model hears "Ben" and "Dan" alike: it swaps them now and then with
full confidence, so every request to either was asked about. The release burst of the stop is
independent evidence (Stevens and Blumstein, 1978): a stop made with the lips (B, P) bursts with
its energy low, one made with the tongue tip (D, T) with its energy high. The tilt read here is
the energy over 3-7 kHz less that over 0.3-2 kHz in the 20 ms from the burst, the room's noise
spectrum taken off first. Measured at the name words where PocketSphinx's grammar decoding placed
them (the corpus's 97 requests to Ben or Dan per condition):

* neural voice, clean: "Ben" -27 to -11 dB (one -4.6), "Dan" -1.5 to +11;
  white noise 20 dB: "Ben" -28 to -18, "Dan" -2 to +13;
  babble 20 dB: two "Dan" at -22 and -14 (another talker's sound taken for the burst);
* espeak-ng's eight robotic voices, clean: "Ben" -19 to -11 (one -3.1), "Dan" -11.5 to +3.8.

So only a tilt of ``LABIAL_BELOW`` or less, or ``ALVEOLAR_ABOVE`` or more, is a reading, and the
recognizer reads bursts only in quiet or steady noise, never among other talkers, and only as a second
opinion: a name it is already sure of,
and whose reading agrees, rules out its sound-alike (``Hearing.ruled_out``); anything else is asked
about as before. Real voices were not measured here: children, other accents and prevoiced stops
(which the 1 kHz envelope below is meant to see past) may read otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ALVEOLAR", "LABIAL", "PLACES", "Room", "burst_tilt", "stop_place"]

LABIAL, ALVEOLAR = "labial", "alveolar"
PLACES = {"B": LABIAL, "P": LABIAL, "D": ALVEOLAR, "T": ALVEOLAR}  # first phones that can be told apart
RATE = 16000
_HOP, _WIN = 32, 64  # 2 ms steps of 4 ms windows: the envelope that finds the burst
_CLOSURE = 6  # steps (12 ms) before the burst in which the closure's quiet is looked for
_SEARCH = 0.12  # seconds after the word's start in which its burst is looked for
_BURST = 320  # samples (20 ms) of burst whose spectrum is read
_NFFT = 512
MIN_RISE_DB = 8.0  # the burst's rise over the closure above 1 kHz: under it, no burst was found
LABIAL_BELOW = -13.0  # tilt (dB, 3-7 kHz less 0.3-2 kHz) at or under which the burst is the lips'
ALVEOLAR_ABOVE = -1.0  # ... at or over which it is the tongue tip's

_FREQS = np.fft.rfftfreq(_NFFT, 1 / RATE)
_TAPER = np.hamming(2 * _BURST)[_BURST:]  # full weight at the burst, fading over 20 ms


@dataclass(frozen=True)
class Room:
    """The room's noise: the power spectrum of the quietest tenth of an utterance's 20 ms frames,
    scaled to the burst's window, to be taken off the burst's own."""

    power: np.ndarray

    @classmethod
    def of(cls, samples: np.ndarray) -> Room:
        samples = np.asarray(samples, dtype=np.float64)
        n = len(samples) // _BURST
        if n < 10:
            return cls(np.zeros(len(_FREQS)))
        frames = samples[: n * _BURST].reshape(n, _BURST)
        energy = (frames ** 2).mean(axis=1)
        quiet = frames[energy <= np.percentile(energy, 10)]
        window = np.hanning(_BURST)
        power = (np.abs(np.fft.rfft(quiet * window, _NFFT)) ** 2).mean(axis=0)
        return cls(power * (_TAPER ** 2).sum() / (window ** 2).sum())


def _envelope(samples: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """dB above 1 kHz of the 4 ms windows starting at ``starts``: a burst is broadband, while the
    voicing some speakers begin a B or D with (a low murmur) would otherwise look like one."""
    windows = np.stack([samples[i : i + _WIN] for i in starts]) * np.hanning(_WIN)
    spectrum = np.abs(np.fft.rfft(windows, axis=1)) ** 2
    high = np.fft.rfftfreq(_WIN, 1 / RATE) >= 1000
    return 10 * np.log10(spectrum[:, high].sum(axis=1) + 1.0)


def burst_tilt(samples: np.ndarray, start: int, room: Room) -> float | None:
    """The burst's tilt in dB (energy over 3-7 kHz less that over 0.3-2 kHz, the room's ``noise``
    taken off) for the word starting at sample ``start`` of ``samples`` (16 kHz): the burst is the
    steepest rise above 1 kHz in the word's first 120 ms over the quiet of the 12 ms before it.
    None when nothing rises ``MIN_RISE_DB`` over its closure."""
    first = max(start - _CLOSURE * _HOP, 0)
    last = min(start + int(_SEARCH * RATE), len(samples) - _BURST)
    starts = np.arange(first, last, _HOP)
    if len(starts) < _CLOSURE + 2:
        return None
    energy = _envelope(samples, starts)
    best, at = -np.inf, None
    for j in range(_CLOSURE, len(starts) - 1):
        if starts[j] < start:
            continue
        rise = energy[j + 1] - energy[j - _CLOSURE : j].min()
        if rise > best:
            best, at = rise, int(starts[j])
    if at is None or best < MIN_RISE_DB:
        return None
    spectrum = np.abs(np.fft.rfft(samples[at : at + _BURST] * _TAPER, _NFFT)) ** 2
    spectrum = np.maximum(spectrum - room.power, 0.03 * spectrum)

    def band(low: float, high: float) -> float:
        return float(10 * np.log10(spectrum[(_FREQS >= low) & (_FREQS < high)].mean() + 1e-9))

    return band(3000, 7000) - band(300, 2000)


def stop_place(samples: np.ndarray, start: int, room: Room) -> str | None:
    """``LABIAL`` or ``ALVEOLAR`` for the stop that begins the word starting at sample ``start``,
    None when no clear burst is found or its tilt lies in between (``burst_tilt``)."""
    tilt = burst_tilt(samples, start, room)
    if tilt is None:
        return None
    return LABIAL if tilt <= LABIAL_BELOW else ALVEOLAR if tilt >= ALVEOLAR_ABOVE else None
