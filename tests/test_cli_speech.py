"""voicegame say and transcribe, with real speech synthesis and recognition."""

from __future__ import annotations

import json
import subprocess
import sys
import wave
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("pyttsx3", reason="pip install pyttsx3 (and apt-get install espeak-ng)")


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "voicegame", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_say_renders_a_wav_file(tmp_path):
    out = tmp_path / "reply.wav"
    proc = run_cli("say", "--wav", str(out), "Not at home.")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    with wave.open(str(out)) as w:
        seconds = w.getnframes() / w.getframerate()
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
    assert 0.5 < seconds < 3.0


def test_say_without_a_loudspeaker_shows_the_words(monkeypatch, capsys):
    """A sound card with a microphone and no output (the stand-in, so that this holds on every
    machine): ``voicegame say`` prints why it shows the words, then the words, and succeeds. The
    sentence's wording, and that it is said once however many lines follow, is test_tts's."""
    from helpers import StandInCard
    from voicegame import cli
    from voicegame.speech import audio
    from voicegame.speech.sentences import sentence

    card = StandInCard(devices=[("USB microphone", 1, 0)], default=(0, -1))
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    assert cli.main(["say", "Ben gives Mrs. Bun to Alice."]) == 0
    assert capsys.readouterr().out.splitlines() == [sentence("en", "no_output"), "Ben gives Mrs. Bun to Alice."]
    assert card.opened == []  # no output stream was opened


