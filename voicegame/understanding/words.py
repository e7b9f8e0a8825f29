"""Turning text into comparable words, and scoring how alike two words sound.

Both sides, the card names and what was heard, go through ``normalize``, so "Mr.", "mister"
and "MR" are one word, "2" and "two" are one word, and "baker's" is "bakers".
"""

from __future__ import annotations

import functools
import re
import unicodedata

import jellyfish
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

__all__ = ["FUNCTION_WORDS", "SPOKEN", "SoundTable", "letters_rhyme", "normalize", "similarity", "spoken"]

_NUMBERS = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
            "8": "eight", "9": "nine", "10": "ten", "11": "eleven", "12": "twelve", "13": "thirteen"}
_ALIASES = {
    "mister": "mr", "missus": "mrs", "missis": "mrs", "misses": "mrs", "mistress": "mrs",
    "whats": "what is", "wheres": "where is", "whos": "who is", "its": "it is", "ive": "i have",
    "youve": "you have", "dont": "do not", "im": "i am", "thats": "that is", "lets": "let us",
    "mevr": "mevrouw", "dhr": "meneer", "mw": "mevrouw", "id": "i would", "youd": "you would", "ill": "i will",
    # Letters said as words (the letters deck): "bee two" is B2.
    "ay": "a", "bee": "b", "cee": "c", "see": "c", "sea": "c", "dee": "d", "ee": "e", "ef": "f", "eff": "f",
    "gee": "g", "aitch": "h", "haitch": "h", "jay": "j", "kay": "k",
    # Please as it is typed: "pls", "aub" (a.u.b.), and as children spell it.
    "pls": "please", "plz": "please", "pleas": "please", "aub": "alstublieft", "ajb": "alsjeblieft",
    "asjeblieft": "alsjeblieft", "alsjeblief": "alsjeblieft", "alstjeblieft": "alsjeblieft",
    "astublieft": "alstublieft", "alstublief": "alstublieft",
}
# How a canonical word is said, for the recognizer's word list.
SPOKEN = {"mr": "mister", "mrs": "missus"}
# Words that carry little meaning inside a name; dropping or mishearing them costs little.
FUNCTION_WORDS = frozenset({"the", "of", "a", "an", "de", "van", "het", "family", "number"})


@functools.lru_cache(maxsize=4096)
def normalize(text: str) -> tuple[str, ...]:
    # Accents and full-width letters (braille displays and input methods type them) fold away:
    # "Bén" is Ben, "Ｂｅｎ" too, as "Café" and "Cafe" are one name.
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = text.casefold().replace("’", "'").replace("'s", "s").replace("'", "")
    text = re.sub(r"\ba\.\s?([uj])\.\s?b\b\.?", r"a\1b", text)  # "a.u.b." is one word, "aub"
    words: list[str] = []
    for raw in re.findall(r"[^\W_]+", text):
        for part in re.findall(r"\d+|[^\W\d_]+", raw):  # "a1" -> "a", "1"
            part = _NUMBERS.get(part, part)
            words.extend(_ALIASES.get(part, part).split())
    return tuple(words)


def spoken(word: str) -> str:
    return SPOKEN.get(word, word)


# Pairs a recognizer confuses often (measured on these machines: Ben/Dan, Bun/Bung, Chip/Tape, Dip/Chip, Mr/Mrs/Miss).
_CONFUSION_PAIRS = [("bun", "bones"), ("bun", "bung"), ("ben", "dan"), ("chip", "tape"), ("dip", "chip"),
                                      ("mr", "mrs"), ("mrs", "miss"), ("mr", "miss"), ("pots", "pugs"),
                                      ("dip", "tip"), ("dose", "doze"), ("soot", "suit"), ("mug", "mog")]
_CONFUSIONS: dict[str, set[str]] = {}
for _a, _b in _CONFUSION_PAIRS:
    _CONFUSIONS.setdefault(_a, set()).add(_b)
    _CONFUSIONS.setdefault(_b, set()).add(_a)


@functools.lru_cache(maxsize=65536)
def similarity(a: str, b: str) -> float:
    """0..1: how likely a recognizer heard ``b`` when ``a`` was said (1 = the same word)."""
    if a == b:
        return 1.0
    best = Levenshtein.normalized_similarity(a, b)
    if a + "s" == b or b + "s" == a or a + "es" == b or b + "es" == a:
        best = max(best, 0.8)  # plural or possessive: "buns", "bakers"
    if len(a) > 1 and len(b) > 1 and _key(a) == _key(b):
        # Same sound key; words of very different length rarely get confused ("tissue" is not "dose").
        best = max(best, 0.7 if abs(len(a) - len(b)) <= 1 or a[0] == b[0] else 0.5)
    if b in _CONFUSIONS.get(a, ()):
        best = max(best, 0.6)
    return best


# Letters said alone ("Is E3 at home?") whose English names share their vowel differ by one consonant at
# most, which a recognizer misses with full confidence: "E3" heard surely as "c three", "A3" as "h three".
# A and I are swapped too ("the whole I family" heard surely as "a family"), though their vowels differ.
_LETTER_VOWELS = {letter: vowel for vowel, letters in {"ey": "ahjk", "iy": "bcdegptvz", "eh": "flmnsx", "ay": "iy",
                                                      "ow": "o", "uw": "quw", "aa": "r"}.items() for letter in letters}


def letters_rhyme(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are two letters whose names a recognizer swaps (B and D, A and H). Not
    part of ``similarity``: the matcher would then take "h one" for A1, whose "a" it hardly hears."""
    return a != b and a in _LETTER_VOWELS and (_LETTER_VOWELS[a] == _LETTER_VOWELS.get(b) or {a, b} == {"a", "i"})


@functools.lru_cache(maxsize=8192)
def _key(word: str) -> str:
    return jellyfish.metaphone(word)


class SoundTable:
    """Similarities of heard words to a fixed set of name words, a whole row at a time.

    Spelling distance for every name word comes from one rapidfuzz call; sound keys and known
    confusions are dictionary lookups, so a word never heard before costs microseconds, not a loop.
    """

    def __init__(self, names: set[str]) -> None:
        self.names = sorted(names)
        self._by_key: dict[str, list[str]] = {}
        for name in self.names:
            if len(name) > 1:
                self._by_key.setdefault(_key(name), []).append(name)
        self.row = functools.lru_cache(maxsize=4096)(self._row)

    def _row(self, heard: str) -> dict[str, float]:
        """name word -> similarity, for the name words at least half alike (others count as 0)."""
        row = {name: score for name, score, _ in process.extract(
            heard, self.names, scorer=Levenshtein.normalized_similarity, score_cutoff=0.5, limit=None)}
        candidates = set(row) | set(self._by_key.get(_key(heard), ()) if len(heard) > 1 else ())
        candidates |= _CONFUSIONS.get(heard, set()) & set(self.names)
        for stem in (heard[:-1], heard[:-2], heard + "s", heard + "es"):
            if stem in row or stem in self._by_key.get(_key(stem), ()):
                candidates.add(stem)
        return {name: sim for name in candidates if (sim := similarity(name, heard)) >= 0.5}
