"""Voice in and out for the table: the same game loop as typing, with ears and a mouth.

What the table says is printed and spoken (a computer player's own words in its own voice);
private lines go to the seat's channel. What a player says is cut into utterances (end of
speech after about half a second of silence), recognized with the game's word list, and handed
to the table as a Hearing. While the program speaks, the microphone's audio is discarded and the
recognizer reset afterwards, so it never hears itself; a recording is not read then, and so is
heard whole, as a player's words would be. The keyboard stays live: Enter on its own
cuts a long narration short, and a typed line counts as if it had been said.
"""

from __future__ import annotations

import queue
import time
from dataclasses import replace
from typing import Callable, Collection, Iterable, Iterator, Sequence

from voicegame.speech.audio import Gate, PushToTalk, Segmenter
from voicegame.config import RATE_RANGE
from voicegame.engine import Rules
from voicegame.speech.base import SAMPLE_RATE, Hearing, Recognizer, Speaker, SpeechError, Voice
from voicegame.table.narration import prompt
from voicegame.table.output import Output
from voicegame.table.session import as_heard
from voicegame.understanding import Understander, Understanding, load_grammar, speech_grammar
from voicegame.understanding.grammar import ANSWERS, answer_jsgf

__all__ = ["VoiceIO", "doubted_intent", "taken_at_table", "unused_commands", "worth_hearing"]

MIN_RATE, MAX_RATE = RATE_RANGE
RECORDING_WAIT = 0.02  # seconds between looks at the speaker while a recording waits for it
REMIND_AFTER = 20.0  # seconds of silence on a player's turn before the reminder (``listen_to``) is said


def unused_commands(rules: Rules) -> tuple[str, ...]:
    """Commands a game with these rules has no use for, left out of what the recognizer listens for:
    with no centre cards, nothing is turned over ("Pause." was heard as "pass")."""
    return () if rules.centre_cards else ("flip",)


def doubted_intent(hearing: Hearing, understander: Understander | None) -> str | None:
    """What words the recognizer doubts would be taken for (``Understanding.intent``), worked out once
    per hearing for the checks below; None when it is sure of them or there is no understander."""
    if not hearing.doubtful or not hearing.text.strip() or understander is None:
        return None
    return understander.understand(hearing.texts()).intent


def worth_hearing(hearing: Hearing, doubted: str | None) -> bool:
    """Whether the table should hear this at all: words, and, when the recognizer doubts them,
    words that make a command (``doubted``: what they would be taken for; doubtful words are often
    table talk forced into a request), unless they are stray (table talk forced into a command).
    Even while a question waits: table talk forced into the yes-or-no grammar came out "yes" for 22
    of 104 lines in quiet (15 of them stray), and a "yes" plays a request, stops the game or undoes a
    move; answers said to the game were stray for 0 of 10 in quiet and 2 of 10 at 10 dB white noise
    (they are said again)."""
    if not hearing.text.strip() or hearing.stray:
        return False
    return not hearing.doubtful or doubted not in (None, "none", "ask", "ask_family")


def taken_at_table(understander: Understander, hearing: Hearing, asker: str | None, hand: list[str] | None,
                   phase: str) -> Understanding:
    """What the table makes of ``hearing`` with no question pending: nothing if the voice input
    lets it pass (``worth_hearing``), else ``as_heard``. For ``transcribe`` and the benchmark."""
    if not worth_hearing(hearing, doubted_intent(hearing, understander)):
        return Understanding(text=hearing.text, intent="none")
    return as_heard(understander, hearing, asker, hand, phase)


