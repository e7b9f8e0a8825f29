"""Streaming noise suppression for 16 kHz int16 speech, in numpy: a Wiener-style spectral gain.

The signal is cut into 32 ms frames every 16 ms (square-root Hann windows, so that analysis and
overlap-add synthesis give back the input exactly when every gain is 1). The noise spectrum is
estimated without knowing where the speech is: each frequency bin's smoothed power is tracked
over the last ``memory`` seconds of audio (kept across utterances, as the room stays the same)
and its minimum, times a bias correction, is taken as the noise power (minimum statistics). The
gain of each bin follows the "decision-directed" a priori SNR estimate, and is never below
``floor``: keeping a little of the noise avoids the warbling ("musical noise") that full
subtraction leaves, which a recognizer hears as phones.

Digital silence stays digital silence (a zero spectrum has a zero noise estimate). Output has
exactly as many samples as input; ``finish`` returns the last ``latency`` samples.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Denoiser"]

_EPS = 1e-10


class Denoiser:
    """``push(samples) -> samples`` (any lengths, float or int16 arrays), ``finish()`` at the end
    of an utterance; the noise estimate survives ``finish`` (use ``forget`` for a new room)."""

    def __init__(self, rate: int = 16000, *, frame: int = 512, floor: float = 0.1, memory: float = 1.5,
                 smoothing: float = 0.9, bias: float = 1.7, decision: float = 0.98) -> None:
        """``floor``: least gain (0.1 = -20 dB); ``memory``: seconds of minimum tracking;
        ``smoothing``: of each bin's power before the minimum; ``bias``: minimum -> mean noise
        power; ``decision``: weight of the previous frame in the a priori SNR."""
        if frame % 2:
            raise ValueError("frame must be even")
        self.rate = rate
        self.frame = frame
        self.hop = frame // 2
        self.latency = frame - self.hop
        self.floor = floor
        self.smoothing = smoothing
        self.bias = bias
        self.decision = decision
        n = np.arange(frame)
        self._window = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * n / frame))  # periodic: sums to 1 squared
        self._history = np.zeros((max(1, round(memory * rate / self.hop)), frame // 2 + 1))
        self._filled = 0  # rows of history in use
        self._row = 0
        # How far the noise estimate moved during the last finished utterance (dB of its mean
        # power): large when the room's noise changed mid-way; inf when there was no estimate at
        # its start or end (digital silence so far: the output was then the input, unchanged).
        self.drift_db = math.inf
        self.forget()

    def forget(self) -> None:
        """Drop the noise estimate (a new microphone or room) and any utterance in progress."""
        self._filled = 0
        self._row = 0
        self._smooth: np.ndarray | None = None
        self.noise: np.ndarray | None = None  # power per bin, int16 scale
        self.cancel()

    def cancel(self) -> None:
        """Drop the utterance in progress (its samples are not returned); keep the noise estimate."""
        self._in = np.zeros(self.latency)
        self._out = np.zeros(self.frame)
        self._skip = self.latency  # leading output samples that belong before the input
        self._pushed = 0
        self._emitted = 0
        self._prev_clean: np.ndarray | None = None  # |S|^2 of the previous frame
        self._start_noise = float(self.noise.mean()) if self.noise is not None else 0.0

    def push(self, samples: np.ndarray) -> np.ndarray:
        """Denoise ``samples``; returns what is ready (``latency`` samples behind the input)."""
        x = np.asarray(samples, dtype=np.float64).ravel()
        self._pushed += len(x)
        self._in = np.concatenate([self._in, x])
        return self._run()

    def finish(self) -> np.ndarray:
        """The rest of the utterance; the next ``push`` starts a new one."""
        pieces = []
        while self._emitted < self._pushed:
            self._in = np.concatenate([self._in, np.zeros(self.hop)])
            pieces.append(self._run(limit=self._pushed - self._emitted))
        end = float(self.noise.mean()) if self.noise is not None else 0.0
        start = self._start_noise
        self.drift_db = math.inf if min(start, end) <= _EPS else abs(10 * math.log10(end / start))
        self.cancel()
        return np.concatenate(pieces) if pieces else np.zeros(0)

    def _run(self, limit: int | None = None) -> np.ndarray:
        out = []
        while len(self._in) >= self.frame:
            spectrum = np.fft.rfft(self._in[: self.frame] * self._window)
            self._in = self._in[self.hop :]
            gain = self._gain(spectrum.real ** 2 + spectrum.imag ** 2)
            self._out += np.fft.irfft(spectrum * gain, self.frame) * self._window
            ready = self._out[: self.hop].copy()
            self._out = np.concatenate([self._out[self.hop :], np.zeros(self.hop)])
            if self._skip:
                cut = min(self._skip, len(ready))
                ready = ready[cut:]
                self._skip -= cut
            out.append(ready)
        y = np.concatenate(out) if out else np.zeros(0)
        if limit is not None:
            y = y[:limit]
        self._emitted += len(y)
        return y

    def _gain(self, power: np.ndarray) -> np.ndarray:
        if self._smooth is None:
            self._smooth = power.copy()
        else:
            self._smooth = self.smoothing * self._smooth + (1 - self.smoothing) * power
        self._history[self._row] = self._smooth
        self._row = (self._row + 1) % len(self._history)
        self._filled = min(self._filled + 1, len(self._history))
        self.noise = self.bias * self._history[: self._filled].min(axis=0)
        noise = self.noise + _EPS
        posterior = power / noise
        prior_ml = np.maximum(posterior - 1.0, 0.0)
        if self._prev_clean is None:
            prior = prior_ml
        else:
            prior = self.decision * self._prev_clean / noise + (1 - self.decision) * prior_ml
        gain = np.maximum(prior / (1.0 + prior), self.floor)
        gain[self.noise <= _EPS] = 1.0  # nothing to remove (digital silence so far)
        self._prev_clean = gain * gain * power
        return gain
