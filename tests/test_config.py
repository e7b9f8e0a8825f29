"""The config file: merge order, sources, speakable errors, and the user's file left untouched."""

from __future__ import annotations

import argparse
import os
import tomllib

import pytest

from voicegame.config import (
    COMMAND_LINE,
    DEFAULT,
    ConfigError,
    Settings,
    cli_values,
    config_path,
    describe,
    example_text,
    load_settings,
    read_config,
    write_example,
)


@pytest.fixture()
def cfg(tmp_path, monkeypatch):
    path = tmp_path / "voicegame" / "config.toml"
    monkeypatch.setenv("VOICEGAME_CONFIG", str(path))
    return path


def _write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def test_the_env_var_names_the_file(cfg):
    assert config_path() == cfg


def test_without_the_env_var_the_file_is_in_the_user_config_folder(monkeypatch):
    monkeypatch.delenv("VOICEGAME_CONFIG", raising=False)
    path = config_path()
    assert path.name == "config.toml" and "voicegame" in path.parts


def test_a_missing_file_gives_the_defaults(cfg):
    settings = load_settings()
    assert not cfg.exists()
    assert settings == Settings()
    assert (settings.players, settings.bots, settings.level, settings.deck, settings.rules) == (
        ("You",), 2, "memory", None, "guide")
    assert (settings.lang, settings.voice, settings.asr, settings.rate) == ("en", "auto", "auto", 170)
    assert settings.verbose is False and settings.polite_reminder is False and settings.seats == ()
    assert (settings.microphone, settings.loudspeaker, settings.narrator) == (None, None, None)
    assert all(settings.source(name) == DEFAULT for name in ("players", "bots", "deck", "seats"))
    assert settings.deck_name == "jaques"


def test_file_beats_defaults_and_command_line_beats_file(cfg):
    _write(cfg, 'bots = 3\nlevel = "child"\nplayers = ["Alice", "Ben"]\nrules = "classic"\n')
    settings = load_settings({"bots": 1, "lang": "en"})  # the classic rules' deck has English names only
    assert settings.bots == 1 and settings.source("bots") == COMMAND_LINE
    assert settings.lang == "en" and settings.source("lang") == COMMAND_LINE
    assert settings.level == "child" and settings.source("level") == str(cfg)
    assert settings.players == ("Alice", "Ben") and settings.source("players") == str(cfg)
    assert settings.rules == "classic" and settings.deck_name == "sporting"
    assert settings.asr == "auto" and settings.source("asr") == DEFAULT


def test_a_value_written_in_the_file_comes_from_the_file_even_when_it_is_the_default(cfg):
    _write(cfg, "bots = 2\n")
    assert load_settings().source("bots") == str(cfg)
    assert load_settings({"bots": 2}).source("bots") == COMMAND_LINE


def test_seats_are_read_as_a_table(cfg):
    _write(cfg, 'players = ["Alice", "Ben", "Cara"]\n[seats]\nAlice = "terminal"\nBen = 2\nCara = "USB Headset"\n')
    settings = load_settings()
    assert settings.seats == (("Alice", "terminal"), ("Ben", 2), ("Cara", "USB Headset"))
    assert settings.seat_map == {"Alice": "terminal", "Ben": "2", "Cara": "USB Headset"}


def test_the_microphone_loudspeaker_and_narrator_from_the_file_and_the_command_line(cfg):
    _write(cfg, 'microphone = 2\nloudspeaker = " USB Headset "\nnarrator = "nl+m3"\n')
    settings = load_settings()
    assert (settings.microphone, settings.loudspeaker, settings.narrator) == (2, "USB Headset", "nl+m3")
    assert settings.source("microphone") == str(cfg)
    args = argparse.Namespace(microphone="0", loudspeaker="hdmi", narrator="en-us+f3")
    assert cli_values(args) == {"microphone": "0", "loudspeaker": "hdmi", "narrator": "en-us+f3"}
    settings = load_settings(cli_values(args))
    assert (settings.microphone, settings.loudspeaker, settings.narrator) == ("0", "hdmi", "en-us+f3")
    assert all(settings.source(name) == COMMAND_LINE for name in ("microphone", "loudspeaker", "narrator"))


