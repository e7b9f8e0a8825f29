"""The short conversation before a game started with no options: start at once, or change things.

It only talks through two callables, ``ask(question) -> answer | None`` and ``say(line)``, so
the same conversation runs typed, spoken or in a test. Every question says the current value,
and keeping it takes one key or one word; an answer that cannot be understood is asked again
a few times, then the current value is kept, so nobody gets stuck at the table. It speaks the
game's language, so a Dutch table is set up in Dutch.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from voicegame import names_list
from voicegame.bots import BOT_LEVELS
from voicegame.config import Settings, deck_languages, decks_in
from voicegame.decks import builtin_decks
from voicegame.engine import PROFILES
from voicegame.table.narration import said_name
from voicegame.understanding.grammar import load_grammar
from voicegame.understanding.words import normalize, similarity

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "SENTENCES", "SOURCE", "answer_grammar", "carry_on", "names_grammar",
           "parse_names", "parse_number", "set_up", "summary"]

# The engine takes 2 to 12 players; the conversation offers up to 6, a family table where
# turns come round quickly and every name can still be told apart by ear.
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TRIES = 3
SOURCE = "set-up"  # the source recorded for values chosen in this conversation

# Every sentence the set-up says, per language, like the table's PROMPTS in narration.py. Level, deck
# and rules names are identifiers and stay as they are; the words a question tells the player to say
# ("zeg wijzig") must be answers the module understands and words in ``answer_grammar``.
SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "and": "and", "or": "or", "computer": "{n} computer player", "computers": "{n} computer players",
        "at_level": "{computers} at {level} level", "each_other": "{computers}, playing each other",
        "against": "{players} against {computers}", "no_computers": "{players}, no computer players",
        "summary": "{table}, {deck}, {rules} rules",
        "with_children": ", listening for a child's voice from {names}", "deck_name": "the {deck} deck",
        "deck_file": "the deck from {file}",
        "new_game": "New game", "ready": "Ready", "offer": "{lead}: {summary}. {how}",
        "how_typing": "Say yes or press Enter to start, or say change.",
        "how_voice": "Say yes to start, or say change.",
        "again": "I didn't catch that. {how} Or say quit.", "starting": "Starting with these settings.",
        "keep_typing": "Press Enter to keep it.", "keep_voice": "Say same to keep it.",
        "keeping": "I'll keep {kept}.",
        "bots": "How many computer players, from {low} to {high}? Now {now}. {keep}",
        "bots_again": "How many computer players?",
        "no_number": "I didn't catch a number between {low} and {high}.",
        "too_few": "A game needs at least {min} players, so at least {computers}.",
        "too_many": "At most {max} players fit at the table, so at most {computers}.",
        "level": "Which level for the computer players: {options}? Now {now}. {keep}",
        "level_again": "Which level: {options}?", "level_kept": "the {level} level",
        "no_level": "I didn't catch a level.",
        "deck": "Which deck: {options}? Now {now}. {keep}", "deck_again": "Which deck: {options}?",
        "no_deck": "I didn't catch a deck.", "deck_no_names": "The {deck} deck has no card names in this language.",
        "rules_deck": "The {rules} rules play with the {deck} deck, which has no card names in this language, so"
                      " we'll play them with the {instead} deck.",
        "rules": "Which rules: {options}? Now {now}. {keep}", "rules_again": "Which rules: {options}?",
        "rules_kept": "the {rules} rules", "no_rules": "I didn't catch the rules.",
        "names": "Who is playing here? Type the names with commas between them. Now {now}. Press Enter to keep them.",
        "names_again": "Who is playing here? Type the names with commas between them.",
        "nobody": "nobody", "names_kept": "the same players: {now}", "no_name": "I didn't catch a name.",
        "same_name": "Two players can't both be called {name}.",
        "too_many_names": "At most {max} players fit at the table.",
        "fit_many": "At most {max} players fit at the table, so {computers} will play.",
        "fit_few": "A game needs at least {min} players, so {computers} will join you.",
        "children": "Is any of them a young child? I then listen for a child's voice on their turns. Type their"
                    " names, or none. Now {now}. Press Enter to keep it.",
        "children_again": "Which of them are young children? Type their names, or none.",
        "children_kept": "the young children as they are: {now}", "not_playing": "{name} is not playing.",
        "names_voice": "Who is playing here? Say one first name at a time, then say finished. Now {now}. Say same"
                       " to keep them.",
        "children_voice": "Is any of them a young child? I then listen for a child's voice on their turns. Say one"
                          " name at a time, then finished, or say none. Now {now}. Say same to keep it.",
        "name_check": "{names}? Say yes or no.", "name_next": "Next name, or say finished.",
        "name_again": "Say the name again, or type it.",
        "unfinished": "Your last game, with {players}, stopped after {moves}{when}. Carry it on? {how}",
        "move": "1 move", "moves": "{n} moves", "today": " today", "yesterday": " yesterday",
        "days_ago": ", {n} days ago",
        "how_resume_typing": "Say yes or press Enter to carry on, or say new game.",
        "how_resume_voice": "Say yes to carry on, or say new game.",
        "new_instead": "A new game, then. The other one stays saved.",
        "carrying_on": "I'll carry on your last game.",
    },
    "nl": {
        "and": "en", "or": "of", "computer": "{n} computerspeler", "computers": "{n} computerspelers",
        "at_level": "{computers} op niveau {level}", "each_other": "{computers}, tegen elkaar",
        "against": "{players} tegen {computers}", "no_computers": "{players}, geen computerspelers",
        "summary": "{table}, {deck}, regels {rules}",
        "with_children": ", met een kinderstem voor {names}", "deck_name": "de {deck}-kaarten",
        "deck_file": "de kaarten uit {file}",
        "new_game": "Nieuw spel", "ready": "Klaar", "offer": "{lead}: {summary}. {how}",
        "how_typing": "Zeg ja of druk op Enter om te beginnen, of zeg wijzig.",
        "how_voice": "Zeg ja om te beginnen, of zeg wijzig.",
        "again": "Dat heb ik niet begrepen. {how} Of zeg stoppen.",
        "starting": "We beginnen met deze instellingen.",
        "keep_typing": "Druk op Enter om het zo te houden.", "keep_voice": "Zeg houden om het zo te houden.",
        "keeping": "Ik houd het bij {kept}.",
        "bots": "Hoeveel computerspelers, van {low} tot {high}? Nu {now}. {keep}",
        "bots_again": "Hoeveel computerspelers?",
        "no_number": "Dat is geen getal van {low} tot {high}.",
        "too_few": "Een spel heeft minstens {min} spelers nodig, dus minstens {computers}.",
        "too_many": "Er passen hoogstens {max} spelers aan tafel, dus hoogstens {computers}.",
        "level": "Welk niveau voor de computerspelers: {options}? Nu {now}. {keep}",
        "level_again": "Welk niveau: {options}?", "level_kept": "niveau {level}",
        "no_level": "Dat niveau ken ik niet.",
        "deck": "Welke kaarten: {options}? Nu {now}. {keep}", "deck_again": "Welke kaarten: {options}?",
        "no_deck": "Die kaarten ken ik niet.", "deck_no_names": "De {deck}-kaarten hebben geen Nederlandse namen.",
        "rules_deck": "Bij de regels {rules} horen de {deck}-kaarten, en die hebben geen Nederlandse namen, dus"
                      " we spelen ze met de {instead}-kaarten.",
        "rules": "Welke regels: {options}? Nu {now}. {keep}", "rules_again": "Welke regels: {options}?",
        "rules_kept": "de regels {rules}", "no_rules": "Die regels ken ik niet.",
        "names": "Wie spelen hier mee? Typ de namen met komma's ertussen. Nu {now}. Druk op Enter om ze zo te"
                 " houden.",
        "names_again": "Wie spelen hier mee? Typ de namen met komma's ertussen.",
        "nobody": "niemand", "names_kept": "dezelfde spelers: {now}", "no_name": "Ik zie geen naam.",
        "same_name": "Twee spelers kunnen niet allebei {name} heten.",
        "too_many_names": "Er passen hoogstens {max} spelers aan tafel.",
        # "we spelen met" fits 0, 1 or more computer players, where a verb would have to agree.
        "fit_many": "Er passen hoogstens {max} spelers aan tafel, dus we spelen met {computers}.",
        "fit_few": "Een spel heeft minstens {min} spelers nodig, dus we spelen met {computers}.",
        "children": "Is een van hen een jong kind? Dan luister ik bij die beurten naar een kinderstem. Typ de"
                    " namen, of geen. Nu {now}. Druk op Enter om het zo te houden.",
        "children_again": "Wie van hen zijn jonge kinderen? Typ de namen, of geen.",
        "children_kept": "de jonge kinderen zoals ze zijn: {now}", "not_playing": "{name} speelt niet mee.",
        "names_voice": "Wie spelen hier mee? Noem steeds één voornaam, en zeg dan klaar. Nu {now}. Zeg houden om"
                       " ze zo te houden.",
        "children_voice": "Is een van hen een jong kind? Dan luister ik bij die beurten naar een kinderstem. Noem"
                          " steeds één naam, en zeg dan klaar, of zeg geen. Nu {now}. Zeg houden om het zo te"
                          " houden.",
        "name_check": "{names}? Zeg ja of nee.", "name_next": "Volgende naam, of zeg klaar.",
        "name_again": "Zeg de naam nog eens, of typ hem.",
        "unfinished": "Je laatste spel, met {players}, stopte na {moves}{when}. Verder spelen? {how}",
        "move": "1 zet", "moves": "{n} zetten", "today": ", vandaag", "yesterday": ", gisteren",
        "days_ago": ", {n} dagen geleden",
        "how_resume_typing": "Zeg ja of druk op Enter om verder te spelen, of zeg nieuw spel.",
        "how_resume_voice": "Zeg ja om verder te spelen, of zeg nieuw spel.",
        "new_instead": "Dan een nieuw spel. Het andere blijft bewaard.",
        "carrying_on": "Ik speel je laatste spel verder.",
    },
}

_NUMBER_WORDS = {
    "zero": 0, "none": 0, "no": 0, "nobody": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_DUTCH_NUMBERS = {
    "nul": 0, "geen": 0, "een": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6,
    "zeven": 7, "acht": 8, "negen": 9, "tien": 10, "elf": 11, "twaalf": 12,
}
# "Turn over the second card": a centre card counted (typed: in a recognizer's grammar, "... this one" came
# out "flip the ninth one").
_ORDINALS = {
    "en": {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
           "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12},
    "nl": {"eerste": 1, "tweede": 2, "derde": 3, "vierde": 4, "vijfde": 5, "zesde": 6, "zevende": 7, "achtste": 8,
           "negende": 9, "tiende": 10, "elfde": 11, "twaalfde": 12},
}
# What a recognizer often writes for a number said alone; only used when no real number word is there.
_SOUNDS_LIKE = {"to": 2, "too": 2, "for": 4, "fore": 4, "won": 1, "tree": 3, "free": 3, "ate": 8}

_START = {"yes", "yeah", "yep", "y", "j", "start", "ok", "okay", "go", "play", "sure", "begin", "ja", "goed", "oké", "oke",
          "beginnen"}
_CHANGE = {"change", "no", "nope", "n", "different", "other", "nee", "wijzig", "wijzigen", "verander", "veranderen",
           "anders"}
_QUIT = {"quit", "exit", "stop", "bye", "goodbye", "cancel", "q", "stoppen", "doei"}
_NONE = {"none", "no", "nobody", "nope", "neither", "nee", "geen", "niemand"}
# "Is any of them a young child?" answered "yes" (or "yes, Sam"): the names are still to come.
_YES = {"yes", "yeah", "yep", "y", "j", "sure", "ja", "jawel"}
_KEEP = {"keep", "same", "skip", "next", "fine", "houden", "zelfde", "hetzelfde", "volgende", "goed"}
# The offer's own "yes" and "change", to guess at an answer that is nearly one of them.
_OFFER_WORDS = {"en": ("yes", "change"), "nl": ("ja", "wijzig")}
_DONE = {"finished", "done", "klaar"}  # the last name has been said ("done" is heard as "dan")
# "No" to the last unfinished game: a new one instead (said as "new game": "new" alone fits the
# recognizer's model too poorly to be taken, as "no" does).
_NEW = {"new", "no", "nope", "n", "change", "nieuw", "nee", "wijzig", "anders"}
_CARRY = {"carry", "continue", "resume", "old", "verder", "doorgaan", "oude"}  # "no, carry on": the old one


class _Ended(Exception):
    """Input ended or the player said quit: there is no game to start."""


# What a recognizer listens for during the spoken set-up: the answers the conversation takes.
_SPOKEN = {
    "en": ("yes", "yeah", "start", "okay", "change", "no", "new game", "carry on", "quit", "stop", "keep", "same",
           "next", "zero", "none", "one", "two", "three", "four", "five", "six", "finished"),
    "nl": ("ja", "goed", "start", "beginnen", "wijzig", "verander", "anders", "nee", "nieuw spel", "verder", "stoppen",
           "stop", "houden", "zelfde", "volgende", "nul", "geen", "een", "twee", "drie", "vier", "vijf", "zes",
           "klaar"),
}


def answer_grammar(lang: str = "en") -> tuple[list[str], str]:
    """The set-up's answers as a recognizer's word list and JSGF grammar: yes, change, keep,
    quit, a number of computer players, a level, a deck or a rules profile, one at a time."""
    named = tuple(BOT_LEVELS) + tuple(PROFILES)
    answers = list(dict.fromkeys(_SPOKEN.get(lang, _SPOKEN["en"]) + named + tuple(said_name(n, lang) for n in named)
                                 + tuple(builtin_decks())))
    words = list(dict.fromkeys(w for answer in answers for w in answer.split()))
    return words, f"#JSGF V1.0;\ngrammar setup_{lang};\npublic <answer> = {' | '.join(answers)};\n"


def names_grammar(lang: str = "en", names: Sequence[str] = ()) -> tuple[list[str], str]:
    """The answers to "who is playing?" by voice as a recognizer's word list and JSGF grammar: one of
    the language's first names (``first_names`` in its grammar file), finished, keep or quit. Given
    ``names`` (the players), one of those instead, or none."""
    known = [" ".join(normalize(name)) for name in names] if names else list(load_grammar(lang).first_names)
    answers = [w for w in _SPOKEN.get(lang, _SPOKEN["en"]) if w in _DONE | _KEEP | _QUIT | (_NONE if names else set())]
    words = list(dict.fromkeys([w for name in known for w in name.split()] + answers))
    return words, (f"#JSGF V1.0;\ngrammar names_{lang};\npublic <answer> = {' | '.join(answers)} | <name>;\n"
                   f"<name> = {' | '.join(dict.fromkeys(known))};\n")


def parse_number(text: str, lang: str = "en", heard: bool = False) -> int | None:
    """The number in an answer: digits or a number word ("three", and "drie" in Dutch); typed, an
    ordinal too ("second"); in words a recognizer ``heard``, a word it writes for one ("too"). Typed,
    "too" alone is a slip, not card 2, and "-1" is no number of players."""
    if re.search(r"-\s*\d", text):
        return None
    words = normalize(text)
    table = {**_NUMBER_WORDS, **(_DUTCH_NUMBERS if lang == "nl" else {}), **({} if heard else _ORDINALS.get(lang, {}))}
    for word in words:
        if word in table:
            return table[word]
        if word.isdigit():
            return int(word)
    for word in words if heard else ():
        if word in _SOUNDS_LIKE:
            return _SOUNDS_LIKE[word]
    return None


def parse_names(text: str, lang: str = "en") -> list[str]:
    """Names typed as "Alice, Ben and Cara" (or "Jan en Piet" in Dutch), in order. Heard names come
    as a recognizer writes them, "alice ben and cara": lower case, nothing between some; there each
    of the language's first names is one name, capitalised."""
    joiners = r",|;|\band\b" + (r"|\ben\b" if lang == "nl" else "")
    names = [" ".join(part.split()) for part in re.split(joiners, text, flags=re.IGNORECASE) if part.strip()]
    first_names = set(load_grammar(lang).first_names) if lang in _SPOKEN else set()
    if text == text.lower() and all(w in first_names for name in names for w in name.split()):
        names = [w.capitalize() if w.islower() else w for name in names for w in name.split()]
    return names


