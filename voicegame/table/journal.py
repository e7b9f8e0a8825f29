"""Every action of a game, appended to a journal file the moment it happens.

A journal is JSON lines: a header with the game's set-up, then one line per action or undo,
each flushed and fsynced, so a crash or ``kill -9`` at any moment loses at most the action
being written. Reading a damaged journal keeps every complete action and never rewrites the
original file: a resumed game continues in a new file that starts with the good part.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # Windows: no advisory file locks
    fcntl = None

from voicegame.bots import BOT_LEVELS
from voicegame.config import data_dir
from voicegame.engine import Action, Game, IllegalAction, PositionError, action_from_json
from voicegame.engine.game import GAME_FORMAT
from voicegame.table.narration import PROMPTS, prompt

__all__ = ["Journal", "JournalError", "Resumed", "in_use", "latest_journal", "load_journal", "unfinished_games"]

FORMAT = "voicegame/journal-1"
# What a game carried on may change of how it is played, in a "settings" line after its moves.
CHANGEABLE = frozenset({"children", "polite_reminder", "history"})


class JournalError(ValueError):
    """A journal that cannot be resumed (or written) at all, or damage that cost the actions after
    it; the message says why, in a sentence.

    It is told to the players in their language: ``key`` names the sentence in the table's
    PROMPTS, filled with ``fields``; ``str()`` is the English."""

    def __init__(self, key: str, **fields: str) -> None:
        super().__init__(prompt("en", key, **fields))
        self.key, self.fields = key, fields

    def said(self, lang: str) -> str:
        """The message in ``lang``, for the table to say."""
        return prompt(lang, self.key, **self.fields)


class Journal:
    """Appends a game's actions to ``path`` (created with the game's header)."""

    def __init__(self, path: Path, header: dict[str, Any], entries: list[dict[str, Any]] | None = None) -> None:
        self.path, self._source = path, None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # "x": never overwrite an existing journal.
            self._file = open(path, "x", encoding="utf-8")
        except OSError as exc:
            raise _cannot_save(path, exc) from None
        _lock(self._file)
        try:
            self._write({"format": FORMAT, **header})
            for entry in entries or []:
                self._write(entry)
        except JournalError as exc:  # a full disk: no half-written file left to be taken for a damaged game
            self._file.close()
            path.unlink(missing_ok=True)
            raise JournalError("cannot_save", folder=str(path.parent), reason=exc.fields["reason"]) from None

    @classmethod
    def new(cls, game: Game, extra: dict[str, Any]) -> Journal:
        setup = game.to_json()
        setup.pop("actions")
        return cls(_new_path(), {"game": setup, **extra})

    @classmethod
    def resume(cls, resumed: Resumed, path: Path) -> Journal:
        """Go on writing: in the same file when it was whole, else in a new file that starts with
        the good part (the damaged original is left exactly as it was)."""
        try:  # a damaged original is only held, never written (it may be read-only)
            held = open(path, "r" if resumed.problems else "a", encoding="utf-8")
        except OSError as exc:
            raise _cannot_save(path, exc) from None
        if not _lock(held):
            held.close()
            raise JournalError("save_in_use", name=path.name)
        if not resumed.problems:
            journal = cls.__new__(cls)
            journal.path, journal._file, journal._source = path, held, None
            return journal
        header = {k: v for k, v in resumed.header.items() if k != "format"}
        journal = cls(_new_path(), {**header, "resumed_from": path.name}, resumed.entries)
        journal._source = held  # the damaged original stays held (never written): nobody resumes it twice
        return journal

    def _write(self, entry: dict[str, Any]) -> None:
        try:
            self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:  # a full disk, a removed USB stick
            raise JournalError("cannot_save_more", folder=str(self.path.parent),
                                  reason=(exc.strerror or "a write error").lower()) from None

    def action(self, action: Action) -> None:
        self._write({"action": action.to_json()})

    def undo(self, steps: int) -> None:
        self._write({"undo": steps})

    def settings(self, values: dict[str, Any]) -> None:
        """How the game is now played (``CHANGEABLE``: its young children, the polite reminder,
        history), changed when it was carried on: read over the header's the next time."""
        if not set(values) <= CHANGEABLE:  # a resume would take the line for damage, and drop what follows
            raise ValueError(f"not a setting a game may change: {sorted(set(values) - CHANGEABLE)}")
        self._write({"settings": values})

    def finish(self, winners: list[str]) -> None:
        self._write({"over": winners})

    def close(self) -> None:
        self._file.close()
        if self._source is not None:
            self._source.close()


