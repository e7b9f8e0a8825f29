"""Command line: ``voicegame play | config | devices | decks | rules | step | simulate | ...``.

Human-facing output is plain appended lines; ``--json`` gives machine-readable output for
scripts, tests and the later speech layers.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import importlib.metadata
import json
import os
import queue
import random
import shlex
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, NoReturn

from voicegame import names_list
from voicegame.bots import BOT_LEVELS, make_bot
from voicegame.config import (
    COMMAND_LINE, RATE_RANGE, ConfigError, Settings, check_option, children_note, cli_values, data_dir, describe,
    language_problem, languages, load_settings, write_example,
)
from voicegame.decks import Deck, DeckError, builtin_decks, load_deck
from voicegame.engine import (
    PROFILES, Action, Ask, Flip, Game, IllegalAction, Pass, PositionError, RuleError, Rules, action_from_json, profile,
)
from voicegame.engine.rules import parse_rule_value
from voicegame.table.journal import (Journal, JournalError, Resumed, in_use, latest_journal, load_journal,
                                     unfinished_games)
from voicegame.speech.sentences import KEYBOARD_TOLD
from voicegame.table.narration import PHRASES, prompt
from voicegame.table.output import Lines
from voicegame.table.session import TextTable
from voicegame.table.setup import carry_on, set_up
from voicegame.understanding import GrammarError, Understander, Understanding, normalize
from voicegame.understanding.words import similarity

if TYPE_CHECKING:
    from voicegame.speech.base import Recognizer, SpeechError, Voice
    from voicegame.table.voice import VoiceIO

# More than the 11 computer players a table can have: some are left out where they sound like a
# player or a card word.
BOT_NAMES = ("Cara", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivy", "Jon", "Kit", "Lou", "Max", "Nell", "Otto", "Rex",
             "Uma", "Vera", "Bea", "Ned")
# Names that are everyday words of a language: Dutch "dan" is "then" ("Dan heb je Meneer Brood?" asked Dan).
NOT_BOT_NAMES = {"nl": {"Dan"}}


def _out(line: str) -> None:
    print(line, flush=True)


def _typing_instead(problem: SpeechError, lang: str = "en") -> str:
    """A speech problem and the way on, in ``lang`` (once: "No microphone found, so we'll use the keyboard.")."""
    text = problem.said(lang)
    if problem.key in KEYBOARD_TOLD:
        return text
    return prompt(lang, "typing_instead", problem=text + ("" if text.endswith((".", "!", "?")) else "."))


def _fail(message: str, code: int = 2) -> int:
    print(message, file=sys.stderr, flush=True)
    return code


def _rules_from_args(args: argparse.Namespace) -> Rules:
    rules = profile(args.rules)
    overrides = {}
    for item in args.rule or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise RuleError(f"Write a rule as name=value, for example politeness_penalty=on (not {item!r}).")
        overrides[name.strip()] = parse_rule_value(name.strip(), value.strip())
    return rules.with_overrides(**overrides)


def _add_game_options(p: argparse.ArgumentParser, rules: str | None = "guide") -> None:
    """``rules``: the default profile (None: from the config file, whose default is guide)."""
    p.add_argument("--deck", help="built-in deck name or path to a .toml pack (default: the profile's deck)")
    p.add_argument("--rules", default=rules, type=_setting("rules"), metavar="PROFILE",
                   help=f"rules profile: {', '.join(PROFILES)} (default guide)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help="override one rule, e.g. stock=5")
    p.add_argument("--seed", type=_whole("--seed", 42), help="seed for the deal (default: a random one, printed)")


def _bot_names(humans: list[str], count: int, deck: Deck, lang: str) -> list[str]:
    """Names for computer players that don't sound like anyone already at the table, nor like a
    card word of ``deck`` (Cara and the sporting deck's Carr): a name the game itself would warn
    about would be misheard, and the players cannot rename a computer player."""
    chosen: list[str] = []
    for name in BOT_NAMES:
        if len(chosen) == count:
            break
        if name in NOT_BOT_NAMES.get(lang, ()):
            continue
        others = humans + chosen
        if any(similarity(normalize(name)[0], w) >= 0.6 for p in others for w in normalize(p)):
            continue
        if not Understander(deck, [name], lang=lang).warnings():  # alone, its only warning is a card word
            chosen.append(name)
    return chosen


def cmd_play(args: argparse.Namespace) -> int:
    # --players on its own is the whole table; --bots on its own joins the usual players (You): a game of
    # computer players only is --players "".
    if args.players and args.bots is None:
        args.bots = 0
    try:
        settings = load_settings(cli_values(args), table=not args.resume)
    except ConfigError as exc:
        return _fail(str(exc))
    _use_settings(args, settings)
    voice = None
    if args.set_up and sys.stdin.isatty():
        voice = _open_voice(args, settings.lang) if args.voice is not False else None
        dutch = settings.lang == "nl"
        try:
            again: bool | None = False
            unusable: list[JournalError] = []
            if (unfinished := _recent_unfinished(unusable)) is None:
                for why in unusable:  # not offered, and not a word why: the player would think it lost
                    _say_before_the_game(why.said(settings.lang), voice)
            else:
                again = _talk(voice, lambda ask, say, **how: carry_on(
                    unfinished.others, unfinished.moves, unfinished.days, ask, say, lang=settings.lang, **how),
                    settings.lang)
            if again:
                args.resume = str(unfinished.path)
                if voice is not None and unfinished.lang != settings.lang:  # the game's language, not the set-up's
                    voice.close()
                    voice = None
            elif again is not None:
                settings = _talk(voice, lambda ask, say, **how: set_up(settings, ask, say, **how), settings.lang)
        except KeyboardInterrupt:  # Ctrl+C: stop as a game does, without a traceback
            _last_words("Gestopt voordat het spel begon." if dutch else "Stopped before the game began.", voice)
            return 130
        if again is None or settings is None:
            _last_words("Geen spel deze keer. Tot ziens." if dutch else "No game this time. Goodbye.", voice)
            return 0
        _use_settings(args, settings)
    if args.resume:
        return _resume(args, settings, voice)
    if note := children_note(settings):
        _out(note)
    rules = _rules_from_args(args)
    deck = load_deck(args.deck or rules.deck, three_generations=rules.three_generations)
    humans = list(settings.players)
    bot_names = _bot_names(humans, settings.bots, deck, settings.lang)
    if len(bot_names) < settings.bots:
        return _fail(f"I have names for only {len(bot_names)} computer players that sound unlike the players and the"
                     f" cards, so ask for {len(bot_names)} or fewer.")
    players = humans + bot_names
    if len(players) < 2:
        return _fail("A game needs at least 2 players: add --players Alice,Ben or --bots 2.")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    game = Game(players, rules=rules, deck=deck, seed=seed)
    levels = {n: settings.level for n in bot_names}
    offered = args.set_up and sys.stdin.isatty()
    if not offered and not args.no_save and (unfinished := _recent_unfinished()) is not None:
        # Not offered before this new game, which becomes the "last game" that --resume and the next
        # offer find: the player hears where the other one is.
        players = names_list(unfinished.others, PHRASES.get(settings.lang, PHRASES["en"])["and"])
        _say_before_the_game(prompt(settings.lang, "unfinished_kept", players=players), voice)
    journal, unsaved = (None, None) if args.no_save else _saving(
        lambda: Journal.new(game, {"bots": levels, "lang": settings.lang, "children": args.children,
                                   "polite_reminder": args.polite_reminder, "history": not args.no_history}),
        settings.lang)
    return _play(game, levels, settings.lang, journal, args, voice, unsaved)


def _say_before_the_game(line: str, voice: VoiceIO | None) -> None:
    """Say ``line`` to the table before a game starts: spoken too when the voice is on."""
    if voice is None:
        _out(line)
    else:
        voice.public(line)


def _last_words(line: str, voice: VoiceIO | None) -> None:
    """Say ``line`` before the program ends (spoken to the end when the voice is on)."""
    _say_before_the_game(line, voice)
    if voice is not None:
        voice.close()


def _saving(open_journal: Callable[[], Journal], lang: str) -> tuple[Journal | None, str | None]:
    """The journal, or None and the sentence the players must hear: the game goes on, but nobody
    may think it is being saved when it is not."""
    try:
        return open_journal(), None
    except JournalError as exc:
        return None, prompt(lang, "unsaved", why=exc.said(lang))


def _use_settings(args: argparse.Namespace, settings: Settings) -> None:
    """The settings in force (defaults, config file, command line, set-up) as the play options."""
    for name in ("bots", "level", "rules", "lang", "asr", "rate", "verbose", "polite_reminder", "deck", "microphone",
                 "loudspeaker", "narrator"):
        setattr(args, name, getattr(settings, name))
    voice = {"auto": None, "on": True, "off": False}[settings.voice]
    # A recognizer, a microphone, a loudspeaker or a narrator's voice named on the command line asks for
    # voice, as --voice does: with no microphone the player is told why, instead of getting a silent typed game.
    speech_named = any(settings.source(name) == COMMAND_LINE for name in ("microphone", "loudspeaker", "narrator"))
    if voice is None and (speech_named or settings.source("asr") == COMMAND_LINE
                          and settings.asr in ("vosk", "pocketsphinx")):
        voice = True
    args.voice = voice
    playing = {name.casefold(): name for name in settings.players}  # the file's seats and children: if here
    args.seat = [f"{name}={where}" for name, where in settings.seat_map.items()
                 if settings.source("seats") == COMMAND_LINE or name.casefold() in playing]
    args.children = [playing.get(name.casefold(), name) for name in settings.children
                     if settings.source("children") == COMMAND_LINE or name.casefold() in playing]


def _talk(voice: VoiceIO | None, conversation: Callable[..., Any], lang: str = "en") -> Any:
    """A conversation before the game (``carry_on``, ``set_up``), spoken and heard when the voice is
    on (typed words count too, but Enter alone stops the speech there, so the questions say "keep"
    rather than "press Enter")."""
    from voicegame.speech.base import SpeechError

    if voice is not None:
        try:
            return conversation(voice.ask, voice.public, typing=False, listen_for=voice.listen_for)
        except SpeechError as exc:
            _out(_typing_instead(exc, lang))
    return conversation(lambda question: (_out(question), _read_line())[1], _out)


# An unfinished game older than this is not offered before a new one (``--resume`` still finds it).
OFFER_DAYS = 14


class _Unfinished(NamedTuple):
    path: Path
    others: list[str]  # its players but "You"
    moves: int
    days: int  # since it was last played
    lang: str


def _recent_unfinished(passed_over: list[JournalError] | None = None) -> _Unfinished | None:
    """The last game played, if it is unfinished (with a move: ``latest_journal``), was played in the
    last ``OFFER_DAYS`` and had a human player. Why the last game played cannot be carried on, if it
    cannot, is added to ``passed_over``."""
    try:
        path = latest_journal(passed_over, newest_only=True)
        if path is None or in_use(path):  # open in another window: this one starts a game of its own
            return None
        days = _days_since_played(path)
        resumed = load_journal(path)
    except (OSError, JournalError):
        return None
    bots = resumed.header.get("bots", {})
    if days > OFFER_DAYS or resumed.game.over or all(p in bots for p in resumed.game.players):
        return None
    return _Unfinished(path, [p for p in resumed.game.players if p != "You"], len(resumed.game.actions), days,
                       resumed.header.get("lang", "en"))


def cmd_config(args: argparse.Namespace) -> int:
    """The settings in force for ``voicegame play`` and where each comes from."""
    try:
        if args.init:
            _out(f"Wrote a starter config file, every setting commented out: {write_example()}.")
        settings = load_settings()
    except ConfigError as exc:
        return _fail(str(exc))
    for line in describe(settings):
        _out(line)
    return 0


def _play(game: Game, levels: dict[str, str], lang: str, journal: Journal | None, args: argparse.Namespace,
          voice: VoiceIO | None = None, unsaved: str | None = None, resumed: Resumed | None = None) -> int:
    """Set the table up (typing, or voice when asked for or available) and run it; ``unsaved``:
    why the game cannot be saved, said to the table first; ``resumed``: the saved game carried on."""
    humans = [p for p in game.players if p not in levels]
    try:
        seats = _seats(args.seat or [], humans)
        children = _children(args.children or [], humans)
    except ValueError as exc:
        return _fail(str(exc))
    table = TextTable(game, levels, _read_line, Lines(_out), verbose=args.verbose, journal=journal, lang=lang,
                      polite_reminder=args.polite_reminder, history=not args.no_history,
                      undo_spent=resumed is not None and resumed.undo_spent,
                      saved_game_kept=resumed is not None and journal is None)
    if voice is None and args.voice is not False and humans:
        voice = _open_voice(args, lang)
    if not (voice is not None and humans and _use_voice(table, voice, seats, children)):
        table.out = Lines(_out, _seat_channels(seats, lang=lang))
    if unsaved:
        table.say(unsaved)
    if args.audio_in and (voice is None or not voice.listening):  # typed: by choice, or nothing can listen
        table.say(table.p("recording_unused", path=args.audio_in))
    try:
        return _run_table(table)
    finally:
        if voice is not None:
            voice.close()


def _seats(specs: list[str], humans: list[str]) -> dict[str, str]:
    """``--seat NAME=WHERE`` options: WHERE is terminal, none, or an audio output (name or index)."""
    seats = {}
    for spec in specs:
        name, sep, where = spec.partition("=")
        if not sep or not where.strip():
            raise ValueError(f"Write a seat as NAME=WHERE, for example Alice=terminal or Alice=USB Headset (not {spec!r}).")
        seats[_human(name.strip(), humans, "--seat")] = where.strip()
    return seats


def _children(names: list[str], humans: list[str]) -> list[str]:
    """``--child NAME`` options, as the human players' own names."""
    return [_human(name, humans, "--child") for name in names]


def _human(name: str, humans: list[str], option: str) -> str:
    """The human player ``name`` names (in any case), or a ValueError saying who plays."""
    found = [h for h in humans if h.casefold() == name.casefold()]
    if not found:
        raise ValueError(f"There is no human player called {name} for {option}. "
                         f"The human players are {', '.join(humans) or 'none'}.")
    return found[0]


def _seat_channels(seats: dict[str, str], voice: Voice | None = None,
                   lang: str = "en") -> dict[str, Callable[[str], None]]:
    """The private channel of each seat that has one of its own (not "none": the table's)."""
    channels = {p: _seat_channel(p, where, voice, lang) for p, where in seats.items()}
    return {p: c for p, c in channels.items() if c is not None}


def _seat_channel(player: str, where: str, voice: Voice | None, lang: str = "en"):
    """Where ``player``'s private lines go: printed only (terminal), or spoken on their own audio
    output (headphones) in ``voice`` (the narrator's: "slower" and "faster" reach it too);
    None: the table's own channel. Missing headphones are said in ``lang``."""
    if where.casefold() == "none":
        return None
    if where.casefold() == "terminal":
        return _out
    from voicegame.speech.audio import PcmOutput
    from voicegame.speech.base import SpeechError
    from voicegame.speech.tts import Pyttsx3Speaker

    try:
        speaker = Pyttsx3Speaker(voice, output=PcmOutput(where), write=lambda line: _out(f"({player}) {line}"))
    except SpeechError as exc:  # no such output, or no sound at all here (said once for the table)
        missing = exc.key in ("no_output", "output_not_found")
        _out(prompt(lang, "headphones_missing" if missing else "headphones_unusable", player=player, device=where))
        return _out
    return speaker.say


def _open_voice(args: argparse.Namespace, lang: str) -> VoiceIO | None:
    """Speech out, and ears (a recognizer and a microphone, a recording, or with ``--asr text``
    the keyboard), or None. Asked for (--voice): on any missing part, say so and keep the
    keyboard. By default: only when a microphone is there and the game runs in a terminal."""
    from voicegame.speech.audio import MicrophoneSource, StdinSource, WavSource, audio_devices
    from voicegame.speech.base import SpeechError
    from voicegame.speech.recognizers import make_recognizer
    from voicegame.speech.tts import Pyttsx3Speaker, assign_voices
    from voicegame.table.voice import VoiceIO

    asked = args.voice is True or bool(args.audio_in)
    try:
        if args.asr != "text" and not asked and not (sys.stdin.isatty() and not args.audio_in and audio_devices()[0]):
            return None
        narrator = assign_voices([], lang, args.narrator)[0]
        narrator = replace(narrator, rate=args.rate or narrator.rate, volume=args.volume)  # the palette's stays
        speaker = Pyttsx3Speaker(narrator, write=_out, echo=False, lang=lang, device=args.loudspeaker)
    except SpeechError as exc:
        if asked:
            _out(_typing_instead(exc, lang))
        return None
    recognizer, chunks = None, ()

    def tell(line: str) -> None:
        _out(line)
        speaker.say(line)

    try:
        recognizer = make_recognizer(args.asr, lang, tell=tell)
        if recognizer is not None:
            if args.audio_in == "-":
                chunks = StdinSource()
            elif args.audio_in:
                chunks = WavSource(args.audio_in)
            else:
                chunks = MicrophoneSource(args.microphone)
    except SpeechError as exc:
        if not asked and args.microphone is None:  # a microphone chosen in the config file is missed aloud
            speaker.close()
            return None
        # Asked for voice: the game still speaks (as with --asr text), and says why it cannot listen.
        if recognizer is not None:  # the recording could not be read: said now, not again as "not used"
            args.audio_in = None
        recognizer, chunks = None, ()
        tell(_typing_instead(exc, lang))
    keyboard = recognizer is None or sys.stdin.isatty() and args.audio_in != "-"
    push_to_talk = bool(args.push_to_talk) and keyboard and recognizer is not None
    # How to talk is spoken too: a blind player would otherwise never learn to press Enter.
    if push_to_talk:
        tell(prompt(lang, "push_to_talk"))
    elif args.push_to_talk and recognizer is not None:
        tell(prompt(lang, "push_to_talk_no_terminal"))
    return VoiceIO(recognizer, speaker, chunks, _out, typed=_keyboard() if keyboard else None,
                   push_to_talk=push_to_talk, talk_over=bool(args.talk_over))


def _use_voice(table: TextTable, voice: VoiceIO, seats: dict[str, str], children: list[str]) -> bool:
    """Let the table speak and listen through ``voice`` (to ``children`` as young children); False
    (and typing) if the game's words cannot be loaded into the recognizer."""
    from voicegame.speech.base import SpeechError
    from voicegame.speech.tts import assign_voices
    from voicegame.table.voice import unused_commands

    try:
        voice.listen_for_game(table.understander, without=unused_commands(table.game.rules))
    except SpeechError as exc:
        _out(_typing_instead(exc, table.narrator.lang))
        return False
    voice.voices = assign_voices(list(table.bot_levels), table.narrator.lang, voice.speaker.voice.voice_id)[1]
    unseated = [p for p in table.humans if p not in seats]
    if len(table.humans) > 1 and unseated:
        seats = {**seats, **dict.fromkeys(unseated, "terminal")}
        _out(table.p("private_on_screen", names=table.narrator.names(unseated), player=unseated[0]))
    voice.seats = _seat_channels(seats, voice.speaker.voice, table.narrator.lang)
    voice.on_screen = {player for player, channel in voice.seats.items() if channel is _out}
    voice.children = set(children)
    table.read_line = voice.read
    table.out = voice
    table.speech = voice
    return True


@functools.cache
def _keyboard() -> queue.Queue[str | None]:
    """Typed lines, read on a thread of their own, so the keyboard works while the game listens.
    One reader a run: a voice opened again (in a saved game's language) shares it."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            lines.put(line.rstrip("\n"))
        lines.put(None)  # the keyboard is closed

    threading.Thread(target=read, name="keyboard", daemon=True).start()
    return lines


def _read_line() -> str | None:
    if sys.stdin.isatty():
        try:
            return input("> ")
        except EOFError:
            return None
    line = sys.stdin.readline()
    return None if not line else line.rstrip("\n")


def _run_table(table: TextTable) -> int:
    try:
        return table.run()
    except KeyboardInterrupt:
        line = table.stopped_line()
        from voicegame.table.voice import VoiceIO

        if isinstance(table.out, VoiceIO):  # spoken too, cutting short whatever was still being said
            table.out.speaker.stop()
            table.out.public(line)
        else:
            _out(line)
        return 130
    finally:
        if table.journal:
            table.journal.close()


def _unused_when_resuming(args: argparse.Namespace, settings: Settings) -> list[str]:
    """The options given on the command line that only a new game uses (--bots only without --players,
    which sets it to none)."""
    players_given = settings.source("players") == COMMAND_LINE
    given = [f"--{name}" for name in ("players", "bots", "level", "deck", "rules", "lang")
             if settings.source(name) == COMMAND_LINE and not (name == "bots" and players_given)]
    return given + (["--rule"] if args.rule else []) + (["--seed"] if args.seed is not None else [])


def _resume(args: argparse.Namespace, settings: Settings, voice: VoiceIO | None = None) -> int:
    """Carry on a saved game (``voice``: opened for the question that chose it, in its language)."""

    def fail(message: str) -> int:
        if voice is not None:  # heard too, and printed once (as an error)
            voice.speaker.say(message)
            voice.close()
        return _fail(message)

    lang = voice.speaker.lang if voice is not None else settings.lang  # until the saved game's is known
    passed_over: list[JournalError] = []
    path = latest_journal(passed_over) if args.resume == "latest" else Path(args.resume)
    for why in passed_over:
        _out(why.said(lang))
    if path is None:
        return fail(prompt(lang, "nothing_else_to_resume" if passed_over else "nothing_to_resume"))
    if passed_over:
        _out(prompt(lang, "resume_newest"))
    try:
        resumed = load_journal(path)
    except JournalError as exc:
        return fail(exc.said(lang))
    lang = resumed.header.get("lang", "en")
    if not args.no_save and in_use(path):
        return fail(prompt(lang, "save_in_use", name=path.name))
    for problem in resumed.problems:
        _out(problem.said(lang))
    if resumed.finished or resumed.game.over:
        return fail(prompt(lang, "already_over"))
    if unused := _unused_when_resuming(args, settings):
        _out(prompt(lang, "resume_keeps", options=", ".join(unused)))
    levels = dict(resumed.header.get("bots", {}))
    # Unless given on the command line: the young children saved with the game and the config file's,
    # and the config file's seats, for the players of this game.
    humans = [p for p in resumed.game.players if p not in levels]

    def in_game(name: object) -> str | None:
        return next((h for h in humans if isinstance(name, str) and h.casefold() == name.strip().casefold()), None)

    if settings.source("seats") != COMMAND_LINE:
        args.seat = [f"{in_game(name)}={where}" for name, where in settings.seat_map.items() if in_game(name)]
    if settings.source("children") != COMMAND_LINE:
        saved = resumed.header.get("children")
        named = [in_game(name) for name in [*(saved if isinstance(saved, list) else []), *settings.children]]
        args.children = list(dict.fromkeys(name for name in named if name))
    # How the game was set up for its young players (please asked for) and as a memory challenge (no
    # history) stays with it, unless asked for on the command line now.
    if settings.source("polite_reminder") != COMMAND_LINE and isinstance(resumed.header.get("polite_reminder"), bool):
        args.polite_reminder = resumed.header["polite_reminder"]
    args.no_history = args.no_history or resumed.header.get("history") is False
    if args.no_save:  # played from the saved position, which stays as it was: a move can be tried from it
        journal, unsaved = None, prompt(lang, "unsaved", why=prompt(lang, "saved_game_kept"))
    else:
        journal, unsaved = _saving(lambda: Journal.resume(resumed, path), lang)
        kept = {"children": args.children, "polite_reminder": args.polite_reminder, "history": not args.no_history}
        if journal is not None and (changed := {k: v for k, v in kept.items() if resumed.header.get(k) != v}):
            try:
                journal.settings(changed)  # kept for the next time it is carried on
            except JournalError as exc:
                journal, unsaved = None, prompt(lang, "unsaved", why=exc.said(lang))
    return _play(resumed.game, levels, lang, journal, args, voice, unsaved, resumed)


def _days_since_played(path: Path) -> int:
    """Whole days since the saved game at ``path`` was last written (0: today)."""
    return (datetime.date.today() - datetime.date.fromtimestamp(path.stat().st_mtime)).days


def cmd_saved(args: argparse.Namespace) -> int:
    """The unfinished saved games, the last played first: ``play --resume`` and the offer before a new
    game only ever name the last one."""
    games = unfinished_games()
    if not games:
        _out("There are no unfinished saved games. Start one with: voicegame play")
        return 0
    _out(f"Unfinished saved games, the last played first ({data_dir() / 'games'}):")
    for path, resumed in games:
        days = _days_since_played(path)
        when = "today" if days <= 0 else "yesterday" if days == 1 else f"{days} days ago"
        moves = len(resumed.game.actions)
        _out(f"{names_list(list(resumed.game.players))}: {moves} move{'s' if moves != 1 else ''}, last played"
             f" {when}. To carry it on: voicegame play --resume {shlex.quote(str(path))}")
    return 0


def cmd_devices(args: argparse.Namespace) -> int:
    """The microphones, sound outputs and narrator's voices, by the numbers and names the options take."""
    from voicegame.speech.audio import audio_devices, find_device
    from voicegame.speech.base import SpeechError

    try:
        inputs, outputs = audio_devices()
    except SpeechError as exc:  # no PortAudio
        _out(str(exc))
        inputs, outputs = [], []
    else:
        if not inputs and not outputs:
            _out("No microphone or sound output was found, so the game can still be played by keyboard,"
                 " with what it says shown as text.")
    for title, devices, kind in (("Microphones, for --microphone", inputs, "input"),
                                 ("Sound outputs, for --loudspeaker or --seat NAME=WHERE", outputs, "output")):
        if devices:
            default = find_device(None, kind).index
            _out(f"{title}:")
            for device in devices:
                _out(f"  {device.index}: {device.name}{' (default)' if device.index == default else ''}")
        elif inputs or outputs:
            _out(f"{title}: none found.")
    _list_voices(args.all)
    return 0


def _list_voices(every: bool) -> None:
    """The narrator's voices: the game's languages' first, then the others' (all of them with ``every``)."""
    from voicegame.speech.base import SpeechError
    from voicegame.speech.sentences import language_name
    from voicegame.speech.tts import speech_voices

    try:
        voices = speech_voices()
    except SpeechError as exc:
        _out(str(exc))
        return
    _out("Speech voices, for --narrator:")
    ours = languages()
    for lang in ours:
        _out(f"  {language_name('en', lang)}: {', '.join(voices.by_language.get(lang, ())) or 'none'}")
    usual = [v for v in voices.variants if v[:1] in "fm" and v[1:].isdigit()]
    shown = voices.variants if every else usual
    more = "" if every else f", and {len(voices.variants) - len(usual)} more"
    _out(f"  Variants, added after a plus as in en-us+f3: {', '.join(shown)}{more}.")
    others = {lang: ids for lang, ids in voices.by_language.items() if lang not in ours}
    if every:
        for lang, ids in others.items():
            _out(f"  {lang}: {', '.join(ids)}")
    else:
        _out(f"  {sum(map(len, others.values()))} voices for other languages: voicegame devices --all lists them"
             " and every variant.")


def cmd_decks(args: argparse.Namespace) -> int:
    decks = [load_deck(name) for name in builtin_decks()]
    if args.json:
        print(json.dumps([d.summary() for d in decks], indent=1))
    else:
        for d in decks:
            _out(f"{d.name}: {d.title}. {len(d.families)} families of {d.family_size}, {len(d.cards)} cards.")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([r.to_json() for r in PROFILES.values()], indent=1))
        return 0
    for name, rules in PROFILES.items():
        changed = {k: v for k, v in rules.differences().items() if k != "profile"}
        _out(f"{name}: " + (", ".join(f"{k}={v}" for k, v in changed.items()) or "the defaults") + ".")
    _out("Rules and their defaults:")
    for spec in Rules.describe():
        _out(f"  {spec['name']} = {spec['default']}: {spec['doc']}")
    return 0


