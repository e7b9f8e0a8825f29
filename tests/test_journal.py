"""Save and resume: a journal survives kill -9 at any moment, and damage never loses good actions."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from voicegame.bots import make_bot
from voicegame.engine import Game, profile
from voicegame.table.journal import Journal, JournalError, in_use, latest_journal, load_journal

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    return tmp_path


def _played(seed: int = 3, moves: int = 12) -> Game:
    game = Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=seed)
    for i in range(moves):
        game.apply(make_bot("random", game, game.current_player, i).choose())
    return game


def _journal_of(game: Game) -> Path:
    fresh = Game.from_json({**game.to_json(), "actions": []})
    journal = Journal.new(fresh, {"bots": {}})
    for action in game.actions:
        journal.action(action)
    journal.close()
    return journal.path


def test_a_journal_replays_to_the_same_game(data_dir):
    game = _played()
    resumed = load_journal(_journal_of(game))
    assert resumed.problems == [] and not resumed.finished
    assert resumed.game.position() == game.position() and resumed.game.log == game.log


def test_undo_is_journaled_too(data_dir):
    game = _played(moves=6)
    path = _journal_of(game)
    with path.open("a") as f:
        f.write(json.dumps({"undo": 2}) + "\n")
    game.undo(2)
    assert load_journal(path).game.position() == game.position()
    # Settings changed when the game was carried on come after it: the undo is still the last move's.
    with path.open("a") as f:
        f.write(json.dumps({"settings": {"polite_reminder": True}}) + "\n")
    resumed = load_journal(path)
    assert resumed.undo_spent and resumed.header["polite_reminder"] is True and not resumed.problems


@pytest.mark.parametrize("settings", [{"bots": {"Cara": "god"}}, {"bots": {}}, {"lang": None}])
def test_a_settings_line_cannot_change_who_plays_or_the_language(data_dir, settings):
    """Only how a game is played may change when it is carried on (children, the polite reminder,
    history); a hand-edited line changing the players' levels or the language was a traceback, or
    turned computer players into people."""
    game = _played()
    path = _journal_of(game)
    before = load_journal(path).header
    with path.open("a") as f:
        f.write(json.dumps({"settings": settings}) + "\n")
    resumed = load_journal(path)
    assert [p.key for p in resumed.problems] == ["save_damaged_at"]
    assert resumed.game.position() == game.position() and resumed.header == before


def test_a_cut_off_last_line_is_dropped_with_a_message(data_dir):
    game = _played()
    path = _journal_of(game)
    text = path.read_text()
    path.write_text(text[:-7])  # the last action only half written
    resumed = load_journal(path)
    assert [str(p) for p in resumed.problems] == ["The last action was cut off while it was being saved, so it is left out."]
    assert len(resumed.game.actions) == len(game.actions) - 1
    game.undo()
    assert resumed.game.position() == game.position()


def test_damage_in_the_middle_keeps_every_action_before_it_and_never_touches_the_file(data_dir):
    game = _played()
    path = _journal_of(game)
    lines = path.read_text().splitlines()
    lines[5] = '{"action": {"ask": "Nobody", "card": "bun:mr"}}'
    damaged = "\n".join(lines) + "\n"
    path.write_text(damaged)
    resumed = load_journal(path)
    assert [str(p) for p in resumed.problems] == ["The saved game is damaged at line 6; every action before it is kept,"
                                                  f" but not the 7 lines after it. The file {path.name} stays as it was."]
    assert len(resumed.game.actions) == 4
    journal = Journal.resume(resumed, path)
    journal.close()
    assert path.read_text() == damaged  # the original is left exactly as it was
    assert journal.path != path
    assert load_journal(journal.path).game.position() == resumed.game.position()
    assert latest_journal() == journal.path  # the damaged original is not offered again


@pytest.mark.parametrize("content, message", [
    ("", "damaged at its very start"),
    ('{"hello": 1}\n', "not a saved voicegame game"),
])
def test_unusable_files_get_a_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(JournalError, match=message):
        load_journal(path)


def _header_changed(data_dir: Path, **changes) -> Path:
    """A saved game whose header is as another version (or a hand edit) might write it."""
    path = _journal_of(_played(moves=3))
    lines = path.read_text().splitlines()
    header = {**json.loads(lines[0]), "bots": {"Cara": "memory"}}
    for key, value in changes.items():
        if key == "game_format":
            header["game"]["format"] = value
        elif key == "seed":
            header["game"]["seed"] = value
        else:
            header[key] = value
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    return path


@pytest.mark.parametrize("changes, message", [
    ({"bots": {"Cara": "genius"}}, "saved by another version of voicegame, with a computer level this version does"
                                   " not have \\(genius\\)"),
    ({"bots": ["Cara"]}, "lists its computer players in a way this version of voicegame does not know"),
    ({"bots": {"Zed": "memory"}}, "has a computer player Zed who is not at its table"),
    ({"lang": "fr"}, "in a language this version does not speak \\(fr\\)"),
    ({"format": "voicegame/journal-2"}, "saved by another version of voicegame, so this version cannot resume it"),
    ({"game_format": "voicegame/game-2"}, "saved by another version of voicegame, so this version cannot resume it"),
    ({"format": "voicegame/journal-2", "game": None}, "saved by another version of voicegame"),  # laid out anew
    ({"seed": "abc"}, "cannot be used: The saved seed must be a whole number, not 'abc'.$"),  # not int()'s words
])
def test_a_game_from_another_version_is_refused_in_one_sentence(data_dir, changes, message):
    with pytest.raises(JournalError, match=message):
        load_journal(_header_changed(data_dir, **changes))


@pytest.mark.parametrize("blocker", ["file named games", "no such folder"])
def test_a_folder_where_games_cannot_be_saved_says_so_and_what_to_do(tmp_path, monkeypatch, blocker):
    if blocker == "file named games":
        (tmp_path / "games").write_text("")
        monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    else:
        monkeypatch.setenv("VOICEGAME_DATA_DIR", "/proc/no-such-folder")
    with pytest.raises(JournalError, match="Games cannot be saved in .*: set VOICEGAME_DATA_DIR to a folder you"
                                           " can write to, or play with --no-save."):
        Journal.new(_played(moves=0), {"bots": {}})


def _typed_game(seed: int) -> tuple[list[str], dict]:
    """A three-player game chosen by random bots, as the lines people would type, and its end position."""
    game = Game(["Alice", "Ben", "Cara"], rules=profile("guide"), seed=seed)
    lines = []
    while not game.over:
        action = make_bot("random", game, game.current_player, len(game.actions)).choose()
        lines.append(f"ask {action.target} for {game.deck.card(action.card).name('en', 'short')}")
        game.apply(action)
    return lines, game.position()


def _start(args: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "voicegame", "play", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def test_kill_9_at_random_moments_then_resume_gives_the_same_game(tmp_path):
    env = {**os.environ, "VOICEGAME_DATA_DIR": str(tmp_path)}
    lines, final = _typed_game(seed=21)
    assert len(lines) > 30
    rng = random.Random(5)
    args = ["--players", "Alice,Ben,Cara", "--seed", "21", "--rules", "guide"]
    kills = 0
    done = 0
    while True:
        # Killed before the journal was even created: then there is nothing to resume, start again.
        path = max((tmp_path / "games").glob("*.jsonl"), key=lambda p: p.stat().st_mtime, default=None)
        done = len(load_journal(path).game.actions) if path else 0
        proc = _start(["--resume"] if path else args, env)
        remaining = lines[done:]
        stop_after = rng.randrange(1, max(2, len(lines) // 6))
        if kills >= 6 or stop_after >= len(remaining):
            _, err = proc.communicate("\n".join(remaining) + "\n", timeout=60)
            assert proc.returncode == 0, err
            break
        for line in remaining[:stop_after]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        time.sleep(rng.random() * 0.3)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += 1
    assert kills >= 3
    journals = sorted((tmp_path / "games").glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    resumed = load_journal(journals[-1])
    assert resumed.finished
    assert resumed.game.position() == final


@pytest.mark.parametrize("damaged", [False, True])
def test_a_game_carried_on_in_one_window_cannot_be_carried_on_in_another(data_dir, damaged):
    """Two windows carrying on one saved game both wrote their moves into it: the next resume was a mix
    of both, or called the file damaged and dropped one window's moves."""
    path = _journal_of(_played())
    if damaged:
        path.write_text(path.read_text() + "garbage }{\n")
    first = Journal.resume(load_journal(path), path)
    assert in_use(path)
    with pytest.raises(JournalError) as refused:
        Journal.resume(load_journal(path), path)
    assert refused.value.said("en") == (f"The saved game {path.name} is open in another window: carry it on there,"
                                        " or close it there first.")
    first.close()
    assert not in_use(path)
    Journal.resume(load_journal(path), path).close()


def test_resume_says_the_game_is_open_in_another_window_and_plays_nothing(data_dir):
    path = _journal_of(_played())
    before = path.read_text()
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a');"
                               " fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)", str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        proc = subprocess.run([sys.executable, "-m", "voicegame", "play", "--resume"], input="ben mrs bun\n",
                              capture_output=True, text=True, cwd=ROOT, timeout=60,
                              env={**os.environ, "VOICEGAME_DATA_DIR": str(data_dir)})
    finally:
        holder.kill()
        holder.wait()
    assert proc.returncode != 0
    assert f"The saved game {path.name} is open in another window" in proc.stderr + proc.stdout
    assert path.read_text() == before


@pytest.mark.parametrize("afterwards", ["edited", "moved"])
def test_a_game_with_a_users_pack_carries_on_after_the_pack_file_changed(data_dir, tmp_path, afterwards):
    """The journal named only the pack's file: edited, the game was dealt anew ("damaged at line 2",
    every move lost); moved, it could not be carried on at all."""
    from helpers import pack_toml, write_pack

    from voicegame.decks import load_deck

    path = write_pack(tmp_path, families=5)
    game = Game(["Alice", "Ben"], rules=profile("guide"), deck=load_deck(str(path)), seed=3)
    for i in range(6):
        game.apply(make_bot("random", game, game.current_player, i).choose())
    saved = _journal_of(game)
    if afterwards == "edited":
        path.write_text(pack_toml(families=4))
    else:
        path.rename(tmp_path / "elsewhere.toml")
    resumed = load_journal(saved)
    assert resumed.problems == []
    assert resumed.game.position() == game.position() and len(resumed.game.deck.families) == 5


def test_a_game_whose_start_cannot_be_saved_leaves_no_file_to_be_called_damaged(data_dir, monkeypatch):
    """A full disk left an empty journal, and every later start said a saved game was "damaged at its
    very start", a game the players had been told was not saved."""
    older = _journal_of(_played())
    fsync = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("voicegame.table.journal.os.fsync", full)
    with pytest.raises(JournalError) as cannot:
        Journal.new(_played(moves=0), {"bots": {}})
    assert cannot.value.said("en").startswith(f"Games cannot be saved in {data_dir / 'games'} (no space left on"
                                              " device): ")
    assert list((data_dir / "games").glob("*.jsonl")) == [older]
    monkeypatch.setattr("voicegame.table.journal.os.fsync", fsync)
    (data_dir / "games" / "29990101-000000-1-1.jsonl").write_text("")  # left by an older version
    passed_over: list[JournalError] = []
    assert latest_journal(passed_over) == older and passed_over == []


def test_zero_bytes_left_by_a_power_cut_lose_nothing(data_dir):
    """They were taken for a cut-off action ("so it is left out") though every action was there."""
    game = _played()
    path = _journal_of(game)
    with path.open("ab") as f:
        f.write(b"\x00" * 300)
    resumed = load_journal(path)
    assert resumed.problems == [] and resumed.game.position() == game.position()
    journal = Journal.resume(resumed, path)
    journal.action(make_bot("random", resumed.game, resumed.game.current_player, 1).choose())
    journal.close()
    again = load_journal(path)
    assert again.problems == [] and len(again.game.actions) == len(game.actions) + 1