def test_a_narrator_espeak_ng_lacks_is_refused_with_the_close_ones(cfg):
    """Said before the game starts: espeak-ng itself would refuse it only once the game speaks, in words
    no player can act on, and an unknown variant (en-us+F3) it ignores without a word."""
    pytest.importorskip("pyttsx3", reason="pip install pyttsx3 (and apt-get install espeak-ng)")
    _write(cfg, 'narrator = "en-xx"\n')
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert str(err.value) == (f"In the config file {cfg}, there is no speech voice called 'en-xx'. Close ones: en-us,"
                              " en, en-029. See: voicegame devices")
    cfg.unlink()
    with pytest.raises(ConfigError) as err:
        load_settings({"narrator": "en-us+F3"})
    assert str(err.value) == ("On the command line, there is no speech voice called 'en-us+F3'. Close ones: en-us+f3."
                              " See: voicegame devices")


def test_a_deck_file_is_found_next_to_the_config_file(cfg):
    _write(cfg.parent / "packs" / "mine.toml", "name = 'mine'\n")
    _write(cfg, 'deck = "packs/mine.toml"\n')
    assert load_settings().deck == str(cfg.parent / "packs" / "mine.toml")


def test_cli_values_keeps_only_the_options_given():
    args = argparse.Namespace(players="Alice, Ben,", bots=None, level=None, deck=None, rules="dutch", lang=None,
                              voice=True, asr=None, verbose=False, polite_reminder=None, seed=7, resume=None,
                              seat=None)
    assert cli_values(args) == {"players": ["Alice", "Ben"], "rules": "dutch", "voice": "on"}


def test_children_from_the_file_and_the_command_line(cfg):
    _write(cfg, 'players = ["Sam", "Mum"]\nchildren = ["Sam", " Sam "]\n')
    assert load_settings().children == ("Sam",)
    args = argparse.Namespace(children=["Tom, Ann", "Bo"])
    assert cli_values(args) == {"children": ["Tom", "Ann", "Bo"]}
    assert load_settings(cli_values(args)).source("children") == "command line"


@pytest.mark.parametrize("text", ['children = "Sam"\n', "children = [1]\n", 'children = [""]\n'])
def test_children_must_be_a_list_of_names(cfg, text):
    _write(cfg, text)
    with pytest.raises(ConfigError, match="children"):
        load_settings()


def test_cli_values_no_voice_and_seats():
    args = argparse.Namespace(voice=False, verbose=True, rate=200, seat=["Alice=terminal", "Ben = USB Headset"])
    assert cli_values(args) == {"voice": "off", "verbose": True, "rate": 200,
                                "seats": {"Alice": "terminal", "Ben": "USB Headset"}}
    assert cli_values(argparse.Namespace(voice=None)) == {}
    with pytest.raises(ConfigError, match="write a seat as NAME=WHERE, for example --seat Alice=terminal, not Ben."):
        cli_values(argparse.Namespace(seat=["Ben"]))


def test_command_line_seats_replace_the_files_seats(cfg):
    _write(cfg, '[seats]\nAlice = 1\n')
    settings = load_settings({"seats": {"Ben": "terminal"}})
    assert settings.seats == (("Ben", "terminal"),) and settings.source("seats") == COMMAND_LINE


def test_command_line_values_are_checked_too(cfg):
    with pytest.raises(ConfigError) as err:
        load_settings({"level": "hard"})
    assert str(err.value).startswith("On the command line, --level hard is not a computer level.")
    with pytest.raises(ConfigError, match="On the command line, there is no setting called colour"):
        load_settings({"colour": "red"})


