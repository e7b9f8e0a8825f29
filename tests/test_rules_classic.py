"""Seed 003, the old rules card (profile ``classic``): every test quotes the sentence it checks."""

from __future__ import annotations

import random

import pytest

from helpers import assert_cards_conserved, build, check_quotes, game, of_type, play_out, seed, types
from voicegame.engine import Ask, Game, IllegalAction, profile

CLASSIC = profile("classic")
NAMES = ["Alice", "Ben", "Cara", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
SPORTING = ["back", "carr", "duck", "mike", "pug", "putt", "salt", "snap", "strong", "swift", "weed", "wing"]


def cards(text: str) -> list[str]:
    """"strong:mr duck:miss" -> ["strong:mr", "duck:miss"]."""
    return text.split()


def classic(hands, **kwargs):
    return game(hands, deck="sporting", rules="classic", **kwargs)


def families_phase(families, turn="Alice", **extra):
    """A second-phase position: every family scored, hands empty."""
    players = list(families)
    return Game.from_position(build({p: [] for p in players}, deck="sporting", rules="classic",
                                    families=families, turn=turn, phase="families", **extra))


def test_quotes_are_verbatim():
    assert check_quotes(globals()) >= 14


# ------------------------------------------------------------------ the pack and the deal


@seed("003", "played with a pack of 48 cards, comprising 12 families")
def test_classic_plays_the_48_card_sporting_pack():
    g = Game(NAMES[:3], rules=CLASSIC, seed=1)
    assert g.deck.name == "sporting"
    assert len(g.deck.cards) == 48
    assert [f.key for f in g.deck.families] == SPORTING


@seed("003", "Each family consists of Father, Mother, Son and Daughter.")
def test_each_family_is_father_mother_son_daughter():
    g = Game(NAMES[:2], rules=CLASSIC, seed=1)
    assert g.deck.members == ("mr", "mrs", "master", "miss")
    assert [c.name(form="short") for c in g.deck.family("strong").cards] == [
        "Mr. Strong", "Mrs. Strong", "Master Strong", "Miss Strong"]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 8, 12])
@seed("003", "Any number of players may participate in this game")
@seed("003", "dealt face downwards to each player in turn until the pack is exhausted.")
def test_whole_pack_is_dealt_to_any_number_of_players(count):
    g = Game(NAMES[:count], rules=CLASSIC, seed=count)
    sizes = g.log[0]["hand_sizes"]
    assert sum(sizes.values()) == 48
    assert max(sizes.values()) - min(sizes.values()) <= 1
    assert sizes[NAMES[count - 1]] == min(sizes.values())  # the dealer is dealt last
    assert "stock" not in g.position()
    assert_cards_conserved(g)


@seed("003", "should he possess a complete family of 4 cards, it should be placed face downwards on the table.")
def test_dealt_complete_family_goes_on_the_table():
    found = False
    for s in range(300):
        g = Game(NAMES[:2], rules=CLASSIC, seed=s)
        for e in of_type(g.log, "family_complete"):
            assert e["dealt"]
            assert e["family"] in g.families_of(e["player"])
            assert not any(c.startswith(e["family"] + ":") for c in g.hand(e["player"]))
            found = True
    assert found


@seed("003", "the player sitting to the left of the dealer opens the game")
def test_left_of_dealer_opens():
    assert Game(NAMES[:4], rules=CLASSIC, seed=2, dealer="Cara").current_player == "Dan"
    assert Game(NAMES[:4], rules=CLASSIC, seed=2, dealer="Dan").current_player == "Alice"


# ------------------------------------------------------------------ the first part: single cards


@seed("003", "if Mr. Strong is wanted, he must address another player and say \" Is Mr. Strong at home?\"")
def test_asking_for_mr_strong():
    g = classic({"Alice": cards("strong:mrs"), "Ben": cards("strong:mr weed:mr"), "Cara": cards("weed:mrs")},
                spare="Cara")
    events = g.apply(Ask("Ben", card="strong:mr"))
    assert events[0] == {"type": "ask", "player": "Alice", "target": "Ben", "card": "strong:mr", "polite": True}
    assert g.deck.card("strong:mr").name() == "Mr. Strong the Weight Lifter"


