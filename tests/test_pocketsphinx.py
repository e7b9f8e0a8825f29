"""Real decoding with PocketSphinx: synthetic requests (hibari-tts neural voice, espeak-ng) through
the recognizer and the Understander, as the game would hear them.

Needs ``pip install pocketsphinx hibari-tts`` and ``apt-get install espeak-ng``; tests that need a
missing one are skipped, saying which. Rendered audio is cached in the temp directory.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from voicegame.decks import load_deck
from voicegame.speech.base import Hearing
from voicegame.speech.pocketsphinx_backend import COMMAND_REJECT, WORD_REJECT
from voicegame.speech.pronounce import PHONES, ipa_to_arpabet, pronounce, pronounce_all, spelled_phones
from voicegame.speech.render import as_a_child, speech_pcm
from voicegame.understanding import Phrases, Understander, load_grammar, speech_grammar

PLAYERS = ("Alice", "Ben", "Cara", "Dan")
CACHE = Path(tempfile.gettempdir()) / "voicegame-speech-cache"


def _need_pocketsphinx():
    pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed (pip install pocketsphinx)")


def _need_sox():
    if shutil.which("sox") is None:
        pytest.skip("sox is not installed (apt-get install sox): it makes the child's voice")


def _need_espeak():
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")


class Voices:
    """``render.speech_pcm`` with a disk cache by voice and text, so reruns of the suite are fast."""

    # espeak-ng 1.51 takes "en-gb" as a language on its command line but not as a voice name
    # through pyttsx3; its British voice file is "en".
    _VOICE_FILES = {"en-gb": "en"}

    def __init__(self) -> None:
        CACHE.mkdir(exist_ok=True)

    def render(self, text: str, voice: str = "hibari") -> bytes:
        voice = self._VOICE_FILES.get(voice, voice)
        path = CACHE / (hashlib.sha1(f"render|{voice}|{text}".encode()).hexdigest()[:20] + ".raw")
        if path.exists():
            return path.read_bytes()
        if voice == "hibari":
            pytest.importorskip("hibari", reason="hibari-tts is not installed (pip install hibari-tts)")
        else:
            _need_espeak()
        pcm = speech_pcm(text, voice)
        path.write_bytes(pcm)
        return pcm


@pytest.fixture(scope="module")
def voices() -> Voices:
    return Voices()


@pytest.fixture(scope="module")
def game():
    deck = load_deck("jaques")
    grammar = load_grammar("en")
    phrases = Phrases(deck, PLAYERS, "en")
    return *speech_grammar(grammar, phrases), Understander(deck, PLAYERS)


def _recognizer(game, **options):
    _need_pocketsphinx()
    from voicegame.speech.pocketsphinx_backend import PocketSphinxRecognizer

    recognizer = PocketSphinxRecognizer(**options)
    recognizer.max_load = float("inf")  # a busy test machine must not switch denoising off mid-test
    recognizer.set_grammar(*game[:3])
    return recognizer


@pytest.fixture(scope="module")
def recognizer(game):
    return _recognizer(game)


# ------------------------------------------------------------------ pronunciations (no engine needed)


def test_pronunciation_from_a_dictionary_word():
    """Possessives and plurals reuse the dictionary's stem, with the ending its last sound takes."""
    lookup = {"baker": "B EY K ER", "pots": "P AA T S", "sweep": "S W IY P", "weight": "W EY T",
              "lifter": "L IH F T ER"}.get
    assert pronounce("bakers", lookup) == "B EY K ER Z"
    assert pronounce("potses", lookup) == "P AA T S IH Z"
    assert pronounce("sweeps", lookup) == "S W IY P S"
    assert pronounce("weightlifters", lookup) == "W EY T L IH F T ER Z"


def test_spelling_rules_always_give_model_phones():
    for word in ("cara", "zofia", "siobhan", "grits", "quentin", "xyz"):
        phones = spelled_phones(word)
        assert phones and set(phones.split()) <= PHONES, word
    assert spelled_phones("cara") == "K AA R AH"


def test_ipa_maps_to_model_phones():
    assert ipa_to_arpabet("kˈɑːɹɹə") == "K AA R AH"  # doubled r once; stress and length marks dropped
    assert ipa_to_arpabet("bˈeɪkɚz") == "B EY K ER Z"
    assert ipa_to_arpabet("kˈɑː☃") is None


def test_espeak_pronunciations_map_to_model_phones():
    _need_espeak()
    found = pronounce_all(["cara", "zofia", "siobhan"], lambda w: None)
    assert found["cara"] == "K AA R AH"
    assert found["zofia"].startswith("Z OW F")
    assert all(set(p.split()) <= PHONES for p in found.values())


# ------------------------------------------------------------------ recognizer set-up


def test_missing_words_get_pronunciations(recognizer, game):
    words = game[0]
    assert {"cara", "bakers", "sweeps", "tailors"} <= set(words)
    assert recognizer.missing_words(words) == []
    # Not in the CMU dictionary, so added from their stems; "bakers" and "cara" are in it.
    assert recognizer.added["dyers"] == "D AY ER Z"
    assert recognizer.added["potses"] == "P AA T S IH Z"
    assert {"cara", "bakers"}.isdisjoint(recognizer.added)


