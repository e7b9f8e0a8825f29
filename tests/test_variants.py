"""The variants of seed 004 (and the house rules the engine offers as overrides), each against its sentence."""

from __future__ import annotations

import random

import pytest

from helpers import assert_cards_conserved, build, check_quotes, game, letters, of_type, play_out, seed, types
from voicegame.decks import load_deck
from voicegame.engine import Ask, Flip, Game, IllegalAction, Pass, PositionError, profile

NAMES = ["Alice", "Ben", "Cara", "Dan", "Eve", "Finn"]
GUIDE = profile("guide")


def test_quotes_are_verbatim():
    assert check_quotes(globals()) >= 15


# ------------------------------------------------------------------ Go Fish: a stock

GO_FISH = "Go Fish-variant: Als de gevraagde speler de kaart niet heeft, trek je één kaart van een 'spel' van niet" \
          " uitgedeelde kaarten. Alleen van toepassing als niet alle kaarten aan het begin zijn uitgedeeld."
STOCK = {"profile": "guide", "stock": 5}


@pytest.mark.parametrize("count", [2, 3, 5])
@seed("004", GO_FISH)
def test_stock_deal_leaves_undealt_cards(count):
    g = Game(NAMES[:count], rules=GUIDE.with_overrides(stock=5), seed=count)
    deal = g.log[0]
    assert all(n == 5 for n in deal["hand_sizes"].values())
    assert deal["stock"] == 44 - 5 * count == len(g.position()["stock"])
    assert_cards_conserved(g)


@seed("004", GO_FISH)
def test_failed_asker_draws_one_card():
    g = game({"Alice": letters("A1"), "Ben": letters("B1"), "Cara": letters("B2")}, rules=STOCK,
             stock=letters("C1"), spare="Cara")
    events = g.apply(Ask("Ben", card="a:2"))
    assert types(events)[:3] == ["ask", "not_at_home", "draw"]
    assert events[2] == {"type": "draw", "player": "Alice", "stock": 0}
    assert sorted(g.hand("Alice")) == letters("A1 C1")
    assert "stock" not in g.position()
    assert g.current_player == "Ben"  # the guide's after-miss rule still decides the turn
    assert_cards_conserved(g)


@seed("004", GO_FISH)
def test_drawn_card_completing_a_family_is_laid_out():
    g = game({"Alice": letters("A1 A2 A3 B1"), "Ben": letters("B2"), "Cara": letters("B3")}, rules=STOCK,
             stock=letters("C1 A4"), spare="Cara")
    events = g.apply(Ask("Ben", card="b:3"))  # Cara holds it; Alice draws A4 from the top
    assert of_type(events, "family_complete") == [
        {"type": "family_complete", "player": "Alice", "family": "a", "families": 1, "dealt": False}]
    assert g.hand("Alice") == ["b:1"]


@seed("004", "Alleen van toepassing als niet alle kaarten aan het begin zijn uitgedeeld.")
def test_no_draw_without_a_stock():
    g = game({"Alice": letters("A1"), "Ben": letters("B1"), "Cara": letters("B2")}, spare="Cara")
    events = g.apply(Ask("Ben", card="a:2"))
    assert "draw" not in types(events) and g.hand("Alice") == ["a:1"]


@seed("004", GO_FISH)
def test_empty_hand_draws_from_the_stock_instead_of_leaving():
    """Engine behaviour with a stock: a player left without cards draws rather than dropping out."""
    g = game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4 B1"), "Cara": letters("B2")}, rules=STOCK,
             stock=letters("C1"), spare="Cara")
    events = g.apply(Ask("Ben", card="a:4"))
    assert "family_complete" in types(events)
    assert {"type": "draw", "player": "Alice", "stock": 0} in events
    assert g.hand("Alice") == ["c:1"] and g.current_player == "Alice"


@seed("004", GO_FISH)
def test_go_fish_games_end_and_conserve_cards():
    for s in range(8):
        g = Game(NAMES[: 2 + s % 4], rules=GUIDE.with_overrides(stock=4 + s % 3), seed=s)
        play_out(g, random.Random(s).choice)
        assert g.over and sum(g.scores().values()) == 11
        assert_cards_conserved(g)


