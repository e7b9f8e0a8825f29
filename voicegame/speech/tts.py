"""Speech out with pyttsx3 on espeak-ng, and a text stand-in for when speech is off.

pyttsx3 renders each sentence to PCM (its espeak driver writes a WAV file); the speaker plays
the PCM itself through sounddevice, so playback can be cut at any 50 ms and sent to a chosen
device. Without a sound output, or if the engine or the sound output hangs, lines go to a text
callback instead, announced once, and the game never waits on speech.
"""

from __future__ import annotations

import collections
import difflib
import errno
import functools
import os
import re
import subprocess
import tempfile
import threading
import time
import wave
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Sequence

from voicegame.speech.audio import PcmOutput
from voicegame.speech.base import Speaker, SpeechError, Voice
from voicegame.speech.sentences import sentence

__all__ = ["EspeakEngine", "Pyttsx3Speaker", "SpeechVoices", "TextSpeaker", "assign_voices", "shared_engine",
           "speech_voices", "unknown_voice"]

ENGINE_RATE = 22050  # what pyttsx3's espeak driver always writes
# Seconds a sound output may lag behind the audio it was given (opening, buffers, draining) before
# it counts as stalled: the microphone is muted while the game speaks, so a stalled loudspeaker
# would otherwise leave the game deaf for good.
PLAYBACK_SLACK = 5.0  # a Bluetooth speaker may take a few seconds to open
DEFAULT_PITCH = 50

# Distinct espeak-ng voices: language voice (accent) + variant (+f female, +m male) + pitch.
# Names are voice *file* names: "en" is British English; "en-gb" is refused by espeak-ng 1.51.
_PALETTES = {
    "en": [
        Voice("en", 160, extra={"pitch": 45}),  # the narrator
        Voice("en-us+f3", 170, extra={"pitch": 55}),
        Voice("en-gb-scotland+m3", 165, extra={"pitch": 40}),
        Voice("en+f2", 175, extra={"pitch": 65}),
        Voice("en-us+m5", 160, extra={"pitch": 35}),
        Voice("en-gb-x-rp+f4", 170, extra={"pitch": 50}),
        Voice("en-029+m2", 165, extra={"pitch": 55}),
        Voice("en+f5", 165, extra={"pitch": 75}),
        Voice("en-us-nyc+m1", 170, extra={"pitch": 45}),
    ],
    "nl": [
        Voice("nl", 160, extra={"pitch": 45}),
        Voice("nl+f3", 170, extra={"pitch": 55}),
        Voice("nl+m3", 165, extra={"pitch": 35}),
        Voice("nl+f2", 175, extra={"pitch": 65}),
        Voice("nl+m5", 160, extra={"pitch": 50}),
        Voice("nl+f4", 170, extra={"pitch": 45}),
        Voice("nl+m2", 165, extra={"pitch": 60}),
        Voice("nl+f5", 165, extra={"pitch": 75}),
        Voice("nl+m1", 170, extra={"pitch": 40}),
    ],
}