# Each bad file: the words the sentence must contain (besides the file's path).
BAD_FILES = [
    ('levl = "child"\n', ["there is no setting called levl.", "Did you mean level?", "Fix or remove that line."]),
    ("polite-reminder = true\n", ["no setting called polite-reminder.", "Did you mean polite_reminder?"]),
    ('bots = "two"\n', ['bots must be a whole number, not "two".', "Write it like this: bots = 2."]),
    ("bots = true\n", ["bots must be a whole number, not true.", "bots = 2"]),
    ("bots = 40\n", ["bots = 40 is too high.", "from 0 to 11"]),
    ('level = "hard"\n', ['level = "hard" is not a computer level.', "Write one of: random, child, memory, expert",
                          'for example level = "memory".']),
    ("level = 3\n", ["level must be a word in quotes, not 3.", 'level = "memory"']),
    ('rules = "fancy"\n', ['rules = "fancy" is not a rules profile.', "guide, classic, dutch"]),
    ('deck = "jacques"\n', ['deck = "jacques" is not a built-in deck.', "Did you mean jaques?",
                            "jaques, letters, sporting, standard", "or the path of a .toml pack"]),
    ('deck = "nowhere.toml"\n', ["deck names the file", "nowhere.toml, which is not there."]),
    ('lang = "fr"\n', ['lang = "fr" is not a language the game can be played in.', "Write one of: en, nl"]),
    ("voice = true\n", ["voice must be a word in quotes, not true.", 'voice = "auto"']),
    ('voice = "loud"\n', ['voice = "loud" is not a voice setting.', "auto, on, off"]),
    ('asr = "whisper"\n', ['asr = "whisper" is not a recognizer.', "auto, vosk, pocketsphinx, text"]),
    ('players = "Alice, Ben"\n', ['players must be a list of names, not "Alice, Ben".',
                                  'players = ["Alice", "Ben"]']),
    ('players = ["Ben", "ben"]\n', ['players = ["Ben", "ben"] gives the name Ben twice.',
                                   "Give every player a different name."]),
    ('players = ["Ann", " "]\n', ["players has an empty name.", 'players = ["Alice", "Ben"]']),
    ('verbose = "yes"\n', ['verbose must be true or false, without quotes, not "yes".', "verbose = false"]),
    ("rate = 20\n", ["rate = 20 is too low.", "from 80 to 400"]),
    ('seats = "terminal"\n', ['seats must be a table, not "terminal".', 'Alice = "terminal"']),
    ("[seats]\nBen = true\n", ["the seat of Ben must be", "not true.", "[seats] table"]),
    ("[seats]\nBen = -1\n", ["the seat of Ben is -1; device numbers start at 0."]),
    ("microphone = true\n", ["microphone must be a sound device name in quotes or a device number, not true.",
                             'Write it like this: microphone = "USB", or a number from voicegame devices.']),
    ("loudspeaker = -2\n", ["loudspeaker is -2; device numbers start at 0.", 'loudspeaker = "Speakers"']),
    ('microphone = " "\n', ["microphone is empty."]),
    ("narrator = 3\n", ["narrator must be a speech voice name in quotes, not 3.", 'narrator = "en-us+f3"']),
]


@pytest.mark.parametrize(("text", "expected"), BAD_FILES, ids=[t.split("\n")[-2] for t, _ in BAD_FILES])
def test_every_bad_setting_is_a_sentence_naming_file_key_and_fix(cfg, text, expected):
    _write(cfg, text)
    with pytest.raises(ConfigError) as err:
        load_settings()
    message = str(err.value)
    assert message.startswith(f"In the config file {cfg}, ")
    for words in expected:
        assert words in message
    assert message.endswith((".", "?")) and "\n" not in message


def test_too_few_players_in_all_names_where_the_values_came_from(cfg):
    _write(cfg, "players = []\nbots = 1\n")
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert str(err.value) == (f"A game needs at least 2 players, but there are no people and 1 computer player"
                              f" (from {cfg}). Name the people who play with players = [\"Alice\", \"Ben\"], or ask"
                              " for 2 computer players with bots = 2.")


def test_too_many_players_in_all(cfg):
    _write(cfg, "bots = 9\n")
    names = [f"P{i}" for i in range(5)]
    with pytest.raises(ConfigError) as err:
        load_settings({"players": names})
    assert "at most 12 players, but there are 5 people and 9 computer players" in str(err.value)
    assert "from the command line" in str(err.value) and f"from {cfg}" in str(err.value)
    assert str(err.value).endswith("Ask for 7 computer players or fewer with bots = 7.")  # where bots was written


def test_bad_toml_says_the_line(cfg):
    _write(cfg, 'bots = 2\nlevel = "child"\nrules guide\n')
    with pytest.raises(ConfigError) as err:
        load_settings()
    message = str(err.value)
    assert message.startswith(f"The config file {cfg} is not valid TOML on line 3: ")
    assert "(at line" not in message and message.endswith("or move the file away to play with the defaults.")


def test_bad_toml_at_the_very_end(cfg):
    _write(cfg, 'level = "child')
    with pytest.raises(ConfigError, match=r"is not valid TOML (on line 1|at its end): "):
        load_settings()


