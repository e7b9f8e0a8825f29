"""Synthesize the voice corpus: spoken requests and table chatter, with what each should mean.

    python scripts/make_corpus.py                       # into /tmp/voicegame-corpus (about a minute)
    python scripts/make_corpus.py --out DIR --seed 1
    python scripts/make_corpus.py --noisy-files         # also write every noise condition as a WAV
    python scripts/make_corpus.py --held-out            # the held-out corpus, into /tmp/voicegame-heldout
    python scripts/make_corpus.py --held-out --deck letters   # ... naming letters-deck cards (-letters)

Needs ``pip install -e '.[bench]'`` (hibari-tts) and espeak-ng. Audio is never committed: it is
rebuilt from this script. The game: the jaques deck (``--deck``: another), players Alice, Ben, Cara and Dan, Alice
asking, with a hand that makes the request legal (the Understander is given it, as the table does).

What is in it:

* requests: phrasings drawn from the templates of ``grammars/en.toml`` with random choices for
  their optional and alternative words, the card said in full ("Mrs. Bun the Baker's Wife"),
  short ("Mrs. Bun") or by trade ("the baker's wife"), the player first, last or inside the
  template, "please" now and then; a fifth of them are second-phase requests for whole families.
  Each text is first checked as text: a line the Understander would not act on correctly as
  typed is dropped (voice errors should not be mixed with matcher errors).
* chatter: table talk that is not a request, and requests for cards not in the deck ("Mr.
  Strong"); checked as text not to be a move. Expected intent "none".
* commands: the table's commands as people say them ("What cards do I have?", "Say that
  again.", "Hold on."), with no question pending; checked as text to be that command. Added
  after the rest, so the requests and chatter (and their random choices) are as before.
* chatter again, last: requests for real cards to people at the table who are not playing ("Dad,
  do you have Master Soot?"), checked as text not to be a move.

The held-out corpus (``--held-out``, seed 2) has other requests from the same templates, and table
talk, requests for cards not in the deck and requests to people not playing that were written after
the recognizer's thresholds were tuned, in clean audio and white or babble noise 30 dB under the voice
(espeak-ng voices clean only): quiet rooms, where requests are played without asking. It has other
speakers too ("varied"): the neural voice lower (-300 cents, pitch and formants), slower (0.85) and
faster (1.2), clean; with them the model heard "Master Dip" surely as "master chip", which the one
neural voice never showed. Last in it come requests for cards not in the deck named like the deck's
("Mr. Boots", "the doctor's dog"), added December 7. ``bench_voice.py`` benchmarks it after the main corpus.

Every text is spoken twice (held out, five times): by the hibari-tts neural voice and by one of
several espeak-ng voices (through the game's own pyttsx3 engine), each at one of three speeds. The clean renders are WAV
files; noise conditions (white and babble at 20, 10 and 5 dB SNR) are manifest lines that name the
clean file and the noise (kind, SNR, seed), mixed when read (``render.mix_noise``), unless
``--noisy-files`` writes them out too. espeak-ng voices get the clean, 10 dB white and 10 dB babble
conditions only: they fit the acoustic model badly, and the benchmark time goes to the neural voice.

``manifest.jsonl``, one JSON object per recording and condition: id, file (relative to the folder),
text, kind (request/chatter/command), voice, family (neural/espeak/varied), speed, rate (espeak words a minute),
condition, noise, phase, expect {intent, target, card, family}, asker, hand, players, deck.

Reproducible: the same seed gives the same texts, voices, hands and noise, and the neural voice the
same samples. The espeak-ng renders through pyttsx3 vary by a few milliseconds from run to run
(measured; the espeak-ng command line does not), so keep a corpus folder to compare runs exactly.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from voicegame.decks import builtin_decks, load_deck  # noqa: E402
from voicegame.speech.render import ESPEAK_RATE, another_voice, mix_noise, speech_pcm, write_wav  # noqa: E402
from voicegame.understanding import Understander, load_grammar  # noqa: E402

DEFAULT_OUT = Path("/tmp/voicegame-corpus")
DECK = "jaques"
PLAYERS = ("Alice", "Ben", "Cara", "Dan")
ASKER = "Alice"
# espeak-ng 1.51 voice names as pyttsx3 takes them ("en" is British; "en-gb" is refused).
ESPEAK_VOICES = ("en-us", "en", "en+f3", "en-gb-scotland", "en-gb-x-rp+m3", "en-us+f2", "en-029", "en-us-nyc")
NEURAL_SPEEDS = (0.9, 1.0, 1.15)
ESPEAK_SPEEDS = (0.85, 1.0, 1.2)
NOISES = [(kind, snr) for kind in ("white", "babble") for snr in (20, 10, 5)]
ESPEAK_NOISES = [("white", 10), ("babble", 10)]
HAND_SIZE = 8

# Table talk at a family card game: none of it is a request for a card of the deck.
TABLE_TALK = [
    "Whose idea was it to play this game?", "Can somebody open the window?", "I love this game.",
    "Ben, stop peeking at my cards!", "Cara, you're sitting on the cushion.", "Dan, it's not your go yet.",
    "My cards are all sticky.", "Is there any more lemonade?", "I need the toilet.",
    "Who wants a biscuit?", "Let's play another round after this one.", "Grandma is coming for tea later.",
    "That was a clever move.", "I'm going to win this time.", "You always win, it isn't fair.",
    "Can we stop after this game?", "Be quiet, I'm thinking.", "Who keeps kicking me under the table?",
    "Ben, tell Dan to sit still.", "Mum said we have to finish by seven.", "The dog wants to play too.",
    "Alice, your shoelace is undone.", "I dropped a card on the floor.", "Has anyone seen the remote?",
    "Cara, pass me the crisps.", "Dan, you've got crumbs on your jumper.", "What's for dinner tonight?",
    "I think it's going to rain tomorrow.", "We went to the seaside on Saturday.",
    "My sister has a new bicycle.", "The baker's shop on our street closed down.",
    "I don't like the butcher's shop, it smells funny.", "My uncle is a real doctor.",
    "Our teacher read us a story about a chimney.", "Ben, can I borrow your pencil?",
    "Cara, do you want to swap seats?", "Dan, have you finished your homework?",
    "Is your cat called Whiskers?", "Where did I put my glasses?", "I've got a wobbly tooth.",
    "Ben, are you going to the party on Friday?", "Cara, can you reach the light switch?",
    "This is taking ages.", "Hurry up, it's been your turn for ever.", "Shuffle them again please.",
    "Did you see that film about the penguins?", "Let me think for a moment.", "Hmm, I'm not sure.",
    "Oh no, not again.", "Ha, that's funny.", "Dan, you're cheating!", "I'm hungry.",
    "Can I have a glass of water please?", "Ben, may I have the salt please?",
    "Cara, can I have a tissue please?", "Dan, have you got a spare rubber band?",
    "Is the kettle on?", "Is Grandpa asleep on the sofa again?", "Is the milkman coming tomorrow?",
    "The painter came to do the kitchen.", "My mum's friend is a tailor.",
    "We should invite the neighbours next time.", "I can hear the ice cream van.",
    "It's getting dark outside.", "Who is going to tidy up afterwards?",
    "Ben, your phone is ringing.", "Cara, your hair looks nice today.", "Dan, pick up your cards.",
    "Alice, it's not fair that you always go first.", "Everybody be quiet for a minute.",
    "I'm cold, can somebody close the door?", "Look at the time!", "We need more chairs.",
    "Can we play snap instead?", "I'll be the banker next time.",
]
# Requests for cards that are not in the jaques pack (other packs, TV, nonsense): no move either.
NOT_IN_DECK = [
    "Ben, is Mr. Strong at home?", "Cara, may I have Mrs. Plum?", "Dan, have you got Miss Muffet?",
    "Is Mr. Tickle at home, Ben?", "Ask Cara for Master Frost.", "Dan, do you have Mrs. Pepper?",
    "Ben, may I have Miss Honey the Beekeeper's Daughter?", "Is Mr. Greedy at home, Cara?",
    "Dan, is Mrs. Brown the Gardener's Wife at home?", "Cara, have you got Master Sprout?",
    "Ben, do you have the fisherman's son?", "Is the postman's daughter at home, Dan?",
    "Cara, may I have the farmer's wife please?", "Ask Ben for the fireman.",
    "Dan, is Mr. Happy at home?", "Ben, have you got Miss Marple?", "Is Mrs. Smith at home, Cara?",
    "Dan, may I have Mr. Jelly the Jester?", "Cara, is the Jones family at home?",
    "Ben, do you have Master Chef?", "Is Miss Daisy at home, Dan?", "Cara, may I have the Queen of Hearts?",
    "Ben, is the Green family at home?", "Dan, have you got Mr. Noisy?", "Ask Cara for Mrs. Wobble.",
    "Is Granny Smith at home, Ben?", "Dan, do you have Mr. Bean?", "Cara, have you got the sailor's wife?",
    "Ben, may I have the pilot's daughter please?", "Is Mrs. Twit at home, Dan?",
]
# Requests for real cards, but to people at the table who are not playing: no move either. Added after the
# commands, so the recordings before them stay as they were. Names a player's name with one vowel-like sound
# more, less or changed ("Clara" beside Cara) are out of reach (``PocketSphinxRecognizer._load_addressees``).
NOT_PLAYING = [
    "Dad, do you have Master Soot?", "Mum, is Mrs. Bun at home?", "Nan, may I have Miss Dose, please?",
    "Grandma, have you got Mr. Grits?", "Is Mr. Bun at home, Grandpa?", "Jen, may I have Mrs. Dose, please?",
    "Is Mr. Pots at home, Jen?", "Sam, do you have the baker's wife?", "Jan, is Master Chip at home?",
    "Pam, have you got Mrs. Tape?", "Tara, may I have Mr. Dip?", "Ken, is Miss Bung at home?",
    "Ask Dad for Mrs. Mug.", "Daddy, can I have Master Bones?", "Tom, do you have Mr. Chip?",
    "Is Mrs. Grits at home, Nan?", "Uncle, have you got the sweep?", "Kate, may I have Miss Pots, please?",
    "Is Master Mug at home, Sam?", "Mummy, is Mr. Dose at home?", "Gran, could I have the dyer's son?",
    "Dad, may I have Mrs. Dose, please?", "Is Miss Soot at home, Dad?", "Auntie, do you have Master Tape?",
]

# The held-out corpus (``--held-out``): lines written after the thresholds were tuned on the ones above, to
# check them on words they never saw, in quiet rooms (clean, and white or babble noise 30 dB under the
# voice, which the recognizer counts as quiet). Its requests are drawn from the same templates with
# another seed.
HELD_OUT_TALK = [
    "Ben, do you have a pen I could borrow?", "Cara, is your brother at home today?",
    "Dan, may I have a biscuit please?", "Is Dad at home yet?", "Ben, have you got my hat?",
    "Cara, do you have any sweets?", "Dan, is your mum picking you up?", "Is the baker open on Sunday?",
    "Ben, can I have a sip of your juice?", "Cara, have you got a hair band?", "Dan, is the doctor coming?",
    "Mister Bean is on the telly tonight.", "Miss Smith is our new teacher.",
    "Mrs. Jones from next door is coming round.", "Cara, pass the bowl please.", "Dan, sit down please.",
    "The whole family is coming at Christmas.", "Is anyone at home next door?", "My family went to the zoo.",
    "Ben, have you got the time?", "Cara, is that your coat?", "Dan, do you want some cake?",
    "Could I have some more chips please?", "Is the pot of tea ready?", "I need a new pair of boots.",
    "Ben, are you at home tomorrow?", "Dan, is your dad a baker?", "Cara, may I have a go on your bike?",
    "Can I have the tape please, Ben?", "Ben, do you have any chips left?", "Dan, do you have the dice?",
    "Cara, is your mum the baker?", "Dan, I want a drink.", "Ben, got any gum?", "Is the bin full?",
    "I want to go home.", "Ben, the dog ate my card.", "Cara, is your sister at home?",
    "Dan, do you have a spoon?", "The postman came early today.", "Is Miss Potts your teacher?",
    "Ben, can I have the blue cup?", "Ben, is your mother at home?", "Cara, may I have the butter please?",
    "Dan, have you got a plaster?", "Is the dinner at home or out?", "Ben, have you got the dustpan?",
    "Cara, do you have a spare sock?", "Dan, can I have your mug?", "I miss the old days.",
    "Master bedroom is upstairs.", "Ben, I'll get you back for that.", "Cara, my turn next, isn't it?",
    "Dan, you did that on purpose.", "Is the paint dry yet?", "The tailor fixed my trousers.",
    "The chimney needs sweeping.", "Ben, can you hear me?", "Cara, wake up!", "Dan, the bath is running.",
    "Have you got any homework, Ben?", "Is Mister Tumble on today, Cara?", "Do you have the time, Dan?",
    "May I have a cuddle, Mum?", "Have you got a plaster, Cara?",
]
HELD_OUT_NOT_IN_DECK = [
    "Ben, is Mr. Brown at home?", "Cara, may I have Mrs. Green?", "Dan, have you got Master Plum?",
    "Is Miss Scarlet at home, Ben?", "Ask Dan for Mr. Bump.", "Cara, do you have Miss Sunshine?",
    "Ben, may I have Mrs. White the Cook?", "Dan, is Mr. Bloggs the Butler at home?",
    "Ben, have you got Mrs. Bond?", "Cara, may I have Mr. Tate?", "Is Miss Dunn at home, Dan?",
    "Ben, do you have Mr. Pink?", "Dan, can I have the King of Spades?", "Cara, is Mrs. Dobbs at home?",
    "Ben, have you got the fisherman's son?", "Is the farmer's daughter at home, Cara?",
    "Dan, may I have the postman's wife?", "Ask Ben for Master Mustard.", "Cara, have you got Mr. Silly?",
    "Is Mrs. Honey at home, Dan?", "Ben, may I have the policeman's son?", "Dan, do you have Miss Piggy?",
    "Is Mr. Sneeze at home, Ben?", "Cara, can I have Master Jack?", "Ben, is the Brown family at home?",
    "Dan, is the Smith family at home?", "Cara, do you have Mr. Rush?", "Is Mrs. Peacock at home, Ben?",
    "Dan, may I have Mr. Fox the Farmer?", "Ask Cara for Miss Bright.",
]
HELD_OUT_NOT_PLAYING = [
    "Gwen, do you have Mr. Bun?", "Is Mrs. Pots at home, Zara?", "Pat, may I have Master Dip?",
    "Lily, have you got Miss Soot?", "Is Mr. Chip at home, Grandad?", "Max, do you have Mrs. Bones?",
    "Ask Mummy for the tailor.", "Tess, is Master Grits at home?", "Is Miss Mug at home, Will?",
    "Josh, may I have Mr. Tape?", "Ella, have you got Master Bung?", "Is Mrs. Dip at home, Joe?",
    "Molly, do you have Miss Dose?", "Sophie, may I have Mr. Soot?", "Is Master Pots at home, Harry?",
    "Auntie, is Mrs. Chip at home?", "Grandad, can I have Mr. Bones?", "Daddy, is Miss Bun at home?",
    "Sam, may I have the baker's son?", "Bea, do you have Mrs. Mug?", "Dee, is Mr. Dose at home?",
    "Mum, may I have Master Tape?", "Nan, is Mr. Mug at home?", "Is Miss Chip at home, Mum?",
    "Dad, can I have the sweep's wife?", "Jen, have you got Mr. Bung?", "Is Mrs. Soot at home, Gran?",
    "Tom, may I have Miss Grits, please?", "Kate, is Mr. Pots at home?", "Ken, do you have Master Bun?",
]
# Cards not in the deck named like the deck's: made-up surnames near its own ("Mr. Boots", "Miss Dipper") and
# trades or members it does not have ("the doctor's dog"). Written December 7, after round 23 of the
# PocketSphinx tuning and before any run, when the held-out "Master Plum" line was the only one known to be
# played as a card of the deck. Added last, so the recordings before them stay as they were.
HELD_OUT_NEAR = [
    "Ben, is Mr. Plump at home?", "Cara, may I have Mrs. Bond?", "Dan, have you got Master Chop?",
    "Is Miss Dipper at home, Ben?", "Cara, do you have Mr. Grist?", "Dan, may I have Mrs. Button?",
    "Ben, have you got Master Pepper?", "Is Mr. Tap at home, Cara?", "Dan, do you have Miss Bunny?",
    "Ben, may I have Mrs. Chalk?", "Cara, is Master Bean at home?", "Dan, have you got Mr. Dust?",
    "Is Mrs. Grass at home, Ben?", "Cara, may I have Miss Mop?", "Ben, do you have Master Potter?",
    "Dan, is Mr. Boots at home?", "Cara, have you got Mrs. Tulip?", "Ask Ben for Mr. Bucket.",
    "Is Master Drum at home, Dan?", "Cara, may I have the baker's cat?", "Ben, do you have the plumber's wife?",
    "Dan, have you got the butler's son?", "Is the doctor's dog at home, Cara?", "Ben, may I have Miss Dumpling?",
    "Dan, is Mrs. Biscuit at home?", "Cara, do you have Mr. Gravy?", "Ben, have you got Master Muffin?",
    "Is Mrs. Pickle at home, Dan?", "Cara, may I have Mr. Bumble?", "Ben, is Miss Tidy at home?",
]
HELD_OUT_NOISES = [("white", 30), ("babble", 30)]
# The held-out corpus's other speakers: the neural voice lower, slower and faster (``render.another_voice``), clean.
OTHER_VOICES = {"low": {"cents": -300}, "slow": {"tempo": 0.85}, "fast": {"tempo": 1.2}}
HELD_OUT_OUT = Path("/tmp/voicegame-heldout")


# ------------------------------------------------------------------ phrasing from the templates


def _choose(template: str, rng: random.Random) -> str:
    """One phrasing of a template: each [optional] kept or not, one of each (a | b) taken."""
    tokens = re.findall(r"\{\w+\}|[\[\]()|]|[^\s\[\]()|]+", template)
    pos = 0

    def seq(stop: set[str]) -> list[str]:
        nonlocal pos
        out: list[str] = []
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok in "[(":
                close = "]" if tok == "[" else ")"
                options = []
                while True:
                    options.append(seq({"|", close}))
                    sep = tokens[pos]
                    pos += 1
                    if sep == close:
                        break
                if tok == "[":
                    options.append([])
                out += rng.choice(options)
            else:
                out.append(tok)
        return out

    return " ".join(seq(set()))


def _card_name(card, rng: random.Random) -> str:
    full, short = card.name("en", "full"), card.name("en", "short")
    forms = [full, short, short]
    if full.startswith(short + " "):
        forms.append(full[len(short) + 1:].lower())  # "the baker's wife": by trade
    return rng.choice(forms)


def _family_name(template: str, family, member_card, rng: random.Random) -> str:
    """"Mr. Bun and family", "the whole Buns", "Bun the Baker": whichever the template reads well with."""
    surname = family.name("en", "surname")
    if "and" in template.split():
        return rng.choice([surname, family.name("en", "name"), member_card.name("en", "short")])
    if "the [whole]" in template:
        return rng.choice([surname, family.name("en", "plural")])
    return rng.choice([surname, family.name("en", "name")])


_QUESTION_STARTS = {"is", "are", "may", "can", "could", "do", "did", "have", "would"}


def _phrase(template: str, slot: str, name: str, target: str, rng: random.Random) -> str:
    """A written sentence: the template's words, the name, the player first, last or where the
    template puts it, sometimes "please"."""
    words = re.sub(r"\bi\b", "I", _choose(template, rng)).replace("{" + slot + "}", name)
    mark = "?" if words.split()[0] in _QUESTION_STARTS else "."
    please = ", please" if rng.random() < 0.25 and "please" not in words else ""
    if "{player}" in words:
        text = words.replace("{player}", target) + please.replace(",", "") + mark
    elif rng.random() < 0.5:
        text = f"{target}, {words}{please}{mark}"
    else:
        text = f"{words}{please}, {target}{mark}"
    return text[0].upper() + text[1:]


def _hand(deck, card_id: str | None, rng: random.Random) -> list[str]:
    """Alice's hand for a request of ``card_id``: another card of its family, never the card itself."""
    ids = [c.id for c in deck.cards]
    if card_id is None:
        return sorted(rng.sample(ids, HAND_SIZE))
    family = card_id.split(":")[0]
    same = [c for c in ids if c.split(":")[0] == family and c != card_id]
    hand = {rng.choice(same)}
    others = [c for c in ids if c != card_id and c not in hand]
    hand.update(rng.sample(others, HAND_SIZE - 1))
    return sorted(hand)


