"""Defaults for ``voicegame play`` kept in a TOML file, so a family sets the table up once.

Values come from three places, each overriding the one before: the built-in defaults, the
config file, and the options given on the command line. Every value remembers where it came
from, so ``voicegame config`` can say why a setting is what it is. The user's file is only
ever read; a starter file is written only when asked for, and never over an existing one.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import platformdirs

from voicegame import names_list
from voicegame.bots import BOT_LEVELS
from voicegame.decks import DeckError, builtin_decks, load_deck
from voicegame.engine import PROFILES, profile
from voicegame.speech.recognizers import BACKENDS
from voicegame.understanding.grammar import GRAMMAR_DIR

__all__ = ["COMMAND_LINE", "DEFAULT", "MAX_PLAYERS", "ConfigError", "Settings", "check_option", "cli_values",
           "children_note", "children_not_playing", "config_path", "data_dir", "deck_languages", "decks_in", "describe",
           "language_problem", "load_settings", "read_config", "write_example"]

DEFAULT = "default"
COMMAND_LINE = "command line"
# Game() accepts 2 to 12 players.
MIN_PLAYERS, MAX_PLAYERS = 2, 12
VOICE_MODES = ("auto", "on", "off")
RATE_RANGE = (80, 400)  # words per minute that stay understandable (the voice's slower/faster keep to it too)


class ConfigError(ValueError):
    """A setting that cannot be used; the message is one spoken sentence saying what to write."""


@dataclass(frozen=True)
class Settings:
    """The settings for a new game; ``sources`` says where each one came from."""

    players: tuple[str, ...] = ("You",)
    bots: int = 2
    level: str = "memory"
    deck: str | None = None  # None: the rules profile's own deck
    rules: str = "guide"
    lang: str = "en"
    voice: str = "auto"
    asr: str = "auto"
    verbose: bool = False
    polite_reminder: bool = False
    children: tuple[str, ...] = ()  # human players who are young children: heard as a child's voice
    rate: int = 170
    microphone: str | int | None = None  # a device name (part of it) or index; None: the system's default
    loudspeaker: str | int | None = None  # the table's sound output, likewise
    narrator: str | None = None  # an espeak-ng voice (VOICE or VOICE+VARIANT); None: the language's own
    seats: tuple[tuple[str, str | int], ...] = ()  # (player, "terminal" | "none" | device name or index)
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False, repr=False)

    def source(self, name: str) -> str:
        return self.sources.get(name, DEFAULT)

    @property
    def deck_name(self) -> str:
        """The deck the game will use: the chosen one, or the rules profile's."""
        return self.deck or profile(self.rules).deck

    @property
    def seat_map(self) -> dict[str, str]:
        """Seats as the command line's --seat gives them: every place (a device index too) as text."""
        return {name: str(where) for name, where in self.seats}

    def changed(self, source: str, **values: Any) -> Settings:
        """A copy with ``values`` set and marked as coming from ``source`` (unchanged ones keep theirs)."""
        differing = {k: v for k, v in values.items() if getattr(self, k) != v}
        if not differing:
            return self
        sources = {**self.sources, **{k: source for k in differing}}
        return replace(self, **differing, sources=MappingProxyType(sources))


NAMES = tuple(f.name for f in fields(Settings) if f.name != "sources")

# How each setting is written in the file: shown in error messages and the starter file.
EXAMPLES = {
    "players": 'players = ["Alice", "Ben"]',
    "bots": "bots = 2",
    "level": 'level = "memory"',
    "deck": 'deck = "jaques"',
    "rules": 'rules = "guide"',
    "lang": 'lang = "en"',
    "voice": 'voice = "auto"',
    "asr": 'asr = "auto"',
    "verbose": "verbose = false",
    "polite_reminder": "polite_reminder = false",
    "children": 'children = ["Sam"]',
    "rate": "rate = 170",
    "microphone": 'microphone = "USB"',
    "loudspeaker": 'loudspeaker = "Speakers"',
    "narrator": 'narrator = "en-us+f3"',
    "seats": 'a [seats] table with one line per player, like Alice = "terminal"',
}

