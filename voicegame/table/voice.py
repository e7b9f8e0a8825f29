"""Voice in and out for the table: the same game loop as typing, with ears and a mouth.

What the table says is printed and spoken; what a player says is cut into utterances
(end of speech after about half a second of silence), recognized with the game's word list,
and handed to the table as the recognizer's alternatives. While the program speaks, the
microphone's audio is discarded and the recognizer reset afterwards, so it never hears itself.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from voicegame.speech.audio import Gate, Segmenter
from voicegame.speech.base import Recognizer, Speaker
from voicegame.understanding import Understander, jsgf, load_grammar, vocabulary

__all__ = ["VoiceIO"]


class VoiceIO:
    """``read()`` returns the alternatives heard for the next utterance (None when the audio
    ends); ``write(line)`` prints and speaks one line."""

    def __init__(self, recognizer: Recognizer, speaker: Speaker, chunks: Iterable[bytes],
                 understander: Understander, print_line: Callable[[str], None], end_silence: float = 0.5) -> None:
        self.recognizer = recognizer
        self.speaker = speaker
        self.print_line = print_line
        self._chunks: Iterator[bytes] = iter(chunks)
        self._segmenter = Segmenter(end_silence=end_silence)
        self._gate = Gate(speaker, on_reset=self._reset)
        grammar = load_grammar(understander.lang)
        recognizer.set_grammar(vocabulary(grammar, understander.phrases), jsgf(grammar, understander.phrases))

    def _reset(self) -> None:
        self.recognizer.reset()
        self._segmenter.reset()

    def write(self, line: str) -> None:
        self.print_line(line)
        self.speaker.say(line)

    def read(self) -> list[str] | None:
        for chunk in self._chunks:
            pcm = self._gate.filter(chunk)
            if pcm is None:
                continue
            for event in self._segmenter.push(pcm):
                hearing = self._event(event)
                if hearing:
                    return hearing
        for event in self._segmenter.flush():
            hearing = self._event(event)
            if hearing:
                return hearing
        return None

    def _event(self, event) -> list[str] | None:
        if event.kind == "start":
            self.recognizer.start()
            self.recognizer.feed(event.pcm)
        elif event.kind == "audio":
            self.recognizer.feed(event.pcm)
        elif event.kind == "end":
            heard = self.recognizer.finish().texts()
            if any(t.strip() for t in heard):
                self.print_line(f"(heard: {heard[0]})")
                return heard
        return None
