"""Choosing a recognizer: ``--asr auto|vosk|pocketsphinx|text``.

auto takes Vosk when a model for the language is installed (the better recognizer), else the
PocketSphinx model that ships inside its wheel, so a fresh machine can listen with no download.
PocketSphinx knows only English, so for another language auto says which model to fetch. In
English, what Vosk is sure of is checked by PocketSphinx too (``checked``); with no such second
opinion (another language, or PocketSphinx missing) every request Vosk hears is asked about first.
text means no recognizer: the game speaks, and the keyboard is its ears.
"""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Callable

from voicegame.speech.base import Recognizer, SpeechError

if TYPE_CHECKING:
    from voicegame.speech.vosk_backend import VoskRecognizer

__all__ = ["BACKENDS", "checked_in_english", "make_recognizer"]

BACKENDS = ("auto", "vosk", "pocketsphinx", "text")


@functools.cache
def _to_stderr(line: str) -> None:
    """Each line once a run: transcribe makes a recognizer for every file."""
    print(line, file=sys.stderr, flush=True)


def make_recognizer(asr: str, lang: str = "en", tell: Callable[[str], None] = _to_stderr) -> Recognizer | None:
    """The recognizer ``asr`` names for ``lang``; None for text. Raises SpeechError with what to do.
    ``tell`` hears why auto passed over a Vosk model that is there: else it would never be fixed."""
    if asr not in BACKENDS:
        raise SpeechError(f"There is no recognizer called {asr}. Choose one of: {', '.join(BACKENDS)}.")
    if asr == "text":
        return None
    if asr in ("auto", "vosk"):
        from voicegame.speech.vosk_backend import NoModel, VoskRecognizer, find_model

        try:
            vosk = VoskRecognizer(find_model(lang))
            if lang == "en":
                return checked_in_english(vosk, tell)
            vosk.confirm_all = True
            return vosk
        except SpeechError as exc:
            if asr == "vosk" or lang != "en":  # PocketSphinx knows only English: what Vosk lacks is what to fix
                raise
            if not isinstance(exc, NoModel):  # a model is there but damaged: say so, or it is never mended
                tell(f"I'll listen with PocketSphinx instead of Vosk. {exc}")
    if lang != "en":  # --asr pocketsphinx, chosen by name
        raise SpeechError.of("pocketsphinx_english_only", code=lang)
    try:
        from voicegame.speech.pocketsphinx_backend import PocketSphinxRecognizer
    except ImportError:
        raise SpeechError.of("pocketsphinx_missing") from None
    return PocketSphinxRecognizer()


def checked_in_english(recognizer: VoskRecognizer, tell: Callable[[str], None] = _to_stderr) -> Recognizer:
    """``recognizer`` (an English Vosk model), its sure hearings checked by PocketSphinx (``checked``);
    alone, never sure and saying so through ``tell``, when PocketSphinx cannot be loaded."""
    from voicegame.speech.checked import CheckedRecognizer

    try:
        from voicegame.speech.pocketsphinx_backend import PocketSphinxRecognizer

        return CheckedRecognizer(recognizer, PocketSphinxRecognizer())
    except (ImportError, SpeechError) as exc:
        tell(f"{exc} Until then Vosk listens alone, without PocketSphinx's second check of what it hears, "
             "so I'll ask you about every request.")
        recognizer.confirm_all = True
        return recognizer