def cmd_step(args: argparse.Namespace) -> int:
    """Exit 2 for a state or action that cannot be read (as argparse exits for a bad option), 1 for
    an action the rules refuse, so a script can tell its own mistake from the game's answer."""
    try:
        text = Path(args.state).read_text("utf-8-sig")  # a byte-order mark from Notepad is no mistake
    except OSError as exc:
        return _emit_error("bad_state", f"Cannot read the state file {args.state}:"
                                        f" {(exc.strerror or str(exc)).lower()}.")
    except UnicodeDecodeError:
        return _emit_error("bad_state", f"The state file {args.state} is not UTF-8 text: save it as UTF-8 JSON.")
    try:
        game = Game.from_position(json.loads(text))
    except json.JSONDecodeError as exc:
        return _emit_error("bad_state", f"The state file {args.state} is not valid JSON: {exc}.")
    except RecursionError:  # lists nested thousands deep: no position is written so
        return _emit_error("bad_state", f"The state file {args.state} is nested too deeply to be a position.")
    except (PositionError, DeckError, RuleError) as exc:
        return _emit_error("bad_state", str(exc))
    try:
        action = _step_action(args.action)
    except IllegalAction as exc:
        return _emit_error(exc.code, exc.message)
    try:
        events = game.apply(action)
    except IllegalAction as exc:
        print(json.dumps({"error": exc.to_json()}))
        return 1
    print(json.dumps({"events": events, "state": game.position()}, indent=None if args.json else 1))
    return 0


