"""Choosing the microphone, the loudspeaker and the narrator's voice, and finding their names:
``voicegame devices``, ``play --microphone/--loudspeaker/--narrator`` and ``say --voice``.

These machines have no sound card, so a stand-in for the sounddevice module plays the sound card
(as in test_audio.py); the voices are espeak-ng's own, rendered for real.
"""

from __future__ import annotations

import io
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from helpers import StandInCard, sounddevice_or_skip
from voicegame import cli
from voicegame.config import cli_values, load_settings
from voicegame.speech import audio, recognizers
from voicegame.speech.base import Recognizer, SpeechError

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("pyttsx3", reason="pip install pyttsx3 (and apt-get install espeak-ng)")


TABLE = [("Built-in Microphone", 2, 0), ("Built-in Speakers", 0, 2), ("USB Headset", 1, 2), ("HDMI 1", 0, 8)]


@pytest.fixture
def card(monkeypatch) -> StandInCard:
    card = StandInCard(TABLE)
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    return card


@pytest.fixture
def deaf(monkeypatch):
    """A recognizer that is never asked to hear (no speech model to load): these tests are about devices."""
    monkeypatch.setattr(recognizers, "make_recognizer", lambda asr, lang, tell=None: Recognizer())


def run_cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "voicegame", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, **kwargs)


# Typed, and the last line (these games are not saved).
QUIT = {"en": ("quit", "Game stopped. It was not saved."), "nl": ("stop", "Het spel is gestopt. Het is niet bewaard.")}