def _pick(text: str, options: Sequence[str]) -> str | None:
    """The option the answer names, forgiving a misspelling or a mishearing; None when unsure."""
    scores = {option: max((similarity(option, w) for w in normalize(text)), default=0.0) for option in options}
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    if not ranked or ranked[0][1] < 0.7:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def _text(lang: str, key: str, **fields: Any) -> str:
    """One of the set-up's sentences in ``lang``; English for a language it has no sentences for."""
    return SENTENCES.get(lang, SENTENCES["en"])[key].format(**fields)


def _computers(n: int, lang: str) -> str:
    return _text(lang, "computer" if n == 1 else "computers", n=n)


def _listed(words: Sequence[str], lang: str, conjunction: str) -> str:
    """Alice, Ben and Cara; random, child, memory or expert: with "en" and "of" in Dutch."""
    return names_list(list(words), _text(lang, conjunction))


def _has_names(deck: str, lang: str) -> bool:
    """Whether ``deck`` has card names in ``lang`` (a pack that cannot be read is left to the game)."""
    languages = deck_languages(deck)
    return languages is None or lang in languages


def _deck_phrase(settings: Settings) -> str:
    deck = settings.deck_name
    if deck.endswith(".toml"):
        return _text(settings.lang, "deck_file", file=Path(deck).name)
    return _text(settings.lang, "deck_name", deck=deck.title())


