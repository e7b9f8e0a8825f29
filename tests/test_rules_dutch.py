"""Seed 004, the Dutch description (profile ``dutch``): every test quotes the sentence it checks."""

from __future__ import annotations

import random

import pytest

from helpers import assert_cards_conserved, build, check_quotes, game, of_type, play_out, seed, types
from voicegame.engine import Ask, Game, IllegalAction, profile

DUTCH = profile("dutch")
ONE_ROUND = {"profile": "dutch", "match_target": 0}
NAMES = ["Alice", "Ben", "Cara", "Dan", "Eve", "Finn"]
JAQUES = ["bones", "bun", "bung", "chip", "dip", "dose", "grits", "mug", "pots", "soot", "tape"]


def dutch(hands, rules=ONE_ROUND, **kwargs):
    return game(hands, deck="jaques", rules=rules, **kwargs)


def test_quotes_are_verbatim():
    assert check_quotes(globals()) >= 20


# ------------------------------------------------------------------ the profile and the deal


@seed("004", "gebruikt een geïllustreerd spel van 44 kaarten met 11 beroepsfamilies (Meneer Brood de Bakker,"
             " enzovoort)")
def test_profile_uses_the_jaques_pack():
    g = Game(NAMES[:3], rules=DUTCH, seed=1)
    assert g.deck.name == "jaques" and len(g.deck.cards) == 44
    assert g.deck.card("bun:mr").name("nl") == "Meneer Brood de Bakker"


@seed("004", "Jouw beurt eindigt onmiddellijk en gaat met de klok mee naar de volgende speler.")
@seed("004", "Gelijkspellen worden beslist met één extra ronde die alleen door de gelijkspelende spelers wordt"
             " gespeeld.")
def test_profile_parameters():
    assert DUTCH.after_miss == "clockwise"
    assert DUTCH.tie_break is True
    assert DUTCH.match_target == 10
    assert DUTCH.politeness_penalty is False  # available as an override (the strict Jaques rule)
    assert DUTCH.second_phase is False and DUTCH.stock == 0


@pytest.mark.parametrize(
    "count, sizes",
    [(2, [22, 22]), (3, [15, 15, 14]), (4, [11] * 4), (5, [9, 9, 9, 9, 8]), (6, [8, 8, 7, 7, 7, 7])],
)
@seed("004", "Met 2 spelers krijgt iedereen 22 kaarten; met 3 spelers 14 of 15 (de deler krijgt de kleinste"
             " hand); met 4 spelers 11; met 5 spelers 8 of 9; met 6 spelers 7 of 8.")
def test_deal_sizes(count, sizes):
    g = Game(NAMES[:count], rules=DUTCH, seed=count)
    assert [g.log[0]["hand_sizes"][p] for p in NAMES[:count]] == sizes
    assert_cards_conserved(g)


@pytest.mark.parametrize("count", [3, 5, 6])
@seed("004", "In versies waarbij de kaarten niet gelijk verdeeld kunnen worden, krijgt de deler de kleinste hand.")
def test_dealer_gets_the_smallest_hand(count):
    for dealer in NAMES[:count]:
        sizes = Game(NAMES[:count], rules=DUTCH, seed=5, dealer=dealer).log[0]["hand_sizes"]
        assert sizes[dealer] == min(sizes.values()) < max(sizes.values())


@seed("004", "Deel alle 44 kaarten zo gelijk mogelijk uit, één voor één, met de beeldkant naar beneden, met de"
             " klok mee.")
def test_deal_is_one_by_one_clockwise_from_the_dealers_left():
    sizes = Game(NAMES[:5], rules=DUTCH, seed=2, dealer="Ben").log[0]["hand_sizes"]
    # clockwise from Ben's left: Cara, Dan, Eve, Alice get 9; Ben, dealt last, 8
    assert sizes == {"Alice": 9, "Ben": 8, "Cara": 9, "Dan": 9, "Eve": 9}


@seed("004", "Als een speler bij het uitdelen een complete familie in handen krijgt, kondigt die dit aan, legt"
             " de kaarten meteen open voor zich neer en registreert het als gescoord punt.")
def test_dealt_family_is_announced_laid_out_and_scored():
    for s in range(300):
        g = Game(NAMES[:2], rules=DUTCH, seed=s)
        dealt = of_type(g.log, "family_complete")
        if dealt:
            e = dealt[0]
            assert e["dealt"] is True
            assert g.scores()[e["player"]] >= 1
            assert e["family"] in g.families_of(e["player"])
            return
    pytest.fail("no seed dealt a complete family")