def test_a_file_that_is_not_utf8(cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_bytes(b'players = ["Ren\xe9e"]\n')
    with pytest.raises(ConfigError, match="is not plain UTF-8 text"):
        read_config()


def test_an_unreadable_config_path(cfg):
    cfg.mkdir(parents=True)  # a folder where the file should be
    with pytest.raises(ConfigError, match=f"Cannot read the config file {cfg}"):
        load_settings()


@pytest.mark.parametrize("text", ['bots = 3\nlevel = "expert"\n', 'bots = "many"\n', "not toml at all ["])
def test_the_file_is_never_modified(cfg, text):
    _write(cfg, text)
    before = (cfg.read_bytes(), os.stat(cfg).st_mtime_ns)
    try:
        describe(load_settings({"bots": 1}))
    except ConfigError:
        pass
    with pytest.raises(ConfigError):
        write_example(cfg)
    assert (cfg.read_bytes(), os.stat(cfg).st_mtime_ns) == before
    assert sorted(p.name for p in cfg.parent.iterdir()) == ["config.toml"]


def test_config_lines_show_every_setting_and_its_source(cfg):
    _write(cfg, 'players = ["Alice", "Ben"]\nverbose = true\nloudspeaker = 3\n[seats]\nAlice = "terminal"\nBen = 1\n')
    lines = describe(load_settings({"bots": 3, "lang": "nl", "microphone": "USB"}))
    assert lines == [
        f"Config file: {cfg} (it exists).",
        f"Saved games: {os.path.join(os.environ['VOICEGAME_DATA_DIR'], 'games')} (from VOICEGAME_DATA_DIR).",
        f"players = Alice, Ben  (from: {cfg})",
        "bots = 3  (from: command line)",
        "level = memory  (from: default)",
        "deck = jaques (the deck of the guide rules)  (from: default)",
        "rules = guide  (from: default)",
        "lang = nl  (from: command line)",
        "voice = auto  (from: default)",
        "asr = auto  (from: default)",
        f"verbose = true  (from: {cfg})",
        "polite_reminder = false  (from: default)",
        "children = none  (from: default)",
        "rate = 170  (from: default)",
        "microphone = USB  (from: command line)",
        f"loudspeaker = 3  (from: {cfg})",
        "narrator = nl (the narrator's voice for lang nl)  (from: default)",
        f"seats = Alice: terminal, Ben: 1  (from: {cfg})",
    ]


def test_config_lines_say_when_there_is_no_file(cfg):
    lines = describe(load_settings())
    assert lines[0] == f"Config file: {cfg} (it does not exist yet, so the defaults are used)."
    assert "seats = none set  (from: default)" in lines
    assert "microphone = the system's default  (from: default)" in lines
    assert "loudspeaker = the system's default  (from: default)" in lines


def test_the_starter_file_changes_nothing_until_edited(cfg):
    assert write_example() == cfg
    assert cfg.read_text("utf-8") == example_text()
    settings = load_settings()
    assert settings == Settings() and settings.source("bots") == DEFAULT


def test_every_line_of_the_starter_file_works_once_uncommented(cfg):
    write_example(cfg)
    uncommented = "\n".join(line[2:] if line.startswith("# ") and " = " in line or line == "# [seats]" else line
                            for line in cfg.read_text("utf-8").splitlines())
    data = tomllib.loads(uncommented)
    assert set(data) == {"players", "bots", "level", "deck", "rules", "lang", "voice", "asr", "verbose",
                         "polite_reminder", "children", "rate", "microphone", "loudspeaker", "narrator", "seats"}
    cfg.write_text(uncommented, "utf-8")
    settings = load_settings()
    assert settings.bots == 2 and settings.source("bots") == str(cfg)
    assert settings.deck == "jaques" and settings.seats == (("You", "terminal"),)
    assert (settings.microphone, settings.loudspeaker, settings.narrator) == ("USB", "Speakers", "en-us+f3")


def test_the_starter_file_is_never_written_over(cfg):
    _write(cfg, "bots = 4\n")
    with pytest.raises(ConfigError) as err:
        write_example(cfg)
    assert str(err.value) == f"There is already a config file at {cfg}. It is left as it is."
    assert cfg.read_text("utf-8") == "bots = 4\n"


# A game in Dutch needs a deck with Dutch names: sporting, standard and letters have English ones only, and
# the classic rules play with sporting. Refused before the game, in Dutch, saying what to give instead.
@pytest.mark.parametrize("given, expected", [
    ({"lang": "nl", "deck": "sporting"},
     "De Sporting-kaarten hebben geen Nederlandse namen: speel in het Engels met --lang en, of kies kaarten die ze"
     " wel hebben met --deck jaques."),
    ({"lang": "nl", "deck": "standard", "rules": "classic"},
     "De Standard-kaarten hebben geen Nederlandse namen: speel in het Engels met --lang en, of kies kaarten die ze"
     " wel hebben met --deck jaques."),
    ({"lang": "nl", "rules": "classic"},
     "De regels classic spelen met de Sporting-kaarten, en die hebben geen Nederlandse namen: speel in het Engels"
     " met --lang en, of kies er kaarten bij die ze wel hebben met --deck jaques."),
])
def test_a_dutch_game_with_a_deck_without_dutch_names_is_refused_in_dutch(cfg, given, expected):
    with pytest.raises(ConfigError) as err:
        load_settings(given)
    assert str(err.value) == expected


@pytest.mark.parametrize("deck", ["sporting", "standard", "letters"])
def test_every_deck_without_dutch_names_is_refused_in_dutch(cfg, deck):
    with pytest.raises(ConfigError, match="geen Nederlandse namen"):
        load_settings({"lang": "nl", "deck": deck})
    assert load_settings({"lang": "en", "deck": deck}).deck == deck


def test_the_classic_rules_in_dutch_with_the_jaques_deck_are_fine(cfg):
    settings = load_settings({"lang": "nl", "rules": "classic", "deck": "jaques"})
    assert (settings.lang, settings.rules, settings.deck_name) == ("nl", "classic", "jaques")


def test_a_dutch_config_file_with_the_classic_rules_names_the_file_and_its_lines(cfg):
    _write(cfg, 'lang = "nl"\nrules = "classic"\n')
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert str(err.value) == (f'De regels classic spelen met de Sporting-kaarten, en die hebben geen Nederlandse'
                              f' namen: speel in het Engels met lang = "en" in het instellingenbestand {cfg}, of kies'
                              f' er kaarten bij die ze wel hebben met deck = "jaques".')
    with pytest.raises(ConfigError) as err:  # the deck given on the command line: its fix is an option
        load_settings({"deck": "letters"})
    assert str(err.value).endswith(f'met lang = "en" in het instellingenbestand {cfg}, of kies kaarten die ze wel'
                                   f' hebben met --deck jaques.')
    assert load_settings({"deck": "jaques"}).deck_name == "jaques"
    assert load_settings({"lang": "en"}).deck_name == "sporting"
    assert load_settings(table=False).lang == "nl"  # a game carried on keeps its own deck and language


def test_a_pack_file_without_dutch_names_is_refused_in_dutch(cfg, tmp_path):
    family = ('[[family]]\nkey = "{k}"\nen = {{ name = "{k}" }}\n[family.cards.mr]\n'
              'en = {{ full = "Mr. {k}", short = "Mr. {k}" }}\n')
    pack = tmp_path / "pets.toml"
    pack.write_text('name = "pets"\nmembers = ["mr"]\n' + family.format(k="Cat") + family.format(k="Dog"), "utf-8")
    with pytest.raises(ConfigError) as err:
        load_settings({"lang": "nl", "deck": str(pack)})
    assert str(err.value).startswith("De kaarten uit pets.toml hebben geen Nederlandse namen: speel in het Engels")
    assert load_settings({"deck": str(pack)}).deck == str(pack)


# Each table that is too small or too large, and the sentence: the fix is said as it is written where
# the value came from (an option, or a line of the config file), and asks for what is missing.
TABLES = [
    ({"players": [], "bots": 1}, "", "A game needs at least 2 players, but there are no people and 1 computer player"
     " (from the command line). Name the people who play with --players Alice,Ben, or ask for 2 computer players"
     " with --bots 2."),
    ({"players": ["Alice"], "bots": 0}, "", "A game needs at least 2 players, but there is 1 person and no computer"
     " players (from the command line). Add a computer player with --bots 1, or another person with"
     " --players Alice,Ben."),
    ({"players": [f"P{i}" for i in range(12)], "bots": 1}, "", "A game has at most 12 players, but there are 12"
     " people and 1 computer player (from the command line). Ask for no computer players with --bots 0."),
    ({}, 'players = ["Ben"]\nbots = 0\n', "A game needs at least 2 players, but there is 1 person and no computer"
     " players (from {cfg}). Add a computer player with bots = 1, or another person with"
     ' players = ["Ben", "Cara"].'),
    ({}, "players = [" + ", ".join(f'"P{i}"' for i in range(11)) + "]\n", "A game has at most 12 players, but"
     " there are 11 people and 2 computer players (from {cfg}). Ask for 1 computer player or fewer with bots = 1."),
    ({"bots": 0}, "players = []\n", "A game needs at least 2 players, but there are no people and no computer"
     " players (from {cfg} and from the command line). Name the people who play with players = [\"Alice\","
     ' "Ben"], or ask for 2 computer players with --bots 2.'),
]


@pytest.mark.parametrize(("given", "text", "said"), TABLES)
def test_a_table_of_the_wrong_size_says_the_fix_as_it_is_written_there(cfg, given, text, said):
    """F-cli-2: not "Write bots = 1 or more" to someone who gave --bots 1 and named nobody."""
    if text:
        _write(cfg, text)
    with pytest.raises(ConfigError) as err:
        load_settings(given)
    assert str(err.value) == said.format(cfg=cfg)


@pytest.mark.parametrize(("given", "said"), [
    ({"players": ["Alice", "alice"]},
     "On the command line, --players Alice,alice gives the name Alice twice. Give every player a different name."),
    ({"bots": 12}, "On the command line, --bots 12 is too high. Write a number of computer players from 0 to 11;"
                   " for example --bots 2."),
    ({"bots": "two"}, "On the command line, --bots must be a whole number, not two. Write it like this: --bots 2."),
    ({"rules": "clasic"}, "On the command line, --rules clasic is not a rules profile. Did you mean classic? Write one"
                          " of: guide, classic, dutch; for example --rules guide."),
    ({"deck": "jacques"}, "On the command line, --deck jacques is not a built-in deck. Did you mean jaques? Write one"
                          " of: jaques, letters, sporting, standard, or the path of a .toml pack; for example"
                          " --deck jaques."),
    ({"microphone": " "}, "On the command line, --microphone is empty. Write it like this: --microphone USB, or a"
                          " number from voicegame devices."),
])
def test_a_bad_command_line_value_is_said_as_an_option(cfg, given, said):
    with pytest.raises(ConfigError) as err:
        load_settings(given)
    assert str(err.value) == said


def test_young_children_the_file_names_who_are_not_playing_get_a_note(cfg):
    """F-cli-5: a note, not a refusal: the same file serves the games they do play in."""
    from voicegame.config import children_not_playing, children_note

    _write(cfg, 'players = ["Alice", "Sam"]\nchildren = ["sam", "Zed"]\n')
    settings = load_settings()
    assert children_not_playing(settings) == ["Zed"]  # Sam plays, in any case
    assert children_note(settings) == "The config file names Zed as a young child, but Zed is not playing."
    assert children_note(settings, "nl") == "Het instellingenbestand noemt Zed een jong kind, maar Zed speelt niet mee."
    lines = describe(settings)
    at = lines.index(f"children = sam, Zed  (from: {cfg})")
    assert lines[at + 1] == ("  Note: the players do not include Zed, so children counts for Zed only in a game Zed"
                             " plays in.")
    two = load_settings({"players": ["Alice"]})
    assert children_note(two) == "The config file names sam and Zed as young children, but they are not playing."
    assert children_note(load_settings({"players": ["Zed", "Sam"]})) is None
    # Named on the command line, they are refused by the game itself (--child Zed), not noted here.
    assert children_note(load_settings({"players": ["Alice"], "children": ["Zed"]})) is None


def test_config_says_where_games_are_saved(cfg, monkeypatch, tmp_path):
    """F-save-4: the folder voicegame play saves games in, and how to move it."""
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path / "data"))
    assert describe(load_settings())[1] == f"Saved games: {tmp_path / 'data' / 'games'} (from VOICEGAME_DATA_DIR)."
    monkeypatch.delenv("VOICEGAME_DATA_DIR")
    line = describe(load_settings())[1]
    assert line.startswith("Saved games: ") and line.endswith(
        f"{os.sep}voicegame{os.sep}games (set VOICEGAME_DATA_DIR to keep them somewhere else).")


def test_a_rules_profile_or_level_in_capitals_is_taken():
    """ "--rules GUIDE" (Caps Lock on) was refused with "Did you mean guide?"."""
    from voicegame.config import check_option

    assert check_option("rules", "GUIDE") == "guide" and check_option("level", "Memory") == "memory"
