"""The two small interfaces every speech backend implements: hearing and speaking.

Audio everywhere is 16-bit signed little-endian mono PCM; recognizers take 16 kHz.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from voicegame.speech.sentences import sentence

__all__ = ["SAMPLE_RATE", "Alternative", "Hearing", "Recognizer", "Speaker", "SpeechError", "Voice"]

SAMPLE_RATE = 16000


class SpeechError(RuntimeError):
    """A missing model, device or engine. The message is a sentence a person can hear or read,
    saying what is missing and what to do; the game then carries on with the keyboard. Made with
    ``of``, it can also be said in the game's language (``said``)."""

    def __init__(self, message: str, key: str | None = None, **fields: object) -> None:
        super().__init__(message)
        self.key, self.fields = key, fields

    @classmethod
    def of(cls, key: str, **fields: object) -> SpeechError:
        """The error whose sentence is ``sentences``' ``key``, filled in with ``fields``."""
        return cls(sentence("en", key, **fields), key, **fields)

    def said(self, lang: str) -> str:
        """The sentence in ``lang`` (as made, when it was not made with ``of``)."""
        return sentence(lang, self.key, **self.fields) if self.key else str(self)


@dataclass(frozen=True)
class Alternative:
    text: str
    confidence: float  # 0..1, as comparable as the backend allows


@dataclass(frozen=True)
class Hearing:
    """What a recognizer made of one utterance, best alternative first."""

    alternatives: tuple[Alternative, ...] = ()
    decode_ms: float = 0.0
    final: bool = True
    # False when the recognizer doubts its best guess (its confidence under the backend's own
    # threshold): the table then confirms a request before playing it.
    sure: bool = True
    # True when the words fit the audio so poorly that they may be table talk forced into the
    # game's words: good for a command at most ("status"), never for a request.
    doubtful: bool = False
    # True when they fit worse than any command said to the game does: table talk, let pass even
    # while the table waits on an answer (table talk in the yes-or-no grammar often comes out "yes").
    stray: bool = False
    # Pairs (word heard, a sound-alike of it) where the recognizer says the sound-alike was not said:
    # ("ben", "dan") when the heard "ben" began at the lips (``onsets``), or ("bun", "bung") where its
    # model, in quiet, never hears the one for the other (PocketSphinx's ``HEARD_AS_SAID``).
    ruled_out: frozenset[tuple[str, str]] = frozenset()
    # Name words heard that fit the audio poorly: enough as one word of a longer name ("bun" in "Mrs.
    # Bun"), too little to name a card on their own ("painter" heard in "pass me the paper, please").
    poor_fits: frozenset[str] = frozenset()

    @property
    def text(self) -> str:
        return self.alternatives[0].text if self.alternatives else ""

    def texts(self) -> list[str]:
        return [a.text for a in self.alternatives]


class Recognizer:
    """Streaming speech recognition restricted to the words of the game.

    Per utterance: ``start()``, then ``feed()`` chunks of PCM (each may return a partial
    Hearing), then ``finish()`` for the final one. ``set_grammar`` is called when the possible
    requests change (a new turn); ``reset`` drops anything half-heard (e.g. after the program spoke).
    """

    name = "base"

    def set_grammar(self, words: list[str], jsgf: str, names: Sequence[str] = ()) -> None:
        """``words``: the fixed word list (spoken forms); ``jsgf``: the same language as a JSGF
        grammar; ``names``: those of the words that name a card or a player, which a backend may
        check one by one (``understanding.name_words``)."""
        raise NotImplementedError

    def start(self) -> None:
        raise NotImplementedError

    def feed(self, pcm: bytes) -> Hearing | None:
        raise NotImplementedError

    def finish(self) -> Hearing:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def missing_words(self, words: list[str]) -> list[str]:
        """Words of the list the model cannot recognize (to report at start-up)."""
        return []

    def set_child_voice(self, child: bool) -> None:
        """Listen for a young child's voice (True) or a grown-up's from the next utterance on: a
        child's formants sit higher than those of the voices a model learnt from. A backend that
        cannot adapt to that ignores it."""

    def take_notice(self) -> str | None:
        """Once, the key of a prompt for the players about a change in how the recognizer listens
        ("slow_computer": it fell back to a cheaper way); the next call returns None."""
        return None

    def hear(self, pcm: bytes, chunk: int = 3200) -> Hearing:
        """Decode one whole utterance (tests, WAV files)."""
        self.start()
        for i in range(0, len(pcm), chunk):
            self.feed(pcm[i : i + chunk])
        return self.finish()


@dataclass
class Voice:
    """Settings of one speaking voice (the narrator, or one computer player)."""

    voice_id: str | None = None
    rate: int = 170  # words per minute
    volume: float = 1.0
    extra: dict = field(default_factory=dict)


class Speaker:
    """Speech out. ``say`` queues and returns at once; a new ``say(..., interrupt=True)`` or
    ``stop()`` cuts a long narration short. ``render`` writes a WAV file instead of playing."""

    lang = "en"  # the language of what it says about itself ("The speech engine stopped responding")

    def say(self, text: str, voice: Voice | None = None, interrupt: bool = False) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def render(self, text: str, path: str, voice: Voice | None = None) -> None:
        raise NotImplementedError

    def busy(self) -> bool:
        """True while speaking (the microphone's audio is discarded meanwhile)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError
