"""The command line as scripts and people use it: JSON interfaces and a whole game through a pipe."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from voicegame.bots import make_bot
from voicegame.decks import load_deck
from voicegame.engine import Game, profile
from voicegame.table.output import Lines
from voicegame.table.session import TextTable

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"


def run_cli(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "voicegame", *args],
        input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def test_decks_json_lists_every_builtin_deck():
    out = json.loads(run_cli("decks", "--json").stdout)
    by_name = {d["name"]: d for d in out}
    assert set(by_name) == {"jaques", "sporting", "letters", "standard"}
    assert len(by_name["jaques"]["cards"]) == 44 and "bun:mrs" in by_name["jaques"]["cards"]
    assert len(by_name["sporting"]["families"]) == 12
    assert by_name["standard"]["members"] == ["spades", "hearts", "diamonds", "clubs"]


def test_rules_json_lists_profiles_with_parameters():
    out = json.loads(run_cli("rules", "--json").stdout)
    by_name = {r["profile"]: r for r in out}
    assert set(by_name) == {"guide", "classic", "dutch"}
    assert by_name["guide"]["after_miss"] == "asked"
    assert by_name["dutch"]["after_miss"] == "clockwise"
    assert by_name["classic"]["second_phase"] is True


def _state_file(tmp_path: Path) -> Path:
    game = Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=3)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(game.position()))
    return path


def test_step_applies_an_action_and_prints_events_and_state(tmp_path):
    path = _state_file(tmp_path)
    state = json.loads(path.read_text())
    asker = state["turn"]
    target = next(p for p in state["players"] if p != asker)
    mine = state["hands"][asker]
    family = mine[0].split(":")[0]
    wanted = next(c for c in json.loads(run_cli("decks", "--json").stdout)[0]["cards"]
                  if c.startswith(family + ":") and c not in mine)
    proc = run_cli("step", "--state", str(path), "--action", json.dumps({"ask": target, "card": wanted}), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    types = [e["type"] for e in out["events"]]
    assert types[0] == "ask" and types[1] in ("transfer", "not_at_home")
    holder = next(p for p, cards in state["hands"].items() if wanted in cards)
    if holder == target:
        assert wanted in out["state"]["hands"][asker]
    else:
        assert out["state"]["turn"] == target  # guide: the asked player takes the turn


def test_step_refuses_an_illegal_action_with_a_code_and_sentence(tmp_path):
    path = _state_file(tmp_path)
    state = json.loads(path.read_text())
    asker = state["turn"]
    proc = run_cli("step", "--state", str(path), "--action", json.dumps({"ask": asker, "card": "bun:mr"}))
    assert proc.returncode == 1
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "self"
    assert error["message"].endswith(".")


def test_step_reports_a_broken_state_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"deck": "jaques", "rules": "guide", "players": ["A", "B"], "hands": {"A": ["bun:mr"]},'
                    ' "turn": "A"}')
    proc = run_cli("step", "--state", str(path), "--action", '{"ask": "B", "card": "bun:mrs"}')
    assert proc.returncode == 2
    assert "nowhere" in json.loads(proc.stdout)["error"]["message"]


def test_simulate_json_counts_games_and_wins():
    out = json.loads(run_cli("simulate", "--games", "30", "--players", "4", "--bots", "random", "--seed", "5",
                             "--json").stdout)
    assert out["games"] == 30 and out["actions"] > 30 * 20
    assert abs(sum(out["wins"].values()) - 30) < 1e-6
    assert out["games_per_s"] > 0


def _scripted_game(humans: list[str], bots: int, seed: int) -> tuple[list[str], list[str]]:
    """Play the game in-process, a random bot choosing for each human; return what the humans
    typed and what the table printed, so the same game can be piped into the CLI."""
    from voicegame.cli import _bot_names

    rules = profile("guide")
    bot_names = _bot_names(humans, bots, load_deck(rules.deck), "en")
    game = Game(humans + bot_names, rules=rules, seed=seed)
    typed: list[str] = []
    printed: list[str] = []

    def read_line() -> str:
        action = make_bot("random", game, game.current_player, seed + len(game.actions)).choose()
        card = game.deck.card(action.card)
        phrasings = [
            f"ask {action.target} for {card.name('en', 'short')}",
            f"{action.target}, is {card.name('en', 'full')} at home, please?",
            f"Is {card.name('en', 'short')} at home, {action.target}?",
        ]
        if len(typed) % 5 == 0 and (not typed or typed[-1] != "status"):
            typed.append("status")
            return "status"
        typed.append(phrasings[len(typed) % 3])
        return typed[-1]

    TextTable(game, {n: "random" for n in bot_names}, read_line, Lines(printed.append)).run()
    assert game.over
    return typed, printed


def test_a_whole_game_can_be_played_through_a_pipe():
    typed, printed = _scripted_game(["Alice", "Ben"], bots=2, seed=7)
    proc = run_cli("play", "--players", "Alice,Ben", "--bots", "2", "--level", "random", "--deck", "jaques",
                   "--rules", "guide", "--seed", "7", stdin="\n".join(typed) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == printed
    assert printed[-1].startswith("Game over.")
    assert sum("asks" in line for line in printed) > 40


def test_illegal_typed_requests_get_the_rule_and_change_nothing():
    proc = run_cli("play", "--players", "Alice,Ben", "--level", "random", "--seed", "7",
                   stdin="status\nalice mrs bun\nask zed for mrs bun\npass the juice\nstatus\nquit\n")
    lines = proc.stdout.splitlines()
    assert "You cannot ask yourself. Ask another player." in lines
    assert any("didn't understand" in line for line in lines)
    statuses = [line for line in lines if line.startswith("Alice's turn.")]
    assert len(statuses) == 2 and statuses[0] == statuses[1]
    assert lines[-1] == "Game stopped before its first move."


def test_output_is_plain_text_without_escape_codes():
    proc = run_cli("play", "--players", "", "--bots", "3", "--level", "random", "--seed", "2", env={"NO_COLOR": "1"})
    assert proc.returncode == 0
    assert "\x1b" not in proc.stdout and "\r" not in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("Game over.")


@pytest.mark.parametrize("rules", ["guide", "classic", "dutch"])
def test_golden_transcript(rules):
    """A seeded computer-only game per profile, compared line for line with tests/golden/.
    After an intended change of wording or play, regenerate with UPDATE_GOLDEN=1."""
    proc = run_cli("play", "--players", "", "--bots", "4", "--level", "random", "--rules", rules, "--seed", "11")
    assert proc.returncode == 0, proc.stderr
    path = GOLDEN / f"{rules}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(proc.stdout)
        pytest.skip(f"{path.name} written anew (UPDATE_GOLDEN): not compared")
    assert proc.stdout == path.read_text()


def test_dutch_game_narrates_in_dutch():
    proc = run_cli("play", "--players", "Anna", "--bots", "2", "--level", "random", "--lang", "nl", "--seed", "3",
                   "--rules", "dutch", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Ronde 1." in proc.stdout and "deelt." in proc.stdout
    assert (". Kaarten: Jaques. Regels: nederlands; een wedstrijd: er worden rondes gespeeld tot iemand in totaal 10"
            " families heeft. Seed 3.") in proc.stdout.splitlines()[0]


def test_gentle_reminder_asks_again_instead_of_playing():
    proc = run_cli("play", "--players", "Alice,Ben", "--level", "random", "--seed", "7", "--polite-reminder",
                   stdin="ben mr bones\nstatus\nquit\n")
    lines = proc.stdout.splitlines()
    assert "Remember the magic word, Alice: ask again with please." in lines
    assert not any(line.startswith("Alice asks") for line in lines)


def test_strict_politeness_penalty_passes_the_turn_kindly():
    proc = run_cli("play", "--players", "Alice,Ben", "--level", "random", "--seed", "7", "--rules", "dutch",
                   "--rule", "politeness_penalty=on", stdin="ben mr bones\nquit\n")
    assert "Alice forgot to say please, so the turn goes to Ben." in proc.stdout.splitlines()


def test_voice_without_a_model_says_so_and_keeps_the_keyboard():
    proc = run_cli("play", "--voice", "--asr", "vosk", "--players", "Alice,Ben", "--level", "random", "--seed", "7",
                   "--no-save", stdin="status\nquit\n")
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if not line.startswith("No loudspeaker")]
    assert lines[0] == ("There is no English speech model on this computer. To get one, run: voicegame models fetch en."
                        " You can type instead.")
    assert any(line.startswith("Alice's turn.") for line in lines) and lines[-1].startswith("Game stopped.")
    assert "Type hand for your cards, help at any time." in lines  # the game still speaks (with a loudspeaker), and is typed


def test_seats_send_private_lines_where_asked_and_say_when_headphones_are_missing():
    proc = run_cli("play", "--players", "Alice,Ben", "--level", "random", "--seed", "7", "--no-save",
                   "--seat", "Alice=terminal", "--seat", "ben=No Such Headset", stdin="hand\nquit\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert ("Ben's headphones ('No Such Headset') were not found, so Ben's private lines will be shown on the screen."
            in lines), lines[:3]
    assert sum(line.startswith(("Alice, you hold", "Ben, you hold")) for line in lines) == 1


def test_a_dutch_game_says_in_dutch_that_headphones_are_missing_and_to_type_instead():
    from voicegame.cli import _typing_instead
    from voicegame.speech.base import SpeechError

    proc = run_cli("play", "--players", "Alice,Ben", "--level", "random", "--seed", "7", "--no-save", "--lang", "nl",
                   "--seat", "ben=No Such Headset", stdin="stop\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert ("De koptelefoon van Ben ('No Such Headset') is niet gevonden, dus wat Ben alleen zelf mag horen, komt op"
            " het scherm.") in lines, lines[:3]
    assert not any("found" in line for line in lines)  # why the headphones cannot be used: in Dutch too
    # The speech layer's own sentence stays English; the way on is Dutch.
    assert _typing_instead(SpeechError("No microphone"), "nl") == "No microphone. Je kunt ook typen."
    assert _typing_instead(SpeechError("No microphone.")) == "No microphone. You can type instead."
    # A sentence that already says so is not followed by it again.
    assert _typing_instead(SpeechError.of("no_microphone")) == "No microphone found, so we'll use the keyboard."


def test_words_let_pass_are_described_as_such():
    from voicegame.cli import _describe
    from voicegame.understanding import Understanding

    assert _describe(Understanding(text="got the doctor please", intent="none")) == \
        "let pass (table talk, not for the game)."


@pytest.mark.parametrize("seat,message", [("Alice", "write a seat as NAME=WHERE"),
                                          ("Zed=terminal", "There is no human player called Zed")])
def test_a_bad_seat_is_refused_with_a_sentence(seat, message):
    proc = run_cli("play", "--players", "Alice,Ben", "--seed", "7", "--no-save", "--seat", seat, stdin="quit\n")
    assert proc.returncode == 2
    assert message in proc.stderr


def test_children_must_be_playing_and_the_config_files_children_only_when_here(tmp_path):
    proc = run_cli("play", "--players", "Alice,Ben", "--seed", "7", "--no-save", "--child", "Zed", stdin="quit\n")
    assert proc.returncode == 2
    assert "There is no human player called Zed for --child" in proc.stderr
    config = tmp_path / "config.toml"
    config.write_text('children = ["Sam"]\n', "utf-8")
    proc = run_cli("play", "--players", "Alice,Ben", "--seed", "7", "--no-save", "--child", "alice",
                   stdin="status\nquit\n", env={"VOICEGAME_CONFIG": str(config)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("Game stopped.")


def test_ctrl_c_during_the_set_up_conversation_stops_cleanly(monkeypatch, capsys):
    from voicegame import cli

    def interrupted() -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.sys, "stdin", type("Terminal", (), {"isatty": staticmethod(lambda: True)})())
    monkeypatch.setattr(cli, "_open_voice", lambda args, lang: None)
    monkeypatch.setattr(cli, "_read_line", interrupted)
    assert cli.main([]) == 130
    assert capsys.readouterr().out.splitlines()[-1] == "Stopped before the game began."


def test_a_game_that_cannot_be_saved_says_so_first_and_plays_on_unsaved(tmp_path):
    (tmp_path / "games").write_text("not a folder")
    proc = run_cli("play", "--players", "Alice", "--bots", "2", "--seed", "3", stdin="status\nquit\n",
                   env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == (f"This game will not be saved. Games cannot be saved in {tmp_path / 'games'} (it is a file,"
                        " not a folder): set VOICEGAME_DATA_DIR to a folder you can write to, or play with --no-save.")
    assert lines[-1].startswith("Game stopped.")


def test_a_dutch_game_that_cannot_be_saved_says_so_in_dutch(tmp_path):
    (tmp_path / "games").write_text("not a folder")
    proc = run_cli("play", "--players", "Alice", "--bots", "2", "--seed", "3", "--lang", "nl", stdin="stop\n",
                   env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].startswith(
        f"Dit spel wordt niet bewaard. Spellen kunnen niet worden bewaard in {tmp_path / 'games'} (")


def _first_request(seed: int = 3) -> str:
    """A request Alice may make first in ``play --players Alice --bots 1 --seed SEED`` (against Cara)."""
    game = Game(["Alice", "Cara"], rules=profile("guide"), seed=seed)
    action = game.observation("Alice").legal_actions()[0]
    return f"ask {action.target} for {game.deck.card(action.card).name('en', 'short')}\n"


def test_quit_says_whether_the_game_can_be_carried_on(tmp_path):
    saved = run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", stdin=_first_request() + "quit\n",
                    env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert saved.stdout.splitlines()[-1] == "Game stopped. voicegame play --resume carries on where you left off."
    before = run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", stdin="quit\n",
                     env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert before.stdout.splitlines()[-1] == "Game stopped before its first move."  # --resume takes the other
    unsaved = run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", "--no-save", "--lang", "nl",
                      stdin="stop\n")
    assert unsaved.stdout.splitlines()[-1] == "Het spel is gestopt. Het is niet bewaard."


def test_options_for_a_new_game_given_with_resume_are_said_to_be_unused(tmp_path):
    data = {"VOICEGAME_DATA_DIR": str(tmp_path)}
    run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", stdin="quit\n", env=data)
    plain = run_cli("play", "--resume", "--no-save", stdin="quit\n", env=data)
    assert plain.returncode == 0 and "not used" not in plain.stdout
    proc = run_cli("play", "--resume", "--no-save", "--players", "Bob,Cara", "--lang", "nl", "--seed", "4", stdin="quit\n",
                   env=data)
    assert proc.returncode == 0, proc.stderr
    assert ("A game carried on keeps its own players, cards, rules and language, so these options were not used:"
            " --players, --lang, --seed.") in proc.stdout.splitlines()
    assert "Alice" in proc.stdout and "Bob" not in proc.stdout.replace("--players", "")
    # One player named, no computer players: no table for a new game, but none is needed.
    alone = run_cli("play", "--resume", "--no-save", "--players", "Bob", stdin="quit\n", env=data)
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.splitlines()[0].endswith("so these options were not used: --players.")


def test_ctrl_c_in_an_unsaved_game_does_not_promise_a_resume(capsys):
    from voicegame.cli import _run_table

    def interrupted() -> str:
        raise KeyboardInterrupt

    game = Game(["Alice", "Ben"], rules=profile("guide"), seed=3)
    table = TextTable(game, {"Ben": "random"}, interrupted, Lines(lambda line: None))
    assert _run_table(table) == 130
    assert capsys.readouterr().out == "Game stopped. It was not saved.\n"
    dutch = TextTable(game, {"Ben": "random"}, interrupted, Lines(lambda line: None), lang="nl")
    assert _run_table(dutch) == 130
    assert capsys.readouterr().out == "Het spel is gestopt. Het is niet bewaard.\n"


def test_resuming_a_game_from_another_version_is_one_sentence(tmp_path):
    game = Game(["Alice", "Cara"], rules=profile("guide"), seed=3).to_json()
    game.pop("actions")
    path = tmp_path / "genius.jsonl"
    path.write_text(json.dumps({"format": "voicegame/journal-1", "game": game, "bots": {"Cara": "genius"}}) + "\n")
    proc = run_cli("play", "--resume", str(path), env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert proc.returncode == 2
    assert proc.stderr == ("The saved game genius.jsonl was saved by another version of voicegame, with a computer"
                           " level this version does not have (genius), so it cannot be resumed.\n")


def test_resume_says_why_a_newer_game_is_passed_over(tmp_path, monkeypatch):
    """The last game played came from another version: --resume says so before it carries on an older one."""
    _unfinished_game(tmp_path, monkeypatch)
    game = Game(["Alice", "Cara"], rules=profile("guide"), seed=3).to_json()
    game.pop("actions")
    newer = tmp_path / "games" / "zzz-newer.jsonl"
    newer.write_text(json.dumps({"format": "voicegame/journal-1", "game": game, "bots": {"Cara": "genius"}}) + "\n")
    proc = run_cli("play", "--resume", stdin="quit\nyes\n", env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == [
        "The saved game zzz-newer.jsonl was saved by another version of voicegame, with a computer level this version"
        " does not have (genius), so it cannot be resumed.",
        "So I carry on the newest game that can be resumed."]
    assert "Resuming after 1 action." in lines


def test_step_with_a_dealer_who_is_not_playing_is_a_json_error(tmp_path):
    path = _state_file(tmp_path)
    path.write_text(json.dumps({**json.loads(path.read_text()), "dealer": "Zed"}))
    proc = run_cli("step", "--state", str(path), "--action", json.dumps({"ask": "Ben", "card": "bun:mrs"}))
    assert proc.returncode == 2 and proc.stderr == ""
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "bad_state" and "Zed" in error["message"]


@pytest.mark.parametrize("error", ["PositionError", "DeckError", "RuleError"])
def test_step_turns_every_error_the_engine_raises_for_a_bad_state_into_json(tmp_path, monkeypatch, capsys, error):
    from voicegame import cli

    def refuse(state):
        raise getattr(cli, error)("A bad field.")

    monkeypatch.setattr(cli.Game, "from_position", refuse)
    assert cli.main(["step", "--state", str(_state_file(tmp_path)), "--action", "{}"]) == 2
    assert json.loads(capsys.readouterr().out) == {"error": {"code": "bad_state", "message": "A bad field."}}


def _step(capsys, state: Path, action: str) -> tuple[int, dict]:
    from voicegame import cli

    code = cli.main(["step", "--state", str(state), "--action", action, "--json"])
    out, err = capsys.readouterr()
    assert err == ""
    return code, json.loads(out)


@pytest.mark.parametrize("content, message", [
    (None, "Cannot read the state file {path}: no such file or directory."),
    (b"\xff\xfe", "The state file {path} is not UTF-8 text: save it as UTF-8 JSON."),
    (b'{"deck":', "The state file {path} is not valid JSON: Expecting value: line 1 column 9 (char 8)."),
    (b"[" * 100_000, "The state file {path} is nested too deeply to be a position."),
])
def test_step_with_a_state_file_it_cannot_read_is_one_json_sentence(tmp_path, capsys, content, message):
    """Not a traceback (a file that is not UTF-8), nor Python's "[Errno 2] ..." (a missing one)."""
    path = tmp_path / "state.json"
    if content is not None:
        path.write_bytes(content)
    code, out = _step(capsys, path, '{"ask": "Ben", "card": "bun:mrs"}')
    assert (code, out) == (2, {"error": {"code": "bad_state", "message": message.format(path=path)}})


def test_step_reads_a_state_file_saved_with_a_byte_order_mark(tmp_path, capsys):
    path = _state_file(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # as Windows Notepad saves UTF-8
    state = json.loads(path.read_text("utf-8-sig"))
    target = next(p for p in state["players"] if p != state["turn"])
    code, out = _step(capsys, path, json.dumps({"ask": target, "card": state["hands"][state["turn"]][0]}))
    assert code == 1 and out["error"]["code"] == "own_card"  # read, and answered by the rules


@pytest.mark.parametrize("action, message", [
    ({"ask": "Ben", "card": "bun:mrs", "extra": 1},
     'This tool does not know the key "extra" in an action: an ask takes only ask, card, family, polite and by.'),
    ({"ask": "Ben", "card": "bun:mrs", "polit": False, "flip": 1},
     'This tool does not know the keys "polit" and "flip" in an action: an ask takes only ask, card, family,'
     ' polite and by.'),
    ({"flip": 1, "by": "Ben"}, 'This tool does not know the key "by" in an action: a flip takes only flip.'),
    ({"pass": True, "slot": 2}, 'This tool does not know the key "slot" in an action: a pass takes only pass.'),
])
def test_step_refuses_an_action_with_a_key_it_does_not_know(tmp_path, capsys, action, message):
    """A misspelt key ("polit") was dropped without a word, and the action played as if unwritten."""
    code, out = _step(capsys, _state_file(tmp_path), json.dumps(action))
    assert (code, out) == (2, {"error": {"code": "bad_action", "message": message}})


@pytest.mark.parametrize("action", ["[]", "[", '"ask"', "{}", '{"ask": "Ben"}', '{"flip": "one"}'])
def test_step_exits_2_for_every_action_it_cannot_read(tmp_path, capsys, action):
    """As for a state it cannot read (and argparse for a bad option); 1 is kept for the rules' refusals.
    Invalid JSON gave 2 but ``[]`` gave 1."""
    code, out = _step(capsys, _state_file(tmp_path), action)
    assert code == 2 and out["error"]["code"] == "bad_action" and out["error"]["message"].endswith(".")


@pytest.mark.parametrize("content, message", [
    (None, "Cannot read {path}: no such file or directory."),
    (b"caf\xe9\n", "{path} is not UTF-8 text: save it as UTF-8, one utterance per line."),
])
def test_understand_file_that_cannot_be_read_is_one_sentence(tmp_path, content, message):
    path = tmp_path / "lines.txt"
    if content is not None:
        path.write_bytes(content)
    proc = run_cli("understand", "--players", "Alice,Ben", "--asker", "Alice", "--file", str(path))
    assert proc.returncode == 2
    assert proc.stderr == message.format(path=path) + "\n"


def test_simulate_refuses_a_number_of_games_below_one():
    proc = run_cli("simulate", "--games", "-1")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1].endswith("argument --games: give a whole number of 1 or more, not -1")


