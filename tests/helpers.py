"""Shared helpers for the rules tests: hand-written positions, seed quotations, snapshots.

``build`` turns a short description of the cards that matter into a full, loadable position:
every card not mentioned is put somewhere harmless (whole families already scored, the rest of a
half-mentioned family in a named player's hand), because ``Game.from_position`` insists that every
card of the deck is placed.
"""

from __future__ import annotations

import collections
import copy
import re
from pathlib import Path
from typing import Any, Callable, Iterable

from voicegame.decks import load_deck
from voicegame.engine import Game, Rules

SEED_FILES = {
    "000": "000_ab38d099da660292.txt",  # modern guide -> profile "guide"
    "003": "003_6fcb5c6116c81b7b.txt",  # old rules card -> profile "classic"
    "004": "004_ef6300b1ede6b96f.txt",  # Dutch description -> profile "dutch"
}


# --------------------------------------------------------------------------- seed quotations


def seed(number: str, quote: str) -> Callable:
    """Mark a test with the seed sentence it checks; the quote becomes the start of its docstring.

    ``test_quotes_are_verbatim`` in each rules module checks the quotes against the seed texts.
    """

    def mark(fn: Callable) -> Callable:
        quotes = list(getattr(fn, "seed_quotes", []))
        quotes.append((number, quote))
        fn.seed_quotes = quotes
        fn.__doc__ = f'Seed {number}: "{quote}"' + (f"\n\n{fn.__doc__}" if fn.__doc__ else "")
        return fn

    return mark