def assign_voices(players: Sequence[str], lang: str = "en", narrator: str | None = None
                  ) -> tuple[Voice, dict[str, Voice]]:
    """The narrator's voice (the espeak-ng voice ``narrator``, or the language's own) and a
    different voice for each computer player, so a listener can tell who is speaking: none of them
    speaks in the narrator's. Past the palette, voices repeat a little higher each round."""
    palette = _PALETTES.get(lang.split("-")[0].lower(), _PALETTES["en"])
    narrator_voice = replace(palette[0], voice_id=narrator) if narrator else palette[0]
    players_palette = [v for v in palette if v.voice_id.lower() != narrator_voice.voice_id.lower()]
    voices = {}
    for i, name in enumerate(players):
        base = players_palette[i % len(players_palette)]
        lift = 10 * (i // len(players_palette))
        voices[name] = replace(base, extra={**base.extra, "pitch": min(99, base.extra["pitch"] + lift)})
    return narrator_voice, voices


@dataclass(frozen=True)
class SpeechVoices:
    """The voices espeak-ng speaks in. A voice is named as its voice file is (en-us, en-gb-scotland),
    in any case: espeak-ng takes those, but refuses some language codes ``espeak-ng --voices`` shows
    (en-gb). A variant (f3, m3, Alicia) may follow a plus, as en-us+f3; espeak-ng matches it case and
    all, and ignores one it lacks without a word, so the player would hear the plain voice."""

    by_language: Mapping[str, tuple[str, ...]]  # "en": ("en", "en-029", ...)
    variants: tuple[str, ...]

    @property
    def ids(self) -> list[str]:
        return [voice for voices in self.by_language.values() for voice in voices]


@functools.cache
def speech_voices() -> SpeechVoices:
    """The voices of the ``espeak-ng`` program, from its own listing. Asked in a process of its own:
    listing them through the library would rebuild the voice list the engine's thread may be reading."""
    files = {kind: _voice_files(kind) for kind in ("", "variant")}
    by_language: dict[str, list[str]] = {}
    for language, file in files[""]:
        by_language.setdefault(language.split("-")[0].lower(), []).append(file.rsplit("/", 1)[-1].lower())
    return SpeechVoices({lang: tuple(sorted(set(ids))) for lang, ids in sorted(by_language.items())},
                        tuple(sorted({file.rsplit("/", 1)[-1] for _, file in files["variant"]}, key=str.lower)))


def _voice_files(kind: str) -> list[tuple[str, str]]:
    """(language, voice file) of each line of ``espeak-ng --voices`` (``kind``: "variant" for the variants)."""
    try:
        listing = subprocess.run(["espeak-ng", f"--voices={kind}" if kind else "--voices"], capture_output=True,
                                 text=True, errors="replace", timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        raise SpeechError("The espeak-ng program could not list its speech voices."
                          " Install it with: sudo apt-get install espeak-ng") from None
    rows = [line.split() for line in listing.splitlines()[1:]]  # Pty, Language, Age/Gender, VoiceName, File, ...
    return [(row[1], row[4]) for row in rows if len(row) >= 5]


def unknown_voice(voice_id: str) -> str | None:
    """The sentence saying that espeak-ng has no voice ``voice_id`` (VOICE or VOICE+VARIANT), with the
    close ones; None when it has, or when its voices cannot be listed (the engine then says what it
    refuses). espeak-ng's own refusal names a C function, and an unknown variant it ignores silently."""
    try:
        voices = speech_voices()
    except SpeechError:
        return None
    name, plus, variant = voice_id.partition("+")
    known_voice = name.lower() in voices.ids
    known_variant = not plus or variant in voices.variants
    if known_voice and known_variant:
        return None
    names = [name.lower()] if known_voice else _closest(name.lower(), voices.by_language)
    if known_variant:
        endings = [plus + variant]
    elif known_voice:
        variants = {v.lower(): v for v in voices.variants}
        endings = ["+" + variants[v] for v in difflib.get_close_matches(variant.lower(), variants, n=3, cutoff=0.6)]
    else:  # neither is known: the voices alone
        endings = [""]
    close = [voice + ending for voice in names for ending in endings]
    return (f"There is no speech voice called '{voice_id}'."
            + (f" Close ones: {', '.join(close)}." if close else "") + " See: voicegame devices")


def _closest(name: str, by_language: Mapping[str, tuple[str, ...]]) -> list[str]:
    """Up to three voice ids like ``name``: of its own language when it names one (en-xx: en-us, en,
    en-029), else of any language that are spelt much like it."""
    language = name.split("-")[0]
    if language in by_language:
        return difflib.get_close_matches(name, by_language[language], n=3, cutoff=0.0)
    return difflib.get_close_matches(name, [v for voices in by_language.values() for v in voices], n=3, cutoff=0.6)


def _split_sentences(text: str) -> list[str]:
    """Sentences are synthesized one by one so the first is heard at once and stop() can act
    between them on a long narration."""
    return [s for s in re.split(r"(?<=[.!?;:])\s+", text.strip()) if s]


class _EspeakState:
    """espeak-ng's current settings and activity, read through the library pyttsx3 loaded
    (pyttsx3's own GetParameter wrapper drops the ``current`` argument)."""

    def __init__(self, espeak) -> None:
        import ctypes

        self._playing = espeak.IsPlaying
        self._get = espeak.dll.espeak_GetParameter
        self._get.restype, self._get.argtypes = ctypes.c_int, (ctypes.c_int, ctypes.c_int)
        self._codes = {"rate": espeak.RATE, "volume": espeak.VOLUME, "pitch": espeak.PITCH}

    def value(self, name: str) -> int:
        return self._get(self._codes[name], 1)

    def idle(self) -> bool:
        return not self._playing()


def _open_pyttsx3():
    """pyttsx3's espeak engine and its _EspeakState. Its "Audio saved to ..." print is silenced:
    it goes to standard output, which is the game's own output (and may be a JSON pipe)."""
    import pyttsx3
    from pyttsx3.drivers import _espeak
    from pyttsx3.drivers import espeak as driver

    driver.print = lambda *args, **kwargs: None
    return pyttsx3.init("espeak"), _EspeakState(_espeak)


def _engine_values(voice: Voice) -> dict[str, float]:
    """pyttsx3 property values for a Voice, clamped to what espeak-ng accepts (so that the
    value read back equals the value set)."""
    return {
        "rate": min(450, max(80, int(voice.rate))),
        "volume": min(2.0, max(0.0, round(float(voice.volume), 2))),
        "pitch": min(99, max(0, int(voice.extra.get("pitch", DEFAULT_PITCH)))),
    }


@dataclass
class _Job:
    text: str
    voice: Voice
    done: threading.Event = field(default_factory=threading.Event)
    pcm: bytes = b""
    problems: list[str] = field(default_factory=list)
    error: SpeechError | None = None


class EspeakEngine:
    """The process's one pyttsx3 engine, used only from its own thread, with a watchdog.

    One engine for the whole process, not one per render: espeak-ng synthesizes on its own
    thread and pyttsx3 keeps a single process-wide callback, so a new engine frees the old
    callback while espeak may still call it (measured here: lost files and segmentation faults
    within 100 fresh-engine renders; 900 renders on one reused engine, no failure). Every job
    queues text, so runAndWait never runs with nothing queued (the case that hangs for ever).
    If a job still does not finish within its timeout, the engine is marked hung and every later
    call fails at once with a SpeechError; the stuck thread is a daemon and blocks nothing.
    """

    def __init__(self, factory: Callable[[], object] | None = None) -> None:
        """``factory``: makes a pyttsx3-like engine (tests inject a hanging one); by default the
        real pyttsx3 espeak engine, whose parameter settings are then checked (see _apply)."""
        self._factory = factory
        self._jobs: collections.deque[_Job] = collections.deque()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self.hung = False

    def synthesize(self, text: str, voice: Voice, timeout: float | None = None) -> tuple[bytes, list[str]]:
        """(22050 Hz mono int16 PCM, problems such as a voice espeak-ng refused)."""
        if self.hung:
            raise SpeechError.of("engine_hung")
        job = _Job(text, voice)
        with self._wake:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="espeak-engine", daemon=True)
                self._thread.start()
            self._jobs.append(job)
            self._wake.notify()
        if not job.done.wait(timeout if timeout is not None else 3.0 + len(text) / 100):
            self.hung = True
            raise SpeechError.of("engine_hung")
        if job.error is not None:
            raise job.error
        return job.pcm, job.problems

    def _run(self) -> None:
        problems: list[str] = []
        failure = None
        state = None
        try:
            if self._factory is None:
                engine, state = _open_pyttsx3()
            else:
                engine = self._factory()
            engine.connect("error", lambda name=None, exception=None: problems.append(str(exception)))
            default_voice = engine.getProperty("voice")
        except Exception as exc:  # any failure to load pyttsx3 or libespeak-ng means: no speech
            engine, failure = None, SpeechError.of("engine_failed", problem=exc)
        with tempfile.TemporaryDirectory(prefix="voicegame-tts-") as tmp:
            path = os.path.join(tmp, "line.wav")
            if engine is not None:
                # A new pyttsx3 engine holds back every setProperty until its first runAndWait;
                # one short utterance first lets later settings take effect when they are made.
                engine.save_to_file("Ready.", path)
                engine.runAndWait()
            while True:
                with self._wake:
                    while not self._jobs:
                        self._wake.wait()
                    job = self._jobs.popleft()
                if engine is None:
                    job.error = failure
                    job.done.set()
                    continue
                problems.clear()
                for _ in range(2):  # a second try if espeak-ng lost the text (an empty file)
                    engine.setProperty("voice", job.voice.voice_id or default_voice)
                    self._apply(engine, state, _engine_values(job.voice), problems)
                    engine.save_to_file(job.text, path)
                    engine.runAndWait()
                    try:
                        with wave.open(path, "rb") as w:
                            job.pcm = w.readframes(w.getnframes())
                        os.remove(path)
                    except (OSError, EOFError, wave.Error):
                        job.pcm = b""
                    if job.pcm:
                        break
                else:
                    job.error = SpeechError.of("engine_silent")
                job.problems = list(problems)
                job.done.set()

    @staticmethod
    def _apply(engine, state: _EspeakState | None, values: dict[str, float], problems: list[str]) -> None:
        """Set rate, volume and pitch, every time (espeak-ng keeps them between utterances), then
        wait until espeak-ng has taken them and is idle.

        Why wait: espeak-ng takes settings on its own thread and reports itself "playing" until
        done, and pyttsx3's runAndWait begins with espeak_Cancel whenever espeak is playing; that
        cancel throws away the new settings or even the new text. Measured without the wait: the
        previous rate in 1 render in 6, and about 1 empty WAV in 100 under CPU load.
        """
        wanted = {"rate": values["rate"], "volume": int(round(values["volume"] * 100)), "pitch": values["pitch"]}
        for _ in range(3):
            for name, value in values.items():
                engine.setProperty(name, value)
            if state is None:
                return
            deadline = time.monotonic() + 0.2
            while time.monotonic() < deadline:
                if state.idle() and all(state.value(name) == value for name, value in wanted.items()):
                    return
                time.sleep(0.001)
        problems.append("espeak-ng did not take the rate, volume or pitch")


_shared: EspeakEngine | None = None
_shared_lock = threading.Lock()


def shared_engine() -> EspeakEngine:
    """The engine every Pyttsx3Speaker uses unless given one (see EspeakEngine for why one)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = EspeakEngine()
        return _shared


_WHY_NOT_WRITTEN = {
    errno.ENOENT: "no such folder",
    errno.ENOTDIR: "no such folder",
    errno.EISDIR: "that is a folder",
    errno.EACCES: "I am not allowed to write there",
    errno.EPERM: "I am not allowed to write there",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "that disk cannot be written to",
}


def _cannot_write(path: str, exc: OSError) -> str:
    """One sentence a screen reader can say, rather than the system's error text."""
    return f"I cannot write {path}: {_WHY_NOT_WRITTEN.get(exc.errno, 'the system refused it')}."


@dataclass
class _Say:
    text: str
    voice: Voice
    cancel: threading.Event = field(default_factory=threading.Event)
    due: float | None = None  # monotonic time by which the output must want more audio, or be done


class Pyttsx3Speaker(Speaker):
    """Speaks through pyttsx3/espeak-ng on a worker thread; say() never blocks.

    ``write`` receives, once each, the sentence (in ``lang``) saying why speech fell back to text (no
    sound output, engine hung), and the text of every line that cannot be spoken unless ``echo`` is
    False (the caller prints every line anyway). ``output`` is anything with
    ``play(pcm_or_pieces, rate, stop_event)``; by default the sound output ``device`` (a number or
    part of a name; None: the system's own), or none: a device chosen but missing is not replaced
    by another, the lines go to text.
    """

    def __init__(self, voice: Voice | None = None, *, write: Callable[[str], None] = print,
                 output=None, engine: EspeakEngine | None = None, timeout: float | None = None,
                 echo: bool = True, lang: str = "en", device: int | str | None = None) -> None:
        self.voice = voice or Voice()
        self.lang = lang
        self._write = write
        self._echo = echo
        self._engine = engine or shared_engine()
        self._timeout = timeout
        self._told: set[str] = set()
        self.text_only: str | None = None  # why speech fell back to text, once it has
        self._lock = threading.Lock()
        self._queue: collections.deque[_Say | None] = collections.deque()
        self._wake = threading.Condition(self._lock)
        self._current: _Say | None = None
        self._output = output
        if output is None:
            try:
                self._output = PcmOutput(device)
            except SpeechError as exc:
                self._fall_back(exc.said(lang))
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def _tell(self, message: str) -> None:
        if message not in self._told:
            self._told.add(message)
            self._write(message)

    def _fall_back(self, reason: str) -> None:
        self.text_only = self.text_only or reason
        self._tell(reason)

    def say(self, text: str, voice: Voice | None = None, interrupt: bool = False) -> None:
        if interrupt:
            self.stop()
        if not text.strip():
            return
        with self._lock:
            if self.text_only and self._current is None and not self._queue:
                if self._echo:
                    self._write(text)  # keeps order with everything else the game writes
                return
            self._queue.append(_Say(text, voice or self.voice))
            self._wake.notify()

    def stop(self) -> None:
        with self._lock:
            self._queue.clear()
            if self._current is not None:
                self._current.cancel.set()

    def busy(self) -> bool:
        """Whether a line is being spoken or waits to be. The table asks this while it waits for
        speech to end, so a sound output that stopped taking audio is found here (the playback
        watchdog): its lines go to the screen and the game goes on."""
        with self._lock:
            job = self._current
            stalled = job is not None and job.due is not None and time.monotonic() > job.due
            if stalled:
                reason = sentence(self.lang, "output_stalled")
                self.text_only = self.text_only or reason  # from now on say() writes, and queues nothing
                job.cancel.set()
                unsaid = [job.text] + [j.text for j in self._queue if j is not None]
                self._queue = collections.deque(j for j in self._queue if j is None)
                self._current = None
        if stalled:
            self._tell(reason)
            if self._echo:
                for text in unsaid:
                    self._write(text)
        with self._lock:
            return self._current is not None or bool(self._queue)

    def render(self, text: str, path: str, voice: Voice | None = None) -> None:
        """Write ``text`` spoken as a 22050 Hz mono 16-bit WAV file (raises SpeechError)."""
        voice = voice or self.voice
        pcm, problems = self._engine.synthesize(text, voice, self._timeout)
        if problems:
            raise SpeechError(f"The speech engine refused the voice settings: {problems[0]}.")
        try:
            out = open(path, "wb")
        except OSError as exc:
            raise SpeechError(_cannot_write(path, exc)) from None
        try:
            with out, wave.open(out, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(ENGINE_RATE)
                w.writeframes(pcm)
        except OSError as exc:  # e.g. the disk is full: no half-written file is left behind
            if os.path.isfile(path):
                os.remove(path)
            raise SpeechError(_cannot_write(path, exc)) from None

    def close(self) -> None:
        self.stop()
        with self._lock:
            self._queue.append(None)
            self._wake.notify()
        self._thread.join(timeout=1.0)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._wake.wait()
                job = self._queue.popleft()
                if job is None:
                    return
                self._current = job
            try:
                self._speak(job)
            finally:
                with self._lock:
                    self._current = None

    def _speak(self, job: _Say) -> None:
        if self.text_only:
            if self._echo:
                self._write(job.text)
            return
        sentences = _split_sentences(job.text)
        unspoken: list[str] = []

        def pieces():
            for i, part in enumerate(sentences):
                if job.cancel.is_set():
                    return
                job.due = None  # synthesis has its own watchdog (EspeakEngine)
                try:
                    pcm, problems = self._engine.synthesize(part, job.voice, self._timeout)
                except SpeechError as exc:
                    self._fall_back(exc.said(self.lang))
                    unspoken.extend(sentences[i:])
                    return
                if problems:
                    self._tell(sentence(self.lang, "voice_settings", problem=problems[0]))
                job.due = time.monotonic() + len(pcm) / (2 * ENGINE_RATE) + PLAYBACK_SLACK
                yield pcm
            job.due = time.monotonic() + PLAYBACK_SLACK  # the last audio drains

        job.due = time.monotonic() + PLAYBACK_SLACK  # the output opens
        try:
            self._output.play(pieces(), ENGINE_RATE, job.cancel)
        except SpeechError as exc:
            self._fall_back(exc.said(self.lang))
            unspoken[:] = sentences
        if unspoken and not job.cancel.is_set() and self._echo:
            self._write(" ".join(unspoken))


class TextSpeaker(Speaker):
    """Speech off: every line is written (printed) at once; nothing is ever busy."""

    def __init__(self, write: Callable[[str], None] = print) -> None:
        self._write = write

    def say(self, text: str, voice: Voice | None = None, interrupt: bool = False) -> None:
        if text.strip():
            self._write(text)

    def stop(self) -> None:
        """Nothing to stop: written lines are already complete."""

    def render(self, text: str, path: str, voice: Voice | None = None) -> None:
        raise SpeechError("Speech output is off, so there is no sound to save.")

    def busy(self) -> bool:
        return False

    def close(self) -> None:
        """Nothing to release."""