def test_speaking_game_with_the_keyboard_as_ears():
    """--asr text: every line is spoken (or shown once, without a loudspeaker), requests are typed."""
    proc = subprocess.run([sys.executable, "-m", "voicegame", "play", "--asr", "text", "--players", "Alice", "--bots",
                           "1", "--seed", "2", "--no-save"], input="status\nquit\n", capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "Type hand for your cards, help at any time." in lines  # spoken, but the player types
    assert any(line.startswith("Alice's turn. Alice 22 cards") for line in lines)
    assert lines[-1].startswith("Game stopped.")
    spoken = [line for line in lines if not line.startswith("No loudspeaker")]
    assert len(spoken) == len(set(spoken))  # shown once, not once as text and again as unspoken speech


class _Loudspeaker:
    """A sound card's output, with no sound card: counts what it is given to play."""

    plays = 0

    def __init__(self, *args) -> None:
        pass

    def play(self, pieces, rate, stop=None) -> bool:
        for _ in pieces:
            _Loudspeaker.plays += 1
        return True


@pytest.mark.parametrize("asked", [["--voice"], []])
def test_voice_asked_for_without_a_microphone_still_speaks(monkeypatch, capsys, asked):
    """--voice (or a recognizer named: --asr pocketsphinx) and no microphone: the game says so, once
    and aloud too, and goes on speaking while the player types (it had gone silent: the speech out was
    dropped with the ears; with --asr alone it said nothing at all)."""
    import io

    from voicegame import cli
    from voicegame.speech import audio, tts
    from voicegame.speech.base import SpeechError

    def no_microphone(*args, **kwargs):
        raise SpeechError.of("no_microphone")

    monkeypatch.setattr(tts, "PcmOutput", _Loudspeaker)
    monkeypatch.setattr(audio, "MicrophoneSource", no_microphone)
    monkeypatch.setattr("sys.stdin", io.StringIO("status\nquit\n"))
    _Loudspeaker.plays = 0
    cli._keyboard.cache_clear()  # one keyboard reader a run: this run has its own standard input
    code = cli.main(["play", *asked, "--asr", "pocketsphinx", "--players", "Alice", "--bots", "1", "--seed", "2",
                     "--no-save"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines.count("No microphone found, so we'll use the keyboard.") == 1
    assert "Type hand for your cards, help at any time." in lines and lines[-1].startswith("Game stopped.")
    assert _Loudspeaker.plays > 3  # the message and the game's lines were spoken


def test_a_dutch_game_says_what_speech_lacks_in_dutch(monkeypatch, capsys):
    """--voice in Dutch with no Dutch speech model and no loudspeaker: both are said in Dutch (they
    had been English sentences, spoken by the Dutch voice), and the game goes on typed."""
    import io

    from voicegame import cli
    from voicegame.speech import tts
    from voicegame.speech.base import SpeechError

    def no_loudspeaker(*args):
        raise SpeechError.of("no_output")

    monkeypatch.setattr(tts, "PcmOutput", no_loudspeaker)  # as on a machine without a sound card
    monkeypatch.setattr("sys.stdin", io.StringIO("stop\n"))
    code = cli.main(["play", "--voice", "--lang", "nl", "--players", "Anna", "--bots", "1", "--seed", "2", "--no-save"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[:2] == [
        "Er is geen luidspreker of koptelefoon gevonden, dus ik laat als tekst zien wat ik zou zeggen.",
        "Er staat geen Nederlands spraakmodel op deze computer. Haal er een met: voicegame models fetch nl. "
        "Je kunt ook typen."], lines
    assert lines[2].startswith("Kwartet met Anna")


def test_the_hint_to_give_players_headphones_names_one_of_them(monkeypatch, capsys):
    """It named Alice, who was not playing (or already had a seat)."""
    import io

    from voicegame import cli

    monkeypatch.setattr("sys.stdin", io.StringIO("stop\n"))
    cli._keyboard.cache_clear()  # one keyboard reader a run: this run has its own standard input
    code = cli.main(["play", "--asr", "text", "--lang", "nl", "--players", "Anna,Bram", "--seat", "Anna=terminal",
                     "--seed", "2", "--no-save"])
    lines = capsys.readouterr().out.splitlines()
    hint = next(line for line in lines if line.startswith("Wat alleen voor"))
    assert code == 0 and hint.startswith("Wat alleen voor Bram bedoeld is") and hint.endswith(
        "--seat Bram=USB Headset.")


def test_transcribe_gives_one_json_object_per_file_in_order(tmp_path):
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    pytest.importorskip("hibari", reason="pip install hibari-tts")
    from voicegame.speech.render import speech_pcm, write_wav

    files = []
    for i, text in enumerate(["Ben, is Mrs. Bun at home?", "Can somebody open the window?"]):
        files.append(tmp_path / f"{i}.wav")
        write_wav(files[-1], speech_pcm(text))
    proc = subprocess.run([sys.executable, "-m", "voicegame", "transcribe", "--asr", "pocketsphinx", "--players",
                           "Alice,Ben,Cara", "--asker", "Alice", "--json", *map(str, files)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["file"] for r in rows] == [str(f) for f in files]
    request, chatter = rows
    assert request["transcript"] == "ben is missus bun at home"
    assert request["alternatives"][0]["text"] == request["transcript"] and request["decode_ms"] > 0
    assert (request["intent"], request["target"], request["card"]) == ("ask", "Ben", "bun:mrs")
    assert isinstance(request["candidates"], list) and isinstance(request["sure"], bool)
    assert request["doubtful"] is False and request["stray"] is False
    assert request["ruled_out"] == chatter["ruled_out"] == []  # no Dan at this table: no sound-alike to rule out
    assert chatter["intent"] == "none" or chatter["confirm"]  # never a move


def test_transcribe_hears_each_file_on_its_own_as_the_game_would(tmp_path):
    """The same request is heard the same alone, after a telephone-band recording (a recognizer's
    cepstral mean carried over from it: "family doses alice"), and after 2 s of digital silence
    (cut off as the game's end-of-speech detector cuts it, not adapted to)."""
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    pytest.importorskip("hibari", reason="pip install hibari-tts")
    import numpy as np

    from voicegame.speech.audio import SAMPLE_RATE, Resampler
    from voicegame.speech.render import speech_pcm, write_wav

    request = speech_pcm("Ben, is Mrs. Bun at home?")
    alone, late, phone = tmp_path / "request.wav", tmp_path / "late.wav", tmp_path / "phone.wav"
    write_wav(alone, request)
    write_wav(late, bytes(2 * 2 * SAMPLE_RATE) + request)
    narrow = Resampler(SAMPLE_RATE, 8000)
    other = np.frombuffer(speech_pcm("Cara, is Master Bones at home?"), "<i2").astype(np.float64)
    write_wav(phone, np.concatenate([narrow.push(other), narrow.finish()]).round().astype("<i2").tobytes(), 8000)

    def rows(*files: Path) -> list[dict]:
        proc = subprocess.run([sys.executable, "-m", "voicegame", "transcribe", "--asr", "pocketsphinx", "--players",
                               "Alice,Ben,Cara", "--asker", "Alice", "--json", *map(str, files)],
                              capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        return [{k: v for k, v in json.loads(line).items() if k not in ("file", "decode_ms")}
                for line in proc.stdout.splitlines()]

    [heard] = rows(alone)
    _, after_phone, after_silence = rows(phone, alone, late)
    assert heard["transcript"] == after_phone["transcript"] == after_silence["transcript"] == "ben is missus bun at home"
    assert after_phone == heard and heard["utterances"] == 1
    # 2 s is not a whole number of the detector's 30 ms frames: the acoustic scores move a little.
    assert {**after_silence, "alternatives": None} == {**heard, "alternatives": None}
    assert [a["text"] for a in after_silence["alternatives"]] == [a["text"] for a in heard["alternatives"]]


def test_transcribe_fails_when_a_file_cannot_be_read_but_still_gives_each_file_a_row(tmp_path):
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    proc = run_cli("transcribe", "--asr", "pocketsphinx", "--players", "Alice,Ben", "--asker", "Alice", "--json",
                   str(tmp_path / "missing.wav"), str(empty))
    assert proc.returncode == 1, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [row["file"] for row in rows] == [str(tmp_path / "missing.wav"), str(empty)]
    assert all(row["error"] for row in rows)


def test_say_volume_makes_the_speech_quieter(tmp_path):
    import numpy as np

    loud, quiet = tmp_path / "loud.wav", tmp_path / "quiet.wav"
    for path, volume in ((loud, "1"), (quiet, "0.3")):
        proc = run_cli("say", "--wav", str(path), "--volume", volume, "Not at home.")
        assert proc.returncode == 0, proc.stderr

    def rms(path):
        with wave.open(str(path)) as w:
            x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float)
        return float(np.sqrt((x * x).mean()))

    assert rms(quiet) < 0.5 * rms(loud)
    proc = run_cli("say", "--volume", "5", "Not at home.")
    assert proc.returncode == 2 and proc.stderr == ("On the command line, --volume 5 is not a loudness. Write a number"
                                                    " from 0.1 to 1; for example --volume 0.8.\n")


@pytest.mark.parametrize("rate", ["5000", "fast"])
def test_say_refuses_a_speed_play_would_refuse(rate):
    said = run_cli("say", "--rate", rate, "Not at home.")
    played = run_cli("play", "--rate", rate, "--no-save")
    assert said.returncode == played.returncode == 2
    assert said.stderr == played.stderr and said.stderr.startswith("On the command line, --rate ") and rate in said.stderr