def test_name_words_also_get_espeaks_american_pronunciation(recognizer, voices, game):
    """The dictionary says "cara" K EH R AH; the neural voice, like espeak-ng, says K AA R AH. With
    both, a request beginning with the name fits well enough to be played at once (round 14)."""
    assert recognizer.added["cara(2)"] == "K AA R AH"
    assert "ben(3)" not in recognizer.added  # espeak-ng says "Ben" as the dictionary does
    hearing = recognizer.hear(voices.render("Cara, have you got Mr. Chip?"))
    assert hearing.texts()[0] == "cara have you got mister chip" and hearing.sure, recognizer.last_margin


def test_unknown_words_do_not_break_the_grammar(game):
    r = _recognizer(game)
    r.set_grammar(["zofia", "qwzx"], "#JSGF V1.0;\ngrammar t;\npublic <u> = zofia | qwzx | yes;\n")
    assert set(r.added) >= {"zofia", "qwzx"}


def test_factoring_shares_the_slot_between_alternatives():
    """Alternatives ending alike after their last slot share one copy of it; the language is the same."""
    from voicegame.speech.pocketsphinx_backend import factor_jsgf

    rule = "<request> = ( <card> ) | ( is <card> at home ) | ( my question is for <player> is <card> at home ) | ( help );"
    assert factor_jsgf(rule) == ("<request> = ( <card> ) | ( ( is | my question is for <player> is ) <card> at home )"
                                 " | ( help );\n")
    assert factor_jsgf("<r> = ( a <card> ) | ( <card> ) | ( b <card> x );") == "<r> = ( [ a ] <card> ) | ( b <card> x );\n"


# ------------------------------------------------------------------ decoding


NEURAL_REQUESTS = [
    ("Ben, is Mrs. Bun at home?", "Alice", "Ben", "bun:mrs"),
    ("Is Mister Grits at home, Cara?", "Alice", "Cara", "grits:mr"),
    ("Dan, may I have the baker's son?", "Ben", "Dan", "bun:master"),
    ("Have you got the dyer's son, Dan?", "Cara", "Dan", "dip:master"),
    ("Ask Cara for Master Chip.", "Alice", "Cara", "chip:master"),
    ("Alice, can I have Mrs. Bones, please?", "Cara", "Alice", "bones:mrs"),
    ("Please, Cara, could I have Master Bones?", "Alice", "Cara", "bones:master"),  # was heard as "the score"
]


@pytest.mark.parametrize("text,asker,target,card", NEURAL_REQUESTS)
def test_neural_voice_requests_are_understood_exactly(recognizer, voices, game, text, asker, target, card):
    hearing = recognizer.hear(voices.render(text))
    result = game[3].understand(hearing.texts(), asker=asker)
    assert (result.intent, result.target, result.card) == ("ask", target, card), hearing.texts()
    assert result.is_move
    assert not hearing.doubtful
    assert hearing.decode_ms > 0  # timed (speed is the benchmark's to judge)


def test_a_command_is_recognized(recognizer, voices, game):
    hearing = recognizer.hear(voices.render("My hand."))
    assert hearing.text == "my hand"
    assert game[3].understand(hearing.texts()).intent == "hand"


@pytest.mark.parametrize("text", ["pass the juice please", "Cara, may I have the salt?",
                                  "I can't find my swimming goggles", "Mrs. Bun is my favourite card"])
def test_table_chatter_does_not_become_a_move(recognizer, voices, game, text):
    """The grammar forces each of these into a request (some the words alone would play); as the
    table takes what was heard, none is a move."""
    from voicegame.table.session import as_heard

    hearing = recognizer.hear(voices.render(text))
    assert game[3].understand(hearing.texts(), asker="Alice").intent in ("ask", "ask_family"), hearing.texts()
    assert not as_heard(game[3], hearing, "Alice", None, "cards").is_move, hearing.texts()


def test_table_talk_heard_as_a_card_named_by_its_trade_alone_is_asked_about(recognizer, voices, game):
    """ "Ben, pass me the paper please." is heard surely as "... the painter please": the one word
    naming the card fits too poorly to play it on its own (round 24), where right requests that name
    a card by its trade alone fit well ("Cara, is the carpenter at home?")."""
    from voicegame.table.session import as_heard

    paper = recognizer.hear(voices.render("Ben, pass me the paper please."))
    assert "painter" in paper.text and "painter" in paper.poor_fits
    assert not as_heard(game[3], paper, "Alice", None, "cards").is_move
    carpenter = recognizer.hear(voices.render("Cara, is the carpenter at home?"))
    assert as_heard(game[3], carpenter, "Alice", None, "cards").card == "chip:mr" and not carpenter.poor_fits


