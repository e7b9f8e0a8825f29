"""Audio in and out: sources of 16 kHz mono int16 chunks, utterance boundaries, and playback.

Sources (microphone, WAV file, standard input) all yield ``bytes`` of 16-bit little-endian
mono PCM at ``SAMPLE_RATE``. A ``Segmenter`` (energy VAD) or ``PushToTalk`` turns that chunk
stream into ``Event``s (start, audio, end) the table loop feeds to a recognizer; a ``Gate``
drops what the microphone hears while the program itself is speaking. Each source says whether
it is ``live``: a recording holds no echo of the program's voice, so rather than being dropped,
it is not read while the program speaks.

NumPy is used for resampling and frame energies: a correct (anti-aliased) resampler in pure
Python costs about half a second of CPU per second of 48 kHz audio, too slow for live input.
"""

from __future__ import annotations

import collections
import itertools
import math
import os
import queue
import select
import struct
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator

import numpy as np

from voicegame.speech.base import SAMPLE_RATE, SpeechError

__all__ = [
    "Device",
    "Event",
    "Gate",
    "MicrophoneSource",
    "PcmOutput",
    "PushToTalk",
    "Resampler",
    "Segmenter",
    "StdinSource",
    "Utterance",
    "WavSource",
    "audio_devices",
    "find_device",
    "utterances",
]

NO_PIPE = ("The option --audio-in - listens to sound piped in, for example: "
           "arecord -f S16_LE -r 16000 -c 1 | voicegame play --voice --audio-in -. "
           "Here standard input is a terminal, with nothing piped in.")

BYTES_PER_SECOND = SAMPLE_RATE * 2
_DIGITAL_SILENCE_DB = -90.0  # frames this quiet are a microphone opening or padding, not a room
PROBE_AUDIO, PROBE_WAIT = 3.0, 0.25  # seconds: this much audio arriving this soon is not live (StdinSource)


# --------------------------------------------------------------------------- devices


def _sounddevice():
    """Import sounddevice late: it needs the PortAudio C library, which may be missing."""
    try:
        import sounddevice
    except (ImportError, OSError) as exc:
        raise SpeechError.of("no_portaudio") from exc
    return sounddevice


@dataclass(frozen=True)
class Device:
    index: int
    name: str
    inputs: int  # channels
    outputs: int
    default_rate: float


def audio_devices() -> tuple[list[Device], list[Device]]:
    """(input devices, output devices). Both are empty on a machine without a sound card."""
    sd = _sounddevice()
    devices = [
        Device(d["index"], d["name"], d["max_input_channels"], d["max_output_channels"], d["default_samplerate"])
        for d in sd.query_devices()
    ]
    return [d for d in devices if d.inputs > 0], [d for d in devices if d.outputs > 0]


def find_device(spec: int | str | None, kind: str) -> Device:
    """The input or output device named by ``spec``: an index, part of its name (any case), or
    None for the system default. Raises SpeechError with a sentence to say when there is none."""
    inputs, outputs = audio_devices()
    devices, what = (inputs, "microphone") if kind == "input" else (outputs, "output")
    if not devices:
        raise SpeechError.of(f"no_{what}")
    if spec is None:
        default = _sounddevice().default.device[0 if kind == "input" else 1]
        return next((d for d in devices if d.index == default), devices[0])
    if isinstance(spec, int) or str(spec).isdigit():
        found = [d for d in devices if d.index == int(spec)]
    else:
        found = [d for d in devices if str(spec).lower() in d.name.lower()]
    if not found:
        raise SpeechError.of(f"{what}_not_found", device=spec)
    return found[0]


# --------------------------------------------------------------------------- resampling


