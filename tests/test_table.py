"""The table loop at a shared table: private lines per seat, review commands, confirmations."""

from __future__ import annotations

import random
import re

import pytest

from voicegame.bots import make_bot
from voicegame.decks import load_deck
from voicegame.engine import Ask, Game, IllegalAction, Pass, profile
from voicegame.speech.base import Alternative, Hearing
from voicegame.table.output import Lines, Output
from voicegame.table.session import TextTable


class Recorder(Output):
    """Keeps public lines and each seat's private lines apart, and, for every public line, which
    cards the game had made public by then (asked for, handed over, in a completed family, turned over)."""

    def __init__(self) -> None:
        self.public_lines: list[tuple[str, frozenset[str]]] = []
        self.private_lines: dict[str, list[str]] = {}
        self.in_order: list[str] = []  # public and private lines as they came
        self.table: TextTable | None = None
        self.known: set[str] = set()

    def public(self, line: str, who: str | None = None) -> None:
        g = self.table.game
        for e in g.log:
            if e["type"] in ("ask", "not_at_home") and "card" in e:
                self.known.add(e["card"])
            elif e["type"] == "transfer" and "cards" in e:
                self.known.update(e["cards"])
            elif e["type"] == "flip":
                self.known.add(e["card"])
            elif e["type"] in ("family_complete", "transfer", "ask") and "family" in e:
                self.known.update(c.id for c in g.deck.family(e["family"]).cards)
        self.public_lines.append((line, frozenset(self.known)))
        self.in_order.append(line)

    def private(self, player: str, line: str) -> None:
        self.private_lines.setdefault(player, []).append(line)
        self.in_order.append(line)

    def expect(self, answer: str | None) -> None:
        self.expected = answer

    def lines(self) -> list[str]:
        return [line for line, _ in self.public_lines]


def _table(game: Game, bots: dict[str, str], script, **options) -> tuple[TextTable, Recorder]:
    out = Recorder()
    table = TextTable(game, bots, lambda: script(table), out, **options)
    out.table = table
    return table, out


def _request_text(game: Game, player: str, seed: int) -> str:
    action = make_bot("random", game, player, seed).choose()
    if action.card is None:
        return f"{action.target}, is {game.deck.family(action.family).name('en', 'surname')} and family at home?"
    return f"{action.target}, is {game.deck.card(action.card).name('en', 'short')} at home, please?"


def _card_pattern(deck) -> list[tuple[str, re.Pattern]]:
    out = []
    for card in deck.cards:
        names = {card.name("en", "full"), card.name("en", "short")}
        out.append((card.id, re.compile("|".join(rf"(?<![\w.]){re.escape(n)}(?!\w)" for n in names))))
    return out


@pytest.mark.parametrize("rules,seed", [("guide", 1), ("guide", 2), ("classic", 3), ("dutch", 4)])
def test_public_output_names_no_card_of_any_hand_except_through_public_events(rules, seed):
    """Humans keep asking for their hand, for help, for one family, and make refused requests
    (asking for a card they hold): all of that goes to their own seat; the table hears only
    what the rules make public."""
    game = Game(["Alice", "Ben", "Cara", "Dan"], rules=profile(rules), seed=seed)
    rng = random.Random(seed)
    reviews = ["hand", "help", "which buns do i have", "my cards", "status", "history", "what can i say",
               "I want a biscuit", "pass the juice"]  # not understood: "Try: ..." one of the player's requests

    first = {"Alice", "Ben"}

    def script(table):
        g = table.game
        player = g.current_player
        step = len(g.actions)
        if player in first:
            first.discard(player)
            return "what cards do i have"
        if rng.random() < 0.35:
            return rng.choice(reviews)
        own = g.hand(player)
        if rng.random() < 0.1 and own and g.phase == "cards":
            other = next(p for p in g.players if p != player)
            return f"{other}, is {g.deck.card(own[0]).name('en', 'short')} at home, please?"
        if g.observation(player).phase == "flip":
            return "pass"
        return _request_text(g, player, seed * 1000 + step)

    table, out = _table(game, {"Cara": "memory", "Dan": "random"}, script)
    table.run()
    assert game.over
    patterns = _card_pattern(game.deck)
    for line, known in out.public_lines:
        named = {cid for cid, pattern in patterns if pattern.search(line)}
        assert named <= known, f"{line!r} names {sorted(named - known)}, which no public event revealed"
    # The private channels did carry the hands (so the check above had something to catch).
    for human in ("Alice", "Ben"):
        assert any(" you hold " in line for line in out.private_lines.get(human, ()))


def _alice_to_move(rules: str = "guide") -> Game:
    """A new three-player game where Alice has the first turn and can ask for a card nobody gives her."""
    for seed in range(100):
        game = Game(["Alice", "Ben", "Cara"], rules=profile(rules), seed=seed)
        if game.current_player == "Alice" and any(
                a.card and a.card not in game.hand(a.target) for a in game.observation("Alice").legal_actions()):
            return game
    raise AssertionError("no seed gives Alice the first turn")


def _run_lines(game: Game, lines: list[str], bots=None, **options) -> tuple[TextTable, Recorder]:
    it = iter(lines)
    return _table(game, bots or {}, lambda table: next(it, None), **options)


def _a_family_alice_holds(game: Game) -> tuple[str, list[str]]:
    hand = game.hand("Alice")
    family = game.deck.card(hand[0]).family
    return family, [c for c in hand if game.deck.card(c).family == family]


def test_which_family_do_i_have_lists_only_that_family_privately():
    game = _alice_to_move()
    family, held = _a_family_alice_holds(game)
    plural = game.deck.family(family).name("en", "plural")
    table, out = _run_lines(game, [f"which {plural} do I have", "quit"], bots={"Ben": "random", "Cara": "random"})
    table.run()
    line = out.private_lines["Alice"][-1]
    names = [game.deck.card(c).name("en", "short") for c in held]
    assert all(n in line for n in names)
    others = [c.name("en", "short") for c in game.deck.cards if c.id in game.hand("Alice") and c.id not in held]
    assert not any(re.search(rf"{re.escape(n)}(?!\w)", line) for n in others)
    assert all(line not in public for public, _ in out.public_lines)


def _miss_for(game: Game, player: str) -> Ask:
    """A legal request of ``player`` that the other player cannot answer."""
    for action in game.observation(player).legal_actions():
        if action.card and action.card not in game.hand(action.target):
            return action
    raise AssertionError("no missing card to ask for")


def _say(game: Game, action: Ask) -> str:
    return f"{action.target}, is {game.deck.card(action.card).name('en', 'short')} at home, please?"


def test_undo_asks_first_and_no_keeps_the_move():
    game = _alice_to_move("classic")
    miss = _miss_for(game, "Alice")
    table, out = _run_lines(game, [_say(game, miss), "undo", "no", "undo", "yes", "quit"])
    table.run()
    lines = out.lines()
    question = next(line for line in lines if line.startswith("Undo "))
    card = game.deck.card(miss.card).name("en", "short")
    assert question == f"Undo Alice's request to {miss.target} for {card}? Say yes or no."
    assert "All right, nothing was undone." in lines
    assert "Undone. Your turn again, Alice." in lines
    assert game.actions == [] and game.current_player == "Alice"


@pytest.mark.parametrize("then", ["no", "cancel"])
def test_no_right_after_a_move_offers_to_take_it_back(then):
    """ "Ask Dan for Mr. Mug. No, wait, ask Cara.": the first half was played at once and the "no" met
    "There is nothing to answer yes or no to." Said straight after the player's own move, it offers the
    undo; said later, or by someone else, it is what it was."""
    game = _alice_to_move("classic")
    miss = _miss_for(game, "Alice")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", _say(game, miss))
    assert len(game.actions) >= 1
    table.handle("Alice", then)
    card = game.deck.card(miss.card).name("en", "short")
    assert out.lines()[-1] == f"Undo Alice's request to {miss.target} for {card}? Say yes or no."
    table.handle("Alice", "yes")
    assert game.actions == [] and out.lines()[-1] == "Undone. Your turn again, Alice."
    table.handle("Alice", "no")  # not straight after a move of hers
    assert out.lines()[-1] == "There is nothing to answer yes or no to." and game.actions == []


def test_undo_after_several_moves_undoes_the_last_one():
    """It used to work only for the game's first move, and crashed after any other."""
    game = _alice_to_move()
    said, movers = [], []

    def script(table):
        g = table.game
        if len(said) < 2:  # Alice, then the player she asked: each a request nobody can answer
            movers.append(g.current_player)
            said.append(_say(g, _miss_for(g, g.current_player)))
        else:
            said.append({2: "undo", 3: "yes"}.get(len(said), "quit"))
        return said[-1]

    table, out = _table(game, {}, script)
    table.run()
    lines = out.lines()
    second = movers[1]
    assert next(line for line in lines if line.startswith("Undo ")).startswith(f"Undo {second}'s request to ")
    assert f"Undone. Your turn again, {second}." in lines
    assert len(game.actions) == 1 and game.current_player == second


def test_only_the_last_move_can_be_taken_back_once():
    """A second undo would take back an earlier move, another player's here, by someone who has
    since heard what it brought; after a new move, that one can be taken back."""
    game = _alice_to_move()
    said = []

    def script(table):
        g = table.game
        if len(said) in (0, 1, 6):  # Alice, then the player she asked; later that player again
            said.append(_say(g, _miss_for(g, g.current_player)))
        else:
            said.append({2: "undo", 3: "yes", 4: "undo", 5: "yes", 7: "undo", 8: "yes"}.get(len(said), "quit"))
        return said[-1]

    table, out = _table(game, {}, script)
    table.run()
    lines = out.lines()
    assert lines.count("Only the last move can be taken back, and it has been.") == 1
    assert lines.count(f"Undone. Your turn again, {game.current_player}.") == 2
    assert len(game.actions) == 1  # Alice's request stands


