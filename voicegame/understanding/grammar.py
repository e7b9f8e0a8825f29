"""Request templates (grammars/<lang>.toml), expanded into word sequences with slots, and the
recognizer inputs built from them: a word list (Vosk grammar mode) and a JSGF grammar (PocketSphinx).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from voicegame import shipped
from voicegame.decks import Deck
from voicegame.understanding.words import FUNCTION_WORDS, normalize, spoken

__all__ = ["GRAMMAR_DIR", "OTHERS_RULE", "Grammar", "GrammarError", "Phrases", "expand", "importance", "jsgf",
           "load_grammar", "name_words", "speech_grammar", "vocabulary"]

GRAMMAR_DIR = shipped("grammars")  # the <lang>.toml templates
SLOTS = ("{player}", "{card}", "{family}")
OTHERS_RULE = "<someone_else>"  # the JSGF rule of ``Phrases.others``


class GrammarError(ValueError):
    """A template file that cannot be read; the message says where."""


def _tokens(template: str) -> list[str]:
    return re.findall(r"\{\w+\}|[\[\]()|]|[^\s\[\]()|{}]+", template)


def expand(template: str) -> list[tuple[str, ...]]:
    """All word sequences a template allows: "[may] i have {card}" -> (may i have {card}), (i have {card})."""
    tokens = _tokens(template)
    pos = 0

    def sequence(stop: set[str]) -> list[list[str]]:
        nonlocal pos
        results: list[list[str]] = [[]]
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok in ("[", "("):
                closing = "]" if tok == "[" else ")"
                options: list[list[str]] = []
                while True:
                    options.extend(sequence({"|", closing}))
                    if pos >= len(tokens):
                        raise GrammarError(f"unclosed {tok!r} in template {template!r}")
                    sep = tokens[pos]
                    pos += 1
                    if sep == closing:
                        break
                if tok == "[":
                    options.append([])
                results = [r + o for r in results for o in options]
            elif tok in ("]", ")", "|"):
                raise GrammarError(f"unexpected {tok!r} in template {template!r}")
            else:
                words = [tok] if tok in SLOTS else list(normalize(tok))
                results = [r + words for r in results]
        return results

    out = sequence(set())
    if pos != len(tokens):
        raise GrammarError(f"unexpected {tokens[pos]!r} in template {template!r}")
    unique = list(dict.fromkeys(tuple(r) for r in out))
    return unique


@dataclass(frozen=True)
class Grammar:
    language: str
    fillers: frozenset[str]
    polite: tuple[tuple[str, ...], ...]
    requests: dict[str, tuple[tuple[str, ...], ...]]  # intent -> expanded templates
    commands: dict[str, tuple[tuple[str, ...], ...]]
    source: dict  # the raw templates, for JSGF
    # The word after {family} that lets one member's short name stand for the family: "and" in
    # "Mr. Bun and family" (seed 003 rule 8). A recognizer's grammar must allow both there.
    by_member: str = ""
    # What people at the table who are not playing are called ("dad", "nan", "clara"): a request
    # to them is not a move, and a recognizer must be able to hear the word rather than a player's name.
    others: tuple[str, ...] = ()
    # First names a recognizer can hear when the spoken set-up asks who is playing.
    first_names: tuple[str, ...] = ()
    # Words said for a word of the card names ("juf" for "juffrouw"): the matcher reads the one for the
    # other, and a recognizer must be able to hear them.
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Words that turn a name said into one not meant: "not Ben", "never mind Ben".
    negations: frozenset[str] = frozenset()

    @functools.cached_property
    def polite_words(self) -> frozenset[str]:
        """The one-word polite forms ("please", "alstublieft"), which may stand beside a name or a number."""
        return frozenset(p[0] for p in self.polite if len(p) == 1)

    def template_words(self, without: Collection[str] = ()) -> set[str]:
        """Every word of the templates, but those only the commands ``without`` use."""
        words = set(self.fillers) | {said for said, _ in self.aliases}
        words.update(w for key in ("name_answers", "name_corrections") for t in self.source.get(key, [])
                     for seq in expand(t) for w in seq if w not in SLOTS)  # "No, I said Cara."
        commands = {intent: seqs for intent, seqs in self.commands.items() if intent not in without}
        for group in (self.requests, commands):
            for seqs in group.values():
                for seq in seqs:
                    words.update(w for w in seq if w not in SLOTS)
        return words


@functools.cache
def load_grammar(lang: str = "en") -> Grammar:
    path = GRAMMAR_DIR / f"{lang}.toml"
    if not path.is_file():
        available = sorted(p.stem for p in GRAMMAR_DIR.glob("*.toml"))
        raise GrammarError(f"There are no templates for language {lang!r}. Available: {', '.join(available)}.")
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise GrammarError(f"{path}: not valid TOML ({exc}).") from None
    for key in ("requests", "commands"):
        if key not in data:
            raise GrammarError(f"{path}: missing [{key}].")

    fillers = frozenset(w for f in data.get("fillers", []) for w in normalize(f))

    def group(table: dict) -> dict[str, tuple[tuple[str, ...], ...]]:
        # Fillers are free wherever they are said, so templates are compared without them.
        out = {}
        for intent, templates in table.items():
            seqs = (tuple(w for w in seq if w not in fillers) for t in templates for seq in expand(t))
            out[intent] = tuple(dict.fromkeys(seq for seq in seqs if seq))
        return out

    return Grammar(
        language=lang,
        fillers=fillers,
        polite=tuple(normalize(p) for p in data.get("polite", [])),
        requests=group(data["requests"]),
        commands=group(data["commands"]),
        source=data,
        by_member=" ".join(normalize(data.get("by_member", ""))),
        others=tuple(dict.fromkeys(w for other in data.get("others", []) for w in normalize(other))),
        first_names=tuple(dict.fromkeys(w for name in data.get("first_names", []) for w in normalize(name))),
        aliases=_aliases(data.get("aliases", {}), path),
        negations=frozenset(w for word in data.get("negations", []) for w in normalize(word)),
    )


def _aliases(table: object, path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``aliases = { juf = "juffrouw" }`` as (said word, the words it stands for)."""
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise GrammarError(f'{path}: aliases must be a table of words in quotes, such as'
                           f' aliases = {{ juf = "juffrouw" }}.')
    out = []
    for said, meant in table.items():
        words, meaning = normalize(said), normalize(meant)
        if len(words) != 1 or not meaning:
            raise GrammarError(f"{path}: the alias {said!r} must be one word standing for one or more words.")
        out.append((words[0], meaning))
    return tuple(out)