# The keys each kind of action takes in ``step``: with any other, a misspelt "polite" would be
# dropped without a word and the action played as if it had not been written.
_ACTION_KEYS = {Ask: ("ask", "card", "family", "polite", "by"), Flip: ("flip",), Pass: ("pass",)}


def _step_action(text: str) -> Action:
    """The ``--action`` JSON as an action; IllegalAction ``bad_action`` says what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise IllegalAction("bad_action", f"The action is not valid JSON: {exc}.") from None
    action = action_from_json(data)
    unknown = [json.dumps(key, ensure_ascii=False) for key in data if key not in _ACTION_KEYS[type(action)]]
    if unknown:
        keys = f"key {unknown[0]}" if len(unknown) == 1 else f"keys {', '.join(unknown[:-1])} and {unknown[-1]}"
        kind = type(action).__name__.lower()
        raise IllegalAction("bad_action", f"This tool does not know the {keys} in an action:"
                                          f" {'an' if kind[0] in 'aeiou' else 'a'} {kind} takes only"
                                          f" {names_list(list(_ACTION_KEYS[type(action)]))}.")
    return action


def _emit_error(code: str, message: str) -> int:
    """A state or action that cannot be read, as JSON; exit 2 (see ``cmd_step``)."""
    print(json.dumps({"error": {"code": code, "message": message}}))
    return 2


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules_from_args(args)
    deck = load_deck(args.deck or rules.deck, three_generations=rules.three_generations)
    levels = [s.strip() for s in args.bots.split(",")]
    if len(levels) == 1:
        levels *= args.players
    if len(levels) != args.players:
        return _fail(f"--bots lists {len(levels)} levels for {args.players} players.")
    for level in levels:
        if level not in BOT_LEVELS:
            return _fail(f"There is no computer level {level!r}. Levels: {', '.join(BOT_LEVELS)}.")
    players = [f"P{i + 1}" for i in range(args.players)]
    wins = {p: 0.0 for p in players}
    actions = 0
    base = args.seed if args.seed is not None else 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = base + i
        game = Game(players, rules=rules, deck=deck, seed=seed)
        bots = {p: make_bot(level, game, p, seed) for p, level in zip(players, levels)}
        while not game.over:
            game.apply(bots[game.current_player].choose())
        actions += len(game.actions)
        for w in game.winners:
            wins[w] += 1 / len(game.winners)
    seconds = time.perf_counter() - started
    result: dict[str, Any] = {
        "games": args.games,
        "actions": actions,
        "seconds": round(seconds, 4),
        "games_per_s": round(args.games / seconds, 1) if seconds else None,
        "wins": {f"{p} ({lvl})": round(w, 3) for (p, w), lvl in zip(wins.items(), levels)},
    }
    if args.json:
        print(json.dumps(result))
    else:
        _out(f"{args.games} games, {actions} actions in {seconds:.2f} s ({result['games_per_s']} games a second).")
        _out("Wins: " + ", ".join(f"{k} {v}" for k, v in result["wins"].items()) + ".")
    return 0


def cmd_understand(args: argparse.Namespace) -> int:
    deck = load_deck(args.deck)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        hand = _asker_and_hand(args, deck, players)
    except ValueError as exc:
        return _fail(str(exc))
    if problem := language_problem(Settings(deck=args.deck, lang=args.lang)):
        return _fail(problem)  # as the game refuses it: Dutch words would be matched against English names
    understander = Understander(deck, players, lang=args.lang)
    if args.file:
        try:
            texts = Path(args.file).read_text("utf-8").splitlines()
        except OSError as exc:
            return _fail(f"Cannot read {args.file}: {(exc.strerror or str(exc)).lower()}.")
        except UnicodeDecodeError:
            return _fail(f"{args.file} is not UTF-8 text: save it as UTF-8, one utterance per line.")
    elif args.text:
        texts = [" ".join(args.text)]
    else:
        return _fail("Give the words to understand, or --file with one utterance per line.")
    for text in texts:
        result = understander.understand(text, asker=args.asker, hand=hand, phase=args.phase)
        if args.json:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
        else:
            _out(_describe(result, args.lang))
    return 0


def _asker_and_hand(args: argparse.Namespace, deck: Deck, players: list[str]) -> list[str] | None:
    """``--hand`` as card ids of ``deck`` (None: not given), once ``--asker`` is found among the
    ``players``; a ValueError says which of them is wrong (a typo there would change every answer)."""
    if args.asker not in players:
        raise ValueError(f"The asker {args.asker!r} is not one of the players ({', '.join(players)}).")
    hand = [c.strip() for c in args.hand.split(",") if c.strip()] if args.hand is not None else None
    for cid in hand or []:
        if not deck.has_card(cid):
            raise ValueError(f"There is no card {cid!r} in the {deck.name} deck. --hand takes card ids, such as "
                             f"{deck.cards[0].id}; voicegame decks --json lists them.")
    return hand


def _described(lang: str, key: str, **fields: Any) -> str:
    """The words around what ``understand`` and ``transcribe`` found, in the understander's language
    (table prompts ``described_*``); card ids and command names stay as they are: they are the game's."""
    return prompt(lang, f"described_{key}", **fields)