def test_pause_keeps_table_talk_out_of_the_game_until_continue():
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    table, out = _run_lines(game, ["pause", _say(game, miss), "status", "continue", _say(game, miss), "quit"],
                            bots={"Ben": "random", "Cara": "random"})
    table.run()
    lines = out.lines()
    assert "Paused. Say continue when you are ready." in lines
    assert "Let's go on. Your turn, Alice." in lines
    asks = [line for line in lines if line.startswith("Alice asks")]
    assert len(asks) == 1  # the request during the pause was not played
    assert lines.index("Let's go on. Your turn, Alice.") < lines.index(asks[0])


def test_repeat_in_a_pause_says_how_to_go_on_whatever_was_said_meanwhile():
    """Words said in the pause (let pass) emptied what "repeat" says: a player who forgot how to go on heard nothing."""
    game = _alice_to_move()
    table, out = _run_lines(game, [])
    heard = Hearing((Alternative(_say(game, _miss_for(game, "Alice")).lower(), 0.9),))
    for said in ["pause", heard, "repeat"]:
        table.handle("Alice", said)
    assert out.lines()[-2:] == ["Paused. Say continue when you are ready."] * 2 and game.actions == []


def test_a_line_typed_in_a_pause_is_answered():
    """Heard words in a pause are table talk and let pass; a typed line was meant for the game, and
    silence looked as if the game had hung."""
    game = _alice_to_move()
    table, out = _run_lines(game, [])
    table.handle("Alice", "pause")
    table.handle("Alice", Hearing((Alternative("help", 0.9),)))
    assert out.lines() == ["Paused. Say continue when you are ready."]
    table.handle("Alice", "help")
    assert out.lines() == ["Paused. Say continue when you are ready."] * 2 and game.actions == []


def test_a_request_heard_without_certainty_is_confirmed_before_it_is_played():
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    unsure = Hearing((Alternative(_say(game, miss).lower().replace(",", "").replace("?", ""), 0.6),), sure=False)
    sure = Hearing((Alternative("yes", 0.99),))
    heard = iter([unsure, sure, "quit"])
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: next(heard, None))
    table.handle("Alice", next(heard))
    assert game.actions == []
    card = game.deck.card(miss.card).name("en", "short")
    assert out.lines()[-1] == f"Did you ask {miss.target} for {card}? Say yes or no."
    assert out.expected == "yes_no"  # a voice listens for just the answer now
    table.handle("Alice", next(heard))
    assert game.actions == [Ask(miss.target, card=miss.card, polite=True)]
    assert out.expected is None


def test_a_request_heard_unsurely_and_refused_says_what_was_heard_first():
    """ "Cara, is the Baker's Wife at home?" heard unsurely as the painter's wife, whose family is
    complete: "The Pots family is already complete." alone told the player nothing they had said."""
    game = _alice_to_move()
    target = next(p for p in game.players if p != "Alice")
    held = {game.deck.card(c).family for c in game.hand("Alice")}
    table, out = _table(game, {}, lambda t: None)
    for card in (c for c in game.deck.cards if c.family not in held):
        unsure = Hearing((Alternative(f"{target} is {card.name('en', 'short')} at home".lower(), 0.6),), sure=False)
        table.handle("Alice", unsure)
        if table.pending is None:  # not offered a sound-alike the hand allows instead
            break
        table.handle("Alice", "cancel")
    surname = game.deck.family(card.family).name("en", "surname")
    assert out.private_lines["Alice"][-2] == f"I heard you ask {target} for {card.name('en', 'full')}."
    assert surname in out.private_lines["Alice"][-1] and game.actions == []  # the rule, after it


def test_a_no_that_names_the_player_asked_instead_asks_about_that_one():
    """ "Did you ask Ben for Mrs. Bun?" "No, I said Cara.": the name was lost, and the game offered a
    card nobody had said."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    other = next(p for p in ("Ben", "Cara") if p != miss.target)
    unsure = Hearing((Alternative(_say(game, miss).lower().replace(",", "").replace("?", ""), 0.6),), sure=False)
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", unsure)
    table.handle("Alice", Hearing((Alternative(f"no i said {other.lower()}", 0.9),)))
    card = game.deck.card(miss.card).name("en", "short")
    assert out.lines()[-1] == f"Then did you ask {other} for {card}? Say yes or no." and game.actions == []
    table.handle("Alice", "yes")
    assert (game.actions[0].target, game.actions[0].card) == (other, miss.card)


def test_the_same_words_heard_surely_are_played_at_once():
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    table, _ = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", Hearing((Alternative(_say(game, miss).lower(), 0.9),), sure=True))
    assert game.actions == [Ask(miss.target, card=miss.card, polite=True)]


@pytest.mark.parametrize("sure", [True, False])
def test_a_request_to_someone_not_playing_asks_who_and_changes_nothing(sure):
    """ "Dad" is one sound from "Dan"-like names, but Dad is not in the game: heard surely or not,
    the request is never played; the table asks who it was for, and the answer plays it."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", Hearing((Alternative(f"dad is {card.lower()} at home please", 0.9),), sure=sure))
    assert game.actions == []
    assert out.lines()[-1] == f"Who do you want to ask for {card}? Say a name: Ben or Cara."
    table.handle("Alice", miss.target)
    assert game.actions == [Ask(miss.target, card=miss.card, polite=True)]


def test_more_detail_names_cards_in_full_and_less_detail_goes_back():
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", "more detail")
    assert table.narrator.verbose and out.lines()[-1] == "I'll give more detail."
    table.handle("Alice", "less detail")
    assert not table.narrator.verbose and out.lines()[-1] == "I'll keep it short."


def test_speech_speed_without_the_voice_says_how_to_get_it():
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", "slower")
    assert "start it with --voice" in out.lines()[-1]


def test_repeat_says_everything_since_the_last_words_to_the_same_channels():
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", "hand")
    table.handle("Alice", "status")
    status = out.public_lines[-1]
    before = (len(out.public_lines), len(out.private_lines["Alice"]))
    table.handle("Alice", "say that again")
    assert out.public_lines[before[0]:] == [status]  # said once more, and only it
    assert len(out.private_lines["Alice"]) == before[1]  # the hand was before the status: not repeated
    table.handle("Alice", "hand")
    hand = out.private_lines["Alice"][-1]
    before = (len(out.public_lines), len(out.private_lines["Alice"]))
    table.handle("Alice", "repeat")
    assert out.private_lines["Alice"][before[1]:] == [hand]  # privately again, nothing public
    assert len(out.public_lines) == before[0]


def test_what_did_you_hear_in_a_typed_game_says_it_is_not_listening():
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", "what did you hear")
    assert out.lines()[-1] == "I am not listening: this game is typed."


def test_a_notice_from_the_listener_is_said_once_in_the_games_language():
    class SlowListener(Lines):
        listening = True

        def __init__(self, write):
            super().__init__(write)
            self.notices = ["slow_computer"]

        def take_notice(self):
            return self.notices.pop() if self.notices else None

    lines: list[str] = []
    game = Game(["Alice", "Ben"], rules=profile("dutch"), seed=1)
    table = TextTable(game, {"Ben": "random"}, lambda: None, SlowListener(lines.append), lang="nl")
    table.handle("Alice", "stand")
    table.handle("Alice", "stand")
    assert sum(line.startswith("Deze computer is te traag") for line in lines) == 1
    assert table.handle("Alice", "wat hoorde je")
    assert lines[-1] == "Ik heb verder niets gehoord sinds mijn laatste antwoord."


def test_history_can_be_switched_off_for_a_memory_challenge():
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"}, history=False)
    table.handle("Alice", "history")
    assert out.lines()[-1] == "History is off in this game: it is a memory challenge."


def test_a_card_drawn_from_the_stock_is_told_only_to_its_new_owner():
    for seed in range(40):
        game = Game(["Alice", "Ben"], rules=profile("guide").with_overrides(stock=5), seed=seed)
        if game.current_player != "Alice":
            continue
        try:
            miss = _miss_for(game, "Alice")
        except AssertionError:
            continue
        table, out = _run_lines(game, [], bots={"Ben": "random"})
        before = set(game.hand("Alice"))
        table.handle("Alice", _say(game, miss))
        drawn = [c for c in game.hand("Alice") if c not in before]
        if not drawn:
            continue
        full = game.deck.card(drawn[0]).name("en", "full")
        assert f"Alice, you drew {full}." in out.private_lines["Alice"]
        assert not any(full in line for line in out.lines())
        # Told before the next turn is announced, not after it.
        assert out.in_order.index(f"Alice, you drew {full}.") < out.in_order.index("Ben's turn.")
        assert "Alice draws a card from the stock." in out.lines()
        return
    pytest.fail("no seed gave Alice a miss and a draw")


def test_refusals_that_reveal_a_hand_are_private():
    game = _alice_to_move()
    own = game.deck.card(game.hand("Alice")[0]).name("en", "short")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", f"Ben, is {own} at home, please?")
    assert out.private_lines["Alice"][-1] == f"You already hold {own}."
    assert not any(own in line for line in out.lines())


def test_dutch_table_speaks_dutch():
    game = Game(["Anna", "Bram"], rules=profile("dutch"), seed=3)
    table, out = _run_lines(game, [], bots={"Bram": "random"}, lang="nl")
    player = game.current_player
    table.handle(player, "mijn kaarten")
    assert out.private_lines[player][-1].startswith(f"{player}, je hebt ")
    table.handle(player, "pauze")
    assert out.lines()[-1] == "Pauze. Zeg verder als je klaar bent."


def test_quit_heard_without_certainty_is_asked_first():
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    unsure_quit = Hearing((Alternative("quit", 0.3),), sure=False)
    assert table.handle("Alice", unsure_quit) is True
    assert out.lines()[-1] == "Stop the game? Say yes or no."
    assert table.handle("Alice", "no") is True and out.lines()[-1] == "All right, we play on."
    assert table.handle("Alice", unsure_quit) is True
    assert table.handle("Alice", "yes") is False
    assert table.handle("Alice", "quit") is False  # typed, or heard surely: at once


