"""Seed 000, the modern guide (profile ``guide``): every test quotes the sentence it checks."""

from __future__ import annotations

import random

import pytest

from helpers import (
    assert_cards_conserved,
    build,
    check_quotes,
    game,
    letters,
    of_type,
    play_out,
    seed,
    types,
    write_pack,
)
from voicegame.decks import load_deck
from voicegame.engine import Ask, Game, IllegalAction, PositionError, profile

GUIDE = profile("guide")
NAMES = ["Alice", "Ben", "Cara", "Dan", "Eve", "Finn"]


def test_quotes_are_verbatim():
    assert check_quotes(globals()) >= 20


# ------------------------------------------------------------------ the profile


@seed("000", "This guide uses the no-stock, failed-requester-transfers-the-turn profile and stops after"
             " the family-collection phase.")
def test_profile_parameters():
    assert GUIDE.stock == 0 and GUIDE.centre_cards == 0
    assert GUIDE.after_miss == "asked"
    assert GUIDE.second_phase is False


@seed("000", "Use a dedicated 44-card set with 11 families of 4 members")
def test_guide_plays_the_44_card_jaques_pack():
    g = Game(NAMES[:4], rules=GUIDE, seed=1)
    assert g.deck.name == "jaques"
    assert len(g.deck.cards) == 44 and len(g.deck.families) == 11 and g.deck.family_size == 4


# ------------------------------------------------------------------ the deal


@pytest.mark.parametrize(
    "count, sizes",
    [(2, [22, 22]), (3, [15, 15, 14]), (4, [11, 11, 11, 11]), (5, [9, 9, 9, 9, 8]), (6, [8, 8, 7, 7, 7, 7])],
)
@seed("000", "For 2–6 players, shuffle and deal all 44 cards singly clockwise. Hands differ by at most 1 card"
             " when the count is uneven. With 4 players everyone has 11.")
def test_deal_sizes(count, sizes):
    """Dealing starts left of the dealer (the last player here), so the extra cards go to the first seats."""
    for s in range(5):
        g = Game(NAMES[:count], rules=GUIDE, seed=s)
        deal = g.log[0]
        assert deal["type"] == "deal" and deal["dealer"] == NAMES[count - 1]
        assert [deal["hand_sizes"][p] for p in NAMES[:count]] == sizes
        assert deal["stock"] == 0
        assert_cards_conserved(g)


@seed("000", "Hands differ by at most 1 card when the count is uneven.")
def test_uneven_deal_extra_cards_start_left_of_any_dealer():
    """With 3 players and Alice dealing, Ben and Cara (clockwise from her left) get 15, Alice 14."""
    g = Game(NAMES[:3], rules=GUIDE, seed=7, dealer="Alice")
    assert g.log[0]["hand_sizes"] == {"Alice": 14, "Ben": 15, "Cara": 15}
    g = Game(NAMES[:6], rules=GUIDE, seed=7, dealer="Cara")
    assert g.log[0]["hand_sizes"] == {"Dan": 8, "Eve": 8, "Finn": 7, "Alice": 7, "Ben": 7, "Cara": 7}


@seed("000", "There is no stock, draw pile or discard pile.")
def test_no_stock_after_the_deal():
    g = Game(NAMES[:3], rules=GUIDE, seed=3)
    pos = g.position()
    assert "stock" not in pos and "centre" not in pos
    assert sum(len(h) for h in pos["hands"].values()) + 4 * sum(len(f) for f in pos["families"].values()) == 44


@seed("000", "Put any complete family already dealt face up in front of its owner.")
def test_dealt_complete_families_are_laid_out():
    found = 0
    for s in range(200):
        g = Game(NAMES[:2], rules=GUIDE, seed=s)
        dealt = [e for e in of_type(g.log, "family_complete") if e["dealt"]]
        for e in dealt:
            found += 1
            assert e["family"] in g.families_of(e["player"])
            assert not any(c.startswith(e["family"] + ":") for c in g.hand(e["player"]))
        # nobody keeps a complete family in the hand
        for p in g.players:
            for fam in g.deck.families:
                assert not all(c.id in g.hand(p) for c in fam.cards)
    assert found, "no seed dealt a complete family"


@seed("000", "The player left of the dealer begins")
def test_player_left_of_dealer_begins():
    for dealer, first in [("Alice", "Ben"), ("Ben", "Cara"), ("Dan", "Alice")]:
        g = Game(NAMES[:4], rules=GUIDE, seed=11, dealer=dealer)
        assert g.current_player == first
        assert of_type(g.log, "turn")[0]["player"] == first