def _describe(r: Understanding, lang: str = "en") -> str:
    if r.intent in ("ask", "ask_family"):
        head = _described(lang, "ask", target=r.target or _described(lang, "who"), what=r.card or r.family)
        return (head + (_described(lang, "confirm") if r.confirm else "")
                + _described(lang, "confidence", confidence=r.confidence))
    if r.intent == "none":
        return _described(lang, "not_understood", reason=r.reason) if r.reason else _described(lang, "let_pass")
    return _described(lang, "command", intent=r.intent)


def cmd_say(args: argparse.Namespace) -> int:
    from voicegame.speech.base import SpeechError, Voice
    from voicegame.speech.tts import Pyttsx3Speaker, unknown_voice

    text = " ".join(args.text)
    if not text.strip():
        return _fail("Give the words to say, for example: voicegame say Not at home.")
    if args.voice is not None and (problem := unknown_voice(args.voice)):
        return _fail(problem)
    voice = Voice(voice_id=args.voice, rate=args.rate, volume=args.volume)
    try:
        # Rendering needs no loudspeaker, so don't mention its absence then.
        speaker = Pyttsx3Speaker(voice, write=(lambda _line: None) if args.wav else _out)
        if args.wav:
            speaker.render(text, args.wav, voice)
            return 0
        speaker.say(text)
        while speaker.busy():
            time.sleep(0.02)
        speaker.close()
    except SpeechError as exc:
        _out(text)  # the words still reach the person, as text
        return _fail(str(exc), 1)
    return 0


