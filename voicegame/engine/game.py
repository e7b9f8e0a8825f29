"""The rules engine: one game of Happy Families, pure (no I/O, no clock, no printing).

A game is rules + deck + seated players (clockwise in the order given) + seed + the list of
actions applied. Dealing is deterministic from the seed, so the action list replays to the
identical state; undo replays all but the last action.

This is where "Not at home" is decided: ``Game._ask_card``.

Hands are bit masks over the deck's card indices (family ``f`` of size ``m`` owns bits
``f*m .. f*m+m-1``), which keeps legality checks and transfers to a few integer operations.
Events are plain dicts with a "type", ready for JSON and narration.

Every public call (a deal, ``apply``, ``undo``, loading a position) leaves the game either over or
with a player to move who has at least one legal action; ``Game._settle`` keeps that promise.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Callable, Iterable

from voicegame import names_list
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


class _DeckTables:
    """What the engine needs from a deck, built once per deck and shared by all of its games:
    building these for every game was a fifth of the cost of dealing one."""

    __slots__ = ("deck", "m", "nf", "card_ids", "card_index", "family_keys", "family_index", "fam_mask",
                 "all_families", "lows", "spread", "fam_low", "fam_top", "bit", "shuffle_steps", "asks")

    def __init__(self, deck: Deck) -> None:
        m = deck.family_size
        nf = len(deck.families)
        cards = deck.cards
        self.deck = deck
        self.m = m
        self.nf = nf
        self.card_ids = tuple(c.id for c in cards)
        self.card_index = {c.id: c.index for c in cards}
        self.family_keys = tuple(f.key for f in deck.families)
        self.family_index = {f.key: f.index for f in deck.families}
        self.fam_mask = tuple(((1 << m) - 1) << (f * m) for f in range(nf))
        self.all_families = (1 << nf) - 1
        self.lows = sum(1 << (f * m) for f in range(nf))  # lowest bit of each family
        self.spread = (1 << m) - 1
        self.fam_low = sum(((1 << (m - 1)) - 1) << (f * m) for f in range(nf))  # all but each family's top bit
        self.fam_top = sum(1 << (f * m + m - 1) for f in range(nf))  # each family's top bit
        self.bit = tuple(1 << c for c in range(len(cards)))
        # (index, bound, bit count) of each step of random.shuffle over the cards: see Game._shuffled.
        self.shuffle_steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(cards) - 1, 0, -1))
        self.asks: dict[tuple[str, ...], tuple[tuple[Ask, ...], ...]] = {}


_TABLES: dict[int, _DeckTables] = {}
# (number of seats, seats holding cards) -> for each seat, the others it may ask: see Game._targets_of.
_TARGETS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}


def _tables_for(deck: Deck) -> _DeckTables:
    tables = _TABLES.get(id(deck))
    if tables is None or tables.deck is not deck:
        if len(_TABLES) >= 32:  # a user's pack file makes a new Deck each time it is loaded
            _TABLES.clear()
        tables = _TABLES[id(deck)] = _DeckTables(deck)
    return tables


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
        if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
            raise PositionError('The players must be a list of names, such as ["Alice", "Ben"].')
        players = tuple(players)
        if not 2 <= len(players) <= 12:
            raise PositionError("A game needs between 2 and 12 players.")
        if len(set(p.casefold() for p in players)) != len(players) or any(not p.strip() for p in players):
            raise PositionError("Every player needs a different, non-empty name.")
        self.rules = rules
        self.deck = deck or load_deck(rules.deck, three_generations=rules.three_generations)
        if rules.three_generations and len(self.deck.members) < 6:
            raise PositionError(f"The {self.deck.name} deck has no Grandpa and Grandma for families of 6.")
        n_cards = len(self.deck.cards)
        if rules.centre_cards > n_cards - len(players):
            raise PositionError(
                f"{rules.centre_cards} centre cards leave too few of the {n_cards} cards to deal"
                f" every one of the {len(players)} players a card."
            )
        most = (n_cards - rules.centre_cards - 1) // len(players)  # each, with a card left for the stock
        if rules.stock > most:
            raise PositionError(
                f"Dealing {rules.stock} cards to each of {len(players)} players leaves no stock from the {n_cards}"
                f" cards: deal at most {most} each, or play with stock 0 (no stock)."
            )
        self.players = players
        self.seed = seed
        self._seat = {name: i for i, name in enumerate(players)}
        self._seat_folded = {name.casefold(): i for i, name in enumerate(players)}
        t = self._t = _tables_for(self.deck)
        self._m = t.m
        self._nf = t.nf
        self._fam_mask = t.fam_mask
        self._all_families = t.all_families
        self._card_index = t.card_index
        self._card_ids = t.card_ids
        self._family_index = t.family_index
        self._family_keys = t.family_keys
        self._lows = t.lows
        self._spread = t.spread
        self._fam_low = t.fam_low
        self._fam_top = t.fam_top
        self._asks: tuple[tuple[Ask, ...], ...] | None = None  # see _ask_table
        self._bluff = rules.bluff
        self._penalty = rules.politeness_penalty
        self._surname = rules.ask_by_surname
        self._miss_to_asked = rules.after_miss == "asked"
        self._face_down = rules.families_face_down
        # A loaded position (our own copy: undo rebuilds from it), or None when dealt from the seed.
        self._start = None if start is None else copy.deepcopy(start)
        self._dealer0 = self._seat_in_setup(dealer) if dealer is not None else len(players) - 1
        self.actions: list[Action] = []
        self._reset()

    # ------------------------------------------------------------------ set-up

    def _seat_of(self, name: str) -> int:
        seat = self._seat.get(name)
        if seat is None:
            seat = self._seat_folded.get(str(name).casefold())
        if seat is None:
            raise IllegalAction(
                "unknown_player", f"There is no player called {name}. The players are {names_list(list(self.players))}."
            )
        return seat

    def _seat_in_setup(self, name: Any) -> int:
        """The seat of a player named by a state file or the set-up: a name that is not a player's is a
        bad position, not a refused action."""
        try:
            return self._seat_of(str(name))
        except IllegalAction as exc:
            raise PositionError(exc.message) from None

    def _reset(self) -> None:
        n = len(self.players)
        self.log: list[dict[str, Any]] = []
        self.hands = [0] * n
        self.families: list[list[int]] = [[] for _ in range(n)]
        self._complete = 0
        self._unnamed = 0  # families laid face down without being named (families_face_down): see Observation
        self.stock: list[int] = []
        self.centre: list[int] = []
        self._seen = 0  # centre slots turned over and put back: their cards are public
        # The seat to move and its name, None when the game is over; current_player is a plain attribute,
        # set with every change of turn, because a table loop reads it before every action.
        self.turn: int | None = None
        self.current_player: str | None = None
        self.phase = "cards"
        self.pending_flip = False
        self._flip_after: int | None = None  # who said "Not at home" before the pending flip; None: nobody to ask
        self._waiting = 0  # seats holding a dealt family to lay out at their first turn (lay_out_dealt_families off)
        self._extras = False  # stock, centre cards or _waiting: the turn needs _settle after every change
        self._targets: tuple[tuple[int, ...], ...] | None = None  # see _targets_of
        self._vetted: tuple[Ask, int, int] | None = None  # see Observation.random_ask
        self.round = 0
        self.totals = [0] * n
        self.round_players: tuple[int, ...] = tuple(range(n))
        self.tiebreak = False
        self._sudden = 0  # sudden-death rounds dealt so far
        self.dealer = self._dealer0
        self.last_completer: int | None = None
        self.over = False
        self.winners: list[str] = []
        if self._start is None:
            self._deal()
        else:
            self._load_position(self._start)

    def _shuffled(self, seed: int) -> list[int]:
        """The card indices in the order ``random.Random(seed).shuffle`` gives in CPython 3.11, written
        out: it saves a method call per card, and deals cannot change with the Python version."""
        getrandbits = random.Random(seed).getrandbits
        order = list(range(len(self._card_ids)))
        for i, bound, k in self._t.shuffle_steps:
            j = getrandbits(k)
            while j >= bound:
                j = getrandbits(k)
            order[i], order[j] = order[j], order[i]
        return order

    def _deal(self) -> None:
        """Shuffle from (seed, round) and deal; lay out complete families (or keep them for their owner's
        first turn); pick who starts."""
        rules = self.rules
        order = self._shuffled(self.seed * 1_000_003 + self.round)
        seats = self.round_players
        n = len(self.players)
        self.hands = hands = [0] * n
        self.families = [[] for _ in range(n)]
        self._complete = 0
        self._unnamed = 0
        self._seen = 0
        self._waiting = 0
        self._targets = None
        self._flip_after = None
        self.centre = order[: rules.centre_cards]
        rest = order[rules.centre_cards :]
        k = len(seats)
        d = seats.index(self.dealer)
        first = (d + 1) % k if rules.dealer_gets_fewest else d
        deal_order = seats[first:] + seats[:first]
        if rules.stock:
            dealt = rest[: rules.stock * k]
            self.stock = rest[rules.stock * k :]
        else:
            dealt = rest
            self.stock = []
        bit = self._t.bit.__getitem__
        for j, s in enumerate(deal_order):  # one card at a time round the table: seat j gets every k-th
            hands[s] = sum(map(bit, dealt[j::k]))
        players = self.players
        deal = {
            "type": "deal",
            "round": self.round + 1,
            "dealer": players[self.dealer],
            "players": [players[s] for s in seats],
            "hand_sizes": {players[s]: hands[s].bit_count() for s in seats},
            "stock": len(self.stock),
            "centre": len(self.centre),
        }
        if self.tiebreak:
            deal["sudden_death"] = self._sudden  # the first sudden-death round is 1
        self.log.append(deal)
        for s in deal_order:
            if self._whole_families(hands[s]):
                if rules.lay_out_dealt_families:
                    self._lay_out(s, dealt=True)
                else:
                    self._waiting |= 1 << s
        self._extras = bool(self.stock or self.centre or self._waiting)
        start = seats[d] if rules.first_player == "dealer" else seats[(d + 1) % k]
        self.turn = self.current_player = None
        self.phase = "cards"
        self.pending_flip = False
        if self._check_round_end():
            return
        if self._can_act(start):
            self._set_turn(start)
        else:
            self.turn, self.current_player = start, players[start]
            self._pass_turn_from(start)
        self._settle()

    # --------------------------------------------------------------- queries

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

    def _targets_of(self, s: int) -> tuple[int, ...]:
        """The seats ``s`` may ask: the others in the round who hold cards (families, in the second phase).

        Kept for every seat and rebuilt only after a hand or family list empties or refills, or the phase
        changes (whatever does that sets ``_targets`` to None), so asking costs no scan of the table.
        """
        targets = self._targets
        if targets is None:
            held = self.families if self.phase == "families" else self.hands
            key = (len(self.players), tuple([t for t in self.round_players if held[t]]))
            targets = _TARGETS.get(key)
            if targets is None:
                if len(_TARGETS) >= 4096:
                    _TARGETS.clear()
                live = key[1]
                targets = _TARGETS[key] = tuple(tuple([t for t in live if t != s]) for s in range(key[0]))
            self._targets = targets
        return targets[s]

    def _whole_families(self, hand: int) -> int:
        """One bit, at its top card, for each family complete in ``hand``: adding 1 to a family's other
        bits carries into its top bit only when they are all set."""
        return ((hand & self._fam_low) + self._lows) & hand & self._fam_top

    def _flip_slots(self) -> list[int]:
        """Face-down centre slots the player to move may turn over.

        When nobody is left to ask, a slot already seen to hold a card of a family not in hand is left out:
        turning it again would change nothing, and the round could go on for ever. Then every flip either
        keeps a card or rules a slot out, and the families in hand only shrink, so the round ends.
        """
        centre = self.centre
        slots = [i for i, c in enumerate(centre) if c >= 0]
        if self._flip_after is None and self._seen:
            hand = self.hands[self.turn]
            fm, m, seen = self._fam_mask, self._m, self._seen
            slots = [i for i in slots if not seen >> i & 1 or hand & fm[centre[i] // m]]
        return slots

    def _ask_table(self) -> tuple[tuple[Ask, ...], ...]:
        """``Ask(player, card)`` for every (target seat, card index), shared by all games with these players
        and this deck: actions are immutable, and making them was a large part of a random bot's turn."""
        asks = self._t.asks.get(self.players)
        if asks is None:
            if len(self._t.asks) >= 64:
                self._t.asks.clear()
            ids = self._card_ids
            asks = self._t.asks[self.players] = tuple(tuple(Ask(p, cid) for cid in ids) for p in self.players)
        self._asks = asks
        return asks

    # --------------------------------------------------------------- actions

    def apply(self, action: Action | dict[str, Any]) -> list[dict[str, Any]]:
        """Apply an action for the current player; return the events it caused.

        Raises IllegalAction (and changes nothing) when the action breaks a rule.
        """
        vetted, self._vetted = self._vetted, None
        start = len(self.log)
        kind = type(action)
        if kind is dict:
            action = action_from_json(action)
            kind = type(action)
        if kind is Ask:
            # A request random_ask has just checked against this very state is not checked again.
            self._ask_card(action, vetted if vetted is not None and vetted[0] is action else None)
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
            raise IllegalAction("wrong_phase", "There is nothing to undo.", "nothing_to_undo")
        undone = self.actions[-steps:]
        self._replay(self.actions[:-steps])
        return undone

    def _replay(self, actions: list[Action]) -> None:
        self.actions = []
        self._reset()
        for a in actions:
            self.apply(a)

    def _ask_card(self, action: Ask, vetted: tuple[Ask, int, int] | None = None) -> None:
        """Check a request (unless ``vetted``: see Observation.random_ask) and answer a request for one
        card: hand it over, or "Not at home". Whole-family requests are answered by their own methods."""
        asker = self.turn
        if vetted is not None:
            _, target, card = vetted
        else:
            if asker is None:  # (the game is over)
                raise IllegalAction("wrong_phase", "The game is over. Start a new game to play again.", "game_over")
            if action.by is not None:
                by = self._seat_of(action.by)
                if by != asker:
                    raise IllegalAction(
                        "not_your_turn", f"It is {self.players[asker]}'s turn, not {self.players[by]}'s. Please wait."
                    )
            if self.pending_flip:
                raise IllegalAction(
                    "wrong_phase", f"{self.players[asker]}, turn over a centre card or pass before asking again.",
                    "flip_first")
            target = self._seat.get(action.target)
            if target is None:
                target = self._seat_of(action.target)
            if target == asker:
                raise IllegalAction("self", "You cannot ask yourself. Ask another player.")
            if target not in self.round_players:
                raise IllegalAction("target_empty", f"{self.players[target]} is not playing this round.", "not_in_round")
            if self.phase == "families":
                if action.family is None:
                    self._refuse_card_in_families_phase(asker, action.card)
                self._ask_family_phase2(asker, target, action)
                return
            if action.card is None:
                if not self._surname:
                    example = self.deck.cards[next(_bits(self.observation(self.players[asker]).askable_mask()), 0)]
                    raise IllegalAction("wrong_phase", f"Ask for one card by name, such as {example.name(form='short')}.",
                                        "one_card", example.id)
                self._ask_surname(asker, target, action)
                return
            card = self._card_index.get(action.card)
            if card is None:
                raise IllegalAction("unknown_card", f"There is no card {action.card} in the {self.deck.name} deck.")
            f = card // self._m
            hands = self.hands
            if not hands[target] or self._complete >> f & 1 or not hands[asker] & self._fam_mask[f]:
                self._check_target_and_family(asker, target, f)
            if hands[asker] >> card & 1 and not self._bluff:
                raise IllegalAction("own_card", f"You already hold {self.deck.cards[card].name(form='short')}.")
        cid = self._card_ids[card]
        log = self.log
        players = self.players
        log.append({"type": "ask", "player": players[asker], "target": players[target], "card": cid,
                    "polite": action.polite})
        if self._penalty and not action.polite:
            self._penalise(asker, target)
            return
        hands = self.hands
        bit = 1 << card
        if hands[target] & bit:
            hands[target] ^= bit
            hands[asker] |= bit
            log.append({"type": "transfer", "from": players[target], "to": players[asker], "cards": [cid]})
            # Usually the asker just asks again; anything more is _after_success's.
            f = card // self._m
            fm = self._fam_mask[f]
            if hands[asker] & fm == fm or not hands[target] or self._extras:
                self._after_success(asker, target, f)
        else:
            log.append({"type": "not_at_home", "player": players[target], "asker": players[asker], "card": cid})
            if self._extras:
                self._after_miss(asker, target)
            elif self._miss_to_asked:
                # The asked player has cards, and so does the asker: the new turn always has a request.
                self.turn, self.current_player = target, players[target]
                log.append({"type": "turn", "player": players[target]})
            else:
                self._pass_turn_from(asker)

    def _refuse_card_in_families_phase(self, asker: int, cid: str | None) -> None:
        """Refuse a request for one card in the second phase, saying how to ask for its whole family, or,
        when the asker holds that family already, saying so and naming one they may ask for."""
        mine = self.families[asker]
        card = self._card_index.get(cid)
        owned = card is not None and card // self._m in mine and not self._bluff
        if card is None or owned:
            example = self.deck.families[next(f for f in range(self._nf) if f not in mine)].cards[0]
        else:
            example = self.deck.cards[card]
        hint = (f"Every family is complete: now ask for a whole family{' you do not hold' if owned else ''},"
                f" such as: is {example.name(form='short')} and family at home?")
        if owned:
            family = self.deck.families[card // self._m].name(form="surname")
            raise IllegalAction("own_card", f"You already hold the {family} family. {hint}", "own_family")
        raise IllegalAction("wrong_phase", hint, "whole_family")

    def _check_target_and_family(self, asker: int, target: int, f: int) -> None:
        if not self.hands[target]:
            raise IllegalAction("target_empty", f"{self.players[target]} has no cards left. Ask someone else.")
        family = self.deck.families[f]
        # A family laid face down from the deal is not named to others: for them it is one they hold no card of.
        if self._complete >> f & 1 and not (self._unnamed >> f & 1 and f not in self.families[asker]):
            raise IllegalAction("family_complete", f"The {family.name(form='surname')} family is already complete.")
        if not self.hands[asker] & self._fam_mask[f]:
            raise IllegalAction("family_not_held",
                                f"You hold no {family.name(form='surname')} card, so you cannot ask for one.")

    def _ask_surname(self, asker: int, target: int, action: Ask) -> None:
        f = self._family_index.get(action.family)
        if f is None:
            raise IllegalAction("unknown_card", f"There is no family {action.family} in the {self.deck.name} deck.")
        self._check_target_and_family(asker, target, f)
        log = self.log
        log.append({"type": "ask", "player": self.players[asker], "target": self.players[target],
                    "family": action.family, "polite": action.polite})
        if self._penalty and not action.polite:
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
            raise IllegalAction("target_empty", f"{self.players[target]} has no families left. Ask someone else.",
                                "no_families")
        surname = self.deck.families[f].name(form="surname")
        if f in self.families[asker] and not self._bluff:
            raise IllegalAction("own_card", f"You already hold the {surname} family.")
        log = self.log
        log.append({"type": "ask", "player": self.players[asker], "target": self.players[target],
                    "family": action.family, "polite": action.polite})
        if self._penalty and not action.polite:
            self._penalise(asker, target)
            return
        if f in self.families[target]:
            self.families[target].remove(f)
            self.families[asker].append(f)
            log.append({"type": "transfer", "from": self.players[target], "to": self.players[asker],
                        "family": action.family})
            if not self.families[target]:
                self._targets = None
                log.append({"type": "player_out", "player": self.players[target], "lost": "families"})
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
        self._settle()

    def _after_success(self, asker: int, target: int, f: int) -> None:
        hands = self.hands
        fm = self._fam_mask[f]
        if hands[asker] & fm == fm:
            self._complete_family(asker, f)
            if self._check_round_end():
                return
        if not hands[target]:
            self._targets = None
            self._log_if_out(target)
        if not hands[asker] and not self.stock:  # their last cards made a family: said, as for the asked player
            self._log_if_out(asker)
            self._pass_turn_from(asker)
        if self._extras:
            self._settle()

    def _log_if_out(self, s: int) -> None:
        """Say that seat ``s`` has no cards left, when that is so and no stock can give them more."""
        if not self.hands[s] and not self.stock:
            self.log.append({"type": "player_out", "player": self.players[s]})

    def _after_miss(self, asker: int, target: int) -> None:
        if self.phase == "cards":
            if self.stock:
                self._draw(asker)
                if self._check_round_end():
                    return
                self._log_if_out(asker)  # the last card drawn made a family of their last cards
            if any(c >= 0 for c in self.centre):
                self.pending_flip = True
                self._flip_after = target
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
        if not self.stock:
            self._extras = bool(self.centre or self._waiting)
        hands = self.hands
        if not hands[s]:
            self._targets = None
        hands[s] |= 1 << card
        self.log.append({"type": "draw", "player": self.players[s], "stock": len(self.stock)})
        f = card // self._m
        fm = self._fam_mask[f]
        if hands[s] & fm == fm:
            self._complete_family(s, f, drawn=True)

    def _flip(self, slot: int) -> None:
        if self.over or not self.pending_flip:
            raise IllegalAction("wrong_phase", "You can turn over a centre card only after a failed request.",
                                "flip_after_miss")
        # Slots count from 0; players count centre cards from 1, and the refusal says their number.
        if not 0 <= slot < len(self.centre) or self.centre[slot] < 0:
            raise IllegalAction("bad_action", f"There is no face-down centre card number {slot + 1}.")
        if slot not in self._flip_slots():
            raise IllegalAction("bad_action", f"Centre card {slot + 1} was turned over before and cannot help you."
                                              " Turn over another one, or pass.")
        s = self.turn
        card = self.centre[slot]
        f = card // self._m
        kept = bool(self.hands[s] & self._fam_mask[f])
        self.log.append({"type": "flip", "player": self.players[s], "slot": slot, "card": self._card_ids[card],
                         "kept": kept})
        self.pending_flip = False
        asked, self._flip_after = self._flip_after, None
        if kept:
            self.centre[slot] = -1
            self._seen &= ~(1 << slot)
            self.hands[s] |= 1 << card
            if self.hands[s] & self._fam_mask[f] == self._fam_mask[f]:
                self._complete_family(s, f)
            if self._check_round_end():
                return
            self._log_if_out(s)
        else:
            self._seen |= 1 << slot
        if asked is None:  # the flip was offered because nobody was left to ask: look at this player again
            self._settle()
        else:
            self._turn_after_miss(s, asked)

    def _decline_flip(self) -> None:
        if self.over or not self.pending_flip:
            raise IllegalAction("wrong_phase", "There is nothing to pass on now.", "nothing_to_pass")
        self.pending_flip = False
        asked, self._flip_after = self._flip_after, None
        if asked is None:
            # Nobody is left to ask and the player declines to turn a card: nothing more can happen.
            self._round_over()
        else:
            self._turn_after_miss(self.turn, asked)

    # ------------------------------------------------------------ turn flow

    def _set_turn(self, s: int) -> None:
        if s != self.turn:
            self.turn, self.current_player = s, self.players[s]
            self.log.append({"type": "turn", "player": self.players[s]})

    def _pass_turn_from(self, s: int) -> None:
        nxt = self._next_clockwise(s)
        if nxt is None:
            self._round_over()
        else:
            self._set_turn(nxt)

    def _settle(self) -> None:
        """Make sure the player to move can do something: lay out the families dealt to them (first turn,
        with lay_out_dealt_families off), draw for an empty hand, pass on a turn that cannot be played
        (the round ends when nobody can play), draw or turn over a centre card when nobody is left to ask.

        Every pass of the loop returns, lays out a family, draws a card or moves the turn to a player who
        holds cards (or ends the round), so it ends.
        """
        while not self.over and self.turn is not None and not self.pending_flip:
            s = self.turn
            if self.phase == "families":
                if not self.families[s]:
                    self._pass_turn_from(s)
                    continue
                return
            if self._waiting >> s & 1:
                self._waiting &= ~(1 << s)
                self._extras = bool(self.stock or self.centre or self._waiting)
                self._lay_out(s, dealt=True)
                if self._check_round_end():
                    return
                continue
            if not self.hands[s]:
                if self.stock:
                    self._draw(s)
                    if self._check_round_end():
                        return
                else:
                    self._pass_turn_from(s)
                continue
            if self._targets_of(s):
                return
            # Nobody to ask.
            if self.stock:
                self._draw(s)
                if self._check_round_end():
                    return
                self._pass_turn_from(s)
                continue
            # No stock and nobody else holds cards: the missing members of this player's families all lie
            # face down in the centre, so they turn cards over (see _flip_slots for why that ends).
            self.pending_flip = True
            self._flip_after = None
            return

    def _lay_out(self, s: int, dealt: bool) -> None:
        for top in _bits(self._whole_families(self.hands[s])):
            self._complete_family(s, top // self._m, dealt=dealt)

    def _complete_family(self, s: int, f: int, dealt: bool = False, drawn: bool = False) -> None:
        self.hands[s] &= ~self._fam_mask[f]
        if not self.hands[s]:
            self._targets = None
        self.families[s].append(f)
        self._complete |= 1 << f
        self.last_completer = s
        if (dealt or drawn) and self._face_down:
            # 003: a family complete in the dealt hand "should be placed face downwards on the table". Nobody
            # else has seen all of its cards (nor a card drawn from the stock), so the log (which is public)
            # does not say which family it is.
            self._unnamed |= 1 << f
            self.log.append({"type": "family_complete", "player": self.players[s], "families": len(self.families[s]),
                             "dealt": dealt, "drawn": drawn, "face_down": True})
            return
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
            self._targets = None
            event = {"type": "phase", "phase": "families", "player": self.players[self.last_completer]}
            if self._face_down:
                event["face_down"] = True
            self.log.append(event)
            if len(owners) == 1:
                self._round_over()
                return True
            self.turn = self.current_player = None
            self._set_turn(self.last_completer)
            return True
        self._round_over()
        return True

    def _round_over(self) -> None:
        seats = self.round_players
        if self.tiebreak:
            # A sudden-death round ended with no family completed (possible only with centre cards, when
            # the last player holding cards passes): the tied players are still tied, so they play another.
            self._decide(list(seats))
            return
        scores = {self.players[s]: len(self.families[s]) for s in seats}
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
            event = {"type": "tiebreak", "players": [self.players[s] for s in leaders]}
            if self.tiebreak:
                event["again"] = True  # a sudden-death round left them tied
            self.log.append(event)
            self.tiebreak = True
            self._sudden += 1
            self._next_round(tuple(leaders))
            return
        self.over = True
        self.turn = self.current_player = None
        self.pending_flip = False
        self.winners = [self.players[s] for s in leaders]
        self.log.append({"type": "game_over", "winners": self.winners, "scores": self.scores(),
                         **({"totals": {p: self.totals[s] for s, p in enumerate(self.players)}}
                            if self.rules.match_target else {}),
                         # Decided by a sudden-death round: the scores are that round's, the totals still tied.
                         **({"tiebreak": True} if self.tiebreak else {})})

    def _next_round(self, seats: tuple[int, ...] | list[int]) -> None:
        """Deal the next round to ``seats``. The deal moves clockwise (or to the round's single winner);
        a tie-break round is dealt by the first of its own players from there."""
        best = max(len(self.families[t]) for t in self.round_players)
        winner_seats = [s for s in self.round_players if len(self.families[s]) == best]
        n = len(self.players)
        if self.rules.next_dealer == "winner" and len(winner_seats) == 1:
            dealer = winner_seats[0]
        else:
            dealer = (self.dealer + 1) % n
        while dealer not in seats:
            dealer = (dealer + 1) % n
        self.dealer = dealer
        self.round += 1
        self.round_players = tuple(seats)
        self.turn = self.current_player = None
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
        if self._seen:
            pos["centre_seen"] = list(_bits(self._seen))
        if self.pending_flip:
            pos["pending"] = "flip"
            if self._flip_after is not None:
                pos["asked"] = self.players[self._flip_after]
        pos["dealer"] = self.players[self.dealer]
        if self.rules.match_target or self.round:
            pos["round"] = self.round + 1
            pos["totals"] = {p: self.totals[s] for s, p in enumerate(self.players)}
        if self.round_players != tuple(range(len(self.players))):
            pos["round_players"] = [self.players[s] for s in self.round_players]
        if self.tiebreak:
            pos["tiebreak"] = True
            pos["sudden_death"] = self._sudden
        if self.rules.match_target or self.tiebreak:  # later rounds are dealt from (seed, round)
            pos["seed"] = self.seed
        if self.last_completer is not None:
            pos["last_completed"] = self.players[self.last_completer]
        if self._unnamed:
            pos["unnamed_families"] = [self._family_keys[f] for f in _bits(self._unnamed)]
        if self.over:
            pos["over"] = True
            pos["winners"] = list(self.winners)
        return pos

    @classmethod
    def from_position(cls, pos: dict[str, Any], *, seed: int = 0) -> Game:
        """Build a game from a state file. Every card of the deck must be somewhere, and the player to
        move must be able to act."""
        if not isinstance(pos, dict):
            raise PositionError("A state must be a JSON object.")
        for key in ("deck", "rules", "players", "hands", "turn"):
            if key not in pos:
                raise PositionError(f"The state has no {key!r}.")
        if not isinstance(pos["rules"], (str, dict)):
            raise PositionError('rules must be the name of a profile, such as "guide", or an object of rules,'
                                ' such as {"profile": "guide", "stock": 5}.')
        try:
            rules = Rules.from_json(pos["rules"])
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        if not isinstance(pos["deck"], str):
            raise PositionError('deck must be the name of a deck, such as "jaques", or the path of a pack file.')
        deck = load_deck(pos["deck"], three_generations=rules.three_generations)
        seed = pos.get("seed", seed)  # a match's: its later rounds are dealt from it
        if type(seed) is not int:
            raise PositionError(f"seed must be a whole number, not {seed!r}.")
        return cls(pos["players"], rules=rules, deck=deck, seed=seed, dealer=pos.get("dealer"), start=pos)

    def _load_position(self, pos: dict[str, Any]) -> None:
        """Read a state file, checking the kind of every field as well as its sense, so that a mistake is
        one sentence saying which field to fix."""
        seat = self._seat_in_setup

        def card(cid: Any) -> int:
            if not isinstance(cid, str) or cid not in self._card_index:
                raise PositionError(f"There is no card {cid!r} in the {self.deck.name} deck.")
            return self._card_index[cid]

        def listed(value: Any, what: str, example: str) -> list[Any]:
            if not isinstance(value, list):
                raise PositionError(f"{what} must be a list, such as {example}, not {value!r}.")
            return value

        def by_player(key: str, what: str, example: str) -> dict[str, Any]:
            value = pos.get(key, {})
            if not isinstance(value, dict):
                raise PositionError(f"{key} must list each player's {what} by name, such as {example}, not {value!r}.")
            return value

        def whole_number(value: Any, least: int) -> bool:
            return isinstance(value, int) and not isinstance(value, bool) and value >= least

        for key in ("tiebreak", "over"):
            if not isinstance(pos.get(key, False), bool):
                raise PositionError(f"{key} must be true or false, not {pos[key]!r}.")
        if pos.get("pending") not in (None, "flip"):
            raise PositionError(f'pending can only be "flip", when a centre card may be turned over,'
                                f' not {pos["pending"]!r}.')

        placed: dict[int, str] = {}

        def place(c: int, where: str) -> None:
            if c in placed:
                raise PositionError(f"{self._card_ids[c]} is in two places: {placed[c]} and {where}.")
            placed[c] = where

        for name, cards in by_player("hands", "cards", '{"Alice": ["bun:mr", "bun:mrs"]}').items():
            s = seat(name)
            for cid in listed(cards, f"{name}'s hand", '["bun:mr", "bun:mrs"]'):
                c = card(cid)
                place(c, f"{name}'s hand")
                self.hands[s] |= 1 << c
        for name, keys in by_player("families", "families", '{"Alice": ["bun", "dose"]}').items():
            s = seat(name)
            for key in listed(keys, f"{name}'s families", '["bun", "dose"]'):
                if not isinstance(key, str) or key not in self._family_index:
                    raise PositionError(f"There is no family {key!r} in the {self.deck.name} deck.")
                f = self._family_index[key]
                for c in _bits(self._fam_mask[f]):
                    place(c, f"{name}'s families")
                self.families[s].append(f)
                self._complete |= 1 << f
        for cid in listed(pos.get("stock", []), "stock", '["bun:mr", "dose:miss"]'):
            c = card(cid)
            place(c, "the stock")
            self.stock.append(c)
        for cid in listed(pos.get("centre", []), "centre", '["bun:mr", null]'):
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
        for slot in listed(pos.get("centre_seen", []), "centre_seen", "[0, 2]"):
            if not whole_number(slot, 0) or not 0 <= slot < len(self.centre) or self.centre[slot] < 0:
                raise PositionError(f"centre_seen names {slot!r}, which is not a face-down centre card.")
            self._seen |= 1 << slot
        for key in listed(pos.get("unnamed_families", []), "unnamed_families", '["bun"]'):
            f = self._family_index.get(key) if isinstance(key, str) else None
            if f is None or not self._complete >> f & 1:
                raise PositionError(f"unnamed_families names {key!r}, which is not a complete family in the state.")
            self._unnamed |= 1 << f
        phase = pos.get("phase", "cards")
        if phase not in ("cards", "families"):
            raise PositionError("phase must be 'cards' or 'families'.")
        self.phase = phase
        if "round_players" in pos:
            self.round_players = tuple(sorted(seat(p) for p in listed(pos["round_players"], "round_players",
                                                                       '["Alice", "Ben"]')))
        for name, total in by_player("totals", "total", '{"Alice": 3, "Ben": 5}').items():
            if not whole_number(total, 0):
                raise PositionError(f"{name}'s total must be a whole number of families, not {total!r}.")
            self.totals[seat(name)] = total
        round_number = pos.get("round", 1)
        if not whole_number(round_number, 1):
            raise PositionError(f"round must be a whole number from 1 up, not {round_number!r}.")
        self.round = round_number - 1
        self.tiebreak = pos.get("tiebreak", False)
        sudden = pos.get("sudden_death", int(self.tiebreak))
        if not whole_number(sudden, int(self.tiebreak)):
            raise PositionError(f"sudden_death must be a whole number from 1 up, not {sudden!r}.")
        self._sudden = sudden
        if pos.get("last_completed") is not None:
            self.last_completer = seat(pos["last_completed"])
        if pos.get("over"):
            self.over = True
            self.winners = [self.players[seat(p)] for p in listed(pos.get("winners", []), "winners", '["Alice"]')]
            return
        if pos["turn"] is None:
            raise PositionError("The state has no turn but the game is not over.")
        self.turn = seat(pos["turn"])
        self.current_player = self.players[self.turn]
        self.pending_flip = pos.get("pending") == "flip"
        if self.pending_flip and pos.get("asked") is not None:
            self._flip_after = seat(pos["asked"])
        if self.phase == "families" and self._complete != self._all_families:
            raise PositionError("The families phase starts only when every family is complete.")
        if self.phase == "cards":
            for s in range(len(self.players)):
                whole = self._whole_families(self.hands[s])
                if whole and (self.rules.lay_out_dealt_families or s == self.turn):
                    f = (whole & -whole).bit_length() - 1
                    raise PositionError(
                        f"{self.players[s]} holds the whole {self.deck.families[f // self._m].name(form='surname')}"
                        " family: put them in their families."
                    )
                if whole:  # lay_out_dealt_families off: laid out at that player's first turn
                    self._waiting |= 1 << s
        self._extras = bool(self.stock or self.centre or self._waiting)
        self._check_player_to_move()

    def _check_player_to_move(self) -> None:
        """Refuse a loaded position in which the player to move could do nothing (the engine never
        leaves a game like that), saying why."""
        s = self.turn
        name = self.players[s]
        if s not in self.round_players:
            raise PositionError(f"It is {name}'s turn, but {name} is not playing this round.")
        if self.pending_flip:
            if not any(c >= 0 for c in self.centre):
                raise PositionError("A pending flip needs face-down centre cards.")
            t = self._flip_after
            if t is None:
                if self._targets_of(s):
                    raise PositionError('A pending flip follows a "Not at home": say who was asked, as "asked".')
            elif t == s or t not in self.round_players or not self.hands[t]:
                raise PositionError(f"{self.players[t]} cannot have said \"Not at home\" to {name}: the asked"
                                    " player must be another player in the round who holds cards.")
            return
        if self.phase == "families":
            if not self.families[s]:
                raise PositionError(f"It is {name}'s turn, but {name} holds no families to ask with.")
            if not self._targets_of(s):
                raise PositionError(f"{name} holds every family, so the round is over.")
            return
        if self._complete == self._all_families:
            raise PositionError("Every family is complete, so the round is over"
                                + (": set the phase to families for the second phase." if self.rules.second_phase
                                   else "."))
        if not self.hands[s]:
            raise PositionError(f"It is {name}'s turn, but {name} has no cards. Give the turn to a player"
                                " who holds cards.")
        if not self._targets_of(s):
            raise PositionError(f"It is {name}'s turn, but nobody else in the round holds a card to ask for.")

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
            "start": copy.deepcopy(self._start),
            "actions": [a.to_json() for a in self.actions],
        } | ({} if self.deck.pack is None else {"pack": self.deck.pack})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            raise PositionError(f"This is not a saved voicegame game (format {GAME_FORMAT}).")
        seed = data.get("seed", 0)
        if type(seed) is not int:
            raise PositionError(f"The saved seed must be a whole number, not {seed!r}.")
        try:
            if data.get("start") is not None:
                game = cls.from_position(data["start"], seed=seed)
            else:
                rules = Rules.from_json(data["rules"])
                game = cls(data["players"], rules=rules,
                           deck=load_deck(data["deck"], three_generations=rules.three_generations,
                                          pack=data.get("pack")),
                           seed=seed, dealer=data.get("dealer"))
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

    A live view of the game: bots keep one and read it each turn. With ``families_face_down`` (the
    classic profile) which families another player holds is not public either: ``families_of`` and
    ``family_owner`` answer only for this player's own families (``family_count`` is public), and a
    family laid face down from the deal is left out of ``complete_mask`` until the second phase. What
    the table was told (completions named as they happened, family requests) is in ``log``.
    """

    __slots__ = ("_g", "seat", "player", "_sampler")

    def __init__(self, game: Game, seat: int) -> None:
        self._g = game
        self.seat = seat
        self.player = game.players[seat]
        self._sampler: tuple[int, int, int, int, int] = (-1, 0, 0, 0, 0)  # see random_ask

    @property
    def deck(self) -> Deck:
        return self._g.deck

    @property
    def card_ids(self) -> tuple[str, ...]:
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

    @property
    def families_public(self) -> bool:
        """Whether everyone may see which families each player holds (off under ``families_face_down``)."""
        return not self._g._face_down

    def family_owner(self, f: int) -> int | None:
        """The seat holding complete family ``f``; None when nobody does or, with families face down,
        when it is not this player."""
        for s, fams in enumerate(self._g.families):
            if f in fams:
                return s if s == self.seat or not self._g._face_down else None
        return None

    def family_count(self, seat: int) -> int:
        """How many complete families ``seat`` holds (always public)."""
        return len(self._g.families[seat])

    def families_of(self, seat: int) -> list[int]:
        """The families ``seat`` holds: this player's own, or anyone's when families lie face up."""
        if seat != self.seat and self._g._face_down:
            raise ValueError(f"{self._g.players[seat]}'s families lie face down: only how many is public"
                             " (family_count); remember what the log said.")
        return list(self._g.families[seat])

    @property
    def complete_mask(self) -> int:
        """The families known to be complete: every one, except (in the card phase) those another player
        laid face down from the deal, which nobody else knows."""
        g = self._g
        hidden = g._unnamed
        if hidden and g.phase == "cards":
            for f in g.families[self.seat]:
                hidden &= ~(1 << f)
            return g._complete & ~hidden
        return g._complete

    @property
    def unnamed_families(self) -> int:
        """How many families other players laid face down from the deal without naming them, in the card
        phase (their cards are in none of the hands)."""
        g = self._g
        if not g._unnamed or g.phase != "cards":
            return 0
        return (self._g._complete.bit_count() - self.complete_mask.bit_count())

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
        players = g.players
        return [players[t] for t in g._targets_of(self.seat)]

    def askable_mask(self) -> int:
        """Cards this player may ask for: the missing members of families in their hand."""
        g = self._g
        hand = g.hands[self.seat]
        # Adding the low bits of each family to themselves carries into its top bit when any is set, so
        # this puts one bit, at the top, on each family held; shifting and multiplying fills the family.
        held = (((hand & g._fam_low) + g._fam_low) | hand) & g._fam_top
        mask = (held >> (g._m - 1)) * g._spread
        return mask if g._bluff else mask ^ hand

    def random_ask(self, rand: Callable[[], float]) -> Ask | None:
        """A uniformly random legal request, drawn with ``rand`` (a ``Random.random``): a card uniform over
        ``askable_mask`` (drawn first), then a target uniform over ``legal_targets``; so every
        (target, card) pair is equally likely. None unless it is this player's turn to ask for one card
        (a flip due, the second phase or the ask-by-surname rule need ``legal_actions``).

        This is the random bot's whole decision in one call, and it is most of a random game's time, so:
        no list of actions is built, the Ask comes from a table shared by all games, what a hand may ask
        for is kept until the hand changes, and the game is told the request is legal (``Game._vetted``),
        so that applying it next skips the checks just made here.
        """
        g = self._g
        me = self.seat
        if g.turn != me or g.pending_flip or g.phase != "cards" or g._surname:  # (no turn once over)
            return None
        hand = g.hands[me]
        sampler = self._sampler
        if sampler[0] != hand:
            mask = self.askable_mask()
            low = (mask & -mask).bit_length() - 1
            sampler = self._sampler = (hand, mask, low, mask.bit_length() - low, mask.bit_count())
        _, mask, low, span, count = sampler
        targets = g._targets[me] if g._targets is not None else g._targets_of(me)
        if not mask or not targets:
            return None
        if 3 * count >= span:  # dense: rejection sampling over the span is cheapest
            card = low + int(rand() * span)
            while not mask >> card & 1:
                card = low + int(rand() * span)
        else:  # sparse: step to the k-th set bit
            for _ in range(int(rand() * count)):
                mask &= mask - 1
            card = (mask & -mask).bit_length() - 1
        target = targets[int(rand() * len(targets))]
        ask = (g._asks or g._ask_table())[target][card]
        g._vetted = (ask, target, card)
        return ask

    def legal_requests(self) -> list[dict[str, str]]:
        """The things that may be asked for, each as {"card": id} or {"family": key}."""
        g = self._g
        if g.phase == "families":
            mine = set(g.families[self.seat])
            return [{"family": g._family_keys[f]} for f in range(g._nf) if g._bluff or f not in mine]
        out = [{"card": g._card_ids[c]} for c in _bits(self.askable_mask())]
        if g._surname:
            hand = g.hands[self.seat]
            out += [{"family": g._family_keys[f]} for f, fm in enumerate(g._fam_mask) if hand & fm]
        return out

    def legal_actions(self) -> list[Action]:
        if not self.my_turn:
            return []
        if self._g.pending_flip:
            return [Flip(i) for i in self._g._flip_slots()] + [Pass()]
        targets = self.legal_targets()
        return [Ask(t, **req) for req in self.legal_requests() for t in targets]