@seed("000", "if that player has no remaining cards, move clockwise to someone who does.")
def test_left_of_dealer_with_an_empty_hand_is_skipped(tmp_path):
    """A small pack (3 families of 4, 3 players, 4 cards each) makes an all-family hand likely enough to find."""
    pack = load_deck(str(write_pack(tmp_path, families=3)))
    hits = 0
    for s in range(3000):
        g = Game(["Alice", "Ben", "Cara"], rules=GUIDE, deck=pack, seed=s, dealer="Cara")
        if g.over or g.hand("Alice"):
            continue
        hits += 1
        assert len(g.families_of("Alice")) == 1  # her four cards were one complete family
        assert g.current_player == "Ben"
        assert "Alice" not in [e["player"] for e in of_type(g.log, "turn")]
        if hits >= 3:
            break
    assert hits, "no seed left Alice with an empty hand"


# ------------------------------------------------------------------ asking


@seed("000", "Name an opponent who still has cards and request a particular member of a family represented"
             " in your own hand.")
def test_only_opponents_with_cards_may_be_asked():
    g = game({"Alice": letters("A1 B1"), "Ben": letters("A2"), "Cara": []}, spare="Ben", turn="Alice")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Cara", card="a:3"))
    assert err.value.code == "target_empty"
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Alice", card="a:3"))
    assert err.value.code == "self"
    assert {a.target for a in g.legal_actions()} == {"Ben"}


@seed("000", "Do not ask for a family you do not hold or a card you already own.")
def test_no_asking_outside_your_families_or_for_your_own_card():
    g = game({"Alice": letters("A1 A2"), "Ben": letters("A3 B1"), "Cara": letters("B2")}, spare="Cara")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="b:1"))
    assert err.value.code == "family_not_held"
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="a:2"))
    assert err.value.code == "own_card"
    assert {a.card for a in g.legal_actions()} == {"a:3", "a:4"}


@seed("000", "If the opponent holds that member, they must hand it over, and you may ask again, choosing"
             " the same opponent or another.")
def test_success_hands_over_and_the_asker_asks_again():
    g = game({"Alice": letters("A1 B1"), "Ben": letters("A2 B2"), "Cara": letters("A3 B3")}, spare="Cara")
    events = g.apply(Ask("Ben", card="a:2"))
    assert types(events) == ["ask", "transfer"]
    assert events[1] == {"type": "transfer", "from": "Ben", "to": "Alice", "cards": ["a:2"]}
    assert "a:2" in g.hand("Alice") and "a:2" not in g.hand("Ben")
    assert g.current_player == "Alice"
    g.apply(Ask("Ben", card="b:2"))  # the same opponent
    assert g.current_player == "Alice"
    g.apply(Ask("Cara", card="a:3"))  # or another
    assert g.current_player == "Alice"


@seed("000", "Only the named card transfers, not every card from that family.")
def test_only_the_named_card_transfers():
    g = game({"Alice": letters("A1 B1"), "Ben": letters("A2 A3 B2")}, spare="Ben")
    g.apply(Ask("Ben", card="a:3"))
    assert sorted(g.hand("Alice")) == letters("A1 A3 B1")
    assert "a:2" in g.hand("Ben")


@seed("000", "On failure, the opponent says no and receives the next turn themselves; play does not"
             " automatically go to the asker’s left. There is no penalty draw.")
def test_failure_gives_the_turn_to_the_asked_opponent():
    g = game({"Alice": letters("A1"), "Ben": letters("B1"), "Cara": letters("B2"), "Dan": letters("B3")},
             spare="Dan")
    sizes = g.hand_sizes()
    events = g.apply(Ask("Cara", card="a:2"))
    assert types(events) == ["ask", "not_at_home", "turn"]
    assert events[1] == {"type": "not_at_home", "player": "Cara", "asker": "Alice", "card": "a:2"}
    assert g.current_player == "Cara"  # not Ben, who sits on Alice's left
    assert g.hand_sizes() == sizes  # no penalty draw


@seed("000", "Keep requests and transfers audible and visible, so everyone has the same information.")
def test_requests_and_transfers_are_public_events():
    g = game({"Alice": letters("A1"), "Ben": letters("A2 B1"), "Cara": letters("A3 B2")}, spare="Cara")
    g.apply(Ask("Ben", card="a:2"))
    g.apply(Ask("Ben", card="a:4"))
    log = g.log
    assert {"type": "ask", "player": "Alice", "target": "Ben", "card": "a:2", "polite": True} in log
    assert {"type": "transfer", "from": "Ben", "to": "Alice", "cards": ["a:2"]} in log
    assert {"type": "not_at_home", "player": "Ben", "asker": "Alice", "card": "a:4"} in log
    # every player's observation shares the one public log
    assert g.observation("Cara").log == g.observation("Ben").log == g.log