def cmd_transcribe(args: argparse.Namespace) -> int:
    from voicegame.speech.audio import WavSource
    from voicegame.speech.base import SpeechError
    from voicegame.speech.recognizers import make_recognizer
    from voicegame.table.voice import taken_at_table  # as the table takes it, no question pending
    from voicegame.understanding import load_grammar, speech_grammar

    deck = load_deck(args.deck)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        hand = _asker_and_hand(args, deck, players)
    except ValueError as exc:
        return _fail(str(exc))
    if problem := language_problem(Settings(deck=args.deck, lang=args.lang)):
        return _fail(problem)
    understander = Understander(deck, players, lang=args.lang)
    words = speech_grammar(load_grammar(args.lang), understander.phrases)

    def listening() -> Recognizer:
        """A recognizer of its own for each file, as at the start of a game: PocketSphinx's cepstral
        mean carries over from one utterance to the next, so with one recognizer for all a file's
        transcript depended on the files before it. Loading one takes about a second (0.6-1.3 s,
        and 0.15 s for the grammar, measured on the development machine)."""
        recognizer = make_recognizer(args.asr, args.lang)
        if recognizer is None:
            raise SpeechError("transcribe needs a recognizer: --asr auto, vosk or pocketsphinx.")
        recognizer.set_grammar(*words)
        return recognizer

    try:
        recognizer: Recognizer | None = listening()  # a missing model is said once, before any file
    except SpeechError as exc:
        return _fail(str(exc))
    unreadable = 0
    for path in args.files:
        try:
            heard = _utterances(WavSource(path).pcm())
        except SpeechError as exc:
            if args.json:  # a row for every file
                print(json.dumps({"file": path, "error": str(exc)}), flush=True)
            else:
                print(exc, file=sys.stderr, flush=True)
            unreadable += 1
            continue
        recognizer = recognizer or listening()
        hearing = recognizer.hear(heard[0] if heard else b"")
        recognizer = None  # used: the next file is heard afresh
        result = taken_at_table(understander, hearing, args.asker, hand, args.phase)
        meaning = result.to_json()
        meaning["candidates"] = meaning.pop("alternatives")  # the requests it might have been
        row = {"file": path, "transcript": hearing.text, "utterances": len(heard),
               "alternatives": [{"text": a.text, "confidence": round(a.confidence, 3)} for a in hearing.alternatives],
               "sure": hearing.sure, "doubtful": hearing.doubtful, "stray": hearing.stray,
               "ruled_out": sorted(map(list, hearing.ruled_out)),
               "decode_ms": round(hearing.decode_ms, 1), **meaning}
        more = f" (the first of {len(heard)} utterances)" if len(heard) > 1 else ""
        print(json.dumps(row, ensure_ascii=False) if args.json else
              f"{path}: {hearing.text!r}{more} -> {_describe(result, args.lang)}" if hearing.text else
              f"{path}: {_described(args.lang, 'nothing')}",
              flush=True)
    return 1 if unreadable else 0  # a script must not take a missing file for silence


