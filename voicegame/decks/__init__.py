"""Card packs: families, members and the names people say for them.

A pack is a TOML file (built-in ones live in ``voicegame/decks/data``). Card ids are
``family:member`` (``bun:mrs``); every card carries a full and a short spoken name per
language, which the narration and the speech grammar are built from.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Card", "Deck", "DeckError", "Family", "builtin_decks", "load_deck"]


class DeckError(ValueError):
    """A pack file that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Card:
    id: str
    family: str
    member: str
    index: int
    names: dict[str, dict[str, str]] = field(compare=False, repr=False)

    def name(self, lang: str = "en", form: str = "full") -> str:
        """Spoken name, ``form`` = "full" ("Mrs. Bun the Baker's Wife") or "short" ("Mrs. Bun")."""
        return self.names.get(lang, self.names["en"])[form]


@dataclass(frozen=True)
class Family:
    key: str
    index: int
    cards: tuple[Card, ...]
    names: dict[str, dict[str, str]] = field(compare=False, repr=False)

    def name(self, lang: str = "en", form: str = "name") -> str:
        """``form`` = "name" ("Bun the Baker"), "surname" ("Bun"), "plural" ("Buns") or "trade" ("Baker";
        "" for a family without one)."""
        names = self.names.get(lang, self.names["en"])
        if form == "trade":
            return names.get("trade", "")
        return names.get(form) or names["name"]


@dataclass(frozen=True)
class Deck:
    """An immutable pack. Cards are indexed family by family, so family ``f`` of size ``m``
    holds card indices ``f*m .. f*m+m-1``; the engine uses these indices as bit positions."""

    name: str
    title: str
    languages: tuple[str, ...]
    members: tuple[str, ...]
    families: tuple[Family, ...]
    source: str = field(compare=False)
    # A user's pack as read (None for a built-in one): a saved game keeps it, so that the game can be
    # carried on after the pack's file was edited or moved.
    pack: str | None = field(default=None, compare=False, repr=False)

    @property
    def cards(self) -> tuple[Card, ...]:
        cache = self.__dict__.get("_cards_tuple")
        if cache is None:
            cache = tuple(c for f in self.families for c in f.cards)
            object.__setattr__(self, "_cards_tuple", cache)
        return cache

    @property
    def family_size(self) -> int:
        return len(self.members)

    def card(self, card_id: str) -> Card:
        return self._card_by_id()[card_id]

    def family(self, key: str) -> Family:
        return self._family_by_key()[key]

    def has_card(self, card_id: str) -> bool:
        return card_id in self._card_by_id()

    def has_family(self, key: str) -> bool:
        return key in self._family_by_key()

    def _card_by_id(self) -> dict[str, Card]:
        cache = self.__dict__.get("_cards_cache")
        if cache is None:
            cache = {c.id: c for c in self.cards}
            object.__setattr__(self, "_cards_cache", cache)
        return cache

    def _family_by_key(self) -> dict[str, Family]:
        cache = self.__dict__.get("_families_cache")
        if cache is None:
            cache = {f.key: f for f in self.families}
            object.__setattr__(self, "_families_cache", cache)
        return cache

    def summary(self) -> dict:
        """The ``voicegame decks --json`` entry."""
        return {
            "name": self.name,
            "title": self.title,
            "languages": list(self.languages),
            "families": [f.key for f in self.families],
            "members": list(self.members),
            "cards": [c.id for c in self.cards],
        }


@functools.cache
def builtin_decks() -> tuple[str, ...]:
    data = resources.files("voicegame.decks") / "data"
    return tuple(sorted(p.name[: -len(".toml")] for p in data.iterdir() if p.name.endswith(".toml")))


def load_deck(name_or_path: str, *, three_generations: bool = False, pack: str | None = None) -> Deck:
    """Load a built-in pack by name, or a user's pack from a ``.toml`` path (or from ``pack``, its
    text as a saved game kept it; the path then only names it).

    ``three_generations`` keeps the pack's extended members (Grandpa, Grandma); without it
    they are left out, giving the usual families of 4.
    """
    if pack is None and name_or_path in builtin_decks():
        return _load_builtin(name_or_path, three_generations)
    path = Path(name_or_path)
    source = str(path)
    if pack is None:
        if path.suffix != ".toml" or not path.is_file():
            raise DeckError(
                f"There is no deck called {name_or_path!r}. Built-in decks: {', '.join(builtin_decks())};"
                " or give the path of a .toml pack file."
            )
        try:
            pack = path.read_text("utf-8")
        except UnicodeDecodeError:
            raise DeckError(f"{source}: the file is not UTF-8 text: save it again with the UTF-8 encoding.") from None
        except OSError as exc:
            raise DeckError(f"{source}: the file cannot be read ({exc.strerror}).") from None
    try:
        data = tomllib.loads(pack)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source}: not valid TOML ({exc}).") from None
    return replace(_parse(data, source, three_generations), pack=pack)


@functools.cache
def _load_builtin(name: str, three_generations: bool) -> Deck:
    text = (resources.files("voicegame.decks") / "data" / f"{name}.toml").read_text("utf-8")
    return _parse(tomllib.loads(text), name, three_generations)