def play(monkeypatch, capsys, *options: str, lang: str = "en") -> list[str]:
    """The lines of a game of Alice against one computer player in ``lang``, with ``options``, stopped
    at once by the keyboard."""
    quit, stopped = QUIT[lang]
    monkeypatch.setattr("sys.stdin", io.StringIO(quit + "\n"))
    cli._keyboard.cache_clear()  # one keyboard reader a run: this run has its own standard input
    code = cli.main(["play", *options, "--lang", lang, "--players", "Alice", "--bots", "1", "--seed", "2",
                     "--no-save"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and lines[-1] == stopped
    return lines


def opened_voice(monkeypatch, *options: str):
    """The voice ``_open_voice`` makes for a game given ``options``."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    args = cli.build_parser().parse_args(["play", *options, "--players", "Alice", "--bots", "1"])
    cli._use_settings(args, load_settings(cli_values(args)))
    return cli._open_voice(args, args.lang)


# --------------------------------------------------------------------------- voicegame devices


def test_devices_lists_microphones_outputs_and_the_voices_for_english_and_dutch_first(card, capsys):
    assert cli.main(["devices"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:9] == [
        "Microphones, for --microphone:",
        "  0: Built-in Microphone (default)",
        "  2: USB Headset",
        "Sound outputs, for --loudspeaker or --seat NAME=WHERE:",
        "  1: Built-in Speakers (default)",
        "  2: USB Headset",
        "  3: HDMI 1",
        "Speech voices, for --narrator:",
        "  English: en, en-029, en-gb-scotland, en-gb-x-gbclan, en-gb-x-gbcwmd, en-gb-x-rp, en-us, en-us-nyc",
    ]
    assert lines[9] == "  Dutch: nl"
    assert lines[10].startswith("  Variants, added after a plus as in en-us+f3: f1, f2, f3, f4, f5, m1, m2, m3,")
    assert lines[10].endswith(" more.") and "Alicia" not in lines[10]
    assert lines[11].endswith(" voices for other languages: voicegame devices --all lists them and every variant.")
    assert len(lines) == 12


def test_devices_all_lists_every_voice_and_variant(card, capsys):
    assert cli.main(["devices", "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  fr: fr, fr-be, fr-ch" in lines and "  de: de" in lines and "  cmn: cmn, cmn-latn-pinyin" in lines
    variants = next(line for line in lines if line.startswith("  Variants"))
    assert "Alicia" in variants and "whisper" in variants and "more" not in variants


def test_devices_with_one_kind_missing_says_none_found(monkeypatch, capsys):
    card = StandInCard([("Built-in Speakers", 0, 2)], default=(-1, 0))
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    assert cli.main(["devices"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == [
        "Microphones, for --microphone: none found.",
        "Sound outputs, for --loudspeaker or --seat NAME=WHERE:",
        "  0: Built-in Speakers (default)"]


def test_devices_without_a_sound_card_says_the_game_goes_on_by_keyboard(monkeypatch, capsys):
    card = StandInCard([], default=(-1, -1))
    monkeypatch.setattr(audio, "_sounddevice", lambda: card)
    assert cli.main(["devices"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["No microphone or sound output was found, so the game can still be played by keyboard, with"
                         " what it says shown as text.", "Speech voices, for --narrator:"]


def test_devices_on_this_machine_runs_and_says_what_it_found():
    """The real PortAudio: on a machine without a sound card, the one sentence, and exit code 0."""
    sd = sounddevice_or_skip()
    proc = run_cli("devices")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    if len(sd.query_devices()) == 0:
        assert lines[0].startswith("No microphone or sound output was found, so the game can still be played")
    assert "Speech voices, for --narrator:" in lines and "\x1b" not in proc.stdout


def test_devices_without_portaudio_or_the_espeak_ng_program_says_so(monkeypatch, capsys, tmp_path):
    def no_portaudio():
        raise SpeechError.of("no_portaudio")

    monkeypatch.setattr(audio, "_sounddevice", no_portaudio)
    assert cli.main(["devices"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "The sound library PortAudio is not installed, so we'll use the keyboard and text.")
    proc = run_cli("devices", env={"PATH": str(tmp_path), "VOICEGAME_CONFIG": str(tmp_path / "none.toml")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == ("The espeak-ng program could not list its speech voices. Install it with:"
                                            " sudo apt-get install espeak-ng")


# --------------------------------------------------------------------------- --microphone and --loudspeaker


@pytest.mark.parametrize("spec", ["usb", "2"])
def test_the_microphone_is_chosen_by_part_of_its_name_or_its_number(card, deaf, monkeypatch, spec):
    chosen = []

    class Microphone(audio.MicrophoneSource):
        def __init__(self, device=None, **settings):
            super().__init__(device, **settings)
            chosen.append(self.device.name)

    monkeypatch.setattr(audio, "MicrophoneSource", Microphone)
    voice = opened_voice(monkeypatch, "--microphone", spec)
    try:
        assert voice is not None and voice.listening and chosen == ["USB Headset"]
    finally:
        voice.close()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The microphone 'bluetooth' was not found, so we'll use the keyboard."),
    ("nl", "De microfoon 'bluetooth' is niet gevonden, dus we gebruiken het toetsenbord."),
])
def test_a_microphone_named_but_missing_is_said_and_the_game_goes_on_typed(card, deaf, monkeypatch, capsys, lang,
                                                                          said):
    """Named on the command line, it asks for voice as --voice does: the player hears why it is typed,
    in the game's language, rather than getting a silent typed game."""
    lines = play(monkeypatch, capsys, "--microphone", "bluetooth", lang=lang)
    assert lines[0] == said and lines.count(said) == 1  # said first, once
    assert set(card.opened) == {1}  # said aloud too, on the default loudspeaker


def test_a_microphone_chosen_in_the_config_file_but_missing_is_said_when_voice_is_on_by_itself(
        card, deaf, monkeypatch, capsys, tmp_path):
    """Voice on "auto" in a terminal with a microphone there, but not the one the config file chose:
    the player is told, rather than getting a silent typed game."""
    config = tmp_path / "config.toml"
    config.write_text('microphone = "bluetooth"\n')
    monkeypatch.setenv("VOICEGAME_CONFIG", str(config))
    terminal = io.StringIO("")
    terminal.isatty = lambda: True
    monkeypatch.setattr("sys.stdin", terminal)
    cli._keyboard.cache_clear()
    args = cli.build_parser().parse_args(["play", "--players", "Alice", "--bots", "1"])
    cli._use_settings(args, load_settings(cli_values(args)))
    assert args.voice is None and args.microphone == "bluetooth"
    voice = cli._open_voice(args, args.lang)
    try:
        assert voice is not None and not voice.listening
        assert "The microphone 'bluetooth' was not found, so we'll use the keyboard." in capsys.readouterr().out
    finally:
        voice.close()
        cli._keyboard.cache_clear()


@pytest.mark.parametrize(("spec", "index"), [("hdmi", 3), ("2", 2)])
def test_the_loudspeaker_is_chosen_by_part_of_its_name_or_its_number(card, monkeypatch, capsys, spec, index):
    lines = play(monkeypatch, capsys, "--asr", "text", "--loudspeaker", spec)
    assert card.opened and set(card.opened) == {index}  # every line on that output, none on the default
    assert not any("not found" in line for line in lines)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The sound output 'bluetooth' was not found, so I'll show what I would say as text."),
    ("nl", "De geluidsuitgang 'bluetooth' is niet gevonden, dus ik laat als tekst zien wat ik zou zeggen."),
])
def test_a_loudspeaker_named_but_missing_is_said_and_the_game_goes_on_in_text(card, monkeypatch, capsys, lang, said):
    lines = play(monkeypatch, capsys, "--asr", "text", "--loudspeaker", "bluetooth", lang=lang)
    assert lines[0] == said and lines.count(said) == 1  # said first, once
    assert card.opened == []  # not even the default loudspeaker
    assert len(lines) > 3 and len(lines) == len(set(lines))  # every line shown once, as text


