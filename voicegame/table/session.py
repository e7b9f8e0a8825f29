"""The table loop: whose turn it is, what people type, what the table hears.

Text only for now: lines in, lines out, only ever appended (no redraws), so it works with a
screen reader, a braille display, or a pipe.
"""

from __future__ import annotations

from typing import Callable

from voicegame.bots import Bot, make_bot
from voicegame.engine import Ask, Flip, Game, IllegalAction, Pass
from voicegame.table.journal import Journal
from voicegame.table.narration import Narrator, names_list
from voicegame.understanding import Understander, Understanding, normalize

__all__ = ["TextTable"]

HELP_COMMANDS = "Other commands: hand, status, history, repeat, undo, help, quit."


class TextTable:
    """Runs one game between typed human players and computer players."""

    def __init__(
        self,
        game: Game,
        bot_levels: dict[str, str],
        read_line: Callable[[], str | list[str] | None],
        write: Callable[[str], None],
        *,
        lang: str = "en",
        verbose: bool = False,
        journal: Journal | None = None,
        polite_reminder: bool = False,
    ) -> None:
        self.game = game
        self.journal = journal
        # For young players: a request without "please" is asked again instead of being played.
        self.polite_reminder = polite_reminder
        self.bot_levels = dict(bot_levels)
        self.humans = [p for p in game.players if p not in self.bot_levels]
        self.read_line = read_line
        self.write = write
        self.narrator = Narrator(game.deck, set(self.humans), lang=lang, verbose=verbose)
        self.understander = Understander(game.deck, game.players, lang=lang)
        self.pending: Understanding | None = None  # a request waiting for "yes" or for a name
        self.human_marks = self._human_marks()  # len(game.actions) before each human action, for undo
        self.last_lines: list[str] = []
        self.bots: dict[str, Bot] = {}
        self._make_bots()

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

    def say(self, lines: list[str] | str) -> None:
        if isinstance(lines, str):
            lines = [lines]
        for line in lines:
            self.write(line)
        if lines:
            self.last_lines = list(lines)

    def run(self) -> int:
        g = self.game
        who = [p + (f" (computer, {self.bot_levels[p]})" if p in self.bot_levels else "") for p in g.players]
        self.say(f"Happy Families with {names_list(who)}. Deck: {g.deck.title}. Rules: {g.rules.profile}."
                 f" Seed {g.seed}.")
        if self.humans:
            self.say(self.understander.warnings())
            self.say("Type help at any time.")
        if g.actions:  # resumed: say where we are, not the whole story again
            self.say(f"Resuming after {len(g.actions)} actions.")
            self.say(self.status_lines())
        else:
            self.say(self.narrator.sentences(g.log))
        while not g.over:
            player = g.current_player
            if player in self.bots:
                action = self.bots[player].choose()
                events = g.apply(action)
                self._record(action)
                self.say(self.narrator.sentences(events))
                continue
            line = self.read_line()
            if line is None:
                self.say("Input ended, so the game stops here.")
                return 0
            if not self.handle(player, line):
                self.say("Game stopped.")
                return 0
        return 0

    def _record(self, action: Ask | Flip | Pass) -> None:
        if self.journal:
            self.journal.action(action)
            if self.game.over:
                self.journal.finish(self.game.winners)

    # ---------------------------------------------------------------- input

    def handle(self, player: str, said: str | list[str]) -> bool:
        """Act on one typed line, or a recognizer's alternatives (best first), from ``player``;
        False means quit."""
        g = self.game
        obs = g.observation(player)
        line = said if isinstance(said, str) else said[0]
        if obs.phase == "flip":
            flip = self._parse_flip(line)
            if flip is not None:
                return self._act(player, flip)
        heard = self.understander.understand(said, asker=player, hand=g.hand(player), phase=g.phase)
        pending, self.pending = self.pending, None
        if pending is not None:
            answered = self._answer_pending(player, pending, line, heard)
            if answered is not None:
                return answered
        kind = heard.intent
        if kind == "quit":
            return False
        if kind == "hand":
            self.say(self.hand_lines(player))
        elif kind == "status":
            self.say(self.status_lines())
        elif kind == "history":
            self.say(self.history_lines())
        elif kind == "help":
            self.say(self.help_lines(player))
        elif kind == "repeat":
            for line_ in self.last_lines:
                self.write(line_)
        elif kind == "undo":
            self._undo()
        elif kind in ("ask", "ask_family"):
            return self._request(player, heard)
        elif kind in ("yes", "no", "cancel"):
            self.say("There is nothing to answer yes or no to. " + HELP_COMMANDS)
        elif kind in ("pause", "slower", "faster"):
            self.say("That works with the voice. " + HELP_COMMANDS)
        else:
            self.say(heard.reason or "I didn't understand that.")
        return True

    def _request(self, player: str, heard: Understanding) -> bool:
        """Act on a request, or ask first when it was not clearly heard (a wrong move is the worst bug)."""
        obs = self.game.observation(player)
        target = heard.target
        if target is None:
            targets = obs.legal_targets()
            if len(targets) != 1:
                self.pending = heard
                self.say(f"Who do you want to ask for {self._what(heard)}? Say a name: {names_list(targets, 'or')}.")
                return True
            target = targets[0]
        if self.polite_reminder and not heard.polite:
            self.say(f"Remember the magic word, {player}: ask again with please.")
            return True
        if heard.confirm:
            self.pending = Understanding(**{**heard.__dict__, "target": target})
            self.say(f"Did you ask {target} for {self._what(heard)}? Say yes or no.")
            return True
        return self._act(player, Ask(target, card=heard.card, family=heard.family, polite=heard.polite))

    def _answer_pending(self, player: str, pending: Understanding, line: str, heard: Understanding) -> bool | None:
        """Complete or confirm the waiting request; None when the line is something else."""
        if pending.target is None:
            words = normalize(line)
            named = [p for p in self.game.players if normalize(p) == words]
            if named:
                return self._request(player, Understanding(**{**pending.__dict__, "target": named[0]}))
            return None
        if heard.intent == "yes":
            return self._act(player, Ask(pending.target, card=pending.card, family=pending.family,
                                         polite=pending.polite))
        if heard.intent in ("no", "cancel"):
            self.say("All right. Say your request again.")
            return True
        return None

    def _what(self, heard: Understanding) -> str:
        if heard.card:
            return self.narrator.card(heard.card, "short")
        return self.narrator.family(heard.family)

    def _parse_flip(self, line: str) -> Flip | Pass | None:
        words = normalize(line)
        if words and words[0] in ("pass", "no", "skip"):
            return Pass()
        numbers = [w for w in words if w.isdigit()]
        if numbers and (len(words) == 1 or words[0] in ("flip", "turn", "card")):
            return Flip(int(numbers[0]) - 1)
        return None

    def _act(self, player: str, action: Ask | Flip | Pass) -> bool:
        mark = len(self.game.actions)
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            self.say(exc.message)
            return True
        self._record(action)
        self.human_marks.append(mark)
        self.say(self.narrator.sentences(events))
        if self.game.observation(player).phase == "flip" and self.game.current_player == player:
            slots = [str(i + 1) for i in self.game.observation(player).centre_slots]
            self.say(f"You may turn over a centre card: type its number ({names_list(slots, 'or')}), or pass.")
        return True

    def _undo(self) -> None:
        g = self.game
        if not self.human_marks:
            self.say("There is nothing to undo.")
            return
        mark = self.human_marks.pop()
        steps = len(g.actions) - mark
        g.undo(steps)
        if self.journal:
            self.journal.undo(steps)
        self._make_bots()
        self.say(f"Undone. Your turn again, {g.current_player}.")

    # ---------------------------------------------------------- review lines

    def hand_lines(self, player: str) -> list[str]:
        """Private: the player's own hand, grouped by family."""
        g = self.game
        hand = g.hand(player)
        if not hand:
            return [f"{player}, you have no cards."]
        groups: dict[str, list[str]] = {}
        for cid in hand:
            groups.setdefault(g.deck.card(cid).family, []).append(self.narrator.card(cid, "short"))
        parts = [f"{g.deck.family(f).name(self.narrator.lang, 'surname')}: {names_list(cards)}"
                 for f, cards in groups.items()]
        return [f"{player}, you hold {len(hand)} cards. " + ". ".join(parts) + "."]

    def status_lines(self) -> list[str]:
        g = self.game
        sizes = g.hand_sizes()
        parts = []
        for p in g.players:
            fams = g.families_of(p)
            named = f" ({names_list([g.deck.family(f).name(self.narrator.lang, 'surname') for f in fams])})" if fams else ""
            parts.append(f"{p} {sizes[p]} cards, {len(fams)} {'family' if len(fams) == 1 else 'families'}{named}")
        turn = f"{g.current_player}'s turn. " if g.current_player else ""
        line = turn + "; ".join(parts) + "."
        if g.rules.match_target:
            line += " Match totals: " + ", ".join(f"{p} {n}" for p, n in zip(g.players, g.totals)) + "."
        return [line]

    def history_lines(self, count: int = 6) -> list[str]:
        """The last requests and their answers: a memory aid."""
        lines: list[str] = []
        log = self.game.log
        for i, e in enumerate(log):
            if e["type"] != "ask":
                continue
            answer = log[i + 1] if i + 1 < len(log) else {}
            outcome = {"transfer": "given", "not_at_home": "not at home", "penalty": "no please, turn lost"}.get(
                answer.get("type"), "")
            what = self.narrator.card(e["card"], "short") if "card" in e else self.narrator.family(e["family"])
            lines.append(f"{e['player']} asked {e['target']} for {what}: {outcome}.")
        if not lines:
            return ["No requests yet."]
        return lines[-count:]

    def help_lines(self, player: str) -> list[str]:
        g = self.game
        obs = g.observation(player)
        if obs.phase == "flip":
            return ["Type the number of a centre card to turn it over, or pass."]
        targets = obs.legal_targets()
        if g.phase == "families":
            return [f"Ask for a whole family, for example: {targets[0]}, is Mr. Bun and family at home?"
                    if targets else "", HELP_COMMANDS]
        wanted = [self.narrator.card(r["card"], "short") for r in obs.legal_requests() if "card" in r]
        example = f"{targets[0]}, is {wanted[0]} at home?" if targets and wanted else ""
        shown = names_list(wanted[:5] + (["others"] if len(wanted) > 5 else []), "or")
        return [f"You can ask {names_list(targets, 'or')} for {shown}. For example: {example}", HELP_COMMANDS]