def test_an_unsure_request_the_rules_forbid_is_refused_at_once_not_confirmed():
    """When no legal card sounds like it (else that card is asked about: see the test below)."""
    game = _alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    hand = game.hand("Alice")
    names = [game.deck.card(c).name("en", "short") for c in hand]
    own = next(n for n in names if table.understander.understand(
        [f"ben is {n.lower()} at home please"], asker="Alice", hand=hand).instead_of is None)
    table.handle("Alice", Hearing((Alternative(f"ben is {own} at home please", 0.5),), sure=False))
    assert out.private_lines["Alice"][-1] == f"You already hold {own}."
    assert table.pending is None and game.actions == []


def _alice_offered_a_flip():
    """A game where Alice has just missed and may turn over centre card 2: (game, table, recorder)."""
    rules = profile("guide").with_overrides(centre_cards=4)
    for seed in range(60):
        game = Game(["Alice", "Ben", "Cara"], rules=rules, seed=seed)
        if game.current_player != "Alice":
            continue
        misses = [a for a in game.observation("Alice").legal_actions()
                  if isinstance(a, Ask) and a.card and a.card not in game.hand(a.target)]
        if not misses:
            continue
        table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
        table.handle("Alice", _say(game, misses[0]))
        if game.observation("Alice").phase == "flip" and 1 in game.observation("Alice").centre_slots:
            return game, table, out
    pytest.fail("no seed gave Alice a miss with centre card 2 face down")


@pytest.mark.parametrize("said", ["two", "2", "flip two", "card number 2", "the second card", "turn over the second one"])
def test_a_centre_card_is_turned_over_by_its_number_in_words_or_digits(said):
    game, table, out = _alice_offered_a_flip()
    assert out.expected == "flip"  # a voice now listens for a number or "pass"
    table.handle("Alice", said)
    flips = [e for e in game.log if e["type"] == "flip"]
    assert flips and flips[-1]["player"] == "Alice", out.lines()[-3:]


@pytest.mark.parametrize("said", ["too", "for", "won", "hmm, which one was it", "No, wait!", "not card 2",
                                  "what was the first card", "card 1 or card 2?", "is the second card a good one",
                                  "is card 2 good?", "card 2, right?", "well, 2?", "one card", "the one"])
def test_typed_words_that_are_no_number_turn_nothing_over_and_the_offer_is_said_again(said):
    """ "too" typed alone is a slip, not card 2 (a recognizer's sound-alike); and the answer to what
    is not understood is the offer, not a request the rules would then refuse."""
    game, table, out = _alice_offered_a_flip()
    moves = len(game.actions)
    table.handle("Alice", said)
    assert len(game.actions) == moves
    assert out.in_order[-1].startswith("You may turn over a centre card: say its number"), out.in_order[-2:]


def test_a_request_heard_for_a_player_whose_name_sounds_like_another_is_confirmed():
    """Ben and Dan: a recognizer takes one for the other with full confidence, so heard requests
    to either are checked first; typed ones are not."""
    for seed in range(100):
        game = Game(["Alice", "Ben", "Dan"], rules=profile("guide"), seed=seed)
        if game.current_player != "Alice":
            continue
        misses = [a for a in game.observation("Alice").legal_actions()
                  if a.card and a.target == "Ben" and a.card not in game.hand("Ben")]
        if misses:
            break
    else:
        pytest.fail("no seed gives Alice the first turn and a miss to ask Ben")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Dan": "random"})
    words = _say(game, misses[0]).lower()
    table.handle("Alice", Hearing((Alternative(words, 0.99),), sure=True))
    assert game.actions == [] and out.lines()[-1].startswith("Did you ask Ben for ")
    table.handle("Alice", "no")
    table.handle("Alice", words)  # typed: taken as typed
    assert game.actions == [misses[0]._replace(polite=True)]


@pytest.mark.parametrize("ruled_out, played", [({("ben", "dan")}, True), (set(), False), ({("dan", "ben")}, False),
                                                ({("ben", "cara")}, False), ({("ten", "dan")}, False)])
def test_a_sound_alike_name_is_played_at_once_only_when_the_recognizer_told_the_two_apart(ruled_out, played):
    """A sure hearing of "Ben" whose own second check ruled "Dan" out is played at once. Anything
    else leaves the question: the other way round, another player, or a card word's ruling ("ten"
    heard with its D-like sound-alike ruled out says nothing of the name)."""
    for seed in range(100):
        game = Game(["Alice", "Ben", "Cara", "Dan"], rules=profile("guide"), seed=seed)
        misses = [a for a in game.observation("Alice").legal_actions()
                  if a.card and a.target == "Ben" and a.card not in game.hand("Ben")]
        if game.current_player == "Alice" and misses:
            break
    else:
        pytest.fail("no seed gives Alice the first turn and a miss to ask Ben")
    table, out = _run_lines(game, [], bots={p: "random" for p in ("Ben", "Cara", "Dan")})
    words = _say(game, misses[0]).lower()
    table.handle("Alice", Hearing((Alternative(words, 0.99),), sure=True, ruled_out=frozenset(ruled_out)))
    if played:
        assert game.actions[:1] == [misses[0]._replace(polite=True)], out.lines()[-3:]
    else:
        assert game.actions == [] and out.lines()[-1].startswith("Did you ask Ben for ")


@pytest.mark.parametrize("ruled_out, doubted", [({("ben", "dan")}, False), ({("smith", "smith")}, True),
                                                 ({("ben", "dan"), ("smith", "jones")}, False), (set(), True)])
def test_two_word_names_are_told_apart_only_where_they_differ(ruled_out, doubted):
    from voicegame.decks import load_deck
    from voicegame.table.session import doubts_target
    from voicegame.understanding import Understander

    understander = Understander(load_deck("jaques"), ("Alice", "Ben Smith", "Dan Smith"))
    assert understander.sound_alikes["Ben Smith"] == {"Dan Smith"}
    heard = Hearing((Alternative("ben smith is mister bun at home", 0.99),), ruled_out=frozenset(ruled_out))
    assert doubts_target(understander, heard, "Ben Smith") == doubted
    assert doubts_target(understander, "Ben Smith, is Mr. Bun at home?", "Ben Smith") is False  # typed


@pytest.mark.parametrize("about,to", [
    ("Your turn, You.", "Your turn."),
    ("You's turn. You 15 cards, 0 families; Cara 15 cards, 0 families.",
     "Your turn. You have 15 cards, 0 families; Cara 15 cards, 0 families."),
    ("You, you hold 3 cards. Bun: Mr. Bun.", "You hold 3 cards. Bun: Mr. Bun."),
    ("You asks Cara: is Mr. Bun at home?", "You ask Cara: is Mr. Bun at home?"),
    ("Cara asks You: is Mr. Bun at home?", "Cara asks you: is Mr. Bun at home?"),
    ("Cara gives Mr. Bun the Baker to You.", "Cara gives Mr. Bun the Baker to you."),
    ("You completes the Bun family: 1 family.", "You complete the Bun family: 1 family."),
    ("You has no cards left, and keeps their families.", "You have no cards left, and keep your families."),
    ("Undo You's request to Cara for Mr. Bun? Say yes or no.", "Undo your request to Cara for Mr. Bun? Say yes or no."),
    ("Remember the magic word, You: ask again with please.", "Remember the magic word: ask again with please."),
    ("Game over. You wins with 3 families.", "Game over. You win with 3 families."),
    ("Youssef asks Cara: is Mr. Bun at home?", "Youssef asks Cara: is Mr. Bun at home?"),
    ("You, of the Bones family you hold Mr. Bones.", "Of the Bones family you hold Mr. Bones."),
    ("Cara asked You for Mr. Chip: given.", "Cara asked you for Mr. Chip: given."),
])
def test_a_lone_player_called_you_is_spoken_to(about, to):
    from voicegame.table.narration import you_form

    assert you_form(about) == to


def test_dutch_refusals_name_what_was_asked():
    """The engine's reasons are English; the Dutch table says them with the card asked for. Typed,
    a held card is that card, even where a legal one sounds alike ("Meneer Botten", "Meneer Potten")."""
    game = Game(["Anna", "Bram"], rules=profile("dutch"), seed=3)
    table, out = _run_lines(game, [], bots={"Bram": "random"}, lang="nl")
    player = game.current_player
    other = "Bram" if player == "Anna" else "Anna"
    before = game.hand(player)
    for card in before:
        own = game.deck.card(card).name("nl", "short")
        table.handle(player, f"{other}, heb je {own}?")
        assert out.private_lines[player][-1] == f"{own} heb je zelf al."
        assert not any(own in line for line in out.lines())
    assert game.hand(player) == before and game.current_player == player


def _four_with_alice_to_move() -> Game:
    for seed in range(100):
        game = Game(["Alice", "Ben", "Cara", "Dan"], rules=profile("guide"), seed=seed)
        if game.current_player == "Alice":
            return game
    raise AssertionError("no seed gives Alice the first turn")


def _ask_for_a_card_like_no_other(game, target: str) -> Ask:
    """Alice's first legal request to ``target`` for a card whose family sounds like no other."""
    from voicegame.understanding import Understander

    alikes = Understander(game.deck, game.players).card_sound_alikes
    return next(a for a in game.observation("Alice").legal_actions()
                if isinstance(a, Ask) and a.target == target and not alikes[a.card.split(":")[0]])


def test_a_no_to_a_sound_alike_name_offers_the_other_name():
    """Ben and Dan are swapped by the recognizer: after "no", the table offers the other name
    rather than making the player say the whole request again."""
    game = _four_with_alice_to_move()
    ask = _ask_for_a_card_like_no_other(game, "Dan")
    card = game.deck.card(ask.card).name("en", "short")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random", "Dan": "random"})
    table.handle("Alice", Hearing((Alternative(f"ben is {card.lower()} at home please", 0.95),), sure=True))
    assert out.lines()[-1] == f"Did you ask Ben for {card}? Say yes or no."
    table.handle("Alice", "no")
    assert out.lines()[-1] == f"Then did you ask Dan for {card}? Say yes or no."
    assert game.actions == []
    table.handle("Alice", "yes")
    assert (game.actions[0].target, game.actions[0].card) == ("Dan", ask.card)