def summary(settings: Settings) -> str:
    """The whole game in one sentence in its language, e.g. "You against 2 computer players at memory level, ..."."""
    lang = settings.lang
    computers = _text(lang, "at_level", computers=_computers(settings.bots, lang), level=said_name(settings.level, lang))
    players = _listed(settings.players, lang, "and")
    if not settings.players:
        table = _text(lang, "each_other", computers=computers)
    elif settings.bots:
        table = _text(lang, "against", players=players, computers=computers)
    else:
        table = _text(lang, "no_computers", players=players)
    line = _text(lang, "summary", table=table, deck=_deck_phrase(settings), rules=said_name(settings.rules, lang))
    kids = _children_playing(settings)
    return line + _text(lang, "with_children", names=_listed(kids, lang, "and")) if kids else line


def _children_playing(settings: Settings) -> tuple[str, ...]:
    """The young children among the players (a config file's may name someone not at this table)."""
    return tuple(name for name in settings.children if name in settings.players)


class _Conversation:
    def __init__(self, ask: Callable[[str], str | None], say: Callable[[str], None], typing: bool, tries: int,
                 lang: str, listen_for: Callable[..., None] | None) -> None:
        self._ask, self.say, self.typing, self.tries, self.lang = ask, say, typing, tries, lang
        self.listen_for = listen_for
        self.keep = self.t("keep_typing" if typing else "keep_voice")
        if listen_for is not None:
            listen_for(*answer_grammar(lang))

    def choose_names(self, question: str, problem: str, kept: str, parse: Callable[[str], tuple[object, str | None]],
                     current: tuple[str, ...], names: Sequence[str] = ()) -> tuple[str, ...]:
        """``choose`` for a list of names (``parse`` takes them with commas between). Heard, they are
        asked for one at a time among ``names_grammar``'s, and each is checked ("Alice? Say yes or
        no."): of the 114 English first names said once each by the neural test voice, the
        recognizer heard 81 right, and a list said in one breath came out with names added."""
        if self.listen_for is None:
            return self.choose(question, problem, kept, parse, current, names=True)
        try:
            return self._one_by_one(question, kept, parse, current, names)
        finally:
            self.listen_for(*answer_grammar(self.lang))

    def _one_by_one(self, question: str, kept: str, parse: Callable[[str], tuple[object, str | None]],
                    current: tuple[str, ...], names: Sequence[str]) -> tuple[str, ...]:
        heard_names, answers = names_grammar(self.lang, names), answer_grammar(self.lang)
        chosen: list[str] = []
        line, misses = question, 0
        while misses < self.tries:
            self.listen_for(*heard_names, checked=True)
            answer = self.ask(line, names=True)
            if not answer or set(normalize(answer)) <= _DONE:
                return parse(", ".join(chosen))[0] if chosen else current
            said = parse_names(answer, self.lang)
            value, wrong = parse(", ".join(chosen + said))
            if wrong is None and value == ():  # no young children
                return ()
            misses += 1
            line = f"{wrong} {self.t('name_again')}" if wrong else self.t("name_again")
            if wrong is None:
                self.listen_for(*answers)
                check = self.ask(self.t("name_check", names=_listed(said, self.lang, "and")))
                if set(normalize(check)) & _START:
                    chosen += said
                    if len(chosen) >= (len(names) or MAX_PLAYERS):
                        return value
                    line, misses = self.t("name_next"), 0
        self.say(self.t("keeping", kept=kept))
        return current

    def t(self, key: str, **fields: Any) -> str:
        return _text(self.lang, key, **fields)

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
        how = self.t("how_typing" if self.typing else "how_voice")
        question = self.t("offer", lead=self.t(lead), summary=summary(settings), how=how)
        yes, change = _OFFER_WORDS.get(self.lang, _OFFER_WORDS["en"])
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
            heard = _pick(answer, [yes, "start", change])
            if heard:
                return heard != change
            question = self.t("again", how=how)
        self.say(self.t("starting"))
        return True

    def choose(self, question: str, problem: str, kept: str, parse: Callable[[str], tuple[object, str | None]],
               current: object, names: bool = False) -> object:
        """Ask until ``parse`` gives a value (it returns the value, or None and what was wrong: ""
        when the answer was right but not enough, so only ``problem`` is asked)."""
        line = question
        for _ in range(self.tries):
            answer = self.ask(line, names)
            if not answer:
                return current
            value, wrong = parse(answer)
            if wrong is None:
                return value
            line = f"{wrong} {problem}" if wrong else problem
        self.say(self.t("keeping", kept=kept))
        return current

    def walk(self, settings: Settings) -> Settings:
        humans = len(settings.players)
        low, high = max(0, MIN_PLAYERS - humans), max(0, MAX_PLAYERS - humans)

        def bots_of(answer: str) -> tuple[object, str | None]:
            n = parse_number(answer, self.lang)
            if n is None:
                return None, self.t("no_number", low=low, high=high)
            if n < low:
                return None, self.t("too_few", min=MIN_PLAYERS, computers=_computers(low, self.lang))
            if n > high:
                return None, self.t("too_many", max=MAX_PLAYERS, computers=_computers(high, self.lang))
            return n, None

        bots = self.choose(self.t("bots", low=low, high=high, now=settings.bots, keep=self.keep),
                           self.t("bots_again"), _computers(settings.bots, self.lang), bots_of, settings.bots)
        settings = settings.changed(SOURCE, bots=bots)

        if settings.bots:
            levels = _listed([said_name(level, self.lang) for level in BOT_LEVELS], self.lang, "or")
            now = said_name(settings.level, self.lang)
            level = self.choose(self.t("level", options=levels, now=now, keep=self.keep),
                                self.t("level_again", options=levels), self.t("level_kept", level=now),
                                self._picker(list(BOT_LEVELS), "no_level"), settings.level)
            settings = settings.changed(SOURCE, level=level)

        # Only decks with card names in the game's language are offered (a Dutch game has one, so
        # there is nothing to ask); one named anyway is refused with the reason.
        decks = list(decks_in(self.lang))
        if decks != [settings.deck_name]:
            options = _listed(decks, self.lang, "or")
            deck = self.choose(self.t("deck", options=options, now=_deck_phrase(settings), keep=self.keep),
                               self.t("deck_again", options=options), _deck_phrase(settings), self._deck_picker(),
                               settings.deck)
            settings = settings.changed(SOURCE, deck=deck)

        options = _listed([said_name(name, self.lang) for name in PROFILES], self.lang, "or")
        now = said_name(settings.rules, self.lang)
        rules = self.choose(self.t("rules", options=options, now=now, keep=self.keep),
                            self.t("rules_again", options=options), self.t("rules_kept", rules=now),
                            self._picker(list(PROFILES), "no_rules"), settings.rules)
        settings = settings.changed(SOURCE, rules=rules)
        if settings.deck is None and not _has_names(settings.deck_name, self.lang) and decks:
            # The classic rules' own deck has no Dutch names: the rules are played with one that has.
            self.say(self.t("rules_deck", rules=said_name(rules, self.lang), deck=settings.deck_name.title(), instead=decks[0].title()))
            settings = settings.changed(SOURCE, deck=decks[0])

        if self.typing or self.listen_for is not None:
            settings = self._names(settings)
        return settings

    def _deck_picker(self) -> Callable[[str], tuple[object, str | None]]:
        def parse(answer: str) -> tuple[object, str | None]:
            choice = _pick(answer, list(builtin_decks()))
            if choice is None:
                return None, self.t("no_deck")
            if not _has_names(choice, self.lang):
                return None, self.t("deck_no_names", deck=choice.title())
            return choice, None
        return parse

    def _picker(self, options: list[str], wrong: str) -> Callable[[str], tuple[object, str | None]]:
        """Takes an option by its name or as it is said in the game's language ("kind" for child)."""
        named = {said_name(option, self.lang): option for option in options} | {option: option for option in options}

        def parse(answer: str) -> tuple[object, str | None]:
            choice = _pick(answer, list(named))
            return (named[choice], None) if choice else (None, self.t(wrong))
        return parse

    def _names(self, settings: Settings) -> Settings:
        now = _listed(settings.players, self.lang, "and") if settings.players else self.t("nobody")

        def names_of(answer: str) -> tuple[object, str | None]:
            names = parse_names(answer, self.lang)
            if not names:
                return None, self.t("no_name")
            folded = [n.casefold() for n in names]
            twice = next((n for n in names if folded.count(n.casefold()) > 1), None)
            if twice:
                return None, self.t("same_name", name=twice)
            if len(names) > MAX_PLAYERS:
                return None, self.t("too_many_names", max=MAX_PLAYERS)
            return tuple(names), None

        players = self.choose_names(self.t("names" if self.typing else "names_voice", now=now),
                                    self.t("names_again"), self.t("names_kept", now=now), names_of, settings.players)
        if players != settings.players:
            settings = self._fit(settings.changed(SOURCE, players=players))
        return self._children(settings)

    def _children(self, settings: Settings) -> Settings:
        """Which of the named players are young children (``Settings.children``); not asked of the
        default single player "You"."""
        if settings.players == Settings().players:
            return settings
        kids = _children_playing(settings)
        now = _listed(kids, self.lang, "and") if kids else self.t("nobody")

        def children_of(answer: str) -> tuple[object, str | None]:
            words = set(normalize(answer))
            if words <= _NONE:
                return (), None
            if words <= _YES:
                return None, ""  # then "Which of them are young children?"
            chosen, rest = [], answer
            # A player's name of two words is one name, though a heard "mary ann" would split in two.
            for player in (p for p in settings.players if len(p.split()) > 1):
                said = r"\b" + r"\s+".join(map(re.escape, player.split())) + r"\b"
                if re.search(said, rest, flags=re.IGNORECASE):
                    chosen.append(player)
                    rest = re.sub(said, ",", rest, flags=re.IGNORECASE)
            folded = {p.casefold(): p for p in settings.players}
            for name in parse_names(rest, self.lang):
                if set(normalize(name)) <= _YES:
                    continue
                player = folded.get(name.casefold()) or _pick(name, settings.players)
                if player is None:
                    return None, self.t("not_playing", name=name)
                chosen.append(player)
            return tuple(dict.fromkeys(chosen)), None

        children = self.choose_names(self.t("children" if self.typing else "children_voice", now=now),
                                     self.t("children_again"), self.t("children_kept", now=now), children_of, kids,
                                     settings.players)
        return settings.changed(SOURCE, children=children)

    def _fit(self, settings: Settings) -> Settings:
        """After names change, bring the number of computer players within the table's limits."""
        humans = len(settings.players)
        if humans + settings.bots > MAX_PLAYERS:
            bots = max(0, MAX_PLAYERS - humans)
            self.say(self.t("fit_many", max=MAX_PLAYERS, computers=_computers(bots, self.lang)))
        elif humans + settings.bots < MIN_PLAYERS:
            bots = MIN_PLAYERS - humans
            self.say(self.t("fit_few", min=MIN_PLAYERS, computers=_computers(bots, self.lang)))
        else:
            return settings
        return settings.changed(SOURCE, bots=bots)