# How each is given on the command line (voicegame play's options): said when the value came from there.
OPTIONS = {
    "players": "--players Alice,Ben",
    "bots": "--bots 2",
    "level": "--level memory",
    "deck": "--deck jaques",
    "rules": "--rules guide",
    "lang": "--lang en",
    "voice": "--voice",
    "asr": "--asr auto",
    "verbose": "--verbose",
    "polite_reminder": "--polite-reminder",
    "children": "--child Sam",
    "rate": "--rate 170",
    "microphone": "--microphone USB",
    "loudspeaker": "--loudspeaker Speakers",
    "narrator": "--narrator en-us+f3",
    "seats": "--seat Alice=terminal",
}


def _written(key: str, value: Any, cli: bool) -> str:
    """A setting as it is written where it was given: ``--bots 2`` on the command line, ``bots = 2`` in the file."""
    if not cli:
        return f"{key} = {_toml(value)}"
    if isinstance(value, (list, tuple)):
        value = ",".join(map(str, value))
    return f"{OPTIONS[key].split()[0]} {value}"


def config_path() -> Path:
    """The config file: $VOICEGAME_CONFIG, or config.toml in the user's config folder."""
    override = os.environ.get("VOICEGAME_CONFIG")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("voicegame", appauthor=False)) / "config.toml"


def languages() -> tuple[str, ...]:
    """Languages with request templates, the ones a game can be played in."""
    return tuple(sorted(p.stem for p in GRAMMAR_DIR.glob("*.toml")))


def read_config(path: Path | None = None) -> dict[str, Any]:
    """The checked values in the config file; an empty dict when there is no file."""
    path = config_path() if path is None else path
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"Cannot read the config file {path}: {exc.strerror}.") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"The config file {path} is not plain UTF-8 text. Save it again as UTF-8.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_toml_problem(path, exc)) from None
    where = f"In the config file {path}, "
    values = {}
    for key, value in data.items():
        if key not in NAMES:
            raise ConfigError(where + f"there is no setting called {key}.{_did_you_mean(key, NAMES)}"
                              f" Settings are: {', '.join(NAMES)}. Fix or remove that line.")
        values[key] = _check(key, value, where, base=path.parent)
    return values


def _toml_problem(path: Path, exc: tomllib.TOMLDecodeError) -> str:
    text = str(exc)
    found = re.search(r"\s*\(at line (\d+), column \d+\)", text)
    what = text[: found.start()] if found else re.sub(r"\s*\(at end of document\)", "", text)
    what = what[:1].lower() + what[1:]
    place = f"on line {found.group(1)}" if found else "at its end"
    return (f"The config file {path} is not valid TOML {place}: {what}. Fix that line,"
            " or move the file away to play with the defaults.")


def cli_values(args: Any) -> dict[str, Any]:
    """The play options the user actually gave, from an argparse namespace.

    An option left at ``None``, or an on-only flag left off, was not given, so the config
    file's value stands. ``--voice``/``--no-voice`` give "on"/"off"; ``--seat NAME=WHERE``
    options (a list in ``args.seat``) give the seats.
    """
    values: dict[str, Any] = {}
    for name in NAMES:
        value = getattr(args, name, None)
        if name == "voice" and isinstance(value, bool):
            value = "on" if value else "off"
        if value is None or value is False:
            continue
        if name == "players" and isinstance(value, str):
            value = [p.strip() for p in value.split(",") if p.strip()]
        if name == "children":  # --child Sam --child Tom, or --child Sam,Tom
            value = [c.strip() for given in value for c in given.split(",") if c.strip()]
        values[name] = value
    if getattr(args, "seat", None):
        seats = {}
        for spec in args.seat:
            name, sep, where = spec.partition("=")
            if not sep or not name.strip() or not where.strip():
                raise ConfigError(f"On the command line, write a seat as NAME=WHERE, for example"
                                  f" --seat Alice=terminal, not {spec}.")
            seats[name.strip()] = where.strip()
        values["seats"] = seats
    return values