def _lock(file: IO[str]) -> bool:
    """Hold ``file`` for this process alone while its game is played (released when it is closed, or
    the process ends, even killed): two windows carrying on one game would each write their own
    moves into it. False if another process holds it. Where there are no such locks, always True."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a folder that cannot lock (some network folders): played as where there are no locks
        return True
    return True


def in_use(path: Path) -> bool:
    """Whether the game saved in ``path`` is being played in another window now."""
    try:
        with open(path, encoding="utf-8") as file:
            return not _lock(file)
    except OSError:
        return False


def _cannot_save(path: Path, exc: OSError) -> JournalError:
    """Why no game can be saved at ``path``, and how to choose a folder where one can."""
    folder = path.parent
    in_the_way = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if in_the_way:
        reason = f"{'it' if in_the_way == folder else in_the_way} is a file, not a folder"
    else:
        reason = (exc.strerror or str(exc)).lower()
    return JournalError("cannot_save", folder=str(folder), reason=reason)


@dataclass
class Resumed:
    """A game rebuilt from a journal, and what was wrong with the file, if anything."""

    game: Game
    header: dict[str, Any]
    entries: list[dict[str, Any]]
    finished: bool
    problems: list[JournalError] = field(default_factory=list)  # damage that cost only the actions after it

    @property
    def undo_spent(self) -> bool:
        """The last thing done was taking a move back: carrying the game on must not allow a second
        undo (one per move, as at the table)."""
        last = next((e for e in reversed(self.entries) if "action" in e or "undo" in e), {})
        return "undo" in last


def load_journal(path: Path) -> Resumed:
    """Rebuild the game in ``path``, keeping every complete action before any damage."""
    try:
        lines = path.read_text("utf-8", errors="replace").split("\n")
    except OSError as exc:
        raise JournalError("save_unreadable", path=str(path), reason=str(exc.strerror)) from None
    try:
        header = json.loads(lines[0])
    except (json.JSONDecodeError, IndexError):
        raise JournalError("save_damaged_start", name=path.name) from None
    if not isinstance(header, dict) or not str(header.get("format")).startswith("voicegame/journal-"):
        raise JournalError("save_not_a_game", name=path.name)
    setup = header.get("game")
    if header["format"] != FORMAT or isinstance(setup, dict) and setup.get("format") != GAME_FORMAT:
        raise JournalError("save_other_version", name=path.name)
    if not isinstance(setup, dict):
        raise JournalError("save_no_setup", name=path.name)
    try:
        game = Game.from_json({**setup, "actions": []})
    except (PositionError, ValueError) as exc:
        raise JournalError("save_bad_setup", name=path.name, reason=str(exc)) from None
    _check_table(header, game, path.name)
    entries: list[dict[str, Any]] = []
    problems: list[JournalError] = []
    finished = False
    # A power cut can leave zero bytes where the file system had made room for a line not yet written:
    # never part of a line of ours (JSON writes the character as \u0000), so they are passed over.
    body = [line.replace("\x00", "") for line in lines[1:]]
    last_line = max((n for n, line in enumerate(body, start=2) if line.strip()), default=1)
    for number, line in enumerate(body, start=2):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            if "action" in entry:
                game.apply(action_from_json(entry["action"]))
            elif "undo" in entry:
                game.undo(int(entry["undo"]))
            elif "settings" in entry and isinstance(entry["settings"], dict):
                if not set(entry["settings"]) <= CHANGEABLE:  # the players and levels are set for good
                    raise ValueError("a setting a game cannot change")
                header.update(entry["settings"])
            elif "over" in entry:
                finished = True
            else:
                raise ValueError("unknown entry")
        except (json.JSONDecodeError, ValueError, TypeError, IllegalAction) as exc:
            after = sum(1 for later in body[number - 1:] if later.strip())
            if number == last_line and isinstance(exc, json.JSONDecodeError):
                problems.append(JournalError("save_cut_off"))
            elif after:
                problems.append(JournalError("save_damaged_one_after" if after == 1 else "save_damaged_after",
                                             number=str(number), after=str(after), name=path.name))
            else:
                problems.append(JournalError("save_damaged_at", number=str(number)))
            break
        entries.append(entry)
    return Resumed(game, header, entries, finished, problems)


def _check_table(header: dict[str, Any], game: Game, name: str) -> None:
    """The header's language and computer players (players of this game, at levels) must be ones
    this version has: a journal from another version (or edited by hand) is refused in a sentence,
    not half-resumed."""
    lang = header.get("lang", "en")
    if not isinstance(lang, str) or lang not in PROMPTS:
        raise JournalError("save_other_language", name=name, language=str(lang))
    bots = header.get("bots", {})
    if not isinstance(bots, dict) or not all(isinstance(level, str) for level in bots.values()):
        raise JournalError("save_odd_bots", name=name)
    for player, level in bots.items():
        if player not in game.players:
            raise JournalError("save_stranger", name=name, player=player)
        if level not in BOT_LEVELS:
            raise JournalError("save_other_level", name=name, level=level)


def _new_path() -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return data_dir() / "games" / f"{stamp}-{os.getpid()}-{time.monotonic_ns() % 10**6}.jsonl"


def latest_journal(passed_over: list[JournalError] | None = None, *, newest_only: bool = False) -> Path | None:
    """The most recent unfinished game (a game resumed into a newer file is skipped). Why each newer
    game that cannot be resumed was passed over is added to ``passed_over``: a player must not take
    an older game for the one they last played. A game left before its first move is taken only
    when no other is unfinished, and never with ``newest_only``: then only the last game played at
    all (after a game finished since, an older unfinished one is no longer "your last game")."""
    empty = None  # the newest game left before its first move
    for path in _saved_games():
        try:
            resumed = load_journal(path)
            if not resumed.finished and not resumed.game.actions:
                empty = empty or path
                continue
            if not resumed.finished:
                return path
        except JournalError as exc:
            if passed_over is not None:
                passed_over.append(exc)
        if newest_only:
            return None
    return None if newest_only else empty


def unfinished_games() -> list[tuple[Path, Resumed]]:
    """Every saved game that can be carried on and has a move, the last played first."""
    found = []
    for path in _saved_games():
        try:
            resumed = load_journal(path)
        except JournalError:
            continue
        if not resumed.finished and not resumed.game.over and resumed.game.actions:
            found.append((path, resumed))
    return found


def _saved_games() -> list[Path]:
    """The journals in the games folder, the last written first, without those carried on in a newer
    file and those a full disk left empty."""
    folder = data_dir() / "games"
    if not folder.is_dir():
        return []
    paths = sorted(folder.glob("*.jsonl"), key=_modified, reverse=True)
    superseded = {_header(path).get("resumed_from") for path in paths}
    return [path for path in paths if path.name not in superseded and not _empty(path)]


def _empty(path: Path) -> bool:
    """An empty file is a game whose start could not be saved (a full disk): nothing to carry on."""
    try:
        return path.stat().st_size == 0
    except OSError:
        return False


def _modified(path: Path) -> float:
    """When ``path`` was last written; long ago for a file gone meanwhile or a broken link."""
    try:
        return path.stat().st_mtime
    except OSError:
        return -math.inf


def _header(path: Path) -> dict[str, Any]:
    """The first line of a journal, or {} when it cannot be read as one."""
    try:
        with path.open(encoding="utf-8") as file:
            header = json.loads(file.readline())
    except (json.JSONDecodeError, OSError, UnicodeDecodeError):
        return {}
    return header if isinstance(header, dict) else {}