def _checked(game, voices, checker_players=PLAYERS):
    """A recognizer checked by a second PocketSphinx (as an English Vosk model is), each warmed up
    on one request; the checker may listen for other players."""
    from voicegame.speech.checked import CheckedRecognizer

    primary, checker = _recognizer(game), _recognizer(game)
    both = CheckedRecognizer(primary, checker)
    both.set_grammar(*game[:3])
    if checker_players != PLAYERS:
        checker.set_grammar(*speech_grammar(load_grammar("en"), Phrases(load_deck("jaques"), checker_players, "en")))
    both.hear(voices.render("Dan, is Mr. Bun the Baker at home?"))
    return both, primary


def test_a_second_recognizer_that_hears_the_same_names_keeps_a_hearing_sure(voices, game):
    both, primary = _checked(game, voices)
    hearing = both.hear(voices.render("Cara, is Mr. Pots the painter at home?"))
    assert (hearing.text, hearing.sure) == ("cara is mister pots the painter at home", True)


def test_a_second_recognizer_that_hears_other_names_makes_a_sure_hearing_unsure(voices, game):
    """The checker listens for Kim, not Cara: it cannot hear Cara, so the two disagree on a request
    the first is sure of, and it is asked about. The words heard stay the first recognizer's."""
    pcm = voices.render("Cara, is Mr. Pots the painter at home?")
    both, primary = _checked(game, voices, checker_players=("Alice", "Ben", "Kim", "Dan"))
    hearing = both.hear(pcm)
    assert hearing.text == "cara is mister pots the painter at home" and not hearing.sure
    assert primary.hear(pcm).sure


def test_a_second_recognizer_that_finds_a_name_word_fitting_poorly_makes_it_unsure(voices, game):
    both, primary = _checked(game, voices)
    pcm = voices.render("Ben, pass me the paper please.")
    assert not both.hear(pcm).sure
    assert primary.hear(pcm).sure


def test_a_grammar_the_second_recognizer_cannot_load_leaves_every_request_to_be_asked_about(voices, game):
    from voicegame.speech.base import SpeechError
    from voicegame.speech.checked import CheckedRecognizer

    primary, checker = _recognizer(game), _recognizer(game)

    def cannot(*grammar):
        raise SpeechError("The speech grammar could not be loaded.")

    checker.set_grammar = cannot  # as for a word it has no pronunciation for
    both = CheckedRecognizer(primary, checker)
    both.set_grammar(*game[:3])
    pcm = voices.render("Cara, is Mr. Pots the painter at home?")
    both.hear(voices.render("Dan, is Mr. Bun the Baker at home?"))
    hearing = both.hear(pcm)
    assert hearing.text == "cara is mister pots the painter at home" and not hearing.sure
    assert primary.hear(pcm).sure


def test_table_talk_the_second_recognizer_finds_stray_is_let_pass(voices, game):
    """While "Did you ask Ben for Mrs. Bun?" waits, table talk comes out "yes" in the yes-or-no
    grammar. A first recognizer with no rejection of its own (as Vosk) passes it on; the checker
    finds it fits worse than any answer said to the game, so the table lets it pass."""
    from voicegame.speech.checked import CheckedRecognizer
    from helpers import steady_recognizer
    from voicegame.understanding.grammar import answer_jsgf

    _need_pocketsphinx()
    primary, checker = steady_recognizer(reject_margin=None), _recognizer(game)
    both = CheckedRecognizer(primary, checker)
    both.set_grammar(*answer_jsgf(load_grammar("en"), game[3].phrases, "yes_no"))
    both.hear(voices.render("Yes."))
    talk = voices.render("Ben, are you going to the party on Friday?")
    assert both.hear(talk).stray
    assert primary.hear(talk).text  # heard as words by the first alone, which rejects nothing
    answer = both.hear(voices.render("Yes."))
    assert answer.text == "yes" and not answer.stray


def test_espeak_requests_are_never_a_wrong_move(recognizer, voices, game):
    """Robotic voices fit the acoustic model badly: the grammar still forces them into requests,
    some for the wrong card ("missus pots" for Mrs. Bun), but none is taken as a wrong move."""
    from voicegame.table.session import as_heard

    misheard = []
    for voice in ("en-us", "en-gb", "en+f3"):
        for text, asker, target, card in NEURAL_REQUESTS[:3]:
            hearing = recognizer.hear(voices.render(text, voice))
            words = game[3].understand(hearing.texts(), asker=asker)
            if words.intent in ("ask", "ask_family") and (words.target, words.card) not in ((target, card), (None, card)):
                misheard.append(hearing.text)
            result = as_heard(game[3], hearing, asker, None, "cards")
            if result.is_move:
                assert (result.target, result.card) == (target, card), (voice, text, hearing.texts())
    assert misheard  # the danger is real: words that would be another request, if taken as heard