# --------------------------------------------------------------------------- --narrator and say --voice


def test_the_narrator_speaks_in_the_voice_named_and_later_games_in_their_own(card, monkeypatch):
    from voicegame.speech.tts import assign_voices

    voice = opened_voice(monkeypatch, "--asr", "text", "--narrator", "en-us+f3", "--rate", "150")
    try:
        assert (voice.speaker.voice.voice_id, voice.speaker.voice.rate) == ("en-us+f3", 150)
    finally:
        voice.close()
    assert assign_voices([], "en")[0].voice_id == "en"  # the palette's narrator is not changed for good
    voice = opened_voice(monkeypatch, "--asr", "text", "--lang", "nl")
    try:
        assert voice.speaker.voice.voice_id == "nl"
    finally:
        voice.close()


def _samples(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64)


def test_a_voice_with_a_variant_is_rendered_and_sounds_unlike_the_plain_voice(tmp_path):
    """What a narrator such as en-us+f3 sounds like, through say --voice: speech, not silence, and not
    the plain en-us voice (espeak-ng drops a variant it lacks without a word)."""
    files = {}
    for voice in ("en-us+f3", "en-us"):
        files[voice] = tmp_path / f"{voice}.wav"
        proc = run_cli("say", "--voice", voice, "--wav", str(files[voice]), "Not at home.")
        assert proc.returncode == 0, proc.stderr
    variant, plain = _samples(files["en-us+f3"]), _samples(files["en-us"])
    assert np.sqrt(np.mean(variant ** 2)) > 1000 and len(variant) > 0.5 * 22050

    def crossings(x: np.ndarray) -> float:
        return float(np.mean(np.abs(np.diff(np.sign(x))) > 0))

    assert crossings(variant) > 1.1 * crossings(plain)  # f3: a higher, female voice


def test_a_game_with_a_narrator_espeak_ng_has_starts():
    proc = subprocess.run([sys.executable, "-m", "voicegame", "play", "--narrator", "EN-US+m3", "--asr", "text",
                           "--players", "Alice", "--bots", "1", "--seed", "2", "--no-save"], input="quit\n",
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("Game stopped.")


@pytest.mark.parametrize(("command", "message"), [
    (["play", "--narrator", "en-xx"],
     "On the command line, there is no speech voice called 'en-xx'. Close ones: en-us, en, en-029. See: voicegame devices"),
    (["say", "--voice", "xx", "hello"], "There is no speech voice called 'xx'. See: voicegame devices"),
    (["say", "--voice", "en-us+F3", "hello"],
     "There is no speech voice called 'en-us+F3'. Close ones: en-us+f3. See: voicegame devices"),
    (["say", "--voice", "f3", "hello"], "There is no speech voice called 'f3'. See: voicegame devices"),
])
def test_a_voice_espeak_ng_lacks_is_one_sentence_with_the_close_ones(command, message):
    """Not the engine's "SetVoiceByName failed: EE_INTERNAL_ERROR", and not a plain voice for a variant
    it lacks (F3), nor a variant taken for a voice (f3, which speaks no language at all)."""
    proc = run_cli(*command)
    assert proc.returncode == 2
    assert proc.stderr == message + "\n" and proc.stdout == ""