def _utterances(pcm: bytes) -> list[bytes]:
    """The utterances the game would hear in ``pcm`` at a microphone: cut by its end-of-speech
    detector from 30 ms chunks, so silence before the speech (which PocketSphinx's cepstral mean
    adapts to, losing the words after 1 to 1.5 s of it) is left out as the game leaves it out."""
    from voicegame.speech.audio import utterances

    chunk = 2 * 480
    return [u.pcm for u in utterances(pcm[i : i + chunk] for i in range(0, len(pcm), chunk))]


def _table_options(p: argparse.ArgumentParser) -> None:
    """The table a request is understood at (``understand``, ``transcribe``)."""
    p.add_argument("--deck", default="jaques", help="the deck (default jaques; voicegame decks lists them)")
    p.add_argument("--players", required=True, help="players, comma-separated, e.g. Alice,Ben,Cara")
    p.add_argument("--asker", required=True, help="the player whose turn it is")
    p.add_argument("--hand", help="the asker's cards, comma-separated ids such as bun:mrs; legality then sharpens"
                   " the choice")
    p.add_argument("--lang", default="en", type=_setting("lang"), help="en or nl (default en)")
    p.add_argument("--phase", default="cards", choices=["cards", "families"],
                   help="what is asked for: single cards, or whole families (default cards)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")