def test_espeak_commands_are_heard_by_the_grammar_alone(game, voices):
    """The rejection test is tuned on the neural voice and turns espeak down; without it the grammar
    path hears commands in each espeak voice, once the cepstral mean has adapted to the voice (one
    earlier utterance, as in a game). Two-word "my hand" is too short for espeak en-us ("undo").
    Nearly all would be doubted with the defaults: how nearly moves with the machine's arithmetic
    (en+f3 "Say that again." scored -15.3 on one machine, just over the threshold, and under it on another).
    A robotic "What is in my hand?" may come out "what do i do" (help, as private as the hand): on one
    machine en-us and en-gb did, on another neither; never a move."""
    _need_espeak()
    r = _recognizer(game, reject_margin=None)
    rejected, heard = [], []
    for voice in ("en-us", "en-gb", "en+f3"):
        r.hear(voices.render("Ben, is Mrs. Bun at home?", voice))
        for text, intent in (("What is in my hand?", "hand"), ("Whose turn is it?", "status"),
                             ("Say that again.", "repeat")):
            hearing = r.hear(voices.render(text, voice))
            understood = game[3].understand(hearing.texts()).intent
            assert understood == intent or (intent, understood) == ("hand", "help"), (voice, hearing.texts())
            heard.append(understood == intent)
            rejected.append(r.last_margin < r.last_reject or r.last_word_margin < WORD_REJECT)
    assert sum(heard) >= 7, heard
    assert sum(rejected) >= 7, rejected  # what the defaults reject


def test_streaming_in_100ms_chunks_equals_whole_buffer(game, voices):
    pcm = voices.render("Is Mister Grits at home, Cara?")
    streaming, whole = _recognizer(game), _recognizer(game)  # fresh ones: the cepstral mean adapts per utterance
    streaming.start()
    partials = [h for i in range(0, len(pcm), 3200) if (h := streaming.feed(pcm[i:i + 3200])) is not None]
    final = streaming.finish()
    at_once = whole.hear(pcm, chunk=len(pcm))
    assert final.texts() == at_once.texts() == ["is mister grits at home cara"]
    assert final.alternatives[0].confidence == at_once.alternatives[0].confidence
    assert partials and all(isinstance(h, Hearing) and not h.final for h in partials) and final.final


def test_chunk_sizes_do_not_change_the_two_decodings(game, voices):
    """In a noisy room: 100 ms pieces (a file's), 30 ms pieces (a microphone's), 10 ms pieces, and
    pieces that split samples give the same hearing, to the last digit of every margin, so the
    benchmark measures what a player at a microphone gets."""
    from voicegame.speech.pocketsphinx_backend import STEADY_DB
    from voicegame.speech.render import mix_noise

    pcm = mix_noise(voices.render("Is Mister Grits at home, Cara?"), 10, "white", seed=1)
    heard = []
    for chunk in (3200, 960, 320, 1001):
        r = _in_a_noisy_room(game, voices)  # each heard the same before: the cepstral mean and the noise estimate adapt
        hearing = r.hear(pcm, chunk=chunk)
        assert r._denoiser.drift_db <= STEADY_DB
        decodings = [(d.text, d.margin, d.word_margin) for d in (r._raw.result(r._names), r._denoised.result(r._names))]
        heard.append((hearing, decodings, r.last_snr))
    assert heard[0][1][0][0] == "flip three" and heard[0][1][1][0] == "is mister grits at home cara"
    for hearing, decodings, snr in heard[1:]:
        assert (replace(hearing, decode_ms=0.0), decodings, snr) == (replace(heard[0][0], decode_ms=0.0), *heard[0][1:])


def test_the_last_piece_short_of_30_ms_is_decoded_too(game):
    """Each decoder is fed whole 30 ms pieces; what is left over at the end is decoded as well."""
    import numpy as np

    decoding = _recognizer(game)._raw
    audio = np.random.default_rng(0).normal(0, 1000, 16100).astype("<i2")  # 33 pieces and 260 samples
    decoding.start()
    decoding.process(audio)
    decoding.end()
    in_pieces = decoding.grammar.n_frames()
    decoding.grammar.start_utt()
    decoding.grammar.process_raw(audio.tobytes(), False, False)
    decoding.grammar.end_utt()
    assert in_pieces == decoding.grammar.n_frames() > 100


def test_finish_without_audio_and_reset(recognizer):
    recognizer.start()
    assert recognizer.finish().alternatives == ()
    recognizer.start()
    recognizer.feed(b"\0\0" * 1600)
    recognizer.reset()
    assert recognizer.finish() == Hearing()
    recognizer.start()
    recognizer.feed(b"\0" * 3201)  # half a sample left over at the end: dropped, not an error
    assert recognizer.finish().final


@pytest.mark.parametrize("text", ["Dan, is Mr. Happy at home?", "Dan, is Mrs. Brown the Gardener's Wife at home?"])
def test_one_misfit_name_word_makes_a_hearing_doubtful(game, voices, text):
    """A card not in the deck is forced into one that is ("mister pots"): the phrase as a whole
    fits well enough, its one wrong name word does not, and that word alone makes it doubtful."""
    from voicegame.table.session import as_heard

    r = _recognizer(game)
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))  # a first utterance, as in a game (live CMN)
    hearing = r.hear(voices.render(text))
    assert game[3].understand(hearing.texts(), asker="Alice", phase="cards").intent == "ask"
    # Not stray as a whole (the phrase fits about as well as a request: at -16 for Mrs. Brown), but one word misfits.
    assert r.last_margin > COMMAND_REJECT and r.last_word_margin < WORD_REJECT, (r.last_margin, r.last_word_margin)
    assert hearing.doubtful and not as_heard(game[3], hearing, "Alice", None, "cards").is_move