def load_settings(cli: Mapping[str, Any] | None = None, path: Path | None = None, *, table: bool = True) -> Settings:
    """Defaults, then the config file, then the command-line values given (checked, with sources);
    ``table``: check that the players and computer players make a table (not for a game carried on,
    which keeps its own)."""
    path = config_path() if path is None else path
    settings = _given(Settings(), str(path), read_config(path))
    given = {}
    for key, value in (cli or {}).items():
        if key not in NAMES:
            raise ConfigError(f"On the command line, there is no setting called {key}.")
        given[key] = check_option(key, value)
    settings = _given(settings, COMMAND_LINE, given)
    if table:
        _check_table(settings)
        problem = language_problem(settings)
        if problem:
            raise ConfigError(problem)
    return settings


def check_option(key: str, value: Any) -> Any:
    """A value given on the command line for the setting ``key``, checked as the config file's are:
    in the type Settings keeps, or a ConfigError saying what to give, as an option."""
    return _check(key, value, "On the command line, ", base=Path.cwd(), cli=True)


def _given(settings: Settings, source: str, values: dict[str, Any]) -> Settings:
    """Set ``values``, all marked as from ``source``: a value written down counts even when it is the default."""
    if not values:
        return settings
    return replace(settings, **values, sources=MappingProxyType({**settings.sources, **dict.fromkeys(values, source)}))


def _check_table(settings: Settings) -> None:
    """People and computer players together make a table of 2 to 12; if not, what to give instead, in
    the words of where it would be given (an option, or a line of the config file)."""
    people, bots = list(settings.players), settings.bots
    total = len(people) + bots
    if MIN_PLAYERS <= total <= MAX_PLAYERS:
        return
    origin = sorted({settings.source("players"), settings.source("bots")} - {DEFAULT})
    said = f" ({' and '.join(_origin_phrase(o) for o in origin)})" if origin else ""
    there = (f"there {_is(len(people))} {_count(len(people), 'person', 'people')} and"
             f" {_count(bots, 'computer player', 'computer players')}{said}")

    def written(key: str, value: Any) -> str:
        # A setting left at its default is changed where the other one was given (the file: for
        # every game), or else on the command line.
        source = settings.source(key)
        if source == DEFAULT:
            source = settings.source("bots" if key == "players" else "players")
        return _written(key, value, source in (COMMAND_LINE, DEFAULT))

    if total < MIN_PLAYERS:
        if not people:
            fix = (f"Name the people who play with {written('players', ['Alice', 'Ben'])}, or ask for"
                   f" {MIN_PLAYERS} computer players with {written('bots', MIN_PLAYERS)}.")
        else:
            other = next(n for n in ("Ben", "Cara") if n.casefold() not in {p.casefold() for p in people})
            fix = (f"Add a computer player with {written('bots', MIN_PLAYERS - len(people))}, or another person"
                   f" with {written('players', people + [other])}.")
        raise ConfigError(f"A game needs at least {MIN_PLAYERS} players, but {there}. {fix}")
    most = MAX_PLAYERS - len(people)
    raise ConfigError(f"A game has at most {MAX_PLAYERS} players, but {there}. Ask for"
                      f" {_count(most, 'computer player', 'computer players')}{' or fewer' if most else ''}"
                      f" with {written('bots', most)}.")


def deck_languages(deck: str) -> tuple[str, ...] | None:
    """The languages a deck (a built-in name or a pack's path) has card names in; None when the pack
    cannot be read (the game says what is wrong with it when it loads it)."""
    try:
        return load_deck(deck).languages
    except DeckError:
        return None


def decks_in(lang: str) -> tuple[str, ...]:
    """The built-in decks with card names in ``lang``."""
    return tuple(name for name in builtin_decks() if lang in (deck_languages(name) or ()))


