"""Built-in packs (names, sizes, spoken names per language) and the validation of a user's pack file."""

from __future__ import annotations

import re

import pytest

from helpers import check_quotes, pack_toml, seed, write_pack
from voicegame.decks import Deck, DeckError, builtin_decks, load_deck
from voicegame.engine import Ask, Game, profile

JAQUES_NAMES = [
    "Bones the Butcher", "Bun the Baker", "Bung the Brewer", "Chip the Carpenter", "Dip the Dyer",
    "Dose the Doctor", "Grits the Grocer", "Mug the Milkman", "Pots the Painter", "Soot the Sweep",
    "Tape the Tailor",
]
SPORTING_NAMES = [
    "Back the Footballer", "Carr the Motorist", "Duck the Cricketer", "Mike the Announcer", "Pug the Boxer",
    "Putt the Golfer", "Salt the Boatman", "Snap the Photographer", "Strong the Weight Lifter",
    "Swift the Runner", "Weed the Gardener", "Wing the Airman",
]


def test_quotes_are_verbatim():
    assert check_quotes(globals()) >= 6


def test_builtin_decks():
    assert {"jaques", "sporting", "letters", "standard"} <= set(builtin_decks())
    for name in builtin_decks():
        deck = load_deck(name)
        assert isinstance(deck, Deck) and deck.name == name and deck.source == name
        assert len(deck.cards) == len(deck.families) * deck.family_size
        assert "en" in deck.languages


# ------------------------------------------------------------------ jaques


@seed("000", "Use a dedicated 44-card set with 11 families of 4 members")
def test_jaques_has_the_eleven_original_families():
    deck = load_deck("jaques")
    assert [f.name() for f in deck.families] == JAQUES_NAMES
    assert len(deck.cards) == 44
    assert deck.members == ("mr", "mrs", "master", "miss")
    assert [f.key for f in deck.families] == [n.split()[0].lower() for n in JAQUES_NAMES]


def test_jaques_english_names():
    deck = load_deck("jaques")
    bun = deck.family("bun")
    assert (bun.name(), bun.name(form="surname"), bun.name(form="plural")) == ("Bun the Baker", "Bun", "Buns")
    assert [c.name() for c in bun.cards] == [
        "Mr. Bun the Baker", "Mrs. Bun the Baker's Wife", "Master Bun the Baker's Son", "Miss Bun the Baker's Daughter"]
    assert [c.name(form="short") for c in bun.cards] == ["Mr. Bun", "Mrs. Bun", "Master Bun", "Miss Bun"]
    assert deck.card("tape:miss").name() == "Miss Tape the Tailor's Daughter"


@seed("004", "De familienamen zijn beroepsmatige woordspelingen: Meneer Brood de Bakker, Meneer Schaaf de"
             " Timmerman, Meneer Potten de Schilder, Mevrouw Botten de Vrouw van de Slager, Juffrouw Dosis de"
             " Dochter van de Dokter, enzovoort.")
def test_jaques_dutch_names_follow_seed_004():
    deck = load_deck("jaques")
    assert "nl" in deck.languages
    assert deck.card("bun:mr").name("nl") == "Meneer Brood de Bakker"
    assert deck.card("bun:mr").name("nl", "short") == "Meneer Brood"
    assert deck.card("chip:mr").name("nl") == "Meneer Schaaf de Timmerman"
    assert deck.card("pots:mr").name("nl") == "Meneer Potten de Schilder"
    assert deck.card("bones:mrs").name("nl") == "Mevrouw Botten de Vrouw van de Slager"
    assert deck.card("dose:miss").name("nl") == "Juffrouw Dosis de Dochter van de Dokter"
    assert deck.family("bun").name("nl") == "Brood de Bakker"
    assert deck.family("bun").name("nl", "plural") == "Broden"


@seed("004", "De leden zijn gelabeld en geïllustreerd als: Meneer (de vader, de vakman), Mevrouw (de moeder), Jonge"
             " Meneer (de zoon) en Juffrouw (de dochter).")
def test_dutch_member_titles():
    deck = load_deck("jaques")
    for fam in deck.families:
        shorts = [c.name("nl", "short") for c in fam.cards]
        surname = fam.name("nl", "surname")
        assert shorts == [f"Meneer {surname}", f"Mevrouw {surname}", f"Jonge Meneer {surname}", f"Juffrouw {surname}"]


