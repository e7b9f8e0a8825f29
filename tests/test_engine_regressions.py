"""One regression test (or a few) per engine bug found by review, and the random bot's uniformity."""

from __future__ import annotations

import collections
import json
import random

import pytest

from helpers import build, game, letters, of_type, play_out, types
from voicegame.bots.random_bot import RandomBot
from voicegame.engine import Ask, Flip, Game, IllegalAction, Pass, PositionError, profile

NAMES = ["Alice", "Ben", "Cara", "Dan", "Eve"]
NOT_LAID_OUT = {"profile": "guide", "lay_out_dealt_families": False}


# ---------------------------------------------------------- 1. lay_out_dealt_families off


def test_a_dealt_family_is_laid_out_at_its_owners_first_turn():
    g = game({"Alice": letters("A1 C2"), "Ben": letters("B1 B2 B3 B4 C1"), "Cara": letters("A2 A3 A4 C3 C4")},
             rules=NOT_LAID_OUT)
    assert g.families_of("Ben") == []
    events = g.apply(Ask("Ben", card="a:2"))
    assert types(events) == ["ask", "not_at_home", "turn", "family_complete"]
    assert events[-1] == {"type": "family_complete", "player": "Ben", "family": "b", "families": 1, "dealt": True}
    assert g.current_player == "Ben" and g.hand("Ben") == ["c:1"]


def test_a_hand_of_only_a_dealt_family_does_not_freeze_the_game():
    g = game({"Alice": letters("A1 C2"), "Ben": letters("B1 B2 B3 B4"), "Cara": letters("A2 A3 A4 C1 C3 C4")},
             rules=NOT_LAID_OUT)
    events = g.apply(Ask("Ben", card="a:2"))
    assert types(events) == ["ask", "not_at_home", "turn", "family_complete", "turn"]
    assert g.families_of("Ben") == ["b"] and g.hand("Ben") == []
    assert g.current_player == "Cara" and g.legal_actions()


def test_a_player_to_move_may_not_hold_a_whole_dealt_family():
    with pytest.raises(PositionError, match="holds the whole B family"):
        game({"Alice": letters("B1 B2 B3 B4 A1"), "Ben": letters("A2 A3 A4")}, rules=NOT_LAID_OUT)


@pytest.mark.parametrize("count", [2, 3, 4, 6])
def test_random_games_with_dealt_families_kept_always_go_on_and_end(count):
    rules = profile("guide").with_overrides(lay_out_dealt_families=False)
    dealt_later = 0
    for seed in range(60):
        g = Game(NAMES[:count] if count <= 5 else NAMES + ["Finn"], rules=rules, seed=seed)
        play_out(g, random.Random(seed).choice)  # asserts a legal action at every step
        assert g.over
        for i, e in enumerate(g.log):
            if e["type"] == "family_complete" and e["dealt"]:
                dealt_later += 1
                before = g.log[i - 1]
                assert before["type"] in ("turn", "family_complete", "deal")
                if before["type"] == "turn":
                    assert before["player"] == e["player"]
    assert dealt_later > 0


# ---------------------------------------------------------- 2. and 3. tie-break rounds


def test_a_tie_break_round_nobody_completes_is_played_again_by_the_same_players():
    centre = [c for c in letters(" ".join(f"{f}{i}" for f in "ABCDEFGHIJK" for i in range(1, 5))) if c != "a:1"]
    # Alice holds the only card in hand, so nobody can be asked; she passes instead of turning a card over.
    g = game({"Alice": ["a:1"], "Ben": [], "Cara": []}, rules={"profile": "dutch", "centre_cards": 4,
             "match_target": 0}, centre=centre, round_players=["Alice", "Ben"], tiebreak=True, pending="flip",
             dealer="Ben")
    events = g.apply(Pass())
    assert events[0] == {"type": "tiebreak", "players": ["Alice", "Ben"], "again": True}  # "still tied"
    deal = events[1]
    assert deal["type"] == "deal" and deal["players"] == ["Alice", "Ben"] and deal["dealer"] in deal["players"]
    assert deal["sudden_death"] == 2  # said "Sudden-death round 2", not the next round's number
    assert "round_over" not in types(events)