# ------------------------------------------------------------------ memory: centre cards

MEMORY = "Geheugen Happy Families: Na het uitdelen worden sommige kaarten met de beeldkant naar beneden in het" \
         " midden neergelegd; als je via vragen geen overeenkomst kunt vinden, mag je een middenkaart omdraaien."
CENTRE = {"profile": "guide", "centre_cards": 3}


def _memory_game():
    return game({"Alice": letters("A1 B1"), "Ben": letters("C1"), "Cara": letters("A2 C2")}, rules=CENTRE,
                centre=letters("A3 D1 B2"), spare="Cara")


@seed("004", MEMORY)
def test_centre_cards_are_dealt_face_down():
    g = Game(NAMES[:4], rules=GUIDE.with_overrides(centre_cards=4), seed=2)
    assert g.log[0]["centre"] == 4
    assert sum(g.log[0]["hand_sizes"].values()) == 40
    assert len(g.position()["centre"]) == 4
    assert_cards_conserved(g)


@seed("004", MEMORY)
def test_after_a_failed_request_a_centre_card_may_be_turned():
    g = _memory_game()
    events = g.apply(Ask("Ben", card="a:2"))
    assert types(events) == ["ask", "not_at_home"]
    assert g.current_player == "Alice" and g.position()["pending"] == "flip"
    assert g.observation("Alice").phase == "flip"
    assert g.legal_actions() == [Flip(0), Flip(1), Flip(2), Pass()]
    events = g.apply(Flip(0))
    assert events[0] == {"type": "flip", "player": "Alice", "slot": 0, "card": "a:3", "kept": True}
    assert "a:3" in g.hand("Alice")
    assert g.position()["centre"] == [None, "d:1", "b:2"]
    assert g.current_player == "Ben"  # then the turn goes as after any failure (the guide: the asked player)
    assert_cards_conserved(g)


@seed("004", MEMORY)
def test_centre_card_of_a_family_not_held_stays_in_the_centre():
    g = _memory_game()
    g.apply(Ask("Ben", card="a:2"))
    events = g.apply(Flip(1))
    assert events[0]["kept"] is False and events[0]["card"] == "d:1"
    assert g.position()["centre"] == ["a:3", "d:1", "b:2"]
    assert "d:1" not in g.hand("Alice")


@seed("004", MEMORY)
def test_turning_a_card_is_optional():
    g = _memory_game()
    g.apply(Ask("Ben", card="a:2"))
    events = g.apply(Pass())
    assert "flip" not in types(events) and g.current_player == "Ben"
    assert g.position()["centre"] == ["a:3", "d:1", "b:2"]


@seed("000", "On failure, the opponent says no and receives the next turn themselves")
@seed("004", MEMORY)
def test_position_saved_while_a_flip_is_due_keeps_the_turn_rule():
    """Alice asks Cara (not her left neighbour) and misses; the position is saved before she flips.

    Engine bug reproducer: the position records ``pending: flip`` but not who was asked, and after loading
    ``Flip``/``Pass`` finds no "not_at_home" in the (new, empty) log, so the turn goes clockwise to Ben
    instead of to Cara as in the original game.
    """
    for finish in (Flip(1), Pass()):
        g = _memory_game()
        g.apply(Ask("Cara", card="b:2"))
        h = Game.from_position(g.position())
        g.apply(finish)
        assert g.current_player == "Cara"
        h.apply(finish)
        assert h.current_player == "Cara", f"after {finish} the loaded game gave the turn to {h.current_player}"


@seed("004", MEMORY)
def test_flip_only_after_a_failure_and_asking_waits_for_the_flip():
    g = _memory_game()
    with pytest.raises(IllegalAction) as err:
        g.apply(Flip(0))
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        g.apply(Pass())
    assert err.value.code == "wrong_phase"
    g.apply(Ask("Ben", card="a:2"))
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Cara", card="a:2"))
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        g.apply(Flip(7))
    assert err.value.code == "bad_action"