def requests(n: int, rng: random.Random, deck_name: str = DECK) -> tuple[list[dict], int]:
    """``n`` request lines (a fifth for whole families in the second phase) that the
    Understander acts on correctly as text, and how many candidates were dropped."""
    deck = load_deck(deck_name)
    understander = Understander(deck, PLAYERS)
    source = load_grammar("en").source["requests"]
    targets = [p for p in PLAYERS if p != ASKER]
    lines, dropped, seen = [], 0, set()
    n_family = n // 5
    while len(lines) < n:
        target = rng.choice(targets)
        if len(lines) < n_family:
            family = rng.choice(deck.families)
            member = rng.choice(family.cards)
            template = rng.choice(source["ask_family"])
            text = _phrase(template, "family", _family_name(template, family, member, rng), target, rng)
            expect = {"intent": "ask_family", "target": target, "card": None, "family": family.key}
            phase, hand = "families", None
        else:
            card = rng.choice(deck.cards)
            template = rng.choice(source["ask"])
            text = _phrase(template, "card", _card_name(card, rng), target, rng)
            expect = {"intent": "ask", "target": target, "card": card.id, "family": None}
            phase, hand = "cards", _hand(deck, card.id, rng)
        if text in seen:
            continue
        seen.add(text)
        got = understander.understand(text, asker=ASKER, hand=hand, phase=phase)
        if not (got.is_move and (got.intent, got.target, got.card, got.family) == tuple(expect.values())):
            dropped += 1
            continue
        lines.append({"kind": "request", "text": text, "phase": phase, "expect": expect, "hand": hand})
    return lines, dropped


