"""PocketSphinx 5 recognizer restricted to the game's JSGF grammar, and when to believe it.

PocketSphinx is the embedded default: its wheel ships an en-us model, so a fresh machine can play
with no download. A grammar decoder always answers with some phrase of the grammar, table talk
included, so most of this module decides how far to trust that phrase. Per utterance:

* Two grammar decodings (``factor_jsgf`` shares the big ``<card>`` rule: 3-4x faster): of the audio
  as it came, and of the same audio denoised (``denoise.Denoiser``), which helps in steady noise.
  Each runs beside a free phone loop; the **margin**, how much worse the grammar path scores than
  the loop per speech frame, says how well the game's words fit the audio. Each name word after the
  first gets its own margin too (a first word's onset always fits poorly).
* The thresholds follow the room: an SNR estimate (the spread between the loud and the quiet 10 ms
  blocks) lowers them under ``QUIET_SNR``, faster when both decodings hear the same name words.
* Under ``REJECT_MARGIN``, or with a name word under ``WORD_REJECT``, a Hearing is ``doubtful``: a
  command at most, never a request. Under ``COMMAND_REJECT`` it is ``stray``: table talk, let pass.
* At ``SURE_MARGIN`` or above, with no name word under ``SURE_WORD_MARGIN``, it is ``sure``: the table
  may play a request at once. A sure hearing gets second opinions: each player's name is heard again
  on its own among the names of people not playing ("Dad, ..." is not for Dan); in quiet or steady
  noise, the burst of a name's first stop tells Ben from Dan (``onsets``); and in quiet a heard "bun"
  or "dip" rules out the sound-alikes this model hears for them, never the other way round
  (``HEARD_AS_SAID``). What they rule out reaches the table as ``Hearing.ruled_out``; any other
  sound-alike is asked about.
* A child's voice: the filterbank reads frequencies ``CHILD_WARP`` times higher, the thresholds are
  ``CHILD_SLACK`` lower, and nothing is sure. A computer too slow for four decoders (``MAX_LOAD``)
  drops the denoised decoding and says so.
* Words the dictionary lacks ("sweeps", "cara") get pronunciations from espeak-ng (``pronounce``),
  and names a second one where this model mishears the voice ("ben" as B AE N).

PocketSphinx 5.1.1 pitfalls handled here: ``bestpath`` made finishing an utterance take up to 28 s,
so it is off and there is no N-best list; feature options (noise removal, CMN, filterbank) come
from the model's ``feat.params``, not from Decoder options; the frequency warp is process-wide
state (``set_warp``); the live cepstral mean moves with the size of the pieces fed, so every
decoder gets fixed 30 ms pieces; digital silence needs a faint noise floor; ``hyp()`` and ``seg()``
can be None.

Every threshold was tuned on synthetic speech, as no recordings of people exist here. What each
rests on, with its figures and what was tried and left out, is in ``docs/pocketsphinx-tuning.md``,
whose rounds the comments below cite ("round 16"); current results are in ``docs/benchmarks.md``.
"""

from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from voicegame.speech.base import Alternative, Hearing, Recognizer, SpeechError
from voicegame.speech.denoise import Denoiser
from voicegame.speech.onsets import PLACES, Room, stop_place
from voicegame.speech.pronounce import espeak_phones, nasal_variant, pronounce_all
from voicegame.understanding.grammar import OTHERS_RULE

__all__ = ["COMMAND_REJECT", "PocketSphinxRecognizer", "REJECT_MARGIN", "SURE_MARGIN", "SURE_WORD_MARGIN",
           "WORD_REJECT", "factor_jsgf", "jsgf_words"]