def test_as_many_computer_players_as_the_settings_allow_get_names():
    proc = run_cli("play", "--players", "Alice", "--bots", "11", "--no-save", "--seed", "3", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("Happy Families with Alice and 11 computer players at memory level: ")
    names = first.split(": ", 1)[1].split(". Deck")[0].replace(" and ", ", ").split(", ")
    assert len(set(names)) == 11 and "Alice" not in names


@pytest.mark.parametrize("deck", ["jaques", "sporting", "letters", "standard"])
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_game_never_warns_about_its_own_computer_players_names(deck, lang):
    """With classic rules (the sporting deck, and its Carr family) Cara sat at the table and the
    game then warned that she sounds like a card word, which nobody could change."""
    from voicegame.cli import _bot_names
    from voicegame.understanding import Understander

    loaded = load_deck(deck)
    names = _bot_names(["Alice"], 11, loaded, lang)
    assert len(names) == 11
    assert Understander(loaded, ["Alice", *names], lang=lang).warnings() == []


@pytest.mark.parametrize("option, message", [
    (["--asker", "Zed"], "The asker 'Zed' is not one of the players (Alice, Ben)."),
    (["--asker", "Alice", "--hand", "nonsense"], "There is no card 'nonsense' in the jaques deck. --hand takes card"
                                                 " ids, such as bones:mr; voicegame decks --json lists them."),
])
def test_transcribe_refuses_an_asker_or_hand_as_understand_does(tmp_path, option, message):
    for command, words in (("transcribe", [str(tmp_path / "x.wav")]), ("understand", ["ben mrs bun"])):
        proc = run_cli(command, "--players", "Alice,Ben", *option, *words)
        assert (proc.returncode, proc.stderr, proc.stdout) == (2, message + "\n", ""), command


@pytest.mark.parametrize("typed", [["--no-voice"], ["--asr", "text"], ["--lang", "nl", "--asr", "pocketsphinx"]])
def test_a_recording_in_a_typed_game_is_said_to_be_unused(tmp_path, typed):
    """Typed by choice, or because nothing can listen (PocketSphinx knows no Dutch)."""
    recording = tmp_path / "request.wav"
    proc = run_cli("play", *typed, "--audio-in", str(recording), "--players", "Alice", "--bots", "1", "--no-save",
                   "--seed", "2", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    unused = f"De opname {recording} wordt niet gebruikt, want dit spel wordt getypt." if "nl" in typed else \
        f"The recording {recording} is not used, because this game is typed."
    assert unused in proc.stdout.splitlines(), proc.stdout


def test_ctrl_c_in_a_spoken_game_stops_the_speech_and_says_the_game_stopped():
    from voicegame import cli
    from voicegame.engine import Game, profile
    from voicegame.speech.base import Speaker
    from voicegame.table.session import TextTable
    from voicegame.table.voice import VoiceIO

    class Loudspeaker(Speaker):
        def __init__(self):
            self.heard: list[str] = []

        def say(self, text, voice=None, interrupt=False):
            self.heard.append(text)

        def stop(self):
            self.heard.append("<stopped>")

        def busy(self):
            return False

    def ctrl_c():
        raise KeyboardInterrupt

    speaker = Loudspeaker()
    game = Game(["Alice", "Ben"], rules=profile("guide"), seed=1)
    table = TextTable(game, {"Ben": "random"}, ctrl_c, VoiceIO(None, speaker, (), print))
    assert cli._run_table(table) == 130
    assert speaker.heard[-2:] == ["<stopped>", "Game stopped. It was not saved."]


class _Speaker:
    """Speech out with no sound card: keeps what it is given to say."""

    def __init__(self, voice=None, **how) -> None:
        self.voice, self.said = voice, []

    def say(self, text, voice=None, interrupt=False) -> None:
        self.said.append(text)

    def busy(self) -> bool:
        return False

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("terminal, key", [(True, "push_to_talk"), (False, "push_to_talk_no_terminal")])
def test_how_push_to_talk_works_is_spoken_as_well_as_shown(monkeypatch, capsys, lang, terminal, key):
    """It was only printed: a blind player never heard that Enter starts and ends what they say."""
    from voicegame import cli
    from voicegame.speech import audio, recognizers, tts
    from voicegame.table.narration import prompt

    keyboard = type("Keyboard", (io.StringIO,), {"isatty": lambda self: terminal})("")
    monkeypatch.setattr(cli.sys, "stdin", keyboard)
    monkeypatch.setattr(tts, "Pyttsx3Speaker", _Speaker)
    monkeypatch.setattr(recognizers, "make_recognizer", lambda asr, lang, tell=None: object())
    monkeypatch.setattr(audio, "MicrophoneSource", lambda device=None: [])
    args = cli.build_parser().parse_args(["play", "--push-to-talk", "--voice", "--asr", "pocketsphinx"])
    cli._keyboard.cache_clear()  # a keyboard reader of this test's own
    try:
        voice = cli._open_voice(args, lang)
    finally:
        cli._keyboard.cache_clear()
    assert voice.push_to_talk is terminal
    said = prompt(lang, key)
    assert voice.speaker.said == [said]
    assert capsys.readouterr().out == said + "\n"


def _terminal_main(monkeypatch, tmp_path, answers: list[str]) -> list[str]:
    """``voicegame play`` with no options at a terminal, typed ``answers``; the lines it printed."""
    from voicegame import cli

    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(cli.sys, "stdin", type("Terminal", (), {"isatty": staticmethod(lambda: True)})())
    monkeypatch.setattr(cli, "_open_voice", lambda args, lang: None)
    printed: list[str] = []
    monkeypatch.setattr(cli, "_out", printed.append)
    monkeypatch.setattr(cli, "_read_line", lambda: answers.pop(0) if answers else None)
    cli.main([])
    return printed


def _unfinished_game(tmp_path, monkeypatch, human: str = "Alice", moves: int = 1, lang: str = "en") -> Game:
    from voicegame.table.journal import Journal

    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    game = Game([human, "Ben", "Cara"], rules=profile("guide"), seed=5)
    journal = Journal.new(game, {"bots": {"Ben": "memory", "Cara": "memory"}, "lang": lang})
    for _ in range(moves):
        action = make_bot("random", game, game.current_player, seed=1).choose()
        game.apply(action)
        journal.action(action)
    journal.close()
    return game


def test_play_with_no_options_says_why_the_last_game_played_is_not_offered(monkeypatch, tmp_path):
    """A damaged last game is not offered: said so, a player does not think it lost without a word."""
    _unfinished_game(tmp_path, monkeypatch)
    damaged = tmp_path / "games" / "zzz-newest.jsonl"
    damaged.write_text("{\"format\": \"voicegame/journal-1\", \"game\n")  # cut off in its header
    later = damaged.stat().st_mtime + 60  # the last game played, whatever the clock's resolution
    os.utime(damaged, (later, later))
    printed = _terminal_main(monkeypatch, tmp_path, ["quit"])
    assert printed[0] == "The saved game zzz-newest.jsonl is damaged at its very start, so it cannot be resumed."
    assert printed[1].startswith("New game")


def test_play_with_no_options_offers_the_last_unfinished_game_first(monkeypatch, tmp_path):
    """A crash or a closed window costs nothing, also for a player who never heard of --resume."""
    _unfinished_game(tmp_path, monkeypatch)
    printed = _terminal_main(monkeypatch, tmp_path, ["", "quit", "yes"])
    assert printed[0] == ("Your last game, with Alice, Ben and Cara, stopped after 1 move today. Carry it on?"
                          " Say yes or press Enter to carry on, or say new game.")
    assert "Resuming after 1 action." in printed
    assert not any(line.startswith("New game") for line in printed)


@pytest.mark.parametrize("answers, carried_on", [
    (["start a new game"], False), (["okay, new game"], False), (["no"], False), (["nieuw spel"], False),
    (["yes please"], True), (["hmm", "what", "eh"], True), (["no, carry on"], True), (["continue"], True),
    (["verder"], True)])
def test_answers_to_the_offer(monkeypatch, tmp_path, answers, carried_on):
    _unfinished_game(tmp_path, monkeypatch)
    printed = _terminal_main(monkeypatch, tmp_path, answers + ["quit", "yes"])
    assert ("Resuming after 1 action." in printed) is carried_on, printed
    assert any(line.startswith("New game") for line in printed) is not carried_on


def test_saying_new_game_goes_on_to_a_new_one_and_the_old_is_offered_no_more(monkeypatch, tmp_path):
    _unfinished_game(tmp_path, monkeypatch)
    (old,) = (tmp_path / "games").glob("*.jsonl")
    printed = _terminal_main(monkeypatch, tmp_path, ["new game", "", "quit", "yes"])
    assert printed[1] == "A new game, then. The other one stays saved."
    assert printed[2].startswith("New game: You against 2 computer players")
    assert old.exists() and len(list((tmp_path / "games").glob("*.jsonl"))) == 2
    for path in (tmp_path / "games").glob("*.jsonl"):  # the new game, finished
        if path != old:
            with path.open("a") as journal:
                journal.write('{"over": ["You"]}\n')
    assert _terminal_main(monkeypatch, tmp_path, ["quit"])[0].startswith("New game")  # not "Your last game"


def test_the_offer_names_the_others_when_you_played(monkeypatch, tmp_path):
    _unfinished_game(tmp_path, monkeypatch, human="You", moves=3)
    printed = _terminal_main(monkeypatch, tmp_path, ["quit"])
    assert printed[0].startswith("Your last game, with Ben and Cara, stopped after 3 moves today.")


def test_a_game_left_a_month_ago_is_not_offered_before_a_new_one(monkeypatch, tmp_path):
    _unfinished_game(tmp_path, monkeypatch)
    (path,) = (tmp_path / "games").glob("*.jsonl")
    month_ago = path.stat().st_mtime - 30 * 86400
    os.utime(path, (month_ago, month_ago))
    assert _terminal_main(monkeypatch, tmp_path, ["quit"])[0].startswith("New game")


def test_a_game_left_before_its_first_move_is_not_offered(monkeypatch, tmp_path):
    _unfinished_game(tmp_path, monkeypatch, moves=0)
    assert _terminal_main(monkeypatch, tmp_path, ["quit"])[0].startswith("New game")


def test_a_game_of_computer_players_only_is_not_offered(monkeypatch, tmp_path):
    from voicegame.table.journal import Journal

    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    game = Game(["Ann", "Eve"], rules=profile("guide"), seed=5)
    journal = Journal.new(game, {"bots": {"Ann": "memory", "Eve": "memory"}, "lang": "en"})
    action = make_bot("random", game, game.current_player, seed=1).choose()
    game.apply(action)
    journal.action(action)
    journal.close()
    assert _terminal_main(monkeypatch, tmp_path, ["quit"])[0].startswith("New game")


def test_a_saved_game_that_vanishes_while_looked_for_is_no_crash(monkeypatch, tmp_path):
    _unfinished_game(tmp_path, monkeypatch)
    (tmp_path / "games" / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")  # a broken link
    assert _terminal_main(monkeypatch, tmp_path, ["quit"])[0].startswith("Your last game")


def test_a_carried_on_game_keeps_its_players_when_the_config_seats_others(monkeypatch, tmp_path):
    """The config file seats Mum, who was not in the last game: carrying it on is not an error."""
    config = tmp_path / "config.toml"
    config.write_text('players = ["Alice", "Mum"]\nchildren = ["Mum"]\n[seats]\nMum = "terminal"\n', "utf-8")
    monkeypatch.setenv("VOICEGAME_CONFIG", str(config))
    _unfinished_game(tmp_path, monkeypatch)
    printed = _terminal_main(monkeypatch, tmp_path, ["yes", "quit", "yes"])
    assert "Resuming after 1 action." in printed, printed


def test_a_carried_on_game_keeps_its_young_child_and_the_config_seats_of_its_players(monkeypatch, tmp_path):
    """Sam was a young child in the saved game (chosen at its set-up) and the config file gives Alice
    headphones: carried on, Sam's requests are still checked with him and Alice's lines still go to her."""
    from voicegame import cli
    from voicegame.table.journal import Journal

    config = tmp_path / "config.toml"
    config.write_text('players = ["Zoe"]\n[seats]\nalice = "terminal"\nZoe = "terminal"\n', "utf-8")
    monkeypatch.setenv("VOICEGAME_CONFIG", str(config))
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    game = Game(["Alice", "Sam", "Ben"], rules=profile("guide"), seed=5)
    journal = Journal.new(game, {"bots": {"Ben": "memory"}, "lang": "en", "children": ["Sam"]})
    action = make_bot("random", game, game.current_player, seed=1).choose()
    game.apply(action)
    journal.action(action)
    journal.close()
    played = {}
    monkeypatch.setattr(cli, "_play", lambda game, levels, lang, journal, args, voice, unsaved, resumed:
                        played.update(children=args.children, seat=args.seat) or 0)
    _terminal_main(monkeypatch, tmp_path, ["yes"])
    assert played == {"children": ["Sam"], "seat": ["Alice=terminal"]}


@pytest.mark.parametrize("lang, said", [
    ("en", "This game will not be saved. The saved game stays as it was."),
    ("nl", "Dit spel wordt niet bewaard. Het bewaarde spel blijft zoals het was."),
])
@pytest.mark.parametrize("damaged", [False, True])
def test_a_saved_game_resumed_with_no_save_stays_as_it_was(monkeypatch, tmp_path, capsys, lang, said, damaged):
    """--resume --no-save tries a move from a saved position: the moves were appended to the saved
    game (or, for a damaged one, to a new file carrying it on), so the position was lost. Now nothing
    is written, the players hear once that this game is not saved, and it is still offered later."""
    from voicegame import cli

    game = _unfinished_game(tmp_path, monkeypatch, lang=lang)
    (path,) = (tmp_path / "games").glob("*.jsonl")
    if damaged:
        with path.open("a") as journal:
            journal.write("not an action\n")
    hour_ago = path.stat().st_mtime - 3600
    os.utime(path, (hour_ago, hour_ago))
    saved, offered = path.read_bytes(), cli._recent_unfinished()
    assert game.current_player == "Alice" and offered is not None
    ask = make_bot("random", game, "Alice", seed=2).choose()
    member, family = ask.card.split(":")[1], ask.card.split(":")[0]
    request = f"{ask.target}, {member} {family}, {'alstublieft' if lang == 'nl' else 'please'}"
    monkeypatch.setattr(cli.sys, "stdin", io.StringIO(f"{request}\nquit\n"))
    assert cli.main(["play", "--resume", "--no-save"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines.count(said) == 1, lines
    damage = {"en": "The last action was cut off while it was being saved, so it is left out.",
              "nl": "De laatste zet werd afgebroken terwijl hij werd bewaard, dus die valt weg."}[lang]
    assert (damage in lines) == damaged, lines
    assert lines[-1] == {
        "en": "Game stopped. These moves were not saved; voicegame play --resume carries on from the saved game.",
        "nl": "Het spel is gestopt. Deze zetten zijn niet bewaard; met voicegame play --resume ga je verder vanaf het"
              " bewaarde spel."}[lang]
    assert any(line.startswith(f"Alice {'vraagt' if lang == 'nl' else 'asks'} {ask.target}") for line in lines)
    assert list((tmp_path / "games").iterdir()) == [path]
    assert path.read_bytes() == saved and path.stat().st_mtime == hour_ago
    assert cli._recent_unfinished() == offered


def test_a_new_games_young_children_are_saved_with_it(tmp_path):
    proc = run_cli("play", "--players", "Alice,Sam", "--bots", "1", "--child", "Sam", "--seed", "3",
                   stdin="quit\nyes\n", env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    (path,) = (tmp_path / "games").glob("*.jsonl")
    assert json.loads(path.read_text().splitlines()[0])["children"] == ["Sam"]


def test_a_newer_game_left_before_its_first_move_does_not_hide_the_last_one_played(monkeypatch, tmp_path):
    _unfinished_game(tmp_path, monkeypatch, moves=3)
    _unfinished_game(tmp_path, monkeypatch, moves=0)
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 2
    assert _terminal_main(monkeypatch, tmp_path, ["quit"])[0].startswith(
        "Your last game, with Alice, Ben and Cara, stopped after 3 moves today.")


def test_a_game_carried_on_in_another_language_gets_a_voice_in_its_own(monkeypatch, tmp_path):
    """The question is asked in the config's language (English); the saved game is Dutch: the voice
    that asked is closed, microphone and all, and the game gets one opened in Dutch."""
    import queue

    from voicegame import cli
    from voicegame.speech.tts import TextSpeaker
    from voicegame.table.journal import Journal
    from voicegame.table.voice import VoiceIO

    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    game = Game(["Anna", "Ben", "Cara"], rules=profile("guide"), seed=5)
    journal = Journal.new(game, {"bots": {"Ben": "memory", "Cara": "memory"}, "lang": "nl"})
    action = make_bot("random", game, game.current_player, seed=1).choose()
    game.apply(action)
    journal.action(action)
    journal.close()

    class Microphone(list):
        closed = False

        def close(self):
            self.closed = True

    typed: queue.Queue[str | None] = queue.Queue()
    typed.put("yes")
    microphone, heard, opened = Microphone(), [], []

    def open_voice(args, lang):
        opened.append(lang)
        if len(opened) > 1:
            return None  # the game itself: typed, as a machine without a sound card has it
        return VoiceIO(None, TextSpeaker(write=heard.append), microphone, heard.append, typed=typed)

    monkeypatch.setattr(cli.sys, "stdin", type("Terminal", (), {"isatty": staticmethod(lambda: True)})())
    monkeypatch.setattr(cli, "_open_voice", open_voice)
    printed: list[str] = []
    monkeypatch.setattr(cli, "_out", printed.append)
    answers = ["stop", "ja"]
    monkeypatch.setattr(cli, "_read_line", lambda: answers.pop(0) if answers else None)
    cli.main([])
    assert heard[0].startswith("Your last game, with Anna, Ben and Cara, stopped after 1 move today.")
    assert opened == ["en", "nl"] and microphone.closed
    assert "We gaan verder na 1 zet." in printed


def test_a_private_line_shown_on_the_screen_is_announced_aloud():
    """Two players, no headphones, the game speaking (--asr text): a hand goes to the screen only, and
    the table hears that it is there (a player who listens heard nothing at all, not even that a
    question waited for them); once a reply (help is two lines), and never what they say."""
    proc = run_cli("play", "--asr", "text", "--players", "Alice,Ben", "--level", "random", "--seed", "7", "--no-save",
                   stdin="hand\nhelp\nstatus\nhand\nquit\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    hands = [i for i, line in enumerate(lines) if line.startswith("Alice, you hold")]
    assert len(hands) == 2
    assert lines[hands[0] + 1] == lines[hands[1] + 1] == "Alice, that is on the screen for you."
    assert lines.count("Alice, that is on the screen for you.") == 3  # the hands and help (status is public)


def test_a_yes_with_nothing_to_answer_gets_one_short_sentence():
    proc = run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "2", "--no-save", stdin="yes\nquit\n")
    lines = proc.stdout.splitlines()
    assert "There is nothing to answer yes or no to." in lines
    assert not any("Other commands" in line for line in lines), lines  # the command list is help's


def test_a_dutch_request_to_someone_not_playing_asks_who_it_was_for():
    """"Ben, ..." at a Dutch table without a Ben was taken for Dan ("Bedoel je: Dan, ...?")."""
    proc = run_cli("play", "--lang", "nl", "--players", "Anna", "--bots", "2", "--seed", "3", "--no-save",
                   stdin="Ben, mag ik Mevrouw Brood hebben, alsjeblieft?\nstop\nja\n")
    assert "Wie wil je om Mevrouw Brood vragen? Zeg een naam: Cara of Eve." in proc.stdout.splitlines(), proc.stdout


def test_a_move_taken_back_stays_taken_back_when_the_game_is_carried_on(tmp_path, monkeypatch):
    """One undo per move: stopping and carrying on must not allow a second (it would take back an
    earlier move, by someone who has since heard what it brought)."""
    from voicegame.table.journal import Journal

    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    game = Game(["Alice", "Ben"], rules=profile("guide"), seed=5)
    journal = Journal.new(game, {"bots": {}, "lang": "en"})
    for _ in range(2):
        action = make_bot("random", game, game.current_player, seed=1).choose()
        game.apply(action)
        journal.action(action)
    journal.undo(1)
    journal.close()
    proc = run_cli("play", "--resume", "--no-save", stdin="undo\nquit\n", env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert "Only the last move can be taken back, and it has been." in proc.stdout.splitlines()
    assert not any(line.startswith("Undo ") for line in proc.stdout.splitlines())


def test_headphones_that_cannot_be_used_are_said_in_one_sentence(monkeypatch, capsys):
    """Headphones found but no speech engine to speak on them: one sentence, not the engine's nested in the seat's."""
    from voicegame import cli
    from voicegame.speech import audio, tts
    from voicegame.speech.base import SpeechError

    def no_engine(*args, **kwargs):
        raise SpeechError.of("engine_failed", problem="libespeak-ng missing")

    monkeypatch.setattr(audio, "find_device", lambda spec, kind: audio.Device(3, "USB Headset", 0, 2, 48000.0))
    monkeypatch.setattr(tts, "Pyttsx3Speaker", no_engine)
    assert cli._seat_channel("Ben", "USB", None, "en") is cli._out
    assert capsys.readouterr().out == ("Ben's headphones cannot be used here, so Ben's private lines will be shown on"
                                       " the screen.\n")


def test_the_polite_reminder_and_a_memory_challenge_stay_with_a_game_carried_on(tmp_path):
    """A child's game asks for please, a memory challenge has no history: carried on, they still do."""
    data = {"VOICEGAME_DATA_DIR": str(tmp_path)}
    run_cli("play", "--players", "Sam", "--bots", "2", "--seed", "4", "--polite-reminder", "--no-history",
            stdin="quit\n", env=data)
    game = Game(["Sam", "Cara", "Dan"], rules=profile("guide"), seed=4)
    assert game.current_player == "Sam"
    ask = make_bot("random", game, "Sam", seed=1).choose()
    request = f"{ask.target}, {game.deck.card(ask.card).name('en', 'short')}"
    proc = run_cli("play", "--resume", stdin=f"history\n{request}\nquit\n", env=data)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "Remember the magic word, Sam: ask again with please." in lines
    assert "History is off in this game: it is a memory challenge." in lines
    assert not any(line.startswith("Sam asks") for line in lines)


def test_the_end_of_the_input_says_whether_the_game_can_be_carried_on(tmp_path):
    saved = run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", stdin=_first_request() + "status\n",
                    env={"VOICEGAME_DATA_DIR": str(tmp_path)})
    assert saved.stdout.splitlines()[-2:] == [
        "Input ended.", "Game stopped. voicegame play --resume carries on where you left off."]
    unsaved = run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", "--no-save", "--lang", "nl")
    assert unsaved.stdout.splitlines()[-2:] == ["De invoer is op.", "Het spel is gestopt. Het is niet bewaard."]


@pytest.mark.parametrize(("rule", "said"), [
    ("stok=5", "There is no rule called 'stok'. Did you mean stock? See: voicegame rules"),
    ("nosuch=1", "There is no rule called 'nosuch'. The rules are: {rules}. See what each one does: voicegame rules"),
    # the profile is chosen as a whole, with --rules (it was a TypeError traceback)
    ("profile=dutch", "There is no rule called 'profile'. The rules are: {rules}. See what each one does:"
                      " voicegame rules"),
])
def test_an_unknown_rule_says_what_is_allowed(capsys, rule, said):
    """docs/rules.md: an unknown name is refused with a sentence saying what is allowed."""
    from voicegame import cli
    from voicegame.engine import Rules

    rules = sorted(r["name"] for r in Rules.describe())
    assert {"after_miss", "stock", "tie_break"} <= set(rules)
    assert cli.main(["simulate", "--games", "1", "--rule", rule]) == 2
    assert capsys.readouterr().err == said.format(rules=", ".join(rules)) + "\n"


@pytest.mark.parametrize(("argv", "said"), [
    (["play", "--bots", "two"], "On the command line, --bots must be a whole number, not two. Write it like this:"
                                " --bots 2."),
    (["play", "--seed", "abc"], "On the command line, --seed must be a whole number, not abc. Write it like this:"
                                " --seed 42."),
    (["play", "--rules", "nosuch"], "On the command line, --rules nosuch is not a rules profile. Write one of: guide,"
                                    " classic, dutch; for example --rules guide."),
    (["play", "--lang", "fr"], "On the command line, --lang fr is not a language the game can be played in. Write"
                               " one of: en, nl; for example --lang en."),
    (["simulate", "--rules", "clasic"], "On the command line, --rules clasic is not a rules profile. Did you mean"
                                        " classic? Write one of: guide, classic, dutch; for example --rules guide."),
    (["understand", "--players", "A,B", "--asker", "A", "--lang", "fr", "hello"],
     "On the command line, --lang fr is not a language the game can be played in. Write one of: en, nl; for example"
     " --lang en."),
    (["play", "--players", ",,", "--bots", "1"], "A game needs at least 2 players, but there are no people and 1"
     " computer player (from the command line). Name the people who play with --players Alice,Ben, or ask for 2"
     " computer players with --bots 2."),
    (["play", "--deck", "/"], "On the command line, --deck / is not a .toml pack file. Write the path of one, or one"
                              " of: jaques, letters, sporting, standard."),
    (["play", "--bots", "12"], "On the command line, --bots 12 is too high. Write a number of computer players from 0"
                               " to 11; for example --bots 2."),
])
def test_a_bad_option_value_is_one_sentence_in_the_command_lines_words(capsys, argv, said):
    """F-cli-2, F-cli-3: not argparse's usage block and "invalid int value: 'two'", nor bots = 2 on the command
    line; the exit status stays 2."""
    from voicegame import cli

    try:
        code = cli.main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert capsys.readouterr().err == said + "\n"


def test_argparses_own_mistakes_still_show_the_usage(capsys):
    from voicegame import cli

    with pytest.raises(SystemExit) as stop:
        cli.main(["play", "--microphone"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.startswith("usage: voicegame play")


def test_understand_in_dutch_is_described_in_dutch(capsys):
    from voicegame import cli
    from voicegame.understanding import Understanding

    table = ["understand", "--players", "Alice,Ben", "--asker", "Alice", "--lang", "nl"]
    assert cli.main([*table, "Ben, mevrouw Brood alstublieft"]) == 0
    assert cli.main([*table, "hand"]) == 0
    assert cli.main([*table, "ik heb honger"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "vraag Ben om bun:mrs, zekerheid 1.0.", "opdracht: hand.",
        "niet begrepen: Ik hoorde geen kaartnaam. Probeer: Ben, is Meneer Botten thuis, alstublieft?"]
    assert cli._describe(Understanding(text="mama kijk", intent="none"), "nl") == \
        "genegeerd (praat aan tafel, niet voor het spel)."
    doubted = Understanding(text="mevrouw brood", intent="ask", card="bun:mrs", confidence=0.6, confirm=True)
    assert cli._describe(doubted, "nl") == "vraag (wie?) om bun:mrs (zou eerst vragen of het klopt), zekerheid 0.6."
    assert cli._describe(doubted) == "ask (who?) for bun:mrs (would ask to confirm), confidence 0.6."


@pytest.mark.parametrize("command", [["understand", "vraag Ben om meneer Brood"], ["transcribe", "nothing.wav"]])
def test_understand_and_transcribe_refuse_a_language_the_deck_has_no_names_for(capsys, command):
    """As voicegame play refuses it, with the same sentence: Dutch words matched against English names."""
    from voicegame import cli
    from voicegame.config import Settings, language_problem

    assert cli.main([command[0], "--players", "Alice,Ben", "--asker", "Alice", "--lang", "nl", "--deck", "sporting",
                     *command[1:]]) == 2
    said = language_problem(Settings(deck="sporting", lang="nl"))
    assert said.startswith("De Sporting-kaarten hebben geen Nederlandse namen: speel in het Engels met --lang en,")
    assert capsys.readouterr() == ("", said + "\n")


def test_transcribe_says_a_file_it_cannot_read_as_a_plain_line_unless_asked_for_json(capsys, monkeypatch, tmp_path):
    """F-cli-4: JSON only with --json; the exit status still says a file could not be read."""
    from voicegame import cli
    from voicegame.speech import recognizers

    class Deaf:
        def set_grammar(self, *words):
            pass

    monkeypatch.setattr(recognizers, "make_recognizer", lambda asr, lang: Deaf())
    missing = str(tmp_path / "missing.wav")
    table = ["transcribe", "--players", "Alice,Ben", "--asker", "Alice", missing]
    assert cli.main(table) == 1
    assert capsys.readouterr() == ("", f"There is no sound file {missing}.\n")
    assert cli.main([*table, "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"file": missing, "error": f"There is no sound file {missing}."}


def test_the_config_files_young_children_are_found_in_any_case_and_the_others_named(tmp_path):
    """children = ["sam"] in the file is the player Sam (it was left out for its small letter), and
    a child the file names who is not playing gets a short note, not silence."""
    config = tmp_path / "config.toml"
    config.write_text('children = ["sam", "Zed"]\n')
    env = {"VOICEGAME_DATA_DIR": str(tmp_path), "VOICEGAME_CONFIG": str(config)}
    proc = run_cli("play", "--players", "Sam,Alice", "--seed", "3", "--no-save", stdin="quit\n", env=env)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "The config file names Zed as a young child, but Zed is not playing."
    journal = run_cli("play", "--players", "Sam,Alice", "--seed", "3", stdin="quit\n", env=env)
    assert journal.returncode == 0, journal.stderr
    (path,) = (tmp_path / "games").glob("*.jsonl")
    assert json.loads(path.read_text().splitlines()[0])["children"] == ["Sam"]


def test_the_polite_reminder_asked_for_when_carrying_a_game_on_stays_with_it(tmp_path):
    data = {"VOICEGAME_DATA_DIR": str(tmp_path)}
    run_cli("play", "--players", "Sam", "--bots", "2", "--seed", "4", stdin="quit\n", env=data)
    game = Game(["Sam", "Cara", "Dan"], rules=profile("guide"), seed=4)
    ask = make_bot("random", game, "Sam", seed=1).choose()
    request = f"{ask.target}, {game.deck.card(ask.card).name('en', 'short')}"
    run_cli("play", "--resume", "--polite-reminder", stdin="quit\n", env=data)
    proc = run_cli("play", "--resume", stdin=f"{request}\nquit\n", env=data)
    assert proc.returncode == 0, proc.stderr
    assert "Remember the magic word, Sam: ask again with please." in proc.stdout.splitlines()
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 1  # carried on in the same file


def test_bots_on_their_own_play_against_you():
    """`voicegame play --bots 3` started a game of computer players that played itself to the end, while
    bots = 3 in the config file kept You at the table."""
    proc = run_cli("play", "--bots", "3", "--seed", "3", "--no-save", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Happy Families with You and 3 computer players at memory level: ")
    assert proc.stdout.splitlines()[-1] == "Game stopped. It was not saved."


def test_version():
    proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("voicegame ") and proc.stdout.count(".") >= 1


def test_saved_lists_every_unfinished_game_and_how_to_carry_it_on(tmp_path):
    """Only the last unfinished game was ever offered or resumed; a second (the children's game, and one
    alone) could be found only by its file in the data folder."""
    data = {"VOICEGAME_DATA_DIR": str(tmp_path)}
    assert run_cli("saved", env=data).stdout == "There are no unfinished saved games. Start one with: voicegame play\n"
    run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", stdin=_first_request() + "quit\n", env=data)
    run_cli("play", "--players", "Alice", "--bots", "1", "--seed", "3", stdin="quit\n", env=data)  # no move: not listed
    run_cli("play", "--players", "Sam,Alice", "--seed", "5", stdin="quit\n", env=data)
    lines = run_cli("saved", env=data).stdout.splitlines()
    assert lines[0] == f"Unfinished saved games, the last played first ({tmp_path / 'games'}):"
    assert len(lines) == 2 and lines[1].startswith("Alice and Cara: 1 move, last played today. To carry it on:"
                                                   " voicegame play --resume ")
    resumed = run_cli("play", "--resume", lines[1].rsplit(" ", 1)[1], "--no-save", stdin="quit\n", env=data)
    assert "Resuming after 1 action." in resumed.stdout


def test_a_recording_that_is_not_there_is_said_once(tmp_path):
    """It was "could not be opened. You can type instead." and then "is not used, because this game is
    typed", though the player had not chosen to type."""
    missing = tmp_path / "missing.wav"
    proc = run_cli("play", "--voice", "--audio-in", str(missing), "--players", "Alice", "--bots", "1", "--no-save",
                   "--seed", "2", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert f"There is no sound file {missing}. You can type instead." in proc.stdout.splitlines()
    assert "is not used" not in proc.stdout