def test_missing_language_falls_back_to_english():
    deck = load_deck("letters")
    assert deck.card("a:3").name("nl") == deck.card("a:3").name("en") == "A3, family A number 3"
    assert deck.family("a").name("nl") == "Family A"


def test_three_generations_adds_grandparents():
    deck = load_deck("jaques", three_generations=True)
    assert deck.members == ("mr", "mrs", "master", "miss", "grandpa", "grandma") and len(deck.cards) == 66
    assert deck.card("soot:grandma").name("nl") == "Oma Stof de Moeder van de Schoorsteenveger"
    assert not load_deck("jaques").has_card("soot:grandma")
    with pytest.raises(DeckError):
        load_deck("letters", three_generations=True)


# ------------------------------------------------------------------ sporting, letters, standard


@seed("003", "played with a pack of 48 cards, comprising 12 families")
@seed("003", "Each family consists of Father, Mother, Son and Daughter.")
def test_sporting_has_the_twelve_families_of_the_rules_card():
    deck = load_deck("sporting")
    assert [f.name() for f in deck.families] == SPORTING_NAMES
    assert len(deck.cards) == 48
    assert deck.card("strong:mr").name(form="short") == "Mr. Strong"
    assert deck.card("strong:mr").name() == "Mr. Strong the Weight Lifter"
    assert deck.family("strong").name(form="plural") == "Strongs"
    assert profile("classic").deck == "sporting"


@seed("000", "Our original diagrams use neutral family letters A–K and roles 1, 2, 3, 4; these are"
             " identification labels, not ranks or point values.")
def test_letters_deck_a_to_k_roles_1_to_4():
    deck = load_deck("letters")
    assert [f.key for f in deck.families] == list("abcdefghijk")
    assert deck.members == ("1", "2", "3", "4")
    assert [c.id for c in deck.family("a").cards] == ["a:1", "a:2", "a:3", "a:4"]
    assert deck.card("k:4").name(form="short") == "K4"
    assert [c.name(form="short") for c in deck.cards][:5] == ["A1", "A2", "A3", "A4", "B1"]


@seed("004", "Voor huishoudens zonder een speciaal spel kan een standaard spel van 52 kaarten worden gebruikt,"
             " waarbij elke waarde (Azen, Tweeën, Drieën, enzovoort) een familie van vier vormt; alle 13 waarden"
             " samen geven 52 kaarten, oftewel 13 families.")
def test_standard_52_ranks_are_families():
    deck = load_deck("standard")
    assert len(deck.families) == 13 and len(deck.cards) == 52
    assert deck.members == ("spades", "hearts", "diamonds", "clubs")
    assert deck.card("ace:spades").name() == "Ace of Spades"
    assert deck.family("queen").name(form="plural") == "Queens"
    g = Game(["A", "B", "C"], rules=profile("guide"), deck=deck, seed=1)
    assert sum(g.log[0]["hand_sizes"].values()) == 52


def test_card_ids_and_indices():
    for name in builtin_decks():
        deck = load_deck(name)
        m = deck.family_size
        for f, fam in enumerate(deck.families):
            assert fam.index == f
            for k, card in enumerate(fam.cards):
                assert card.id == f"{fam.key}:{card.member}" and card.family == fam.key
                assert card.index == f * m + k
                assert deck.card(card.id) is card and deck.has_card(card.id)
        assert not deck.has_card("nope:nope") and not deck.has_family("nope")


def test_spoken_names_are_unique_per_language():
    for name in builtin_decks():
        deck = load_deck(name, three_generations=name in ("jaques", "sporting"))
        for lang in deck.languages:
            for form in ("full", "short"):
                spoken = [c.name(lang, form).casefold() for c in deck.cards]
                assert len(set(spoken)) == len(spoken), (name, lang, form)


def test_summary():
    s = load_deck("letters").summary()
    assert s["name"] == "letters" and s["families"][0] == "a" and s["cards"][:2] == ["a:1", "a:2"]
    assert s["members"] == ["1", "2", "3", "4"] and len(s["cards"]) == 44


# ------------------------------------------------------------------ user packs