# A game in a language its deck has no names for: said in that language, with the way on.
_NO_NAMES = {
    "en": {"deck": "The {deck} deck has no {language} names", "file": "The deck in {file} has no {language} names",
           "rules": "The {rules} rules play with the {deck} deck, which has no {language} names",
           "fix": ": play in English with {english}, or choose a deck that has them with {other}.",
           "fix_rules": ": play in English with {english}, or choose a deck that has them to go with the rules"
                        " with {other}.",
           "option": "--{name} {value}", "line": "{name} = \"{value}\"", "in_file": " in the config file {path}",
           "or": " or "},
    "nl": {"deck": "De {deck}-kaarten hebben geen Nederlandse namen",
           "file": "De kaarten uit {file} hebben geen Nederlandse namen",
           "rules": "De regels {rules} spelen met de {deck}-kaarten, en die hebben geen Nederlandse namen",
           "fix": ": speel in het Engels met {english}, of kies kaarten die ze wel hebben met {other}.",
           "fix_rules": ": speel in het Engels met {english}, of kies er kaarten bij die ze wel hebben met {other}.",
           "option": "--{name} {value}", "line": "{name} = \"{value}\"",
           "in_file": " in het instellingenbestand {path}", "or": " of "},
}


def language_problem(settings: Settings) -> str | None:
    """Why a game with these settings cannot be played in their language, said in it, or None.

    A deck without names in the language would put English card names in Dutch sentences, and the
    game would read Dutch words by their sound against English names ("Meneer Back" heard as
    "Master Back"), so it is refused before it starts, with what to write instead, where the setting
    was written: English, or a deck that has the names (for a rules profile's own deck, one beside
    the rules)."""
    deck = settings.deck_name
    languages = deck_languages(deck)
    if languages is None or settings.lang in languages:
        return None
    from voicegame.speech.sentences import language_name

    t = {**_NO_NAMES["en"], **_NO_NAMES.get(settings.lang, {})}
    language = language_name("en", settings.lang)
    named: set[str] = set()

    def fix(name: str, value: str, source: str) -> str:
        if source in (COMMAND_LINE, DEFAULT):
            return t["option"].format(name=name, value=value)
        line = t["line"].format(name=name, value=value)
        if source not in named:  # the file once
            named.add(source)
            line += t["in_file"].format(path=source)
        return line

    english = fix("lang", "en", settings.source("lang"))
    by_rules = settings.deck is None
    source = settings.source("rules" if by_rules else "deck")
    other = t["or"].join(fix("deck", name, source) for name in decks_in(settings.lang))
    if by_rules:
        head = t["rules"].format(rules=settings.rules, deck=deck.title(), language=language)
    elif deck.endswith(".toml"):
        head = t["file"].format(file=Path(deck).name, language=language)
    else:
        head = t["deck"].format(deck=deck.title(), language=language)
    return head + t["fix_rules" if by_rules else "fix"].format(english=english, other=other, language=language)


def _origin_phrase(source: str) -> str:
    return "from the command line" if source == COMMAND_LINE else f"from {source}"


def _is(n: int) -> str:
    return "is" if n == 1 else "are"


def _count(n: int, one: str, many: str) -> str:
    return f"{'no' if n == 0 else n} {one if n == 1 else many}"


def _did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(word.replace("-", "_").lower(), choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]}?" if close else ""