@seed("004", "De speler links van de deler begint de eerste beurt.")
def test_left_of_dealer_begins():
    assert Game(NAMES[:4], rules=DUTCH, seed=3, dealer="Ben").current_player == "Cara"


@seed("004", "In de Jaques-variant gaat de deler als eerste.")
def test_jaques_variant_dealer_begins():
    rules = DUTCH.with_overrides(first_player="dealer")
    assert Game(NAMES[:4], rules=rules, seed=3, dealer="Ben").current_player == "Ben"


# ------------------------------------------------------------------ play


@seed("004", "Op jouw beurt kies je één tegenstander (niet jezelf) en vraag je hem of haar beleefd om één"
             " specifieke kaart van een familie waarvan je al minstens één lid hebt.")
def test_ask_one_opponent_not_yourself():
    g = dutch({"Alice": ["bun:mr"], "Ben": ["bun:mrs"]}, spare="Ben", spare_families="Ben")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Alice", card="bun:miss"))
    assert err.value.code == "self"


@seed("004", "Je mag niet vragen naar een kaart van een familie waarvan je geen enkele kaart hebt.")
def test_no_asking_for_a_family_you_have_no_card_of():
    g = dutch({"Alice": ["bun:mr"], "Ben": ["bun:mrs", "chip:mr"], "Cara": ["chip:mrs"]}, spare="Cara")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="chip:mr"))
    assert err.value.code == "family_not_held"


@seed("004", "Succes: Als de gevraagde speler de gevraagde kaart heeft, moet hij of zij die open afgeven, en jij"
             " krijgt nog een beurt (je mag opnieuw elke tegenstander en elke kaart kiezen).")
def test_success_gives_another_turn():
    g = dutch({"Alice": ["bun:mr", "chip:mr"], "Ben": ["bun:mrs", "chip:mrs"], "Cara": ["bun:miss", "chip:miss"]},
              spare="Cara")
    events = g.apply(Ask("Ben", card="bun:mrs"))
    assert types(events) == ["ask", "transfer"]
    assert g.current_player == "Alice"
    g.apply(Ask("Cara", card="chip:miss"))
    assert g.current_player == "Alice"


@seed("004", "Mislukking ('Niet thuis'): Als de gevraagde speler de gevraagde kaart niet heeft, antwoordt hij of"
             " zij 'Niet thuis'")
@seed("004", "Jouw beurt eindigt onmiddellijk en gaat met de klok mee naar de volgende speler.")
def test_failure_passes_clockwise_not_to_the_asked():
    g = dutch({"Alice": ["bun:mr"], "Ben": ["chip:mr"], "Cara": ["chip:mrs"], "Dan": ["bun:mrs"]}, spare="Dan")
    events = g.apply(Ask("Cara", card="bun:miss"))
    assert types(events) == ["ask", "not_at_home", "turn"]
    assert events[1]["player"] == "Cara"
    assert g.current_player == "Ben"  # Alice's left, not Cara who was asked


@seed("004", "Jouw beurt eindigt onmiddellijk en gaat met de klok mee naar de volgende speler.")
def test_failure_clockwise_wraps_around_the_table():
    g = dutch({"Alice": ["chip:mr"], "Ben": ["bun:mr"], "Cara": ["chip:mrs"], "Dan": ["bun:mrs"]},
              spare="Cara", turn="Dan")
    g.apply(Ask("Ben", card="bun:miss"))
    assert g.current_player == "Alice"


@seed("004", "Als je hand leeg is: Als je tijdens het spel zonder kaarten komt te zitten (bijvoorbeeld nadat je"
             " je laatste kaart hebt afgegeven bij een geslaagde vraag van iemand anders), ben je uit de ronde;"
             " het spel gaat verder onder de overgebleven spelers totdat alle families zijn verzameld.")
def test_empty_handed_player_is_out_of_the_round():
    g = dutch({"Alice": ["bun:mr", "chip:mr"], "Ben": ["bun:mrs"], "Cara": ["chip:mrs"], "Dan": ["bun:miss"]},
              spare="Dan")
    g.apply(Ask("Ben", card="bun:mrs"))
    assert g.hand("Ben") == [] and {"type": "player_out", "player": "Ben"} in g.log
    g.apply(Ask("Dan", card="chip:mrs"))  # Cara holds it: clockwise from Alice, skipping Ben
    assert g.current_player == "Cara"
    rng = random.Random(1)
    while not g.over:
        assert g.current_player != "Ben" and "Ben" not in {a.target for a in g.legal_actions()}
        g.apply(rng.choice(g.legal_actions()))
    assert sum(g.scores().values()) == 11