def _how_many(text: str) -> int:
    """A count of at least one (games to simulate): zero or fewer would report nonsense."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"give a whole number of 1 or more, not {text}")
    return value


def _volume(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.1 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"On the command line, --volume {text} is not a loudness. Write a number"
                                         " from 0.1 to 1; for example --volume 0.8.")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but an option's value refused with a sentence of ours (``_setting``, ``_whole``: one that
    begins with a capital, as argparse's own messages never do) is said as that sentence alone, without the
    usage block in front of it; the exit status stays argparse's 2."""

    def error(self, message: str) -> NoReturn:
        _, sep, sentence = message.partition(": ")
        if message.startswith("argument ") and sep and sentence[:1].isupper():
            self.exit(2, sentence + "\n")
        super().error(message)


def _setting(key: str) -> Callable[[str], Any]:
    """The type of an option that is also a setting of the config file: checked as the file's are, so a
    wrong value is the sentence ``voicegame play`` says for it (On the command line, --bots must be a whole
    number, not two. Write it like this: --bots 2.)."""

    def check(text: str) -> Any:
        value: Any = text
        if key in ("bots", "rate"):
            try:
                value = int(text)
            except ValueError:
                pass  # said as not a whole number
        try:
            return check_option(key, value)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    check.__name__ = key
    return check


