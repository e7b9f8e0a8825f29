"""The voice corpus's lines (``scripts/make_corpus.py``) for any deck: text only, nothing is rendered."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from voicegame.decks import load_deck

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "make_corpus.py"
_spec = importlib.util.spec_from_file_location("make_corpus", SCRIPT)
make_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_corpus)


@pytest.mark.parametrize("deck_name", ["jaques", "letters"])
def test_requests_name_the_decks_cards_with_a_hand_that_makes_them_legal(deck_name):
    deck = load_deck(deck_name)
    ids = {card.id for card in deck.cards}
    lines, _ = make_corpus.requests(20, random.Random(3), deck_name)
    cards = [line for line in lines if line["expect"]["card"]]
    assert len(lines) == 20 and cards
    for line in cards:
        card = line["expect"]["card"]
        assert card in ids and card not in line["hand"] and set(line["hand"]) <= ids
        assert any(held.split(":")[0] == card.split(":")[0] for held in line["hand"])


def test_chatter_that_names_another_decks_card_is_dropped_when_it_is_a_move_in_this_one():
    """ "Mr. Strong" is not in the Jaques deck (chatter there) but is in the sporting deck."""
    jaques, _ = make_corpus.chatter(random.Random(1), ["Ben, is Mr. Strong at home?"], "jaques")
    sporting, dropped = make_corpus.chatter(random.Random(1), ["Ben, is Mr. Strong at home?"], "sporting")
    assert len(jaques) == 1 and (sporting, dropped) == ([], 1)
