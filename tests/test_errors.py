"""Every refusal: its stable code, a sentence to say aloud, and a game left exactly as it was."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from helpers import build, check_quotes, game, letters, seed, snapshot
from voicegame.decks import load_deck
from voicegame.engine import ERROR_CODES, Ask, Flip, Game, IllegalAction, Pass, action_from_json


def cards_phase() -> Game:
    """Alice to move with A1 A2 B1; Ben holds A3 and C1; Cara has no cards; family K is scored."""
    return game({"Alice": letters("A1 A2 B1"), "Ben": letters("A3 C1"), "Cara": [], "Dan": letters("B2 C2")},
                families={"Dan": ["k"]}, spare="Dan", spare_families="Dan")


def families_phase() -> Game:
    keys = [f.key for f in load_deck("sporting").families]
    return Game.from_position(build({"Alice": [], "Ben": [], "Cara": []}, deck="sporting", rules="classic",
                                    families={"Alice": keys[:6], "Ben": keys[6:]}, phase="families"))


def pending_flip() -> Game:
    g = game({"Alice": letters("A1 B1"), "Ben": letters("C1"), "Cara": letters("A2 C2")},
             rules={"profile": "guide", "centre_cards": 2}, centre=letters("A3 D1"), spare="Cara")
    g.apply(Ask("Ben", card="a:2"))
    assert g.position().get("pending") == "flip"
    return g


def finished() -> Game:
    g = game({"Alice": letters("A1 A2 A3"), "Ben": letters("A4")},
             families={"Alice": list("bcdef"), "Ben": list("ghijk")})
    g.apply(Ask("Ben", card="a:4"))
    assert g.over
    return g


def surname() -> Game:
    return game({"Alice": letters("A1 B1"), "Ben": letters("A2 C1"), "Cara": letters("C2")},
                rules={"profile": "guide", "ask_by_surname": True}, spare="Cara")


def tiebreak() -> Game:
    """A sudden-death round between Alice and Ben; Cara, not in it, has no cards."""
    hands = {"Alice": letters("A1 A2 A3"), "Ben": letters("A4"), "Cara": []}
    for f in "BCDEFGHIJK":
        hands["Alice"] += letters(f"{f}1 {f}2")
        hands["Ben"] += letters(f"{f}3 {f}4")
    return Game.from_position(build(hands, rules={"profile": "guide", "tie_break": True}, tiebreak=True,
                                    round_players=["Alice", "Ben"]))


def _tiebreak_card(g: Game) -> str:
    return next(a.card for a in g.legal_actions() if a.card)


CASES: list[tuple[str, str, Callable[[], Game], Any]] = [
    ("self", "ask yourself", cards_phase, Ask("Alice", card="a:3")),
    ("self", "ask yourself in the families phase", families_phase, Ask("Alice", family="wing")),
    ("target_empty", "ask an empty hand", cards_phase, Ask("Cara", card="a:3")),
    ("target_empty", "ask a player with no families", families_phase, Ask("Cara", family="wing")),
    ("target_empty", "ask a player outside the tie-break", tiebreak, lambda g: Ask("Cara", card=_tiebreak_card(g))),
    ("own_card", "ask for a card you hold", cards_phase, Ask("Ben", card="a:1")),
    ("own_card", "ask for a family you hold", families_phase, Ask("Ben", family="back")),
    ("family_not_held", "ask outside your families", cards_phase, Ask("Ben", card="c:1")),
    ("family_not_held", "surname you do not hold", surname, Ask("Ben", family="c")),
    ("family_complete", "ask for a scored family", cards_phase, Ask("Ben", card="k:1")),
    ("not_your_turn", "Ben speaks on Alice's turn", cards_phase, Ask("Alice", card="a:1", by="Ben")),
    ("not_your_turn", "Dan speaks on Alice's turn", cards_phase, Ask("Ben", card="a:3", by="dan")),
    ("unknown_player", "ask a stranger", cards_phase, Ask("Zed", card="a:3")),
    ("unknown_player", "a stranger speaks", cards_phase, Ask("Ben", card="a:3", by="Zed")),
    ("unknown_player", "ask a stranger for a family", families_phase, Ask("Zed", family="wing")),
    ("unknown_card", "no such member", cards_phase, Ask("Ben", card="a:9")),
    ("unknown_card", "no such family", cards_phase, Ask("Ben", card="z:1")),
    ("unknown_card", "a card of another deck", cards_phase, Ask("Ben", card="bun:mr")),
    ("unknown_card", "no such family in the families phase", families_phase, Ask("Ben", family="bun")),
    ("unknown_card", "no such surname", surname, Ask("Ben", family="zz")),
    ("wrong_phase", "ask after the game is over", finished, Ask("Ben", card="a:1")),
    ("wrong_phase", "flip with nothing to flip", cards_phase, Flip(0)),
    ("wrong_phase", "pass with nothing to pass", cards_phase, Pass()),
    ("wrong_phase", "ask while a flip is due", pending_flip, Ask("Cara", card="a:2")),
    ("wrong_phase", "a card in the families phase", families_phase, Ask("Ben", card="wing:mr")),
    ("wrong_phase", "a surname without the variant", cards_phase, Ask("Ben", family="a")),
    ("wrong_phase", "flip after the game is over", finished, Flip(0)),
    ("bad_action", "flip a slot that does not exist", pending_flip, Flip(5)),
    ("bad_action", "flip a negative slot", pending_flip, Flip(-1)),
    ("bad_action", "an action that is not an object", cards_phase, {"ask": "Ben"}),
    ("bad_action", "card and family at once", cards_phase, {"ask": "Ben", "card": "a:3", "family": "a"}),
    ("bad_action", "an unknown verb", cards_phase, {"shout": "Ben"}),
    ("bad_action", "flip with a word", pending_flip, {"flip": "zero"}),
]


def test_quotes_are_verbatim():
    assert check_quotes(globals()) >= 6


def test_every_error_code_is_exercised():
    assert {code for code, *_ in CASES} == set(ERROR_CODES)


@pytest.mark.parametrize("code, what, setup, action", CASES, ids=[f"{c}: {w}" for c, w, *_ in CASES])
@seed("004", "Op jouw beurt kies je één tegenstander (niet jezelf)")  # self
@seed("000", "Name an opponent who still has cards")  # target_empty
@seed("000", "Do not ask for a family you do not hold or a card you already own.")  # own_card, family_not_held
@seed("003", "they may only ask for a card if they have another card or more of the same family in their hands.")
@seed("000", "A completed family is permanently out of the asking game.")  # family_complete
@seed("003", "instead of asking for one card such as Mr. Strong, the player asks for the four cards")  # wrong_phase
@seed("000", "A failed request is useful information for later, but never permission to lie or to search another"
             " player’s cards.")  # a refusal reveals nothing and changes nothing
def test_refused_action_has_its_code_and_changes_nothing(code, what, setup, action):
    g = setup()
    if callable(action):
        action = action(g)
    before = snapshot(g)
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    assert err.value.code == code, f"{what}: {err.value.message}"
    assert err.value.code in ERROR_CODES
    message = err.value.message
    assert isinstance(message, str) and message.strip() and message == str(err.value)
    assert message[-1] in ".?!" and "None" not in message and "{" not in message
    assert err.value.to_json() == {"code": code, "message": message}
    assert snapshot(g) == before, f"{what}: a refused action changed the game"
    # the game still plays on as before
    legal = g.legal_actions()
    if legal:
        g.apply(legal[0])


def test_the_right_speaker_is_accepted():
    g = cards_phase()
    g.apply(Ask("Ben", card="a:3", by="Alice"))
    assert "a:3" in g.hand("Alice")
    g.apply(Ask("Ben", card="b:2", by="alice"))  # names are matched without regard to case
    assert g.current_player == "Ben"


def test_json_action_errors_leave_the_game_unchanged():
    g = cards_phase()
    before = snapshot(g)
    for bad in (None, [], "ask Ben", {"ask": "Ben", "card": "a:3", "polite": "yes"}, {"pass": False}):
        with pytest.raises(IllegalAction) as err:
            g.apply(bad)
        assert err.value.code == "bad_action"
    with pytest.raises(IllegalAction) as err:
        action_from_json({"flip": True})
    assert err.value.code == "bad_action"
    assert snapshot(g) == before


def test_many_refusals_in_a_row_change_nothing():
    g = cards_phase()
    before = snapshot(g)
    for _code, _what, setup, action in CASES:
        if setup is cards_phase:
            with pytest.raises(IllegalAction):
                g.apply(action)
    assert snapshot(g) == before
    assert g.to_json()["actions"] == []


def test_undo_with_nothing_to_undo():
    g = cards_phase()
    before = snapshot(g)
    with pytest.raises(IllegalAction) as err:
        g.undo()
    assert err.value.code == "wrong_phase" and err.value.message
    assert snapshot(g) == before


def test_refusal_after_moves_keeps_log_and_undo_intact():
    g = cards_phase()
    g.apply(Ask("Ben", card="a:3"))
    before = snapshot(g)
    with pytest.raises(IllegalAction):
        g.apply(Ask("Ben", card="a:3"))  # now her own card
    assert snapshot(g) == before
    g.undo()
    assert g.hand("Ben") == ["a:3", "c:1"]
    assert g.actions == []
