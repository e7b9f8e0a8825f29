"""Choosing a recognizer: ``--asr auto|vosk|pocketsphinx|text``.

auto takes Vosk when a model for the language is installed (the better recognizer), else the
PocketSphinx model that ships inside its wheel, so a fresh machine can listen with no download.
text means no recognizer: the game speaks, and the keyboard is its ears.
"""

from __future__ import annotations

from voicegame.speech.base import Recognizer, SpeechError

__all__ = ["BACKENDS", "make_recognizer"]

BACKENDS = ("auto", "vosk", "pocketsphinx", "text")


def make_recognizer(asr: str, lang: str = "en") -> Recognizer | None:
    """The recognizer ``asr`` names for ``lang``; None for text. Raises SpeechError with what to do."""
    if asr not in BACKENDS:
        raise SpeechError(f"There is no recognizer called {asr}. Choose one of: {', '.join(BACKENDS)}.")
    if asr == "text":
        return None
    if asr in ("auto", "vosk"):
        from voicegame.speech.vosk_backend import VoskRecognizer, find_model

        try:
            return VoskRecognizer(find_model(lang))
        except SpeechError:
            if asr == "vosk":
                raise
    if lang != "en":
        raise SpeechError(f"PocketSphinx only knows English here; for {lang}, run: voicegame models fetch {lang}")
    try:
        from voicegame.speech.pocketsphinx_backend import PocketSphinxRecognizer
    except ImportError:
        raise SpeechError("PocketSphinx is not installed, so I cannot listen. Run: pip install pocketsphinx") from None
    return PocketSphinxRecognizer()