class Phrases:
    """Every way of saying each card, family and player of one game, as normalised words."""

    def __init__(self, deck: Deck, players: tuple[str, ...], lang: str) -> None:
        langs = (lang, "en") if lang != "en" else ("en",)
        self.cards: dict[str, list[tuple[str, ...]]] = {}
        for card in deck.cards:
            variants: list[tuple[str, ...]] = []
            for name_lang in langs:
                full = normalize(card.name(name_lang, "full"))
                short = normalize(card.name(name_lang, "short"))
                variants += [full, short]
                # "the baker's son": the full name without its short prefix names the card by trade alone.
                if full[: len(short)] == short and len(full) - len(short) >= 2:
                    variants.append(full[len(short):])
            self.cards[card.id] = list(dict.fromkeys(variants))
        # "Is Mr. Bun and family at home?" (seed 003 rule 8): a member's short name stands for his family.
        self.heads: list[tuple[str, tuple[str, ...]]] = [
            (card.family, normalize(card.name(lang, "short"))) for card in deck.cards]
        self.families: dict[str, list[tuple[str, ...]]] = {}
        for fam in deck.families:
            variants = []
            for name_lang in langs:
                for form in ("surname", "name", "plural"):
                    variants.append(normalize(fam.name(name_lang, form)))
            self.families[fam.key] = list(dict.fromkeys(v for v in variants if v))
        self.trades: dict[str, list[tuple[str, ...]]] = {  # ("brewer",) for Bung the Brewer; none for Family A
            fam.key: [t for t in dict.fromkeys(tuple(w for w in normalize(fam.name(name_lang, "trade"))
                                                     if w not in FUNCTION_WORDS) for name_lang in langs) if t]
            for fam in deck.families}
        self.players = {p: normalize(p) for p in players}
        # Names of people who are not playing, but for words this game's players, cards and families use.
        taken = self._words()
        self.others = tuple(w for w in load_grammar(lang).others if w not in taken)

    def _words(self) -> set[str]:
        out: set[str] = set()
        for group in (self.cards, self.families):
            for variants in group.values():
                for v in variants:
                    out.update(v)
        for words in self.players.values():
            out.update(words)
        return out

    def words(self) -> set[str]:
        """Every word that names a card, family, player or someone who is not playing."""
        return self._words() | set(self.others)


def vocabulary(grammar: Grammar, phrases: Phrases, without: Collection[str] = ()) -> list[str]:
    """The recognizer's fixed word list, in spoken form ("mister", not "mr"), with no word that only the
    commands ``without`` use."""
    return sorted({spoken(w) for w in grammar.template_words(without) | phrases.words()})


def name_words(phrases: Phrases) -> list[str]:
    """The spoken words that name a card, family, player or someone not playing ("bun", "baker",
    "missus", "cara", "dad"): a recognizer can check that each one of them fits the audio, as "Mrs.
    Smith" forced into "missus tape" misfits in one word only and hides in a score over the whole phrase."""
    return sorted({spoken(w) for w in phrases.words() if importance(w) == 1.0})


def speech_grammar(grammar: Grammar, phrases: Phrases,
                   without: Collection[str] = ()) -> tuple[list[str], str, list[str]]:
    """What a recognizer's ``set_grammar`` takes for the whole game: the word list, the JSGF
    grammar and the name words. ``without``: commands the game has no use for (a game with no centre
    cards has nothing to turn over: "Pause." was heard as "pass", "Could be." as "card three")."""
    return vocabulary(grammar, phrases, without), jsgf(grammar, phrases, without=without), name_words(phrases)


