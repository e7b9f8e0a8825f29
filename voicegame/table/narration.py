"""Events become short sentences for the whole table.

This is where "Not at home" is put into words (the engine decides it in ``Game._ask_card``).
Public narration names only what the rules make public: requests, transfers, completed
families and turned-over centre cards; never the rest of anyone's hand.
"""

from __future__ import annotations

from typing import Any

from voicegame.decks import Deck

__all__ = ["Narrator", "names_list"]


def names_list(names: list[str], conjunction: str = "and") -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


def _families(n: int) -> str:
    return f"{n} family" if n == 1 else f"{n} families"


class Narrator:
    """Turns engine events into sentences; ``verbose`` adds the full card names and deal details."""

    def __init__(self, deck: Deck, humans: set[str] | frozenset[str] = frozenset(), lang: str = "en",
                 verbose: bool = False) -> None:
        self.deck = deck
        self.humans = set(humans)
        self.lang = lang
        self.verbose = verbose

    def card(self, card_id: str, form: str | None = None) -> str:
        return self.deck.card(card_id).name(self.lang, form or ("full" if self.verbose else "short"))

    def family(self, key: str) -> str:
        """ "the Bun family" reads better aloud than any plural of Bones or Grits."""
        return f"the {self.deck.family(key).name(self.lang, 'surname')} family"

    def request(self, event: dict[str, Any]) -> str:
        if "card" in event:
            return f"is {self.card(event['card'])} at home?"
        return f"is {self.family(event['family'])} at home?"

    def sentences(self, events: list[dict[str, Any]]) -> list[str]:
        out = []
        for event in events:
            line = self.sentence(event)
            if line:
                out.append(line)
        return out

    def sentence(self, e: dict[str, Any]) -> str | None:
        kind = e["type"]
        if kind == "deal":
            sizes = e["hand_sizes"]
            line = f"Round {e['round']}. {e['dealer']} deals."
            if self.verbose:
                line += " " + ", ".join(f"{p} {n} cards" for p, n in sizes.items()) + "."
            if e.get("stock"):
                line += f" {e['stock']} cards in the stock."
            if e.get("centre"):
                line += f" {e['centre']} cards lie face down in the centre."
            return line
        if kind == "ask":
            return f"{e['player']} asks {e['target']}: {self.request(e)}"
        if kind == "transfer":
            if "family" in e:
                return f"{e['from']} gives {self.family(e['family'])} to {e['to']}."
            cards = [self.card(c, "full") for c in e["cards"]]
            return f"{e['from']} gives {names_list(cards)} to {e['to']}."
        if kind == "not_at_home":
            return f"{e['player']}: Not at home."
        if kind == "family_complete":
            how = " from the deal" if e.get("dealt") else ""
            return f"{e['player']} completes {self.family(e['family'])}{how}: {_families(e['families'])}."
        if kind == "turn":
            return f"Your turn, {e['player']}." if e["player"] in self.humans else f"{e['player']}'s turn."
        if kind == "player_out":
            return f"{e['player']} has no cards left, and keeps their families."
        if kind == "draw":
            return f"{e['player']} draws a card from the stock."
        if kind == "flip":
            kept = "and keeps it" if e["kept"] else "and turns it back"
            return f"{e['player']} turns over a centre card: {self.card(e['card'], 'full')}, {kept}."
        if kind == "penalty":
            return f"{e['player']} forgot to say please, so the turn goes to {e['target']}."
        if kind == "phase":
            example = self.deck.families[0].cards[0].name(self.lang, "short")
            return (f"Every family is complete. Now ask for whole families, such as: is {example} and family at home?"
                    f" {e['player']} completed the last family and asks first.")
        if kind == "round_over":
            scores = ", ".join(f"{p} {n}" for p, n in e["scores"].items())
            line = f"Round {e['round']} is over. Families: {scores}."
            if e["totals"] != e["scores"]:
                line += " Totals: " + ", ".join(f"{p} {n}" for p, n in e["totals"].items()) + "."
            return line
        if kind == "tiebreak":
            return (f"{names_list(e['players'])} are tied. A sudden-death round decides:"
                    " the first to complete a family wins.")
        if kind == "game_over":
            winners = e["winners"]
            score = e["scores"][winners[0]] if winners else 0
            if "totals" in e:
                return f"Game over. {names_list(winners)} {'wins' if len(winners) == 1 else 'share the victory'}" \
                       f" with {e['totals'][winners[0]]} families in total."
            if len(winners) == 1:
                return f"Game over. {winners[0]} wins with {_families(score)}."
            return f"Game over. {names_list(winners)} share the victory with {_families(score)} each."
        return None