@seed("004", MEMORY)
def test_flipped_card_completing_a_family_scores():
    g = game({"Alice": letters("A1 A2 A3 B1"), "Ben": letters("B2"), "Cara": letters("B3")}, rules=CENTRE,
             centre=letters("C1 A4 C2"), spare="Cara")
    g.apply(Ask("Ben", card="b:3"))
    events = g.apply(Flip(1))
    assert "family_complete" in types(events) and g.families_of("Alice") == ["a"]


@seed("004", MEMORY)
def test_passing_when_nobody_is_left_to_ask_cannot_stall_the_game():
    """Alice takes Ben's last card; Cara has none, so nobody can be asked and the engine offers a flip.

    Engine bug reproducer: Pass there changes nothing (no event, same position, same choice again), so a
    player who always passes keeps the game going for ever.
    """
    g = game({"Alice": letters("A1 A2 B1"), "Ben": letters("A3"), "Cara": []},
             rules={"profile": "guide", "centre_cards": 4}, centre=letters("A4 B2 B3 B4"),
             families={"Ben": list("cdefg"), "Cara": list("hijk")})
    g.apply(Ask("Ben", card="a:3"))
    assert g.legal_actions()[-1] == Pass()
    for _ in range(50):
        if g.over:
            break
        legal = g.legal_actions()
        g.apply(Pass() if Pass() in legal else legal[0])
    assert g.over, "always passing keeps the game going for ever"


@seed("004", MEMORY)
def test_memory_games_end_and_conserve_cards():
    for s in range(8):
        g = Game(NAMES[: 2 + s % 4], rules=GUIDE.with_overrides(centre_cards=2 + s % 4), seed=s)
        play_out(g, random.Random(s).choice)
        assert g.over
        assert_cards_conserved(g)


# ------------------------------------------------------------------ asking by surname

SURNAME = "Vragen op achternaam: Je mag bijvoorbeeld vragen: 'Heb je Broden?' en alle leden van de familie Brood" \
          " van de gevraagde speler ontvangen."
BY_SURNAME = {"profile": "guide", "ask_by_surname": True}


@seed("004", SURNAME)
def test_asking_by_surname_takes_every_member_held():
    g = game({"Alice": ["bun:mr", "chip:mr"], "Ben": ["bun:mrs", "bun:miss", "chip:mrs"], "Cara": ["chip:miss"]},
             deck="jaques", rules=BY_SURNAME, spare="Cara")
    assert Ask("Ben", family="bun") in g.legal_actions()
    events = g.apply(Ask("Ben", family="bun"))
    assert events[1] == {"type": "transfer", "from": "Ben", "to": "Alice", "cards": ["bun:mrs", "bun:miss"]}
    assert g.hand("Ben") == ["chip:mrs"] and g.current_player == "Alice"
    assert g.deck.family("bun").name("nl", "plural") == "Broden"


@seed("004", SURNAME)
def test_surname_request_that_misses_ends_the_turn():
    g = game({"Alice": ["bun:mr", "chip:mr"], "Ben": ["chip:mrs"], "Cara": ["bun:mrs"]}, deck="jaques",
             rules=BY_SURNAME, spare="Cara")
    events = g.apply(Ask("Ben", family="bun"))
    assert types(events) == ["ask", "not_at_home", "turn"] and g.current_player == "Ben"
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Alice", family="bun"))  # Ben has no Bun
    assert err.value.code == "family_not_held"


@seed("004", SURNAME)
def test_without_the_variant_a_surname_request_is_refused():
    g = game({"Alice": ["bun:mr"], "Ben": ["bun:mrs", "chip:mr"], "Cara": ["chip:mrs"]}, deck="jaques",
             spare="Cara")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", family="bun"))
    assert err.value.code == "wrong_phase"
    assert all(a.family is None for a in g.legal_actions())


