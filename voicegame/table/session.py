"""The table loop: whose turn it is, what players type or say, what the table answers.

Lines in (typed, or a recognizer's Hearing), lines out through an ``Output``: public lines for
everyone, private ones (a hand, help, "you drew") for one seat. Lines are only ever appended
(no redraws), so it works with a screen reader, a braille display, or a pipe.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Protocol

from voicegame.bots import Bot, make_bot
from voicegame.engine import PROFILES, Ask, Flip, Game, IllegalAction, Pass, Rules, profile
from voicegame.speech.base import Hearing
from voicegame.table.journal import Journal, JournalError
from voicegame.table.narration import Narrator, rule_change, said_name, you_form
from voicegame.table.output import Output
from voicegame.table.setup import parse_number
from voicegame.understanding import Understander, Understanding, normalize

__all__ = ["SpeechControls", "TextTable", "as_heard"]

RATE_STEP = 20  # words a minute per "slower" / "faster"


class SpeechControls(Protocol):
    speaking: bool  # False once speech fell back to text (no loudspeaker): there is no speed to change

    def change_rate(self, delta: int) -> int:
        """Speak ``delta`` words a minute faster (negative: slower); returns the new rate."""


# What a "no" to the table's question says, by the question (a request's: "Say your request again").
_DECLINED = {"undo": "not_undone", "quit": "play_on", "flip": "not_turned"}
# Words a turn-over answer may have round its number: "turn over card number 2", "draai de derde kaart om";
# after the first of them, "one" and "een" are a number ("card one"), else "a" or "the one".
_BEFORE_A_NUMBER = frozenset({"flip", "turn", "over", "card", "number", "draai", "kaart", "nummer"})
_TURN_OVER_WORDS = _BEFORE_A_NUMBER | {"the", "de", "om"}
# How each kind of ``NameWarning`` is worded.
_NAME_WARNINGS = {"player": "names_alike", "card": "name_like_card", "command": "name_like_command"}


def as_heard(understander: Understander, said: str | Hearing, asker: str | None, hand: list[str] | None,
             phase: str, others_listen: bool = False) -> Understanding:
    """What ``said`` means, and whether to act on it at once. Typed words are taken as typed.
    Heard words are doubted more: a request is confirmed first when the recognizer was not sure of
    its words, when it names a player whose name sounds like another's (a recognizer takes "Ben"
    for "Dan" with full confidence) unless its own second check told them apart, or a card whose
    family sounds like another the asker may ask for ("Bung" for "Bun"); one to the asker is asked
    whom it was for; and none is taken from words the recognizer doubts (a command is, but not a
    "yes" that would play one): a wrong move is the worst thing this program can do. The hand ranks
    what was heard (legal requests first among sound-alikes: "Meneer Botten" heard may be "Meneer Potten"),
    never what was typed: a typed card held is that card, and the rules then say why not.
    ``others_listen``: other people hear the questions, so no question may depend on the hand."""
    if isinstance(said, str):
        return understander.understand(said, asker=asker, phase=phase)
    heard = understander.understand(said.texts(), asker=asker, hand=hand, phase=phase)
    # Words forced out of table talk, maybe: not a request, and no "yes" that would play one (the
    # question is asked again: ``VoiceIO._event``).
    if said.doubtful and heard.intent in ("ask", "ask_family", "yes"):
        return Understanding(text=heard.text, intent="none", reason=None)
    if heard.is_move and heard.target == asker:  # no one asks themselves: a name misheard, or table talk
        return replace(heard, target=None, confirm=True, alternatives=[], reason="Who do you want to ask?")
    if heard.is_move and (doubts_target(understander, said, heard.target)
                          or doubts_card(understander, said, heard, None if others_listen else hand, phase)
                          or named_by_a_poor_trade(understander, said, heard)):
        heard = replace(heard, confirm=True)
    return heard


def doubts_target(understander: Understander, said: str | Hearing, target: str) -> bool:
    """Whether a request to ``target`` taken from ``said`` must be confirmed before it is played:
    never when typed; when heard, if the recognizer was unsure, or ``target`` has a sound-alike
    that the recognizer's own second check did not rule out (``Hearing.ruled_out``)."""
    if isinstance(said, str):
        return False
    names = understander.phrases.players
    return not said.sure or any(not _told_apart(said, names[target], names[other])
                                for other in understander.sound_alikes.get(target, ()))


def doubts_card(understander: Understander, said: Hearing, heard: Understanding, hand: list[str] | None,
                phase: str) -> bool:
    """Whether a heard request must be confirmed because its family's surname was heard without its
    trade ("the dyer's son" and "Mr. Bung the Brewer" are not doubted: the recognizer swaps "bun" and
    "bung", never "baker" and "brewer", in 214 sure hearings) and a family whose surname
    sounds like it (``Understander.card_sound_alikes``: "Mrs. Bung" for "Mrs. Bun"), and not ruled out by the
    recognizer (``Hearing.ruled_out``: this model never hears "bun" for a said "bung"), would make a request
    the asker may make as well: the same member of it, not held, of a family held (any family when whole
    families are asked for, or the hand is not known)."""
    family = heard.family or heard.card.split(":")[0]
    families = understander.phrases.families
    surname, words = families[family][0], set(normalize(heard.text))
    alikes = [other for other in understander.card_sound_alikes.get(family, ())
              if not _told_apart(said, surname, families[other][0])]
    # Surname, plural ("boneses") or possessive ("buns"); a trade counts only with all its words.
    named = any(set(v) <= words or {w + "s" for w in v} <= words for v in families[family])
    trade = any(all(w in words or w + "s" in words for w in t) for t in understander.phrases.trades[family])
    if not alikes or trade or not named:
        return False
    if phase == "families" or hand is None:
        return bool(alikes)
    held = {card.split(":")[0] for card in hand}
    member = heard.card.split(":")[1] if heard.card else None
    return any(other in held and (member is None or f"{other}:{member}" not in hand) for other in alikes)


