"""Speech out: real espeak-ng audio through pyttsx3, the hang watchdog, interruption, and the
fall-back to text on a machine without a sound card.

Needs: pip install pyttsx3 sounddevice numpy; apt-get install espeak-ng libespeak-ng1 libportaudio2.
"""

from __future__ import annotations

import ctypes.util
import errno
import threading
import time
import wave

import numpy as np
import pytest

from helpers import sounddevice_or_skip

pytest.importorskip("pyttsx3", reason="pip install pyttsx3")
if not (ctypes.util.find_library("espeak-ng") or ctypes.util.find_library("espeak")):
    pytest.skip("libespeak-ng is missing: apt-get install espeak-ng libespeak-ng1", allow_module_level=True)

from voicegame.speech.base import SpeechError, Voice  # noqa: E402
from voicegame.speech.tts import (  # noqa: E402
    ENGINE_RATE,
    EspeakEngine,
    Pyttsx3Speaker,
    TextSpeaker,
    assign_voices,
)

QUESTION = "Ben, is Mister Bun the Baker at home?"
NARRATION = " ".join(
    f"In round {i}, Cara asked Dan for Miss Soot the Sweep's daughter, and Dan said not at home." for i in range(12)
)


GUARD = 30.0  # seconds: only a guard against a hang, never a measure of speed


class PacedOutput:
    """Stands in for a sound card: consumes PCM at real-time speed, in 20 ms steps, honouring
    the stop event like PcmOutput does, and records what happened.

    ``hold``: play() waits for this event before it takes any audio (a sound output that is slow to
    open). ``pause_at``: after that many seconds of a line it waits for the stop event (up to GUARD
    seconds) and sets ``paused``, so a test can act while a line is certainly part way through."""

    def __init__(self, hold: threading.Event | None = None) -> None:
        self.hold = hold
        self.pause_at: float | None = None
        self.paused = threading.Event()
        self.started = threading.Event()
        self.results: list[tuple[bool, float]] = []  # (played to the end, seconds played)

    def play(self, pieces, rate, stop=None) -> bool:
        if self.hold is not None:
            self.hold.wait(GUARD)
        stop = stop if stop is not None else threading.Event()
        pause_at, played = self.pause_at, 0.0
        for pcm in pieces:
            self.started.set()
            seconds = len(pcm) / 2 / rate
            while seconds > 0:
                if pause_at is not None and played >= pause_at:
                    pause_at = None
                    self.paused.set()
                    stop.wait(GUARD)
                if stop.is_set():
                    self.results.append((False, played))
                    return False
                time.sleep(min(0.02, seconds))
                played += min(0.02, seconds)
                seconds -= 0.02
        self.results.append((True, played))
        return True


class CountingEngine:
    """The real shared engine, noting how many seconds of audio it made for each text."""

    def __init__(self) -> None:
        from voicegame.speech.tts import shared_engine

        self.engine = shared_engine()
        self.seconds: dict[str, float] = {}

    def synthesize(self, text, voice, timeout=None):
        pcm, problems = self.engine.synthesize(text, voice, timeout)
        self.seconds[text] = len(pcm) / 2 / ENGINE_RATE
        return pcm, problems


def wait_until_quiet(speaker) -> bool:
    """Wait (GUARD seconds at most) until ``speaker`` is no longer busy; True if it is not."""
    deadline = time.monotonic() + GUARD
    while speaker.busy() and time.monotonic() < deadline:
        time.sleep(0.01)
    return not speaker.busy()


def wav_samples(path) -> tuple[np.ndarray, int]:
    with wave.open(str(path), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64), w.getframerate()


def pitch_hz(x: np.ndarray, rate: int) -> float:
    """Median autocorrelation pitch of the loud frames."""
    found = []
    for i in range(0, len(x) - 1024, 1024):
        frame = x[i : i + 1024]
        if np.sqrt(np.mean(frame**2)) < 1500:
            continue
        ac = np.correlate(frame, frame, "full")[1023:]
        lo, hi = rate // 400, rate // 60
        found.append(rate / (lo + int(np.argmax(ac[lo:hi]))))
    return float(np.median(found))


@pytest.fixture(scope="module")
def speaker():
    s = Pyttsx3Speaker(write=lambda line: None, output=PacedOutput())
    yield s
    s.close()


def test_render_writes_real_speech(speaker, tmp_path):
    """(How fast a render is, is measured by scripts/bench_voice.py, "first sentence synthesized".)"""
    path = tmp_path / "q.wav"
    speaker.render(QUESTION, str(path))
    x, rate = wav_samples(path)
    seconds = len(x) / rate
    assert rate == ENGINE_RATE
    assert 1.5 < seconds < 5.0, seconds
    assert np.abs(x).max() > 5000 and np.sqrt(np.mean(x**2)) > 500  # not silent