def carry_on(players: Sequence[str], moves: int, days: int, ask: Callable[[str], str | None],
             say: Callable[[str], None], *, lang: str = "en", typing: bool = True, tries: int = TRIES,
             listen_for: Callable[..., None] | None = None) -> bool | None:
    """Before a new game, offer the last unfinished one (``days`` since it was last played): True
    carries it on, False goes on to a new game, None: quit. A crash, a flat battery or a closed
    window then costs nothing, also for a player who never heard of ``--resume``."""
    conversation = _Conversation(ask, say, typing, tries, lang, listen_for)
    t = conversation.t
    when = t("today") if days <= 0 else t("yesterday") if days == 1 else t("days_ago", n=days)
    how = t("how_resume_typing" if typing else "how_resume_voice")
    question = t("unfinished", players=_listed(players, lang, "and"), when=when, how=how,
                 moves=t("move") if moves == 1 else t("moves", n=moves))
    yes = _OFFER_WORDS.get(lang, _OFFER_WORDS["en"])[0]
    try:
        for _ in range(tries):
            answer = conversation.ask(question)
            words = set(normalize(answer))
            if words & _CARRY and not words & {"new", "nieuw"}:
                return True
            if words & _NEW or _pick(answer, ["new", "nieuw"]):  # before "start": "start a new game"
                say(t("new_instead"))
                return False
            if not words or words & _START or _pick(answer, [yes]):
                return True
            question = t("again", how=how)
    except _Ended:
        return None
    say(t("carrying_on"))  # as Enter does: either way nothing is lost
    return True


def set_up(settings: Settings, ask: Callable[[str], str | None], say: Callable[[str], None], *,
           typing: bool = True, tries: int = TRIES,
           listen_for: Callable[..., None] | None = None) -> Settings | None:
    """Offer ``settings`` as one sentence; start, or walk through the changes. None: no game.

    ``typing`` says whether the answers are typed: then questions mention Enter. ``listen_for(words,
    jsgf, checked=False)`` tells a recognizer what to listen for, question by question: the set-up's
    answers, or a player's first name (``checked``: each is checked with a yes or no). Names are
    asked for when typed or heard. Changed values are recorded with the source "set-up". The
    conversation is in ``settings.lang``.
    """
    conversation = _Conversation(ask, say, typing, tries, settings.lang, listen_for)
    lead = "new_game"
    try:
        while not conversation.offer(settings, lead):
            settings = conversation.walk(settings)
            lead = "ready"
    except _Ended:
        return None
    return settings