@seed("004", "Een familie voltooien: Wanneer je alle vier leden van een familie verzamelt, leg je ze open voor"
             " je neer als afgeronde scorestapel. Je mag je beurt voortzetten als je de familie hebt voltooid bij"
             " een geslaagde vraag.")
def test_completing_a_family_continues_the_turn():
    g = dutch({"Alice": ["bun:mr", "bun:mrs", "bun:master", "chip:mr"], "Ben": ["bun:miss", "chip:mrs"],
               "Cara": ["chip:miss"]}, spare="Cara")
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert types(events) == ["ask", "transfer", "family_complete"]
    assert g.families_of("Alice") == ["bun"] and g.current_player == "Alice"


@seed("004", "Einde van de ronde: De ronde eindigt wanneer elke familie is voltooid en open is neergelegd. Tel de"
             " voltooide families van elke speler.")
@seed("004", "Voltooide familie: 1 punt per familie.")
def test_round_ends_when_every_family_is_complete_and_counts_families():
    g = dutch({"Alice": ["bun:mr", "bun:mrs", "bun:master"], "Ben": ["bun:miss"], "Cara": []},
              families={"Alice": JAQUES[2:6], "Ben": JAQUES[6:8], "Cara": JAQUES[8:] + ["bones"]})
    events = g.apply(Ask("Ben", card="bun:miss"))
    over = of_type(events, "round_over")
    assert over and over[0]["scores"] == {"Alice": 5, "Ben": 2, "Cara": 4}
    assert g.over and g.winners == ["Alice"]


@seed("004", "Totaal per ronde: 11 punten beschikbaar (één per familie in het klassieke spel)")
def test_each_round_shares_out_eleven_points():
    for s in range(4):
        g = Game(NAMES[: 2 + s], rules=DUTCH, seed=s)
        play_out(g, random.Random(s).choice)
        rounds = [e for e in of_type(g.log, "round_over")]
        assert rounds
        for e in rounds:
            assert sum(e["scores"].values()) == 11


# ------------------------------------------------------------------ politeness


POLITE_RULES = {"profile": "dutch", "match_target": 0, "politeness_penalty": True}


@seed("004", "Beleefdheidsboete (strikte Jaques-regel): Een speler die onbeleefd vraagt, een naam verkeerd"
             " uitspreekt of vergeet 'alstublieft' te zeggen, verliest zijn beurt aan de gevraagde speler.")
def test_politeness_penalty_loses_the_turn_to_the_asked_player():
    g = dutch({"Alice": ["bun:mr"], "Ben": ["chip:mr"], "Cara": ["bun:mrs", "chip:mrs"]}, rules=POLITE_RULES,
              spare="Cara")
    events = g.apply(Ask("Cara", card="bun:mrs", polite=False))
    assert types(events) == ["ask", "penalty", "turn"]
    assert events[1] == {"type": "penalty", "player": "Alice", "target": "Cara", "reason": "impolite"}
    assert "bun:mrs" in g.hand("Cara")  # nothing changes hands
    assert g.current_player == "Cara"  # to the asked player, not clockwise to Ben


@seed("004", "Zelden toegepast buiten formeel spel, maar een historische eigenaardigheid van het originele spel.")
def test_without_the_penalty_an_impolite_request_still_counts():
    g = dutch({"Alice": ["bun:mr"], "Ben": ["chip:mr"], "Cara": ["bun:mrs", "chip:mrs"]}, spare="Cara")
    g.apply(Ask("Cara", card="bun:mrs", polite=False))
    assert "bun:mrs" in g.hand("Alice") and g.current_player == "Alice"


# ------------------------------------------------------------------ match play and ties


def _end_of_round(totals, rules="dutch", **extra):
    """Alice completes the last family (the Buns) this move, ending the round 5-2-4."""
    return dutch(
        {"Alice": ["bun:mr", "bun:mrs", "bun:master"], "Ben": ["bun:miss"], "Cara": []},
        rules=rules,
        families={"Alice": JAQUES[2:6], "Ben": JAQUES[6:8], "Cara": JAQUES[8:] + ["bones"]},
        round=1, totals=totals, seed=9, **extra,
    )


@seed("004", "Voor langere sessies worden meerdere rondes gespeeld en worden de voltooide families opgeteld; de"
             " eerste die een afgesproken totaal bereikt (vaak 10 of 15) wint de match.")