BEAMS = {"beam": 1e-60, "pbeam": 1e-60, "wbeam": 1e-40}
NOISE_FLOOR_DB = -60.0
_SILENT_PEAK = 2  # a 10 ms block whose samples stay within +-2 is digital silence, not a microphone
_BLOCK = 160  # samples: 10 ms, one feature frame
_PIECE = 480  # samples: 30 ms, what each decoder is fed at a time, however the audio came
# Grammar-minus-phone-loop score per speech frame (log base 1.0001): the margin of the module docstring.
REJECT_MARGIN = -16.0  # below it (in quiet) a Hearing is doubtful
QUIET_SNR = 30.0  # dB between loud and quiet 10 ms frames of an utterance; below it the audio is noisy
NOISE_SLOPE = 2.5  # the rejection threshold drops this much per 10 dB of SNR under QUIET_SNR
AGREED_SLOPE = 8.0  # ... or this much when the raw and the denoised decodings agree
AGREED_WORD_SLOPE = 6.0  # and WORD_REJECT this much (it stays put when they do not agree)
STEADY_DB = 3.0  # the denoiser's noise estimate moved less than this in the utterance: it has learnt the room
MAX_LOAD = 1.1  # decoding time per second of audio; over it 3 times in a row, the denoised decoding stops
WORD_REJECT = -40.0  # a name word whose own margin is below this makes the Hearing doubtful
COMMAND_REJECT = -40.0  # below it (in quiet) a Hearing is stray: not even a command
SURE_MARGIN = -4.0  # at or above it a Hearing is ``sure`` (requests are played without confirming)
SURE_WORD_MARGIN = -30.0  # ... if no name word after the first fits worse than this (round 8)
BURST_SNR = 20.0  # in steady noise this far under the voice or more, bursts of sure names are read (round 12)
STEADY_NOISE_DB = 1.5  # the quietest fifth of 10 ms blocks spreads less than this: a fan, not other talkers
LONE_WORD_MARGIN = -14.0  # a name word of a sure hearing fitting worse is a poor fit (``Hearing.poor_fits``, round 24)
WHO_PAD = 3  # frames (10 ms) of audio either side of a player's name heard again on its own (round 16)
# Card words this model hears, in quiet, only when they were said, and the sound-alikes it hears for them (round 19).
HEARD_AS_SAID = {"bun": ("bung", "bones"), "dip": ("tape", "chip")}
CHILD_WARP = 2.5  # a child's voice: the filterbank reads frequencies this many times higher (round 10)
CHILD_SLACK = 8.0  # ... and every rejection threshold this much lower, but nothing is ever ``sure``
_MARGIN_SCALE = 5.0  # confidence = logistic((margin - SURE_MARGIN) / scale)
_NOT_SPEECH = ("<", "[", "(", "+")  # segments that are silence or noise fillers, not words
_NOT_WORDS = re.compile(r"<[^>]*>|/[^/]*/|[()\[\]|;*+=]")


_VOWEL_LIKE = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW L R W Y".split())


def _within_one_sound(a: list[str], b: list[str]) -> bool:
    """Whether phones ``a`` and ``b`` are the same but for at most one phone added to either, or one
    vowel-like sound (a vowel, L, R, W, Y) for another: "cara" K AA R AH and "carl" K AA R L, but not
    "dan" D AE N and "dad" D AE D, nor "ben" and "jen"."""
    if len(a) < len(b):
        a, b = b, a
    if len(a) == len(b):
        changed = [(x, y) for x, y in zip(a, b) if x != y]
        return not changed or len(changed) == 1 and set(changed[0]) <= _VOWEL_LIKE
    return len(a) == len(b) + 1 and any(a[:i] + a[i + 1:] == b for i in range(len(a)))


def _rule_words(jsgf: str, rule: str) -> list[str]:
    """The words of one flat rule of ``jsgf`` ("<player> = alice | ben;" -> alice, ben)."""
    line = re.search(rf"^{re.escape(rule)} = (.*);$", jsgf, re.M)
    return _NOT_WORDS.sub(" ", line.group(1)).split() if line else []


def jsgf_words(jsgf: str) -> set[str]:
    """The words a JSGF grammar's rules use (rule names, weights and operators removed)."""
    words: set[str] = set()
    for line in jsgf.splitlines():
        if "=" in line:
            words.update(_NOT_WORDS.sub(" ", line.split("=", 1)[1]).split())
    return words


