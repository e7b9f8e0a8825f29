"""Audio in: WAV conversion to 16 kHz, utterance boundaries on real espeak-ng speech, push to
talk, muting while the program speaks, and device errors on a machine without a sound card.

Needs: pip install numpy pyttsx3 sounddevice; apt-get install espeak-ng libespeak-ng1 libportaudio2.
"""

from __future__ import annotations

import ctypes.util
import io
import os
import struct
import threading
import time
import wave

import numpy as np
import pytest

from helpers import StandInCard, sounddevice_or_skip, steady_recognizer
from voicegame.speech.audio import (
    Gate,
    MicrophoneSource,
    PushToTalk,
    Resampler,
    Segmenter,
    StdinSource,
    WavSource,
    _to_pcm16,
    utterances,
)
from voicegame.speech.base import SAMPLE_RATE, SpeechError

GUARD = 30.0  # seconds: only a guard against a hang, never a measure of speed

PHRASES = ["Please give me Mister Bun the Baker", "Have you got Miss Soot the Sweep's daughter"]


def write_wav(path, samples: np.ndarray, rate: int, channels: int = 1, width: int = 2) -> None:
    data = {1: (np.round(samples / 256) + 128).astype(np.uint8), 2: np.round(samples).astype("<i2")}[width]
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(data.tobytes())


def write_float_wav(path, samples: np.ndarray, rate: int) -> None:
    """IEEE float WAV, which Python 3.11's wave module cannot write or read."""
    data = (samples / 32768).astype("<f4").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, rate, rate * 4, 4, 32)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


def tone(freq: float, seconds: float, rate: int, amplitude: float = 10000) -> np.ndarray:
    return amplitude * np.sin(2 * np.pi * freq * np.arange(int(seconds * rate)) / rate)


def samples(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, "<i2").astype(np.float64)


def chunks(pcm: bytes, size: int = 960):
    return [pcm[i : i + size] for i in range(0, len(pcm), size)]


# --------------------------------------------------------------------------- WAV conversion


@pytest.mark.parametrize("rate", [8000, 11025, 16000, 22050, 24000, 44100, 48000])
def test_wav_source_converts_to_16k_with_the_right_length(tmp_path, rate):
    n = int(1.37 * rate)
    write_wav(tmp_path / "t.wav", tone(440, n / rate, rate), rate)
    pcm = WavSource(tmp_path / "t.wav").pcm()
    assert len(pcm) // 2 == -(-n * SAMPLE_RATE // rate)


def test_wav_source_chunks_are_30ms(tmp_path):
    write_wav(tmp_path / "t.wav", tone(440, 1.0, 22050), 22050)
    sizes = [len(c) for c in WavSource(tmp_path / "t.wav")]
    assert set(sizes[:-1]) == {960} and 0 < sizes[-1] <= 960


@pytest.mark.parametrize("rate", [22050, 24000, 44100])
def test_resampling_keeps_speech_band_and_removes_aliases(tmp_path, rate):
    """A 1 kHz tone comes out intact and in phase; a 10 kHz tone (above the 8 kHz Nyquist
    limit of 16 kHz audio) is filtered out instead of folding down to 6 kHz."""
    write_wav(tmp_path / "low.wav", tone(1000, 1.0, rate), rate)
    write_wav(tmp_path / "high.wav", tone(10000, 1.0, rate), rate)
    low = samples(WavSource(tmp_path / "low.wav").pcm())
    high = samples(WavSource(tmp_path / "high.wav").pcm())
    expected = tone(1000, 1.0, SAMPLE_RATE)
    middle = slice(800, -800)
    assert np.sqrt(np.mean((low - expected)[middle] ** 2)) < 50
    assert np.sqrt(np.mean(high[middle] ** 2)) < 0.01 * np.sqrt(np.mean(expected**2))