def test_match_continues_below_the_target():
    g = _end_of_round({"Alice": 0, "Ben": 0, "Cara": 0})
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert types(events).index("round_over") < types(events).index("deal")
    assert of_type(events, "round_over")[0]["totals"] == {"Alice": 5, "Ben": 2, "Cara": 4}
    assert not g.over
    deal = of_type(events, "deal")[0]
    assert deal["round"] == 2 and sum(deal["hand_sizes"].values()) == 44
    assert g.position()["totals"] == {"Alice": 5, "Ben": 2, "Cara": 4}
    assert_cards_conserved(g)


@seed("004", "de eerste die een afgesproken totaal bereikt (vaak 10 of 15) wint de match.")
def test_match_ends_when_a_total_reaches_the_target():
    g = _end_of_round({"Alice": 5, "Ben": 7, "Cara": 1})
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert g.over
    assert g.winners == ["Alice"]  # 10 against 9 and 5
    assert events[-1]["type"] == "game_over" and events[-1]["totals"] == {"Alice": 10, "Ben": 9, "Cara": 5}


@seed("004", "In een match met meerdere rondes wordt er gespeeld totdat één speler het afgesproken cumulatieve"
             " doel bereikt")
def test_match_target_can_be_15():
    g = _end_of_round({"Alice": 6, "Ben": 0, "Cara": 0}, rules={"profile": "dutch", "match_target": 15})
    g.apply(Ask("Ben", card="bun:miss"))
    assert not g.over and g.position()["totals"]["Alice"] == 11


@seed("004", "Gelijkspellen worden beslist met één extra ronde die alleen door de gelijkspelende spelers wordt"
             " gespeeld.")
def test_tied_match_goes_to_an_extra_round_of_the_tied_players():
    g = _end_of_round({"Alice": 5, "Ben": 8, "Cara": 0})  # 10 - 10 - 4
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert {"type": "tiebreak", "players": ["Alice", "Ben"]} in events
    deal = of_type(events, "deal")[0]
    assert deal["players"] == ["Alice", "Ben"]
    assert deal["hand_sizes"] == {"Alice": 22, "Ben": 22}
    if not g.over:
        assert g.hand("Cara") == [] and "Cara" not in {a.target for a in g.legal_actions()}
        assert g.current_player in ("Alice", "Ben")
        with pytest.raises(IllegalAction) as err:
            g.apply(Ask("Cara", card=g.legal_actions()[0].card))
        assert err.value.code == "target_empty"
        play_out(g, random.Random(0).choice)
    assert g.over and len(g.winners) == 1 and g.winners[0] in ("Alice", "Ben")


@seed("004", "Bij gelijkspel delen de gelijkspelende spelers de winst of spelen ze een plotselinge-dood-ronde"
             " met één familie en een nieuw geschud spel.")
def test_sudden_death_round_is_won_by_the_first_completed_family():
    """A tie-break round in progress: all 44 cards between Alice and Ben, no family complete yet."""
    hands = {"Alice": ["bun:mr", "bun:mrs", "bun:master"], "Ben": ["bun:miss"], "Cara": []}
    for fam in JAQUES:
        if fam != "bun":
            hands["Alice"] += [f"{fam}:mr", f"{fam}:mrs"]
            hands["Ben"] += [f"{fam}:master", f"{fam}:miss"]
    pos = build(hands, deck="jaques", rules="dutch", round=2, totals={"Alice": 10, "Ben": 10, "Cara": 4},
                round_players=["Alice", "Ben"], tiebreak=True)
    g = Game.from_position(pos)
    assert not g.over
    g.apply(Ask("Ben", card="bun:miss"))
    assert g.over and g.winners == ["Alice"]


@seed("004", "daarna is de deler de winnaar van de vorige ronde, of de deelbeurt roteert met de klok mee"
             " afhankelijk van de plaatselijke traditie.")
def test_next_dealer_rotates_clockwise_or_is_the_winner():
    g = _end_of_round({"Alice": 0, "Ben": 0, "Cara": 0}, dealer="Cara")
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert of_type(events, "deal")[0]["dealer"] == "Alice"  # clockwise from Cara
    assert of_type(events, "turn")[0]["player"] == "Ben"  # left of the new dealer starts
    g = _end_of_round({"Alice": 0, "Ben": 0, "Cara": 0}, rules={"profile": "dutch", "next_dealer": "winner"},
                      dealer="Ben")
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert of_type(events, "deal")[0]["dealer"] == "Alice"  # Alice won the round 5-2-4
    g = _end_of_round({"Alice": 0, "Ben": 0, "Cara": 0}, dealer="Ben")
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert of_type(events, "deal")[0]["dealer"] == "Cara"  # clockwise from Ben