def test_a_misfit_name_word_is_never_played_unconfirmed(game, voices, monkeypatch):
    """Table talk naming a card not in the deck ("Mr. Greedy") decodes as one that is ("mister
    grits"); once it fitted as a whole as well as a real request (-3.8), and was played. A name word
    that fits that badly now makes any Hearing unsure: with the phrase bar lowered below both
    phrases here, the real request is sure and the sound-alike is not, and it is asked about."""
    from voicegame.speech import pocketsphinx_backend
    from voicegame.table.session import as_heard

    monkeypatch.setattr(pocketsphinx_backend, "SURE_MARGIN", -20.0)
    r = _recognizer(game)
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))  # a first utterance, as in a game (live CMN)
    real = r.hear(voices.render("Is Mister Grits at home, Cara?"))
    assert real.sure and r.last_word_margin >= pocketsphinx_backend.SURE_WORD_MARGIN
    hearing = r.hear(voices.render("Is Mr. Greedy at home, Cara?"))
    assert hearing.texts() == ["is mister grits at home cara"] and not hearing.doubtful
    assert r.last_word_margin < pocketsphinx_backend.SURE_WORD_MARGIN and not hearing.sure
    result = as_heard(game[3], hearing, "Alice", None, "cards")
    assert result.intent == "ask" and result.confirm and not result.is_move


STRANGERS = ["Dad, do you have Master Soot?", "Jen, may I have Mrs. Dose, please?",
             "Pam, may I have Mrs. Dose, please?", "Is Mr. Bun at home, Jen?"]


def test_a_request_to_someone_not_playing_is_never_played_unasked(game, voices):
    """Someone at the table who is not playing is asked for a card. Each of these decoded surely as
    a request to Dan or Cara, and was played (a leading name word's own margin does not tell "Dad"
    from "Dan"); heard again on its own among the names of people not playing, the name is theirs,
    so the request is asked about (now and then the phrase fits too poorly to be sure at all: asked
    about too). Said to a player, the same request is still played at once."""
    from voicegame.table.session import as_heard

    hand = ["soot:mr", "dose:mr", "bun:mrs"]
    r = _recognizer(game)
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))  # a first utterance, as in a game (live CMN)
    caught = []
    for text in STRANGERS:
        hearing = r.hear(voices.render(text))
        result = as_heard(game[3], hearing, "Alice", hand, "cards")
        assert not result.is_move and result.confirm, (text, hearing.texts())
        if r.last_someone_else is not None:  # heard as fitting well as a player's request, then the name on its own
            assert r.last_someone_else == text.split(",")[0].lower(), (text, r.last_someone_else)
            caught.append(text)
    assert len(caught) >= 2, caught  # "Jen, ..." heard as "dan ...", "Pam, ..." as "cara ..."
    hearing = r.hear(voices.render("Dan, do you have Master Soot?"))
    assert hearing.texts() == ["dan do you have master soot"] and r.last_someone_else is None
    assert as_heard(game[3], hearing, "Alice", hand, "cards").is_move


@pytest.mark.parametrize("a, b, near", [
    ("K EH R AH", "K EH R AH N", True),  # karen: one sound more
    ("K EH R AH", "K L EH R AH", True),  # clara
    ("K AA R AH", "K AA R L", True),  # carl: a vowel-like sound changed
    ("B AE N", "AE N", True),  # ann: one sound less
    ("D AE N", "D AE D", False),  # dad: a consonant changed
    ("B EH N", "JH EH N", False),  # jen
    ("D AE N", "S T AE N", False),  # stan: two sounds
])
def test_names_within_one_sound(a, b, near):
    from voicegame.speech.pocketsphinx_backend import _within_one_sound

    assert _within_one_sound(a.split(), b.split()) is near
    assert _within_one_sound(b.split(), a.split()) is near


def test_names_of_people_not_playing_said_like_a_players_are_left_out(game):
    """ "anne" is said as "Ann", "sarah" as "Sara", "karen" as "Cara" with one sound more and "carl"
    with a vowel-like one changed: heard on its own, a player's name would be taken for them too
    often. "dad" has a consonant changed from "dan", and stays."""
    _need_pocketsphinx()
    from voicegame.speech.pocketsphinx_backend import PocketSphinxRecognizer

    phrases = Phrases(load_deck("jaques"), ("Anne", "Sara", "Cara", "Dan"), "en")
    assert {"ann", "sarah", "karen", "clara", "dad"} <= set(phrases.others)
    r = PocketSphinxRecognizer()
    words, grammar, names = speech_grammar(load_grammar("en"), phrases)
    r.set_grammar(words, grammar, names)
    kept = r._addressees[1]
    assert "dad" in kept and "grandma" in kept
    assert not kept & {"ann", "sarah", "karen", "clara", "carl"}


CHILD_REQUESTS = [("Dan, may I have the baker's son?", "Ben", "Dan", "bun:master"),
                  ("Have you got the dyer's son, Dan?", "Cara", "Dan", "dip:master"),
                  ("Ask Cara for Master Chip.", "Alice", "Cara", "chip:master"),
                  ("Is Mister Grits at home, Cara?", "Alice", "Cara", "grits:mr")]


