"""Where a word's first stop consonant was made, lips or tongue tip, read from its burst.

The recognizer's acoustic model hears "Ben" and "Dan" alike: it swaps them now and then with
full confidence, so every request to either was asked about. The release burst of the stop is
independent evidence (Stevens and Blumstein, 1978): a stop made with the lips (B, P) bursts with
its energy low, one made with the tongue tip (D, T) with its energy high. The tilt read here is
the energy over 3-7 kHz less that over 0.3-2 kHz in the 20 ms from the burst, the room's noise
spectrum taken off first. Measured at the name words where PocketSphinx's grammar decoding placed
them (the corpus's 97 requests to Ben or Dan per condition), the steepest rise's tilt:

* neural voice, clean: "Ben" -27 to -11 dB (one -4.6), "Dan" -1.5 to +11;
  white noise 20 dB: "Ben" -28 to -18, "Dan" -2 to +13;
  babble 20 dB: two "Dan" at -22 and -14 (another talker's sound taken for the burst);
* espeak-ng's eight robotic voices, clean: "Ben" -19 to -11 (one -3.1), "Dan" -11.5 to +3.8.

So only a tilt of ``LABIAL_BELOW`` or less, or ``ALVEOLAR_ABOVE`` or more, is a reading. The onset
of a vowel or a nasal also tilts low, so a D whose burst is missed (weak, or the word's start placed
after it) would read as a B, the direction that would play a request to the wrong player: a reading
of lips counts only when no rise near the word's start reads as a tongue tip (``stop_place``). With
that, no Ben or Dan above was read as the other in quiet or white noise, and espeak's low D bursts
are no reading. A nasal with no stop before it ("Nan") still reads as lips.

The recognizer reads bursts only as a second opinion, in quiet or steady noise (not with other people
talking 20 dB under the voice or louder): a name it is already sure of, whose reading agrees, rules out
its sound-alike (``Hearing.ruled_out``); anything else is asked about as before. Real voices were not
measured here: children, other accents and prevoiced stops (which the 1 kHz envelope below is meant
to see past) may read otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ALVEOLAR", "LABIAL", "PLACES", "Room", "burst_tilts", "stop_place"]

LABIAL, ALVEOLAR = "labial", "alveolar"
PLACES = {"B": LABIAL, "P": LABIAL, "D": ALVEOLAR, "T": ALVEOLAR}  # first phones that can be told apart
RATE = 16000
_HOP, _WIN = 32, 64  # 2 ms steps of 4 ms windows: the envelope that finds the burst
_CLOSURE = 6  # steps (12 ms) before the burst in which the closure's quiet is looked for
_SEARCH = 0.12  # seconds after the word's start in which its burst is looked for
_BEFORE = 0.04  # ... and before it
_PEAK = 4  # steps (8 ms): of rises closer than this, only the steepest counts
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


def burst_tilts(samples: np.ndarray, start: int, room: Room) -> list[float]:
    """The tilts in dB (energy over 3-7 kHz less that over 0.3-2 kHz, the ``room``'s noise taken off)
    of every sharp rise near the word starting at sample ``start`` of ``samples`` (16 kHz), steepest
    first: each a rise above 1 kHz of ``MIN_RISE_DB`` or more over the quietest of the 12 ms before
    it, the steepest within 8 ms, from ``_BEFORE`` before the start (an alignment can start a word
    late) to 120 ms after. Empty without 12 ms of audio before the word."""
    if start < _CLOSURE * _HOP:
        return []
    first = start - int(_BEFORE * RATE) - _CLOSURE * _HOP
    last = min(start + int(_SEARCH * RATE), len(samples) - _BURST)
    starts = np.arange(max(first, 0), last, _HOP)
    if len(starts) < _CLOSURE + 2:
        return []
    energy = _envelope(samples, starts)
    rise = np.full(len(starts), -np.inf)
    for j in range(_CLOSURE, len(starts) - 1):
        rise[j] = energy[j + 1] - energy[j - _CLOSURE : j].min()
    peaks = [j for j in range(len(starts)) if rise[j] >= MIN_RISE_DB
             and rise[j] == rise[max(j - _PEAK, 0) : j + _PEAK + 1].max()]
    return [_tilt(samples, int(starts[j]), room) for j in sorted(peaks, key=lambda j: -rise[j])]


def _tilt(samples: np.ndarray, at: int, room: Room) -> float:
    spectrum = np.abs(np.fft.rfft(samples[at : at + _BURST] * _TAPER, _NFFT)) ** 2
    spectrum = np.maximum(spectrum - room.power, 0.03 * spectrum)

    def band(low: float, high: float) -> float:
        return float(10 * np.log10(spectrum[(_FREQS >= low) & (_FREQS < high)].mean() + 1e-9))

    return band(3000, 7000) - band(300, 2000)


def _place(tilt: float) -> str | None:
    return LABIAL if tilt <= LABIAL_BELOW else ALVEOLAR if tilt >= ALVEOLAR_ABOVE else None


def stop_place(samples: np.ndarray, start: int, room: Room) -> str | None:
    """``LABIAL`` or ``ALVEOLAR`` for the stop that begins the word starting at sample ``start``, read
    from the steepest rise (``burst_tilts``); None when there is none, its tilt lies in between, or
    another rise near it reads the other way. The onset of a vowel or a nasal tilts low like a B,
    so a D whose burst is missed (weak, or the word's start misplaced) would read as a B: any rise
    reading as a tongue tip forbids a reading of lips."""
    tilts = burst_tilts(samples, start, room)
    if not tilts:
        return None
    place = _place(tilts[0])
    others = {_place(t) for t in tilts[1:]}
    return None if place is None or place == LABIAL and ALVEOLAR in others else place