def test_a_second_no_asks_for_the_request_again():
    game = _four_with_alice_to_move()
    ask = _ask_for_a_card_like_no_other(game, "Dan")
    card = game.deck.card(ask.card).name("en", "short")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random", "Dan": "random"})
    table.handle("Alice", Hearing((Alternative(f"dan is {card.lower()} at home please", 0.95),), sure=True))
    table.handle("Alice", "no")
    assert out.lines()[-1] == f"Then did you ask Ben for {card}? Say yes or no."
    table.handle("Alice", "no")
    assert out.lines()[-1] == "All right. Say your request again."
    assert game.actions == [] and table.pending is None


def test_say_yes_or_no_is_dropped_once_a_player_has_answered_twice():
    """Requests to a sound-alike name are asked about every time: the hint goes after two answers
    (per player), and comes back with more detail."""
    game = _four_with_alice_to_move()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random", "Dan": "random"})
    questions = []
    for _ in range(3):
        ask = next(a for a in game.observation("Alice").legal_actions() if isinstance(a, Ask) and a.target == "Ben")
        card = game.deck.card(ask.card).name("en", "short")
        table.handle("Alice", Hearing((Alternative(f"ben is {card.lower()} at home please", 0.95),), sure=True))
        questions.append(out.lines()[-1])
        table.handle("Alice", "no")
        table.handle("Alice", "no")
    assert [q.endswith("? Say yes or no.") for q in questions] == [True, False, False]
    assert questions[2].startswith("Did you ask Ben for ")
    table.handle("Alice", "more detail")
    table.handle("Alice", Hearing((Alternative(f"ben is {card.lower()} at home please", 0.95),), sure=True))
    assert out.lines()[-1].endswith("? Say yes or no.")


def _alice_holding_mrs_bung_and_a_bun() -> Game:
    """Alice to move with Mrs. Bung and a Bun but not Mrs. Bun, and every Bung but Mrs. Bung's
    sound-alike Mr. Bung ruled out too: "Mrs. Bung" heard is most likely "Mrs. Bun"."""
    for seed in range(3000):
        game = Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=seed)
        hand = set(game.hand("Alice"))
        if (game.current_player == "Alice" and {"bung:mrs", "bung:mr"} <= hand and "bun:mrs" not in hand
                and hand & {"bun:mr", "bun:master", "bun:miss"}):
            return game
    raise AssertionError("no seed deals Alice Mrs. and Mr. Bung and a Bun but not Mrs. Bun")


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_a_held_card_heard_is_asked_about_as_its_legal_sound_alike(answer):
    """Heard, "Mrs. Bung" (held) becomes the question "Did you ask Ben for Mrs. Bun?", asked of Alice
    alone; yes plays it, no refuses the card heard, privately and with the rule, and changes nothing."""
    game = _alice_holding_mrs_bung_and_a_bun()
    before = game.hand("Alice")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", Hearing((Alternative("ben is mrs bung at home please", 0.95),), sure=True))
    assert out.private_lines["Alice"][-1] == "Did you ask Ben for Mrs. Bun? Say yes or no."
    assert game.actions == []
    table.handle("Alice", answer)
    if answer == "yes":
        assert (game.actions[0].target, game.actions[0].card) == ("Ben", "bun:mrs")
    else:
        assert out.private_lines["Alice"][-1] == "You already hold Mrs. Bung."
        assert game.actions == [] and game.hand("Alice") == before and table.pending is None
        assert not any("Mrs. Bung" in line for line, _ in out.public_lines)


def _alice_holding_a_bun_and_a_bung_but_neither_miss() -> Game:
    for seed in range(3000):
        game = Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=seed)
        families = {card.split(":")[0] for card in game.hand("Alice")}
        if (game.current_player == "Alice" and {"bun", "bung"} <= families
                and not {"bun:miss", "bung:miss"} & set(game.hand("Alice"))):
            return game
    raise AssertionError("no seed deals Alice a Bun and a Bung but neither Miss")


@pytest.mark.parametrize("answers, played", [(["yes"], "bung:miss"), (["no", "yes"], "bun:miss"),
                                             (["no", "no"], None)])
def test_a_surname_heard_that_sounds_like_another_is_asked_about_with_its_trade(answers, played):
    """ "Miss Bun" in a child's voice is heard as "miss bung" every time: the question names the
    trade ("the Brewer's Daughter"), and a no offers the card that sounds like it, once, privately."""
    game = _alice_holding_a_bun_and_a_bung_but_neither_miss()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", Hearing((Alternative("cara is miss bung at home please", 0.95),), sure=True))
    assert out.lines()[-1] == "Did you ask Cara for Miss Bung the Brewer's Daughter? Say yes or no."
    for answer in answers:
        table.handle("Alice", answer)
        if answer == "no" and answers.count("no") == 1:  # to Alice alone: it tells she holds a Bun too
            assert out.private_lines["Alice"][-1] == ("Then did you ask Cara for Miss Bun the Baker's Daughter?"
                                                      " Say yes or no.")
            assert "Bun the Baker" not in " ".join(out.lines())
    if played is None:
        assert out.lines()[-1] == "All right. Say your request again."
        assert game.actions == [] and table.pending is None
    else:
        assert (game.actions[0].target, game.actions[0].card) == ("Cara", played)


def test_card_sound_alikes_are_the_surnames_a_recognizer_swaps():
    from voicegame.decks import load_deck
    from voicegame.understanding import Understander

    alikes = Understander(load_deck("jaques"), ("Alice", "Ben")).card_sound_alikes
    assert {k: v for k, v in alikes.items() if v} == {  # "Master Dip" heard surely as "master chip" (round 19)
        "bun": {"bung", "bones"}, "bung": {"bun"}, "bones": {"bun"}, "dip": {"tape", "chip"}, "tape": {"dip", "chip"},
        "chip": {"dip", "tape"}}
    assert not any(Understander(load_deck("standard"), ("Alice", "Ben")).card_sound_alikes.values())
    letters = Understander(load_deck("letters"), ("Alice", "Ben")).card_sound_alikes  # letters sharing a vowel
    assert (letters["e"], letters["a"], letters["f"]) == ({"b", "c", "d", "g"}, {"h", "i", "j", "k"}, frozenset())


def test_a_letter_heard_surely_is_confirmed_when_a_letter_sharing_its_vowel_may_be_asked_for_too():
    """ "Is E3 at home, Ben?" (neural voice, clean) came out "is c three at home ben", surely, and
    was played as C3. A letter family is confirmed when one whose name shares its vowel is a
    request the asker may make too."""
    from voicegame.decks import load_deck
    from voicegame.table.session import as_heard
    from voicegame.understanding import Understander

    understander = Understander(load_deck("letters"), ("Alice", "Ben", "Cara", "Dan"))
    heard = Hearing((Alternative("is c three at home cara", 0.99),), sure=True)  # Cara: no sound-alike
    both = as_heard(understander, heard, "Alice", ["c:1", "e:1"], "cards")
    assert (both.intent, both.target, both.card, both.confirm) == ("ask", "Cara", "c:3", True)
    only_c = as_heard(understander, heard, "Alice", ["c:1", "f:1"], "cards")
    assert (only_c.card, only_c.confirm) == ("c:3", False)


@pytest.mark.parametrize("hand, confirmed", [
    (["bun:mr", "bung:mr"], True),  # Mrs. Bun is a request Alice may make too: ask first
    (["bung:mr", "chip:mr"], False),  # no Bun held: "Mrs. Bun" would be refused, so "Mrs. Bung" it is
    (["bun:mr", "bun:mrs", "bung:mr"], False),  # Mrs. Bun held: not a request she may make
])
def test_a_card_heard_surely_is_confirmed_when_its_sound_alike_may_be_asked_for_too(hand, confirmed):
    """ "Family Bun, Dan." came out "family bung dan" (clean, held-out phrasings), surely: played, it
    asked for the wrong family. A card whose family sounds like another the asker may ask for is
    confirmed first, heard however surely; typed, it is taken as typed."""
    from voicegame.decks import load_deck
    from voicegame.table.session import as_heard
    from voicegame.understanding import Understander

    understander = Understander(load_deck("jaques"), ("Alice", "Ben", "Cara", "Dan"))
    heard = Hearing((Alternative("cara have you got missus bung", 0.99),), sure=True)  # Cara: no sound-alike
    got = as_heard(understander, heard, "Alice", hand, "cards")
    assert (got.intent, got.target, got.card, got.confirm) == ("ask", "Cara", "bung:mrs", confirmed)
    assert as_heard(understander, "Cara, have you got Mrs. Bung?", "Alice", hand, "cards").is_move
    tape = as_heard(understander, Hearing((Alternative("cara have you got master tape", 0.99),), sure=True),
                    "Alice", ["dip:mr", "tape:mr"], "cards")
    assert tape.card == "tape:master" and tape.confirm


def test_a_whole_family_heard_surely_is_confirmed_when_its_sound_alike_is_a_family_too():
    from voicegame.decks import load_deck
    from voicegame.table.session import as_heard
    from voicegame.understanding import Understander

    understander = Understander(load_deck("jaques"), ("Alice", "Ben", "Cara", "Dan"))
    for words, confirmed in (("family bung cara", True), ("family soot cara", False),
                             ("family bung the brewer cara", False),  # the trade heard too
                             ("cara are the boneses at home", True)):  # a plural: Bones sounds like Bun
        got = as_heard(understander, Hearing((Alternative(words, 0.99),), sure=True), "Alice", [], "families")
        assert got.intent == "ask_family" and got.target == "Cara" and got.confirm is confirmed, words