def test_valid_user_pack_loads_and_plays(tmp_path):
    path = write_pack(tmp_path, families=5)
    deck = load_deck(str(path))
    assert deck.name == "tiny" and deck.source == str(path) and len(deck.cards) == 20
    assert deck.card("f2:q").name(form="short") == "Q2"
    g = Game(["Alice", "Ben"], rules=profile("guide"), deck=deck, seed=3)
    assert g.position()["deck"] == str(path)
    # a position and a saved game naming the pack file load again
    assert Game.from_position(g.position()).position() == g.position()
    assert Game.from_json(g.to_json()).position() == g.position()


def test_user_pack_with_extended_members(tmp_path):
    path = write_pack(tmp_path, families=3, members=("p", "q", "r", "s", "gp", "gm"), extended=("gp", "gm"))
    assert load_deck(str(path)).family_size == 4
    assert load_deck(str(path), three_generations=True).family_size == 6


def _broken(tmp_path, old: str, new: str, count: int = 1) -> str:
    text = pack_toml(families=3)
    assert old in text
    path = write_pack(tmp_path, text.replace(old, new, count))
    return str(path)


@pytest.mark.parametrize(
    "old, new, count, words",
    [
        ('short = "P1"', 'short = "P0"', 1, "share the name"),  # two cards share a spoken name
        ('full = "P of family 1"', 'full = "P of family 0"', 1, "share the name"),
        ('key = "f1"', 'key = "f0"', 1, "duplicate family key"),
        ('members = ["p", "q", "r", "s"]', 'members = ["p", "q", "r", "s", "t"]', 1, "exactly 5"),
        ('members = ["p", "q", "r", "s"]', 'members = ["p", "q", "r"]', 1, "exactly 3"),
        ('members = ["p", "q", "r", "s"]', 'members = ["p", "q", "q", "s"]', 1, "duplicate"),
        ('name = "tiny"\n', "", 1, "missing field 'name'"),
        ('members = ["p", "q", "r", "s"]\n', "", 1, "missing field 'members'"),
        ('key = "f1"\n', "", 1, "no 'key'"),
        ('en = { name = "Family 2", surname = "F2", plural = "F2s" }\n', "", 1, "no en name"),
        (', short = "R2" }', " }", 1, "a full and a short name"),
        ('languages = ["en"]', 'languages = ["nl"]', 1, "English"),
        ('languages = ["en"]', 'languages = ["en", "nl"]', 1, "no nl name"),
        ('key = "f1"', 'key = "f:1"', 1, "plain word"),
    ],
)
def test_user_pack_validation_errors(tmp_path, old, new, count, words):
    path = _broken(tmp_path, old, new, count)
    with pytest.raises(DeckError) as err:
        load_deck(path)
    assert path in str(err.value)
    assert words.casefold() in str(err.value).casefold()


@pytest.mark.parametrize(
    "old, new, words",
    [
        ('name = "tiny"', "name = 5", 'name must be text in quotes, such as name = "pets".'),
        ('members = ["p", "q", "r", "s"]', 'members = "pqrs"', "members must be a list of names in quotes"),
        ('members = ["p", "q", "r", "s"]', "members = [1, 2, 3, 4]", "members must be a list of names in quotes"),
        ('members = ["p", "q", "r", "s"]', "members = []", "at least one member"),
        ('languages = ["en"]', 'languages = "en"', "languages must be a list of names in quotes"),
        ('key = "f1"', "key = 1", "the key of family 2 must be text in quotes"),
        ('en = { name = "Family 1", surname = "F1", plural = "F1s" }', 'en = "Family 1"',
         "family 'f1': en must be a table of names"),
        ('en = { name = "Family 1", surname = "F1", plural = "F1s" }', 'en = { name = " " }',
         "the en name of family 'f1' must be text in quotes"),
        ('en = { full = "Q of family 1", short = "Q1" }', 'en = "Q1"', "card f1:q needs a full and a short name in en"),
        ('en = { full = "Q of family 1", short = "Q1" }', 'en = { full = "Q of family 1", short = 7 }',
         "card f1:q needs a full and a short name in en"),
        ('short = "Q1"', 'short = ""', "card f1:q has an empty en short name: give it a name a player can say."),
    ],
)
def test_user_pack_type_mistakes_say_what_to_fix_and_where(tmp_path, old, new, words):
    path = _broken(tmp_path, old, new)
    with pytest.raises(DeckError) as err:
        load_deck(path)
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value)