class VoiceIO(Output):
    """``read()`` returns what was heard in the next utterance (None when the audio ends);
    ``public``/``private`` print and speak; ``change_rate`` is the "slower"/"faster" command."""

    def __init__(self, recognizer: Recognizer | None, speaker: Speaker, chunks: Iterable[bytes],
                 print_line: Callable[[str], None], *, understander: Understander | None = None,
                 voices: dict[str, Voice] | None = None, seats: dict[str, Callable[[str], None]] | None = None,
                 typed: queue.Queue[str | None] | None = None, push_to_talk: bool = False,
                 talk_over: bool = False, end_silence: float = 0.5) -> None:
        """``speaker.voice`` is the narrator's; ``understander``: listen for that game's words
        (else call ``listen_for`` before ``read``); ``voices``: a voice per computer player;
        ``seats``: a private channel per player (others hear their private lines here);
        ``typed``: lines from the keyboard (None when it closes), looked at between audio
        chunks; with no ``recognizer`` they are the only input. ``chunks.live`` False: a recording
        (any other iterable counts as a microphone). ``push_to_talk``: an utterance is what is said
        between two presses of Enter, instead of ending at a pause. ``talk_over``: the microphone
        stays open while the game speaks, and speech stops it (with headphones only: a loudspeaker's
        voice would stop itself)."""
        self.recognizer = recognizer
        self.speaker = speaker
        self.print_line = print_line
        self.voices = dict(voices or {})
        self.seats = dict(seats or {})
        self.on_screen: set[str] = set()  # players whose seat is a screen only (``private``)
        self._told_screen: str | None = None  # the player told their screen has a line, since the last input
        self.children: set[str] = set()  # players heard as young children (``listen_to``)
        self._child = False  # the player whose turn it is is one of them
        self._source = chunks
        self._chunks: Iterator[bytes] = iter(chunks)
        self._recording = not getattr(chunks, "live", True)
        self._typed = typed
        self._understander: Understander | None = None
        self._expecting: str | None = None  # the answer listened for, None: the whole game
        self._without: tuple[str, ...] = ()  # commands the game has no use for (``listen_for_game``)
        self._checked = False  # every answer will be checked with a yes or no (``listen_for``)
        self._asked_again = False  # words let pass while a question waited got it asked again (``_still_asking``)
        self._takes_back: str | None = None  # whose move a "no" now would offer to take back (``may_take_back``)
        self._listening_to: str | None = None  # whose turn it is (``listen_to``)
        self._passed: str | None = None  # the last words let pass since the last utterance returned
        self._passed_before: str | None = None  # ... and before that one
        self.push_to_talk = push_to_talk
        self.talk_over = talk_over
        self._segmenter = PushToTalk() if push_to_talk else Segmenter(end_silence=end_silence)
        self._gate = Gate(speaker, on_reset=self._reset)
        self._reminder: str | None = None  # said once after REMIND_AFTER seconds of silence (``listen_to``)
        self._quiet = 0.0  # seconds of audio since the game last spoke or anyone began to speak
        if understander is not None:
            self.listen_for_game(understander)

    def listen_for(self, words: list[str], grammar: str, names: Sequence[str] = (), checked: bool = False) -> None:
        """Recognize only these words, in the JSGF ``grammar``'s phrases, from the next utterance on.
        ``checked``: every answer will be checked with a yes or no, so words the recognizer doubts
        are heard too (a first name said alone, one of a hundred, fits its phone-loop test poorly)."""
        self._checked = checked
        if self.recognizer is not None:
            self.recognizer.set_grammar(words, grammar, names)
        self._segmenter.reset()

    def listen_for_game(self, understander: Understander, without: Collection[str] | None = None) -> None:
        """The requests and commands of one game: its players, its deck, its language, but the commands
        ``without`` (kept from the last call when None). Words the speech model cannot hear are said
        (aloud too) once, the first time (a model drops them silently)."""
        first = self._understander is not understander
        self._understander, self._expecting = understander, None
        if without is not None:
            self._without = tuple(without)
        words, grammar, names = speech_grammar(load_grammar(understander.lang), understander.phrases, self._without)
        self.listen_for(words, grammar, names)
        # Names of people not playing are only there to be told from players' names: not worth a word.
        missing = [w for w in self.recognizer.missing_words(words) if w not in understander.phrases.others] \
            if first and self.recognizer is not None else []
        if missing:
            self.public(prompt(understander.lang, "unknown_words", words=", ".join(missing)))

    def expect(self, answer: str | None) -> None:
        """Listen for just the answer to the table's question (yes or no, a name), or for the whole game again."""
        if answer == self._expecting or self._understander is None:
            return
        if answer is None:
            self.listen_for_game(self._understander)
            return
        self._expecting = answer
        self.listen_for(*answer_jsgf(load_grammar(self._understander.lang), self._understander.phrases, answer))

    def listen_to(self, player: str, reminder: str | None = None) -> None:
        self._listening_to = player
        self._child = player in self.children
        self._reminder, self._quiet = reminder, 0.0
        if self.recognizer is not None:
            self.recognizer.set_child_voice(self._child)

    def _reset(self) -> None:
        self.recognizer.reset()
        self._segmenter.reset()

    # ------------------------------------------------------------ out

    def public(self, line: str, who: str | None = None) -> None:
        self.print_line(line)
        self.speaker.say(line, self.voices.get(who))

    def private(self, player: str, line: str) -> None:
        """``line`` for ``player`` alone: on their seat's channel, else said to the table. A seat that
        is only a screen gets a spoken word too, or a player who listens would hear nothing, not even
        that a question waits for them ("Did you ask Ben for Mr. Grits?")."""
        seat = self.seats.get(player)
        if seat is None:
            self.public(line)
            return
        seat(line)
        if player in self.on_screen and self._told_screen != player:
            self.public(prompt(self.speaker.lang, "on_screen", player=player))
            self._told_screen = player  # once a reply

    def close(self, wait: float = 20.0) -> None:
        """Let the lines still queued be spoken (the last ones say who won), for at most ``wait``
        seconds or until Ctrl-C, then stop the speaker and let the microphone go."""
        deadline = time.monotonic() + wait
        try:
            while self.speaker.busy() and time.monotonic() < deadline:
                time.sleep(0.05)
        except KeyboardInterrupt:
            pass
        self.speaker.close()
        if callable(release := getattr(self._source, "close", None)):
            release()

    @property
    def speaking(self) -> bool:
        """False once the speaker fell back to text (no sound output, or an engine that hung)."""
        return getattr(self.speaker, "text_only", None) is None

    def change_rate(self, delta: int) -> int:
        """Every voice ``delta`` words a minute faster (negative: slower); returns the narrator's rate."""
        voice = self.speaker.voice
        voice.rate = min(MAX_RATE, max(MIN_RATE, voice.rate + delta))
        self.voices = {p: replace(v, rate=min(MAX_RATE, max(MIN_RATE, v.rate + delta))) for p, v in self.voices.items()}
        return voice.rate

    # ------------------------------------------------------------ in

    def ask(self, question: str) -> str | None:
        """Say ``question`` and return the words of the answer (heard or typed); None when input ended."""
        self.public(question)
        heard = self.read()
        return heard if heard is None or isinstance(heard, str) else heard.text

    @property
    def listening(self) -> bool:
        return self.recognizer is not None

    def read(self) -> Hearing | str | None:
        """The next utterance heard, or line typed; None when the input has ended."""
        self._told_screen = None
        said = None
        if self.recognizer is not None:
            try:
                said = self._listen()
            except SpeechError as exc:  # the microphone stopped: say so, and the keyboard takes over
                self.public(exc.said(self.speaker.lang))
                self.recognizer = None
            else:
                if said is None and self._typed is not None:  # a recording ended, and a keyboard is there
                    self.public(prompt(self.speaker.lang, "recording_ended"))
                    self.recognizer = None
        if self.recognizer is None:  # speaking only: the keyboard is the ears
            said = self._typed_line()
        self._passed_before, self._passed = self._passed, None
        return said

    def _listen(self) -> Hearing | str | None:
        while True:
            typed = self._key()  # an utterance being said meanwhile is kept: it is heard on the next read
            if typed is not None:
                return typed
            if self._recording and self.speaker.busy():  # it holds no echo: wait, and lose none of it
                time.sleep(RECORDING_WAIT)
                continue
            chunk = next(self._chunks, None)
            if chunk is None:
                break
            # With push-to-talk the player chooses when to speak; with talk-over they may speak any
            # time; otherwise not while the game speaks.
            pcm = chunk if self.push_to_talk or self._recording or self.talk_over else self._gate.filter(chunk)
            if pcm is None:
                continue
            self._remind_after_silence(len(pcm) / 2 / SAMPLE_RATE)
            for event in self._segmenter.push(pcm):
                if event.kind == "start" and self.talk_over:
                    self.speaker.stop()
                hearing = self._event(event)
                if hearing:
                    return hearing
        for event in self._segmenter.flush():
            hearing = self._event(event)
            if hearing:
                return hearing
        return None

    def _remind_after_silence(self, seconds: float) -> None:
        """Say the reminder once when nobody has spoken for REMIND_AFTER seconds (a young or blind
        player who missed "Your turn, Sam." would otherwise wait in silence with the game)."""
        if self.speaker.busy() or self._segmenter.in_speech:
            self._quiet = 0.0
            return
        self._quiet += seconds
        if self._reminder is not None and self._quiet >= REMIND_AFTER:
            reminder, self._reminder = self._reminder, None
            self.public(reminder)

    def _key(self) -> str | Hearing | None:
        """A typed line, if one is waiting. Enter alone stops the speech, and with push-to-talk
        starts or ends an utterance (returning what was heard when it ends); a press that stops
        the game's speech does not also start one."""
        while self._typed is not None:
            try:
                line = self._typed.get_nowait()
            except queue.Empty:
                return None
            if line is None:  # the keyboard closed: listen on
                self._typed = None
            elif line.strip():
                return line
            else:
                interrupting = self.speaker.busy()
                self.speaker.stop()
                if self.push_to_talk and (self._segmenter.in_speech or not interrupting):
                    for event in self._segmenter.key():
                        if event.kind == "start":  # a player who cannot see the screen's state hears it read
                            self.print_line(prompt(self.speaker.lang, "listening"))
                        hearing = self._event(event)
                        if hearing:
                            return hearing
        return None

    def _typed_line(self) -> str | None:
        while self._typed is not None:
            line = self._typed.get()
            if line is None:
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
            doubted = doubted_intent(hearing, self._understander)
            # A doubted "yes" never answers a question (``as_heard``): while "Did you ask Cara for Mrs.
            # Bung?" waited, "Quit." came out "correct", "Mummy, look!" and "Sure." "that is correct",
            # all doubtful, and played the request; a child's "no", said again and again, once came out
            # "yep". With no question waiting it is let pass: there is nothing it could mean.
            if not self._yes_waits() and doubted == "yes":
                self._passed = hearing.text
            # With push-to-talk every utterance was meant for the game: one it cannot use gets an
            # answer ("I didn't understand that") rather than silence.
            elif self.push_to_talk or self._checked and hearing.text or worth_hearing(hearing, doubted):
                self._asked_again = False  # heard: words let pass after it may get the question asked again
                # What the recognizer made of it, on the screen only (the table's answer says what it did).
                self.print_line(f"(heard: {hearing.text})" if hearing.text else "(heard nothing)")
                return hearing
            elif self._still_asking(hearing, doubted) or doubted in ("no", "cancel") and self._takes_back is not None \
                    and self._takes_back == self._listening_to:
                # "No, wait!" straight after one's own move is short and fits poorly (stray), and it is
                # when the game is needed most: the table offers to take the move back.
                self.print_line(f"(heard: {hearing.text})")
                return hearing
            if hearing.text:
                self._passed = hearing.text
        return None

    def _still_asking(self, hearing: Hearing, doubted: str | None) -> bool:
        """While a question or an offer waits ("Did you ask ...?", "Who do you want to ask?", a centre
        card to turn over), words the recognizer doubts still reach the table when they say no (which
        plays nothing: a clear "no" was let pass as table talk, and the player waited in silence), and
        the first others once, so that the question is asked again, or the name doubted asked about,
        rather than left waiting unheard (a clear "Cara" doubted got silence; the table takes no "yes"
        or request from doubted words: ``as_heard``)."""
        if not hearing.text or self._expecting is None or self._understander is None:
            return False
        if doubted in ("no", "cancel"):
            return True
        first, self._asked_again = not self._asked_again, True
        return first

    def _yes_waits(self) -> bool:
        """Whether the answer listened for may be a yes (a question waits: "Did you ask ...?")."""
        return self._expecting is not None and "yes" in ANSWERS[self._expecting]

    def may_take_back(self, player: str | None) -> None:
        self._takes_back = player

    def let_pass(self) -> str | None:
        return self._passed_before

    def take_notice(self) -> str | None:
        return self.recognizer.take_notice() if self.recognizer is not None else None