@seed("000", "Keep hands hidden but let everyone consult a public list of all family members.")
def test_observation_shows_only_the_players_own_hand():
    g = Game(NAMES[:3], rules=GUIDE, seed=5)
    for p in g.players:
        obs = g.observation(p)
        assert obs.hand == g.hand(p)
        assert obs.hand_size(g.players.index("Ben")) == len(g.hand("Ben"))
    assert [c.id for c in g.observation("Alice").deck.cards] == [c.id for c in g.deck.cards]


# ------------------------------------------------------------------ section 06, the worked examples


def _section_06():
    """Alice holds A1, A2, A4 and B1; Ben holds A3 (and the rest of B); Cara holds C1 but not B2."""
    return game(
        {"Alice": letters("A1 A2 A4 B1"), "Ben": letters("A3 B2 B3 B4 C2 C3 C4"), "Cara": letters("C1")},
        spare="Ben",
        spare_families="Ben",
    )


@seed("000", "Alice holds A1, A2 and A4, so she may ask Ben specifically for A3. Ben has it and must transfer"
             " it; Alice exposes A1–A4 as a complete family and scores 1. Ben’s other families remain his.")
def test_worked_example_successful_request():
    g = _section_06()
    assert Ask("Ben", card="a:3") in g.legal_actions()
    ben_families = g.families_of("Ben")
    events = g.apply(Ask("Ben", card="a:3"))
    assert types(events) == ["ask", "transfer", "family_complete"]
    assert events[1]["cards"] == ["a:3"]
    assert events[2] == {"type": "family_complete", "player": "Alice", "family": "a", "families": 1,
                         "dealt": False}
    assert g.families_of("Alice") == ["a"]
    assert g.scores()["Alice"] == 1
    assert not any(c.startswith("a:") for c in g.hand("Alice"))
    assert g.families_of("Ben") == ben_families
    assert g.current_player == "Alice"


@seed("000", "If Alice still holds B1, she may next ask Cara for B2. Cara does not have it, so Cara gets the"
             " next turn, not necessarily the neighbour to Alice’s left. Alice keeps B1.")
def test_worked_example_failed_request():
    g = _section_06()
    g.apply(Ask("Ben", card="a:3"))
    assert g.hand("Alice") == ["b:1"]
    events = g.apply(Ask("Cara", card="b:2"))
    assert types(events) == ["ask", "not_at_home", "turn"]
    assert g.current_player == "Cara"  # Ben is the neighbour to Alice's left
    assert g.hand("Alice") == ["b:1"]
    assert g.hand("Cara") == ["c:1"]
    assert g.scores()["Alice"] == 1


# ------------------------------------------------------------------ completing and counting


@seed("000", "As soon as all 4 members are together, expose the complete family before its owner. It scores"
             " 1 family, irrespective of character or occupation.")
def test_completed_family_is_laid_out_and_scores_one():
    g = game({"Alice": letters("A1 A2 A3 B1"), "Ben": letters("A4 B2")}, spare="Ben")
    before = g.scores()["Alice"]
    g.apply(Ask("Ben", card="a:4"))
    assert g.scores()["Alice"] == before + 1
    assert g.hand("Alice") == ["b:1"]


@seed("000", "A completed family is permanently out of the asking game.")
def test_completed_family_cannot_be_asked_for():
    g = game({"Alice": letters("B1"), "Ben": letters("B2")}, families={"Ben": ["a"]}, spare="Ben")
    with pytest.raises(IllegalAction) as err:
        g.apply(Ask("Ben", card="a:1"))
    assert err.value.code == "family_complete"
    assert not any(a.card.startswith("a:") for a in g.legal_actions())


@seed("000", "A successful request still continues the turn if the asker has cards left.")
def test_completing_a_family_with_cards_left_continues_the_turn():
    g = game({"Alice": letters("A1 A2 A3 B1"), "Ben": letters("A4 B2"), "Cara": letters("B3")}, spare="Cara")
    g.apply(Ask("Ben", card="a:4"))
    assert g.current_player == "Alice"


@seed("000", "If the active player empties their hand, pass clockwise to the next nonempty hand.")
def test_emptied_hand_passes_clockwise_to_next_nonempty_hand():
    g = game({"Alice": letters("A1 A2 A3"), "Ben": [], "Cara": letters("B1"), "Dan": letters("A4 B2")},
             spare="Dan")
    events = g.apply(Ask("Dan", card="a:4"))
    assert g.hand("Alice") == []
    assert events[-1] == {"type": "turn", "player": "Cara"}  # Ben's hand is empty, so Cara
    assert g.current_player == "Cara"


