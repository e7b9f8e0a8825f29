"""Pronunciations, in the ARPAbet phones of the PocketSphinx en-us model, for words its CMU
dictionary lacks: possessives and plurals of card words ("potses", "milkmans"), players' names,
whatever a deck adds.

Three sources, best first:
1. a dictionary word the missing one extends ("potses" = "pots" + IH Z, "weightlifter" =
   "weight" + "lifter"): the model's own pronunciation of the stem beats any guess (espeak-ng
   says "boneses" as bo-NEE-zes);
2. espeak-ng's IPA (``espeak-ng -q --ipa``), mapped phone by phone;
3. spelling rules, so that every word gets something and the grammar still loads.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import unicodedata
from typing import Callable, Iterable

__all__ = ["PHONES", "espeak_phones", "ipa_to_arpabet", "nasal_variant", "pronounce", "pronounce_all", "spelled_phones"]

# The phone set of the en-us acoustic model (its mdef, minus SIL).
PHONES = frozenset("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W "
                   "Y Z ZH".split())
_VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())
_SIBILANTS = frozenset({"S", "Z", "SH", "ZH", "CH", "JH"})
_VOICELESS = frozenset({"P", "T", "K", "F", "TH", "HH"})

# espeak-ng IPA -> ARPAbet, longest symbols first when matching.
_IPA = {
    "aɪ": "AY", "aʊ": "AW", "eɪ": "EY", "oʊ": "OW", "əʊ": "OW", "ɔɪ": "OY", "tʃ": "CH", "dʒ": "JH",
    "ɪə": "IH R", "eə": "EH R", "ʊə": "UH R",
    "i": "IY", "ɪ": "IH", "ᵻ": "IH", "e": "EH", "ɛ": "EH", "æ": "AE", "a": "AE", "ɐ": "AH", "ʌ": "AH", "ə": "AH",
    "ɚ": "ER", "ɝ": "ER", "ɜ": "ER", "ɑ": "AA", "ɒ": "AA", "ɔ": "AO", "o": "OW", "ʊ": "UH", "u": "UW",
    "p": "P", "b": "B", "t": "T", "d": "D", "ɾ": "T", "k": "K", "ɡ": "G", "g": "G", "x": "K", "f": "F", "v": "V",
    "θ": "TH", "ð": "DH", "s": "S", "z": "Z", "ʃ": "SH", "ʒ": "ZH", "h": "HH", "m": "M", "n": "N", "ŋ": "NG",
    "l": "L", "ɫ": "L", "ɹ": "R", "r": "R", "j": "Y", "w": "W",
}
_IPA_KEYS = sorted(_IPA, key=len, reverse=True)
_IPA_SKIP = frozenset("ˈˌːˑ.ʔ-_ ")

# Spelling rules: letter groups -> phones, longest first. Crude on purpose: only the last resort.
_LETTERS = {
    "tch": "CH", "sch": "SH K", "igh": "AY", "ch": "CH", "sh": "SH", "th": "TH", "ph": "F", "ck": "K", "ng": "NG",
    "qu": "K W", "wh": "W", "kn": "N", "ee": "IY", "ea": "IY", "ie": "IY", "oo": "UW", "ou": "AW", "ow": "OW",
    "oa": "OW", "ai": "EY", "ay": "EY", "ey": "EY", "oi": "OY", "oy": "OY", "au": "AO", "aw": "AO", "er": "ER",
    "ir": "ER", "ur": "ER", "ar": "AA R", "or": "AO R",
    "a": "AE", "b": "B", "c": "K", "d": "D", "e": "EH", "f": "F", "g": "G", "h": "HH", "i": "IH", "j": "JH",
    "k": "K", "l": "L", "m": "M", "n": "N", "o": "AA", "p": "P", "q": "K", "r": "R", "s": "S", "t": "T", "u": "AH",
    "v": "V", "w": "W", "x": "K S", "y": "IY", "z": "Z",
}
_LETTER_KEYS = sorted(_LETTERS, key=len, reverse=True)


def _suffix_s(phones: str) -> str:
    """The plural/possessive ending after ``phones``: IH Z after a hiss, S after a voiceless stop."""
    last = phones.split()[-1]
    return f"{phones} {'IH Z' if last in _SIBILANTS else 'S' if last in _VOICELESS else 'Z'}"


def _from_dictionary(word: str, lookup: Callable[[str], str | None], compound: bool = True) -> str | None:
    """The word as a dictionary word plus an ending ("dyers", "potses"), or as two dictionary words
    ("weightlifters"); stems of three letters or more and compound parts of four or more, so that
    names are not cut into syllables ("xan" + "the")."""
    for stem, ending in ((word[:-1], "s"), (word[:-2], "es")):
        if word.endswith(ending) and len(stem) >= 3 and (phones := lookup(stem)):
            return _suffix_s(phones)
    if compound:
        for cut in range(4, len(word) - 3):
            head = lookup(word[:cut])
            tail = head and (lookup(word[cut:]) or _from_dictionary(word[cut:], lookup, compound=False))
            if tail:
                return f"{head} {tail}"
    return None


def _clean(phones: list[str]) -> str | None:
    """Drop repeats ("ɹɹ") and the R after ER, check the phone set."""
    out: list[str] = []
    for p in phones:
        if out and (p == out[-1] or (p == "R" and out[-1] == "ER")):
            continue
        out.append(p)
    return " ".join(out) if out and all(p in PHONES for p in out) else None


def ipa_to_arpabet(ipa: str) -> str | None:
    """One word of espeak-ng IPA as ARPAbet; None if it holds a symbol with no mapping."""
    ipa = "".join(c for c in unicodedata.normalize("NFD", ipa) if not unicodedata.combining(c))
    phones: list[str] = []
    i = 0
    while i < len(ipa):
        if ipa[i] in _IPA_SKIP:
            i += 1
            continue
        key = next((k for k in _IPA_KEYS if ipa.startswith(k, i)), None)
        if key is None:
            return None
        phones.extend(_IPA[key].split())
        i += len(key)
    return _clean(phones)


@functools.lru_cache(maxsize=1)
def _espeak_program() -> str | None:
    return shutil.which("espeak-ng")


_espeak_cache: dict[str, str | None] = {}


def espeak_phones(words: Iterable[str]) -> dict[str, str]:
    """ARPAbet from espeak-ng's American voice (the model's accent) for each word it could say;
    one process for all the words, results cached."""
    words = list(dict.fromkeys(words))
    todo = [w for w in words if w not in _espeak_cache]
    program = _espeak_program()
    if todo and program:
        try:
            done = subprocess.run([program, "-q", "--ipa", "-v", "en-us"], input="\n".join(todo) + "\n",
                                  capture_output=True, text=True, timeout=30, check=True)
            lines = done.stdout.splitlines()
        except (OSError, subprocess.SubprocessError):
            lines = []
        if len(lines) == len(todo):  # one line per input word; anything else cannot be paired safely
            for word, line in zip(todo, lines):
                _espeak_cache[word] = ipa_to_arpabet(line.strip())
    return {w: p for w in words if (p := _espeak_cache.get(w))}


@functools.lru_cache(maxsize=4096)
def spelled_phones(word: str) -> str | None:
    """Phones from the spelling alone: a final silent e, soft c and g before e/i/y, doubled letters once,
    a final s said as the plural ending."""
    letters = re.sub(r"[^a-z]", "", word.casefold())
    if len(letters) > 3 and letters.endswith("s") and letters[-2] not in "su":
        stem = spelled_phones(letters[:-1])
        return stem and _suffix_s(stem)
    if len(letters) > 2 and letters.endswith("e") and letters[-2] not in "aeiouy":
        letters = letters[:-1]
    phones: list[str] = []
    i = 0
    while i < len(letters):
        key = next(k for k in _LETTER_KEYS if letters.startswith(k, i))
        nxt = letters[i + len(key): i + len(key) + 1]
        if key == "c" and nxt in ("e", "i", "y"):
            phones.append("S")
        elif key == "g" and nxt in ("e", "i", "y"):
            phones.append("JH")
        elif key == "y" and i == 0:
            phones.append("Y")
        elif key == "a" and i == len(letters) - 1 and i > 0:
            phones.append("AH")
        else:
            phones.extend(_LETTERS[key].split())
        i += len(key)
    return _clean(phones)


def pronounce_all(words: Iterable[str], lookup: Callable[[str], str | None]) -> dict[str, str]:
    """Phones for each word: dictionary-based if possible, else espeak-ng, else spelling rules.
    ``lookup`` gives a dictionary word's phones or None (``Decoder.lookup_word``)."""
    out: dict[str, str] = {}
    rest = []
    for word in dict.fromkeys(words):
        phones = _from_dictionary(word, lookup)
        if phones:
            out[word] = phones
        else:
            rest.append(word)
    spoken = espeak_phones(rest)
    for word in rest:
        phones = spoken.get(word) or spelled_phones(word)
        if phones:
            out[word] = phones
    return out


def pronounce(word: str, lookup: Callable[[str], str | None]) -> str | None:
    """Phones for one word (see ``pronounce_all``)."""
    return pronounce_all([word], lookup).get(word)


def nasal_variant(phones: str) -> str | None:
    """A second pronunciation for a one-syllable word ending in EH and N or M ("ben" B EH N
    -> B AE N), or None. The en-us model hears a raised, nasalised EH before a nasal as AE: the
    phone loop decodes the neural test voice's "Ben" as B AE N or D AE N, and the grammar then took
    "Ben" for "Dan" (measured, neural voice, clean: 33 -> 35 of 40 requests right with the variant,
    wrong moves 5 -> 3). Longer words keep their other syllables to tell them apart."""
    parts = phones.split()
    vowels = [i for i, p in enumerate(parts) if p in _VOWELS]
    if len(vowels) != 1:
        return None
    i = vowels[0]
    if parts[i] != "EH" or i + 2 != len(parts) or parts[i + 1] not in ("N", "M"):
        return None
    return " ".join(parts[:i] + ["AE"] + parts[i + 1 :])