def test_a_request_heard_as_said_to_the_asker_asks_who_it_was_for():
    """ "Ella, have you got Master Bung?" came out "alice have you got master bung" from Alice: no
    one asks themselves, so the table asks whom she meant instead of explaining the rule."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", Hearing((Alternative(f"alice have you got {card.lower()}", 0.99),), sure=True))
    assert game.actions == []
    assert out.lines()[-1] == f"Who do you want to ask for {card}? Say a name: Ben or Cara."
    table.handle("Alice", miss.target)
    assert game.actions[:1] == [Ask(miss.target, card=miss.card, polite=False)]


def test_a_card_named_by_its_trade_is_not_doubted_for_its_surname():
    """The recognizer swaps "bun" and "bung", never "baker" and "brewer": a trade heard settles the family."""
    from voicegame.decks import load_deck
    from voicegame.table.session import as_heard, doubts_card
    from voicegame.understanding import Understander

    understander = Understander(load_deck("jaques"), ("Alice", "Ben", "Cara", "Dan"))
    hand = ["tape:mr", "dip:mr"]
    for words, confirmed in (("cara have you got the dyers son", False), ("cara have you got master dip", True),
                             ("cara have you got master dip the dyers son", False)):
        got = as_heard(understander, Hearing((Alternative(words, 0.99),), sure=True), "Alice", hand, "cards")
        assert got.target == "Cara" and got.confirm is confirmed, words
    family = understander.understand("cara are the dips at home", asker="Alice", hand=hand)
    plural = Hearing((Alternative("cara are the dips at home", 0.99),), sure=True)
    assert family.family == "dip" and doubts_card(understander, plural, family, hand, "cards")  # the plural too


@pytest.mark.parametrize("words, ruled_out, confirmed", [
    ("cara have you got missus bun", {("bun", "bung"), ("bun", "bones")}, False),  # the model never mishears "bun"
    ("cara have you got missus bun", {("bun", "bung")}, True),  # ... but Mrs. Bones is not ruled out
    ("cara have you got missus bun", set(), True),
    ("cara have you got master chip", set(), True),  # "chip" is heard for a said "Dip"
])
def test_a_sound_alike_card_the_recognizer_ruled_out_is_not_asked_about(words, ruled_out, confirmed):
    from voicegame.decks import load_deck
    from voicegame.table.session import as_heard
    from voicegame.understanding import Understander

    understander = Understander(load_deck("jaques"), ("Alice", "Ben", "Cara", "Dan"))
    hand = ["bun:mr", "bung:mr", "bones:mr", "dip:mr", "chip:mr"]
    heard = Hearing((Alternative(words, 0.99),), sure=True, ruled_out=frozenset(ruled_out))
    got = as_heard(understander, heard, "Alice", hand, "cards")
    assert (got.intent, got.target, got.confirm) == ("ask", "Cara", confirmed)


def test_with_other_people_listening_whether_a_card_is_asked_about_does_not_depend_on_the_hand():
    """ "Did you ask Dan for Mr. Bung the Brewer?" was asked only of a player who also held a Bun card:
    the question told the table so. With more than one person playing, a surname heard without its
    trade is asked about whatever the hand holds (with one, only computer players hear the question)."""
    from voicegame.decks import load_deck
    from voicegame.table.session import as_heard
    from voicegame.understanding import Understander

    understander = Understander(load_deck("jaques"), ("Alice", "Ben", "Cara", "Dan"))
    heard = Hearing((Alternative("cara have you got missus bung", 0.99),), sure=True)
    asked = {(tuple(hand), others): as_heard(understander, heard, "Alice", hand, "cards", others).confirm
             for hand in (["bung:mr", "bun:mr"], ["bung:mr"]) for others in (False, True)}
    assert asked == {(("bung:mr", "bun:mr"), False): True, (("bung:mr",), False): False,
                     (("bung:mr", "bun:mr"), True): True, (("bung:mr",), True): True}


def _alice_holding_a_bun_and_a_bung() -> Game:
    """Alice to move, Mrs. Bun and Mrs. Bung both requests she may make."""
    for seed in range(3000):
        game = Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=seed)
        hand = set(game.hand("Alice"))
        if game.current_player == "Alice" and not hand & {"bun:mrs", "bung:mrs"} \
                and any(c.startswith("bun:") for c in hand) and any(c.startswith("bung:") for c in hand):
            return game
    raise AssertionError("no seed deals Alice a Bun and a Bung but neither Mrs.")


@pytest.mark.parametrize("said, asked", [(Hearing((Alternative("missus bung", 0.99),), sure=True), True),
                                         ("Mrs. Bung", False)])
def test_a_card_heard_without_a_name_is_still_doubted_once_the_name_is_given(said, asked):
    """ "Mrs. Bung" heard surely, with no name: "Who do you want to ask?" The name answered does not
    settle the card, which may have been "Mrs. Bun": the table asks about it. Typed, it is played."""
    game = _alice_holding_a_bun_and_a_bung()
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", said)
    assert out.lines()[-1] == "Who do you want to ask for Mrs. Bung? Say a name: Ben or Cara."
    table.handle("Alice", "Cara")
    if asked:
        assert out.lines()[-1].startswith("Did you ask Cara for Mrs. Bung the Brewer's Wife?") and game.actions == []
        table.handle("Alice", "yes")
    assert game.actions[:1] == [Ask("Cara", card="bung:mrs", polite=False)]


def _alice_may_turn_over() -> tuple[Game, Ask]:
    """A memory-variant game (centre cards) where Alice moves first, and a request of hers that misses."""
    for seed in range(200):
        game = Game(["Alice", "Ben", "Cara"], rules=profile("guide").with_overrides(centre_cards=4), seed=seed)
        if game.current_player == "Alice":
            try:
                return game, _miss_for(game, "Alice")
            except AssertionError:
                continue
    raise AssertionError("no seed gives Alice the first turn")


def test_no_to_undo_while_a_turn_over_is_offered_keeps_the_offer():
    """The "no" answers "Undo ...?", and is not taken as passing on the turn-over."""
    game, miss = _alice_may_turn_over()
    table, out = _run_lines(game, [_say(game, miss), "undo", "no", "quit"])
    table.run()
    lines = out.lines()
    assert "All right, nothing was undone." in lines
    assert len(game.actions) == 1 and game.observation("Alice").phase == "flip"
    assert sum(line.startswith("You may turn over a centre card") for line in lines) == 2  # offered again


@pytest.mark.parametrize("answer", ["2 please", "turn over card two", "two"])
def test_a_turn_over_said_in_other_words_is_taken(answer):
    game, miss = _alice_may_turn_over()
    table, out = _run_lines(game, [_say(game, miss), answer, "quit"])
    table.run()
    assert [type(a).__name__ for a in game.actions] == ["Ask", "Flip"] and game.actions[1].slot == 1
    assert "There is no centre card to turn over now." not in out.lines()


def test_i_pass_passes_on_the_turn_over():
    game, miss = _alice_may_turn_over()
    table, out = _run_lines(game, [_say(game, miss), "I pass", "quit"])
    table.run()
    assert [type(a).__name__ for a in game.actions] == ["Ask", "Pass"]


def test_a_turn_over_left_open_is_offered_again_when_the_game_is_resumed():
    game, miss = _alice_may_turn_over()
    game.apply(miss)  # then the program stopped
    table, out = _run_lines(game, ["quit"])
    table.run()
    assert any(line.startswith("You may turn over a centre card") for line in out.lines())


def test_cards_drawn_on_another_players_move_are_told_to_their_new_owner():
    """Alice gives away her last card on Cara's turn and draws from the stock (the stock rule): she
    must hear what she drew, or she would hand over cards she never knew she held."""
    from helpers import game as position

    rules = profile("guide").with_overrides(stock=5).to_json()
    hands = {"Alice": ["bun:mr"], "Cara": ["bun:mrs", "bun:master", "bun:miss"], "Dan": []}
    stock = [c.id for c in load_deck("jaques").cards if c.id not in sum(hands.values(), [])]
    g = position(hands, deck="jaques", rules=rules, turn="Cara", stock=stock)
    table, out = _run_lines(g, ["quit"], bots={"Cara": "memory", "Dan": "memory"})
    table.run()
    drawn = [line for line in out.private_lines.get("Alice", []) if line.startswith("Alice, you drew ")]
    assert drawn  # Alice's turn came with her hand empty, on Dan's move
    assert not any(" drew " in line for line in out.lines())  # never aloud to the table


@pytest.mark.parametrize("answer,played", [("{target}, please", True), ("ask {target}", True),
                                           ("to {target}", True), ("{near}", False)])
def test_who_is_answered_in_everyday_words(answer, played):
    """ "Who do you want to ask?" "Cara, please." A near spelling ("Kara") is asked about."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", f"is {card} at home")
    assert out.lines()[-1].startswith("Who do you want to ask")
    near = {"Ben": "Benn", "Cara": "Kara"}[miss.target]
    table.handle("Alice", answer.format(target=miss.target, near=near))
    if played:
        assert [(a.target, a.card) for a in game.actions] == [(miss.target, miss.card)]
    else:
        assert game.actions == [] and out.lines()[-1] == f"Did you ask {miss.target} for {card}? Say yes or no."


@pytest.mark.parametrize("answer,then", [("not {target}", "Who do you want"), ("never mind {target}", "Who do you want"),
                                         ("anyone but {target}", "Who do you want"),
                                         ("what did {target} ask?", "Did you ask"), ("hand {target}", "Did you ask")])
def test_a_name_said_in_other_words_is_not_taken_for_the_answer(answer, then):
    """ "Who do you want to ask?" "Not Ben.": the name in a line that is not an answer played the
    request to that player at once. With a "not" no one is named (the question is asked again);
    with other words round the name the request is asked about."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", f"is {card} at home")
    table.handle("Alice", answer.format(target=miss.target))
    assert game.actions == [] and out.lines()[-1].startswith(then), out.lines()[-2:]


def test_a_player_called_like_a_command_is_warned_about():
    """ "Who do you want to ask?" "Help." asks Help: a name that is a command gets a nickname offered."""
    game = Game(["Alice", "Help", "Cara"], rules=profile("guide"), seed=5)
    table, out = _run_lines(game, ["stop"] * 3)
    table.run()
    assert out.lines()[1] == "Help is also a command (help). Could Help be called Tiger?"


def test_a_request_without_a_name_that_the_rules_refuse_is_refused_without_asking_who():
    """ "Is Mrs. Bun at home?" from the player holding Mrs. Bun: "Who do you want to ask?", then the rule."""
    game = _alice_to_move()
    held = game.deck.card(game.hand("Alice")[0]).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", f"is {held} at home")
    assert table.pending is None and out.private_lines["Alice"][-1] == f"You already hold {held}."


def test_cancel_drops_the_who_question():
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", f"is {game.deck.card(miss.card).name('en', 'short')} at home")
    table.handle("Alice", "cancel")
    assert out.lines()[-1] == "All right. Say your request again." and table.pending is None


def test_words_that_are_no_answer_leave_the_question_waiting_and_ask_it_again():
    """ "Did you ask Ben for ...?" answered with something the game cannot understand: the question
    is asked again and still waits, so a "yes" after it plays the request (it was dropped in silence,
    and the "yes" then met "There is nothing to answer")."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    unsure = Hearing((Alternative(_say(game, miss).lower().replace(",", "").replace("?", ""), 0.6),), sure=False)
    table, out = _table(game, {}, lambda t: None)
    table.handle("Alice", unsure)
    question = out.lines()[-1]
    assert question.startswith("Did you ask ")
    table.handle("Alice", "bla bla")
    assert out.lines()[-2:] == ["I didn't catch your answer.", question] and game.actions == []
    table.handle("Alice", "bla bla bla")  # again: short (table talk had the question said 13 times in a row)
    assert out.lines()[-3:] == [question, "I didn't catch your answer.", "Say yes or no."]
    table.handle("Alice", "repeat")
    assert out.lines()[-1] == question
    table.handle("Alice", "yes")
    assert game.actions == [Ask(miss.target, card=miss.card, polite=True)]