@seed("003", "Should the player thus addressed hold this card, he must pass it to the caller, who is then"
             " entitled to ask for yet another card (either from the same person or another player) and so on"
             " until he makes a mistake.")
def test_success_lets_the_caller_go_on_until_a_mistake():
    g = classic({"Alice": cards("strong:mrs weed:mrs"), "Ben": cards("strong:mr weed:mr duck:mr"),
                 "Cara": cards("strong:miss weed:miss duck:mrs")}, spare="Cara")
    g.apply(Ask("Ben", card="strong:mr"))
    assert g.current_player == "Alice"
    g.apply(Ask("Ben", card="weed:mr"))  # the same person
    assert g.current_player == "Alice"
    g.apply(Ask("Cara", card="strong:miss"))  # another player
    assert g.current_player == "Alice"
    g.apply(Ask("Ben", card="weed:miss"))  # the mistake: Cara holds it
    assert g.current_player == "Ben"


@seed("003", "The player not having the card for which he was asked, must answer \" Not at home,\" and it is"
             " then his turn to make the calls.")
def test_not_at_home_gives_the_turn_to_the_asked_player():
    g = classic({"Alice": cards("duck:mr"), "Ben": cards("pug:mr"), "Cara": cards("duck:mrs"),
                 "Dan": cards("pug:mrs")}, spare="Dan")
    events = g.apply(Ask("Cara", card="duck:miss"))
    assert types(events) == ["ask", "not_at_home", "turn"]
    assert events[1]["player"] == "Cara"
    assert g.current_player == "Cara"  # not Ben, on Alice's left


@seed("003", "Players must remember that they may only ask for a card if they have another card or more of"
             " the same family in their hands.")
def test_may_only_ask_within_a_family_held():
    g = classic({"Alice": cards("duck:mr"), "Ben": cards("pug:mr duck:mrs"), "Cara": cards("pug:mrs")},
                spare="Cara")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="pug:mr"))
    assert err.value.code == "family_not_held"
    assert all(a.card.startswith("duck:") for a in g.legal_actions())


@seed("003", "Also a player must give up a card when requested to do so.")
def test_requested_card_is_always_given_up():
    g = classic({"Alice": cards("duck:mr"), "Ben": cards("duck:mrs duck:miss pug:mr"), "Cara": cards("pug:mrs")},
                spare="Cara")
    g.apply(Ask("Ben", card="duck:miss"))
    assert "duck:miss" in g.hand("Alice") and "duck:miss" not in g.hand("Ben")


# ------------------------------------------------------------------ rule 8: the second phase


def _last_family_position():
    """Everything scored but the Wings; Cara (to move) holds three Wings, Ben the last one."""
    return classic(
        {"Alice": [], "Ben": cards("wing:miss"), "Cara": cards("wing:mr wing:mrs wing:master")},
        families={"Alice": SPORTING[:5], "Ben": SPORTING[5:8], "Cara": SPORTING[8:11]},
        turn="Cara", dealer="Alice",
    )


@seed("003", "When all the families have been completed, the game proceeds on the same lines, but instead of"
             " asking for one card such as Mr. Strong, the player asks for the four cards, namely, \" Is Mr."
             " Strong and Family at home?\"")
def test_second_phase_starts_when_all_families_are_complete():
    g = _last_family_position()
    events = g.apply(Ask("Ben", card="wing:miss"))
    assert types(events)[:3] == ["ask", "transfer", "family_complete"]
    assert {"type": "phase", "phase": "families", "player": "Cara"} in events
    assert not g.over and g.phase == "families"
    # now every request is for a whole family
    assert g.legal_actions() and all(a.family and a.card is None for a in g.legal_actions())
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Alice", card="back:mr"))
    assert err.value.code == "wrong_phase"


@seed("003", "The first player to ask for completed families is the one completing the last family in the"
             " earlier part of the game.")
def test_completer_of_the_last_family_asks_first():
    """Cara empties her hand completing the Wings: in the first part the turn would pass on, but she asks first."""
    g = _last_family_position()
    g.apply(Ask("Ben", card="wing:miss"))
    assert g.hand("Cara") == []
    assert g.current_player == "Cara"
    assert g.position()["last_completed"] == "Cara"