def _toml(value: Any) -> str:
    """A value as it would be written in the file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _check(key: str, value: Any, where: str, base: Path, cli: bool = False) -> Any:
    """``value`` in the type Settings keeps, or a ConfigError naming ``where``, ``key`` and the fix;
    ``cli``: given on the command line, so said as an option (``--bots 2``), not a line of the file."""
    example = OPTIONS[key] if cli else EXAMPLES[key]
    name = OPTIONS[key].split()[0] if cli else key
    setting = _written(key, value, cli)

    def wrong(kind: str) -> ConfigError:
        shown = value if cli and isinstance(value, str) else _toml_shown(value)
        return ConfigError(f"{where}{name} must be {kind}, not {shown}. Write it like this: {example}.")

    def choose(choices: tuple[str, ...] | list[str], what: str) -> str:
        if not isinstance(value, str):
            raise wrong("a word in quotes")
        if value.casefold() in choices:  # "GUIDE" with Caps Lock on
            return value.casefold()
        raise ConfigError(f"{where}{setting} is not {what}.{_did_you_mean(value, choices)}"
                          f" Write one of: {', '.join(choices)}; for example {example}.")

    if key == "players":
        if isinstance(value, str):
            raise wrong("a list of names")
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise wrong("a list of names in quotes")
        names = [v.strip() for v in value]
        if any(not n for n in names):
            raise ConfigError(f"{where}{name} has an empty name. Write it like this: {example}.")
        folded = [n.casefold() for n in names]
        for n in names:
            if folded.count(n.casefold()) > 1:
                raise ConfigError(f"{where}{setting} gives the name {n} twice. Give every player a different name.")
        if len(names) > MAX_PLAYERS:
            raise ConfigError(f"{where}{name} gives {len(names)} names, but a game has at most {MAX_PLAYERS}"
                              " players.")
        return tuple(names)
    if key == "children":
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise wrong("a list of names in quotes")
        if any(not v.strip() for v in value):
            raise ConfigError(f"{where}{name} has an empty name. Write it like this: {example}.")
        return tuple(dict.fromkeys(v.strip() for v in value))
    if key in ("bots", "rate"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong("a whole number")
        low, high = (0, MAX_PLAYERS - 1) if key == "bots" else RATE_RANGE
        if not low <= value <= high:
            unit = "computer players" if key == "bots" else "words a minute"
            raise ConfigError(f"{where}{setting} is too {'low' if value < low else 'high'}."
                              f" Write a number of {unit} from {low} to {high}; for example {example}.")
        return value
    if key in ("verbose", "polite_reminder"):
        if not isinstance(value, bool):
            raise wrong("true or false, without quotes")
        return value
    if key == "level":
        return choose(list(BOT_LEVELS), "a computer level")
    if key == "rules":
        return choose(list(PROFILES), "a rules profile")
    if key == "lang":
        return choose(languages(), "a language the game can be played in")
    if key == "voice":
        return choose(VOICE_MODES, "a voice setting")
    if key == "asr":
        return choose(BACKENDS, "a recognizer")
    if key == "deck":
        return _check_deck(value, where, base, wrong, cli)
    if key in ("microphone", "loudspeaker"):
        return _check_device(value, where, name, "a sound device name in quotes or a device number",
                             f"Write it like this: {example}, or a number from voicegame devices.")
    if key == "narrator":
        return _check_narrator(value, where, wrong)
    if key == "seats":
        return _check_seats(value, where)
    raise AssertionError(key)  # every name in NAMES is handled above


def _toml_shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    return _toml(value)


def _check_deck(value: Any, where: str, base: Path, wrong, cli: bool = False) -> str:
    if not isinstance(value, str):
        raise wrong("a deck name in quotes")
    decks = builtin_decks()
    if value in decks:
        return value
    if value.endswith(".toml"):
        path = Path(value).expanduser()
        path = path if path.is_absolute() else base / path
        if not path.is_file():
            raise ConfigError(f"{where}{'--deck' if cli else 'deck'} names the file {path}, which is not there."
                              f" Write the path of a .toml pack, or one of: {', '.join(decks)}.")
        return str(path)
    path = Path(value).expanduser()
    if (path if path.is_absolute() else base / path).exists():  # a file or folder, but not a pack
        raise ConfigError(f"{where}{_written('deck', value, cli)} is not a .toml pack file. Write the path of one,"
                          f" or one of: {', '.join(decks)}.")
    raise ConfigError(f"{where}{_written('deck', value, cli)} is not a built-in deck.{_did_you_mean(value, decks)}"
                      f" Write one of: {', '.join(decks)}, or the path of a .toml pack; for example"
                      f" {OPTIONS['deck'] if cli else EXAMPLES['deck']}.")


def _check_seats(value: Any, where: str) -> tuple[tuple[str, str | int], ...]:
    fix = 'Write a [seats] table with one line per player, like Alice = "terminal", Ben = "none" or Cara = 2.'
    if isinstance(value, (list, tuple)) and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in value):
        value = dict(value)  # the pairs Settings keeps, handed back on the command line
    if not isinstance(value, dict):
        raise ConfigError(f"{where}seats must be a table, not {_toml_shown(value)}. {fix}")
    kinds = '"terminal", "none", a sound device name in quotes or a device number'
    return tuple((str(name), _check_device(seat, where, f"the seat of {name}", kinds, fix))
                 for name, seat in value.items())


def _check_device(value: Any, where: str, subject: str, kinds: str, fix: str) -> str | int:
    """A sound device as ``find_device`` takes it: a name (part of it is enough) or a number from 0.
    Whether it is plugged in is seen only when the game opens it."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ConfigError(f"{where}{subject} must be {kinds}, not {_toml_shown(value)}. {fix}")
    if isinstance(value, int) and value < 0:
        raise ConfigError(f"{where}{subject} is {value}; device numbers start at 0. {fix}")
    if isinstance(value, str) and not value.strip():
        raise ConfigError(f"{where}{subject} is empty. {fix}")
    return value.strip() if isinstance(value, str) else value