class Resampler:
    """Streaming windowed-sinc resampler to 16 kHz, any input rate.

    Each output sample is a Blackman-windowed sinc interpolation of the input at its exact
    (rational) position, with the cut-off below both Nyquist frequencies so that downsampling
    (22.05/24/44.1/48 kHz) does not fold high frequencies into the speech band.
    """

    ZERO_CROSSINGS = 12

    def __init__(self, rate_in: int, rate_out: int = SAMPLE_RATE) -> None:
        self.rate_in, self.rate_out = int(rate_in), int(rate_out)
        self._fc = 0.45 * min(1.0, self.rate_out / self.rate_in)  # cycles per input sample
        self._half = math.ceil(self.ZERO_CROSSINGS / (2 * self._fc))
        self._taps = np.arange(-self._half + 1, self._half + 1)
        # Output positions fall on rate_out / gcd distinct fractions of an input sample: one
        # row of filter weights per fraction, computed once.
        self._step = math.gcd(self.rate_in, self.rate_out)
        d = (np.arange(self.rate_out // self._step) * self._step / self.rate_out)[:, None] - self._taps[None, :]
        w = np.sinc(2 * self._fc * d) * (0.42 + 0.5 * np.cos(np.pi * d / self._half)
                                         + 0.08 * np.cos(2 * np.pi * d / self._half))
        self._weights = w / w.sum(axis=1, keepdims=True)
        self._buf = np.zeros(self._half)
        self._start = -self._half  # absolute input index of _buf[0]; negative indices are silence
        self._k = 0  # next output sample
        self._n_in = 0

    def push(self, samples: np.ndarray) -> np.ndarray:
        """Feed input samples (any numeric dtype, int16 scale); returns the outputs now complete."""
        samples = np.asarray(samples, dtype=np.float64)
        if self.rate_in == self.rate_out:
            return samples
        self._n_in += len(samples)
        self._buf = np.concatenate([self._buf, samples])
        last = self._start + len(self._buf) - 1 - self._half  # last usable centre index
        return self._emit(-(-(last + 1) * self.rate_out // self.rate_in))

    def finish(self) -> np.ndarray:
        """Flush the last outputs; the total is ceil(inputs * 16000 / rate_in)."""
        if self.rate_in == self.rate_out:
            return np.zeros(0)
        self._buf = np.concatenate([self._buf, np.zeros(self._half + 1)])
        return self._emit(-(-self._n_in * self.rate_out // self.rate_in))

    def _emit(self, k_end: int) -> np.ndarray:
        if k_end <= self._k:
            return np.zeros(0)
        ks = np.arange(self._k, k_end, dtype=np.int64)
        pos = ks * self.rate_in
        centre = pos // self.rate_out
        w = self._weights[(pos % self.rate_out) // self._step]
        out = (self._buf[centre[:, None] + self._taps[None, :] - self._start] * w).sum(axis=1)
        self._k = k_end
        keep_from = (k_end * self.rate_in) // self.rate_out - self._half + 1
        if keep_from > self._start:
            self._buf = self._buf[keep_from - self._start:]
            self._start = keep_from
        return out


def _to_pcm16(samples: np.ndarray) -> bytes:
    return np.clip(np.rint(samples), -32768, 32767).astype("<i2").tobytes()


# --------------------------------------------------------------------------- sources


def _chunk_bytes(chunk_ms: int) -> int:
    return SAMPLE_RATE * chunk_ms // 1000 * 2


class WavSource:
    """Any PCM or float WAV file (8/16/24/32-bit, mono or more channels, any rate) as 16 kHz
    mono int16 chunks. Channels are averaged. Reads the RIFF chunks itself because the ``wave``
    module of Python 3.11 refuses float and WAVE_FORMAT_EXTENSIBLE files."""

    live = False

    def __init__(self, path: str | Path, chunk_ms: int = 30) -> None:
        self.path = Path(path)
        self.chunk = _chunk_bytes(chunk_ms)
        try:
            with open(self.path, "rb") as f:
                self._parse(f)
        except FileNotFoundError as exc:
            raise SpeechError(f"There is no sound file {self.path}.") from exc
        except OSError as exc:
            raise SpeechError(f"The sound file {self.path.name} could not be opened"
                              f" ({(exc.strerror or 'a read error').lower()}).") from exc

    def _parse(self, f: BinaryIO) -> None:
        bad = SpeechError(f"The file {self.path.name} is not a WAV recording I can read.")
        head = f.read(12)
        if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            raise bad
        fmt = None
        while True:
            chunk = f.read(8)
            if len(chunk) < 8:
                raise bad
            cid, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
            if cid == b"fmt ":
                body = f.read(size + (size & 1))
                tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
                if tag == 0xFFFE and len(body) >= 26:
                    tag = struct.unpack("<H", body[24:26])[0]  # first bytes of the sub-format GUID
                fmt = (tag, channels, rate, bits)
            elif cid == b"data":
                if fmt is None:
                    raise bad
                self._offset = f.tell()
                self._size = size  # streamed files may say 0 or 0xFFFFFFFF: read to the end then
                break
            else:
                f.seek(size + (size & 1), 1)
        tag, self.channels, self.rate, bits = fmt
        kinds = {(1, 8): "u1", (1, 16): "<i2", (1, 24): "i3", (1, 32): "<i4", (3, 32): "<f4", (3, 64): "<f8"}
        if (tag, bits) not in kinds or self.channels < 1 or self.rate < 1:
            raise bad
        self._kind = kinds[(tag, bits)]
        self._width = bits // 8

    def _decode(self, raw: bytes) -> np.ndarray:
        """Raw frames to mono float samples on the int16 scale."""
        k = self._kind
        if k == "u1":
            x = (np.frombuffer(raw, np.uint8).astype(np.float64) - 128) * 256
        elif k == "i3":
            b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
            x = ((b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8 >> 8) / 256.0
        elif k == "<i4":
            x = np.frombuffer(raw, k) / 65536.0
        elif k in ("<f4", "<f8"):
            x = np.frombuffer(raw, k).astype(np.float64) * 32768
        else:
            x = np.frombuffer(raw, k).astype(np.float64)
        return x.reshape(-1, self.channels).mean(axis=1)

    def __iter__(self) -> Iterator[bytes]:
        frame = self._width * self.channels
        block = frame * max(1, self.rate // 4)  # a quarter of a second per read keeps the filter arrays small
        resampler = Resampler(self.rate)
        pending = b""
        left = self._size if 0 < self._size < 0xFFFFFFFF else None
        with open(self.path, "rb") as f:
            f.seek(self._offset)
            while True:
                raw = f.read(block if left is None else min(block, left))
                if left is not None:
                    left -= len(raw)
                raw = raw[: len(raw) // frame * frame]
                pending += _to_pcm16(resampler.push(self._decode(raw)) if raw else resampler.finish())
                while len(pending) >= self.chunk:
                    yield pending[: self.chunk]
                    pending = pending[self.chunk:]
                if not raw:
                    break
        if pending:
            yield pending

    def pcm(self) -> bytes:
        """The whole file as one 16 kHz mono PCM string."""
        return b"".join(self)


class StdinSource:
    """Raw 16 kHz mono int16 PCM read from standard input (e.g. ``arecord -r16000 -fS16_LE | ...``).

    It is ``live`` (a microphone through a pipe, whose audio holds the program's own voice) unless
    more audio arrives at once than a live source can have sent: a recording, piped in or not.
    """

    def __init__(self, stream: BinaryIO | None = None, chunk_ms: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stdin.buffer
        if self.stream.isatty():
            raise SpeechError(NO_PIPE)
        self.chunk = _chunk_bytes(chunk_ms)
        self._head, self.live = self._probe()

    def _probe(self) -> tuple[bytes, bool]:
        """(the audio read so far, whether it is live). A pipe holds about 2 s of a live source's
        audio that nobody read yet, so 3 s arriving within a quarter of a second is a recording.
        A stream with no file descriptor is in memory: a recording."""
        try:
            fd = self.stream.fileno()
        except OSError:
            return b"", False
        wanted = round(PROBE_AUDIO * BYTES_PER_SECOND)
        deadline = time.monotonic() + PROBE_WAIT
        head = b""
        while len(head) < wanted:
            wait = deadline - time.monotonic()
            try:
                if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                    return head, True
            except OSError:  # a pipe select cannot wait on (Windows): taken as live, as a microphone
                return head, True
            data = os.read(fd, wanted - len(head))
            if not data:
                break
            head += data
        return head, False

    def __iter__(self) -> Iterator[bytes]:
        carry = b""
        probed = (self._head[i : i + self.chunk] for i in range(0, len(self._head), self.chunk))
        for data in itertools.chain(probed, iter(lambda: self.stream.read(self.chunk), b"")):
            data = carry + data
            cut = len(data) // 2 * 2
            carry = data[cut:]
            if cut:
                yield data[:cut]


class MicrophoneSource:
    """Live microphone input through a sounddevice RawInputStream, 16 kHz mono int16.

    PortAudio's callback thread only copies each block into a queue; iteration takes them out.
    If the device cannot record at 16 kHz it is opened at its own rate and resampled. A stream
    that stops delivering (device unplugged) raises SpeechError rather than hanging the game.
    """

    live = True

    def __init__(self, device: int | str | None = None, chunk_ms: int = 30, stall_timeout: float = 2.0) -> None:
        self.device = find_device(device, "input")
        self.chunk_ms = chunk_ms
        self.stall_timeout = stall_timeout
        self.overflows = 0
        self._queue: queue.Queue[bytes | None] = queue.Queue()
        self._stream = None
        self._closing = False
        self._resampler: Resampler | None = None

    def start(self) -> None:
        sd = _sounddevice()
        for rate in (SAMPLE_RATE, int(self.device.default_rate)):
            try:
                self._stream = sd.RawInputStream(
                    samplerate=rate, blocksize=rate * self.chunk_ms // 1000, device=self.device.index,
                    channels=1, dtype="int16", callback=self._callback, finished_callback=self._finished)
                break
            except sd.PortAudioError:
                continue
        else:
            raise SpeechError.of("microphone_unopened", device=self.device.name)
        self._resampler = Resampler(rate) if rate != SAMPLE_RATE else None
        self._queue = queue.Queue()
        self._closing = False
        try:
            self._stream.start()
        except sd.PortAudioError as exc:
            raise SpeechError.of("microphone_lost") from exc

    def _callback(self, indata, frames, time, status) -> None:
        if status.input_overflow:
            self.overflows += 1
        self._queue.put(bytes(indata))

    def _finished(self) -> None:
        self._queue.put(None)

    def __iter__(self) -> Iterator[bytes]:
        if self._stream is None:
            self.start()
        while not self._closing:
            try:
                data = self._queue.get(timeout=self.stall_timeout)
            except queue.Empty:
                data = None
            if data is None:
                if self._closing:
                    return
                raise SpeechError.of("microphone_lost")
            if self._resampler is not None:
                data = _to_pcm16(self._resampler.push(np.frombuffer(data, "<i2")))
            yield data

    def close(self) -> None:
        self._closing = True
        if self._stream is not None:
            self._stream.abort()
            self._stream.close()
            self._stream = None
        self._queue.put(None)

    def __enter__(self) -> MicrophoneSource:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --------------------------------------------------------------------------- utterances


@dataclass(frozen=True)
class Utterance:
    pcm: bytes  # pre-roll + speech + the trailing silence heard before the end was decided
    start: float  # stream seconds: first voiced frame
    speech_end: float  # end of the last voiced frame
    detected: float  # when the end was decided

    @property
    def duration(self) -> float:
        return len(self.pcm) / BYTES_PER_SECOND


@dataclass(frozen=True)
class Event:
    """``start`` (pcm: pre-roll and first speech), ``audio`` (pcm: more of it) or ``end``
    (utterance: the whole of it). Drive a recognizer with start()/feed()/finish()."""

    kind: str
    pcm: bytes = b""
    time: float = 0.0
    utterance: Utterance | None = None


class Segmenter:
    """Energy VAD with an adaptive noise floor: chunks in, utterance events out.

    Frames (30 ms) louder than the floor by ``start_margin_db`` for ``start_frames`` frames in a
    row start an utterance; it ends after ``end_silence`` seconds below the floor plus
    ``continue_margin_db`` (the lower margin keeps quiet word endings in). ``min_level_db`` stops
    a digitally silent floor from making every faint hiss count as speech. The floor starts at the
    stream's first frame, or near the quietest of its first ``opening`` seconds when the first frame
    stands out from it (they are held back until then: the first frame may already be a word, in a
    recording cut tight or from a player already talking), then follows quiet frames quickly and
    louder background slowly, and is frozen during speech; an utterance cut at ``max_utterance``
    resets it to the quietest frame heard, so a noise that got louder and stayed cannot hold the
    detector open for ever.

    In steady noise (a fan, running water: the background's loudness varies by less than
    ``steady_db``) a frame whose spectrum stands out from the noise's own needs only the
    ``steady_*_margin_db`` margins: a voice 5 dB over white noise is rarely 12 dB louder than it,
    yet its harmonics and formants rise far above the noise in their own bands (measured on the
    benchmark's neural-voice requests: white noise at 5 dB SNR, 151 of 160 found whole against
    none; at 10 dB 157 against 151, fewer quiet last words cut). Babble is not steady, so it keeps
    the plain margins (speech over babble also stands out, and would hold utterances open).

    Other people's talk, 6 dB over its own floor at its loud moments, would keep an utterance going
    for seconds after the player stopped (babble 20 dB under the voice: 15 of 160 benchmark requests
    waited 3 s or more for their end). In noise that is not steady, frames under the loudest tenth
    of the room between utterances (plus 3 dB) do not keep an utterance going: 1 of 160 waited.
    """

    def __init__(self, *, frame_ms: int = 30, end_silence: float = 0.5, start_frames: int = 3,
                 start_margin_db: float = 12.0, continue_margin_db: float = 6.0, min_level_db: float = -50.0,
                 pre_roll: float = 0.25, max_utterance: float = 15.0, steady_db: float = 1.5, opening: float = 0.3,
                 steady_start_margin_db: float = 4.0, steady_continue_margin_db: float = 2.0) -> None:
        self.frame = SAMPLE_RATE * frame_ms // 1000
        self.frame_s = self.frame / SAMPLE_RATE
        self.end_frames = max(1, round(end_silence / self.frame_s))
        self.start_frames = start_frames
        self.start_margin_db = start_margin_db
        self.continue_margin_db = continue_margin_db
        self.min_level_db = min_level_db
        self.max_frames = round(max_utterance / self.frame_s)
        self._history: collections.deque[bytes] = collections.deque(maxlen=round(pre_roll / self.frame_s))
        self.noise_floor_db: float | None = None
        self.steady_db = steady_db
        self.steady_start_margin_db = steady_start_margin_db
        self.steady_continue_margin_db = steady_continue_margin_db
        self._noise_spectrum: np.ndarray | None = None  # power per FFT bin, of frames near the floor
        self._noise_count = 0  # frames the spectrum was learnt from
        self._odd = 0  # frames near the floor in a row that stood out from that spectrum
        self._room: collections.deque[float] = collections.deque(maxlen=round(3.0 / self.frame_s))
        self._noise_levels: collections.deque[float] = collections.deque(maxlen=round(1.0 / self.frame_s))
        self._window = np.hanning(self.frame)
        self._levels: collections.deque[float] = collections.deque(maxlen=round(1.0 / self.frame_s))  # in speech
        self._pending = b""
        self._frames = 0  # frames consumed so far (the stream clock)
        # The stream's first frames, held until the floor is first set (``_open``): the first frame
        # alone may be a word (a recording cut tight, a player already talking).
        self._opening: list[bytes] = []
        self._opening_frames = max(1, round(opening / self.frame_s))
        self.reset()

    def reset(self) -> None:
        """Forget any half-heard utterance (e.g. after the program spoke); keep the noise floor."""
        self._opening.clear()
        self._candidate: list[bytes] = []
        self._speech: list[bytes] | None = None
        self._quiet = 0
        self._start_frame = 0
        self._last_voiced = 0
        self._quietest = 0.0
        self._speech_level = -math.inf  # frames under it do not keep this utterance going (``_talk_level``)
        self._levels.clear()
        self._history.clear()

    @property
    def in_speech(self) -> bool:
        return self._speech is not None

    @staticmethod
    def _energy_db(x: np.ndarray) -> float:
        return 10 * math.log10(float(np.mean(x * x)) / 32768.0**2 + 1e-10)

    def _spectrum(self, x: np.ndarray) -> np.ndarray:
        """Power per FFT bin from about 130 Hz to 6.6 kHz, where a voice's harmonics and formants are."""
        n = self.frame
        return np.abs(np.fft.rfft(x * self._window)[4 * n // 480 : 200 * n // 480]) ** 2 + 1.0

    def _stands_out(self, spectrum: np.ndarray) -> bool:
        """Whether the frame's spectrum, divided by the noise's own, is far from flat (under 0.3,
        where noise alone gives about 0.56, the flatness of a random spectrum): a voice's harmonics
        and formants, not more of the noise. Not until the noise's spectrum is known: half a
        second of it."""
        if self._noise_count < self._noise_levels.maxlen // 2:
            return False
        ratio = spectrum / self._noise_spectrum
        return math.exp(float(np.mean(np.log(ratio)))) / float(np.mean(ratio)) < 0.3

    def _steady(self) -> bool:
        """Whether the room's noise, between utterances, varies by less than ``steady_db``."""
        levels = self._noise_levels
        return len(levels) >= levels.maxlen // 2 and float(np.std(levels)) < self.steady_db

    def _talk_level(self) -> float:
        """Where other people's talk (noise that is not steady) would hold an utterance open: 3 dB
        over the loudest tenth of the room's last 3 seconds between utterances (-inf: no such noise)."""
        if self._steady() or len(self._room) < self._room.maxlen // 6:
            return -math.inf
        return float(np.percentile(self._room, 90)) + 3.0

    def _margins(self, stands_out: bool) -> tuple[float, float]:
        """(start, continue) margins over the floor for this frame: the lower ones in steady noise
        for a frame that stands out from it, or that follows one that began an utterance's first
        frames (syllables rise and fall: three frames in a row seldom all stand out)."""
        if self._steady() and (stands_out or self._candidate):
            return self.steady_start_margin_db, self.steady_continue_margin_db
        return self.start_margin_db, self.continue_margin_db

    def _learn_noise(self, spectrum: np.ndarray, stands_out: bool, e: float, floor: float) -> None:
        """Follow the noise's spectrum and loudness between utterances, in frames near the floor
        that do not stand out from it (not a knock, not the start of a word). How steady it is
        counts every frame that would not keep an utterance going: babble's louder moments too.
        Digital silence (a microphone opening) is not the room's noise, and a second of frames near
        the floor that all stand out means the noise changed: its spectrum is learnt afresh."""
        if e >= floor + self.continue_margin_db:
            return
        self._noise_levels.append(e)
        if e >= floor + 3.0:
            return
        if stands_out:
            self._odd += 1
            if self._odd >= self._noise_levels.maxlen:
                self._noise_count = self._odd = 0
        elif e > _DIGITAL_SILENCE_DB:
            self._odd = 0
            self._noise_count += 1
            weight = max(0.1, 1 / self._noise_count)  # the mean of the first frames, then a moving one
            old = self._noise_spectrum
            self._noise_spectrum = spectrum if old is None else (1 - weight) * old + weight * spectrum

    def push(self, pcm: bytes) -> list[Event]:
        data = self._pending + pcm
        n = len(data) // (2 * self.frame) * 2 * self.frame
        self._pending = data[n:]
        frames = [data[i : i + 2 * self.frame] for i in range(0, n, 2 * self.frame)]
        if self.noise_floor_db is None:
            self._opening.extend(frames)
            if len(self._opening) < self._opening_frames:
                return []
            frames = self._open()
        return self._segment(frames)

    def flush(self) -> list[Event]:
        """The stream ended: close an open utterance (in a stream shorter than the opening, too)."""
        events = self._segment(self._open()) if self._opening else []
        self._pending = b""
        return events + ([self._end()] if self.in_speech else [])

    def _open(self) -> list[bytes]:
        """Set the first noise floor: the first frame's level, unless it is louder than the opening's
        quietest frame by ``continue_margin_db`` (then it is a word, and that frame plus the margin is
        the floor). Returns the opening's frames, to segment."""
        frames, self._opening = self._opening, []
        levels = [self._energy_db(np.frombuffer(f, "<i2").astype(np.float64)) for f in frames]
        self.noise_floor_db = min(levels[0], min(levels) + self.continue_margin_db)
        return frames

    def _segment(self, frames: list[bytes]) -> list[Event]:
        events: list[Event] = []
        audio: list[bytes] = []
        for frame in frames:
            was_speech = self.in_speech
            event = self._frame(frame)
            if was_speech:
                audio.append(frame)
            if event is not None:
                if audio and event.kind == "end":
                    events.append(Event("audio", b"".join(audio), event.time))
                    audio = []
                events.append(event)
        if audio:
            events.append(Event("audio", b"".join(audio), self._frames * self.frame_s))
        return events

    def _frame(self, frame: bytes) -> Event | None:
        x = np.frombuffer(frame, "<i2").astype(np.float64)
        e = self._energy_db(x)
        self._frames += 1
        floor = self.noise_floor_db
        spectrum = self._spectrum(x)
        stands_out = self._stands_out(spectrum)
        start_margin, continue_margin = self._margins(stands_out)
        if self._speech is None:
            self._learn_noise(spectrum, stands_out, e, floor)
            if e >= max(floor + start_margin, self.min_level_db):
                self._candidate.append(frame)
                if len(self._candidate) >= self.start_frames:
                    self._speech = list(self._history) + self._candidate
                    self._start_frame = self._frames - len(self._candidate)
                    self._last_voiced = self._frames
                    self._quiet = 0
                    self._quietest = e
                    self._speech_level = self._talk_level()
                    self._candidate = []
                    return Event("start", b"".join(self._speech), self._frames * self.frame_s)
                return None
            self._history.extend(self._candidate)
            self._candidate = []
            self._history.append(frame)
            self._room.append(e)
            self.noise_floor_db = floor + (e - floor) * (0.3 if e < floor else 0.02)
            return None
        self._speech.append(frame)
        self._quietest = min(self._quietest, e)
        self._levels.append(e)
        if e >= max(floor + continue_margin, self._speech_level, self.min_level_db - 6):
            self._quiet = 0
            self._last_voiced = self._frames
        else:
            self._quiet += 1
        if self._quiet >= self.end_frames:
            return self._end()
        if len(self._speech) >= self.max_frames:
            self.noise_floor_db = self._quietest
            self._noise_count = 0
            return self._end()
        if len(self._levels) == self._levels.maxlen and float(np.std(self._levels)) < self.steady_db \
                and float(np.mean(self._levels)) >= floor + self.continue_margin_db:
            # A loud second as steady as a fan is not a voice (syllables rise and fall) but a new noise,
            # such as a fan switched on: the utterance ends, and the noise is learnt afresh.
            self.noise_floor_db = float(np.mean(self._levels))
            self._noise_count = 0
            self._noise_levels.clear()
            return self._end()
        return None

    def _end(self) -> Event:
        now = self._frames * self.frame_s
        utterance = Utterance(b"".join(self._speech), self._start_frame * self.frame_s,
                              self._last_voiced * self.frame_s, now)
        self.reset()
        return Event("end", time=now, utterance=utterance)


def utterances(chunks: Iterable[bytes], **settings) -> Iterator[Utterance]:
    """Whole utterances of a chunk stream (a WAV file, a test), using a Segmenter."""
    seg = Segmenter(**settings)
    for chunk in chunks:
        for event in seg.push(chunk):
            if event.kind == "end":
                yield event.utterance
    for event in seg.flush():
        if event.kind == "end":
            yield event.utterance


class PushToTalk:
    """An utterance is the audio between two key events: the table calls ``key()`` on each press
    (or press and release) and ``push()`` with every chunk; both return Segmenter-style events."""

    def __init__(self) -> None:
        self.talking = False
        self._samples = 0
        self._pcm: list[bytes] = []
        self._start = 0.0

    def _now(self) -> float:
        return self._samples / SAMPLE_RATE

    def key(self) -> list[Event]:
        self.talking = not self.talking
        if self.talking:
            self._pcm = []
            self._start = self._now()
            return [Event("start", time=self._start)]
        utterance = Utterance(b"".join(self._pcm), self._start, self._now(), self._now())
        self._pcm = []
        return [Event("end", time=self._now(), utterance=utterance)]

    def push(self, pcm: bytes) -> list[Event]:
        self._samples += len(pcm) // 2
        if not self.talking:
            return []
        self._pcm.append(pcm)
        return [Event("audio", pcm, self._now())]

    @property
    def in_speech(self) -> bool:
        """Between the two presses, as ``Segmenter.in_speech`` within an utterance."""
        return self.talking

    def flush(self) -> list[Event]:
        """The stream ended: close an open utterance, as the second key press would."""
        return self.key() if self.talking else []

    def reset(self) -> None:
        """Forget a half-spoken utterance; the next key press starts a new one."""
        self.talking = False
        self._pcm = []


class Gate:
    """Mutes the microphone while the program speaks, so it does not hear itself.

    ``filter`` returns the chunk, or None while ``speaker.busy()`` and for ``tail`` seconds of
    audio after (room echo, buffered input). When the muting ends, ``on_reset`` is called once:
    wire it to the recognizer's and segmenter's ``reset`` so nothing half-heard carries over.
    """

    def __init__(self, speaker, tail: float = 0.3, on_reset: Callable[[], None] | None = None) -> None:
        self.speaker = speaker
        self.tail_bytes = int(tail * SAMPLE_RATE) * 2
        self.on_reset = on_reset
        self.discarded = 0  # bytes
        self._muted = False
        self._tail_left = 0

    def filter(self, pcm: bytes) -> bytes | None:
        if self.speaker.busy():
            self._muted = True
            self._tail_left = self.tail_bytes
            self.discarded += len(pcm)
            return None
        if self._muted:
            if self._tail_left > 0:
                self._tail_left -= len(pcm)
                self.discarded += len(pcm)
                return None
            self._muted = False
            if self.on_reset is not None:
                self.on_reset()
        return pcm

    def stream(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            kept = self.filter(chunk)
            if kept is not None:
                yield kept


# --------------------------------------------------------------------------- output


class PcmOutput:
    """Plays int16 mono PCM on one output device, chosen by index or by part of its name (for
    per-seat headphones). Blocking writes of 50 ms let a ``stop`` event cut playback quickly."""

    def __init__(self, device: int | str | None = None) -> None:
        self.device = find_device(device, "output")

    def play(self, pcm: bytes | Iterable[bytes], rate: int, stop: threading.Event | None = None) -> bool:
        """Play the PCM (or the pieces of an iterable, gaplessly); True if it played to the end."""
        sd = _sounddevice()
        pieces = [pcm] if isinstance(pcm, (bytes, bytearray)) else pcm
        block = rate // 20 * 2
        try:
            with sd.RawOutputStream(samplerate=rate, channels=1, dtype="int16", device=self.device.index) as out:
                for piece in pieces:
                    for i in range(0, len(piece), block):
                        if stop is not None and stop.is_set():
                            out.abort()
                            return False
                        out.write(piece[i : i + block])
        except sd.PortAudioError as exc:
            raise SpeechError.of("output_lost") from exc
        return True
