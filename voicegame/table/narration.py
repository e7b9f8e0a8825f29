"""Events become short sentences for the whole table.

This is where "Not at home" is put into words (the engine decides it in ``Game._ask_card``).
Public narration names only what the rules make public: requests, transfers, completed
families and turned-over centre cards; never the rest of anyone's hand.
"""

from __future__ import annotations

from typing import Any

from voicegame.decks import Deck

__all__ = ["Narrator", "names_list"]


# Every sentence the table says, per language. Seed 004 gives the Dutch wording ("Niet thuis").
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "and": "and", "or": "or", "family": "the {surname} family", "one_family": "{n} family",
        "families": "{n} families", "ask_card": "is {card} at home?", "ask_family": "is {family} at home?",
        "deal": "Round {round}. {dealer} deals.", "deal_sizes": "{player} {n} cards",
        "deal_stock": "{n} cards in the stock.", "deal_centre": "{n} cards lie face down in the centre.",
        "ask": "{player} asks {target}: {request}", "give": "{giver} gives {what} to {receiver}.",
        "not_at_home": "{player}: Not at home.", "complete": "{player} completes {family}{how}: {count}.",
        "from_deal": " from the deal", "your_turn": "Your turn, {player}.", "turn": "{player}'s turn.",
        "out": "{player} has no cards left, and keeps their families.",
        "draw": "{player} draws a card from the stock.",
        "flip": "{player} turns over a centre card: {card}, {kept}.", "kept": "and keeps it",
        "turned_back": "and turns it back",
        "penalty": "{player} forgot to say please, so the turn goes to {target}.",
        "phase": "Every family is complete. Now ask for whole families, such as: is {example} and family at home?"
                 " {player} completed the last family and asks first.",
        "round_over": "Round {round} is over. Families: {scores}.", "totals": " Totals: {totals}.",
        "tiebreak": "{players} are tied. A sudden-death round decides: the first to complete a family wins.",
        "over_match": "Game over. {winners} {verb} with {n} families in total.", "wins": "wins",
        "share": "share the victory",
        "over_one": "Game over. {winner} wins with {count}.",
        "over_shared": "Game over. {winners} share the victory with {count} each.",
    },
    "nl": {
        "and": "en", "or": "of", "family": "de familie {surname}", "one_family": "{n} familie",
        "families": "{n} families", "ask_card": "is {card} thuis?", "ask_family": "is {family} thuis?",
        "deal": "Ronde {round}. {dealer} deelt.", "deal_sizes": "{player} {n} kaarten",
        "deal_stock": "{n} kaarten in de stapel.", "deal_centre": "{n} kaarten liggen dicht in het midden.",
        "ask": "{player} vraagt {target}: {request}", "give": "{giver} geeft {what} aan {receiver}.",
        "not_at_home": "{player}: Niet thuis.", "complete": "{player} maakt {family} compleet{how}: {count}.",
        "from_deal": " bij het uitdelen", "your_turn": "Jij bent aan de beurt, {player}.",
        "turn": "{player} is aan de beurt.",
        "out": "{player} heeft geen kaarten meer en houdt zijn families.",
        "draw": "{player} pakt een kaart van de stapel.",
        "flip": "{player} draait een middenkaart om: {card}, {kept}.", "kept": "en houdt hem",
        "turned_back": "en legt hem terug",
        "penalty": "{player} vergat alstublieft te zeggen, dus de beurt gaat naar {target}.",
        "phase": "Alle families zijn compleet. Vraag nu om hele families, bijvoorbeeld: is {example} en familie"
                 " thuis? {player} maakte de laatste familie compleet en begint.",
        "round_over": "Ronde {round} is voorbij. Families: {scores}.", "totals": " Totaal: {totals}.",
        "tiebreak": "{players} staan gelijk. Een beslissingsronde volgt: wie het eerst een familie compleet"
                    " maakt, wint.",
        "over_match": "Het spel is uit. {winners} {verb} met in totaal {n} families.", "wins": "wint",
        "share": "delen de winst",
        "over_one": "Het spel is uit. {winner} wint met {count}.",
        "over_shared": "Het spel is uit. {winners} delen de winst met elk {count}.",
    },
}