def _check_narrator(value: Any, where: str, wrong) -> str:
    """An espeak-ng voice it has: the engine's own refusal would only come once the game speaks."""
    from voicegame.speech.tts import unknown_voice

    if not isinstance(value, str) or not value.strip():
        raise wrong("a speech voice name in quotes")
    problem = unknown_voice(value.strip())
    if problem:
        raise ConfigError(where + problem[:1].lower() + problem[1:])
    return value.strip()


def _shown(settings: Settings, name: str) -> str:
    value = getattr(settings, name)
    if name == "players":
        return ", ".join(value) if value else "nobody"
    if name == "deck" and value is None:
        return f"{settings.deck_name} (the deck of the {settings.rules} rules)"
    if name == "seats":
        return ", ".join(f"{p}: {s}" for p, s in value) if value else "none set"
    if name == "children":
        return ", ".join(value) if value else "none"
    if name in ("microphone", "loudspeaker") and value is None:
        return "the system's default"
    if name == "narrator" and value is None:
        from voicegame.speech.tts import assign_voices

        return f"{assign_voices([], settings.lang)[0].voice_id} (the narrator's voice for lang {settings.lang})"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def children_not_playing(settings: Settings) -> list[str]:
    """The young children the config file names who are not among ``settings.players``: the game
    leaves them out (the file serves many games), where ``--child`` naming nobody is refused."""
    if settings.source("children") in (COMMAND_LINE, DEFAULT):
        return []
    playing = {p.casefold() for p in settings.players}
    return [name for name in settings.children if name.casefold() not in playing]


def children_note(settings: Settings, lang: str | None = None) -> str | None:
    """The note for a game whose config file names young children who are not playing, in ``lang``
    (the game's): a short word, not a refusal, since the same file serves games they play in."""
    absent = children_not_playing(settings)
    if not absent:
        return None
    if (lang or settings.lang) == "nl":
        if len(absent) == 1:
            return f"Het instellingenbestand noemt {absent[0]} een jong kind, maar {absent[0]} speelt niet mee."
        return f"Het instellingenbestand noemt {names_list(absent, 'en')} jonge kinderen, maar zij spelen niet mee."
    if len(absent) == 1:
        return f"The config file names {absent[0]} as a young child, but {absent[0]} is not playing."
    return f"The config file names {names_list(absent, 'and')} as young children, but they are not playing."