@seed("004", "Enkelvoudig kaartverzoek: Je moet de exacte kaart benoemen")
def test_single_card_request_only_moves_that_card():
    g = game({"Alice": ["chip:mr"], "Ben": ["chip:mrs", "chip:miss", "bun:mr"], "Cara": ["bun:mrs"]},
             deck="jaques", spare="Cara")
    g.apply(Ask("Ben", card="chip:miss"))
    assert sorted(g.hand("Alice")) == ["chip:miss", "chip:mr"] and "chip:mrs" in g.hand("Ben")


# ------------------------------------------------------------------ bluffing


@seed("000", "A failed request is useful information for later, but never permission to lie or to search"
             " another player’s cards.")
def test_bluff_is_refused_by_default_and_always_fails_when_allowed():
    hands = {"Alice": letters("A1 A2"), "Ben": letters("A3 B1"), "Cara": letters("B2")}
    g = game(hands, spare="Cara")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="a:1"))
    assert err.value.code == "own_card"
    g = game(hands, rules={"profile": "guide", "bluff": True}, spare="Cara")
    assert Ask("Ben", card="a:1") in g.legal_actions()
    events = g.apply(Ask("Ben", card="a:1"))
    assert types(events) == ["ask", "not_at_home", "turn"]
    assert "a:1" in g.hand("Alice") and g.current_player == "Ben"


# ------------------------------------------------------------------ three generations

THREE = "Drie-generatiefamilies: Sommige edities bevatten families van 6 leden (met toevoeging van Opa en Oma)"
THREE_GEN = {"profile": "guide", "three_generations": True}


@seed("004", THREE)
def test_three_generation_families_have_six_members():
    g = Game(NAMES[:4], rules=GUIDE.with_overrides(three_generations=True), seed=1)
    assert g.deck.family_size == 6 and len(g.deck.cards) == 66
    assert g.deck.card("bun:grandpa").name("nl", "short") == "Opa Brood"
    assert g.deck.card("bun:grandma").name() == "Grandma Bun the Baker's Mother"
    assert sorted(g.log[0]["hand_sizes"].values()) == [16, 16, 17, 17]
    assert_cards_conserved(g)
    sporting = Game(NAMES[:3], rules=profile("classic").with_overrides(three_generations=True), seed=1)
    assert len(sporting.deck.cards) == 72


@seed("004", THREE)
def test_family_of_six_completes_only_with_grandparents():
    fam = ["bun:mr", "bun:mrs", "bun:master", "bun:miss", "bun:grandpa"]
    g = game({"Alice": fam[:4], "Ben": [fam[4], "chip:mr"], "Cara": ["chip:mrs"]}, deck="jaques", rules=THREE_GEN,
             spare="Cara")
    events = g.apply(Ask("Ben", card="bun:grandpa"))
    assert "family_complete" not in types(events)  # Grandma Bun is still missing
    assert Ask("Cara", card="bun:grandma") in g.legal_actions()
    events = g.apply(Ask("Cara", card="bun:grandma"))
    assert "family_complete" in types(events) and g.families_of("Alice") == ["bun"]


@seed("004", THREE)
def test_grandparents_are_only_in_play_with_the_rule():
    g = game({"Alice": ["bun:mr"], "Ben": ["bun:mrs", "chip:mr"], "Cara": ["chip:mrs"]}, deck="jaques",
             spare="Cara")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="bun:grandpa"))
    assert err.value.code == "unknown_card"
    with pytest.raises(PositionError):
        Game(NAMES[:3], rules=GUIDE.with_overrides(three_generations=True), deck=load_deck("letters"), seed=1)


@seed("004", THREE)
def test_three_generation_games_end():
    for s in range(4):
        g = Game(NAMES[: 2 + s], rules=GUIDE.with_overrides(three_generations=True), seed=s)
        play_out(g, random.Random(s).choice)
        assert g.over and sum(g.scores().values()) == 11
        assert_cards_conserved(g)


# ------------------------------------------------------------------ politeness penalty

POLITENESS = "Een speler die onbeleefd vraagt, een naam verkeerd uitspreekt of vergeet 'alstublieft' te zeggen," \
             " verliest zijn beurt aan de gevraagde speler."