# Commands as people say them, and the intent each should be (no question pending: no yes or no).
COMMANDS = [
    ("My hand.", "hand"), ("What cards do I have?", "hand"), ("Which Buns do I have?", "hand"),
    ("What is in my hand?", "hand"), ("Whose turn is it?", "status"), ("What is the score?", "status"),
    ("Status.", "status"), ("History.", "history"), ("What happened?", "history"), ("Repeat that.", "repeat"),
    ("Say that again.", "repeat"), ("Pardon?", "repeat"), ("Help.", "help"), ("What can I say?", "help"),
    ("Undo.", "undo"), ("Take that back.", "undo"), ("Pause.", "pause"), ("Hold on.", "pause"), ("Quit.", "quit"),
    ("Stop the game.", "quit"), ("Slower.", "slower"), ("Speak faster.", "faster"), ("Continue.", "resume"),
    ("Carry on.", "resume"), ("More detail.", "verbose"), ("Less detail.", "terse"),
    ("What did you hear?", "heard"),
]


def commands(rng: random.Random, deck_name: str = DECK) -> tuple[list[dict], int]:
    deck = load_deck(deck_name)
    understander = Understander(deck, PLAYERS)
    lines, dropped = [], 0
    for text, intent in COMMANDS:
        hand = _hand(deck, None, rng)
        if understander.understand(text, asker=ASKER, hand=hand).intent != intent:
            dropped += 1
            continue
        lines.append({"kind": "command", "text": text, "phase": "cards", "hand": hand,
                      "expect": {"intent": intent, "target": None, "card": None, "family": None}})
    return lines, dropped


