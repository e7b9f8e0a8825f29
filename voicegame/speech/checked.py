"""A second opinion: one recognizer's sure hearings checked by another fed the same audio.

Vosk's confidence is the share of its n-best list (see ``vosk_backend``): it says how much its own
guesses compete, not whether the words were said at all, and its threshold could not be tuned on
English speech (the English model cannot be downloaded where this was written). PocketSphinx's
checks were tuned on English (``docs/pocketsphinx-tuning.md``): a free phone loop beside the grammar
tells table talk from requests, and name words are heard again. So with an English Vosk model the
game also decodes each utterance with PocketSphinx, and a hearing Vosk is sure of stays sure only
when PocketSphinx hears the same name words (players, cards, families) in the same order and does
not doubt them (``doubtful``; and, when it is sure itself, no ``poor_fits``). Two recognizers this
different agreeing is evidence against a mishearing; PocketSphinx's own sureness is not asked for,
or Vosk could never be surer than it. The check can only turn "play at once" into "ask first" ("Did
you ask Ben for Mrs. Bun?"), or, when the words name no one and no card, let pass what PocketSphinx
finds fits worse than any command said to the game (``stray``: table talk heard as "yes" while a
question waits). What is heard is always the first recognizer's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from voicegame.speech.base import Hearing, Recognizer, SpeechError

__all__ = ["CheckedRecognizer"]


class CheckedRecognizer(Recognizer):
    """``primary`` hears; ``checker`` decodes the same audio, to doubt what ``primary`` is sure of."""

    def __init__(self, primary: Recognizer, checker: Recognizer) -> None:
        self.primary, self.checker = primary, checker
        self.name = f"{primary.name}, checked by {checker.name}"
        self._names: frozenset[str] = frozenset()
        self._checking = False  # whether the checker holds this grammar

    def set_grammar(self, words: list[str], jsgf: str, names: Sequence[str] = ()) -> None:
        """A grammar the checker cannot load (a word it cannot pronounce) leaves the first recognizer
        listening alone, and nothing it hears is sure: every request is asked about."""
        self.primary.set_grammar(words, jsgf, names)
        self._names = frozenset(names)
        try:
            self.checker.set_grammar(words, jsgf, names)
            self._checking = True
        except SpeechError:
            self._checking = False

    def start(self) -> None:
        self.primary.start()
        if self._checking:
            self.checker.start()

    def feed(self, pcm: bytes) -> Hearing | None:
        if self._checking:
            self.checker.feed(pcm)
        return self.primary.feed(pcm)

    def finish(self) -> Hearing:
        heard = self.primary.finish()
        if not self._checking:
            return replace(heard, sure=False)
        second = self.checker.finish()
        names = self._name_words(heard)
        agree = names == self._name_words(second)
        sure = heard.sure and agree and not (second.doubtful or second.stray or second.poor_fits)
        stray = heard.stray or second.stray and not names  # a request Vosk heard is asked about, not dropped
        return Hearing(heard.alternatives, decode_ms=heard.decode_ms + second.decode_ms, final=True, sure=sure,
                       doubtful=heard.doubtful or stray, stray=stray,
                       ruled_out=heard.ruled_out | (second.ruled_out if agree else frozenset()),
                       poor_fits=heard.poor_fits)

    def reset(self) -> None:
        self.primary.reset()
        if self._checking:
            self.checker.reset()

    def missing_words(self, words: list[str]) -> list[str]:
        return self.primary.missing_words(words)

    def set_child_voice(self, child: bool) -> None:
        self.primary.set_child_voice(child)
        self.checker.set_child_voice(child)

    def take_notice(self) -> str | None:
        return self.primary.take_notice() or self.checker.take_notice()

    def _name_words(self, hearing: Hearing) -> list[str]:
        return [w for w in hearing.text.split() if w in self._names]