def test_a_childs_requests_are_heard_once_the_table_knows_a_child_speaks(game, voices):
    """Heard as a grown-up, a child's requests are doubted away (or misheard); heard as a child
    (frequencies warped, thresholds lowered) they are understood, and asked about before playing."""
    from voicegame.table.session import as_heard

    _need_sox()
    for child in (False, True):
        r = _recognizer(game)
        r.set_child_voice(child)
        r.hear(as_a_child(voices.render("Alice, may I have Master Bones?")))  # a first utterance (live CMN)
        for text, asker, target, card in CHILD_REQUESTS:
            hearing = r.hear(as_a_child(voices.render(text)))
            result = as_heard(game[3], hearing, asker, None, "cards")
            if child:
                assert (result.intent, result.target, result.card) == ("ask", target, card), hearing.texts()
                assert result.confirm and not hearing.sure
            else:
                assert (result.intent, result.target, result.card) != ("ask", target, card), hearing.texts()


def test_switching_between_a_child_and_a_grown_up_keeps_each_ones_cepstral_mean(game, voices):
    """Turns alternate: a grown-up's hearing after a child's turn is close to what it would have
    been without that turn, as each voice keeps its own cepstral mean. PocketSphinx lets the mean be
    set, not its running sums, so not equal: 0.5 apart on one machine and 1.5 on another, where a
    mean started afresh was 2.0 and 3.9 apart. So the test is against starting afresh."""
    _need_sox()
    first, second = voices.render("Ben, is Mrs. Bun at home?"), voices.render("Is Mister Grits at home, Cara?")
    alone, switching, afresh = _recognizer(game), _recognizer(game), _recognizer(game)
    alone.hear(first)
    for r in (switching, afresh):
        r.hear(first)
        r.set_child_voice(True)
        assert not r.hear(as_a_child(voices.render("Dan, may I have the baker's son?"))).sure
    for decoding in (afresh._raw, afresh._denoised):  # forget the grown-up's mean: it starts afresh
        decoding._means = {key: mean for key, mean in decoding._means.items() if key[1] != 1.0}
    for r in (switching, afresh):
        r.set_child_voice(False)
    heard, expected = switching.hear(second), alone.hear(second)
    afresh.hear(second)
    assert heard.texts() == expected.texts() and heard.sure == expected.sure
    kept, lost = abs(switching.last_margin - alone.last_margin), abs(afresh.last_margin - alone.last_margin)
    assert kept < lost, (switching.last_margin, afresh.last_margin, alone.last_margin)


@pytest.mark.parametrize("said, meant", [("Yes.", "yes"), ("Yeah.", "yes"), ("No.", "no"), ("Nope.", "no")])
def test_a_young_childs_yes_and_no_are_heard_as_said(game, voices, said, meant):
    """The answer that plays or drops a request, from a high child's voice (+500 cents): with a
    weaker warp (1.5) this "Nope" came out "yep" and "Yeah" as "nope" (round 10)."""
    from voicegame.table.voice import doubted_intent, worth_hearing
    from voicegame.understanding.grammar import answer_jsgf

    _need_sox()
    r = _recognizer(game)
    r.set_grammar(*answer_jsgf(load_grammar("en"), Phrases(load_deck("jaques"), PLAYERS, "en"), "yes_no"))
    r.set_child_voice(True)
    r.hear(as_a_child(voices.render("Yes."), 500))  # a first utterance (live CMN)
    hearing = r.hear(as_a_child(bytes(8000) + voices.render(said) + bytes(16000), 500))
    assert worth_hearing(hearing, doubted_intent(hearing, game[3])) and game[3].understand(hearing.texts()).intent == meant, hearing.texts()


def test_a_recognizer_made_after_others_still_warps_for_a_child(game, voices):
    """PocketSphinx keeps the frequency warp in process-wide state: a recognizer made after one that
    warped, and one that did not, hears a child exactly as the first did (it once heard no warp)."""
    _need_sox()
    child = as_a_child(voices.render("Dan, may I have the baker's son?"))
    first = _recognizer(game)
    first.set_child_voice(True)
    first.hear(child)
    _recognizer(game)  # a grown-up's, made in between
    later = _recognizer(game)
    later.set_child_voice(True)
    later.hear(child)
    assert later.last_margin == first.last_margin


def test_the_rejection_threshold_follows_the_noise(game, voices):
    """Noise lowers every margin, requests' most: the threshold drops with the utterance's SNR."""
    from voicegame.speech.pocketsphinx_backend import QUIET_SNR, REJECT_MARGIN
    from voicegame.speech.render import mix_noise

    r = _recognizer(game)
    pcm = voices.render("Is Mister Grits at home, Cara?")
    r.hear(pcm)
    assert r.last_snr > QUIET_SNR and r.last_reject == REJECT_MARGIN
    r.hear(mix_noise(pcm, 10, "white", seed=1))
    assert r.last_snr < QUIET_SNR - 10 and r.last_reject < REJECT_MARGIN - 2