@seed("003", "The first player to ask for completed families is the one completing the last family in the"
             " earlier part of the game.")
def test_completer_asks_first_even_when_not_the_one_to_move_next():
    """Alice completes the last family and the game continues with her, not left of the dealer."""
    g = classic(
        {"Alice": cards("wing:mr wing:mrs wing:master"), "Ben": cards("wing:miss"), "Cara": []},
        families={"Alice": SPORTING[:2], "Ben": SPORTING[2:8], "Cara": SPORTING[8:11]},
        turn="Alice", dealer="Ben",
    )
    g.apply(Ask("Ben", card="wing:miss"))
    assert g.phase == "families" and g.current_player == "Alice"


@seed("003", "Is Mr. Strong and Family at home?")
def test_asking_for_a_whole_family_transfers_it():
    g = families_phase({"Alice": SPORTING[:4], "Ben": SPORTING[4:9], "Cara": SPORTING[9:]})
    events = g.apply(Ask("Ben", family="strong"))
    assert types(events) == ["ask", "transfer"]
    assert events[1] == {"type": "transfer", "from": "Ben", "to": "Alice", "family": "strong"}
    assert "strong" in g.families_of("Alice") and "strong" not in g.families_of("Ben")
    assert g.current_player == "Alice"
    assert_cards_conserved(g)


@seed("003", "the game proceeds on the same lines")
def test_second_phase_miss_gives_the_turn_to_the_asked_player():
    g = families_phase({"Alice": SPORTING[:4], "Ben": SPORTING[4:9], "Cara": SPORTING[9:]})
    events = g.apply(Ask("Ben", family="wing"))  # Cara has the Wings
    assert types(events) == ["ask", "not_at_home", "turn"]
    assert g.current_player == "Ben"
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Alice", family="pug"))  # Ben already holds the Pugs
    assert err.value.code == "own_card"


def test_a_card_asked_for_in_the_second_phase_is_refused_with_an_example_from_this_deck():
    g = families_phase({"Alice": SPORTING[:4], "Ben": SPORTING[4:9], "Cara": SPORTING[9:]})
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="back:mrs"))  # Alice holds the Backs
    assert err.value.code == "own_card"
    assert err.value.message == ("You already hold the Back family. Every family is complete: now ask for a whole"
                                 " family you do not hold, such as: is Mr. Pug and family at home?")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="strong:miss"))
    assert err.value.code == "wrong_phase"
    assert err.value.message == ("Every family is complete: now ask for a whole family, such as:"
                                 " is Miss Strong and family at home?")
    letters = Game.from_position(build({"Alice": [], "Ben": []}, rules="classic", phase="families",
                                       families={"Alice": ["a"], "Ben": list("bcdefghijk")}))
    with pytest.raises(IllegalAction, match="You already hold the A family.* is B1 and family at home"):
        letters.apply(Ask("Ben", card="a:1"))


@seed("003", "The winner of the game is he who at the end possesses all I2 families.")
def test_winner_holds_all_twelve_families():
    g = families_phase({"Alice": SPORTING[:10], "Ben": SPORTING[10:11], "Cara": SPORTING[11:]})
    g.apply(Ask("Ben", family="weed"))
    assert not g.over
    assert {"type": "player_out", "player": "Ben", "lost": "families"} in g.log
    assert "Ben" not in {a.target for a in g.legal_actions()}
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", family="wing"))
    assert err.value.code == "target_empty"
    g.apply(Ask("Cara", family="wing"))
    assert g.over
    assert g.winners == ["Alice"]
    assert len(g.families_of("Alice")) == 12


@seed("003", "The winner of the game is he who at the end possesses all I2 families.")
def test_random_classic_games_end_with_one_owner_of_everything():
    for s in range(10):
        rng = random.Random(s)
        g = Game(NAMES[: 2 + s % 4], rules=CLASSIC, seed=s)
        play_out(g, rng.choice)
        assert g.over and g.phase == "families"
        assert len(g.winners) == 1
        assert sorted(g.families_of(g.winners[0])) == sorted(SPORTING)
        assert_cards_conserved(g)
