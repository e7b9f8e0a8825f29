"""The rules engine: one game of Happy Families, pure (no I/O, no clock, no printing).

A game is rules + deck + seated players (clockwise in the order given) + seed + the list of
actions applied. Dealing is deterministic from the seed, so the action list replays to the
identical state; undo replays all but the last action.

This is where "Not at home" is decided: ``Game._ask_card``.

Hands are bit masks over the deck's card indices (family ``f`` of size ``m`` owns bits
``f*m .. f*m+m-1``), which keeps legality checks and transfers to a few integer operations.
Events are plain dicts with a "type", ready for JSON and narration.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from voicegame.decks import Deck, load_deck
from voicegame.engine.actions import Action, Ask, Flip, IllegalAction, Pass, action_from_json
from voicegame.engine.rules import PROFILES, Rules

__all__ = ["Game", "Observation", "PositionError"]

GAME_FORMAT = "voicegame/game-1"


class PositionError(ValueError):
    """A state or saved game that cannot be loaded; the message says what is wrong."""


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _names_list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class Game:
    """One game (a single round, or a match of rounds when ``rules.match_target`` is set)."""

    def __init__(
        self,
        players: list[str] | tuple[str, ...],
        *,
        rules: Rules,
        deck: Deck | None = None,
        seed: int = 0,
        dealer: str | None = None,
        start: dict[str, Any] | None = None,
    ) -> None:
        """Deal a new game from ``seed``; ``start`` (use ``from_position``) begins from a state file instead."""
        players = tuple(players)
        if not 2 <= len(players) <= 12:
            raise PositionError("A game needs between 2 and 12 players.")
        if len(set(p.casefold() for p in players)) != len(players) or any(not p.strip() for p in players):
            raise PositionError("Every player needs a different, non-empty name.")
        self.rules = rules
        self.deck = deck or load_deck(rules.deck, three_generations=rules.three_generations)
        if rules.three_generations and len(self.deck.members) < 6:
            raise PositionError(f"The {self.deck.name} deck has no Grandpa and Grandma for families of 6.")
        self.players = players
        self.seed = seed
        self._seat = {name: i for i, name in enumerate(players)}
        self._seat_folded = {name.casefold(): i for i, name in enumerate(players)}
        self._m = self.deck.family_size
        self._nf = len(self.deck.families)
        self._fam_mask = [((1 << self._m) - 1) << (f * self._m) for f in range(self._nf)]
        self._all_families = (1 << self._nf) - 1
        self._card_index = {c.id: c.index for c in self.deck.cards}
        self._card_ids = [c.id for c in self.deck.cards]
        self._family_index = {f.key: f.index for f in self.deck.families}
        self._family_keys = [f.key for f in self.deck.families]
        self._lows = sum(1 << (f * self._m) for f in range(self._nf))  # lowest bit of each family
        self._shifts = tuple(range(1, self._m))
        self._spread = (1 << self._m) - 1
        self._bluff = rules.bluff
        self._penalty = rules.politeness_penalty
        self._miss_to_asked = rules.after_miss == "asked"
        self._start = start  # a loaded position, or None when dealt from the seed
        self._dealer0 = self._seat_of(dealer) if dealer is not None else len(players) - 1
        self.actions: list[Action] = []
        self._reset()

    # ------------------------------------------------------------------ set-up

    def _seat_of(self, name: str) -> int:
        seat = self._seat.get(name)
        if seat is None:
            seat = self._seat_folded.get(str(name).casefold())
        if seat is None:
            raise IllegalAction(
                "unknown_player", f"There is no player called {name}. The players are {_names_list(list(self.players))}."
            )
        return seat

    def _reset(self) -> None:
        n = len(self.players)
        self.log: list[dict[str, Any]] = []
        self.hands = [0] * n
        self.families: list[list[int]] = [[] for _ in range(n)]
        self._complete = 0
        self.stock: list[int] = []
        self.centre: list[int] = []
        self.turn: int | None = None
        self.phase = "cards"
        self.pending_flip = False
        self.round = 0
        self.totals = [0] * n
        self.round_players: tuple[int, ...] = tuple(range(n))
        self.tiebreak = False
        self.dealer = self._dealer0
        self.last_completer: int | None = None
        self.over = False
        self.winners: list[str] = []
        if self._start is None:
            self._deal()
        else:
            self._load_position(self._start)

    def _deal(self) -> None:
        """Shuffle from (seed, round) and deal; lay out complete families; pick who starts."""
        rules = self.rules
        order = list(range(len(self._card_ids)))
        random.Random(self.seed * 1_000_003 + self.round).shuffle(order)
        seats = self.round_players
        for s in range(len(self.players)):
            self.hands[s] = 0
            self.families[s] = []
        self._complete = 0
        self.centre = order[: rules.centre_cards]
        rest = order[rules.centre_cards :]
        k = len(seats)
        d = seats.index(self.dealer) if self.dealer in seats else k - 1
        first = (d + 1) % k if rules.dealer_gets_fewest else d
        deal_order = [seats[(first + i) % k] for i in range(k)]
        dealt = rest if not rules.stock else rest[: rules.stock * k]
        self.stock = [] if not rules.stock else rest[rules.stock * k :]
        for i, card in enumerate(dealt):
            self.hands[deal_order[i % k]] |= 1 << card
        self.log.append(
            {
                "type": "deal",
                "round": self.round + 1,
                "dealer": self.players[self.dealer],
                "players": [self.players[s] for s in seats],
                "hand_sizes": {self.players[s]: self.hands[s].bit_count() for s in seats},
                "stock": len(self.stock),
                "centre": len(self.centre),
            }
        )
        if rules.lay_out_dealt_families:
            for s in deal_order:
                self._lay_out(s, dealt=True)
        if rules.first_player == "dealer":
            start = seats[d]
        else:
            start = seats[(d + 1) % k]
        self.turn = start
        self.phase = "cards"
        self.pending_flip = False
        if not self._check_round_end():
            if not self._can_act(start):
                self._pass_turn_from(start)
            else:
                self.log.append({"type": "turn", "player": self.players[start]})
            self._settle()

    # --------------------------------------------------------------- queries

    @property
    def current_player(self) -> str | None:
        return None if self.turn is None or self.over else self.players[self.turn]

    def hand(self, player: str) -> list[str]:
        return [self._card_ids[i] for i in _bits(self.hands[self._seat_of(player)])]

    def families_of(self, player: str) -> list[str]:
        return [self._family_keys[f] for f in self.families[self._seat_of(player)]]

    def scores(self) -> dict[str, int]:
        """Families held now, per player (this round)."""
        return {p: len(self.families[s]) for s, p in enumerate(self.players)}

    def hand_sizes(self) -> dict[str, int]:
        return {p: self.hands[s].bit_count() for s, p in enumerate(self.players)}

    def observation(self, player: str) -> Observation:
        return Observation(self, self._seat_of(player))

    def legal_actions(self) -> list[Action]:
        if self.over or self.turn is None:
            return []
        return self.observation(self.players[self.turn]).legal_actions()

    def _can_act(self, s: int) -> bool:
        if s not in self.round_players:
            return False
        if self.phase == "families":
            return bool(self.families[s])
        return bool(self.hands[s]) or bool(self.stock)

    def _next_clockwise(self, s: int) -> int | None:
        n = len(self.players)
        for step in range(1, n + 1):
            t = (s + step) % n
            if self._can_act(t):
                return t
        return None

    # --------------------------------------------------------------- actions

    def apply(self, action: Action | dict[str, Any]) -> list[dict[str, Any]]:
        """Apply an action for the current player; return the events it caused.

        Raises IllegalAction (and changes nothing) when the action breaks a rule.
        """
        kind = type(action)
        if kind is dict:
            action = action_from_json(action)
            kind = type(action)
        start = len(self.log)
        if kind is Ask:
            self._ask(action)
        elif kind is Flip:
            self._flip(action.slot)
        elif kind is Pass:
            self._decline_flip()
        else:
            raise IllegalAction("bad_action", "Unknown action.")
        self.actions.append(action)
        return self.log[start:]

    def undo(self, steps: int = 1) -> list[Action]:
        """Take back the last ``steps`` actions, restoring the exact earlier state (by replaying the rest)."""
        if not 1 <= steps <= len(self.actions):
            raise IllegalAction("wrong_phase", "There is nothing to undo.")
        undone = self.actions[-steps:]
        self._replay(self.actions[:-steps])
        return undone

    def _replay(self, actions: list[Action]) -> None:
        self.actions = []
        self._reset()
        for a in actions:
            self.apply(a)

    def _ask(self, action: Ask) -> None:
        if self.over:
            raise IllegalAction("wrong_phase", "The game is over. Start a new game to play again.")
        asker = self.turn
        if action.by is not None:
            by = self._seat_of(action.by)
            if by != asker:
                raise IllegalAction(
                    "not_your_turn", f"It is {self.players[asker]}'s turn, not {self.players[by]}'s. Please wait."
                )
        if self.pending_flip:
            raise IllegalAction(
                "wrong_phase", f"{self.players[asker]}, turn over a centre card or pass before asking again."
            )
        target = self._seat.get(action.target)
        if target is None:
            target = self._seat_of(action.target)
        if target == asker:
            raise IllegalAction("self", "You cannot ask yourself. Ask another player.")
        if len(self.round_players) != len(self.players) and target not in self.round_players:
            raise IllegalAction("target_empty", f"{self.players[target]} is not playing this round.")
        if self.phase == "families":
            if action.family is None:
                raise IllegalAction(
                    "wrong_phase", "Every family is complete: now ask for a whole family, such as: is Mr. Bun and family at home?"
                )
            self._ask_family_phase2(asker, target, action)
            return
        if action.card is not None:
            self._ask_card(asker, target, action)
        elif self.rules.ask_by_surname:
            self._ask_surname(asker, target, action)
        else:
            raise IllegalAction("wrong_phase", "Ask for one card by name, such as Mrs. Bun.")

    def _check_target_and_family(self, asker: int, target: int, f: int) -> None:
        if not self.hands[target]:
            raise IllegalAction("target_empty", f"{self.players[target]} has no cards left. Ask someone else.")
        family = self.deck.families[f]
        if self._complete >> f & 1:
            raise IllegalAction("family_complete", f"The {family.name(form='surname')} family is already complete.")
        if not self.hands[asker] & self._fam_mask[f]:
            raise IllegalAction(
                "family_not_held",
                f"You can only ask for a family you already have a card of,"
                f" and you hold no card of the {family.name(form='surname')} family.",
            )

    def _ask_card(self, asker: int, target: int, action: Ask) -> None:
        """One card asked for: hand it over, or "Not at home"."""
        card = self._card_index.get(action.card)
        if card is None:
            raise IllegalAction("unknown_card", f"There is no card {action.card} in the {self.deck.name} deck.")
        f = card // self._m
        hands = self.hands
        if not hands[target] or self._complete >> f & 1 or not hands[asker] & self._fam_mask[f]:
            self._check_target_and_family(asker, target, f)
        bit = 1 << card
        if hands[asker] & bit and not self._bluff:
            raise IllegalAction("own_card", f"You already hold {self.deck.cards[card].name(form='short')}.")
        cid = self._card_ids[card]
        log = self.log
        players = self.players
        log.append({"type": "ask", "player": players[asker], "target": players[target], "card": cid,
                    "polite": action.polite})
        if self._penalty and not action.polite:
            self._penalise(asker, target)
            return
        if hands[target] & bit:
            hands[target] ^= bit
            hands[asker] |= bit
            log.append({"type": "transfer", "from": players[target], "to": players[asker], "cards": [cid]})
            self._after_success(asker, target, f)
        else:
            log.append({"type": "not_at_home", "player": players[target], "asker": players[asker], "card": cid})
            if self.stock or self.centre:
                self._after_miss(asker, target)
            elif self._miss_to_asked:
                # The asked player has cards, and so does the asker: the new turn always has a request.
                self.turn = target
                log.append({"type": "turn", "player": players[target]})
            else:
                self._pass_turn_from(asker)

    def _ask_surname(self, asker: int, target: int, action: Ask) -> None:
        f = self._family_index.get(action.family)
        if f is None:
            raise IllegalAction("unknown_card", f"There is no family {action.family} in the {self.deck.name} deck.")
        self._check_target_and_family(asker, target, f)
        log = self.log
        log.append({"type": "ask", "player": self.players[asker], "target": self.players[target],
                    "family": action.family, "polite": action.polite})
        if self.rules.politeness_penalty and not action.polite:
            self._penalise(asker, target)
            return
        got = self.hands[target] & self._fam_mask[f]
        if got:
            self.hands[target] ^= got
            self.hands[asker] |= got
            log.append({"type": "transfer", "from": self.players[target], "to": self.players[asker],
                        "cards": [self._card_ids[i] for i in _bits(got)]})
            self._after_success(asker, target, f)
        else:
            log.append({"type": "not_at_home", "player": self.players[target], "asker": self.players[asker],
                        "family": action.family})
            self._after_miss(asker, target)

    def _ask_family_phase2(self, asker: int, target: int, action: Ask) -> None:
        f = self._family_index.get(action.family)
        if f is None:
            raise IllegalAction("unknown_card", f"There is no family {action.family} in the {self.deck.name} deck.")
        if not self.families[target]:
            raise IllegalAction("target_empty", f"{self.players[target]} has no families left. Ask someone else.")
        surname = self.deck.families[f].name(form="surname")
        if f in self.families[asker] and not self.rules.bluff:
            raise IllegalAction("own_card", f"You already hold the {surname} family.")
        log = self.log
        log.append({"type": "ask", "player": self.players[asker], "target": self.players[target],
                    "family": action.family, "polite": action.polite})
        if self.rules.politeness_penalty and not action.polite:
            self._penalise(asker, target)
            return
        if f in self.families[target]:
            self.families[target].remove(f)
            self.families[asker].append(f)
            log.append({"type": "transfer", "from": self.players[target], "to": self.players[asker],
                        "family": action.family})
            if not self.families[target]:
                log.append({"type": "player_out", "player": self.players[target]})
            if len(self.families[asker]) == self._nf:
                self._round_over()
        else:
            log.append({"type": "not_at_home", "player": self.players[target], "asker": self.players[asker],
                        "family": action.family})
            self._after_miss(asker, target)

    def _penalise(self, asker: int, target: int) -> None:
        self.log.append({"type": "penalty", "player": self.players[asker], "target": self.players[target],
                         "reason": "impolite"})
        self._set_turn(target)

    def _after_success(self, asker: int, target: int, f: int) -> None:
        hands = self.hands
        fm = self._fam_mask[f]
        if hands[asker] & fm == fm:
            self._complete_family(asker, f)
            if self._check_round_end():
                return
        if not hands[target] and not self.stock:
            self.log.append({"type": "player_out", "player": self.players[target]})
        if not hands[asker] and not self.stock:
            self._pass_turn_from(asker)
        if self.stock or self.centre:
            self._settle()

    def _after_miss(self, asker: int, target: int) -> None:
        if self.phase == "cards" and self.stock:
            self._draw(asker)
            if self._check_round_end():
                return
        if self.phase == "cards" and any(c >= 0 for c in self.centre):
            self.pending_flip = True
            return
        self._turn_after_miss(asker, target)

    def _turn_after_miss(self, asker: int, target: int) -> None:
        if self._miss_to_asked and self._can_act(target):
            self._set_turn(target)
        else:
            self._pass_turn_from(asker)
        self._settle()

    def _draw(self, s: int) -> None:
        card = self.stock.pop()
        self.hands[s] |= 1 << card
        self.log.append({"type": "draw", "player": self.players[s], "stock": len(self.stock)})
        self._lay_out(s, dealt=False)

    def _flip(self, slot: int) -> None:
        if self.over or not self.pending_flip:
            raise IllegalAction("wrong_phase", "You can turn over a centre card only after a failed request.")
        if not 0 <= slot < len(self.centre) or self.centre[slot] < 0:
            raise IllegalAction("bad_action", f"There is no face-down centre card number {slot}.")
        s = self.turn
        card = self.centre[slot]
        f = card // self._m
        kept = bool(self.hands[s] & self._fam_mask[f])
        self.log.append({"type": "flip", "player": self.players[s], "slot": slot, "card": self._card_ids[card],
                         "kept": kept})
        self.pending_flip = False
        if kept:
            self.centre[slot] = -1
            self.hands[s] |= 1 << card
            if self.hands[s] & self._fam_mask[f] == self._fam_mask[f]:
                self._complete_family(s, f)
            if self._check_round_end():
                return
        self._turn_after_last_miss()

    def _decline_flip(self) -> None:
        if self.over or not self.pending_flip:
            raise IllegalAction("wrong_phase", "There is nothing to pass on now.")
        self.pending_flip = False
        self._turn_after_last_miss()

    def _turn_after_last_miss(self) -> None:
        for event in reversed(self.log):
            if event["type"] == "not_at_home":
                self._turn_after_miss(self._seat[event["asker"]], self._seat[event["player"]])
                return
        self._pass_turn_from(self.turn)
        self._settle()

    # ------------------------------------------------------------ turn flow

    def _set_turn(self, s: int) -> None:
        if s != self.turn:
            self.turn = s
            self.log.append({"type": "turn", "player": self.players[s]})

    def _pass_turn_from(self, s: int) -> None:
        nxt = self._next_clockwise(s)
        if nxt is None:
            self._round_over()
        else:
            self._set_turn(nxt)

    def _settle(self) -> None:
        """Make sure the current player can do something: draw for an empty hand (stock), or
        turn over a centre card when nobody is left to ask; end the round when nothing is possible."""
        for _ in range(4 * len(self._card_ids) + 8):
            if self.over or self.turn is None or self.phase != "cards":
                return
            s = self.turn
            if not self.hands[s] and self.stock:
                self._draw(s)
                if self._check_round_end():
                    return
                continue
            if any(self.hands[t] for t in self.round_players if t != s) and self.hands[s]:
                return
            # Nobody to ask (or nothing to ask with).
            if self.stock:
                self._draw(s)
                if self._check_round_end():
                    return
                self._pass_turn_from(s)
                continue
            if self.hands[s] and any(c >= 0 for c in self.centre):
                self.pending_flip = True
                return
            self._round_over()
            return
        self._round_over()

    def _lay_out(self, s: int, dealt: bool) -> None:
        hand = self.hands[s]
        for f in range(self._nf):
            fm = self._fam_mask[f]
            if hand & fm == fm:
                self._complete_family(s, f, dealt=dealt)

    def _complete_family(self, s: int, f: int, dealt: bool = False) -> None:
        self.hands[s] &= ~self._fam_mask[f]
        self.families[s].append(f)
        self._complete |= 1 << f
        self.last_completer = s
        self.log.append({"type": "family_complete", "player": self.players[s], "family": self._family_keys[f],
                         "families": len(self.families[s]), "dealt": dealt})

    def _check_round_end(self) -> bool:
        """End the round (or start the second phase) when every family is complete, or end a
        tie-break round at its first completed family."""
        if self.over:
            return True
        if self.tiebreak and self._complete:
            best = max(len(self.families[s]) for s in self.round_players)
            leaders = [s for s in self.round_players if len(self.families[s]) == best]
            self._decide(leaders)
            return True
        if self._complete != self._all_families:
            return False
        if self.rules.second_phase and self.phase == "cards":
            owners = {s for s in self.round_players if self.families[s]}
            self.phase = "families"
            self.pending_flip = False
            self.log.append({"type": "phase", "phase": "families", "player": self.players[self.last_completer]})
            if len(owners) == 1:
                self._round_over()
                return True
            self.turn = None
            self._set_turn(self.last_completer)
            return True
        self._round_over()
        return True

    def _round_over(self) -> None:
        seats = self.round_players
        scores = {self.players[s]: len(self.families[s]) for s in seats}
        if self.tiebreak:
            # Nobody completed a family (possible only with centre cards): the tied players stay tied.
            self._decide(list(seats))
            return
        if self.rules.match_target:
            for s in seats:
                self.totals[s] += len(self.families[s])
        self.log.append({"type": "round_over", "round": self.round + 1, "scores": scores,
                         "totals": {p: self.totals[s] for s, p in enumerate(self.players)}
                         if self.rules.match_target else scores})
        if self.rules.match_target:
            best = max(self.totals)
            if best < self.rules.match_target:
                self._next_round(seats)
                return
            leaders = [s for s in range(len(self.players)) if self.totals[s] == best]
        else:
            best = max(scores.values())
            leaders = [s for s in seats if len(self.families[s]) == best]
        self._decide(leaders)

    def _decide(self, leaders: list[int]) -> None:
        if len(leaders) > 1 and self.rules.tie_break:
            self.log.append({"type": "tiebreak", "players": [self.players[s] for s in leaders]})
            self.tiebreak = True
            self._next_round(tuple(leaders))
            return
        self.over = True
        self.turn = None
        self.pending_flip = False
        self.winners = [self.players[s] for s in leaders]
        self.log.append({"type": "game_over", "winners": self.winners, "scores": self.scores(),
                         **({"totals": {p: self.totals[s] for s, p in enumerate(self.players)}}
                            if self.rules.match_target else {})})

    def _next_round(self, seats: tuple[int, ...] | list[int]) -> None:
        winner_seats = [s for s in self.round_players if len(self.families[s]) == max(
            len(self.families[t]) for t in self.round_players)]
        if self.rules.next_dealer == "winner" and len(winner_seats) == 1:
            self.dealer = winner_seats[0]
        else:
            self.dealer = (self.dealer + 1) % len(self.players)
        self.round += 1
        self.round_players = tuple(seats)
        self.turn = None
        self._deal()

    # ----------------------------------------------------------- positions

    def position(self) -> dict[str, Any]:
        """The state-file form: a position a person can read and edit."""
        pos: dict[str, Any] = {
            "deck": self.deck.source,
            "rules": self.rules.profile if PROFILES.get(self.rules.profile) == self.rules else self.rules.to_json(),
            "players": list(self.players),
            "hands": {p: self.hand(p) for p in self.players},
            "families": {p: self.families_of(p) for p in self.players},
            "turn": self.current_player,
            "phase": self.phase,
        }
        if self.stock:
            pos["stock"] = [self._card_ids[c] for c in self.stock]
        if self.centre:
            pos["centre"] = [self._card_ids[c] if c >= 0 else None for c in self.centre]
        if self.pending_flip:
            pos["pending"] = "flip"
        pos["dealer"] = self.players[self.dealer]
        if self.rules.match_target or self.round:
            pos["round"] = self.round + 1
            pos["totals"] = {p: self.totals[s] for s, p in enumerate(self.players)}
        if self.round_players != tuple(range(len(self.players))):
            pos["round_players"] = [self.players[s] for s in self.round_players]
        if self.tiebreak:
            pos["tiebreak"] = True
        if self.last_completer is not None:
            pos["last_completed"] = self.players[self.last_completer]
        if self.over:
            pos["over"] = True
            pos["winners"] = list(self.winners)
        return pos

    @classmethod
    def from_position(cls, pos: dict[str, Any], *, seed: int = 0) -> Game:
        """Build a game from a state file. Every card of the deck must be somewhere."""
        if not isinstance(pos, dict):
            raise PositionError("A state must be a JSON object.")
        for key in ("deck", "rules", "players", "hands", "turn"):
            if key not in pos:
                raise PositionError(f"The state has no {key!r}.")
        try:
            rules = Rules.from_json(pos["rules"])
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        deck = load_deck(str(pos["deck"]), three_generations=rules.three_generations)
        return cls(pos["players"], rules=rules, deck=deck, seed=seed, dealer=pos.get("dealer", pos["players"][-1]),
                   start=pos)

    def _load_position(self, pos: dict[str, Any]) -> None:
        def seat(name: Any) -> int:
            try:
                return self._seat_of(str(name))
            except IllegalAction as exc:
                raise PositionError(exc.message) from None

        def card(cid: Any) -> int:
            if cid not in self._card_index:
                raise PositionError(f"There is no card {cid!r} in the {self.deck.name} deck.")
            return self._card_index[cid]

        placed: dict[int, str] = {}

        def place(c: int, where: str) -> None:
            if c in placed:
                raise PositionError(f"{self._card_ids[c]} is in two places: {placed[c]} and {where}.")
            placed[c] = where

        for name, cards in dict(pos["hands"]).items():
            s = seat(name)
            for cid in cards:
                c = card(cid)
                place(c, f"{name}'s hand")
                self.hands[s] |= 1 << c
        for name, keys in dict(pos.get("families", {})).items():
            s = seat(name)
            for key in keys:
                if key not in self._family_index:
                    raise PositionError(f"There is no family {key!r} in the {self.deck.name} deck.")
                f = self._family_index[key]
                for c in _bits(self._fam_mask[f]):
                    place(c, f"{name}'s families")
                self.families[s].append(f)
                self._complete |= 1 << f
        for cid in pos.get("stock", []):
            c = card(cid)
            place(c, "the stock")
            self.stock.append(c)
        for cid in pos.get("centre", []):
            if cid is None:
                self.centre.append(-1)
            else:
                c = card(cid)
                place(c, "the centre")
                self.centre.append(c)
        missing = [self._card_ids[c] for c in range(len(self._card_ids)) if c not in placed]
        if missing:
            shown = ", ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
            raise PositionError(f"{len(missing)} cards are nowhere in the state: {shown}.")
        phase = pos.get("phase", "cards")
        if phase not in ("cards", "families"):
            raise PositionError("phase must be 'cards' or 'families'.")
        self.phase = phase
        if "round_players" in pos:
            self.round_players = tuple(sorted(seat(p) for p in pos["round_players"]))
        for name, total in dict(pos.get("totals", {})).items():
            self.totals[seat(name)] = int(total)
        self.round = max(0, int(pos.get("round", 1)) - 1)
        self.tiebreak = bool(pos.get("tiebreak", False))
        if pos.get("last_completed") is not None:
            self.last_completer = seat(pos["last_completed"])
        if pos.get("over"):
            self.over = True
            self.winners = [self.players[seat(p)] for p in pos.get("winners", [])]
            return
        if pos["turn"] is None:
            raise PositionError("The state has no turn but the game is not over.")
        self.turn = seat(pos["turn"])
        self.pending_flip = pos.get("pending") == "flip"
        if self.pending_flip and not any(c >= 0 for c in self.centre):
            raise PositionError("A pending flip needs face-down centre cards.")
        if self.phase == "families" and self._complete != self._all_families:
            raise PositionError("The families phase starts only when every family is complete.")
        if self.phase == "cards":
            for s in range(len(self.players)):
                for f in range(self._nf):
                    fm = self._fam_mask[f]
                    if self.hands[s] & fm == fm:
                        raise PositionError(
                            f"{self.players[s]} holds the whole {self.deck.families[f].name(form='surname')} family:"
                            " put them in their families."
                        )

    # ---------------------------------------------------------- saved games

    def to_json(self) -> dict[str, Any]:
        """Everything needed to replay this game exactly: set-up plus the action list."""
        return {
            "format": GAME_FORMAT,
            "deck": self.deck.source,
            "rules": self.rules.to_json(),
            "players": list(self.players),
            "seed": self.seed,
            "dealer": self.players[self._dealer0],
            "start": self._start,
            "actions": [a.to_json() for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            raise PositionError(f"This is not a saved voicegame game (format {GAME_FORMAT}).")
        try:
            if data.get("start") is not None:
                game = cls.from_position(data["start"], seed=int(data.get("seed", 0)))
            else:
                rules = Rules.from_json(data["rules"])
                game = cls(data["players"], rules=rules,
                           deck=load_deck(data["deck"], three_generations=rules.three_generations),
                           seed=int(data["seed"]), dealer=data.get("dealer"))
            for i, a in enumerate(data.get("actions", [])):
                try:
                    game.apply(action_from_json(a))
                except IllegalAction as exc:
                    raise PositionError(f"Saved action {i + 1} cannot be replayed: {exc.message}") from None
        except (KeyError, TypeError) as exc:
            raise PositionError(f"The saved game is incomplete ({exc}).") from None
        return game


class Observation:
    """What one player may know: their own hand and public information, never another hand.

    A live view of the game: bots keep one and read it each turn.
    """

    __slots__ = ("_g", "seat", "player")

    def __init__(self, game: Game, seat: int) -> None:
        self._g = game
        self.seat = seat
        self.player = game.players[seat]

    @property
    def deck(self) -> Deck:
        return self._g.deck

    @property
    def card_ids(self) -> list[str]:
        """Card ids by card index (bit position in ``hand_mask``)."""
        return self._g._card_ids

    @property
    def rules(self) -> Rules:
        return self._g.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self._g.players

    @property
    def hand_mask(self) -> int:
        return self._g.hands[self.seat]

    @property
    def hand(self) -> list[str]:
        return self._g.hand(self.player)

    def hand_size(self, seat: int) -> int:
        return self._g.hands[seat].bit_count()

    def family_owner(self, f: int) -> int | None:
        for s, fams in enumerate(self._g.families):
            if f in fams:
                return s
        return None

    def families_of(self, seat: int) -> list[int]:
        return list(self._g.families[seat])

    @property
    def complete_mask(self) -> int:
        return self._g._complete

    @property
    def log(self) -> list[dict[str, Any]]:
        return self._g.log

    @property
    def my_turn(self) -> bool:
        return self._g.turn == self.seat and not self._g.over

    @property
    def phase(self) -> str:
        return "flip" if self._g.pending_flip else self._g.phase

    @property
    def stock_size(self) -> int:
        return len(self._g.stock)

    @property
    def centre_slots(self) -> list[int]:
        """Slots that still hold a face-down centre card."""
        return [i for i, c in enumerate(self._g.centre) if c >= 0]

    def legal_targets(self) -> list[str]:
        g = self._g
        me = self.seat
        players = g.players
        held = g.families if g.phase == "families" else g.hands
        return [players[t] for t in g.round_players if t != me and held[t]]

    def askable_mask(self) -> int:
        """Cards this player may ask for: the missing members of families in their hand."""
        g = self._g
        hand = g.hands[self.seat]
        seen = hand
        for k in g._shifts:
            seen |= hand >> k
        # One bit per family held, at its lowest card; multiplying spreads it over the family.
        mask = (seen & g._lows) * g._spread
        return mask if g._bluff else mask & ~hand

    def legal_requests(self) -> list[dict[str, str]]:
        """The things that may be asked for, each as {"card": id} or {"family": key}."""
        g = self._g
        if g.phase == "families":
            mine = set(g.families[self.seat])
            return [{"family": g._family_keys[f]} for f in range(g._nf) if g.rules.bluff or f not in mine]
        out = [{"card": g._card_ids[c]} for c in _bits(self.askable_mask())]
        if g.rules.ask_by_surname:
            hand = g.hands[self.seat]
            out += [{"family": g._family_keys[f]} for f, fm in enumerate(g._fam_mask) if hand & fm]
        return out

    def legal_actions(self) -> list[Action]:
        if not self.my_turn:
            return []
        if self._g.pending_flip:
            return [Flip(i) for i in self.centre_slots] + [Pass()]
        targets = self.legal_targets()
        return [Ask(t, **req) for req in self.legal_requests() for t in targets]