def test_streaming_resampler_matches_one_shot():
    x = tone(700, 0.5, 44100) + tone(3100, 0.5, 44100, 3000)
    one = Resampler(44100)
    whole = np.concatenate([one.push(x), one.finish()])
    parts = Resampler(44100)
    pieces = [parts.push(x[i : i + 333]) for i in range(0, len(x), 333)] + [parts.finish()]
    assert np.allclose(np.concatenate(pieces), whole)


def test_wav_source_reads_stereo_8bit_and_float(tmp_path):
    mono = tone(500, 0.5, 24000)
    stereo = np.stack([mono, mono], axis=1).reshape(-1)
    write_wav(tmp_path / "stereo.wav", stereo, 24000, channels=2)
    write_wav(tmp_path / "8bit.wav", mono, 24000, width=1)
    write_float_wav(tmp_path / "float.wav", mono, 24000)
    reference = samples(WavSource(tmp_path / "stereo.wav").pcm())
    assert len(reference) == 8000
    for name, tolerance in (("8bit.wav", 100), ("float.wav", 2)):  # 8-bit steps are 256 apart
        other = samples(WavSource(tmp_path / name).pcm())
        assert len(other) == 8000 and np.sqrt(np.mean((other - reference) ** 2)) < tolerance


def test_wav_source_refuses_other_files_with_a_sentence(tmp_path):
    (tmp_path / "notes.wav").write_text("not audio")
    with pytest.raises(SpeechError, match="not a WAV recording"):
        WavSource(tmp_path / "notes.wav")


def test_stdin_source_yields_the_same_pcm():
    pcm = tone(300, 0.2, SAMPLE_RATE).astype("<i2").tobytes()
    got = list(StdinSource(io.BytesIO(pcm + b"\x01")))
    assert b"".join(got) == pcm and len(got[0]) == 960


def test_stdin_source_at_a_terminal_says_audio_must_be_piped_in():
    """Typed words are not audio: rather than wait for sound that never comes, say how to pipe it."""
    main, side = os.openpty()
    try:
        with open(side, "rb", buffering=0, closefd=False) as terminal, \
                pytest.raises(SpeechError, match=r"piped in.*arecord .*\| voicegame play .*a terminal"):
            StdinSource(terminal)
    finally:
        os.close(main)
        os.close(side)


def test_a_recording_piped_in_is_not_live_and_a_microphone_piped_in_is():
    """Audio that comes faster than it is spoken is a recording (``cat take.raw |``), heard whole
    even while the game speaks; a microphone's (``arecord |``) comes in real time."""
    pcm = tone(300, 4.0, SAMPLE_RATE).astype("<i2").tobytes()  # more than a pipe holds
    read_end, write_end = os.pipe()

    def cat() -> None:
        os.write(write_end, pcm)
        os.close(write_end)

    writer = threading.Thread(target=cat)
    writer.start()
    with open(read_end, "rb") as stream:
        recording = StdinSource(stream)
        assert not recording.live and b"".join(recording) == pcm
    writer.join()

    read_end, write_end = os.pipe()
    os.write(write_end, pcm[:9600])  # 0.3 s, then nothing more for now
    with open(read_end, "rb") as stream:
        microphone = StdinSource(stream)
        os.write(write_end, pcm[9600:19200])
        os.close(write_end)
        assert microphone.live and b"".join(microphone) == pcm[:19200]
    assert not WavSource.live and MicrophoneSource.live


# --------------------------------------------------------------------------- utterances


