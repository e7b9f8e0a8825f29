"""Voice in and out for the table: the same game loop as typing, with ears and a mouth.

What the table says is printed and spoken (a computer player's own words in its own voice);
private lines go to the seat's channel. What a player says is cut into utterances (end of
speech after about half a second of silence), recognized with the game's word list, and handed
to the table as a Hearing. While the program speaks, the microphone's audio is discarded and the
recognizer reset afterwards, so it never hears itself. The keyboard stays live: Enter on its own
cuts a long narration short, and a typed line counts as if it had been said.
"""

from __future__ import annotations

import queue
from dataclasses import replace
from typing import Callable, Iterable, Iterator

from voicegame.speech.audio import Gate, Segmenter
from voicegame.speech.base import Hearing, Recognizer, Speaker, Voice
from voicegame.table.output import Output
from voicegame.understanding import Understander, jsgf, load_grammar, vocabulary

__all__ = ["VoiceIO"]

MIN_RATE, MAX_RATE = 80, 400  # words a minute that stay understandable


class VoiceIO(Output):
    """``read()`` returns what was heard in the next utterance (None when the audio ends);
    ``public``/``private`` print and speak; ``change_rate`` is the "slower"/"faster" command."""

    spoken = True

    def __init__(self, recognizer: Recognizer, speaker: Speaker, chunks: Iterable[bytes],
                 understander: Understander, print_line: Callable[[str], None], *,
                 voices: dict[str, Voice] | None = None, seats: dict[str, Callable[[str], None]] | None = None,
                 typed: queue.Queue[str] | None = None, end_silence: float = 0.5) -> None:
        """``speaker.voice`` is the narrator's; ``voices``: a voice per computer player;
        ``seats``: a private channel per player (others hear their private lines here);
        ``typed``: lines from the keyboard, looked at between audio chunks."""
        self.recognizer = recognizer
        self.speaker = speaker
        self.print_line = print_line
        self.voices = dict(voices or {})
        self.seats = dict(seats or {})
        self._chunks: Iterator[bytes] = iter(chunks)
        self._typed = typed
        self._segmenter = Segmenter(end_silence=end_silence)
        self._gate = Gate(speaker, on_reset=self._reset)
        grammar = load_grammar(understander.lang)
        recognizer.set_grammar(vocabulary(grammar, understander.phrases), jsgf(grammar, understander.phrases))

    def _reset(self) -> None:
        self.recognizer.reset()
        self._segmenter.reset()

    # ------------------------------------------------------------ out

    def public(self, line: str, who: str | None = None) -> None:
        self.print_line(line)
        self.speaker.say(line, self.voices.get(who))

    def private(self, player: str, line: str) -> None:
        seat = self.seats.get(player)
        if seat is None:
            self.public(line)
        else:
            seat(line)

    def change_rate(self, delta: int) -> int:
        """Every voice ``delta`` words a minute faster (negative: slower); returns the narrator's rate."""
        voice = self.speaker.voice
        voice.rate = min(MAX_RATE, max(MIN_RATE, voice.rate + delta))
        self.voices = {p: replace(v, rate=min(MAX_RATE, max(MIN_RATE, v.rate + delta))) for p, v in self.voices.items()}
        return voice.rate

    # ------------------------------------------------------------ in

    def read(self) -> Hearing | str | None:
        for chunk in self._chunks:
            line = self._key()
            if line is not None:
                self._reset()
                return line
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

    def _key(self) -> str | None:
        """A typed line, if one is waiting; Enter alone stops the speech instead."""
        while self._typed is not None:
            try:
                line = self._typed.get_nowait()
            except queue.Empty:
                return None
            if line.strip():
                return line
            self.speaker.stop()
        return None

    def _event(self, event) -> Hearing | None:
        if event.kind == "start":
            self.recognizer.start()
            self.recognizer.feed(event.pcm)
        elif event.kind == "audio":
            self.recognizer.feed(event.pcm)
        elif event.kind == "end":
            hearing = self.recognizer.finish()
            if hearing.text.strip():
                self.print_line(f"(heard: {hearing.text}{'' if hearing.sure else ', not sure'})")
                return hearing
        return None