def test_a_request_offered_for_a_card_held_is_asked_about_privately():
    """Alice holds Mr. Bun and is heard asking Ben for him: "Did you ask Ben for Mrs. Bun?" on the
    loudspeaker would tell everyone which Bun she holds, so only she hears it."""
    from helpers import game as position

    g = position({"Alice": ["bun:mr"], "Ben": ["bun:mrs", "bun:master"], "Cara": ["bun:miss"]}, deck="jaques")
    table, out = _table(g, {}, lambda t: None)
    table.handle("Alice", Hearing((Alternative("ben is mister bun at home", 0.5),), sure=False))
    assert out.private_lines["Alice"][-1].startswith("Did you ask Ben for Mrs. Bun")
    assert not any("Bun" in line for line in out.lines())
    table.handle("Alice", Hearing((Alternative("yes", 0.9),)))
    assert [(a.target, a.card) for a in g.actions] == [("Ben", "bun:mrs")]


def test_a_card_named_by_a_poorly_fitting_trade_alone_is_asked_about():
    """ "Cara, pass me the paper, please" heard surely as "... the painter please", "painter" a poor
    fit: the request is asked about. The same words fitting well, or the trade with the surname, are played."""
    game = _alice_to_move()
    table, _ = _table(game, {}, lambda t: None)
    hand = ["pots:mrs"]

    def heard(text, poor):
        from voicegame.table.session import as_heard

        hearing = Hearing((Alternative(text, 0.9),), sure=True, poor_fits=frozenset(poor))
        return as_heard(table.understander, hearing, "Alice", hand, "cards")

    assert heard("cara pass me the painter please", {"painter"}).confirm
    assert heard("cara pass me the painter please", set()).is_move
    assert heard("cara is mister pots the painter at home", {"painter"}).is_move


def test_a_player_who_loses_the_last_family_is_told_to_be_out():
    """Second phase: no cards and no families left is out of the game, not "keeps their families"."""
    from voicegame.table.narration import Narrator, you_form

    deck = load_deck("sporting")
    event = {"type": "player_out", "player": "Ben", "lost": "families"}
    assert Narrator(deck).sentence(event) == "Ben has no families left, and is out of the game."
    assert you_form(Narrator(deck, {"You"}).sentence({**event, "player": "You"})) == \
        "You have no families left, and are out of the game."
    assert Narrator(deck).sentence({"type": "player_out", "player": "Ben"}) == \
        "Ben has no cards left, and keeps their families."


def test_one_card_is_one_card():
    from voicegame.table.narration import Narrator

    assert Narrator(load_deck("jaques")).cards(1) == "1 card"
    assert Narrator(load_deck("jaques"), lang="nl").cards(1) == "1 kaart"
    game = _alice_to_move()
    table, out = _table(game, {}, lambda t: None)
    assert table.p("status_player", player="Ben", cards=table.narrator.cards(1), families="0 families",
                   named="") == "Ben 1 card, 0 families"


def test_dutch_refusals_say_why_as_the_english_ones_do():
    """Every "wrong phase" refusal was "Dat kan nu niet.": a child was not told what to do instead."""
    game = Game(["Anna", "Ben"], rules=profile("dutch"), seed=3)
    table, out = _run_lines(game, [], lang="nl")
    player = game.current_player
    target = next(p for p in game.players if p != player)
    family = game.deck.card(game.hand(player)[0]).family
    table.handle(player, f"{target}, heb je de familie {game.deck.family(family).name('nl', 'surname')}?")
    table.handle(player, "ja")
    line, prefix = out.private_lines[player][-1], "Vraag om één kaart, bij naam, zoals "
    asked_for = {game.deck.card(r["card"]).name("nl", "short") for r in game.observation(player).legal_requests()}
    assert line.startswith(prefix) and line[len(prefix):-1] in asked_for and game.actions == []  # one they may ask for


def test_none_at_a_turn_over_offer_passes():
    game, table, out = _alice_offered_a_flip()
    table.handle("Alice", "none")
    assert game.actions[-1] == Pass()


def test_a_question_waits_over_a_look_at_the_hand_and_a_pause():
    """ "Who do you want to ask?" then "hand": the question was dropped; "pause", "continue" forgot it."""
    game = _alice_to_move()
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", f"is {card} at home")
    question = out.lines()[-1]
    for line in ("hand", "yes", "pause"):
        table.handle("Alice", line)
    assert table.pending is not None and game.actions == []
    assert out.lines()[-3:-1] == ["I didn't catch your answer.", question]  # the question again, not the hand
    table.handle("Alice", "continue")
    assert out.lines()[-2:] == ["Let's go on. Your turn, Alice.", question]
    table.handle("Alice", miss.target)
    assert (game.actions[0].target, game.actions[0].card) == (miss.target, miss.card)


def test_with_the_politeness_penalty_the_follow_up_question_says_no_please_too_and_yes_please_adds_it():
    game = Game(["Alice", "Ben", "Cara"], rules=profile("guide").with_overrides(politeness_penalty=True), seed=1)
    while game.current_player != "Alice":
        game = Game(["Alice", "Ben", "Cara"], rules=game.rules, seed=game.seed + 1)
    miss = _miss_for(game, "Alice")
    other = next(p for p in ("Ben", "Cara") if p != miss.target)
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _table(game, {"Ben": "random", "Cara": "random"}, lambda t: None)
    table.handle("Alice", f"{miss.target}, is {card} at hoem?")
    table.handle("Alice", f"no, I said {other}")
    assert out.lines()[-1].startswith(f"Then did you ask {other} for {card}, without please?")
    table.handle("Alice", "yes please")
    assert game.actions[0].polite and not any("forgot to say please" in line for line in out.lines())


@pytest.mark.parametrize("said", ["geef me een kaart", "niet kaart 2", "welke kaart was de eerste?"])
def test_dutch_words_with_a_number_are_no_turn_over(said):
    """ "een" is "a" as well as "one": "geef me een kaart" turned card 1 over."""
    rules = profile("guide").with_overrides(centre_cards=4)
    for seed in range(60):
        game = Game(["Anna", "Ben", "Cara"], rules=rules, seed=seed)
        misses = [a for a in game.observation(game.current_player).legal_actions()
                  if isinstance(a, Ask) and a.card and a.card not in game.hand(a.target)]
        if game.current_player == "Anna" and misses:
            break
    table, out = _run_lines(game, [], lang="nl", bots={"Ben": "random", "Cara": "random"})
    table.handle("Anna", f"{misses[0].target}, heb je {game.deck.card(misses[0].card).name('nl', 'short')}?")
    assert game.observation("Anna").phase == "flip"
    moves = len(game.actions)
    table.handle("Anna", said)
    assert len(game.actions) == moves
    table.handle("Anna", "de derde kaart")
    assert [e["slot"] for e in game.log if e["type"] == "flip"] == [2]


def test_a_stop_in_a_dutch_pause_stops():
    """ "stop" asks first in a Dutch game (the brewer's family is Stop), but no request is taken in a pause."""
    game = Game(["Anna", "Ben"], rules=profile("guide"), seed=3)
    table, out = _run_lines(game, [], lang="nl")
    table.handle(game.current_player, "pauze")
    assert table.handle(game.current_player, "stop") is False


def test_a_rule_changed_to_1_is_not_said_as_on():
    from voicegame.table.narration import rule_change

    assert [rule_change("centre_cards", 1, "en"), rule_change("stock", 1, "nl"), rule_change("match_target", 0, "en"),
            rule_change("tie_break", True, "nl")] == ["centre cards 1", "stapel: 1", "match target off",
                                                      "beslissingsronde: aan"]


def test_a_refused_turn_over_is_explained_in_dutch_with_its_number():
    from voicegame.engine import Flip
    from voicegame.table.narration import Narrator

    said = Narrator(load_deck("jaques"), lang="nl").refusal(
        IllegalAction("bad_action", "There is no face-down centre card number 5."), Flip(4))
    assert said == "Middenkaart 5 kun je niet omdraaien. Kies een ander nummer, of zeg pas."


def test_help_in_the_second_phase_suggests_a_family_the_player_may_ask_for():
    from helpers import build

    game = Game.from_position(build({"Alice": [], "Ben": []}, rules="classic", phase="families",
                                    families={"Alice": ["a"], "Ben": list("bcdefghijk")}))
    table, out = _table(game, {}, lambda t: None)
    table.handle("Alice", "help")
    assert out.private_lines["Alice"][0] == ("You can ask Ben for a whole family: B, C, D, E, F, G, H, I, J or K."
                                             " For example: Ben, is B1 and family at home, please?")