def names_list(names: list[str], conjunction: str = "and") -> str:
    """Alice, Ben and Cara: ``conjunction`` is the word itself ("and", "or", "en", "of")."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


class Narrator:
    """Turns engine events into sentences; ``verbose`` adds the full card names and deal details."""

    def __init__(self, deck: Deck, humans: set[str] | frozenset[str] = frozenset(), lang: str = "en",
                 verbose: bool = False) -> None:
        self.deck = deck
        self.humans = set(humans)
        self.lang = lang
        self.verbose = verbose
        self.phrases = PHRASES.get(lang, PHRASES["en"])

    def t(self, key: str, **fields: Any) -> str:
        return self.phrases[key].format(**fields)

    def names(self, names: list[str], conjunction: str = "and") -> str:
        return names_list(names, self.phrases[conjunction])

    def count(self, n: int) -> str:
        return self.t("one_family" if n == 1 else "families", n=n)

    def card(self, card_id: str, form: str | None = None) -> str:
        return self.deck.card(card_id).name(self.lang, form or ("full" if self.verbose else "short"))

    def family(self, key: str) -> str:
        """ "the Bun family" reads better aloud than any plural of Bones or Grits."""
        return self.t("family", surname=self.deck.family(key).name(self.lang, "surname"))

    def request(self, event: dict[str, Any]) -> str:
        if "card" in event:
            return self.t("ask_card", card=self.card(event["card"]))
        return self.t("ask_family", family=self.family(event["family"]))

    def sentences(self, events: list[dict[str, Any]]) -> list[str]:
        out = []
        for event in events:
            line = self.sentence(event)
            if line:
                out.append(line)
        return out

    def sentence(self, e: dict[str, Any]) -> str | None:
        kind = e["type"]
        t = self.t
        if kind == "deal":
            line = t("deal", round=e["round"], dealer=e["dealer"])
            if self.verbose:
                line += " " + ", ".join(t("deal_sizes", player=p, n=n) for p, n in e["hand_sizes"].items()) + "."
            if e.get("stock"):
                line += " " + t("deal_stock", n=e["stock"])
            if e.get("centre"):
                line += " " + t("deal_centre", n=e["centre"])
            return line
        if kind == "ask":
            return t("ask", player=e["player"], target=e["target"], request=self.request(e))
        if kind == "transfer":
            what = self.family(e["family"]) if "family" in e else self.names([self.card(c, "full") for c in e["cards"]])
            return t("give", giver=e["from"], what=what, receiver=e["to"])
        if kind == "not_at_home":
            return t("not_at_home", player=e["player"])
        if kind == "family_complete":
            return t("complete", player=e["player"], family=self.family(e["family"]),
                     how=self.phrases["from_deal"] if e.get("dealt") else "", count=self.count(e["families"]))
        if kind == "turn":
            return t("your_turn" if e["player"] in self.humans else "turn", player=e["player"])
        if kind == "player_out":
            return t("out", player=e["player"])
        if kind == "draw":
            return t("draw", player=e["player"])
        if kind == "flip":
            return t("flip", player=e["player"], card=self.card(e["card"], "full"),
                     kept=self.phrases["kept" if e["kept"] else "turned_back"])
        if kind == "penalty":
            return t("penalty", player=e["player"], target=e["target"])
        if kind == "phase":
            return t("phase", example=self.deck.families[0].cards[0].name(self.lang, "short"), player=e["player"])
        if kind == "round_over":
            line = t("round_over", round=e["round"], scores=", ".join(f"{p} {n}" for p, n in e["scores"].items()))
            if e["totals"] != e["scores"]:
                line += t("totals", totals=", ".join(f"{p} {n}" for p, n in e["totals"].items()))
            return line
        if kind == "tiebreak":
            return t("tiebreak", players=self.names(e["players"]))
        if kind == "game_over":
            winners = e["winners"]
            if "totals" in e:
                return t("over_match", winners=self.names(winners), n=e["totals"][winners[0]],
                         verb=self.phrases["wins" if len(winners) == 1 else "share"])
            count = self.count(e["scores"][winners[0]] if winners else 0)
            if len(winners) == 1:
                return t("over_one", winner=winners[0], count=count)
            return t("over_shared", winners=self.names(winners), count=count)
        return None