def test_render_to_a_place_it_cannot_write_says_why_in_a_sentence(speaker, tmp_path):
    with pytest.raises(SpeechError, match=r"^I cannot write .*x\.wav: no such folder\.$"):
        speaker.render("Hello.", str(tmp_path / "missing" / "x.wav"))
    with pytest.raises(SpeechError, match=r"^I cannot write .*: that is a folder\.$"):
        speaker.render("Hello.", str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_a_render_cut_short_leaves_no_half_written_file(tmp_path, monkeypatch):
    class SecondOfSilence:
        def synthesize(self, text, voice, timeout):
            return bytes(2 * ENGINE_RATE), []

    def disk_full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    s = Pyttsx3Speaker(write=lambda line: None, output=PacedOutput(), engine=SecondOfSilence())
    monkeypatch.setattr(wave.Wave_write, "writeframes", disk_full)  # the real engine writes WAVs too: not used here
    with pytest.raises(SpeechError, match=r"x\.wav: the disk is full\.$"):
        s.render("Hello.", str(tmp_path / "x.wav"))
    s.close()
    assert list(tmp_path.iterdir()) == []


def test_each_render_is_its_own_text(speaker, tmp_path):
    """pyttsx3 can keep rewriting the first file; each render must hold its own text."""
    speaker.render("Yes.", str(tmp_path / "short.wav"))
    speaker.render(NARRATION[:200], str(tmp_path / "long.wav"))
    short, rate = wav_samples(tmp_path / "short.wav")
    long, _ = wav_samples(tmp_path / "long.wav")
    assert len(short) / rate < 1.5 < 8 < len(long) / rate


def test_rate_setting_changes_speed(speaker, tmp_path):
    speaker.render(QUESTION, str(tmp_path / "slow.wav"), Voice("en", rate=120))
    speaker.render(QUESTION, str(tmp_path / "fast.wav"), Voice("en", rate=260))
    slow, _ = wav_samples(tmp_path / "slow.wav")
    fast, _ = wav_samples(tmp_path / "fast.wav")
    assert len(slow) > 1.6 * len(fast)


def test_volume_setting_changes_loudness(speaker, tmp_path):
    speaker.render(QUESTION, str(tmp_path / "loud.wav"), Voice("en", volume=1.0))
    speaker.render(QUESTION, str(tmp_path / "quiet.wav"), Voice("en", volume=0.3))
    loud, _ = wav_samples(tmp_path / "loud.wav")
    quiet, _ = wav_samples(tmp_path / "quiet.wav")
    assert np.abs(quiet).max() < 0.6 * np.abs(loud).max()


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_assigned_voices_are_distinct_and_installed(speaker, tmp_path, lang):
    narrator, players = assign_voices(["Ben", "Cara", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim"], lang)
    voices = [narrator, *players.values()]
    assert len({(v.voice_id, v.extra["pitch"]) for v in voices}) == len(voices)
    for v in voices:
        speaker.render("Hello there.", str(tmp_path / "v.wav"), v)  # raises if espeak-ng refuses the voice
    speaker.render(QUESTION, str(tmp_path / "n.wav"), narrator)
    speaker.render(QUESTION, str(tmp_path / "p.wav"), players["Ben"])
    n, rate = wav_samples(tmp_path / "n.wav")
    p, _ = wav_samples(tmp_path / "p.wav")
    assert pitch_hz(p, rate) > 1.5 * pitch_hz(n, rate)  # a female variant against the narrator


def test_no_computer_player_speaks_in_the_narrator_s_chosen_voice():
    """A narrator chosen from the palette (en-us+f3, the first computer player's) would sound like one
    of the players; the players then take the language's own narrator voice in its place."""
    default = assign_voices(["Ben", "Cara"], "en")
    narrator, players = assign_voices(["Ben", "Cara"], "en", "en-us+f3")
    assert default[1]["Ben"].voice_id == "en-us+f3" and narrator.voice_id == "en-us+f3"
    assert [v.voice_id for v in players.values()] == ["en", "en-gb-scotland+m3"]
    eight = assign_voices([f"P{i}" for i in range(8)], "en", "EN-US+f3")[1]
    assert all(v.voice_id != "en-us+f3" for v in eight.values())


def test_unknown_voice_is_reported(speaker, tmp_path):
    with pytest.raises(SpeechError, match="en-gb"):
        speaker.render("Hello.", str(tmp_path / "x.wav"), Voice("en-gb"))  # espeak-ng's file is "en"


def test_say_plays_in_the_background_and_busy_follows():
    """say() returns while the sound output cannot yet take a sample; busy() is true until the line
    has played to its end."""
    hold = threading.Event()
    out = PacedOutput(hold)
    s = Pyttsx3Speaker(write=lambda line: None, output=out)
    guard = threading.Timer(GUARD, hold.set)  # a say() that waited for the output would fail, not hang
    guard.start()
    try:
        s.say(QUESTION)
        assert not hold.is_set(), "say() waited for the sound output"
        assert s.busy() and out.results == []
        hold.set()
        assert wait_until_quiet(s)
        assert len(out.results) == 1 and out.results[0][0] and 1.5 < out.results[0][1] < 5.0
    finally:
        guard.cancel()
        s.close()


def test_interrupt_cuts_a_long_narration_part_way():
    """A line said with interrupt=True cuts the narration being played part way through its first
    sentence (not at a sentence's end, nor at the narration's), drops the rest, and is played whole;
    stop() cuts the same way and leaves nothing to say."""
    out, engine = PacedOutput(), CountingEngine()
    s = Pyttsx3Speaker(write=lambda line: None, output=out, engine=engine)
    first = NARRATION.split(". ")[0] + "."
    try:
        out.pause_at = 0.5  # the output waits, 0.5 s into the narration, for the speaker to cut it
        s.say(NARRATION)
        assert out.paused.wait(GUARD)
        out.pause_at = None
        s.say("Your turn.", interrupt=True)
        assert wait_until_quiet(s)
        assert [whole for whole, _ in out.results] == [False, True], out.results
        cut, new = out.results
        assert cut == (False, pytest.approx(0.5, abs=0.03)), out.results
        assert engine.seconds[first] > 3  # the cut fell inside the first sentence
        assert list(engine.seconds) == [first, "Your turn."]  # the rest of the narration was never made
        assert new == (True, pytest.approx(engine.seconds["Your turn."], abs=0.001))  # the new line, whole

        out.pause_at, out.paused = 0.5, threading.Event()
        s.say(NARRATION)
        assert out.paused.wait(GUARD)
        s.stop()
        assert wait_until_quiet(s)
        assert out.results[2:] == [(False, pytest.approx(0.5, abs=0.03))]
    finally:
        s.close()


class HangingEngine:
    """A pyttsx3 engine whose runAndWait does not return until ``release`` is set, like espeak's
    that never returns."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release

    def connect(self, topic, callback):
        return {}

    def getProperty(self, name):
        return "gmw/en"

    def setProperty(self, name, value):
        pass

    def save_to_file(self, text, path):
        pass

    def runAndWait(self):
        self.release.wait()


@pytest.fixture
def hanging_engine():
    """An EspeakEngine over a HangingEngine of this test's own, released when the test ends."""
    release = threading.Event()
    yield EspeakEngine(lambda: HangingEngine(release))
    release.set()


def test_watchdog_falls_back_to_text_once_and_never_blocks(tmp_path, hanging_engine):
    """say() returns before the engine has answered and before the watchdog gives up on it (the
    reason and the line cannot even be written yet); then the reason is shown once and the line as
    text, and every later line is shown at once, in order, without trying the engine again."""
    lines: list[str] = []
    may_write = threading.Event()

    def write(line: str) -> None:  # a screen that shows nothing until the test has checked say()
        may_write.wait(GUARD)
        lines.append(line)

    out = PacedOutput()
    s = Pyttsx3Speaker(write=write, output=out, engine=hanging_engine, timeout=0.3)
    guard = threading.Timer(GUARD, may_write.set)  # a say() that waited would fail, not hang
    guard.start()
    try:
        s.say("Ben, it is your turn.")
        assert not may_write.is_set(), "say() waited for the speech engine"
        assert lines == [] and s.busy()
        may_write.set()
        assert wait_until_quiet(s)
        hung = "The speech engine stopped responding, so I'll show what I would say as text."
        assert lines == [hung, "Ben, it is your turn."]
        s.say("Cara asks Dan for Mister Bun.")
        s.say("Not at home.")
        assert not s.busy()  # written as said, nothing queued for the engine
        assert lines == [hung, "Ben, it is your turn.", "Cara asks Dan for Mister Bun.", "Not at home."]
        with pytest.raises(SpeechError, match="stopped responding"):
            s.render("Hello.", str(tmp_path / "x.wav"))
        assert not out.started.is_set()
    finally:
        guard.cancel()
        may_write.set()
        s.close()


def test_a_dutch_speaker_says_why_it_falls_back_in_dutch(hanging_engine):
    lines: list[str] = []
    s = Pyttsx3Speaker(Voice("nl"), write=lines.append, output=PacedOutput(), engine=hanging_engine,
                       timeout=0.3, lang="nl")
    try:
        s.say("Ben, je bent aan de beurt.")
        assert wait_until_quiet(s)
        assert lines == ["De spraakmachine reageert niet meer, dus ik laat als tekst zien wat ik zou zeggen.",
                         "Ben, je bent aan de beurt."]
    finally:
        s.close()


def test_without_a_sound_card_say_prints_with_one_message():
    sd = sounddevice_or_skip()
    if any(d["max_output_channels"] > 0 for d in sd.query_devices()):
        pytest.skip("this machine has a sound output")
    lines: list[str] = []
    s = Pyttsx3Speaker(write=lines.append)
    try:
        s.say(QUESTION)
        s.say("Not at home.", interrupt=True)
        assert not s.busy()
        assert lines == [
            "No loudspeaker or headphones found, so I'll show what I would say as text.",
            QUESTION,
            "Not at home.",
        ]
    finally:
        s.close()


def test_text_speaker_prints_and_cannot_render(tmp_path):
    lines: list[str] = []
    s = TextSpeaker(write=lines.append)
    s.say("Hello.")
    s.say("   ")
    s.stop()
    assert lines == ["Hello."] and not s.busy()
    with pytest.raises(SpeechError):
        s.render("Hello.", str(tmp_path / "x.wav"))
    s.close()