def named_by_a_poor_trade(understander: Understander, said: Hearing, heard: Understanding) -> bool:
    """Whether a heard request names its card by one trade word alone ("the painter") and that word
    fit the audio poorly (``Hearing.poor_fits``): table talk shaped like a request, "Ben, pass me the
    paper, please", is heard so, and the one word is all there is to tell it from a request (round 24
    in docs/pocketsphinx-tuning.md)."""
    if not said.poor_fits or heard.card is None:
        return False
    phrases = understander.phrases
    people = {w for name in phrases.players.values() for w in name} | set(phrases.others)
    card_words = [w for w in normalize(heard.text) if w in understander.name_words and w not in people]
    trades = {w for trade in phrases.trades[heard.card.split(":")[0]] for w in trade}
    return len(card_words) == 1 and card_words[0] in trades and card_words[0] in said.poor_fits


def _told_apart(said: Hearing, heard: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """Whether the recognizer ruled ``other`` out word by word: wherever the two names (or two
    surnames) differ, the word heard has the other's word ruled out. Pairs are word for word, so
    a ruling on "ten" against "ben" says nothing of "dan" against "ben"."""
    differ = [(a, b) for a, b in zip(heard, other) if a != b]
    return len(heard) == len(other) and bool(differ) and all(pair in said.ruled_out for pair in differ)


@dataclass
class _Pending:
    """A question the table asked and waits on: ``who`` (a request without a name), ``confirm``
    (a request not clearly heard), ``flip`` (a turn-over or pass not clearly heard), ``undo``, or
    ``quit`` (heard, but not surely)."""

    kind: str
    request: Understanding | None = None
    offered: tuple[str, ...] = ()  # for ``confirm``: the players it has named so far
    in_full: bool = False  # for ``confirm``: cards named with their trade (the surname was doubted)
    card_offered: bool = False  # for ``confirm``: the card that sounds like the one heard was offered (once)
    heard: Hearing | None = None  # for ``who``: what the request was heard as (None: typed), to doubt its card
    action: Flip | Pass | None = None  # for ``flip``
    missed: int = 0  # words since that were no answer ("I didn't catch your answer.")
    asked: tuple[tuple[str | None, str], ...] = ()  # the question as said, kept over a pause or a look at the hand


class TextTable:
    """Runs one game between human players (typing or speaking) and computer players."""

    def __init__(
        self,
        game: Game,
        bot_levels: dict[str, str],
        read_line: Callable[[], str | Hearing | None],
        out: Output,
        *,
        lang: str = "en",
        verbose: bool = False,
        journal: Journal | None = None,
        polite_reminder: bool = False,
        history: bool = True,
        speech: SpeechControls | None = None,
        undo_spent: bool = False,
        saved_game_kept: bool = False,
    ) -> None:
        self.game = game
        self.journal = journal
        # For young players: a request without "please" is asked again instead of being played.
        self.polite_reminder = polite_reminder
        self.history = history  # off: a memory challenge, no "what was asked" aid
        self.speech = speech
        self.bot_levels = dict(bot_levels)
        self.humans = [p for p in game.players if p not in self.bot_levels]
        self.read_line = read_line
        self.out = out
        self.narrator = Narrator(game.deck, set(self.humans), lang=lang, verbose=verbose)
        self._you = lang == "en" and "You" in self.humans  # see narration.you_form
        self.understander = Understander(game.deck, game.players, lang=lang)
        self.pending: _Pending | None = None
        self._yes_no_answers: Counter[str] = Counter()  # per player: after two, the question goes without its hint
        self.paused = False
        self._flip_offered = -1  # len(game.actions) when a turn-over was last offered
        self.human_marks = self._human_marks()  # len(game.actions) before each human action, for undo
        # One undo per move: a second would take back an earlier move, perhaps another player's, by
        # someone who has since learnt what it brought ("Not at home", and the moves after it).
        self._undo_spent = undo_spent  # a resumed game whose last entry was an undo
        self._just_played: str | None = None  # who made a move with their last words (``_command``)
        self._told_face_down: set[str] = set()  # families laid face down from the deal, named to their owner
        self.saved_game_kept = saved_game_kept  # played on unsaved from a saved game, which can still be carried on
        self.said: list[tuple[str | None, str]] = []  # (private seat or None, line) since the last input
        self.bots: dict[str, Bot] = {}
        self._make_bots()

    def stopped_line(self) -> str:
        """What stopping the game leaves: how to carry it on, or that it cannot be."""
        if self.journal and not self.game.actions:  # --resume would take an older unfinished game first
            return self.p("stopped_before_a_move")
        if self.journal:
            return self.p("stopped_saved")
        return self.p("stopped_kept" if self.saved_game_kept else "stopped_unsaved")

    def _human_marks(self) -> list[int]:
        """Where each human action starts in the game's action list (also after a resume)."""
        g = self.game
        if not g.actions:
            return []
        replay = Game.from_json({**g.to_json(), "actions": []})
        marks = []
        for i, action in enumerate(g.actions):
            if replay.current_player not in self.bot_levels:
                marks.append(i)
            replay.apply(action)
        return marks

    def _make_bots(self) -> None:
        # Bots learn from the whole public log, so after an undo they start afresh from it.
        self.bots = {p: make_bot(level, self.game, p, self.game.seed + len(self.game.actions))
                     for p, level in self.bot_levels.items()}

    # ---------------------------------------------------------------- output

    def _lines(self, lines: list[str] | str) -> list[str]:
        lines = [lines] if isinstance(lines, str) else lines
        return [you_form(line) for line in lines] if self._you else lines

    def say(self, lines: list[str] | str, who: str | None = None) -> None:
        """Public: the whole table hears it."""
        for line in self._lines(lines):
            self.out.public(line, who)
            self.said.append((None, line))

    def tell(self, player: str, lines: list[str] | str) -> None:
        """Private: only ``player``'s seat hears it."""
        for line in self._lines(lines):
            self.out.private(player, line)
            self.said.append((player, line))

    def p(self, key: str, **fields) -> str:
        return self.narrator.prompt(key, **fields)

    def _ask_yes_no(self, player: str, key: str, private: bool = False, **fields) -> None:
        """Ask a yes-or-no question, to the table or only to ``player``; "Say yes or no." only until
        ``player`` has answered two (or when more detail is on): a request to a sound-alike name is
        asked about every time."""
        line = self.p(key, **fields)
        if self.narrator.verbose or self._yes_no_answers[player] < 2:
            line += " " + self.p("yes_no_hint")
        if private:
            self.tell(player, line)
        else:
            self.say(line)

    def _rules_named(self, rules: Rules) -> str:
        """The profile, the rules changed from it and a match's target, as a listener needs them:
        "guide, with centre cards 4 and stock 5" ("guide+" said nothing of what was changed)."""
        name = rules.profile.rstrip("+")
        text = name
        if name in PROFILES:
            base = profile(name)
            lang = self.narrator.lang
            text = said_name(name, lang)
            changed = [rule_change(key, value, lang)
                       for key, value in rules.to_json().items() if key != "profile" and getattr(base, key) != value]
            if changed:
                text = self.p("rules_changed", profile=text, changes=self.narrator.names(changed))
        if rules.match_target:
            text = self.p("rules_match", rules=text, n=rules.match_target)
        return text

    def narrate(self, events: list[dict]) -> None:
        """Public events in words; a computer player's own words in its own voice."""
        for event in events:
            line = self.narrator.sentence(event)
            if line:
                who = Narrator.voice_of(event)
                self.say(line, who if who in self.bot_levels else None)
            if event["type"] == "deal":  # a new round: its families are new, and laid down anew
                self._told_face_down.clear()
            if event.get("face_down") and "family" not in event and event["player"] in self.humans:
                self._tell_laid_face_down(event["player"])

    def _tell_laid_face_down(self, player: str) -> None:
        """A family laid face down from the deal is named to its owner alone (the table hears only
        that one was): they hold it, and must know it to play the second phase."""
        position = self.game.position()
        unnamed = set(position.get("unnamed_families", ())) - self._told_face_down
        for family in [f for f in position["families"][player] if f in unnamed]:
            self._told_face_down.add(family)
            self.tell(player, self.p("laid_face_down", player=player, family=self.narrator.family(family)))

    def _table_named(self) -> str:
        """Who plays, for the first line: computer players at one level are named as a group after the
        people ("Alice and 5 computer players at memory level: Ben, ..."), which keeps a big table's first
        line short enough for a braille display; mixed levels are said player by player."""
        levels = set(self.bot_levels.values())
        if len(levels) != 1:
            return self.narrator.names([self.p("computer", name=p, level=said_name(self.bot_levels[p], self.narrator.lang))
                                        if p in self.bot_levels else p for p in self.game.players])
        computers = [p for p in self.game.players if p in self.bot_levels]
        group = self.p("computers_one" if len(computers) == 1 else "computers_many", n=len(computers),
                       level=said_name(levels.pop(), self.narrator.lang), names=self.narrator.names(computers))
        return self.narrator.names([p for p in self.game.players if p not in self.bot_levels] + [group])

    # ---------------------------------------------------------------- loop

    def run(self) -> int:
        g = self.game
        # A deck's title is written in English; in another language its name says which deck it is.
        deck = g.deck.title if self.narrator.lang == "en" else g.deck.name.title()
        self.say(self.p("intro", who=self._table_named(), deck=deck, rules=self._rules_named(g.rules),
                        seed=g.seed))
        if self.humans:
            self.say([self.p(_NAME_WARNINGS[w.kind], **w._asdict())
                      for w in self.understander.warnings()])
            self.say(self.p("help_hint_voice" if self.out.listening else "help_hint"))
        if g.actions:  # resumed: say where we are, not the whole story again
            self.say(self.p("resuming_one" if len(g.actions) == 1 else "resuming", n=len(g.actions)))
            self.say(self.status_lines())
            if g.current_player in self.humans:  # the cue to speak, as after every move
                self.say(self.narrator.t("your_turn", player=g.current_player))
        else:
            self.narrate(g.log)
        while not g.over:
            player = g.current_player
            if player in self.bots:  # (``_just_played`` stays: "No, wait!" comes after the bots' quick moves)
                action = self.bots[player].choose()
                before = self._human_hands()
                events = g.apply(action)
                self._record(action)
                self._narrate_move(events, before)
                continue
            if g.observation(player).phase == "flip" and self._flip_offered != len(g.actions):
                self._offer_flip(player)
            # Not while paused; while a question waits, the question (said to all) again.
            if self.pending is not None:  # a private question is reminded by its hint alone
                public = [line for seat, line in self.said if seat is None and line != self.p("not_an_answer")]
                reminder = public[-1] if public else self.p("yes_no_hint")
            else:
                reminder = None if self.paused else self._lines(self.p("still_your_turn", player=player))[0]
            self.out.listen_to(player, reminder)
            said = self.read_line()
            if said is None:  # and whether the game can be carried on, as quit says
                self.say(self.p("input_ended"))
                self.say(self.stopped_line())
                return 0
            if not self.handle(player, said):  # saved or not, as Ctrl+C says: how to carry on, or that it cannot
                self.say(self.stopped_line())
                return 0
        return 0

    def _record(self, action: Ask | Flip | Pass) -> None:
        self._save(lambda journal: journal.action(action))
        if self.game.over:
            self._save(lambda journal: journal.finish(self.game.winners))

    def _save(self, write: Callable[[Journal], None]) -> None:
        """Write to the journal; if it cannot be written any more, say so once and play on unsaved."""
        if self.journal is None:
            return
        try:
            write(self.journal)
        except JournalError as exc:
            journal, self.journal = self.journal, None
            self.say(exc.said(self.narrator.lang))
            try:
                journal.close()
            except OSError:
                pass  # already said: it cannot be written

    # ---------------------------------------------------------------- input

    def handle(self, player: str, said: str | Hearing) -> bool:
        """Act on one typed line, or what a recognizer heard (see ``as_heard``), from ``player``;
        False means quit. Then tell the output what answer the table now waits for, if any."""
        notice = self.out.take_notice()
        if notice:
            self.say(self.p(notice))
        go_on = self._handle(player, said)
        self.out.may_take_back(self._just_played)
        kind = self.pending.kind if self.pending else None
        if kind is None and self.game.observation(player).phase == "flip":
            self.out.expect("flip")
        else:
            self.out.expect(None if kind is None else {"who": "name", "flip": "flip_yes_no"}.get(kind, "yes_no"))
        return go_on

    def _handle(self, player: str, said: str | Hearing) -> bool:
        self._just_played, just_played = None, self._just_played == player
        texts, sure = ([said], True) if isinstance(said, str) else (said.texts(), said.sure)
        g = self.game
        heard = as_heard(self.understander, said, player, g.hand(player), g.phase, self._others_listen)
        if heard.intent == "heard" and self.pending is not None and isinstance(said, Hearing) and said.doubtful:
            # Table talk forced into an answer's words ("Ha ha, brilliant!" as "what did you hear"):
            # "I heard nothing else" was no reply to it.
            heard = replace(heard, intent="none")
        if heard.intent == "repeat":
            self._repeat()
            return True
        if heard.intent == "heard":  # like "repeat", a question waiting still waits: it is asked again
            if self.pending is None:
                self.say(self._heard_lines())
                return True
            waiting, self.said = self.said, []
            self.say(self._heard_lines())
            self._say_again(waiting)
            self.said = waiting  # the question, for "repeat" and for another "what did you hear?"
            return True
        if self.paused:  # what was said stays for "repeat": "Paused. Say continue when you are ready."
            if heard.intent == "quit" and sure:  # no request is taken in a pause: a Dutch "stop" is no family
                return False
            if heard.intent == "resume":
                self.paused, self.said = False, []
                self.say(self.p("resumed", player=player))
                self._flip_offered = -1  # a turn-over still open is offered again
                if self.pending is not None:  # and a question still waiting is asked again
                    self._say_again(list(self.pending.asked))
            elif isinstance(said, str):  # typed, it was meant for the game: silence looked like a hang
                self.say(self.p("paused"))
            return True  # a break: table talk is not for the game
        asked, self.said = self.said, []
        pending, self.pending = self.pending, None
        if pending is not None and pending.kind == "who" and heard.intent == "yes":
            heard = replace(heard, intent="none")  # "yes" names no one: the question is asked again
        if pending is not None and heard.intent in ("hand", "status", "history", "help", "pause"):
            # A look at the hand, or a break, before answering: the question still waits.
            self.pending = replace(pending, asked=pending.asked or tuple(asked[-1:]))
            return self._command(player, heard, said, just_played)
        if pending is not None:  # before a turn-over: the "no" to "Undo ...?" is not a pass
            answered = self._answer_pending(player, pending, texts[0] if texts else "", heard, said)
            if answered is not None:
                if self.pending is None:
                    self._flip_offered = -1  # the question is settled: a turn-over still open is offered again
                return answered
            if heard.intent == "none":  # neither an answer nor anything else: the question still waits
                self.pending = replace(pending, missed=pending.missed + 1)
                self.say(self.p("not_an_answer"))
                # The question (as kept over a look at the hand), without these lines however often they came.
                question = [(seat, line) for seat, line in list(pending.asked) or asked
                            if line not in (self.said[-1][1], self.p("yes_no_hint"))]
                if pending.missed and pending.kind != "who":
                    # Again: short. Table talk while a question waited had it said 13 times in a row.
                    self.say(self.p("yes_no_hint"))
                    self.said = question  # for "repeat"
                else:
                    self._say_again(question)
                return True
        if g.observation(player).phase == "flip":
            flip = self._parse_flip(texts[0] if texts else "", heard, typed=isinstance(said, str))
            if isinstance(flip, Flip) and not sure and flip.slot not in g.observation(player).centre_slots:
                self._offer_flip(player)  # "card eight" of four: other words forced into a number
                return True
            if flip is not None and not sure:  # a turn-over is a move too: when unsure, ask
                self.pending = _Pending("flip", action=flip)
                if isinstance(flip, Flip):
                    self._ask_yes_no(player, "confirm_flip", number=flip.slot + 1)
                else:
                    self._ask_yes_no(player, "confirm_pass")
                return True
            if flip is not None:
                return self._act(player, flip)
        return self._command(player, heard, said, just_played)

    def _command(self, player: str, heard: Understanding, said: str | Hearing, just_played: bool = False) -> bool:
        """``just_played``: the player's last words made a move (so a "no" now takes it back, if they wish)."""
        kind, sure = heard.intent, isinstance(said, str) or said.sure
        if kind == "quit":
            if sure and not heard.confirm:
                return False
            self.pending = _Pending("quit")
            self._ask_yes_no(player, "confirm_quit")
            return True
        if kind in ("ask", "ask_family"):
            return self._request(player, heard, said, said if isinstance(said, Hearing) else None)
        if kind == "hand":
            self.tell(player, self.hand_lines(player, heard.family))
        elif kind == "status":
            self.say(self.status_lines())
        elif kind == "history":
            self.say(self.history_lines())
        elif kind == "help":
            self.tell(player, self.help_lines(player))
        elif kind == "undo":
            self._ask_undo(player)
        elif kind in ("no", "cancel") and just_played:  # "Ask Dan for Mr. Mug. No, wait!": a move heard
            self._ask_undo(player)                      # wrongly, or said too soon; asked first, as undo is
        elif kind in ("yes", "no", "cancel"):  # short: a child who says "no" twice hears it twice
            self.say(self.p("nothing_to_answer"))
        elif kind == "flip" and self.game.observation(player).phase == "flip":
            self._offer_flip(player)  # "turn over", but which card?
        elif kind == "flip":  # a number alone in a game without centre cards must not hint at them
            self.say(self.p("nothing_to_flip" if self.game.rules.centre_cards else "no_centre_cards"))
        elif kind == "pause":
            self.paused = True
            self.say(self.p("paused"))
        elif kind == "resume":
            self.say(self.narrator.t("your_turn", player=player))
        elif kind in ("slower", "faster"):
            if self.speech is None:
                self.say(self.p("rate_no_voice"))
            elif not self.speech.speaking:  # "Speaking at 150 words a minute." to a game shown as text
                self.say(self.p("rate_no_output"))
            else:
                rate = self.speech.change_rate(RATE_STEP if kind == "faster" else -RATE_STEP)
                self.say(self.p("rate", rate=rate))
        elif kind in ("verbose", "terse"):
            self.narrator.verbose = kind == "verbose"
            self.say(self.p("verbose_on" if kind == "verbose" else "verbose_off"))
        elif self.game.observation(player).phase == "flip":  # no request now: "Try: Cara, is ...?" misled
            self._offer_flip(player)
        elif heard.reason_key is not None:  # private: its example is one of the player's own requests
            self.tell(player, self.understander.explain(heard.reason_key, self._example(player)))
        else:
            self.tell(player, heard.reason or self.p("not_understood", example=self._example(player)))
        return True

    def _example(self, player: str) -> str:
        """A request to show how one is said: one the rules allow ``player`` now, where there is one
        (the deck's first card may be in their hand: "You already hold Mr. Bones."). It tells what
        they hold, as help does: said to them alone."""
        obs = self.game.observation(player)
        targets = obs.legal_targets()
        request = next(iter(obs.legal_requests()), {}) if targets else {}
        card = request.get("card") or (self.game.deck.family(request["family"]).cards[0].id if request else None)
        return self.understander.example(player, self.game.phase, targets[0] if targets else None, card)

    def _commands(self) -> str:
        return self.p("commands_voice" if self.out.listening else "commands")

    def _heard_lines(self) -> str:
        """What the voice input let pass before "What did you hear?": a player who got no answer
        can tell whether they were heard at all (in open-microphone play words that fit too
        poorly are let pass in silence, as most of them are table talk)."""
        if not self.out.listening:
            return self.p("heard_typed")
        words = self.out.let_pass()
        return self.p("heard_let_pass", words=words) if words else self.p("heard_nothing_else")

    def _repeat(self) -> None:
        """Say again what was said since the player's last words."""
        lines, self.said = self.said, []
        self._say_again(lines)

    def _say_again(self, lines: list[tuple[str | None, str]]) -> None:
        """Say ``lines`` again as they were said, each to where it went, and keep them for "repeat"."""
        for seat, line in lines:
            if seat is None:
                self.out.public(line)
            else:
                self.out.private(seat, line)
            self.said.append((seat, line))

    def _request(self, player: str, heard: Understanding, said: str | Hearing, card_heard: Hearing | None) -> bool:
        """Act on a request, or ask first when it was not clearly heard (a wrong move is the worst bug).
        ``card_heard``: what the card was heard in (None: typed), which may be doubted for its sound-alike."""
        obs = self.game.observation(player)
        target = heard.target
        if target is None:
            targets = obs.legal_targets()
            # Who, unless the rules refuse it whoever is asked ("You already hold Mrs. Bun.": said at once).
            if len(targets) != 1 and (not targets or any(self._legal(player, t, heard) for t in targets)):
                self.pending = _Pending("who", heard, heard=None if isinstance(said, str) else said)
                self.say(self.p("who", what=self._what(heard), names=self.narrator.names(targets, "or")))
                return True
            target = targets[0]
        # Please is asked for only where it is the one thing missing: a request the rules refuse is
        # refused at once, with the rule (a child would otherwise try twice to hear why).
        if self.polite_reminder and not heard.polite and self._legal(player, target, heard):
            self.say(self.p("magic_word", player=player))
            return True
        if heard.confirm and card_heard is not None and not self._legal(player, target, heard):
            # Not heard surely, and refused: what was heard comes first, or "The Pots family is already
            # complete." answers "Cara, is the Baker's Wife at home?" misheard.
            self.tell(player, self.p("heard_request", target=target, what=self._what(heard, True)))
        if heard.confirm and self._legal(player, target, heard):
            # A surname heard that sounds like another ("Bung" for "Bun") is asked about with its trade:
            # "Miss Bung the Brewer's Daughter" tells which was meant, also to a child.
            in_full = card_heard is not None and heard.card is not None and doubts_card(
                self.understander, card_heard, heard, self._doubting_hand(player), self.game.phase)
            self.pending = _Pending("confirm", replace(heard, target=target), (target,), in_full=in_full)
            # A request offered in place of the one heard, which the hand rules out, tells what the hand
            # holds ("Mr. Bun" said, "Did you ask Ben for Mrs. Bun?"): only the asker hears that question.
            self._ask_yes_no(player, self._confirm_key("confirm_ask", heard), private=heard.instead_of is not None,
                             target=target, what=self._what(heard, in_full))
            return True
        return self._act(player, Ask(target, card=heard.card, family=heard.family, polite=heard.polite))

    @property
    def _others_listen(self) -> bool:
        """Whether other people hear the table's questions: then a card is doubted for its sound-alike
        whatever the asker holds (``doubts_card``), as whether "Did you ask Dan for Mr. Bung the
        Brewer?" is asked would tell them the asker holds a Bun card."""
        return len(self.humans) > 1

    def _doubting_hand(self, player: str) -> list[str] | None:
        return None if self._others_listen else self.game.hand(player)

    def _confirm_key(self, key: str, request: Understanding) -> str:
        """With the politeness penalty a "yes" to a request without please costs the turn: the question
        says so ("pleas" typed was asked about, and the "yes" lost the turn unwarned)."""
        return key + "_unpolite" if self.game.rules.politeness_penalty and not request.polite else key

    def _legal(self, player: str, target: str, heard: Understanding) -> bool:
        """Whether the engine would take this request (one it would refuse is refused at once,
        with the rule, rather than confirmed first)."""
        return any(isinstance(a, Ask) and (a.target, a.card, a.family) == (target, heard.card, heard.family)
                   for a in self.game.observation(player).legal_actions())

    def _answer_pending(self, player: str, pending: _Pending, line: str, heard: Understanding,
                        said: str | Hearing) -> bool | None:
        """Complete or confirm the waiting request or undo; None when the line is something else.
        A name heard is doubted as in ``as_heard``, and so is the card the request was heard with."""
        if pending.kind == "who":
            if heard.intent in ("no", "cancel"):
                self.say(self.p("say_again"))
                return True
            request, g = pending.request, self.game
            if heard.intent in ("ask", "ask_family") and (heard.card, heard.family) != (request.card, request.family):
                return None  # "Ben, is Mrs. Tape at home?": a new request, not the name for the old one
            named, exact = self.understander.name_answer(line)
            if named is not None and (exact or heard.intent == "none"):  # "hand Ben" is not "hand"
                first = pending.heard  # what the request was heard as (None: typed), to doubt its card
                unsure = not exact or doubts_target(self.understander, said, named) or first is not None and (
                    doubts_card(self.understander, first, request, self._doubting_hand(player), g.phase)
                    or named_by_a_poor_trade(self.understander, first, request))
                # "Dan, please": the please said with the name counts for the request.
                polite = request.polite or heard.polite
                return self._request(player, replace(request, target=named, confirm=unsure, polite=polite), said, first)
            return None
        if heard.intent in ("yes", "no"):
            self._yes_no_answers[player] += 1
        if heard.intent == "yes":
            if pending.kind == "quit":
                return False
            if pending.kind == "undo":
                self._undo()
                return True
            if pending.kind == "flip":
                return self._act(player, pending.action)
            r = pending.request  # "Yes, please." to "..., without please?" says it
            return self._act(player, Ask(r.target, card=r.card, family=r.family, polite=r.polite or heard.polite))
        if heard.intent == "no" and isinstance(said, Hearing) and said.stray:
            # A "no" that fits the audio as poorly as table talk does (``VoiceIO._still_asking``): it drops
            # the question and plays nothing, but offers nothing in its place either (a "yes" meant for
            # the question just asked would answer the offer).
            self.say(self.p(_DECLINED.get(pending.kind, "say_again")))
            return True
        if pending.kind == "confirm" and (named := self.understander.correction(line)) \
                and named not in pending.offered and self._legal(player, named, pending.request):
            # "Did you ask Dan for Mr. Bun?" "No, I said Cara.": asked about, as any name heard is.
            return self._offer_target(player, pending, named)
        if heard.intent == "no" and pending.kind == "confirm" and (other := self._sound_alike(player, pending)):
            # "Did you ask Dan ...?" "No." A recognizer that swaps Ben and Dan most likely heard the other one.
            return self._offer_target(player, pending, other)
        if heard.intent == "no" and pending.kind == "confirm" and pending.in_full and not pending.card_offered \
                and (alike := self._card_alike(player, pending)):
            # "Did you ask Cara for Miss Bung, the Brewer's Daughter?" "No." The recognizer hears "bung"
            # for a said "bun" (a child's voice every time): offer the card that sounds like it.
            self.pending = replace(pending, request=alike, card_offered=True)
            # Private: the card offered tells that the asker holds its family too.
            self._ask_yes_no(player, self._confirm_key("confirm_other", alike), private=True, target=alike.target,
                             what=self._what(alike, True))
            return True
        if heard.intent == "no" and pending.kind == "confirm" and (first := pending.request.instead_of):
            # "Did you ask Finn for Mrs. Bun?" "No." Then it was the request heard first, which the
            # rules refuse ("You already hold Mrs. Bung."): the player hears why, and nothing changes.
            return self._act(player, Ask(pending.request.target, card=first.get("card"), family=first.get("family"),
                                         polite=pending.request.polite))
        if heard.intent in ("no", "cancel"):
            self.say(self.p(_DECLINED.get(pending.kind, "say_again")))
            return True
        return None

    def _offer_target(self, player: str, pending: _Pending, target: str) -> bool:
        """ "Then did you ask ``target`` for ...?": the request waiting, to another player."""
        self.pending = replace(pending, request=replace(pending.request, target=target),
                               offered=pending.offered + (target,))
        self._ask_yes_no(player, self._confirm_key("confirm_other", pending.request),
                         private=pending.request.instead_of is not None, target=target,
                         what=self._what(pending.request, pending.in_full))
        return True

    def _sound_alike(self, player: str, pending: _Pending) -> str | None:
        """A player whose name sounds like the one just refused, not named yet, who may be asked."""
        request = pending.request
        alikes = sorted(self.understander.sound_alikes.get(request.target, ()))
        return next((p for p in alikes if p not in pending.offered and self._legal(player, p, request)), None)

    def _card_alike(self, player: str, pending: _Pending) -> Understanding | None:
        """The request to the player first heard (not a sound-alike of theirs already refused) with
        the same member of a family whose name sounds like the one just refused (Bun for Bung), that
        the asker may make; None when there is none."""
        request = replace(pending.request, target=pending.offered[0])
        if request.instead_of is not None:  # the hand chose the card already: "no" means the one heard
            return None
        family = request.family or request.card.split(":")[0]
        member = request.card.split(":")[1] if request.card else None
        for other in sorted(self.understander.card_sound_alikes.get(family, ())):
            alike = replace(request, card=f"{other}:{member}") if member else replace(request, family=other)
            if self._legal(player, request.target, alike):
                return alike
        return None

    def _what(self, heard: Understanding, in_full: bool = False) -> str:
        if heard.card:
            return self.narrator.card(heard.card, "full" if in_full else "short")
        return self.narrator.family(heard.family)

    def _parse_flip(self, line: str, heard: Understanding, typed: bool) -> Flip | Pass | None:
        """The answer to a turn-over offer ("turn over card two, please", "2", "the second one", "draai 2
        om", "kaart 3", "I pass", "no"), or None. Players count the centre cards from 1. A number in other
        words is no answer: "not card 2", "what was the first card?", "geef me een kaart" ("een" is
        also "a") turned a card over."""
        words = normalize(line)
        if heard.intent == "no" or heard.intent == "flip" and {"pass", "skip", "pas", "passen"} & set(words):
            return Pass()
        lang, skipped = self.narrator.lang, _TURN_OVER_WORDS | self.understander.grammar.polite_words
        ones = {i for i, w in enumerate(words) if w in ("one", "een") and len(words) > 1
                and (i == 0 or words[i - 1] not in _BEFORE_A_NUMBER)}
        rest = [w for i, w in enumerate(words) if w not in skipped and i not in ones]
        numbers = [w for w in rest if parse_number(w, lang, heard=not typed) is not None]
        if heard.intent == "flip" and not typed:  # the recognizer's grammar allows turn-over phrases only
            number = parse_number(line, lang, heard=True)
        else:  # typed, a number in other words is no answer: "is card 2 good?"
            number = parse_number(numbers[0], lang) if rest == numbers and len(numbers) == 1 else None
        if number == 0:  # "none", "geen"
            return Pass()
        return None if number is None else Flip(number - 1)

    def _offer_flip(self, player: str) -> None:
        slots = [str(i + 1) for i in self.game.observation(player).centre_slots]
        self.say(self.p("flip_prompt", slots=self.narrator.names(slots, "or")))
        self._flip_offered = len(self.game.actions)

    def _act(self, player: str, action: Ask | Flip | Pass) -> bool:
        g = self.game
        mark = len(g.actions)
        before = self._human_hands()
        try:
            events = g.apply(action)
        except IllegalAction as exc:
            # Private: a refusal may say what the player holds ("You already hold Mrs. Bun").
            self.tell(player, self.narrator.refusal(exc, action))
            return True
        self._record(action)
        self.human_marks.append(mark)
        self._undo_spent = False
        self._just_played = player
        self._narrate_move(events, before)
        return True

    def _human_hands(self) -> dict[str, set[str]]:
        return {p: set(self.game.hand(p)) for p in self.humans}

    def _narrate_move(self, events: list[dict], before: dict[str, set[str]]) -> None:
        """A move's events in words, with the card a player drew told before the next turn is
        announced ("Alice, you drew ..." came after "Your turn, Ben.")."""
        cut = next((i for i, e in enumerate(events) if e["type"] == "turn"), len(events))
        self.narrate(events[:cut])
        self._tell_draws(events, before)
        self.narrate(events[cut:])

    def _tell_draws(self, events: list[dict], before: dict[str, set[str]]) -> None:
        """A card drawn from the stock is seen only by its new owner, whoever's move made them draw
        (a player left with no cards on someone else's turn draws then)."""
        drew = {e["player"] for e in events if e["type"] == "draw"}
        received = {c for e in events if e["type"] == "transfer" for c in e.get("cards", ())}
        for player in self.humans:
            if player in drew:
                for cid in self.game.hand(player):
                    if cid not in before[player] and cid not in received:
                        self.tell(player, self.p("drew", player=player, card=self.narrator.card(cid, "full")))

    def _ask_undo(self, player: str) -> None:
        g = self.game
        if not self.human_marks:
            self.say(self.p("nothing_to_undo"))
            return
        if self._undo_spent:
            self.say(self.p("undo_spent"))
            return
        mark = self.human_marks[-1]
        action = g.actions[mark]
        saved = g.to_json()
        replay = Game.from_json({**saved, "actions": saved["actions"][:mark]})
        by = replay.current_player
        if isinstance(action, Ask) and action.card:
            what = self.p("undo_request", player=by, target=action.target, card=self.narrator.card(action.card, "short"))
        elif isinstance(action, Ask):
            what = self.p("undo_request", player=by, target=action.target, card=self.narrator.family(action.family))
        else:
            what = self.p("undo_move", player=by)
        self.pending = _Pending("undo")
        self._ask_yes_no(player, "confirm_undo", what=what)

    def _undo(self) -> None:
        g = self.game
        mark = self.human_marks.pop()
        steps = len(g.actions) - mark
        g.undo(steps)
        self._undo_spent = True
        self._save(lambda journal: journal.undo(steps))
        self._make_bots()
        self.say(self.p("undone", player=g.current_player))

    # ---------------------------------------------------------- review lines

    def hand_lines(self, player: str, family: str | None = None) -> list[str]:
        """Private: the player's own hand grouped by family, or one family's cards ("which Buns do I have?");
        in the second phase, where whole families are asked for, the families held."""
        g = self.game
        lang = self.narrator.lang
        if g.phase == "families":
            return self._families_held(player, family)
        hand = g.hand(player)
        if family is not None:
            surname = g.deck.family(family).name(lang, "surname")
            cards = [self.narrator.card(c, "short") for c in hand if g.deck.card(c).family == family]
            if not cards:
                return [self.p("hand_family_none", player=player, surname=surname)]
            return [self.p("hand_family", player=player, surname=surname, cards=self.narrator.names(cards))]
        if not hand:
            return [self.p("no_cards", player=player)]
        groups: dict[str, list[str]] = {}
        for cid in hand:
            groups.setdefault(g.deck.card(cid).family, []).append(self.narrator.card(cid, "short"))
        parts = [f"{g.deck.family(f).name(lang, 'surname')}: {self.narrator.names(cards)}" for f, cards in groups.items()]
        return [self.p("hand", player=player, cards=self.narrator.cards(len(hand)), groups=". ".join(parts))]

    def _families_held(self, player: str, family: str | None) -> list[str]:
        held = self.game.families_of(player)
        if family is not None:
            return [self.p("family_held" if family in held else "family_not_held", player=player,
                           family=self.narrator.family(family))]
        if not held:
            return [self.p("no_families", player=player)]
        surnames = [self.game.deck.family(f).name(self.narrator.lang, "surname") for f in held]
        return [self.p("hand_families", player=player, count=self.narrator.count(len(held)),
                       surnames=self.narrator.names(surnames))]

    def status_lines(self) -> list[str]:
        """Public: whose turn, each player's cards and families, match totals. With families face down
        (the classic profile) only how many families each player has: which ones is the memory game of
        the second phase (a player hears their own with hand)."""
        g = self.game
        lang = self.narrator.lang
        sizes = g.hand_sizes()
        face_down = g.rules.families_face_down
        parts = []
        for p in g.players:
            fams = g.families_of(p)
            named = f" ({self.narrator.names([g.deck.family(f).name(lang, 'surname') for f in fams])})" \
                if fams and not face_down else ""
            parts.append(self.p("status_player", player=p, cards=self.narrator.cards(sizes[p]), families=self.narrator.count(len(fams)),
                                named=named))
        turn = self.p("status_turn", player=g.current_player) if g.current_player else ""
        line = turn + "; ".join(parts) + "."
        if g.rules.centre_cards:  # a sighted player sees at a glance how many are left to turn over
            line += self.p("status_centre", n=len(g.observation(g.players[0]).centre_slots))
        if g.rules.match_target:
            line += self.p("match_totals", totals=", ".join(f"{p} {n}" for p, n in zip(g.players, g.totals)))
        return [line]

    def history_lines(self, count: int = 6) -> list[str]:
        """The last requests and their answers: a memory aid (off for a memory challenge)."""
        if not self.history:
            return [self.p("history_off")]
        lines: list[str] = []
        log = self.game.log
        outcomes = {"transfer": "given", "not_at_home": "outcome_not_at_home", "penalty": "outcome_penalty"}
        for i, e in enumerate(log):
            if e["type"] != "ask":
                continue
            answer = log[i + 1] if i + 1 < len(log) else {}
            key = outcomes.get(answer.get("type"))
            what = self.narrator.card(e["card"], "short") if "card" in e else self.narrator.family(e["family"])
            lines.append(self.p("history_line", player=e["player"], target=e["target"], what=what,
                                outcome=self.p(key) if key else ""))
        if not lines:
            return [self.p("no_history")]
        return lines[-count:]

    def help_lines(self, player: str) -> list[str]:
        """Private (it lists what the player may ask for, so it tells what they hold)."""
        g = self.game
        obs = g.observation(player)
        if obs.phase == "flip":
            return [self.p("help_flip")]
        targets = obs.legal_targets()
        if not targets:
            return [self._commands()]
        lang, names = self.narrator.lang, self.narrator.names(targets, "or")
        families = [r["family"] for r in obs.legal_requests() if "family" in r]
        if g.phase == "families":  # every family they may ask for: the printed cards would show the names
            example = g.deck.family(families[0]).cards[0].name(lang, "short")
            surnames = self.narrator.names([g.deck.family(f).name(lang, "surname") for f in families], "or")
            return [self.p("help_families", targets=names, families=surnames, target=targets[0], example=example),
                    self._commands()]
        wanted = [self.narrator.card(r["card"], "short") for r in obs.legal_requests() if "card" in r]
        if not wanted:
            return [self._commands()]
        if len(wanted) > 5 and not self.narrator.verbose:  # "more detail" lists them all
            wanted = wanted[:5] + [self.p("others")]
        shown = self.narrator.names(wanted, "or")
        lines = [self.p("help_cards", targets=names, cards=shown, target=targets[0], card=wanted[0])]
        if families:  # asking by surname: the computer players did, and help never said how
            lines.append(self.p("help_surname", target=targets[0], surname=g.deck.family(families[0]).name(lang, "surname")))
        return lines + [self._commands()]