@seed("004", POLITENESS)
def test_politeness_penalty_with_the_guide():
    g = game({"Alice": letters("A1"), "Ben": letters("A2 B1"), "Cara": letters("B2")},
             rules={"profile": "guide", "politeness_penalty": True}, spare="Cara")
    events = g.apply(Ask("Ben", card="a:2", polite=False))
    assert types(events) == ["ask", "penalty", "turn"]
    assert "a:2" in g.hand("Ben") and g.current_player == "Ben"
    g.apply(Ask("Alice", card="a:1"))  # a polite request works as usual
    assert "a:1" in g.hand("Ben")


@seed("004", POLITENESS)
def test_politeness_penalty_in_the_second_phase():
    keys = [f.key for f in load_deck("sporting").families]
    pos = build({"Alice": [], "Ben": []}, deck="sporting",
                rules={"profile": "classic", "politeness_penalty": True},
                families={"Alice": keys[:6], "Ben": keys[6:]}, phase="families")
    g = Game.from_position(pos)
    events = g.apply(Ask("Ben", family="wing", polite=False))
    assert of_type(events, "penalty") and g.current_player == "Ben"
    assert "wing" in g.families_of("Ben")


@seed("004", POLITENESS)
def test_politeness_penalty_with_a_surname_request():
    g = game({"Alice": ["bun:mr"], "Ben": ["bun:mrs", "chip:mr"], "Cara": ["chip:mrs"]}, deck="jaques",
             rules={"profile": "guide", "politeness_penalty": True, "ask_by_surname": True}, spare="Cara")
    events = g.apply(Ask("Ben", family="bun", polite=False))
    assert of_type(events, "penalty") and "bun:mrs" in g.hand("Ben") and g.current_player == "Ben"


# ------------------------------------------------------------------ dealer and first player


@seed("004", "In versies waarbij de kaarten niet gelijk verdeeld kunnen worden, krijgt de deler de kleinste hand.")
def test_dealer_gets_fewest_can_be_turned_off():
    g = Game(NAMES[:3], rules=GUIDE.with_overrides(dealer_gets_fewest=False), seed=1, dealer="Cara")
    assert g.log[0]["hand_sizes"] == {"Alice": 15, "Ben": 14, "Cara": 15}  # dealt from the dealer
    g = Game(NAMES[:3], rules=GUIDE, seed=1, dealer="Cara")
    assert g.log[0]["hand_sizes"] == {"Alice": 15, "Ben": 15, "Cara": 14}


@seed("004", "De speler links van de deler begint de eerste beurt. In de Jaques-variant gaat de deler als eerste.")
def test_first_player_dealer_or_left_of_dealer():
    assert Game(NAMES[:4], rules=GUIDE, seed=1, dealer="Cara").current_player == "Dan"
    assert Game(NAMES[:4], rules=GUIDE.with_overrides(first_player="dealer"), seed=1,
                dealer="Cara").current_player == "Cara"


# ------------------------------------------------------------------ match play, tie-break, shared victory


def _end_of_round(rules, totals, **extra):
    """Letters deck: Alice completes family A this move, ending the round 4 - 4 - 3."""
    return game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4"), "Cara": []}, rules=rules,
                families={"Alice": list("bcd"), "Ben": list("efgh"), "Cara": list("ijk")},
                round=1, totals=totals, seed=4, **extra)


@seed("004", "de eerste die een afgesproken totaal bereikt (vaak 10 of 15) wint de match.")
def test_match_play_with_the_guide_rules():
    rules = {"profile": "guide", "match_target": 6}
    g = _end_of_round(rules, {"Alice": 0, "Ben": 0, "Cara": 0})
    g.apply(Ask("Ben", card="a:4"))
    assert not g.over and g.position()["round"] == 2
    assert g.position()["totals"] == {"Alice": 4, "Ben": 4, "Cara": 3}
    g = _end_of_round(rules, {"Alice": 1, "Ben": 2, "Cara": 5})
    g.apply(Ask("Ben", card="a:4"))
    assert g.over and g.winners == ["Cara"]  # 8 beats 5 and 6