def test_the_dealer_of_a_tie_break_round_plays_it():
    g = game({"Alice": letters("A1 A2 A3"), "Dan": letters("A4")}, players=NAMES[:4],
             families={"Ben": list("bcdef"), "Cara": list("ghijk")}, rules={"profile": "dutch", "match_target": 0},
             dealer="Dan", seed=3)
    events = g.apply(Ask("Dan", card="a:4"))
    deal = of_type(events, "deal")[0]
    # Clockwise from Dan the next dealer would be Alice, who is not tied: Ben, the next tied player, deals.
    assert deal["players"] == ["Ben", "Cara"] and deal["dealer"] == "Ben"
    assert deal["hand_sizes"] == {"Ben": 22, "Cara": 22}
    turns = of_type(events, "turn")
    if turns:  # unless a dealt family decided it at once, the player left of the dealer starts
        assert turns[0]["player"] == "Cara"


def test_every_deal_names_a_dealer_who_plays_that_round():
    for seed in range(40):
        g = Game(NAMES[: 3 + seed % 3], rules=profile("dutch"), seed=seed)
        play_out(g, random.Random(seed).choice)
        for deal in of_type(g.log, "deal"):
            assert deal["dealer"] in deal["players"]


# ---------------------------------------------------------- 4. memory variant, nobody left to ask


def _alone_with_the_centre() -> Game:
    return game({"Alice": letters("A1 A2"), "Ben": [], "Cara": []}, rules={"profile": "guide", "centre_cards": 6},
                centre=letters("B1 A3 B2 A4 B3 B4"), families={"Ben": list("cdefg"), "Cara": list("hijk")},
                pending="flip")


def test_nobody_left_to_ask_a_flip_is_offered_and_a_useless_slot_only_once():
    g = _alone_with_the_centre()
    assert g.legal_actions() == [Flip(i) for i in range(6)] + [Pass()]
    events = g.apply(Flip(0))
    assert events[0]["kept"] is False and g.observation("Alice").phase == "flip"
    assert g.legal_actions() == [Flip(i) for i in range(1, 6)] + [Pass()]
    assert json.loads(json.dumps(g.position()))["centre_seen"] == [0]
    assert Game.from_position(g.position()).legal_actions() == g.legal_actions()


def test_nobody_left_to_ask_always_taking_the_first_choice_ends_the_round():
    g = _alone_with_the_centre()
    steps = play_out(g, lambda legal: legal[0], max_steps=50)
    assert g.over and steps == 4  # b:1 turned back, a:3 kept, b:2 turned back, a:4 completes the family
    assert g.families_of("Alice") == ["a"]


def test_nobody_left_to_ask_passing_ends_the_round():
    g = _alone_with_the_centre()
    events = g.apply(Pass())
    assert g.over and types(events) == ["round_over", "game_over"]


def test_a_pending_flip_after_a_miss_records_who_was_asked():
    g = game({"Alice": letters("A1 B1"), "Ben": letters("A2"), "Cara": letters("B2")},
             rules={"profile": "guide", "centre_cards": 2}, centre=letters("A3 B3"), spare="Cara")
    g.apply(Ask("Cara", card="a:2"))
    pos = g.position()
    assert pos["pending"] == "flip" and pos["asked"] == "Cara"
    del pos["asked"]
    with pytest.raises(PositionError, match="say who was asked"):
        Game.from_position(pos)


def test_a_refused_turn_over_names_the_centre_card_as_the_player_counts_it():
    g = _alone_with_the_centre()
    for slot, number in ((6, "number 7"), (-1, "number 0")):
        with pytest.raises(IllegalAction, match=f"There is no face-down centre card {number}\\."):
            g.apply(Flip(slot))
    g.apply(Flip(0))  # b:1, turned back: Alice holds no B
    with pytest.raises(IllegalAction, match="Centre card 1 was turned over before"):
        g.apply(Flip(0))


# ---------------------------------------------------------- 5. loading a position


@pytest.mark.parametrize("hands, extra, message", [
    ({"Alice": letters("A1 B1"), "Ben": letters("A2 B2"), "Cara": []}, {"turn": "Cara", "spare": "Ben"},
     "Cara has no cards"),
    ({"Alice": letters("A1 A2"), "Ben": []},
     {"rules": {"profile": "guide", "centre_cards": 2}, "centre": letters("A3 A4"), "spare_families": "Ben"},
     "nobody else"),
    ({"Alice": [], "Ben": []}, {"families": {"Alice": list("abcdef"), "Ben": list("ghijk")}}, "round is over"),
    ({"Alice": letters("A1"), "Ben": letters("A2"), "Cara": letters("A3 A4")},
     {"round_players": ["Alice", "Ben"], "turn": "Cara"}, "not playing this round"),
])
def test_a_position_whose_player_to_move_cannot_act_is_refused(hands, extra, message):
    with pytest.raises(PositionError, match=message):
        Game.from_position(build(hands, **extra))