def test_help_says_how_to_ask_for_a_whole_family_when_the_rules_allow_it():
    game = Game(["Alice", "Ben", "Cara"], rules=profile("guide").with_overrides(ask_by_surname=True), seed=3)
    table, out = _table(game, {}, lambda t: None)
    table.handle("Alice", "help")
    surname = out.private_lines["Alice"][1]
    assert surname == "Or ask for a whole family: Ben, is the Bones family at home, please?"
    heard = table.understander.understand(surname.split(": ")[1], asker="Alice")
    assert (heard.intent, heard.target, heard.family) == ("ask_family", "Ben", "bones")


def test_in_the_second_phase_the_hand_is_the_families_held():
    """Whole families are asked for then, and the cards are in them: "You have no cards." told a
    player holding six families nothing (and "which Swifts" said none, then "You already hold it")."""
    from helpers import build

    families = [f.key for f in load_deck("sporting").families]
    game = Game.from_position(build({"Alice": [], "Ben": []}, deck="sporting", rules="classic", phase="families",
                                    families={"Alice": families[:2], "Ben": families[2:]}))
    names = [game.deck.family(f).name("en", "surname") for f in families]
    table, out = _table(game, {}, lambda t: None)
    for said in ("hand", f"which {names[0]}s do I have", f"which {names[5]}s do I have"):
        table.handle("Alice", said)
    assert out.private_lines["Alice"] == [f"Alice, you hold 2 families: {names[0]} and {names[1]}.",
                                          f"Alice, you hold the {names[0]} family.",
                                          f"Alice, you do not hold the {names[5]} family."]


def test_the_opening_line_says_which_rules_were_changed_and_what_a_match_is_played_to():
    game = Game(["Alice", "Ben"], rules=profile("guide").with_overrides(centre_cards=4, lay_out_dealt_families=False),
                seed=1)
    table, out = _table(game, {}, lambda t: "quit")
    table.run()
    assert "Rules: guide, with centre cards 4 and lay out dealt families off. Seed 1." in out.lines()[0]
    game = Game(["Alice", "Ben"], rules=profile("dutch"), seed=1)
    table, out = _table(game, {}, lambda t: "quit")
    table.run()
    assert "Rules: dutch; a match: rounds go on until someone has 10 families in all." in out.lines()[0]


def test_a_new_request_in_answer_to_who_is_the_new_request():
    """ "Who do you want to ask for Master Bones?" "Ben, is Mrs. Tape at home?": Mrs. Tape is asked
    for, not Master Bones (a line naming a player was taken for the name alone: a wrong move)."""
    game = _alice_to_move()
    misses = [a for a in game.observation("Alice").legal_actions() if a.card and a.card not in game.hand(a.target)]
    first = misses[0]
    second = next(a for a in misses if a.card != first.card and a.target == first.target)
    table, out = _table(game, {}, lambda t: None)
    table.handle("Alice", f"is {game.deck.card(first.card).name('en', 'short')} at home")
    assert out.lines()[-1].startswith("Who do you want to ask")
    table.handle("Alice", _say(game, second))
    assert [(a.target, a.card) for a in game.actions] == [(second.target, second.card)]


def test_the_sound_alike_follow_up_of_a_card_offered_for_one_held_is_private_too():
    from helpers import game as position

    g = position({"Alice": ["bun:mr"], "Ben": ["bun:mrs"], "Dan": ["bun:master", "bun:miss"]}, deck="jaques")
    table, out = _table(g, {}, lambda t: None)
    table.handle("Alice", Hearing((Alternative("ben is mister bun at home", 0.5),), sure=False))
    table.handle("Alice", Hearing((Alternative("no", 0.9),)))
    assert out.private_lines["Alice"][-1].startswith("Then did you ask Dan for Mrs. Bun")
    assert not any("Bun" in line for line in out.lines())


def test_a_turn_over_heard_unsurely_is_asked_about_first():
    game, miss = _alice_may_turn_over()
    table, out = _table(game, {}, lambda t: None)
    table.handle("Alice", _say(game, miss))
    table.handle("Alice", Hearing((Alternative("two", 0.4),), sure=False))
    assert out.lines()[-1] == "Turn over centre card 2? Say yes or no." and len(game.actions) == 1
    table.handle("Alice", Hearing((Alternative("no", 0.9),)))
    assert out.lines()[-1] == "All right, nothing is done yet." and len(game.actions) == 1
    table.handle("Alice", Hearing((Alternative("nope", 0.4),), sure=False))
    assert out.lines()[-1] == "Pass, and turn over no card? Say yes or no."
    table.handle("Alice", Hearing((Alternative("yes", 0.9),)))
    assert [type(a).__name__ for a in game.actions] == ["Ask", "Pass"]


def test_a_centre_card_that_is_not_there_heard_unsurely_is_not_asked_about():
    """A request said at the offer came out "card eight" of four: the offer is made again, rather
    than "Turn over centre card 8?" and then "There is no face-down centre card number 8"."""
    game, miss = _alice_may_turn_over()
    table, out = _table(game, {}, lambda t: None)
    table.handle("Alice", _say(game, miss))
    table.handle("Alice", Hearing((Alternative("card eight", 0.4),), sure=False))
    assert out.lines()[-1] == "You may turn over a centre card: say its number (1, 2, 3 or 4), or pass."
    assert table.pending is None and len(game.actions) == 1


def test_a_dutch_turn_over_may_be_a_digit():
    for answer in ("2", "draai 2 om"):
        game, miss = _alice_may_turn_over()
        game.apply(miss)
        table, _ = _table(game, {}, lambda t: None, lang="nl")
        table.handle("Alice", answer)
        assert [type(a).__name__ for a in game.actions] == ["Ask", "Flip"] and game.actions[1].slot == 1


def test_a_game_that_can_no_longer_be_saved_says_so_once_and_plays_on(tmp_path, monkeypatch):
    """A full disk mid-game: one sentence, and the game goes on unsaved (it ended in a traceback)."""
    from voicegame.table.journal import Journal

    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    game = _alice_to_move()
    journal = Journal.new(game, {"bots": {"Ben": "random", "Cara": "random"}, "lang": "en"})

    def disk_full(text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal._file, "write", disk_full)
    miss = _miss_for(game, "Alice")
    table, out = _run_lines(game, [_say(game, miss), "quit"], bots={"Ben": "random", "Cara": "random"},
                            journal=journal)
    table.run()
    told = [line for line in out.lines() if "cannot be saved" in line]
    assert told == [f"From here on this game cannot be saved in {tmp_path / 'games'} (no space left on device),"
                    " so it goes on unsaved."]
    assert len(game.actions) > 1 and table.journal is None  # the computer players played on


def test_with_the_politeness_penalty_a_request_asked_about_says_it_has_no_please():
    """A request asked about ("pleas" typed was) loses the turn under the penalty when it has no please
    and the answer is "yes": the question says that it has none. ("pleas" now counts as please.)"""
    game = Game(["Alice", "Ben", "Cara"], rules=profile("guide").with_overrides(politeness_penalty=True), seed=1)
    while game.current_player != "Alice":
        game = Game(["Alice", "Ben", "Cara"], rules=game.rules, seed=game.seed + 1)
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _run_lines(game, [])
    table.handle("Alice", f"{miss.target}, is {card} at hoem?")
    assert out.lines()[-1] == f"Did you ask {miss.target} for {card}, without please? Say yes or no."
    table.handle("Alice", "no")
    table.handle("Alice", f"{miss.target}, is {card} at hoem, pleas?")
    assert out.lines()[-1] == f"Did you ask {miss.target} for {card}? Say yes or no."


def test_the_polite_reminder_asks_for_please_only_where_it_is_all_that_is_missing():
    """A request the rules refuse is refused at once, with the rule (a child would otherwise say it
    twice to hear why); a please said with the name that answers "Who do you want to ask?" counts."""
    game = _alice_to_move()
    held = game.deck.card(game.hand("Alice")[0]).name("en", "short")
    miss = _miss_for(game, "Alice")
    card = game.deck.card(miss.card).name("en", "short")
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"}, polite_reminder=True)
    table.handle("Alice", f"{miss.target}, {held}")
    assert out.private_lines["Alice"][-1] == f"You already hold {held}."  # private: it tells what she holds
    table.handle("Alice", f"{miss.target}, {card}")
    assert out.lines()[-1] == "Remember the magic word, Alice: ask again with please."
    table.handle("Alice", f"I want {card}")
    assert out.lines()[-1].startswith(f"Who do you want to ask for {card}?")
    table.handle("Alice", f"{miss.target} please")
    assert game.actions == [Ask(miss.target, card=miss.card, polite=True)]


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_example_after_words_not_understood_is_a_request_the_rules_allow(lang):
    """ "Try: Cara, is Mr. Bones at home?" to a child holding Mr. Bones: following it got "You already
    hold Mr. Bones." The example is now one the player may ask, in the game's language."""
    first = load_deck("jaques").cards[0]
    game = next(g for g in (Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=s) for s in range(500))
                if g.current_player == "Alice" and first.id in g.hand("Alice"))
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"}, lang=lang)
    table.handle("Alice", "I want a biscuit" if lang == "en" else "ik wil een koekje")
    said = out.private_lines["Alice"][-1]  # the example tells what she holds: to her alone
    example = said.split(": ", 1)[1]
    assert first.name(lang, "short") not in example, said
    assert said.startswith(("I didn't", "Ik hoorde", "Dat heb ik")), said
    follow = table.understander.understand(example, asker="Alice")
    assert follow.is_move and any(isinstance(a, Ask) and (a.target, a.card) == (follow.target, follow.card)
                                  for a in game.observation("Alice").legal_actions()), (said, follow)


# ----------------------------------------------------------- families face down (classic, F-rules-1)

_SPORTING = ["back", "carr", "duck", "mike", "pug", "putt", "salt", "snap", "strong", "swift", "weed", "wing"]


def test_a_resumed_game_says_whose_turn_it_is_as_after_a_move():
    """After the status line, "Your turn, Eva.": the cue to speak (the status line alone left a player
    waiting for it)."""
    game = Game(["Alice", "Ben"], rules=profile("guide"), seed=4)
    game.apply(make_bot("random", game, game.current_player, 1).choose())
    table, out = _run_lines(game, ["quit"])
    table.run()
    lines = out.lines()
    resumed = next(i for i, line in enumerate(lines) if line.startswith("Resuming after"))
    assert lines[resumed + 2] == f"Your turn, {game.current_player}."


