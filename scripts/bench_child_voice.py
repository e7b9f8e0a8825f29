"""Children's voices: the neural voice's clean corpus lines made a young child's, heard with and without
``Recognizer.set_child_voice`` (``voicegame play --child NAME``).

    python scripts/bench_child_voice.py              # about 21 min on 2 cores
    python scripts/bench_child_voice.py --json > child.json
    python scripts/bench_child_voice.py --half 1     # odd-numbered rows only (the tuning half)
    python scripts/bench_child_voice.py --condition white-10   # in noise, mixed in after the voice is a child's

No child's voice can be synthesized here, so ``render.as_a_child`` stands in: sox raises pitch and
every formant together, by 300 cents (19%), 400 (26%: about a child of 6-8 from this adult woman's
voice) or 500 (33%). Each recording is cut by the end-of-speech detector and taken as the table
takes it, as in ``bench_voice.py`` (whose corpus and helpers this uses). Conditions: the stand-in
heard as a grown-up (no --child), heard as a child, and the grown-up voice itself heard as a child
(a parent speaking on a child's turn).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import bench_voice as bv
import make_corpus

CONDITIONS = [(0, False), (400, False), (300, True), (400, True), (500, True), (0, True)]


def _condition(cents: int, child: bool) -> str:
    voice = f"child +{cents} cents" if cents else "grown-up"
    return f"{voice}, heard as {'a child' if child else 'a grown-up'}"


def _heard_pcm(corpus: Path, row: dict[str, Any], cents: int) -> bytes:
    """As ``bench_voice._heard_pcm``, the voice made a child's before the room's noise is mixed in."""
    from voicegame.speech.render import as_a_child

    return bv._heard_pcm(corpus, row, voice=(lambda pcm: as_a_child(pcm, cents)) if cents else None)


def _decode(args: tuple[int, bool, str, list[dict[str, Any]]]) -> tuple[str, list[dict[str, Any]]]:
    cents, child, corpus, rows = args
    listener = bv._Listener("pocketsphinx", rows[0]["deck"], rows[0]["players"])
    recognizer = listener.recognizer
    recognizer.set_child_voice(child)
    out = []
    for row, pcm, hearing, _, got in bv.hear_group(listener, rows, lambda r: _heard_pcm(Path(corpus), r, cents)):
        expect = row["expect"]
        right = (got.intent, got.target, got.card, got.family) == (expect["intent"], expect["target"],
                                                                    expect["card"], expect["family"])
        out.append({"id": row["id"], "kind": row["kind"], "text": row["text"], "heard": hearing.texts(),
                    "margin": round(recognizer.last_margin, 2), "outcome": bv.outcome(row, got), "right": right,
                    "sure": hearing.sure, "speech_found": bool(pcm)})
    return _condition(cents, child), out


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    req = [r for r in results if r["kind"] == "request"]
    chat = [r for r in results if r["kind"] == "chatter"]
    cmd = [r for r in results if r["kind"] == "command"]
    outcomes = Counter(r["outcome"] for r in results)
    return {
        "requests": len(req), "chatter": len(chat), "commands": len(cmd),
        "exact": outcomes["exact"], "wrong_moves": outcomes["wrong"],
        "right_after_yes": sum(r["outcome"] in ("exact", "confirm") and r["right"] for r in req),
        "confirm_other": sum(r["outcome"] == "confirm" and not r["right"] for r in req),
        "not_taken": sum(r["outcome"] == "rejected" for r in req),
        "chatter_moves": outcomes["chatter_move"], "chatter_asked": outcomes["chatter_confirm"],
        "chatter_commands": outcomes["chatter_command"], "commands_right": outcomes["command"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=make_corpus.DEFAULT_OUT)
    ap.add_argument("--half", type=int, choices=(0, 1), help="even (0) or odd (1) rows only")
    ap.add_argument("--condition", default="clean", help="the corpus's noise condition, e.g. white-10 (default clean)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not (args.corpus / "manifest.jsonl").exists():
        raise SystemExit(f"No corpus in {args.corpus}: run python scripts/make_corpus.py first.")
    rows = [r for r in bv._load_manifest(args.corpus) if r["family"] == "neural" and r["condition"] == args.condition]
    if not rows:
        raise SystemExit(f"No neural-voice lines in the condition {args.condition!r} in {args.corpus}.")
    if args.half is not None:
        rows = rows[args.half :: 2]
    jobs = [(cents, child, str(args.corpus), rows) for cents, child in CONDITIONS]
    started = time.perf_counter()
    results: dict[str, Any] = {}
    with mp.get_context("spawn").Pool(args.workers) as pool:
        for name, out in pool.imap_unordered(_decode, jobs):
            results[name] = out
    table = {_condition(*c): summarize(results[_condition(*c)]) for c in CONDITIONS}
    if args.json:
        seconds = round(time.perf_counter() - started)
        print(json.dumps({"condition": args.condition, "rows": len(rows), "seconds": seconds, "table": table,
                          "results": results}, ensure_ascii=False))
        return 0
    print(f"Children's voices, {args.condition}: {len(rows)} neural-voice lines per condition,"
          f" {time.perf_counter() - started:.0f} s")
    print("| voice, heard as | right after yes | played at once | asked about another request | not taken"
          " | wrong moves | chatter moves | chatter asked about | chatter taken as a command | commands heard right |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, s in table.items():
        print(f"| {name} | {s['right_after_yes']} of {s['requests']} | {s['exact']} | {s['confirm_other']}"
              f" | {s['not_taken']} | {s['wrong_moves']} | {s['chatter_moves']} | {s['chatter_asked']} of {s['chatter']}"
              f" | {s['chatter_commands']} | {s['commands_right']} of {s['commands']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