def data_dir() -> Path:
    """Where games are kept: $VOICEGAME_DATA_DIR, or the user's data folder."""
    override = os.environ.get("VOICEGAME_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("voicegame", appauthor=False))


def _games_folder() -> str:
    """Where ``voicegame play`` saves games, and why there."""
    folder = data_dir() / "games"
    if os.environ.get("VOICEGAME_DATA_DIR"):
        return f"Saved games: {folder} (from VOICEGAME_DATA_DIR)."
    return f"Saved games: {folder} (set VOICEGAME_DATA_DIR to keep them somewhere else)."


def describe(settings: Settings, path: Path | None = None) -> list[str]:
    """The lines of ``voicegame config``: where the file is, where games are saved, and every setting
    with its source (and a note on young children named there who are not among the players)."""
    path = config_path() if path is None else path
    state = "it exists" if path.is_file() else "it does not exist yet, so the defaults are used"
    lines = [f"Config file: {path} ({state}).", _games_folder()]
    for name in NAMES:
        lines.append(f"{name} = {_shown(settings, name)}  (from: {settings.source(name)})")
        if name == "children" and (absent := children_not_playing(settings)):
            them = "them" if len(absent) > 1 else absent[0]
            lines.append(f"  Note: the players do not include {names_list(absent, 'or')}, so children counts for {them}"
                         f" only in a game {'they play' if len(absent) > 1 else absent[0] + ' plays'} in.")
    return lines


def example_text() -> str:
    """The starter file: every setting present but commented out, so it changes nothing until edited."""
    defaults = Settings()
    notes = {
        "players": "People at the table, in clockwise order.",
        "bots": "How many computer players sit after them.",
        "level": f"How well the computer plays: {', '.join(BOT_LEVELS)} (weakest first).",
        "deck": f"Card pack: {', '.join(builtin_decks())}, or the path of a .toml pack."
                " Left out, the rules choose.",
        "rules": f"Rules profile: {', '.join(PROFILES)}. See: voicegame rules",
        "lang": f"Language of requests and narration: {', '.join(languages())}.",
        "voice": "Speak and listen: auto, on or off.",
        "asr": f"Speech recognizer: {', '.join(BACKENDS)}.",
        "verbose": "Full card names and more detail.",
        "polite_reminder": "For young players: a request without please is asked again, not played.",
        "children": "Players who are young children: their turns are heard as a child's voice.",
        "rate": f"Speaking speed in words a minute, {RATE_RANGE[0]} to {RATE_RANGE[1]}.",
        "microphone": "The microphone to listen with: part of its name, or its number. See: voicegame devices",
        "loudspeaker": "Where the game speaks: part of a sound output's name, or its number."
                       " See: voicegame devices",
        "narrator": "The narrator's speech voice, such as en-us or en-us+f3; left out, the language's own."
                    " See: voicegame devices",
    }
    out = ["# voicegame settings. Remove the # in front of a line to use it.",
           "# Options given on the command line win over this file. See: voicegame config", ""]
    for name in NAMES:
        if name == "seats":
            continue
        value = getattr(defaults, name)
        out.append(f"# {notes[name]}")
        out.append(f"# {EXAMPLES[name]}" if value is None else f"# {name} = {_toml(value)}")
        out.append("")
    out += ["# Where each person's private lines go: \"terminal\" (this screen only), \"none\" (the table's own loudspeaker),",
            "# or a sound device name or number. Keep this table at the end of the file.",
            "# [seats]",
            '# You = "terminal"',
            ""]
    return "\n".join(out)


def write_example(path: Path | None = None) -> Path:
    """Write the starter file at ``path``; an existing file is never replaced."""
    path = config_path() if path is None else path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as f:
            f.write(example_text())
    except FileExistsError:
        raise ConfigError(f"There is already a config file at {path}. It is left as it is.") from None
    except OSError as exc:
        raise ConfigError(f"Cannot write the config file {path}: {exc.strerror}.") from None
    return path