def test_status_says_how_many_centre_cards_are_still_face_down():
    game = Game(["Alice", "Ben"], rules=profile("guide").with_overrides(centre_cards=4), seed=4)
    table, out = _run_lines(game, [])
    table.handle(game.current_player, "status")
    assert out.lines()[-1].endswith(" Centre cards face down: 4.")


def test_status_in_the_classic_second_phase_names_no_one_s_families():
    """The classic card lays families face down (003): with status naming every owner, whoever completed
    the last family asked for each in turn and took all 12. Status tells how many; a player hears their
    own with hand, privately."""
    game = Game.from_position({"deck": "sporting", "rules": "classic", "players": ["Alice", "Ben", "Cara"],
                               "hands": {"Alice": [], "Ben": [], "Cara": []}, "turn": "Alice", "phase": "families",
                               "families": {"Alice": _SPORTING[:5], "Ben": _SPORTING[5:8], "Cara": _SPORTING[8:]}})
    table, out = _run_lines(game, [], bots={"Ben": "memory", "Cara": "memory"})
    table.handle("Alice", "status")
    status = out.lines()[-1]
    assert status == "Alice's turn. Alice 0 cards, 5 families; Ben 0 cards, 3 families; Cara 0 cards, 4 families."
    table.handle("Alice", "hand")
    assert out.private_lines["Alice"][-1] == "Alice, you hold 5 families: Back, Carr, Duck, Mike and Pug."
    face_up = Game.from_position(dict(game.position(), rules={"profile": "classic", "families_face_down": False}))
    table, out = _run_lines(face_up, [], bots={"Ben": "memory", "Cara": "memory"})
    table.handle("Alice", "status")
    assert "Ben 0 cards, 3 families (Putt, Salt and Snap)" in out.lines()[-1]


def test_a_classic_game_says_no_family_s_owner_in_the_second_phase_but_what_happens():
    """Played to the end with one person asking at random: after "Every family is complete", a family is
    named only in a request or a hand-over (what the table hears), never in a list of who holds what."""
    game = Game(["Alice", "Ben", "Cara"], rules=profile("classic"), seed=5)
    rng = random.Random(5)

    def script(table):
        g = table.game
        if rng.random() < 0.3:
            return rng.choice(["status", "history", "hand"])
        return _request_text(g, g.current_player, rng.randrange(10**6))

    table, out = _table(game, {"Ben": "memory", "Cara": "child"}, script)
    table.run()
    assert game.over
    lines = out.lines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Every family is complete."))
    assert lines[start].endswith("The families lie face down: remember who holds which.")
    surnames = [game.deck.family(f).name("en", "surname") for f in _SPORTING]
    said = re.compile(r"^(\w+ asks \w+: is the \w+ family at home\?|\w+ gives the \w+ family to \w+\."
                      r"|\w+ asked \w+ for .+: .*)$")  # history: the last requests, a memory aid
    for line in lines[start + 1:]:
        if any(re.search(rf"\b{s}\b", line) for s in surnames):
            assert said.match(line), line


def test_help_names_five_cards_and_with_more_detail_every_card_that_may_be_asked_for():
    game = _alice_to_move()
    wanted = [game.deck.card(r["card"]).name("en", "short") for r in game.observation("Alice").legal_requests()]
    assert len(wanted) > 5
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    table.handle("Alice", "help")
    short = out.private_lines["Alice"][-2]
    assert short.startswith("You can ask ") and " or others (more detail lists them all). For example: " in short
    assert sum(card in short for card in wanted) <= 6  # five, and the example's
    table.handle("Alice", "more detail")
    table.handle("Alice", "help")
    full = out.private_lines["Alice"][-2]
    assert all(card in full for card in wanted) and "others" not in full


def test_a_family_laid_face_down_from_the_deal_is_named_to_its_owner_alone():
    """Under the classic rules a family complete in the dealt hand is laid down unnamed: the table
    hears only that one was, and its owner, who must know it for the second phase, hears which."""
    game = next(g for g in (Game(["Alice", "Ben", "Cara"], rules=profile("classic"), seed=s) for s in range(200))
                if g.position()["families"]["Alice"] and not g.position()["families"]["Ben"])
    family = game.deck.family(game.position()["families"]["Alice"][0]).name("en", "surname")
    table, out = _run_lines(game, ["quit", "yes"], bots={"Ben": "random", "Cara": "random"})
    table.run()
    assert "Alice lays a family from the deal face down: 1 family." in out.lines()
    assert f"Alice, the family you laid face down is the {family} family." in out.private_lines["Alice"]
    assert not any(family in line for line, _ in out.public_lines)


def test_after_both_sound_alike_names_are_refused_the_other_card_is_offered_to_the_name_heard():
    """ "Ben ... Miss Bung" heard: no to Ben, no to Dan; the card that sounds like it then goes with the
    name heard, Ben, never with Dan, whom the player has just refused. Typed, the card is not doubted."""
    game = next(g for g in (Game(["Alice", "Ben", "Cara", "Dan"], rules=profile("guide"), seed=s) for s in range(3000))
                if g.current_player == "Alice" and {"bun", "bung"} <= {c.split(":")[0] for c in g.hand("Alice")}
                and not {"bun:miss", "bung:miss"} & set(g.hand("Alice")))
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random", "Dan": "random"})
    table.handle("Alice", Hearing((Alternative("ben is miss bung at home please", 0.95),), sure=True))
    assert out.lines()[-1] == "Did you ask Ben for Miss Bung the Brewer's Daughter? Say yes or no."
    table.handle("Alice", "no")
    assert out.lines()[-1] == "Then did you ask Dan for Miss Bung the Brewer's Daughter? Say yes or no."
    table.handle("Alice", "no")
    assert out.private_lines["Alice"][-1] == "Then did you ask Ben for Miss Bun the Baker's Daughter?"  # no hint after two
    table.handle("Alice", "no")
    assert game.actions == [] and table.pending is None
    table.handle("Alice", "Is Miss Bung at home?")  # typed: the card is as typed
    table.handle("Alice", Hearing((Alternative("cara", 0.95),), sure=True))
    assert game.actions == [Ask("Cara", card="bung:miss", polite=False)]



def test_a_new_deal_names_its_face_down_families_to_their_owner_again():
    """Each round's families are laid down anew: the same family laid face down in a later round is
    named to its owner again (the round's log narrated twice stands for two such deals)."""
    game = next(g for g in (Game(["Alice", "Ben", "Cara"], rules=profile("classic"), seed=s) for s in range(200))
                if g.position()["families"]["Alice"])
    table, out = _run_lines(game, [], bots={"Ben": "random", "Cara": "random"})
    assert any(e["type"] == "deal" for e in game.log)
    table.narrate(game.log)
    table.narrate(game.log)
    told = [line for line in out.private_lines["Alice"] if "the family you laid face down is" in line]
    assert len(told) == 2 * len(game.position()["families"]["Alice"])


@pytest.mark.parametrize("bots, lang, first", [
    ({"Ben": "memory", "Dan": "memory"}, "en",
     "Happy Families with Alice and 2 computer players at memory level: Ben and Dan."),
    ({"Ben": "memory"}, "nl", "Kwartet met Alice, Dan en 1 computerspeler op niveau geheugen: Ben."),
    ({"Ben": "memory", "Dan": "child"}, "en", "Happy Families with Alice, Ben (computer, memory) and Dan (computer, child)."),
])
def test_the_first_line_names_computer_players_at_one_level_as_a_group(bots, lang, first):
    """A six-player first line named every computer's level: about 230 characters for a braille display."""
    game = Game(["Alice", "Ben", "Dan"], rules=profile("guide"), seed=3)
    table, out = _run_lines(game, ["quit"] * 3, bots=bots, lang=lang)
    table.run()
    assert out.lines()[0].startswith(first + " ")


def test_names_that_sound_alike_are_warned_about_in_the_games_language():
    game = Game(["Anna", "Ben", "Dan"], rules=profile("guide"), seed=3)
    table, out = _run_lines(game, ["stop"] * 3, lang="nl")
    table.run()
    assert out.lines()[1] == ("Ben en Dan klinken bijna hetzelfde, dus ik kan ze door elkaar halen. Kan Dan Tiger"
                              " heten?")


@pytest.mark.parametrize("centre_cards, said", [(0, "This game has no centre cards to turn over."),
                                                (4, "There is no centre card to turn over now.")])
def test_a_number_alone_speaks_of_centre_cards_only_in_a_game_that_has_them(centre_cards, said):
    game = Game(["Alice", "Ben"], rules=profile("guide").with_overrides(centre_cards=centre_cards), seed=3)
    table, out = _run_lines(game, [])
    table.handle(game.current_player, "5")
    assert out.lines()[-1] == said and game.actions == []


def test_a_no_that_fits_like_table_talk_drops_the_question_but_offers_nothing_else():
    """A stray "no" reaches the table while "Did you ask Ben ...?" waits (a clear "no" was let pass and the
    player waited in silence); table talk heard as one must not turn the question into "Then did you ask
    Dan ...?", which a "yes" meant for the first question would answer."""
    for seed in range(100):
        game = Game(["Alice", "Ben", "Dan"], rules=profile("guide"), seed=seed)
        misses = [a for a in game.observation("Alice").legal_actions()
                  if a.card and a.target == "Ben" and a.card not in game.hand("Ben")
                  and Ask("Dan", card=a.card) in game.observation("Alice").legal_actions()]
        if game.current_player == "Alice" and misses:
            break
    table, out = _run_lines(game, [], bots={"Ben": "random", "Dan": "random"})
    table.handle("Alice", Hearing((Alternative(_say(game, misses[0]).lower(), 0.99),), sure=True))
    assert out.lines()[-1].startswith("Did you ask Ben for ")
    table.handle("Alice", Hearing((Alternative("no", 0.2),), sure=False, doubtful=True, stray=True))
    assert out.lines()[-1] == "All right. Say your request again." and table.pending is None
    table.handle("Alice", "yes")
    assert game.actions == []