@pytest.fixture(scope="module")
def two_phrases(tmp_path_factory):
    """Two rendered phrases with 1 s of silence between them, plus low noise (about -60 dBFS)
    everywhere, as 16 kHz PCM; and where speech really starts and ends (seconds)."""
    pytest.importorskip("pyttsx3", reason="pip install pyttsx3")
    if not (ctypes.util.find_library("espeak-ng") or ctypes.util.find_library("espeak")):
        pytest.skip("libespeak-ng is missing: apt-get install espeak-ng libespeak-ng1")
    from voicegame.speech.tts import Pyttsx3Speaker

    folder = tmp_path_factory.mktemp("vad")
    speaker = Pyttsx3Speaker(write=lambda line: None)
    rendered = []
    for i, text in enumerate(PHRASES):
        speaker.render(text, str(folder / f"{i}.wav"))
        rendered.append(samples(WavSource(folder / f"{i}.wav").pcm()))
    speaker.close()
    parts, truth, t = [np.zeros(SAMPLE_RATE // 2)], [], 0.5
    for i, x in enumerate(rendered):
        loud = np.nonzero(np.abs(x) > 200)[0]
        truth.append((t + loud[0] / SAMPLE_RATE, t + loud[-1] / SAMPLE_RATE))
        parts += [x, np.zeros(SAMPLE_RATE)]
        t += len(x) / SAMPLE_RATE + 1.0
    signal = np.concatenate(parts)
    signal += np.random.default_rng(7).normal(0, 30, len(signal))
    return signal.astype("<i2").tobytes(), truth


def test_vad_finds_both_phrases_and_ends_them_quickly(two_phrases):
    pcm, truth = two_phrases
    found = list(utterances(chunks(pcm)))
    assert len(found) == 2
    for u, (start, end) in zip(found, truth):
        assert abs(u.start - start) < 0.1
        assert abs(u.speech_end - end) < 0.1
        assert 0.3 < u.detected - end <= 0.6, u.detected - end


def test_vad_trailing_silence_is_configurable(two_phrases):
    pcm, truth = two_phrases
    found = list(utterances(chunks(pcm), end_silence=0.25))
    assert len(found) == 2
    assert all(u.detected - end <= 0.35 for u, (_, end) in zip(found, truth))


def test_vad_events_carry_the_whole_utterance(two_phrases):
    pcm, _ = two_phrases
    seg = Segmenter()
    events = [e for chunk in chunks(pcm, 1234) for e in seg.push(chunk)] + seg.flush()
    kinds = [e.kind for e in events]
    assert kinds.count("start") == kinds.count("end") == 2
    streamed, ends = b"", []
    for e in events:
        if e.kind in ("start", "audio"):
            streamed += e.pcm
        else:
            ends.append(streamed == e.utterance.pcm)
            streamed = b""
    assert ends == [True, True]


def test_vad_ignores_noise_and_adapts_to_louder_noise():
    rng = np.random.default_rng(3)
    quiet = rng.normal(0, 30, 3 * SAMPLE_RATE)
    loud = rng.normal(0, 600, 10 * SAMPLE_RATE)  # +26 dB, and it stays
    pcm = np.concatenate([quiet, loud]).astype("<i2").tobytes()
    assert list(utterances(chunks(pcm[: len(quiet) * 2]))) == []
    found = list(utterances(chunks(pcm), max_utterance=3.0))
    assert len(found) <= 1


def _steady_noise(n: int, color: str, rms: float, seed: int = 5) -> np.ndarray:
    """Steady noise: white, pink (power falling 3 dB an octave, like a fan) or a mains hum
    (50 Hz and its harmonics) over quiet pink noise."""
    rng = np.random.default_rng(seed)
    white = rng.standard_normal(n)
    if color == "white":
        noise = white
    else:
        freqs = np.fft.rfftfreq(n, 1 / SAMPLE_RATE)
        noise = np.fft.irfft(np.fft.rfft(white) / np.sqrt(np.maximum(freqs, 20.0)), n)
        if color == "hum":
            t = np.arange(n) / SAMPLE_RATE
            hum = sum(np.sin(2 * np.pi * 50 * k * t) / k for k in range(1, 8))
            noise = noise / noise.std() * 0.3 + hum / hum.std()
    return noise / noise.std() * rms


@pytest.fixture(scope="module")
def two_requests():
    """Two requests in the neural voice (hibari-tts, close to a person), 1 s of silence around
    each, as 16 kHz PCM; and where speech really starts and ends (seconds)."""
    pytest.importorskip("hibari", reason="hibari-tts is not installed (pip install hibari-tts)")
    from voicegame.speech.render import speech_pcm

    parts, truth, t = [np.zeros(SAMPLE_RATE)], [], 1.0
    for text in ("Ben, is Mrs. Bun at home?", "Have you got Miss Soot the Sweep's daughter, Cara?"):
        x = samples(speech_pcm(text, "hibari"))
        loud = np.nonzero(np.abs(x) > 200)[0]
        truth.append((t + loud[0] / SAMPLE_RATE, t + loud[-1] / SAMPLE_RATE))
        parts += [x, np.zeros(SAMPLE_RATE)]
        t += len(x) / SAMPLE_RATE + 1.0
    return np.concatenate(parts).astype("<i2").tobytes(), truth


@pytest.mark.parametrize("color", ["white", "pink"])
def test_vad_hears_a_voice_only_5_db_over_steady_noise(two_requests, color):
    """A fan or running water as loud as 5 dB under the voice: the voice is seldom 12 dB louder
    than the noise, but its spectrum stands out from the noise's own, and both requests are found
    whole (the plain energy test found neither)."""
    from voicegame.speech.render import active_power

    pcm, truth = two_requests
    x = samples(pcm)
    x = x + _steady_noise(len(x), color, np.sqrt(active_power(pcm) / 10 ** 0.5))
    found = list(utterances(chunks(_to_pcm16(x))))
    assert len(found) == 2, [(u.start, u.speech_end) for u in found]
    for u, (start, end) in zip(found, truth):
        assert abs(u.start - start) < 0.15 and u.detected > end, (u.start, u.detected, start, end)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_vad_other_people_talking_do_not_hold_an_utterance_open(two_requests, seed):
    """Six people talking 20 dB under the player: their talk is not steady, and its loud moments
    would keep an utterance going for seconds after the player stopped (one request in ten waited
    three seconds or more for its reply). Under the loudest tenth of the room's talk (plus 3 dB) a
    frame does not keep it going: each request ends half a second or so after its last word."""
    from voicegame.speech.render import mix_noise

    pcm, truth = two_requests
    pcm = mix_noise(pcm + bytes(2 * 3 * SAMPLE_RATE), 20, "babble", seed=seed)
    found = list(utterances(chunks(pcm)))
    assert len(found) == 2, [(u.start, u.detected) for u in found]
    for u, (start, end) in zip(found, truth):
        assert abs(u.start - start) < 0.15 and end < u.detected < end + 0.8, (u.start, u.detected, start, end)


@pytest.mark.parametrize("color", ["white", "pink", "hum"])
def test_vad_steady_noise_alone_starts_nothing(color):
    """However loud, a steady noise alone never looks like speech, even to the spectral test."""
    for rms in (100.0, 3000.0):
        pcm = _to_pcm16(_steady_noise(20 * SAMPLE_RATE, color, rms))
        assert list(utterances(chunks(pcm))) == [], (color, rms)


@pytest.mark.parametrize("before, after", [("white", "pink"), ("white", "hum"), ("pink", "white")])
def test_vad_a_fan_switched_on_is_one_short_sound(before, after):
    """A new steady noise 10 dB over a quiet one, of another colour, stands out from the old noise
    at first; a second as steady as that is not a voice: the utterance ends there (the recognizer
    then turns the noise down) and the new noise is learnt, instead of holding the microphone open."""
    quiet = _steady_noise(3 * SAMPLE_RATE, before, 100.0, seed=1)
    fan = _steady_noise(12 * SAMPLE_RATE, after, 316.0, seed=2)
    pcm = _to_pcm16(np.concatenate([quiet, fan]))
    found = list(utterances(chunks(pcm)))
    assert len(found) <= 1 and all(u.detected - u.start < 1.5 for u in found), [(u.start, u.detected) for u in found]


@pytest.mark.parametrize("opening", ["digital silence", "another noise"])
def test_vad_a_short_bump_in_steady_noise_starts_nothing(opening):
    """The noise's spectrum is learnt from the room itself: not from the digital silence of a
    microphone opening (then a hum at -55 dBFS, too quiet to count as a sound), and afresh when the
    noise changes (white to hum at -40 dBFS). Otherwise every frame would stand out from it, and a
    chair creaking (the noise 6 dB louder for 120 ms) would start an utterance."""
    quiet = opening == "digital silence"
    first = np.zeros(SAMPLE_RATE * 6 // 10) if quiet else _steady_noise(3 * SAMPLE_RATE, "white", 300.0, seed=1)
    room = _steady_noise(8 * SAMPLE_RATE, "hum", 58.0 if quiet else 300.0, seed=2)
    bump = slice(6 * SAMPLE_RATE, 6 * SAMPLE_RATE + SAMPLE_RATE * 12 // 100)
    room[bump] *= 10 ** (6 / 20)
    pcm = _to_pcm16(np.concatenate([first, room]))
    found = list(utterances(chunks(pcm)))  # the noise starting after digital silence is one short sound
    assert [(u.start, u.detected) for u in found if u.start > 2.0] == []


def test_vad_a_long_end_silence_is_not_cut_by_the_fan_rule(two_requests):
    """A quiet pause is steady too, but not loud: with ``end_silence`` 2.5 s, two requests with
    about 1.6 s of silence between them are one utterance."""
    pcm, truth = two_requests
    found = list(utterances(chunks(pcm), end_silence=2.5))
    assert len(found) == 1 and found[0].detected > truth[1][1], [(u.start, u.detected) for u in found]


def test_push_to_talk_is_the_audio_between_two_keys():
    ptt = PushToTalk()
    a, b, c = (bytes([i]) * 960 for i in (1, 2, 3))
    assert ptt.push(a) == []
    assert [e.kind for e in ptt.key()] == ["start"]
    assert [e.pcm for e in ptt.push(b) + ptt.push(c)] == [b, c]
    (end,) = ptt.key()
    assert end.kind == "end" and end.utterance.pcm == b + c
    assert ptt.push(a) == []


class FlagSpeaker:
    speaking = False

    def busy(self) -> bool:
        return self.speaking


def test_gate_discards_audio_while_the_program_speaks():
    speaker = FlagSpeaker()
    resets = []
    gate = Gate(speaker, tail=0.06, on_reset=lambda: resets.append(True))
    chunk = b"\x01\x00" * 480  # 30 ms
    assert gate.filter(chunk) == chunk
    speaker.speaking = True
    assert [gate.filter(chunk) for _ in range(5)] == [None] * 5
    speaker.speaking = False
    assert [gate.filter(chunk) for _ in range(2)] == [None, None]  # the 60 ms tail
    assert resets == []
    assert gate.filter(chunk) == chunk and resets == [True]
    assert gate.filter(chunk) == chunk and resets == [True]
    assert gate.discarded == 7 * len(chunk)
    assert list(gate.stream([chunk, chunk])) == [chunk, chunk]


# --------------------------------------------------------------------------- devices


@pytest.fixture
def no_sound_card():
    sd = sounddevice_or_skip()
    if len(sd.query_devices()) > 0:
        pytest.skip("this machine has a sound card")


def test_microphone_without_a_device_says_so(no_sound_card):
    from voicegame.speech.audio import MicrophoneSource, audio_devices

    assert audio_devices() == ([], [])
    with pytest.raises(SpeechError) as err:
        MicrophoneSource()
    assert str(err.value) == "No microphone found, so we'll use the keyboard."
    assert err.value.said("nl") == "Er is geen microfoon gevonden, dus we gebruiken het toetsenbord."


def test_output_without_a_device_says_so(no_sound_card):
    """Headphones asked for by name on a machine with no sound output at all: there is no output (not
    "no output called headphones"). What the speaker then shows is test_tts's
    test_without_a_sound_card_say_prints_with_one_message."""
    from voicegame.speech.audio import PcmOutput

    with pytest.raises(SpeechError) as err:
        PcmOutput("headphones")
    assert err.value.key == "no_output"


@pytest.mark.parametrize("text", ["Yes.", "Ben, is Mrs. Bun at home?"])
@pytest.mark.parametrize("after", [0.0, 0.6])
def test_vad_hears_speech_from_the_very_first_frame(text, after):
    """A recording cut tight, or a player already talking when the microphone opens: the first
    frame is a word, not the room. It was taken for the noise floor, and the word was lost ("yes"
    not heard at all, "Ben, is Mrs. Bun at home?" heard from "is")."""
    pytest.importorskip("hibari", reason="hibari-tts is not installed (pip install hibari-tts)")
    from voicegame.speech.render import speech_pcm

    x = samples(speech_pcm(text, "hibari"))
    loud = np.nonzero(np.abs(x) > 200)[0]
    speech = _to_pcm16(x[loud[0]:loud[-1] + 1])
    found = list(utterances(chunks(speech + bytes(2 * int(after * SAMPLE_RATE)))))
    assert len(found) == 1 and found[0].start < 0.1
    whole = len(speech) // 960 * 960  # a stream's last part-frame (under 30 ms) is not segmented
    assert found[0].pcm[:whole] == speech[:whole]  # every word, the first one too


# --------------------------------------------------------------------------- a stand-in sound card (helpers.StandInCard)


def _request_at(rate: int) -> np.ndarray:
    """A request in the neural voice with a second of silence after it, at ``rate``."""
    pytest.importorskip("hibari", reason="hibari-tts is not installed (pip install hibari-tts)")
    from voicegame.speech.render import speech_pcm

    x = np.concatenate([samples(speech_pcm("Ben, is Mrs. Bun at home?", "hibari")), np.zeros(SAMPLE_RATE)])
    return Resampler(SAMPLE_RATE, rate).push(x) if rate != SAMPLE_RATE else x


def test_a_microphone_that_records_only_at_48_khz_is_resampled_and_heard(monkeypatch):
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    from voicegame.speech import audio
    from voicegame.understanding import Understander, speech_grammar, load_grammar
    from voicegame.decks import load_deck

    card = StandInCard(recording=_request_at(48000), rate=48000)
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    microphone = audio.MicrophoneSource(stall_timeout=0.5)
    assert microphone.device.name == "USB microphone"
    found = []
    with pytest.raises(SpeechError, match="The microphone stopped working"):  # the recording ran out
        for utterance in audio.utterances(microphone):
            found.append(utterance)
    microphone.close()
    assert len(found) == 1 and 2.0 < found[0].duration < 3.5
    recognizer = steady_recognizer()
    understander = Understander(load_deck("jaques"), ["Alice", "Ben", "Cara"])
    recognizer.set_grammar(*speech_grammar(load_grammar("en"), understander.phrases))
    assert recognizer.hear(found[0].pcm).text == "ben is missus bun at home"


def test_a_microphone_that_stops_delivering_is_said_to_have_stopped(monkeypatch):
    from voicegame.speech import audio

    card = StandInCard(recording=np.zeros(5 * SAMPLE_RATE), rate=SAMPLE_RATE, stall_after=10)
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    microphone = audio.MicrophoneSource(stall_timeout=0.3)
    got = []
    with pytest.raises(SpeechError) as err:
        for chunk in microphone:
            got.append(chunk)
    microphone.close()
    assert len(got) == 10 and all(len(c) == 960 for c in got)  # 30 ms chunks until it stopped
    assert err.value.said("nl") == "De microfoon werkt niet meer, dus we gebruiken het toetsenbord."


def test_a_loudspeaker_that_fails_mid_line_leaves_the_words_on_the_screen(monkeypatch):
    from voicegame.speech import audio
    from voicegame.speech.tts import Pyttsx3Speaker

    card = StandInCard(output_blocks=3)
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    lines: list[str] = []
    speaker = Pyttsx3Speaker(write=lines.append)
    try:
        speaker.say("Ben gives Mrs. Bun the Baker's Wife to Alice. Alice completes the Buns: 3 families.")
        speaker.say("Your turn, Cara.")
        deadline = time.monotonic() + GUARD
        while speaker.busy() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert card.written == 3  # it was playing
        assert lines == ["The loudspeaker stopped working, so I'll show what I would say as text.",
                         "Ben gives Mrs. Bun the Baker's Wife to Alice. Alice completes the Buns: 3 families.",
                         "Your turn, Cara."]
    finally:
        speaker.close()


def test_a_loudspeaker_that_stops_taking_audio_is_given_up_and_the_microphone_hears_again(monkeypatch):
    from voicegame.speech import audio, tts

    card = StandInCard(output_stall=3)
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    monkeypatch.setattr(tts, "PLAYBACK_SLACK", 0.3)
    lines: list[str] = []
    speaker = tts.Pyttsx3Speaker(write=lines.append, lang="nl")
    gate = audio.Gate(speaker, tail=0.0)
    try:
        speaker.say("Ben geeft Mevrouw Brood aan Alice.")
        speaker.say("Jouw beurt, Cara.")
        shown_while_muted: set[tuple[str, ...]] = set()
        deadline = time.monotonic() + GUARD
        while (heard := gate.filter(b"\0" * 960)) is None and time.monotonic() < deadline:
            shown_while_muted.add(tuple(lines))
            time.sleep(0.03)  # a microphone's 30 ms chunks, muted while the game speaks
        shown_when_heard, written_when_heard = list(lines), card.written
        assert heard == b"\0" * 960  # the microphone hears again
        assert gate.discarded > 0 and shown_while_muted == {()}  # muted while it played, nothing shown yet
        assert written_when_heard == 3  # given up only once the loudspeaker had stopped taking audio
        assert shown_when_heard == [  # then, by the time the microphone hears, each line shown once
            "De luidspreker speelt niet meer af, dus ik laat als tekst zien wat ik zou zeggen.",
            "Ben geeft Mevrouw Brood aan Alice.", "Jouw beurt, Cara."]
        speaker.say("Dan: niet thuis.")
        assert lines[-1] == "Dan: niet thuis." and not speaker.busy()
    finally:
        card.unplug.set()
        speaker.close()


def test_a_loudspeaker_playing_at_its_own_pace_is_not_taken_for_stalled(monkeypatch):
    from voicegame.speech import audio, tts

    class Made:
        """The real engine, noting the audio it made for each sentence."""

        def __init__(self) -> None:
            self.pcm: list[bytes] = []

        def synthesize(self, text, voice, timeout=None):
            pcm, problems = tts.shared_engine().synthesize(text, voice, timeout)
            self.pcm.append(pcm)
            return pcm, problems

    card = StandInCard(real_time=True)
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    monkeypatch.setattr(tts, "PLAYBACK_SLACK", 0.3)  # far less than the line lasts
    lines: list[str] = []
    made = Made()
    speaker = tts.Pyttsx3Speaker(write=lines.append, engine=made)
    try:
        speaker.say("Ben gives Mrs. Bun the Baker's Wife to Alice. Alice completes the Buns: 3 families.")
        deadline = time.monotonic() + GUARD
        while speaker.busy() and time.monotonic() < deadline:
            time.sleep(0.03)
        assert not speaker.busy()
        assert lines == [] and not speaker.text_only  # not taken for stalled: nothing went to text
        block = tts.ENGINE_RATE // 20 * 2  # PcmOutput writes 50 ms at a time
        assert card.written == sum(-(-len(pcm) // block) for pcm in made.pcm)  # every block, to the end
        seconds = [len(pcm) / 2 / tts.ENGINE_RATE for pcm in made.pcm]  # one piece a sentence
        assert sum(seconds) > 10 * tts.PLAYBACK_SLACK and max(seconds) > 4 * tts.PLAYBACK_SLACK
    finally:
        speaker.close()
