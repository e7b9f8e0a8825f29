"""Understanding requests in everyday words (pure text in, intent out).

"ben mrs bun", "is mr bun at home", "ask Ben for Mrs. Bun", "Is Mr. Strong and family at home?"
all become an ``Intent``. Matching is on whole words, slot by slot, so "mr bun" never matches
inside "mr bung". A request that names a card but breaks a rule still comes back as a request:
the engine then explains the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voicegame.decks import Deck

__all__ = ["COMMANDS", "Intent", "Vocabulary", "normalize"]

# Spoken or typed command words -> intent kind.
COMMANDS = {
    "hand": "hand", "cards": "hand", "my hand": "hand", "my cards": "hand",
    "status": "status", "score": "status", "scores": "status", "whose turn": "status",
    "history": "history", "help": "help", "undo": "undo", "take back": "undo",
    "quit": "quit", "exit": "quit", "stop": "quit", "repeat": "repeat", "again": "repeat",
    "yes": "yes", "y": "yes", "no": "no", "n": "no", "cancel": "cancel",
}

_ALIASES = {"mister": "mr", "missus": "mrs", "missis": "mrs", "ms": "miss", "mstr": "master"}
_POLITE = ("please", "alstublieft", "alsjeblieft")
_FILLER = {"is", "at", "home", "ask", "for", "the", "please", "have", "you", "got", "do", "may", "i", "can",
           "a", "an", "card", "any", "alstublieft", "heb", "je", "mag", "ik", "van", "and", "family", "en",
           "familie", "thuis", "of", "to", "from", "give", "me"}


def normalize(text: str) -> list[str]:
    """Lower-case words without punctuation; "Mr." and "mister" both become "mr"."""
    text = text.casefold().replace("'s", "s").replace("’s", "s")
    words = re.findall(r"[a-z0-9]+", text)
    return [_ALIASES.get(w, w) for w in words]


@dataclass(frozen=True)
class Intent:
    kind: str  # ask | ask_family | hand | status | history | help | undo | repeat | quit | yes | no | cancel | none
    target: str | None = None
    card: str | None = None
    family: str | None = None
    polite: bool = False
    reason: str | None = None


class Vocabulary:
    """Word sequences for every card, family and player of one game."""

    def __init__(self, deck: Deck, players: list[str] | tuple[str, ...], lang: str = "en") -> None:
        self.deck = deck
        self.players = tuple(players)
        self._card_phrases: list[tuple[tuple[str, ...], str]] = []
        langs = (lang, "en") if lang != "en" else ("en",)
        for card in deck.cards:
            for name_lang in langs:
                for form in ("full", "short"):
                    words = normalize(card.name(name_lang, form))
                    self._card_phrases.append((tuple(words), card.id))
                    # "a1" may also be typed "a 1".
                    split = [part for w in words for part in re.findall(r"[a-z]+|\d+", w)]
                    if split != words:
                        self._card_phrases.append((tuple(split), card.id))
        self._card_phrases.sort(key=lambda p: -len(p[0]))
        self._family_phrases: list[tuple[tuple[str, ...], str]] = []
        for fam in deck.families:
            for form in ("name", "surname", "plural"):
                self._family_phrases.append((tuple(normalize(fam.name(lang, form))), fam.key))
        self._family_phrases.sort(key=lambda p: -len(p[0]))
        self._player_phrases = sorted(((tuple(normalize(p)), p) for p in self.players), key=lambda p: -len(p[0]))

    @staticmethod
    def _find(words: list[str], phrases: list[tuple[tuple[str, ...], str]]) -> tuple[str, int, int] | None:
        """Longest phrase occurring as whole consecutive words: (value, start, end)."""
        for phrase, value in phrases:
            n = len(phrase)
            if not n:
                continue
            for i in range(len(words) - n + 1):
                if tuple(words[i : i + n]) == phrase:
                    return value, i, i + n
        return None

    def parse(self, text: str, *, asker: str | None = None, phase: str = "cards") -> Intent:
        """Turn typed words into an Intent. ``phase`` "families" reads "X and family" as a family."""
        if text.strip() == "?":
            return Intent("help")
        words = normalize(text)
        if not words:
            return Intent("none", reason="I heard nothing.")
        joined = " ".join(words)
        if joined in COMMANDS:
            return Intent(COMMANDS[joined])
        polite = any(w in _POLITE for w in words) or "at home" in joined or "thuis" in words
        target = None
        # Another player's name first; the asker's own name still counts, so the engine can say
        # "You cannot ask yourself" instead of "I didn't understand".
        found_player = (self._find(words, [p for p in self._player_phrases if p[1] != asker])
                        or self._find(words, self._player_phrases))
        rest = list(words)
        if found_player:
            target, i, j = found_player
            rest = words[:i] + words[j:]
        wants_family = phase == "families" or "family" in rest or "familie" in rest
        card = None if wants_family else self._find(rest, self._card_phrases)
        if card:
            leftover = rest[: card[1]] + rest[card[2] :]
            return self._checked(Intent("ask", target=target, card=card[0], polite=polite), leftover)
        family = None
        if wants_family:
            # "Mr. Strong and family": the card's name names its family.
            named = self._find(rest, self._card_phrases)
            if named:
                family = (self.deck.card(named[0]).family, named[1], named[2])
        family = family or self._find(rest, self._family_phrases)
        if family:
            leftover = rest[: family[1]] + rest[family[2] :]
            return self._checked(Intent("ask_family", target=target, family=family[0], polite=polite), leftover)
        if target and len(rest) <= 1:
            return Intent("none", target=target, reason=f"Which card do you want from {target}?")
        return Intent("none", reason="I didn't understand that. Say a player and a card, such as: Ben, Mrs. Bun.")

    def _checked(self, intent: Intent, leftover: list[str]) -> Intent:
        """Refuse a request with unexplained words in it (chatter must never become a move)."""
        strange = [w for w in leftover if w not in _FILLER and not w.isdigit()]
        if strange:
            return Intent("none", target=intent.target, card=intent.card, family=intent.family,
                          reason=f"I didn't understand the word {strange[0]!r}. Try: Ben, Mrs. Bun.")
        return intent