def factor_jsgf(jsgf: str) -> str:
    """The same language with far fewer copies of big rules: in a rule made of flat alternatives
    ``( words <ref> words )``, alternatives that end alike after their last reference share it:
    ``( is <card> at home ) | ( my question is for <player> is <card> at home )`` becomes
    ``( ( is | my question is for <player> is ) <card> at home )``."""
    out = []
    for line in jsgf.splitlines():
        m = re.fullmatch(r"((?:public )?<[\w.]+> = )(\(.*\));", line)
        alts = [a.strip() for a in m.group(2).split("|")] if m else []
        if not m or not all(a.startswith("(") and a.endswith(")") for a in alts) \
                or any(c in a[1:-1] for a in alts for c in "()[]"):
            out.append(line)
            continue
        groups: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for alt in alts:
            tokens = alt[1:-1].split()
            refs = [i for i, t in enumerate(tokens) if t.startswith("<")]
            cut = refs[-1] if refs else len(tokens)
            groups.setdefault(tuple(tokens[cut:]), []).append(tuple(tokens[:cut]))
        parts = []
        for tail, heads in groups.items():
            said = [" ".join(h) for h in heads if h]
            if not tail or len(said) <= 1 and len(heads) == 1:
                parts.extend(f"( {' '.join(h + tail)} )" for h in heads)
                continue
            body = " | ".join(said)
            head = "" if not said else f"[ {body} ] " if len(said) < len(heads) else f"( {body} ) "
            parts.append(f"( {head}{' '.join(tail)} )")
        out.append(m.group(1) + " | ".join(parts) + ";")
    return "\n".join(out) + "\n"


def _with_noise_floor(samples: np.ndarray, rng: np.random.Generator) -> bytes:
    """``samples`` as bytes, with a faint noise floor (``NOISE_FLOOR_DB``) where they are digital silence."""
    whole = len(samples) - len(samples) % _BLOCK
    blocks = samples[:whole].reshape(-1, _BLOCK)
    silent = np.abs(blocks.astype(np.int32)).max(axis=1) <= _SILENT_PEAK
    if silent.any():
        blocks = blocks.copy()
        amplitude = 32768.0 * 10 ** (NOISE_FLOOR_DB / 20)
        noise = rng.normal(0.0, amplitude, (int(silent.sum()), _BLOCK))
        blocks[silent] = np.clip(blocks[silent] + np.round(noise), -32768, 32767).astype("<i2")
    return blocks.tobytes() + samples[whole:].tobytes()