def _in_a_noisy_room(game, voices):
    """A recognizer that has heard three requests at 10 dB white noise, as at a noisy table: its
    cepstral mean and its denoiser's noise estimate have settled."""
    from voicegame.speech.render import mix_noise

    r = _recognizer(game)
    for seed, text in enumerate(("Ben, is Mrs. Bun at home?", "Alice, may I have Master Bones?",
                                 "Is Mrs. Dip at home, Dan?"), 7):
        r.hear(mix_noise(voices.render(text), 10, "white", seed=seed))
    return r


def test_in_noise_the_denoised_decoding_is_heard_when_the_raw_one_fails(game, voices):
    """At 10 dB white noise the raw audio decodes as "flip number five" (and fits too poorly), the
    denoised audio as the request: the two disagree, and the denoised words fit the audio, so they
    are heard (about 5 units above the thresholds here). Not surely, though (the two did not
    agree): the table confirms first."""
    from voicegame.speech.render import mix_noise

    r = _in_a_noisy_room(game, voices)
    hearing = r.hear(mix_noise(voices.render("Is Master Dose at home, Cara?"), 10, "white", seed=5))
    assert r.last_denoised and not r.last_agreed
    result = game[3].understand(hearing.texts(), asker="Alice")
    assert (result.intent, result.target, result.card) == ("ask", "Cara", "dose:master"), hearing.texts()
    assert not hearing.doubtful and not hearing.sure


def test_decodings_that_agree_in_noise_are_trusted_further(game, voices):
    """Both decodings hear the same names: the rejection threshold drops further with the noise,
    and a request that fits the audio too poorly to be heard on one decoding's word is heard."""
    from voicegame.speech.pocketsphinx_backend import AGREED_SLOPE, NOISE_SLOPE, QUIET_SNR, REJECT_MARGIN
    from voicegame.speech.render import mix_noise

    r = _in_a_noisy_room(game, voices)
    hearing = r.hear(mix_noise(voices.render("Ask Cara for Master Chip."), 10, "white", seed=2))
    assert r.last_agreed and not r.last_denoised and not hearing.doubtful
    noisy = (QUIET_SNR - r.last_snr) / 10
    assert r.last_reject == pytest.approx(REJECT_MARGIN - AGREED_SLOPE * noisy)
    assert r.last_margin < REJECT_MARGIN - NOISE_SLOPE * noisy, "one decoding alone would have doubted it"
    result = game[3].understand(hearing.texts(), asker="Alice")
    assert (result.intent, result.target, result.card) == ("ask", "Cara", "chip:master"), hearing.texts()


def test_the_denoised_decoding_waits_until_the_denoiser_knows_the_room(game, voices):
    """The first noisy utterance after quiet ones: the denoiser's noise estimate moves in the
    middle of it, so the raw decoding is heard alone, with the thresholds of one decoding."""
    from voicegame.speech.pocketsphinx_backend import NOISE_SLOPE, QUIET_SNR, REJECT_MARGIN, STEADY_DB
    from voicegame.speech.render import mix_noise

    r = _recognizer(game)
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))
    r.hear(mix_noise(voices.render("Is Mister Grits at home, Cara?"), 10, "white", seed=1))
    assert r._denoiser.drift_db > STEADY_DB and not r.last_agreed and not r.last_denoised
    assert r.last_reject == pytest.approx(REJECT_MARGIN - NOISE_SLOPE * (QUIET_SNR - r.last_snr) / 10)


def test_grammars_loaded_one_after_another_give_both_decoders_the_same_words(game):
    """The answer grammar, then the game's: derived words and the second "ben" reach both decoders once."""
    from voicegame.understanding.grammar import answer_jsgf

    r = _recognizer(game)
    deck = load_deck("jaques")
    r.set_grammar(*answer_jsgf(load_grammar("en"), Phrases(deck, PLAYERS, "en"), "name"))
    r.set_grammar(*game[:3])
    for decoding in (r._raw, r._denoised):
        assert decoding.grammar.lookup_word("ben(2)") == "B AE N"
        assert decoding.grammar.lookup_word("ben(3)") is None
        assert all(decoding.grammar.lookup_word(w) == phones for w, phones in r.added.items())


def test_a_computer_too_slow_for_two_decodings_keeps_the_raw_one(game, voices):
    """Decoding that takes longer than ``max_load`` of the audio's time, three times in a row, stops
    the denoised decoding for good; the raw one goes on hearing requests. An utterance with no audio
    says nothing about the computer's speed."""
    r = _recognizer(game)
    r.max_load = 0.0  # as if every utterance took longer to decode than to say
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))
    r.start()
    r.finish()
    assert r.denoising and r.take_notice() is None
    r.hear(voices.render("Ben, is Mrs. Bun at home?"))
    assert not r.denoising
    assert r.take_notice() == "slow_computer" and r.take_notice() is None  # the players are told once
    hearing = r.hear(voices.render("Is Mister Grits at home, Cara?"))
    assert hearing.texts() == ["is mister grits at home cara"] and not r.last_agreed
    assert r.take_notice() is None


@pytest.mark.parametrize("text, target, rival", [("I would like Master Mug, Ben.", "Ben", "dan"),
                                                 ("Have you got the dyer's son, Dan?", "Dan", "ben")])