def chatter(rng: random.Random, texts: list[str] = TABLE_TALK + NOT_IN_DECK, deck_name: str = DECK
            ) -> tuple[list[dict], int]:
    deck = load_deck(deck_name)
    understander = Understander(deck, PLAYERS)
    lines, dropped = [], 0
    for text in texts:
        hand = _hand(deck, None, rng)
        if understander.understand(text, asker=ASKER, hand=hand).is_move:
            dropped += 1
            continue
        lines.append({"kind": "chatter", "text": text, "phase": "cards", "hand": hand,
                      "expect": {"intent": "none", "target": None, "card": None, "family": None}})
    return lines, dropped


# ------------------------------------------------------------------ rendering


def build(out: Path, *, n_requests: int = 160, seed: int = 1, noisy_files: bool = False, held_out: bool = False,
          deck: str = DECK, progress=print) -> Path:
    """Render the corpus into ``out`` (``held_out``: the held-out lines and quiet rooms); returns the
    manifest's path."""
    rng = random.Random(seed)
    talk, not_playing = (HELD_OUT_TALK + HELD_OUT_NOT_IN_DECK, HELD_OUT_NOT_PLAYING) if held_out \
        else (TABLE_TALK + NOT_IN_DECK, NOT_PLAYING)
    neural_noises, espeak_noises = (HELD_OUT_NOISES, []) if held_out else (NOISES, ESPEAK_NOISES)
    reqs, dropped_requests = requests(n_requests, rng, deck)
    chat, dropped_chatter = chatter(rng, talk, deck)
    cmds, dropped_commands = commands(random.Random(f"{seed}|commands"), deck)  # the other lines draw as before
    strangers, dropped_strangers = chatter(random.Random(f"{seed}|not playing"), not_playing, deck)
    near, dropped_near = chatter(random.Random(f"{seed}|near"), HELD_OUT_NEAR if held_out else [], deck)
    strangers += near
    chat_all, dropped_chatter = chat + strangers, dropped_chatter + dropped_strangers + dropped_near
    voices_per_line = 2 + len(OTHER_VOICES) * held_out
    (out / "clean").mkdir(parents=True, exist_ok=True)
    if noisy_files:
        (out / "noisy").mkdir(exist_ok=True)
    manifest = out / "manifest.jsonl"
    t0 = time.perf_counter()
    rows = 0
    with open(manifest.with_suffix(".part"), "w", encoding="utf-8") as fh:
        for i, line in enumerate(reqs + chat + cmds + strangers):
            espeak = ESPEAK_VOICES[i % len(ESPEAK_VOICES)]
            neural_speed, espeak_speed = rng.choice(NEURAL_SPEEDS), rng.choice(ESPEAK_SPEEDS)
            neural = speech_pcm(line["text"], "hibari", neural_speed)
            voices = [("neural", "hibari", neural_speed, neural, neural_noises),
                      ("espeak", espeak, espeak_speed, speech_pcm(line["text"], espeak, espeak_speed), espeak_noises)]
            if held_out:
                voices += [("varied", f"hibari-{name}", neural_speed * change.get("tempo", 1.0),
                            another_voice(neural, **change), []) for name, change in OTHER_VOICES.items()]
            for family, voice, speed, pcm, noises in voices:
                base = f"{line['kind'][0]}{i:03d}-{voice.replace('+', '_')}"
                write_wav(out / "clean" / f"{base}.wav", pcm)
                for noise in [None] + noises:
                    condition = "clean" if noise is None else f"{noise[0]}-{noise[1]}"
                    row_id = f"{base}-{condition}"
                    noise_spec = None if noise is None else {"kind": noise[0], "snr_db": noise[1],
                                                            "seed": zlib.crc32(f"{seed}|{row_id}".encode())}
                    file = f"clean/{base}.wav"
                    if noise_spec and noisy_files:
                        file = f"noisy/{base}-{condition}.wav"
                        write_wav(out / file, mix_noise(pcm, noise[1], noise[0], noise_spec["seed"]))
                    row = {"id": row_id, "file": file, "text": line["text"], "kind": line["kind"],
                           "voice": voice, "family": family, "speed": speed,
                           "rate": round(ESPEAK_RATE * speed) if family == "espeak" else None,
                           "condition": condition, "noise": noise_spec, "phase": line["phase"],
                           "expect": line["expect"], "asker": ASKER, "hand": line["hand"],
                           "players": list(PLAYERS), "deck": deck}
                    fh.write(json.dumps(row) + "\n")
                    rows += 1
            if (i + 1) % 50 == 0:
                progress(f"  {i + 1} of {len(reqs) + len(chat_all) + len(cmds)} texts rendered"
                         f" ({time.perf_counter() - t0:.0f} s)")
    manifest.with_suffix(".part").replace(manifest)
    summary = {"seed": seed, "requests": len(reqs), "requests_dropped_as_text": dropped_requests,
               "chatter": len(chat_all), "chatter_dropped_as_text": dropped_chatter,
               "commands": len(cmds), "commands_dropped_as_text": dropped_commands,
               "recordings": voices_per_line * (len(reqs) + len(chat_all) + len(cmds)),
               "manifest_rows": rows,
               "seconds": round(time.perf_counter() - t0, 1)}
    (out / "corpus.json").write_text(json.dumps(summary, indent=2) + "\n")
    progress(f"{summary['recordings']} recordings ({len(reqs)} requests, {len(chat_all)} chatter lines and {len(cmds)}"
             f" commands, each in {voices_per_line} voices), {rows} manifest rows,"
             f" in {summary['seconds']} s -> {manifest}")
    if dropped_requests or dropped_chatter or dropped_commands:
        progress(f"dropped as text: {dropped_requests} request phrasings the Understander did not act on "
                 f"correctly, {dropped_chatter} chatter lines it took for a move, {dropped_commands} commands it"
                 f" took for something else")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None,
                    help=f"folder to write (default {DEFAULT_OUT}, or {HELD_OUT_OUT} with --held-out)")
    ap.add_argument("--requests", type=int, default=160, help="request texts (default 160)")
    ap.add_argument("--seed", type=int, default=None, help="default 1 (2 with --held-out)")
    ap.add_argument("--noisy-files", action="store_true", help="write every noise condition as a WAV file too")
    ap.add_argument("--held-out", action="store_true",
                    help="the held-out corpus: other table talk, strangers and phrasings, in quiet rooms")
    ap.add_argument("--deck", choices=builtin_decks(), default=DECK,
                    help=f"the deck the requests name (default {DECK}; another deck's folder ends in -DECK)")
    args = ap.parse_args(argv)
    out = args.out or (HELD_OUT_OUT if args.held_out else DEFAULT_OUT)
    if args.deck != DECK and args.out is None:
        out = out.with_name(f"{out.name}-{args.deck}")
    seed = args.seed if args.seed is not None else 2 if args.held_out else 1
    build(out, n_requests=args.requests, seed=seed, noisy_files=args.noisy_files, held_out=args.held_out,
          deck=args.deck)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