class _Decoding:
    """One audio stream decoded twice: by the game's grammar, and by a free phone loop whose score
    tells how well the grammar's words fit (see the module docstring)."""

    def __init__(self, pocketsphinx, model: str, common: dict) -> None:
        self.grammar = pocketsphinx.Decoder(lm=None, dict=os.path.join(model, "en-us", "cmudict-en-us.dict"),
                                            **common)
        # lw 2: the phone bigram only lightly constrains the loop (measured: any lw 0.5-4 works alike).
        self.loop = pocketsphinx.Decoder(lm=None, allphone=os.path.join(model, "en-us", "en-us-phone.lm.bin"),
                                         lw=2.0, **common)
        self.log = self.grammar.get_logmath().log
        self.warp = 1.0
        self._means: dict[tuple[int, float], str] = {}  # (decoder, warp) -> its cepstral mean when last left

    def set_warp(self, warp: float) -> None:
        """Divide the frequency axis by ``warp`` before the filterbank (1.0: as the model was
        trained). Each warp keeps its own cepstral mean, so players taking turns do not each start
        afresh (only the mean can be set back, not its running sums: close, not equal; round 9)."""
        for decoder in (self.grammar, self.loop):
            self._means[(id(decoder), self.warp)] = decoder.get_cmn(True)
            decoder.config["warp_params"] = str(warp)
            decoder.reinit_feat()
            mean = self._means.get((id(decoder), warp))
            if mean is not None:
                decoder.set_cmn(mean)
        self.warp = warp

    def start(self) -> None:
        self.grammar.start_utt()
        self.loop.start_utt()
        # Seeded per utterance: the same audio gets the same noise floor, whatever the chunking.
        self._rng = np.random.default_rng(0)
        self._held = np.zeros(0, "<i2")  # samples short of a whole ``_PIECE``

    def process(self, samples: np.ndarray) -> None:
        """Decode ``samples`` in pieces of ``_PIECE``: PocketSphinx's cepstral mean moves a little
        with the size of each piece it is given, so fixed pieces make the same audio give the same
        hearing whether it came in a microphone's 30 ms chunks or a file's 100 ms ones."""
        held = np.concatenate([self._held, samples])
        whole = len(held) - len(held) % _PIECE
        for i in range(0, whole, _PIECE):
            self._decode(held[i:i + _PIECE])
        self._held = held[whole:]

    def _decode(self, samples: np.ndarray) -> None:
        """Decode ``samples``, with a faint noise floor where they are digital silence."""
        if not len(samples):
            return
        audio = _with_noise_floor(samples, self._rng)
        self.grammar.process_raw(audio, False, False)
        self.loop.process_raw(audio, False, False)

    def end(self, drop: bool = False) -> None:
        """End the utterance, decoding what is held back first (unless it is being dropped)."""
        if not drop:
            self._decode(self._held)
        self._held = np.zeros(0, "<i2")
        self.grammar.end_utt()
        self.loop.end_utt()

    def result(self, names: frozenset[str]) -> _Decoded | None:
        """The grammar's words with their margins, once the utterance has ended (None: no words)."""
        hyp = self.grammar.hyp()
        if hyp is None or not hyp.hypstr:
            return None
        words = [s for s in self.grammar.seg() or () if not s.word.startswith(_NOT_SPEECH)]
        spans = tuple((w, s.start_frame, s.end_frame) for w, s in ((s.word.split("(")[0], s) for s in words)
                      if w in names)
        fits = self._word_margins(words, names)
        return _Decoded(hyp.hypstr, self._margin(hyp.score, words), min((m for _, m in fits), default=math.inf),
                        tuple(w for w, *_ in spans) or (hyp.hypstr,), spans, fits)

    def _margin(self, grammar_score: float, words: list) -> float:
        """How much worse the grammar path scores than the free phone loop, per speech frame
        (``words``: the grammar path's word segments, silence and fillers left out)."""
        loop = self.loop.hyp()
        if loop is None or grammar_score <= 0 or loop.score <= 0:
            return -math.inf
        speech = sum(s.end_frame - s.start_frame + 1 for s in words)
        return (self.log(grammar_score) - self.log(loop.score)) / max(speech, 10)

    def _word_margins(self, words: list, names: frozenset[str]) -> tuple[tuple[str, float], ...]:
        """Each name word after the first word with its margin: its grammar score less the phone
        loop's over the same frames, per frame. The first word is left out: the loop explains an
        utterance's onset better (a leading "Cara" scores -36..-52 in right requests, a final one
        about -3)."""
        phones = [(s.start_frame, s.end_frame, self.log(s.ascore) if s.ascore > 0 else -1e9)
                  for s in self.loop.seg() or ()]
        out = []
        for word in words[1:]:
            name = word.word.split("(")[0]
            if name not in names:
                continue
            a, b = word.start_frame, word.end_frame
            loop = sum(score * (min(e, b) - max(s, a) + 1) / (e - s + 1) for s, e, score in phones
                       if min(e, b) >= max(s, a))
            own = self.log(word.ascore) if word.ascore > 0 else -1e9
            out.append((name, (own - loop) / (b - a + 1)))
        return tuple(out)


@dataclass(frozen=True)
class _Decoded:
    text: str
    margin: float  # the whole phrase against the phone loop, per speech frame
    word_margin: float  # the worst name word after the first, per frame
    key: tuple[str, ...]  # what two decodings must share to agree: the name words, else the text
    spans: tuple[tuple[str, int, int], ...]  # each name word with its first and last frame
    fits: tuple[tuple[str, float], ...]  # each name word after the first with its own margin