@seed("004", "Bij gelijkspel delen de gelijkspelende spelers de winst")
def test_tied_match_totals_share_victory_without_tie_break():
    g = _end_of_round({"profile": "guide", "match_target": 6}, {"Alice": 3, "Ben": 3, "Cara": 0})
    g.apply(Ask("Ben", card="a:4"))
    assert g.over and g.winners == ["Alice", "Ben"]


@seed("004", "Gelijkspellen worden beslist met één extra ronde die alleen door de gelijkspelende spelers wordt"
             " gespeeld.")
def test_tie_break_round_in_a_single_round_game():
    g = _end_of_round({"profile": "guide", "tie_break": True}, {"Alice": 0, "Ben": 0, "Cara": 0})
    events = g.apply(Ask("Ben", card="a:4"))
    assert {"type": "tiebreak", "players": ["Alice", "Ben"]} in events
    play_out(g, random.Random(2).choice)
    assert g.over and len(g.winners) == 1 and g.winners[0] in ("Alice", "Ben")


@seed("004", "daarna is de deler de winnaar van de vorige ronde")
def test_winner_deals_the_next_round():
    rules = {"profile": "guide", "match_target": 20, "next_dealer": "winner"}
    g = game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4"), "Cara": []}, rules=rules,
             families={"Alice": list("bcde"), "Ben": list("fgh"), "Cara": list("ijk")},
             round=1, totals={"Alice": 0, "Ben": 0, "Cara": 0}, dealer="Ben")
    events = g.apply(Ask("Ben", card="a:4"))  # Alice wins the round 5 - 3 - 3
    assert of_type(events, "deal")[0]["dealer"] == "Alice"
    assert of_type(events, "turn")[0]["player"] == "Ben"  # left of the new dealer
    # a tied round has no single winner: the deal rotates clockwise from Ben
    g = _end_of_round(rules, {"Alice": 0, "Ben": 0, "Cara": 0}, dealer="Ben")
    g.apply(Ask("Ben", card="a:4"))
    assert g.position()["dealer"] == "Cara"


@seed("000", "Agree any multi-game total before the first deal.")
def test_whole_match_games_end():
    for s in range(4):
        g = Game(NAMES[: 2 + s], rules=GUIDE.with_overrides(match_target=12, tie_break=bool(s % 2)), seed=s)
        play_out(g, random.Random(s).choice)
        assert g.over
        totals = g.log[-1]["totals"]
        if "tiebreak" not in types(g.log):
            assert max(totals.values()) >= 12
            assert sorted(g.winners) == sorted(p for p, t in totals.items() if t == max(totals.values()))
        assert_cards_conserved(g)


@pytest.mark.parametrize("stock, allowed", [(14, True), (15, False), (999, False)])
def test_a_stock_rule_that_would_deal_every_card_is_refused(stock, allowed):
    """--rule stock=999 was announced ("with stock 999") and played as a game with no stock at all."""
    rules = GUIDE.with_overrides(stock=stock)
    if allowed:
        assert Game(NAMES[:3], rules=rules, seed=1).position()["stock"]
        return
    with pytest.raises(PositionError, match=f"^Dealing {stock} cards to each of 3 players leaves no stock from the"
                                            " 44 cards: deal at most 14 each"):
        Game(NAMES[:3], rules=rules, seed=1)


def test_a_draw_that_makes_a_family_of_the_last_cards_says_the_drawer_has_none_left():
    g = Game.from_position(build({"Alice": ["a:1", "a:2", "a:3"], "Ben": ["b:1", "c:1"], "Cara": ["b:2", "c:2"]},
                                 rules={"profile": "guide", "stock": 1}, turn="Alice", stock=["a:4"], spare="Cara"))
    events = g.apply(Ask("Ben", card="a:4"))
    assert [e["type"] for e in events][:5] == ["ask", "not_at_home", "draw", "family_complete", "player_out"]
    assert events[4] == {"type": "player_out", "player": "Alice"} and g.hand("Alice") == []