def _normalise(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip().casefold()


def seed_dir() -> Path | None:
    here = Path(__file__).resolve()
    for base in [*here.parents, Path("/work")]:
        candidate = base / "shared" / "seeds"
        if (candidate / SEED_FILES["000"]).is_file():
            return candidate
    return None


def check_quotes(namespace: dict[str, Any]) -> int:
    """Assert every ``@seed`` quote in a test module occurs verbatim in its seed text. Returns the count."""
    import pytest

    folder = seed_dir()
    if folder is None:
        pytest.skip("the seed texts (shared/seeds) are not beside this checkout")
    texts = {n: _normalise((folder / f).read_text("utf-8")) for n, f in SEED_FILES.items()}
    count = 0
    for name, obj in namespace.items():
        for number, quote in getattr(obj, "seed_quotes", []):
            assert _normalise(quote) in texts[number], f"{name}: not in seed {number}: {quote!r}"
            count += 1
    return count


# --------------------------------------------------------------------------- positions


def build(
    hands: dict[str, list[str]],
    *,
    players: Iterable[str] | None = None,
    deck: str = "letters",
    rules: str | dict[str, Any] = "guide",
    turn: str | None = None,
    families: dict[str, list[str]] | None = None,
    spare: str | None = None,
    spare_families: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A complete position from the cards that matter.

    ``hands`` and ``families`` give the cards the test is about. Every family nobody mentions is
    scored by ``spare_families`` (default ``spare``, else the last player); the unmentioned rest of a
    mentioned family goes into ``spare``'s hand. ``extra`` (stock, centre, round, totals, ...) is copied in.
    """
    players = list(players) if players is not None else list(hands)
    families = {p: list(families.get(p, [])) if families else [] for p in players}
    hands = {p: list(hands.get(p, [])) for p in players}
    three = Rules.from_json(rules).three_generations
    d = load_deck(deck, three_generations=three)
    mentioned: set[str] = set()
    for cards in hands.values():
        mentioned.update(cards)
    for key in ("stock", "centre"):
        mentioned.update(c for c in extra.get(key, []) if c)
    scored = {f for fs in families.values() for f in fs}
    owner = spare_families or spare or players[-1]
    for fam in d.families:
        if fam.key in scored:
            continue
        ids = [c.id for c in fam.cards]
        if not mentioned & set(ids):
            families[owner].append(fam.key)
            continue
        rest = [c for c in ids if c not in mentioned]
        if rest:
            if spare is None:
                raise ValueError(f"cards {rest} are not placed: name a spare player")
            hands[spare].extend(rest)
            if all(c in hands[spare] for c in ids):
                raise ValueError(f"{spare} would hold the whole {fam.key} family")
    pos: dict[str, Any] = {
        "deck": deck,
        "rules": rules,
        "players": players,
        "hands": hands,
        "families": families,
        "turn": turn or players[0],
        "phase": extra.pop("phase", "cards"),
    }
    pos.update(extra)
    return pos


def game(hands: dict[str, list[str]], **kwargs: Any) -> Game:
    """``Game.from_position(build(...))``; ``seed`` is passed to from_position."""
    seed_value = kwargs.pop("seed", 0)
    return Game.from_position(build(hands, **kwargs), seed=seed_value)


def letters(text: str) -> list[str]:
    """"A1 A2 B4" -> ["a:1", "a:2", "b:4"] (the teaching labels of seed 000)."""
    return [f"{w[0].lower()}:{w[1:]}" for w in text.split()]


# --------------------------------------------------------------------------- inspection


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def snapshot(g: Game) -> tuple[Any, ...]:
    """Everything a refused action or an undo must leave exactly as it was."""
    return (
        g.position(),
        copy.deepcopy(g.log),
        list(g.actions),
        g.current_player,
        g.over,
        list(g.winners),
        g.legal_actions(),
    )


def card_census(g: Game) -> collections.Counter:
    """How many times each card id appears across hands, scored families, stock and centre."""
    pos = g.position()
    seen: collections.Counter = collections.Counter()
    for cards in pos["hands"].values():
        seen.update(cards)
    for keys in pos["families"].values():
        for key in keys:
            seen.update(c.id for c in g.deck.family(key).cards)
    seen.update(pos.get("stock", []))
    seen.update(c for c in pos.get("centre", []) if c is not None)
    return seen


def assert_cards_conserved(g: Game) -> None:
    census = card_census(g)
    everything = [c.id for c in g.deck.cards]
    assert sorted(census) == sorted(everything), "a card appeared or vanished"
    doubled = [c for c, n in census.items() if n != 1]
    assert not doubled, f"cards in two places: {doubled}"


def play_out(g: Game, choose: Callable[[list], Any], max_steps: int = 20_000) -> int:
    """Apply ``choose(legal_actions)`` until the game ends; return the number of actions applied."""
    steps = 0
    while not g.over and steps < max_steps:
        legal = g.legal_actions()
        assert legal, f"{g.current_player} has no legal action but the game is not over: {g.position()}"
        g.apply(choose(legal))
        steps += 1
    return steps


# --------------------------------------------------------------------------- user packs


def pack_toml(
    families: int = 3,
    members: tuple[str, ...] = ("p", "q", "r", "s"),
    *,
    name: str = "tiny",
    extended: tuple[str, ...] = (),
) -> str:
    """The text of a valid small pack: families f0, f1, ... with the given members."""
    lines = [f'name = "{name}"', f'title = "A {name} test pack"', 'languages = ["en"]',
             "members = [" + ", ".join(f'"{m}"' for m in members) + "]"]
    if extended:
        lines.append("extended_members = [" + ", ".join(f'"{m}"' for m in extended) + "]")
    for i in range(families):
        lines += ["", "[[family]]", f'key = "f{i}"',
                  f'en = {{ name = "Family {i}", surname = "F{i}", plural = "F{i}s" }}']
        for m in members:
            lines += [f"[family.cards.{m}]", f'en = {{ full = "{m.upper()} of family {i}", short = "{m.upper()}{i}" }}']
    return "\n".join(lines) + "\n"


def write_pack(folder: Path, text: str | None = None, filename: str = "pack.toml", **kwargs: Any) -> Path:
    path = Path(folder) / filename
    path.write_text(pack_toml(**kwargs) if text is None else text, "utf-8")
    return path


# --------------------------------------------------------------------------- a stand-in sound card
# These machines have no sound card, so the code between PortAudio and the game (choosing and opening
# devices, the callback's queue, resampling, a device that stops) runs against a stand-in for the
# sounddevice module that takes and gives real audio through the same calls.


class PortAudioError(Exception):
    pass


class StandInCard:
    """The sounddevice calls the game makes, for a card with ``devices`` (name, input channels, output
    channels; ``default``: the default input and output, -1 for none). Its microphones record only at
    ``rate``, their blocks taken from ``recording`` until it runs out or ``stall_after`` blocks (then
    silence from PortAudio, as from a device unplugged). Its outputs record in ``opened`` the device
    each stream was opened on and count their ``written`` blocks; they fail after ``output_blocks``
    writes, or stop taking audio (a write that returns only once ``unplug`` is set) after
    ``output_stall``; with ``real_time`` they take audio only as fast as they play it."""

    PortAudioError = PortAudioError

    def __init__(self, devices: list[tuple[str, int, int]] | None = None, default: tuple[int, int] = (0, 1), *,
                 rate: int = 48000, recording=None, stall_after: int | None = None, output_blocks: int | None = None,
                 output_stall: int | None = None, real_time: bool = False) -> None:
        import threading
        import time
        from types import SimpleNamespace

        self.devices = [("USB microphone", 1, 0), ("Speakers", 0, 2)] if devices is None else devices
        self.default = SimpleNamespace(device=list(default))
        self.rate, self.recording, self.stall_after = rate, recording, stall_after
        self.output_blocks, self.output_stall, self.real_time = output_blocks, output_stall, real_time
        self.unplug = threading.Event()
        self.opened: list[int] = []
        self.written = 0
        card = self

        class RawInputStream:
            def __init__(self, samplerate, blocksize, device, channels, dtype, callback, finished_callback):
                if samplerate != card.rate:
                    raise PortAudioError("Invalid sample rate")
                self.blocksize, self.callback, self._stop = blocksize, callback, threading.Event()

            def start(self):
                threading.Thread(target=self._run, daemon=True).start()

            def _run(self):
                status = SimpleNamespace(input_overflow=False)
                x, n = card.recording, self.blocksize
                for k, i in enumerate(range(0, len(x) - n + 1, n)):
                    if self._stop.is_set() or k == card.stall_after:
                        return  # a device unplugged: no more blocks, and no word from PortAudio
                    self.callback(x[i:i + n].astype("<i2").tobytes(), n, None, status)

            def abort(self):
                self._stop.set()

            def close(self):
                pass

        class RawOutputStream:
            def __init__(self, samplerate, channels, dtype, device):
                self.samplerate = samplerate
                card.opened.append(device)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def write(self, data):
                if card.output_blocks is not None and card.written >= card.output_blocks:
                    raise PortAudioError("Unanticipated host error")
                if card.written == card.output_stall:
                    card.unplug.wait()
                if card.real_time:
                    time.sleep(len(data) / 2 / self.samplerate)
                card.written += 1

            def abort(self):
                pass

        self.RawInputStream, self.RawOutputStream = RawInputStream, RawOutputStream

    def query_devices(self):
        return [{"index": i, "name": name, "max_input_channels": inputs, "max_output_channels": outputs,
                 "default_samplerate": float(self.rate if inputs else 48000)}
                for i, (name, inputs, outputs) in enumerate(self.devices)]


# --------------------------------------------------------------------------- optional speech packages


def sounddevice_or_skip():
    """The sounddevice module, or skip the test. sounddevice raises OSError, not ImportError, when
    libportaudio2 is missing."""
    import pytest

    try:
        import sounddevice
    except (ImportError, OSError):
        pytest.skip("pip install sounddevice; apt-get install libportaudio2")
    return sounddevice


def steady_recognizer(**kwargs: Any):
    """A ``PocketSphinxRecognizer(**kwargs)`` that never switches its denoised decoding off for
    being slow (``max_load`` infinite): a busy test machine must not change what a test hears
    mid-test. Tests of that fall-back set ``max_load`` themselves. Skips without pocketsphinx."""
    import pytest

    pytest.importorskip("pocketsphinx", reason="pip install pocketsphinx")
    from voicegame.speech.pocketsphinx_backend import PocketSphinxRecognizer

    recognizer = PocketSphinxRecognizer(**kwargs)
    recognizer.max_load = float("inf")
    return recognizer