class PocketSphinxRecognizer(Recognizer):
    """Streaming grammar recognition (PocketSphinx 5, its bundled en-us model), of the audio as it
    comes and of the same audio denoised, each with a phone-loop decoder alongside for confidence:
    four decoders, roughly 70 MiB and 0.1 s to load each."""

    name = "pocketsphinx"

    def __init__(self, reject_margin: float | None = REJECT_MARGIN) -> None:
        """``reject_margin``: below it (in quiet) a Hearing is doubtful (None: never, e.g. to measure
        the grammar alone, on the raw audio; ``last_reject`` still tells what the default would have been)."""
        try:
            import pocketsphinx
        except ImportError:
            raise SpeechError.of("pocketsphinx_missing") from None
        model = pocketsphinx.get_model_path()
        # The warp is explicit from the start (1.0: none), never left unset: PocketSphinx keeps the warp
        # in process-wide state that an unset one marks "neutral" without forgetting the last value
        # given, so a later recognizer set to that same value would not warp at all (``set_warp``).
        common = dict(BEAMS, hmm=os.path.join(model, "en-us", "en-us"), bestpath=False, loglevel="FATAL",
                      warp_type="inverse_linear", warp_params="1.0")
        try:
            self._raw = _Decoding(pocketsphinx, model, common)
            self._denoised = _Decoding(pocketsphinx, model, common)
            # Hears a player's name again on its own, among the names of people not playing (round 16).
            self._who = pocketsphinx.Decoder(lm=None, dict=os.path.join(model, "en-us", "cmudict-en-us.dict"),
                                             **common)
        except (RuntimeError, ValueError) as exc:
            raise SpeechError.of("pocketsphinx_unloadable", problem=exc) from None
        self.reject_margin = reject_margin
        # Of the last finished utterance, to calibrate the thresholds for a voice or a room: the
        # margin, the worst name word's margin, the SNR estimate, the rejection threshold it gave,
        # and whether the decodings of the raw and the denoised audio agreed.
        self.last_margin = self.last_word_margin = -math.inf
        self.last_snr = self.last_reject = math.nan
        self.last_agreed = self.last_denoised = False  # ... and whether the words are the denoised decoding's
        self.last_steady_noise = False  # ... and whether its noise was steady enough to read bursts in
        self.last_someone_else: str | None = None  # ... and who a sure player's name was heard as, if not a player
        self._addressees: tuple[frozenset[str], frozenset[str]] | None = None  # player name words, others
        self._names: frozenset[str] = frozenset()
        self._audio: list[np.ndarray] = []  # the utterance as it came: its SNR estimate, and ``onsets``
        self._stops: dict[str, tuple[str, frozenset[str]]] = {}  # see ``_stop_rivals``
        self.added: dict[str, str] = {}  # words given a pronunciation here -> phones
        self._has_grammar = False
        self._in_utt = False
        self._pending = b""
        self._last_partial = ""
        self._ms = 0.0
        self._denoiser = Denoiser()
        # On a computer too slow for four decoders the decoding would fall behind the speaker: the
        # denoised one stops for good (the raw one is heard alone, as in a room it does not know).
        self.denoising = True
        self.max_load = MAX_LOAD
        self._slow = 0  # utterances in a row whose decoding took more than ``max_load`` of their time
        self._notice: str | None = None

    # ------------------------------------------------------------ grammar

    def missing_words(self, words: list[str]) -> list[str]:
        """Words neither in the dictionary nor given a pronunciation by ``pronounce``."""
        lookup = self._raw.grammar.lookup_word
        unknown = [w for w in dict.fromkeys(words) if lookup(w) is None]
        found = pronounce_all(unknown, lookup)
        return [w for w in unknown if w not in found]

    def set_grammar(self, words: list[str], jsgf: str, names: Sequence[str] = ()) -> None:
        """Load the grammar; words the dictionary lacks get derived pronunciations first (a JSGF
        word without one fails the whole grammar). Drops any utterance in progress."""
        self.reset()
        self._names = frozenset(names)
        vocabulary = sorted(set(words) | jsgf_words(jsgf))
        lookup = self._raw.grammar.lookup_word
        unknown = [w for w in vocabulary if lookup(w) is None]
        self.added.update(pronounce_all(unknown, lookup))
        # Name words the dictionary has get espeak-ng's American pronunciation too, where it differs:
        # "cara" K EH R AH and K AA R AH (round 14).
        american = espeak_phones(w for w in self._names if lookup(w) is not None)
        for word in vocabulary:
            said = self._pronunciations(word)
            for phones in (said and nasal_variant(" ".join(said[0])), american.get(word)):
                if phones and phones.split() not in said:
                    said.append(phones.split())
                    self.added[f"{word}({len(said)})"] = phones
        still = [w for w in unknown if w not in self.added]
        factored = factor_jsgf(jsgf)
        for decoding in (self._raw, self._denoised):
            for word, phones in self.added.items():
                if decoding.grammar.lookup_word(word) is None:
                    try:
                        decoding.grammar.add_word(word, phones, False)
                    except RuntimeError:
                        pass  # phones it cannot take: the grammar then fails below, naming the word
            try:
                decoding.grammar.add_jsgf_string("game", factored)
            except ValueError:
                raise (SpeechError.of("grammar_failed_words", words=", ".join(still)) if still
                       else SpeechError.of("grammar_failed")) from None
            decoding.grammar.activate_search("game")
        self._stops = self._stop_rivals(self._names)
        self._addressees = self._load_addressees(jsgf)
        self._has_grammar = True

    def _load_addressees(self, jsgf: str) -> tuple[frozenset[str], frozenset[str]] | None:
        """Give ``_who`` a grammar of the words of the players' names and the names of people not
        playing, from ``jsgf``'s rules (None: the grammar has no one not playing, e.g. a yes or no).
        Names said as a player's name word is, or nearly (``_within_one_sound``: "anne" in a game with
        Ann; "karen", "clara", "carl" and "ann" in one with Cara and Ben), are left out: a player's name
        heard on its own takes such a neighbour too often, as where a word ends is not sure (round 16).
        A consonant changed stays ("dad" with Dan)."""
        players = set(_rule_words(jsgf, "<player>"))
        said = [p for w in players for p in self._pronunciations(w)]
        others = {w for w in _rule_words(jsgf, OTHERS_RULE)
                  if not any(_within_one_sound(p, q) for p in self._pronunciations(w) for q in said)}
        if not players or not others:
            return None
        for word in players | others:
            for n, phones in enumerate(self._pronunciations(word), 1):
                key = word if n == 1 else f"{word}({n})"
                if self._who.lookup_word(key) is None:
                    self._who.add_word(key, " ".join(phones), False)
        names = " | ".join(sorted(players | others))
        self._who.add_jsgf_string("who", f"#JSGF V1.0;\ngrammar who;\npublic <who> = {names};\n")
        self._who.activate_search("who")
        return frozenset(players), frozenset(others)

    def _someone_else(self, heard: _Decoded, audio: np.ndarray) -> str | None:
        """The name of someone not playing that a player's name in ``heard`` is heard as when its
        stretch of ``audio`` is decoded again on its own ("dad" for the "dan" of "Dad, do you
        have Master Soot?"), with the grammar decoding's cepstral mean; None if each is heard as a player's."""
        if self._addressees is None:
            return None
        players, others = self._addressees
        cmn = self._raw.grammar.get_cmn(False)
        for word, first, last in heard.spans:
            if word not in players:
                continue
            stretch = audio[max(first - WHO_PAD, 0) * _BLOCK:(last + 1 + WHO_PAD) * _BLOCK]
            self._who.set_cmn(cmn)
            self._who.start_utt()
            self._who.process_raw(_with_noise_floor(stretch, np.random.default_rng(0)), False, True)
            self._who.end_utt()
            hyp = self._who.hyp()
            if hyp is not None and hyp.hypstr in others:
                return hyp.hypstr
        return None

    def take_notice(self) -> str | None:
        notice, self._notice = self._notice, None
        return notice

    def set_child_voice(self, child: bool) -> None:
        """Warp the frequency axis by ``CHILD_WARP`` for a child, or not, from the next utterance
        on (about a millisecond); drops any utterance in progress."""
        warp = CHILD_WARP if child else 1.0
        if warp == self._raw.warp:
            return
        self.reset()
        self._raw.set_warp(warp)
        self._denoised.set_warp(warp)

    def _pronunciations(self, word: str) -> list[list[str]]:
        """Every pronunciation ``word`` has here, as phone lists ("ben", "ben(2)", ...)."""
        lookup = self._raw.grammar.lookup_word
        out, key, n = [], word, 1
        while (phones := self.added.get(key) or lookup(key)) is not None:
            out.append(phones.split())
            n += 1
            key = f"{word}({n})"
        return out

    def _stop_rivals(self, names: frozenset[str]) -> dict[str, tuple[str, frozenset[str]]]:
        """Name words that begin with a stop whose place its burst tells (``onsets.PLACES``), each
        with that place and the name words said the same but for a stop made elsewhere:
        "ben" (B EH N, B AE N) -> ("labial", {"dan"}) (D AE N)."""
        said = {w: self._pronunciations(w) for w in names}
        out = {}
        for word, ours in said.items():
            places = {PLACES.get(p[0]) for p in ours if p}
            if len(places) != 1 or None in places:
                continue
            place = places.pop()
            rivals = frozenset(other for other, theirs in said.items() if other != word and any(
                t[1:] == p[1:] and PLACES.get(t[0], place) != place for t in theirs if t for p in ours))
            if rivals:
                out[word] = (place, rivals)
        return out

    def _ruled_out(self, heard: _Decoded, audio: np.ndarray) -> frozenset[tuple[str, str]]:
        """(name word heard, rival) for each heard name word whose burst in ``audio`` (the utterance)
        was read as made where the word's own stop is (``onsets.stop_place``): ("ben", "dan") when
        the "ben" began at the lips."""
        room = None
        out: set[tuple[str, str]] = set()
        for word, frame, _ in heard.spans:
            if word in self._stops:
                place, rivals = self._stops[word]
                room = room or Room.of(audio)
                if stop_place(audio, frame * _BLOCK, room) == place:
                    out.update((word, rival) for rival in rivals)
        return frozenset(out)

    # ------------------------------------------------------------ audio

    def start(self) -> None:
        if not self._has_grammar:
            raise SpeechError("The recognizer has no grammar yet (set_grammar comes first).")
        self.reset()
        self._raw.start()
        self._denoised.start()
        self._in_utt = True

    def feed(self, pcm: bytes) -> Hearing | None:
        """Decode the audio as it arrives (in 30 ms pieces, so a partial lags by up to 30 ms); a partial
        Hearing when the best path changed."""
        if not self._in_utt:
            self.start()
        t0 = time.perf_counter()
        data = self._pending + pcm
        usable = len(data) - len(data) % (2 * _BLOCK)
        self._pending = data[usable:]
        if usable:
            self._process(data[:usable])
        hyp = self._raw.grammar.hyp()
        text = hyp.hypstr if hyp is not None else ""
        self._ms += (time.perf_counter() - t0) * 1000
        if text and text != self._last_partial:
            self._last_partial = text
            return Hearing((Alternative(text, 0.0),), decode_ms=round(self._ms, 1), final=False)
        return None

    def finish(self) -> Hearing:
        if not self._in_utt:
            return Hearing()
        t0 = time.perf_counter()
        self._process(self._pending[: len(self._pending) // 2 * 2], final=True)  # a stray odd byte is no sample
        self._pending = b""
        self._raw.end()
        self._denoised.end()
        self._in_utt = False
        audio = np.concatenate(self._audio) if self._audio else np.zeros(0, "<i2")
        self._audio = []
        energy = self._block_energy(audio)
        self.last_snr = float(np.percentile(energy, 90) - np.percentile(energy, 10)) if len(energy) else math.nan
        # Other people talking can sound like a burst; a fan cannot.
        self.last_steady_noise = steady_noise = len(energy) > 0 and self.last_snr >= BURST_SNR \
            and float(np.percentile(energy, 20) - np.percentile(energy, 5)) < STEADY_NOISE_DB
        noisy = max(0.0, QUIET_SNR - self.last_snr) / 10 if not math.isnan(self.last_snr) else 0.0
        # While the denoiser is still learning the room's noise, its output changes mid-utterance:
        # then the raw decoding is heard alone, as it was before the denoised one was added.
        steady = self.denoising and self._denoiser.drift_db <= STEADY_DB
        raw, denoised = self._raw.result(self._names), self._denoised.result(self._names) if steady else None
        self.last_agreed = agreed = raw is not None and denoised is not None and raw.key == denoised.key
        base = REJECT_MARGIN if self.reject_margin is None else self.reject_margin
        slope, word_slope = (AGREED_SLOPE, AGREED_WORD_SLOPE) if agreed else (NOISE_SLOPE, 0.0)
        # A child's voice fits the model worse, request and table talk alike: lower thresholds, and
        # every request is asked about ("Did you ask Ben for Mrs. Bun?"), never played at once.
        slack = CHILD_SLACK if self._raw.warp != 1.0 else 0.0
        self.last_reject = base - slope * noisy - slack

        def fits(heard: _Decoded | None) -> bool:
            return heard is not None and heard.margin >= self.last_reject \
                and heard.word_margin >= WORD_REJECT - word_slope * noisy - slack

        heard = raw
        doubtful = self.reject_margin is not None and raw is not None and not fits(raw)
        # In noise, when the two disagree, the denoised words are heard if they fit (never surely).
        self.last_denoised = self.reject_margin is not None and noisy > 0 and steady and not agreed \
            and fits(denoised)
        if self.last_denoised:
            heard, doubtful = denoised, False
        self.last_margin = heard.margin if heard else -math.inf
        self.last_word_margin = heard.word_margin if heard else -math.inf
        alternatives: tuple[Alternative, ...] = ()
        stray = False
        if heard is not None:
            confidence = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (SURE_MARGIN - heard.margin) / _MARGIN_SCALE))))
            alternatives = (Alternative(heard.text, round(confidence, 3)),)
            stray = self.reject_margin is not None and heard.margin < COMMAND_REJECT - NOISE_SLOPE * noisy - slack
        # In quiet the two decodings need not agree (round 17): there the raw audio is the cleaner one.
        sure = not slack and (agreed or not steady or not noisy) and self.last_margin >= SURE_MARGIN \
            and self.last_word_margin >= SURE_WORD_MARGIN and not doubtful
        # A player's name that is someone else's when heard on its own: "Dad, ..." is not for Dan.
        self.last_someone_else = self._someone_else(raw, audio) if sure and raw is not None else None
        sure = sure and self.last_someone_else is None
        # A sure hearing is the raw decoding's; its name words' bursts are read in quiet or steady noise.
        ruled_out = self._ruled_out(raw, audio) if sure and raw is not None and (not noisy or steady_noise) \
            else frozenset()
        if sure and raw is not None and not noisy:
            ruled_out |= {(word, rival) for word, _, _ in raw.spans for rival in HEARD_AS_SAID.get(word, ())}
        poor_fits = frozenset(w for w, m in raw.fits if m < LONE_WORD_MARGIN) if sure and raw is not None \
            else frozenset()
        self._ms += (time.perf_counter() - t0) * 1000
        if len(audio) >= 8000:  # half a second or more: long enough to tell a slow computer
            self._slow = self._slow + 1 if self._ms > self.max_load * len(audio) / 16 else 0
            if self.denoising and self._slow >= 3:
                self.denoising = False
                self._notice = "slow_computer"
        return Hearing(alternatives, decode_ms=round(self._ms, 1), final=True, sure=sure,
                       doubtful=doubtful or stray, stray=stray, ruled_out=ruled_out, poor_fits=poor_fits)

    def reset(self) -> None:
        if self._in_utt:
            self._raw.end(drop=True)
            self._denoised.end(drop=True)
        self._in_utt = False
        self._pending = b""
        self._audio = []
        self._denoiser.cancel()
        self._last_partial = ""
        self._ms = 0.0

    # ------------------------------------------------------------ inner

    def _process(self, pcm: bytes, final: bool = False) -> None:
        """Feed the raw audio to one decoding, and the denoised audio to the other; keep the raw."""
        samples = np.frombuffer(pcm, "<i2")
        if len(samples):
            self._audio.append(samples)
        self._raw.process(samples)
        if not self.denoising:
            return
        clean = self._denoiser.push(samples)
        if final:
            clean = np.concatenate([clean, self._denoiser.finish()])
        self._denoised.process(np.clip(np.rint(clean), -32768, 32767).astype("<i2"))

    @staticmethod
    def _block_energy(samples: np.ndarray) -> np.ndarray:
        """dB of each whole 10 ms block (the SNR estimate is taken from the audio as it came)."""
        whole = len(samples) - len(samples) % _BLOCK
        return 10 * np.log10(np.mean(samples[:whole].reshape(-1, _BLOCK).astype(np.float64) ** 2, axis=1) + 1.0)