def test_a_clear_ben_or_dan_is_told_apart_by_its_burst_and_played_at_once(game, voices, text, target, rival):
    """Heard surely in quiet, the name's first stop is read from its burst: matching the name heard,
    the sound-alike is ruled out and the request needs no question."""
    from voicegame.table.session import as_heard

    r = _recognizer(game)
    r.hear(voices.render("Is Mister Grits at home, Cara?"))  # the cepstral mean settles on the voice
    hearing = r.hear(voices.render(text))
    assert hearing.sure and hearing.ruled_out == {(target.lower(), rival)}, (hearing.texts(), r.last_margin)
    heard = as_heard(game[3], hearing, "Alice", None, "cards")
    assert heard.is_move and heard.target == target and not heard.confirm


def test_in_quiet_a_sure_hearing_needs_no_agreement_with_the_denoised_decoding(game, voices):
    """Clean requests whose denoised decoding heard other name words ("dan" for the raw "ben"):
    in quiet the raw decoding is the cleaner, so they are sure, and played at once (round 17)."""
    from voicegame.speech.pocketsphinx_backend import QUIET_SNR
    from voicegame.table.session import as_heard

    r = _recognizer(game)
    r.hear(voices.render("Is Mister Grits at home, Cara?"))  # the cepstral mean settles on the voice
    disagreed = 0
    for text, card in (("I would like to ask Ben for Master Bun please.", "bun:master"),
                       ("I am after Master Dip, please, Ben.", "dip:master")):
        hearing = r.hear(voices.render(text))
        disagreed += not r.last_agreed
        assert r.last_snr >= QUIET_SNR and hearing.sure, (text, hearing.texts(), r.last_margin, r.last_word_margin)
        # Alice holds no Bung or Tape: "Bun" and "Dip" have no sound-alike she may ask for.
        heard = as_heard(game[3], hearing, "Alice", ["bun:mr", "dip:mr"], "cards")
        assert heard.is_move and (heard.target, heard.card) == ("Ben", card) and not heard.confirm
    assert disagreed  # what this test is about: the two decodings did not agree


def test_the_burst_is_read_in_a_steady_noise_but_not_among_other_talkers(game, voices):
    """White noise 20 dB under the voice (a fan) leaves bursts readable; other people talking as
    loud does not, as their own sounds can pass for a burst."""
    from voicegame.speech.render import mix_noise

    for kind, steady in (("white", True), ("babble", False)):
        r = _recognizer(game)
        for i, text in enumerate(["Is Mister Grits at home, Cara?", "Ask Cara for Master Chip.",
                                  "I would like Master Mug, Ben.", "Have you got the dyer's son, Dan?"]):
            hearing = r.hear(mix_noise(voices.render(text), 20, kind, seed=i))  # the denoiser learns the room
        assert r.last_snr < 30 and r.last_steady_noise == steady
        assert hearing.ruled_out == ({("dan", "ben")} if steady else frozenset()), (kind, hearing, r.last_margin)


def test_a_name_without_a_rival_has_nothing_ruled_out(game, voices):
    r = _recognizer(game)
    r.hear(voices.render("Is Mister Grits at home, Cara?"))
    hearing = r.hear(voices.render("Is Mister Grits at home, Cara?"))
    assert hearing.sure and hearing.ruled_out == frozenset()


def test_a_sure_dip_or_bun_in_quiet_rules_out_the_sound_alikes_the_model_hears_for_them(game, voices):
    """This model hears "bung" for a said "Bun" and "chip" or "tape" for a said "Dip", surely, but in
    quiet never the other way (round 19): a sure "dip" is played at once though Alice may ask for Master
    Tape and Master Chip too (Ben's burst rules Dan out); a sure "chip" is asked about, and in noise a "dip" is too."""
    from voicegame.speech.render import mix_noise
    from voicegame.table.session import as_heard

    hand = ["dip:mr", "tape:mr", "chip:mr"]
    r = _recognizer(game)
    r.hear(voices.render("Is Mister Grits at home, Cara?"))  # the cepstral mean settles on the voice
    dip = r.hear(voices.render("I am after Master Dip, please, Ben."))
    assert dip.sure and {("dip", "tape"), ("dip", "chip")} <= dip.ruled_out, (dip.texts(), r.last_margin)
    heard = as_heard(game[3], dip, "Alice", hand, "cards")
    assert heard.is_move and (heard.target, heard.card, heard.confirm) == ("Ben", "dip:master", False)
    chip = r.hear(voices.render("Is Master Chip at home, Cara?"))
    assert chip.sure and not {w for w, _ in chip.ruled_out} & {"chip", "dip"}, chip.texts()
    assert as_heard(game[3], chip, "Alice", hand, "cards").confirm
    noisy = _recognizer(game)
    for i in range(3):  # the denoiser learns the room
        hearing = noisy.hear(mix_noise(voices.render("I am after Master Dip, please, Ben."), 20, "white", seed=i))
    assert noisy.last_snr < 30 and not {w for w, _ in hearing.ruled_out} & {"dip"}, hearing
