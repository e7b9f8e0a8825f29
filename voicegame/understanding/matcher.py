"""From heard words to one request, a question back, or nothing.

Learned from Lichess's voice input: the recognizer's words are scored against every request
that could have been meant, with weighted edit costs (fillers free, small words cheap, names by
sound); the program acts only when one request is cheap and clearly ahead of the next, asks
"Did you ask Ben for Mrs. Bun?" when two are close, and otherwise says it did not understand.
Table chatter must never become a move: extra words cost a lot, statement words more.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from voicegame.decks import Deck
from voicegame.understanding.grammar import Grammar, Phrases, expand, load_grammar
from voicegame.understanding.grammar import importance as word_importance
from voicegame.understanding.words import FUNCTION_WORDS, SoundTable, letters_rhyme, normalize, similarity

__all__ = ["NameWarning", "Understander", "Understanding"]

ACT_COST = 0.44  # at most this cheap to act at once ...
ACT_MARGIN = 0.3  # ... and this much cheaper than any other request
CONFIRM_COST = 1.05  # up to this, ask before acting; beyond, reject
LEGAL_SOUND_ALIKE = 0.5  # a request the hand allows, heard at most this much worse than one it rules out, is offered
CARD_ALIKE = 0.6  # surnames at least this alike, word by word, are sound-alikes (``card_sound_alikes``)
COMMAND_COST = 0.6

_INF = 99.0
# Template words whose absence changes the meaning ("I have X" is not "May I have X").
_KEY_TEMPLATE_WORDS = frozenset({"may", "can", "could", "do", "did", "ask", "give", "pass", "got", "mag", "heb",
                                 "hebt", "heeft", "vraag", "geef", "wil"})
# Not "u", "ik" nor "je": "Eva heeft Meneer Brood", "Eva wil Meneer Brood", "Cara hebt Meneer Brood" (remarks)
# were "heeft u ...", "ik wil ..." and "hebt je ..." to Eva or Cara, played at once.
_LIGHT_TEMPLATE_WORDS = frozenset({"is", "at", "home", "the", "a", "you", "i", "any", "me", "for", "thuis",
                                   "om", "hebben", "please"})
# Words that turn a sentence into a statement or a question about something else.
_STATEMENT_WORDS = frozenset({"has", "had", "have", "think", "know", "want", "wants", "need", "not", "no", "never",
                              "who", "where", "what", "why", "when", "which", "my", "mine", "his", "her", "their",
                              "our", "your", "tomorrow", "yesterday", "drink", "biscuits", "heeft", "niet", "geen",
                              "wie", "waar", "wat", "mijn", "geeft", "gaf", "vraagt", "vroeg", "wilde", "wou",
                              "hebt"})  # "je hebt" tells; "heb je" and "hebt u" ask
_MOVES = ("ask", "ask_family")
# The target of a request to someone who is not playing ("Dad, is Mr. Bun at home?"); no player is called this.
_NOT_PLAYING = "<not playing>"
_TEMPLATE_CACHE: dict[tuple[str, str, tuple[str, ...]], float] = {}  # (lang, intent, skeleton) -> cost
_CANDIDATES = 6  # cards (or families) kept per utterance; the rest are far behind
# An Understanding's ``reason``, in the understander's language.
_REASONS = {
    "en": {"nothing": "I heard nothing.", "who": "Who do you want to ask?",
           "no_card": "I didn't hear a card name. Try: {example}",
           "no_request": "I didn't understand that as a request. Try: {example}"},
    "nl": {"nothing": "Ik heb niets gehoord.", "who": "Wie wil je het vragen?",
           "no_card": "Ik hoorde geen kaartnaam. Probeer: {example}",
           "no_request": "Dat heb ik niet als verzoek begrepen. Probeer: {example}"},
}


class NameWarning(NamedTuple):
    """A player's name the recognizer may mistake (``kind``): for another player's ("player", ``like``
    that name), for a card word ("card", ``like`` that word) or for a command ("command": a player
    called Help), and a nickname that would not be."""
    name: str
    like: str
    nickname: str
    kind: str


@dataclass
class Understanding:
    """What one utterance meant. ``confirm`` True: ask before acting; intent "none": rejected."""

    text: str
    intent: str
    target: str | None = None
    card: str | None = None
    family: str | None = None
    member: str | None = None
    polite: bool = False
    confidence: float = 0.0
    confirm: bool = False
    alternatives: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None
    # Why words were not taken as a request ("no_card", "no_request"): ``Understander.explain`` says it
    # again with another example (the table shows one the rules allow).
    reason_key: str | None = None
    instead_of: dict[str, Any] | None = None  # the request heard best, which the hand rules out ("Mrs. Bung" held)

    @property
    def is_move(self) -> bool:
        """True when the program would act on it at once as a request."""
        return self.intent in _MOVES and not self.confirm and self.target is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text, "intent": self.intent, "target": self.target, "card": self.card,
            "family": self.family, "member": self.member, "polite": self.polite,
            "confidence": self.confidence, "confirm": self.confirm, "alternatives": self.alternatives,
            "reason": self.reason, "instead_of": self.instead_of,
        }


@dataclass(frozen=True)
class _Hypothesis:
    cost: float  # what it costs to have heard it, plus any legality penalty (for ranking)
    intent: str
    target: str | None = None
    card: str | None = None
    family: str | None = None
    penalty: float = 0.0  # the legality part of cost: it ranks candidates but never casts doubt on hearing

    @property
    def move(self) -> tuple:
        return (self.intent, self.target, self.card, self.family)


def _align(name: tuple[str, ...], weights: tuple[float, ...], heard: tuple[str, ...], rows: list[dict[str, float]],
           fillers: frozenset[str]) -> tuple[float, int, int]:
    """Cheapest match of ``name`` to a stretch of ``heard``: (cost, start, end).
    Words of ``heard`` outside the stretch are free here; the template check prices them."""
    n = len(heard)
    prev = [0.0] * (n + 1)
    starts = list(range(n + 1))
    for i, word in enumerate(name):
        w = weights[i]
        cur = [prev[0] + w] + [0.0] * n
        cur_starts = [starts[0]] + [0] * n
        for j in range(1, n + 1):
            h = heard[j - 1]
            sim = rows[j - 1].get(word, 0.0)
            sub = prev[j - 1] + (min(1.0, (1.0 - sim) * 1.6) * w if sim >= 0.5 else _INF)
            dele = prev[j] + w
            ins = cur[j - 1] + (0.05 if h in fillers else 0.6)
            if sub <= dele and sub <= ins:
                cur[j], cur_starts[j] = sub, starts[j - 1]
            elif dele <= ins:
                cur[j], cur_starts[j] = dele, starts[j]
            else:
                cur[j], cur_starts[j] = ins, cur_starts[j - 1]
        prev, starts = cur, cur_starts
    best = min(range(n + 1), key=lambda j: (prev[j], -j))
    return prev[best], starts[best], best


def _delete_cost(word: str) -> float:
    """Cost of a template word that was not said."""
    if word.startswith("{"):
        return _INF
    return 1.2 if word in _KEY_TEMPLATE_WORDS else 0.3 if word in _LIGHT_TEMPLATE_WORDS else 0.8


def _insert_cost(word: str) -> float:
    """Cost of a said word that the template does not have."""
    if word.startswith("{"):
        return 0.6
    return 1.2 if word in _STATEMENT_WORDS else 0.15 if word in _LIGHT_TEMPLATE_WORDS else 0.7


def _template_cost(skeleton: tuple[str, ...], inserts: tuple[float, ...], template: tuple[str, ...],
                   deletes: tuple[float, ...], limit: float) -> float:
    """Weighted edit distance between what is left after the slots and one template; gives up
    (returning _INF) as soon as it must exceed ``limit``."""
    n = len(skeleton)
    prev = [0.0]
    for cost in inserts:
        prev.append(prev[-1] + cost)
    for t, dele in zip(template, deletes):
        cur = [prev[0] + dele]
        slot = t.startswith("{")
        for j in range(1, n + 1):
            s = skeleton[j - 1]
            if s == t:
                sub = prev[j - 1]
            elif not slot and not s.startswith("{") and s not in _STATEMENT_WORDS and (sim := similarity(t, s)) >= 0.8:
                # Only plurals and near-spellings: "gave me" must not pass for "give me".
                sub = prev[j - 1] + (1.0 - sim) * 1.5
            else:
                sub = _INF
            cur.append(min(sub, prev[j] + dele, cur[j - 1] + inserts[j - 1]))
        if min(cur) > limit:
            return _INF
        prev = cur
    return prev[n]


class Understander:
    """Understands utterances for one game: its deck, its players, one language."""

    def __init__(self, deck: Deck, players: list[str] | tuple[str, ...], lang: str = "en") -> None:
        self.deck = deck
        self.players = tuple(players)
        self.lang = lang
        self.grammar: Grammar = load_grammar(lang)
        self.phrases = Phrases(deck, self.players, lang)
        fam_words = {f.key: {w for v in self.phrases.families[f.key] for w in v} for f in deck.families}
        # A family called "A" (the letters deck) is named by a word that is elsewhere only an article:
        # there it weighs in full, or "Dan, 2 please" would be taken for A2 (a guess at the family).
        surnames = {w for f in deck.families for w in normalize(f.name(lang, "surname"))}

        def importance(word: str) -> float:
            return 1.0 if word in surnames else word_importance(word)

        # Per variant: words, weights, and the words that tell its family apart (for pruning).
        self._card_variants: list[tuple[str, tuple[str, ...], tuple[float, ...], tuple[str, ...]]] = []
        for cid, variants in self.phrases.cards.items():
            family_words = fam_words[deck.card(cid).family]
            for v in variants:
                keys = tuple(w for w in v if w in family_words and importance(w) == 1.0) or v
                self._card_variants.append((cid, v, tuple(importance(w) for w in v), keys))
        self._family_variants = [(key, v, tuple(importance(w) for w in v), v)
                                 for key, variants in self.phrases.families.items() for v in variants]
        # Second phase: "Is Mr. Strong and family at home?" (seed 003 rule 8) names the family by a member.
        self._family_variants_phase2 = self._family_variants + [
            (family, v, tuple(importance(w) for w in v), v) for family, v in self.phrases.heads]
        self._player_variants = [(p, v, tuple(1.0 for _ in v), v) for p, v in self.phrases.players.items()]
        self._name_answers, self._corrections = ({
            p: {tuple(w for w in seq if w not in self.grammar.fillers) for t in self.grammar.source.get(key, default)
                for seq in expand(t.replace("{player}", " ".join(name)))}
            for p, name in self.phrases.players.items()}
            for key, default in (("name_answers", ["{player}"]), ("name_corrections", [])))
        self._player_variants += [(_NOT_PLAYING, (w,), (1.0,), (w,)) for w in self.phrases.others]
        self._words = self.phrases.words()
        # The words that name someone or a card ("bun", "painter", "ben"; not "the" or "family").
        self.name_words = frozenset(w for w in self._words if importance(w) == 1.0)
        self._template_words = frozenset(self.grammar.template_words())
        # "juf" -> ("juffrouw",); not for a word that names someone here (a player called Juf).
        self._aliases = {said: meant for said, meant in self.grammar.aliases if said not in self.name_words}
        self._sounds = SoundTable(self._words)
        # "weightlifter(s)" said as one word for the two-word "weight lifter".
        self._joined: dict[str, tuple[str, ...]] = {}
        for variants in self.phrases.cards.values():
            for v in variants:
                for a, b in zip(v, v[1:]):
                    if a not in FUNCTION_WORDS and b not in FUNCTION_WORDS:
                        self._joined.setdefault(a + b, (a, b))
                        self._joined.setdefault(a + b + "s", (a, b + "s"))
        # Command words that must be heard for a command to be cheap enough (see _best_template).
        self._anchors = {intent: {w for seq in seqs for w in seq if w not in _LIGHT_TEMPLATE_WORDS and w[0] != "{"}
                         for intent, seqs in self.grammar.commands.items()}
        self._templates = {intent: [(seq, tuple(_delete_cost(w) for w in seq)) for seq in seqs]
                           for intent, seqs in {**self.grammar.requests, **self.grammar.commands}.items()}
        self._slotted_commands = {intent for intent, seqs in self.grammar.commands.items()
                                  if any("{family}" in seq for seq in seqs)}
        self._exact = {intent: set(seqs) for intent, seqs in {**self.grammar.requests,
                                                               **self.grammar.commands}.items()}
        # A keyboard answer of one key: "y" or "n" (Dutch "j" or "n"), from the first word of each
        # answer's first template; none if a grammar's two would share a key.
        keys = {self.grammar.commands[intent][0][0][0]: intent for intent in ("yes", "no")}
        self._keys = keys if len(keys) == 2 else {}

    # ----------------------------------------------------------------- API

    def understand(self, heard: str | list[str], *, asker: str | None = None, hand: list[str] | None = None,
                   phase: str = "cards") -> Understanding:
        """``heard``: one transcript, or a recognizer's alternatives, best first."""
        texts = [heard] if isinstance(heard, str) else list(heard)
        if not texts or not any(t.strip() for t in texts):
            return Understanding(text="", intent="none", reason=self._say("nothing"))
        if isinstance(heard, str) and (key := normalize(heard)) in {(k,) for k in self._keys}:
            return Understanding(text=heard, intent=self._keys[key[0]], confidence=1.0)
        hyps: list[_Hypothesis] = []
        polite = False
        for rank, text in enumerate(texts):
            words = self._compounds(normalize(text))
            polite = polite or self._polite(words)
            for h in self._hypotheses(words, asker, hand, phase):
                hyps.append(_Hypothesis(h.cost + 0.1 * rank, h.intent, h.target, h.card, h.family, h.penalty))
        return self._decide(texts[0], hyps, polite, asker, phase, typed=isinstance(heard, str))

    def _compounds(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """Mend words a recognizer split or joined: "milk man" -> "milkman", "weightlifters" -> "weight lifters";
        read a word the grammar's ``aliases`` give for another as that one ("juf" -> "juffrouw")."""
        words = tuple(a for w in words for a in self._aliases.get(w, (w,)))
        out: list[str] = []
        i = 0
        while i < len(words):
            w = words[i]
            if i + 1 < len(words) and w + words[i + 1] in self._words and not self._kept_apart(w, words[i + 1]):
                out.append(w + words[i + 1])
                i += 2
                continue
            out.extend(self._joined.get(w, (w,)))
            i += 1
        return tuple(out)

    def _kept_apart(self, word: str, after: str) -> bool:
        """Whether two words stay two though together they spell a name: a name followed by a word of the
        requests ("lint en familie", not the plural "linten familie"; "dan a", not "dana")."""
        return word in self.name_words and after in self._template_words

    @functools.cached_property
    def sound_alikes(self) -> dict[str, frozenset[str]]:
        """For each player, the other players whose names a listener (or a recognizer) may take
        for theirs: Ben and Dan. A recognizer cannot be trusted to tell them apart."""
        names = self.phrases.players
        return {a: frozenset(b for b, wb in names.items() if b != a and len(wa) == len(wb)
                             and all(similarity(x, y) >= 0.6 for x, y in zip(wa, wb)))
                for a, wa in names.items()}

    @functools.cached_property
    def card_sound_alikes(self) -> dict[str, frozenset[str]]:
        """For each family, the others whose surnames a recognizer takes for its own with full
        confidence: Bun, Bung and Bones, Dip, Tape and Chip (PocketSphinx, quiet: "Bun" heard as "bung"
        or "bones", "Dip" as "tape" or, in lower or slower voices, "chip", with margins as good as right
        ones), and letters whose names rhyme ("E3" heard as "c three"). Word by word, as card words are
        short and any two share most of their few letters."""
        surnames = {key: variants[0] for key, variants in self.phrases.families.items() if variants}
        return {a: frozenset(b for b, wb in surnames.items() if b != a and len(wa) == len(wb)
                             and all(similarity(x, y) >= CARD_ALIKE or letters_rhyme(x, y) for x, y in zip(wa, wb)))
                for a, wa in surnames.items()}

    def warnings(self) -> list[NameWarning]:
        """Player names that sound alike or like card words, with a nickname suggestion each; the
        table words them in its language."""
        out = []
        names = list(self.phrases.players.items())
        card_words = {w for vs in self.phrases.cards.values() for v in vs for w in v} - FUNCTION_WORDS
        taken = {p.casefold() for p in self.players}
        command_words = {seq for seqs in self.grammar.commands.values() for seq in seqs}
        # More than a table of 12 can use up, one per player however many warnings name them.
        spare = (n for n in ("Tiger", "Rocket", "Sunny", "Pixie", "Ziggy", "Comet", "Maple", "Jazz", "Pepper",
                             "Biscuit", "Buttons", "Poppy", "Whizz", "Sparky", "Noodle", "Pebble", "Toffee",
                             "Bramble", "Skipper", "Juniper", "Marble", "Puffin", "Rainbow", "Shadow")
                 if n.casefold() not in taken)
        nicknames: dict[str, str] = {}

        def nickname(player: str) -> str:
            if player not in nicknames:
                nicknames[player] = next(spare)
            return nicknames[player]

        for i, (a, wa) in enumerate(names):
            for b, wb in names[i + 1:]:
                if b in self.sound_alikes[a]:
                    out.append(NameWarning(b, a, nickname(b), "player"))
            clash = [w for w in wa if any(similarity(w, c) >= 0.75 for c in card_words)]
            if clash:
                out.append(NameWarning(a, clash[0], nickname(a), "card"))
            elif wa in command_words:  # "help" on its own would ask Help for the card
                out.append(NameWarning(a, " ".join(wa), nickname(a), "command"))
        return out

    def correction(self, text: str) -> str | None:
        """The player a "no" names instead ("No, I said Cara.": the grammar's ``name_corrections``)."""
        bare = tuple(w for w in normalize(text) if w not in self.grammar.fillers)
        return next((p for p, forms in self._corrections.items() if bare in forms), None)

    def name_answer(self, text: str) -> tuple[str | None, bool]:
        """The one player an answer to "Who do you want to ask?" names, and whether in so many words:
        "Cara", "ask Cara", "Cara, please" (the grammar's ``name_answers``). With other words round
        it ("hand Ben", "what did Ben ask?") the answer is to be asked about; with a "not" ("not Ben",
        "never mind Ben") it names no one. A word near a one-word name ("Kara") is never exact."""
        words = normalize(text)
        if set(words) & self.grammar.negations:
            return None, False
        said = [p for p, name in self.phrases.players.items()
                if any(words[i:i + len(name)] == name for i in range(len(words) - len(name) + 1))]
        if len(said) == 1:  # "please" aside, in so many words: "misschien Cara" ("maybe Cara") is asked about
            return said[0], tuple(w for w in words if w not in self.grammar.polite_words) in self._name_answers[said[0]]
        if said:
            return None, False
        near = [p for p, name in self.phrases.players.items()
                if len(name) == 1 and any(similarity(w, name[0]) >= 0.7 for w in words)]
        return (near[0], False) if len(near) == 1 else (None, False)

    # ------------------------------------------------------------ scoring

    def _polite(self, words: tuple[str, ...]) -> bool:
        joined = " " + " ".join(words) + " "
        return any(f" {' '.join(p)} " in joined for p in self.grammar.polite)

    def _spans(self, variants, words: tuple[str, ...], limit: float) -> dict[str, tuple[float, int, int]]:
        """Best (cost, start, end) per candidate value, keeping those within ``limit`` of the best."""
        fillers = self.grammar.fillers
        rows = [self._sounds.row(w) for w in words]
        heard_like: dict[str, float] = {}  # name word -> best similarity to any heard word
        for row in rows:
            for name, sim in row.items():
                if sim > heard_like.get(name, 0.0):
                    heard_like[name] = sim
        best: dict[str, tuple[float, int, int]] = {}
        for value, v, weights, keys in variants:
            if not any(heard_like.get(k, 0.0) >= 0.6 for k in keys):
                continue
            cost, start, end = _align(v, weights, words, rows, fillers)
            # On equal cost the longer stretch wins: "mr bun" explains more words than "bun".
            if end > start and (value not in best or (cost, start - end) < (best[value][0], best[value][1] - best[value][2])):
                best[value] = (cost, start, end)
        if not best:
            return best
        floor = min(c for c, _, _ in best.values())
        return {k: s for k, s in best.items() if s[0] <= floor + limit}

    def _skeleton(self, words: tuple[str, ...], slots: list[tuple[int, int, str]]) -> tuple[str, ...]:
        """The words left when slots are cut out; a player's name at either end is dropped."""
        n = len(words)
        fillers = self.grammar.fillers
        marks: dict[int, tuple[int, str]] = {s: (e, name) for s, e, name in slots}
        out: list[str] = []
        i = 0
        while i < n:
            if i in marks:
                end, name = marks[i]
                at_edge = all(w in fillers for w in words[:i]) or all(w in fillers for w in words[end:])
                if not (name == "{player}" and at_edge):
                    out.append(name)
                i = end
                continue
            if words[i] not in fillers:
                out.append(words[i])
            i += 1
        return tuple(out)

    def _best_template(self, intent: str, skeleton: tuple[str, ...]) -> float:
        key = (self.lang, intent, skeleton)
        cost = _TEMPLATE_CACHE.get(key)
        if cost is None:
            if skeleton in self._exact.get(intent, ()):
                cost = 0.0
            elif intent in self._anchors and not any(
                    w in self._anchors[intent] or any(similarity(a, w) >= 0.8 for a in self._anchors[intent])
                    for w in skeleton if not w.startswith("{")):
                # No word of this command was said: deleting its one meaningful word already costs too much.
                cost = _INF
            else:
                inserts = tuple(_insert_cost(w) for w in skeleton)
                cost = _INF
                # Templates of about the skeleton's length first: they set a low limit early.
                for template, deletes in sorted(self._templates[intent], key=lambda t: abs(len(t[0]) - len(skeleton))):
                    cost = min(cost, _template_cost(skeleton, inserts, template, deletes,
                                                    min(cost, CONFIRM_COST + 0.5)))
            if len(_TEMPLATE_CACHE) > 50000:
                _TEMPLATE_CACHE.clear()
            _TEMPLATE_CACHE[key] = cost
        return cost

    def _hypotheses(self, words: tuple[str, ...], asker: str | None, hand: list[str] | None,
                    phase: str) -> list[_Hypothesis]:
        if not words:
            return []
        out: list[_Hypothesis] = []
        players = self._spans(self._player_variants, words, 0.8)
        player_options: list[tuple[str | None, float, int, int]] = [(None, 0.0, -1, -1)]
        player_options += [(p, c, s, e) for p, (c, s, e) in players.items()]
        held = set(hand or ())
        held_families = {c.split(":")[0] for c in held}

        skeletons: dict[tuple, float] = {}

        def template_cost(intent: str, slots: tuple) -> float:
            key = (intent, slots)
            if key not in skeletons:
                skeletons[key] = self._best_template(intent, self._skeleton(words, list(slots)))
            return skeletons[key]

        def add(intent: str, slot: str, value: str, cost: float, start: int, end: int) -> None:
            for target, pcost, ps, pe in player_options:
                if target is not None and not (pe <= start or ps >= end):
                    continue
                slots = ((start, end, slot),) + (((ps, pe, "{player}"),) if target else ())
                total = cost + pcost + template_cost(intent, slots)
                # Recognisable but illegal requests are kept, so the engine can explain the rule,
                # but a legal request that sounds nearly the same is preferred.
                penalty = 0.3 if target is not None and target == asker else 0.0
                if hand is not None:
                    family = value.split(":")[0]
                    if family not in held_families or (slot == "{card}" and value in held):
                        penalty += 0.3
                out.append(_Hypothesis(total + penalty, intent, target, value if slot == "{card}" else None,
                                       value if slot == "{family}" else None, penalty))

        cards = self._spans(self._card_variants, words, 1.0)
        for cid, (cost, s, e) in sorted(cards.items(), key=lambda kv: kv[1][0])[:_CANDIDATES]:
            add("ask", "{card}", cid, cost + (0.5 if phase == "families" else 0.0), s, e)
        families = self._spans(self._family_variants_phase2 if phase == "families" else self._family_variants,
                               words, 1.0)
        for key, (cost, s, e) in sorted(families.items(), key=lambda kv: kv[1][0])[:_CANDIDATES]:
            add("ask_family", "{family}", key, cost + (0.0 if phase == "families" else 0.35), s, e)
        # Commands: the whole utterance against each command's templates, a family slot allowed.
        plain = self._skeleton(words, [])
        family_skeletons = [(key, self._skeleton(words, [(s, e, "{family}")]), fcost)
                            for key, (fcost, s, e) in families.items()]
        for intent in self.grammar.commands:
            cost, family = self._best_template(intent, plain), None
            if intent in self._slotted_commands:
                for key, skeleton, fcost in family_skeletons:
                    slotted = fcost + self._best_template(intent, skeleton)
                    if slotted < cost:  # "which Buns do I have": the command is about one family
                        cost, family = slotted, key
            if cost < _INF:
                out.append(_Hypothesis(cost, intent, family=family))
        return out

    # ------------------------------------------------------------ deciding

    def _decide(self, text: str, hyps: list[_Hypothesis], polite: bool, asker: str | None, phase: str,
                typed: bool = False) -> Understanding:
        best_by_move: dict[tuple, _Hypothesis] = {}
        for h in hyps:
            if h.move not in best_by_move or h.cost < best_by_move[h.move].cost:
                best_by_move[h.move] = h
        ranked = sorted(best_by_move.values(), key=lambda h: h.cost)
        if not ranked or ranked[0].cost > CONFIRM_COST:
            return self._not_understood(text, polite, ranked, asker, phase)
        best = ranked[0]
        instead_of = None
        if best.intent in _MOVES and best.penalty > 0 and (legal := self._legal_sound_alike(best, ranked)):
            instead_of, best = self._alt(best), legal
        # A request without a name competes with the same request to each player: fold them.
        rivals = [h for h in ranked if h is not best and not self._same_request(h, best)]
        if typed and best.card is not None and self._names_exactly(best.card, text):
            # "Mevrouw Botten" typed is Botten: a card near it by sound ("Potten") is for what a recognizer hears.
            rivals = [h for h in rivals if h.card is None or self._names_exactly(h.card, text)]
        elif typed and best.family is not None and self._names_family_exactly(best.family, text, phase):
            # Likewise "Botten en familie" typed is the Botten family, whatever "Potten" sounds like.
            rivals = [h for h in rivals if h.family is None or self._names_family_exactly(h.family, text, phase)]
        # How far ahead the best is: by heard cost, or by legality when a rival was heard better.
        heard = best.cost - best.penalty
        margin = min((max(h.cost - best.cost, h.cost - h.penalty - heard) for h in rivals), default=_INF)
        confidence = round(max(0.0, 1.0 - best.cost / 2) * min(1.0, 0.5 + margin), 3)
        if best.intent not in _MOVES:
            if best.cost <= COMMAND_COST and margin >= 0.2:
                # "Stop" ends a Dutch game and names the brewer's family: a child asking for it is asked first.
                named = best.intent == "quit" and bool(set(normalize(text)) & self.name_words)
                return Understanding(text=text, intent=best.intent, family=best.family, confidence=confidence,
                                     polite=polite, confirm=named)
            return self._not_understood(text, polite, ranked, asker, phase)
        member = self.deck.card(best.card).member if best.card else None
        result = Understanding(text=text, intent=best.intent, target=best.target, card=best.card,
                               family=best.family, member=member, polite=polite, confidence=confidence,
                               instead_of=instead_of)
        others = [p for p in self.players if p != asker]
        if best.target is None and asker is not None and len(others) == 1:
            result.target = others[0]  # two players: the request can only be for the other one
        elif best.target in (None, _NOT_PLAYING):
            # Said to someone who is not playing, it is never a move, whoever else it might have been for.
            result.target = None
            to_anyone = replace(best, target=None)
            named = [h for h in ranked
                     if self._same_request(h, to_anyone) and h.target not in (None, asker, _NOT_PLAYING)]
            result.confirm = True
            result.alternatives = [self._alt(h) for h in named[:3]]
            result.reason = self._say("who")
            return result
        # Before every family is complete, a whole surname is a rare variant: always make sure.
        surname_ask = best.intent == "ask_family" and phase == "cards"
        cut_short = best.card is not None and self._possessive_alone(best.card, normalize(text))
        if heard <= ACT_COST and margin >= ACT_MARGIN and not surname_ask and instead_of is None and not cut_short:
            return result
        result.confirm = True
        close = [h for h in rivals if h.intent in _MOVES and h.target not in (None, _NOT_PLAYING)
                 and h.cost <= CONFIRM_COST + 0.5]
        result.alternatives = [{**self._alt(best), "target": result.target}] + [self._alt(h) for h in close[:2]]
        return result

    def _names_exactly(self, card: str, text: str) -> bool:
        """Whether ``text`` holds every word of one of ``card``'s names ("the" and such aside)."""
        words = set(self._compounds(normalize(text)))
        return any(cid == card and set(v) - FUNCTION_WORDS <= words for cid, v, _, _ in self._card_variants)

    def _names_family_exactly(self, family: str, text: str, phase: str) -> bool:
        """Whether ``text`` holds every word of one of ``family``'s names (in the second phase, a
        member's short name too: "Meneer Lint en familie")."""
        words = set(self._compounds(normalize(text)))
        variants = self._family_variants_phase2 if phase == "families" else self._family_variants
        return any(key == family and set(v) - FUNCTION_WORDS <= words for key, v, _, _ in variants)

    def _possessive_alone(self, card: str, words: tuple[str, ...]) -> bool:
        """Whether the words hold the possessive of the card's trade ("the sweep's") where the card's
        own names do not: the player stopped before saying whose card, so it is no clear request."""
        possessives = {trade[-1] + "s" for trade in self.phrases.trades[card.split(":")[0]]}
        said = possessives.intersection(words)
        return bool(said) and not any(said <= set(v) for v in self.phrases.cards[card])

    @staticmethod
    def _legal_sound_alike(best: _Hypothesis, ranked: list[_Hypothesis]) -> _Hypothesis | None:
        """A request the hand allows that was heard nearly as well as ``best``, which it rules out:
        "Mrs. Bun" heard as "Mrs. Bung", a card the asker holds. Offered (and asked about) rather
        than refusing the request the player most likely did not make, every time they say it."""
        heard = best.cost - best.penalty
        return next((h for h in ranked if h.intent in _MOVES and h.penalty == 0 and h.target == best.target
                     and h.cost - heard <= LEGAL_SOUND_ALIKE), None)

    @staticmethod
    def _same_request(a: _Hypothesis, b: _Hypothesis) -> bool:
        return a.intent == b.intent and a.card == b.card and a.family == b.family and (
            a.target is None or b.target is None or a.target == b.target)

    @staticmethod
    def _alt(h: _Hypothesis) -> dict[str, Any]:
        out: dict[str, Any] = {"intent": h.intent, "target": h.target}
        if h.card:
            out["card"] = h.card
        if h.family:
            out["family"] = h.family
        return out

    def example(self, asker: str | None = None, phase: str = "cards", target: str | None = None,
                card: str | None = None) -> str:
        """A request of this game to show how one is said: to ``target`` for ``card`` (in the second
        phase, that card's whole family), by default another player and the deck's first card."""
        player = target or next((p for p in self.players if p != asker), "Ben")
        card = self.deck.card(card).name(self.lang, "short") if card else self.deck.cards[0].name(self.lang, "short")
        if self.lang == "nl":
            return f"{player}, is {card} en familie thuis?" if phase == "families" else \
                f"{player}, is {card} thuis, alstublieft?"
        return f"{player}, is {card} and family at home?" if phase == "families" else f"{player}, is {card} at home?"

    def _not_understood(self, text: str, polite: bool, ranked: list[_Hypothesis], asker: str | None,
                        phase: str) -> Understanding:
        key = "no_card" if not any(h.intent in _MOVES for h in ranked) else "no_request"
        return Understanding(text=text, intent="none", polite=polite, reason_key=key,
                             reason=self.explain(key, self.example(asker, phase)))

    def explain(self, reason_key: str, example: str) -> str:
        """Why words were not taken as a request (``Understanding.reason_key``), with ``example``."""
        return self._say(reason_key, example=example)

    def _say(self, key: str, **fields: str) -> str:
        """One of the reasons in the understander's language (English for one it has none for)."""
        return _REASONS.get(self.lang, _REASONS["en"])[key].format(**fields)