def test_user_pack_families_not_written_as_a_list_of_tables(tmp_path):
    one_family = pack_toml(families=1)
    head = one_family[: one_family.index("[[family]]")]
    cases = {
        one_family.replace("[[family]]", "[family]"): "write each family under its own [[family]] heading",
        head + 'family = ["f0", "f1"]\n': "family 1 must be a table with a key, names and cards",
        head + '[[family]]\nkey = "f0"\nen = { name = "F0" }\ncards = { p = "x", q = "x", r = "x", s = "x" }\n':
            "card f0:p needs a full and a short name in en",
    }
    for text, words in cases.items():
        with pytest.raises(DeckError, match=re.escape(words)):
            load_deck(str(write_pack(tmp_path, text)))


def test_user_pack_that_is_not_utf8(tmp_path):
    path = write_pack(tmp_path, pack_toml().replace("Family 0", "Famille \u00e9"))
    path.write_bytes(path.read_text("utf-8").encode("latin-1"))
    with pytest.raises(DeckError, match="not UTF-8 text: save it again with the UTF-8 encoding"):
        load_deck(str(path))


def test_user_pack_wrong_family_size(tmp_path):
    text = pack_toml(families=3)
    cut = text.index("[family.cards.s]", text.index('key = "f1"'))
    end = text.index("\n", text.index("\n", cut) + 1) + 1
    path = write_pack(tmp_path, text[:cut] + text[end:])
    with pytest.raises(DeckError) as err:
        load_deck(str(path))
    message = str(err.value)
    assert "'f1'" in message and "has 3 cards" in message and "missing s" in message


def test_user_pack_family_of_one_card_says_card(tmp_path):
    text = pack_toml(families=3, members=("p", "q"))
    cut = text.index("[family.cards.q]", text.index('key = "f1"'))
    end = text.index("\n", text.index("\n", cut) + 1) + 1
    with pytest.raises(DeckError, match="family 'f1' has 1 card but every family needs exactly 2"):
        load_deck(str(write_pack(tmp_path, text[:cut] + text[end:])))


def test_user_pack_unknown_member(tmp_path):
    text = pack_toml(families=3).replace("[family.cards.s]", "[family.cards.t]", 1)
    with pytest.raises(DeckError) as err:
        load_deck(str(write_pack(tmp_path, text)))
    assert "unknown t" in str(err.value) and "missing s" in str(err.value)


def test_user_pack_too_few_families(tmp_path):
    with pytest.raises(DeckError) as err:
        load_deck(str(write_pack(tmp_path, families=1)))
    assert "at least 2 families" in str(err.value)


def test_user_pack_bad_toml(tmp_path):
    path = write_pack(tmp_path, 'name = "broken\nmembers = [1, 2\n')
    with pytest.raises(DeckError) as err:
        load_deck(str(path))
    assert "not valid TOML" in str(err.value) and str(path) in str(err.value)


def test_user_pack_extended_members_must_be_members(tmp_path):
    text = pack_toml(families=3).replace('languages = ["en"]', 'languages = ["en"]\nextended_members = ["zz"]')
    with pytest.raises(DeckError) as err:
        load_deck(str(write_pack(tmp_path, text)))
    assert "extended_members" in str(err.value)
    with pytest.raises(DeckError) as err:
        load_deck(str(write_pack(tmp_path, filename="plain.toml", families=3)), three_generations=True)
    assert "extended members" in str(err.value)


def test_unknown_deck_name_or_path(tmp_path):
    with pytest.raises(DeckError) as err:
        load_deck("nosuchdeck")
    assert "jaques" in str(err.value)  # the message lists the built-in decks
    with pytest.raises(DeckError):
        load_deck(str(tmp_path / "missing.toml"))
    other = tmp_path / "pack.txt"
    other.write_text(pack_toml(), "utf-8")
    with pytest.raises(DeckError):
        load_deck(str(other))


def test_user_pack_game_asks_by_its_own_ids(tmp_path):
    deck = load_deck(str(write_pack(tmp_path, families=4)))
    g = Game(["Alice", "Ben"], rules=profile("guide"), deck=deck, seed=2)
    legal = g.legal_actions()
    assert legal and all(isinstance(a, Ask) and deck.has_card(a.card) for a in legal)