def _a_position_with_everything() -> dict:
    """A match in round 2, with stock and centre cards, as the engine writes it."""
    rules = profile("guide").with_overrides(stock=4, centre_cards=2, match_target=20)
    return json.loads(json.dumps(Game(NAMES[:3], rules=rules, seed=1).position() | {"round": 2}))


@pytest.mark.parametrize("field, value, message", [
    ("dealer", "Zed", "There is no player called Zed. The players are Alice, Ben and Cara."),
    ("rules", 5, 'rules must be the name of a profile, such as "guide", or an object of rules'),
    ("deck", ["jaques"], "deck must be the name of a deck"),
    ("players", [], "A game needs between 2 and 12 players."),
    ("players", "Alice", 'The players must be a list of names, such as ["Alice", "Ben"].'),
    ("players", ["Alice", 5], "The players must be a list of names"),
    ("hands", {"Alice": 5}, "Alice's hand must be a list, such as"),
    ("hands", ["a:1"], "hands must list each player's cards by name"),
    ("families", ["bun"], "families must list each player's families by name"),
    ("families", {"Alice": [["bun"]]}, "There is no family ['bun'] in the jaques deck."),
    ("centre", 5, "centre must be a list, such as"),
    ("stock", {"a:1": 1}, "stock must be a list, such as"),
    ("centre_seen", 0, "centre_seen must be a list"),
    ("round", "x", "round must be a whole number from 1 up, not 'x'."),
    ("round", 0, "round must be a whole number from 1 up"),
    ("totals", {"Alice": "x"}, "Alice's total must be a whole number of families, not 'x'."),
    ("totals", {"Alice": 1.5}, "Alice's total must be a whole number of families"),
    ("totals", 3, "totals must list each player's total by name"),
    ("round_players", "Alice", "round_players must be a list"),
    ("tiebreak", "no", "tiebreak must be true or false"),
    ("pending", "yes", 'pending can only be "flip"'),
])
def test_a_state_with_a_field_of_the_wrong_kind_says_which_field_to_fix(field, value, message):
    pos = _a_position_with_everything()
    Game.from_position(pos)
    pos[field] = value
    with pytest.raises(PositionError) as err:
        Game.from_position(pos)
    assert message in str(err.value)


def test_every_position_the_engine_reaches_loads_again():
    rules = profile("guide").with_overrides(centre_cards=3, stock=4)
    for seed in range(15):
        g = Game(NAMES[: 2 + seed % 3], rules=rules, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            h = Game.from_position(json.loads(json.dumps(g.position())), seed=seed)
            assert h.legal_actions() == g.legal_actions()
            g.apply(rng.choice(g.legal_actions()))


# ---------------------------------------------------------- the random bot


def test_random_bot_requests_are_uniform_over_every_legal_target_and_card():
    g = game({"Alice": letters("A1 B1 B2 C3"), "Ben": letters("A2 B3"), "Cara": letters("A3 A4 C1"),
              "Dan": letters("C2 C4 B4")})
    legal = g.legal_actions()
    assert len(legal) == 3 * 8
    bot = RandomBot(g.observation("Alice"), random.Random(1))
    draws = 42_000
    counts = collections.Counter(bot.choose() for _ in range(draws))
    assert set(counts) == set(legal)
    expected = draws / len(legal)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 50  # 23 degrees of freedom: p < 0.001 by chance


def test_a_match_continued_from_its_state_file_deals_its_later_rounds_as_the_game_does():
    """position() had no seed: a match carried on with `voicegame step` dealt other hands from round 2 on."""
    game = Game(["Alice", "Ben", "Cara"], rules=profile("dutch"), seed=77)
    rng = random.Random(1)
    while game.round == 0 and not game.over:
        copy = Game.from_position(json.loads(json.dumps(game.position())))
        action = rng.choice(game.observation(game.current_player).legal_actions())
        game.apply(action)
        copy.apply(action)
    assert game.round == 1
    assert copy.position() == game.position()