def jsgf(grammar: Grammar, phrases: Phrases, *, include_commands: bool = True, without: Collection[str] = ()) -> str:
    """A JSGF grammar for PocketSphinx: an optional player at either end of any request. The names of
    people not playing are a rule of their own that no phrase uses (``OTHERS_RULE``): in the search
    they would lower how well every request scores, so PocketSphinx hears a player's name a second
    time among them instead."""

    def alt(seqs) -> str:
        return " | ".join(" ".join(spoken(w) for w in s) for s in sorted(set(seqs)))

    def rule_for(seq: tuple[str, ...]) -> str:
        parts = []
        for i, w in enumerate(seq):
            if w == "{family}" and grammar.by_member and seq[i + 1: i + 2] == (grammar.by_member,):
                parts.append("<head>")
            else:
                parts.append({"{player}": "<player>", "{card}": "<card>", "{family}": "<family>"}.get(w, spoken(w)))
        return " ".join(parts)

    lines = ["#JSGF V1.0;", f"grammar voicegame_{grammar.language};"]
    lines.append("<player> = " + alt(phrases.players.values()) + ";")
    if phrases.others:
        lines.append(f"{OTHERS_RULE} = " + alt((w,) for w in phrases.others) + ";")
    lines.append("<card> = " + alt(v for vs in phrases.cards.values() for v in vs) + ";")
    lines.append("<family> = " + alt(v for vs in phrases.families.values() for v in vs) + ";")
    lines.append("<head> = <family> | " + alt(v for _, v in phrases.heads) + ";")
    polite = " | ".join(sorted(w for w in grammar.fillers if w in grammar.polite_words))
    please = f" [{polite}]" if polite else ""
    # From the templates as written: the matcher ignores fillers, but "is Mr. Bun and family at
    # home" has no path through the recognizer unless its "and" is in the grammar.
    requests = [rule_for(seq) for ts in grammar.source["requests"].values() for t in ts for seq in expand(t)]
    lines.append("<request> = " + " | ".join(f"( {r} )" for r in sorted(set(requests))) + ";")
    # "Please, Cara, could I have ...": a child's please comes first as often as last; only before a
    # name, as a please alone there lets table talk fit far better (a stranger's "Lily, have you got
    # Miss Soot?" as "please have you got miss soot": margin -45.8 -> -22.9).
    lead = f"[ ( {polite} ) <player> | <player> ]" if polite else "[<player>]"
    top = [f"{lead} <request>{please} [<player>]{please}"]
    if include_commands:
        commands = [rule_for(seq) for intent, ts in grammar.source["commands"].items() if intent not in without
                    for t in ts for seq in expand(t)]
        lines.append("<command> = " + " | ".join(f"( {c} )" for c in sorted(set(commands))) + ";")
        top.append("<command>")
    lines.append("public <utterance> = " + " | ".join(f"( {t} )" for t in top) + ";")
    return "\n".join(lines) + "\n"


# While the table waits on an answer, only these commands (and, for "name", the players) can be said.
# "Turn over centre card 3?" listens for the numbers too: forced into yes or no, "Three." came out
# "yes" and passed the turn, "Pass." a doubtful "yes".
ANSWERS = {"yes_no": ("yes", "no", "cancel", "repeat", "heard"), "name": ("cancel", "repeat", "heard"),
           "flip": ("flip", "repeat", "help", "heard"),
           "flip_yes_no": ("yes", "no", "cancel", "repeat", "heard", "flip")}


def answer_jsgf(grammar: Grammar, phrases: Phrases, kind: str) -> tuple[list[str], str]:
    """A small grammar for the answer to one question ("Say yes or no", "Say a name", "Say the
    number of a centre card, or pass"), as a word
    list and JSGF. A recognizer that need not tell a hundred requests apart hears one short word
    far more surely."""
    seqs = {seq for intent in ANSWERS[kind] for t in grammar.source["commands"][intent] for seq in expand(t)}
    # "Cara", "ask Cara", "I'll ask Cara": said alone, "ask" fits nothing and drowns the name; and to
    # "Did you ask Dan?", "No, I said Cara."
    forms = {"name": "name_answers", "yes_no": "name_corrections"}.get(kind)
    if forms:
        seqs |= {seq for t in grammar.source.get(forms, []) for name in phrases.players.values()
                 for seq in expand(t.replace("{player}", " ".join(name)))}
    words = sorted({spoken(w) for seq in seqs for w in seq})
    body = " | ".join(f"( {' '.join(spoken(w) for w in seq)} )" for seq in sorted(seqs))
    return words, f"#JSGF V1.0;\ngrammar voicegame_{grammar.language}_{kind};\npublic <answer> = {body};\n"


def importance(word: str) -> float:
    """How much a name word matters for telling cards apart."""
    return 0.15 if word in FUNCTION_WORDS else 1.0