@seed("000", "An empty-handed player takes no further asking turns, but keeps all completed families and can"
             " still win.")
def test_empty_handed_player_keeps_families_and_wins():
    g = game(
        {"Alice": letters("A1 A2 A4 B1"), "Ben": [], "Cara": letters("A3 B2 B3 B4")},
        families={"Ben": list("cdefgh"), "Cara": list("ijk")},
    )
    for card in ("a:3", "b:2", "b:3", "b:4"):
        assert "Ben" not in {a.target for a in g.legal_actions()}
        g.apply(Ask("Cara", card=card))
    assert g.over
    assert g.scores() == {"Alice": 2, "Ben": 6, "Cara": 3}
    assert g.winners == ["Ben"]
    assert "Ben" not in [e["player"] for e in of_type(g.log, "turn")]


@seed("000", "Nobody refills an empty hand.")
def test_empty_hand_is_not_refilled():
    g = game({"Alice": letters("A1"), "Ben": letters("A2"), "Cara": letters("A3 B1"), "Dan": letters("B2")},
             spare="Dan")
    g.apply(Ask("Ben", card="a:2"))
    assert g.hand("Ben") == []
    assert {"type": "player_out", "player": "Ben"} in g.log
    rng = random.Random(4)
    while not g.over:
        assert g.hand("Ben") == []
        assert "Ben" not in {a.target for a in g.legal_actions()}
        assert g.current_player != "Ben"
        g.apply(rng.choice(g.legal_actions()))
    assert "draw" not in types(g.log)


@seed("000", "Finish when all 11 families are complete. Most families wins; ties share victory.")
def test_game_ends_when_all_families_complete_and_most_wins():
    g = game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4")},
             families={"Alice": list("bcdef"), "Ben": list("ghijk")})
    assert not g.over
    events = g.apply(Ask("Ben", card="a:4"))
    assert g.over and g.current_player is None and g.legal_actions() == []
    assert g.winners == ["Alice"]
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == ["Alice"]
    assert sum(g.scores().values()) == 11


@seed("000", "Most families wins; ties share victory.")
def test_ties_share_victory():
    g = game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4"), "Cara": []},
             families={"Alice": list("bcd"), "Ben": list("efgh"), "Cara": list("ijk")})
    g.apply(Ask("Ben", card="a:4"))
    assert g.over
    assert g.scores() == {"Alice": 4, "Ben": 4, "Cara": 3}
    assert g.winners == ["Alice", "Ben"]
    assert "tiebreak" not in types(g.log)


@seed("000", "This guide does not add a second phase that could take already scored families away.")
def test_no_second_phase():
    g = game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4")},
             families={"Alice": list("bcdef"), "Ben": list("ghijk")})
    g.apply(Ask("Ben", card="a:4"))
    assert g.over and g.phase == "cards"
    assert "phase" not in types(g.log)


@seed("000", "Finish when all 11 families are complete.")
def test_random_guide_games_complete_all_families():
    for s in range(12):
        rng = random.Random(s)
        g = Game(NAMES[: 2 + s % 5], rules=GUIDE, seed=s)
        play_out(g, rng.choice)
        assert g.over
        assert sum(g.scores().values()) == 11
        best = max(g.scores().values())
        assert g.winners == [p for p, n in g.scores().items() if n == best]
        assert_cards_conserved(g)


@seed("000", "An empty-handed player takes no further asking turns")
def test_loaded_position_never_leaves_the_turn_on_an_empty_hand():
    """A state file whose turn names an empty-handed player must be refused or moved on, never stuck.

    Engine bug reproducer: ``Game.from_position`` accepts the turn as written, so the current player has
    no legal action although the game is not over.
    """
    pos = build({"Alice": letters("A1 B1"), "Ben": letters("A2 B2"), "Cara": []}, spare="Ben", turn="Cara")
    try:
        g = Game.from_position(pos)
    except PositionError:
        return
    assert g.over or g.legal_actions(), f"stuck: turn {g.current_player}, hand {g.hand(g.current_player)}"


@seed("000", "Finish when all 11 families are complete.")
def test_loaded_position_with_every_family_complete_is_over():
    """A state with all 11 families scored is a finished game (or refused), not a live turn with nothing to do."""
    pos = build({"Alice": [], "Ben": []}, families={"Alice": list("abcdef"), "Ben": list("ghijk")})
    try:
        g = Game.from_position(pos)
    except PositionError:
        return
    assert g.over or g.legal_actions(), "a game with every family complete is neither over nor playable"
