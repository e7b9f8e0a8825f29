"""The short conversation before a game started with no options: start at once, or change things.

It only talks through two callables, ``ask(question) -> answer | None`` and ``say(line)``, so
the same conversation runs typed, spoken or in a test. Every question says the current value,
and keeping it takes one key or one word; an answer that cannot be understood is asked again
a few times, then the current value is kept, so nobody gets stuck at the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from voicegame.bots import BOT_LEVELS
from voicegame.config import Settings
from voicegame.decks import builtin_decks
from voicegame.engine import PROFILES
from voicegame.understanding.words import normalize, similarity

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "SOURCE", "answer_grammar", "parse_names", "parse_number", "set_up",
           "summary"]

# The engine takes 2 to 12 players; the conversation offers up to 6, a family table where
# turns come round quickly and every name can still be told apart by ear.
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TRIES = 3
SOURCE = "set-up"  # the source recorded for values chosen in this conversation

_NUMBER_WORDS = {
    "zero": 0, "none": 0, "no": 0, "nobody": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_DUTCH_NUMBERS = {
    "nul": 0, "geen": 0, "een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6,
    "zeven": 7, "acht": 8, "negen": 9, "tien": 10, "elf": 11, "twaalf": 12,
}
# What a recognizer often writes for a number said alone; only used when no real number word is there.
_SOUNDS_LIKE = {"to": 2, "too": 2, "for": 4, "fore": 4, "won": 1, "tree": 3, "free": 3, "ate": 8}

_START = {"yes", "yeah", "yep", "y", "start", "ok", "okay", "go", "play", "sure", "begin", "ja", "goed", "oké", "oke"}
_CHANGE = {"change", "no", "nope", "n", "different", "other", "nee", "wijzig", "wijzigen", "veranderen", "anders"}
_QUIT = {"quit", "exit", "stop", "bye", "goodbye", "cancel", "q", "stoppen", "doei"}
_KEEP = {"keep", "same", "skip", "next", "fine", "houden", "zelfde", "volgende"}


class _Ended(Exception):
    """Input ended or the player said quit: there is no game to start."""


# What a recognizer listens for during the spoken set-up: the answers the conversation takes.
_SPOKEN = {
    "en": ("yes", "yeah", "start", "okay", "change", "no", "quit", "stop", "keep", "same", "next",
           "zero", "none", "one", "two", "three", "four", "five", "six"),
    "nl": ("ja", "goed", "start", "wijzig", "anders", "nee", "stoppen", "stop", "houden", "zelfde", "volgende",
           "nul", "geen", "een", "twee", "drie", "vier", "vijf", "zes"),
}


def answer_grammar(lang: str = "en") -> tuple[list[str], str]:
    """The set-up's answers as a recognizer's word list and JSGF grammar: yes, change, keep,
    quit, a number of computer players, a level, a deck or a rules profile, one at a time."""
    words = list(dict.fromkeys(_SPOKEN.get(lang, _SPOKEN["en"]) + tuple(BOT_LEVELS) + tuple(builtin_decks())
                               + tuple(PROFILES)))
    return words, f"#JSGF V1.0;\ngrammar setup_{lang};\npublic <answer> = {' | '.join(words)};\n"


def parse_number(text: str, lang: str = "en") -> int | None:
    """The number in an answer: digits or a number word ("three", and "drie" in Dutch)."""
    words = normalize(text)
    table = {**_NUMBER_WORDS, **(_DUTCH_NUMBERS if lang == "nl" else {})}
    for word in words:
        if word in table:
            return table[word]
        if word.isdigit():
            return int(word)
    for word in words:
        if word in _SOUNDS_LIKE:
            return _SOUNDS_LIKE[word]
    return None


def parse_names(text: str, lang: str = "en") -> list[str]:
    """Names typed as "Alice, Ben and Cara" (or "Jan en Piet" in Dutch), in order."""
    joiners = r",|;|\band\b" + (r"|\ben\b" if lang == "nl" else "")
    return [" ".join(part.split()) for part in re.split(joiners, text, flags=re.IGNORECASE) if part.strip()]


def _pick(text: str, options: Sequence[str]) -> str | None:
    """The option the answer names, forgiving a misspelling or a mishearing; None when unsure."""
    scores = {option: max((similarity(option, w) for w in normalize(text)), default=0.0) for option in options}
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    if not ranked or ranked[0][1] < 0.7:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _or_list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" or {words[-1]}"


def _and_list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def _deck_phrase(settings: Settings) -> str:
    deck = settings.deck_name
    if deck.endswith(".toml"):
        return f"the deck from {Path(deck).name}"
    return f"the {deck.title()} deck"


def summary(settings: Settings) -> str:
    """The whole game in one sentence, e.g. "You against 2 computer players at memory level, ..."."""
    bots = settings.bots
    computers = _plural(bots, "computer player", "computer players") + f" at {settings.level} level"
    if not settings.players:
        table = f"{computers}, playing each other"
    elif bots:
        table = f"{_and_list(settings.players)} against {computers}"
    else:
        table = f"{_and_list(settings.players)}, no computer players"
    return f"{table}, {_deck_phrase(settings)}, {settings.rules} rules"


class _Conversation:
    def __init__(self, ask: Callable[[str], str | None], say: Callable[[str], None], typing: bool, tries: int,
                 lang: str) -> None:
        self._ask, self.say, self.typing, self.tries, self.lang = ask, say, typing, tries, lang
        self.keep = "Press Enter to keep it." if typing else "Say keep to keep it."

    def ask(self, question: str, names: bool = False) -> str:
        """The answer, "" meaning keep; raises _Ended on end of input or quit."""
        answer = self._ask(question)
        if answer is None:
            raise _Ended
        answer = answer.strip()
        words = set(normalize(answer))
        # A name may contain any word, so there only a bare "quit" ends the conversation.
        if (words <= _QUIT if names else words & _QUIT) and words:
            raise _Ended
        if words and words <= _KEEP:
            return ""
        return answer

    def offer(self, settings: Settings, lead: str) -> bool:
        """True to start now, False to change something."""
        how = "Say yes or press Enter to start, or say change." if self.typing else "Say yes to start, or say change."
        question = f"{lead}: {summary(settings)}. {how}"
        for _ in range(self.tries):
            answer = self.ask(question)
            words = normalize(answer)
            if not words:
                return True
            for word in words:
                if word in _START:
                    return True
                if word in _CHANGE:
                    return False
            heard = _pick(answer, ["yes", "start", "change"])
            if heard:
                return heard != "change"
            question = f"I didn't catch that. {how} Or say quit."
        self.say("Starting with these settings.")
        return True

    def choose(self, question: str, problem: str, kept: str, parse: Callable[[str], tuple[object, str | None]],
               current: object, names: bool = False) -> object:
        """Ask until ``parse`` gives a value (it returns the value, or None and what was wrong)."""
        line = question
        for _ in range(self.tries):
            answer = self.ask(line, names)
            if not answer:
                return current
            value, wrong = parse(answer)
            if wrong is None:
                return value
            line = f"{wrong} {problem}"
        self.say(f"I'll keep {kept}.")
        return current

    def walk(self, settings: Settings) -> Settings:
        humans = len(settings.players)
        low, high = max(0, MIN_PLAYERS - humans), max(0, MAX_PLAYERS - humans)

        def bots_of(answer: str) -> tuple[object, str | None]:
            n = parse_number(answer, self.lang)
            if n is None:
                return None, f"I didn't catch a number between {low} and {high}."
            if n < low:
                return None, f"A game needs at least {MIN_PLAYERS} players, so at least {_computers(low)}."
            if n > high:
                return None, f"At most {MAX_PLAYERS} players fit at the table, so at most {_computers(high)}."
            return n, None

        bots = self.choose(f"How many computer players, from {low} to {high}? Now {settings.bots}. {self.keep}",
                           "How many computer players?", _computers(settings.bots), bots_of, settings.bots)
        settings = settings.changed(SOURCE, bots=bots)

        if settings.bots:
            levels = list(BOT_LEVELS)
            level = self.choose(
                f"Which level for the computer players: {_or_list(levels)}? Now {settings.level}. {self.keep}",
                f"Which level: {_or_list(levels)}?", f"the {settings.level} level",
                self._picker(levels, "a level"), settings.level)
            settings = settings.changed(SOURCE, level=level)

        decks = list(builtin_decks())
        deck = self.choose(f"Which deck: {_or_list(decks)}? Now {_deck_phrase(settings)}. {self.keep}",
                           f"Which deck: {_or_list(decks)}?", _deck_phrase(settings),
                           self._picker(decks, "a deck"), settings.deck)
        settings = settings.changed(SOURCE, deck=deck)

        profiles = list(PROFILES)
        rules = self.choose(f"Which rules: {_or_list(profiles)}? Now {settings.rules}. {self.keep}",
                            f"Which rules: {_or_list(profiles)}?", f"the {settings.rules} rules",
                            self._picker(profiles, "the rules"), settings.rules)
        settings = settings.changed(SOURCE, rules=rules)

        if self.typing:
            settings = self._names(settings)
        return settings

    def _picker(self, options: list[str], what: str) -> Callable[[str], tuple[object, str | None]]:
        def parse(answer: str) -> tuple[object, str | None]:
            choice = _pick(answer, options)
            return (choice, None) if choice else (None, f"I didn't catch {what}.")
        return parse

    def _names(self, settings: Settings) -> Settings:
        now = _and_list(settings.players) if settings.players else "nobody"

        def names_of(answer: str) -> tuple[object, str | None]:
            names = parse_names(answer, self.lang)
            if not names:
                return None, "I didn't catch a name."
            folded = [n.casefold() for n in names]
            twice = next((n for n in names if folded.count(n.casefold()) > 1), None)
            if twice:
                return None, f"Two players can't both be called {twice}."
            if len(names) > MAX_PLAYERS:
                return None, f"At most {MAX_PLAYERS} players fit at the table."
            return tuple(names), None

        players = self.choose(
            f"Who is playing here? Type the names with commas between them. Now {now}. Press Enter to keep them.",
            "Who is playing here? Type the names with commas between them.", f"the same players: {now}",
            names_of, settings.players, names=True)
        if players == settings.players:
            return settings
        return self._fit(settings.changed(SOURCE, players=players))

    def _fit(self, settings: Settings) -> Settings:
        """After names change, bring the number of computer players within the table's limits."""
        humans = len(settings.players)
        if humans + settings.bots > MAX_PLAYERS:
            bots = max(0, MAX_PLAYERS - humans)
            self.say(f"At most {MAX_PLAYERS} players fit at the table, so {_computers(bots)} will play.")
        elif humans + settings.bots < MIN_PLAYERS:
            bots = MIN_PLAYERS - humans
            self.say(f"A game needs at least {MIN_PLAYERS} players, so {_computers(bots)} will join you.")
        else:
            return settings
        return settings.changed(SOURCE, bots=bots)


def _computers(n: int) -> str:
    return _plural(n, "computer player", "computer players")


def set_up(settings: Settings, ask: Callable[[str], str | None], say: Callable[[str], None], *,
           typing: bool = True, tries: int = TRIES) -> Settings | None:
    """Offer ``settings`` as one sentence; start, or walk through the changes. None: no game.

    ``typing`` says whether a keyboard is there: only then are names asked for, and questions
    mention Enter. Changed values are recorded with the source "set-up".
    """
    conversation = _Conversation(ask, say, typing, tries, settings.lang)
    lead = "New game"
    try:
        while not conversation.offer(settings, lead):
            settings = conversation.walk(settings)
            lead = "Ready"
    except _Ended:
        return None
    return settings