def _parse(data: dict, source: str, three_generations: bool) -> Deck:
    """Check the pack as it is read, so that every mistake, wrong kinds of value included, is reported as
    one sentence saying what to write and where, rather than failing later."""

    def fail(msg: str) -> DeckError:
        return DeckError(f"{source}: {msg}")

    def text(value: Any, what: str, example: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise fail(f"{what} must be text in quotes, such as {example}.")
        return value

    def names_list(key: str, example: str, default: list[str] | None = None) -> list[str]:
        value = data.get(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise fail(f"{key} must be a list of names in quotes, such as {key} = {example}.")
        return value

    for key in ("name", "members", "family"):
        if key not in data:
            raise fail(f"missing field {key!r}.")
    name = text(data["name"], "name", 'name = "pets"')
    title = text(data.get("title", name), "title", 'title = "Pets and their people"')
    members = names_list("members", '["mr", "mrs", "master", "miss"]')
    if not members:
        raise fail('members must name at least one member, such as members = ["mr", "mrs", "master", "miss"].')
    if len(set(members)) != len(members):
        raise fail("the members list has a duplicate.")
    extended = names_list("extended_members", '["grandpa", "grandma"]', [])
    if not set(extended) <= set(members):
        raise fail("extended_members must all be listed in members.")
    if three_generations and not extended:
        raise fail("this deck has no extended members (grandpa, grandma) for families of 6.")
    in_play = [m for m in members if three_generations or m not in extended]
    languages = tuple(names_list("languages", '["en", "nl"]', ["en"]))
    if "en" not in languages:
        raise fail("every deck needs English names (languages must include 'en').")
    if not isinstance(data["family"], list):
        raise fail("write each family under its own [[family]] heading, with double square brackets.")

    families: list[Family] = []
    seen_keys: set[str] = set()
    seen_names: dict[tuple[str, str], str] = {}
    index = 0
    for fi, fam in enumerate(data["family"]):
        where = f"family {fi + 1}"
        if not isinstance(fam, dict):
            raise fail(f"{where} must be a table with a key, names and cards, under a [[family]] heading.")
        if "key" not in fam:
            raise fail(f"{where} has no 'key'.")
        fkey = text(fam["key"], f"the key of {where}", 'key = "bun"')
        where = f"family {fkey!r}"
        if fkey in seen_keys:
            raise fail(f"duplicate family key {fkey!r}.")
        if ":" in fkey:
            raise fail(f"{where}: a family key must be a plain word.")
        seen_keys.add(fkey)
        fnames = {}
        for lang in languages:
            if lang not in fam:
                raise fail(f"{where} has no {lang} name.")
            given_names = fam[lang]
            if not isinstance(given_names, dict) or not all(isinstance(v, str) for v in given_names.values()):
                raise fail(f'{where}: {lang} must be a table of names in quotes, such as'
                           f' {lang} = {{ name = "Bun the Baker", surname = "Bun", plural = "Buns" }}.')
            if "name" not in given_names:
                raise fail(f"{where} has no {lang} name.")
            text(given_names["name"], f"the {lang} name of {where}", 'name = "Bun the Baker"')
            fnames[lang] = dict(given_names)
        cards_data = fam.get("cards", {})
        if not isinstance(cards_data, dict):
            raise fail(f"{where}: give each card under its own heading, such as [family.cards.{members[0]}].")
        given = list(cards_data)
        if set(given) != set(members) or len(given) != len(members):
            missing = [m for m in members if m not in given]
            extra = [m for m in given if m not in members]
            detail = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
            raise fail(
                f"{where} has {len(given)} card{'' if len(given) == 1 else 's'} but every family needs exactly"
                f" {len(members)}"
                f" ({', '.join(members)}): {detail}."
            )
        cards = []
        for m in in_play:
            cid = f"{fkey}:{m}"
            cnames = {}
            for lang in languages:
                card_data = cards_data[m]
                entry = card_data.get(lang) if isinstance(card_data, dict) else None
                if not isinstance(entry, dict) or not all(isinstance(entry.get(f), str) for f in ("full", "short")):
                    raise fail(f'card {cid} needs a full and a short name in {lang}, such as'
                               f' {lang} = {{ full = "Mr. Bun the Baker", short = "Mr. Bun" }}.')
                cnames[lang] = {"full": entry["full"], "short": entry["short"]}
                for form in ("full", "short"):
                    if not cnames[lang][form].strip():
                        raise fail(f"card {cid} has an empty {lang} {form} name: give it a name a player can say.")
                    spoken = cnames[lang][form].casefold()
                    other = seen_names.get((lang, spoken))
                    if other and other != cid:
                        raise fail(f"cards {other} and {cid} share the name {cnames[lang][form]!r}.")
                    seen_names[(lang, spoken)] = cid
            cards.append(Card(cid, fkey, m, index, cnames))
            index += 1
        families.append(Family(fkey, fi, tuple(cards), fnames))
    if len(families) < 2:
        raise fail("a deck needs at least 2 families.")
    return Deck(
        name=name,
        title=title,
        languages=languages,
        members=tuple(in_play),
        families=tuple(families),
        source=source,
    )