def _whole(option: str, example: int) -> Callable[[str], int]:
    """The type of an option that takes any whole number (--seed)."""

    def whole(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"On the command line, {option} must be a whole number, not {text}."
                                             f" Write it like this: {option} {example}.") from None

    return whole


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="voicegame", description="Happy Families for voice, keyboard and screen reader.")
    try:
        version = importlib.metadata.version("voicegame")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        version = "(not installed)"
    parser.add_argument("--version", action="version", version=f"voicegame {version}")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("--players", help="human players, comma-separated, in clockwise order (e.g. Alice,Ben;"
                   ' "" for computer players only)')
    p.add_argument("--bots", type=_setting("bots"),
                   help="number of computer players, seated after the humans (default 2,"
                   " or none when --players is given)")
    p.add_argument("--level", help=f"computer level: {', '.join(BOT_LEVELS)} (default memory)")
    p.add_argument("--verbose", action="store_true", default=None, help="full card names and more detail")
    p.add_argument("--resume", nargs="?", const="latest", metavar="FILE",
                   help="carry on the last unfinished game (or the saved game FILE)")
    p.add_argument("--no-save", action="store_true",
                   help="don't keep a journal of this game (with --resume: play on from the saved game, which stays as"
                   " it was)")
    p.add_argument("--lang", type=_setting("lang"),
                   help=f"language of requests and narration: {' or '.join(languages())} (default en)")
    p.add_argument("--voice", action=argparse.BooleanOptionalAction, default=None,
                   help="speak and listen (default: when a microphone is there; falls back to the keyboard)")
    p.add_argument("--seat", action="append", metavar="NAME=WHERE",
                   help="a player's private channel for hands and help: terminal, none, or headphones by name")
    p.add_argument("--microphone", metavar="DEVICE", help="the microphone to listen with: its number or part of its"
                   " name (voicegame devices lists them); turns voice on, as --voice")
    p.add_argument("--loudspeaker", metavar="DEVICE", help="the sound output the game speaks on: its number or part"
                   " of its name (voicegame devices lists them); turns voice on, as --voice")
    p.add_argument("--narrator", metavar="VOICE", help="the game's speech voice, an espeak-ng voice such as en-us"
                   " or en-us+f3 (default: the language's own; voicegame devices lists them); turns voice on")
    p.add_argument("--rate", type=_setting("rate"), help=f"speaking speed in words a minute, {RATE_RANGE[0]} to"
                   f" {RATE_RANGE[1]}")
    p.add_argument("--volume", type=_volume, default=1.0, help="loudness of the game's voice, 0.1 to 1 (default 1)")
    p.add_argument("--push-to-talk", action="store_true",
                   help="press Enter before and after speaking, instead of the game waiting for a pause")
    p.add_argument("--talk-over", action="store_true",
                   help="with headphones: the game listens while it speaks, and stops when you speak"
                   " (on a loudspeaker its own voice would stop it)")
    p.add_argument("--no-history", action="store_true", help="a memory challenge: no history command")
    p.add_argument("--asr", help="recognizer: auto, vosk, pocketsphinx (either turns voice on, as --voice), or text"
                   " to speak but read the keyboard (default auto)")
    p.add_argument("--audio-in", metavar="FILE.wav|-", help="listen to a recording or raw 16 kHz PCM on stdin")
    p.add_argument("--child", dest="children", action="append", metavar="NAME",
                   help="NAME is a young child: listen for a child's voice on their turns (once per child)")
    p.add_argument("--polite-reminder", action="store_true", default=None,
                   help="for young players: a request without please is asked again, not played")
    _add_game_options(p, rules=None)
    p.set_defaults(func=cmd_play, set_up=False)

    p = sub.add_parser("config", help="show the settings voicegame play uses and where each comes from")
    p.add_argument("--init", action="store_true", help="write a starter config file (never over an existing one)")
    p.set_defaults(func=cmd_config)

    p = sub.add_parser("saved", help="list the unfinished saved games, and how to carry each on")
    p.set_defaults(func=cmd_saved)

    p = sub.add_parser("devices", help="list the microphones, sound outputs and speech voices to choose from")
    p.add_argument("--all", action="store_true", help="every speech voice and variant, not only those for English"
                   " and Dutch")
    p.set_defaults(func=cmd_devices)

    sub.add_parser("models", help="list or download speech models: models list | models fetch en")

    p = sub.add_parser("decks", help="list the built-in decks")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_decks)

    p = sub.add_parser("rules", help="list the rules profiles and parameters")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("step", help="apply one action to a state file and print the result",
                       epilog="Exit status: 0 when the action was applied, 1 when the rules refuse it, 2 when the"
                       " state or the action cannot be read; an error is printed as"
                       ' {"error": {"code", "message"}}.')
    p.add_argument("--state", required=True, help="state file (JSON position)")
    p.add_argument("--action", required=True, help='action JSON, e.g. {"ask": "Ben", "card": "bun:mrs"}')
    p.add_argument("--json", action="store_true", help="compact JSON on one line")
    p.set_defaults(func=cmd_step)

    p = sub.add_parser("understand", help="show how words would be understood as a request or command")
    p.add_argument("text", nargs="*", help="what was said or typed")
    _table_options(p)
    p.add_argument("--file", help="one utterance per line; one result per line, in order")
    p.set_defaults(func=cmd_understand)

    p = sub.add_parser("say", help="speak words aloud, or render them to a WAV file")
    p.add_argument("text", nargs="*")
    p.add_argument("--wav", help="write the speech to this WAV file instead of playing it")
    p.add_argument("--voice", help="espeak-ng voice, e.g. en-us or en-us+f3 (voicegame devices lists them)")
    p.add_argument("--rate", type=_setting("rate"), default=170,
                   help=f"words per minute, {RATE_RANGE[0]} to {RATE_RANGE[1]} (default 170)")
    p.add_argument("--volume", type=_volume, default=1.0, help="loudness, 0.1 to 1 (default 1)")
    p.set_defaults(func=cmd_say)

    p = sub.add_parser("transcribe", help="recognize WAV files and show how each would be understood")
    p.add_argument("files", nargs="+", metavar="FILE.wav")
    p.add_argument("--asr", default="auto", help="recognizer: auto, vosk or pocketsphinx (default auto)")
    _table_options(p)
    p.set_defaults(func=cmd_transcribe)

    p = sub.add_parser("simulate", help="play computer-only games and count wins and speed")
    p.add_argument("--games", type=_how_many, default=100)
    p.add_argument("--players", type=_whole("--players", 4), default=4)
    p.add_argument("--bots", default="random", help="one level for all, or one per seat, comma-separated")
    p.add_argument("--json", action="store_true")
    _add_game_options(p)
    p.set_defaults(func=cmd_simulate)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["models"]:  # its own small parser: list, fetch
        from voicegame.speech.models import models_main

        return models_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["play"] + argv)
    if args.func is cmd_play and argv in ([], ["play"]):
        args.set_up = True  # no options: a short set-up conversation, where Enter starts at once
    try:
        return args.func(args)
    except KeyboardInterrupt:  # Ctrl+C outside a game (a game says more): stop without a traceback
        return _fail("Stopped.", 130)
    except (DeckError, RuleError, PositionError, GrammarError) as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # the reader went away (e.g. piped into head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