@seed("004", "Bij gelijkspel delen de gelijkspelende spelers de winst")
def test_without_tie_break_ties_share_the_win():
    rules = {"profile": "dutch", "match_target": 0, "tie_break": False}
    g = dutch({"Alice": ["bun:mr", "bun:mrs", "bun:master"], "Ben": ["bun:miss"], "Cara": []}, rules=rules,
              families={"Alice": JAQUES[2:5], "Ben": JAQUES[5:9], "Cara": JAQUES[9:] + ["bones"]})
    g.apply(Ask("Ben", card="bun:miss"))
    assert g.over and g.winners == ["Alice", "Ben"]
    assert "tiebreak" not in types(g.log)


@seed("004", "Winnaar van de ronde: De speler met de meeste voltooide families.")
def test_whole_random_match_has_a_single_winner_over_the_target():
    for s in range(3):
        g = Game(NAMES[:3], rules=DUTCH, seed=s)
        play_out(g, random.Random(s).choice)
        assert g.over
        final = g.log[-1]
        assert final["type"] == "game_over"
        assert len(g.winners) == 1
        if "tiebreak" not in types(g.log):
            assert max(final["totals"].values()) >= 10
            assert final["totals"][g.winners[0]] == max(final["totals"].values())


# ------------------------------------------------------------------ saying a tie-break (F-rules-2)


def _sudden_death_position(rules="dutch", totals=None):
    """A sudden-death round in progress (all 44 cards between Alice and Ben); Alice completes the Buns next."""
    hands = {"Alice": ["bun:mr", "bun:mrs", "bun:master"], "Ben": ["bun:miss"], "Cara": []}
    for fam in JAQUES:
        if fam != "bun":
            hands["Alice"] += [f"{fam}:mr", f"{fam}:mrs"]
            hands["Ben"] += [f"{fam}:master", f"{fam}:miss"]
    extra = {"totals": totals} if totals else {}
    return Game.from_position(build(hands, deck="jaques", rules=rules, round=2, round_players=["Alice", "Ben"],
                                    tiebreak=True, **extra))


@seed("004", "Gelijkspellen worden beslist met één extra ronde die alleen door de gelijkspelende spelers wordt"
             " gespeeld.")
@pytest.mark.parametrize("lang,said", [
    ("en", "Game over. Alice wins the sudden-death round, and with it the match."),
    ("nl", "Het spel is uit. Alice wint de beslissingsronde, en daarmee de wedstrijd."),
])
def test_the_ending_says_the_sudden_death_round_decided_it(lang, said):
    """Not "Alice wins with 10 families in total" just after Ben was said to have 10 too."""
    from voicegame.table.narration import Narrator

    g = _sudden_death_position(totals={"Alice": 10, "Ben": 10, "Cara": 4})
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert g.over and events[-1]["type"] == "game_over" and events[-1]["tiebreak"]
    assert Narrator(g.deck, lang=lang).sentence(events[-1]) == said


def test_a_tie_break_of_a_single_round_wins_the_game():
    from voicegame.table.narration import Narrator

    g = _sudden_death_position(rules={"profile": "guide", "tie_break": True})
    events = g.apply(Ask("Ben", card="bun:miss"))
    assert Narrator(g.deck).sentence(events[-1]) == "Game over. Alice wins the sudden-death round, and with it the game."


@seed("004", "Gelijkspellen worden beslist met één extra ronde die alleen door de gelijkspelende spelers wordt"
             " gespeeld.")
def test_a_sudden_death_round_is_called_one():
    from voicegame.table.narration import Narrator

    g = _end_of_round({"Alice": 5, "Ben": 8, "Cara": 0})  # 10 - 10 - 4
    events = g.apply(Ask("Ben", card="bun:miss"))
    deal = of_type(events, "deal")[0]
    assert deal["sudden_death"] == 1
    dealer = deal["dealer"]
    assert Narrator(g.deck).sentence(deal) == f"Sudden-death round. {dealer} deals."
    assert Narrator(g.deck, lang="nl").sentence(deal) == f"Beslissingsronde. {dealer} deelt."
    assert Narrator(g.deck).sentence(dict(deal, sudden_death=2)) == f"Sudden-death round 2. {dealer} deals."
    again = {"type": "tiebreak", "players": ["Alice", "Ben"], "again": True}
    assert Narrator(g.deck).sentence(again) == "Alice and Ben are still tied, so another sudden-death round decides."
    # The rounds of the match itself are still numbered.
    g = _end_of_round({"Alice": 0, "Ben": 0, "Cara": 0})
    deal = of_type(g.apply(Ask("Ben", card="bun:miss")), "deal")[0]
    assert "sudden_death" not in deal and Narrator(g.deck).sentence(deal).startswith("Round 2. ")
